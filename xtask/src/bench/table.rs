//! Result tables, rendered for the terminal (aligned columns) and for
//! `bench/RESULTS.md` (Markdown).

use std::fmt::Write as _;

/// A titled table whose first column is a label and the rest are figures.
pub struct Table {
    /// Shown above the table (a heading in Markdown).
    pub title: String,
    /// Column headings.
    pub headers: Vec<String>,
    /// The cells, one `Vec` per row, as many as `headers`.
    pub rows: Vec<Vec<String>>,
    /// Lines printed under the table (notes, `fact:` lines).
    pub notes: Vec<String>,
}

impl Table {
    /// An empty table with the given title and column headings.
    pub fn new(title: impl Into<String>, headers: &[&str]) -> Self {
        Self {
            title: title.into(),
            headers: headers.iter().map(|h| (*h).to_string()).collect(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Aligned text: the label column left-aligned, figures right-aligned.
    pub fn to_text(&self) -> String {
        let widths: Vec<usize> = (0..self.headers.len())
            .map(|c| {
                let cells = self.rows.iter().filter_map(|row| row.get(c)).chain([&self.headers[c]]);
                cells.map(|cell| cell.chars().count()).max().unwrap_or(0)
            })
            .collect();
        let mut out = format!("{}\n", self.title);
        let mut line = |cells: &[String]| {
            out.push(' ');
            for (c, cell) in cells.iter().enumerate() {
                let pad = widths[c].saturating_sub(cell.chars().count());
                if c == 0 {
                    let _ = write!(out, " {cell}{}", " ".repeat(pad));
                } else {
                    let _ = write!(out, "  {}{cell}", " ".repeat(pad));
                }
            }
            out.push('\n');
        };
        line(&self.headers);
        for row in &self.rows {
            line(row);
        }
        for note in &self.notes {
            let _ = writeln!(out, "  {note}");
        }
        out
    }

    /// A Markdown section: `### title`, the table, then the notes as a list.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.title);
        let row = |cells: &[String]| {
            format!("| {} |\n", cells.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | "))
        };
        out.push_str(&row(&self.headers));
        let alignments: Vec<String> =
            (0..self.headers.len()).map(|c| if c == 0 { "---".into() } else { "---:".into() }).collect();
        out.push_str(&row(&alignments));
        for cells in &self.rows {
            out.push_str(&row(cells));
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for note in &self.notes {
                let _ = writeln!(out, "- {note}");
            }
        }
        out.push('\n');
        out
    }
}

/// A duration in nanoseconds with a unit that keeps three or four digits.
pub fn format_time(ns: f64) -> String {
    match ns {
        ns if ns >= 1e9 => format!("{:.3} s", ns / 1e9),
        ns if ns >= 1e6 => format!("{:.3} ms", ns / 1e6),
        ns if ns >= 1e3 => format!("{:.3} µs", ns / 1e3),
        ns => format!("{ns:.2} ns"),
    }
}

/// A rate per second with a k/M/G suffix.
pub fn format_rate(per_second: f64) -> String {
    match per_second {
        r if r >= 1e9 => format!("{:.2} G/s", r / 1e9),
        r if r >= 1e6 => format!("{:.2} M/s", r / 1e6),
        r if r >= 1e3 => format!("{:.2} k/s", r / 1e3),
        r => format!("{r:.2} /s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut table = Table::new("await-value", &["engine", "time/op"]);
        table.rows.push(vec!["jsvm".into(), "1.00 µs".into()]);
        table.rows.push(vec!["node --jitless".into(), "12.5 ns".into()]);
        table.notes.push("not available: Boa".into());
        table
    }

    #[test]
    fn text_aligns_label_left_and_figures_right() {
        let text = sample().to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "await-value");
        assert_eq!(lines[1], "  engine          time/op");
        assert_eq!(lines[2], "  jsvm            1.00 µs");
        assert_eq!(lines[3], "  node --jitless  12.5 ns");
        assert_eq!(lines[4], "  not available: Boa");
    }

    #[test]
    fn markdown_has_heading_alignment_row_and_notes() {
        let md = sample().to_markdown();
        assert!(md.starts_with("### await-value\n\n| engine | time/op |\n| --- | ---: |\n| jsvm | 1.00 µs |\n"));
        assert!(md.contains("- not available: Boa\n"));
    }

    #[test]
    fn units_scale() {
        assert_eq!(format_time(1.5e6), "1.500 ms");
        assert_eq!(format_time(12.0), "12.00 ns");
        assert_eq!(format_rate(2.5e6), "2.50 M/s");
        assert_eq!(format_rate(3.0), "3.00 /s");
    }
}
