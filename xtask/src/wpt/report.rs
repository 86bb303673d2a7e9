//! Parsing the adapter's output and reporting subtest counts: the terminal
//! summary, `conformance/wpt.md` and the baseline.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::command::TaskError;

/// What one engine did with one test file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineResult {
    /// Subtests registered.
    pub tests: u64,
    /// Subtests that passed.
    pub passed: u64,
    /// The harness status once it completed (`OK`, `ERROR`, ...), or `None`
    /// if it never completed (the event loop ran dry or time ran out).
    pub done: Option<String>,
    /// Harness-level problems: scripts that threw or were missing, uncaught
    /// exceptions, unhandled rejections, the harness's own error message.
    pub errors: Vec<String>,
    /// The run was stopped at the time limit.
    pub timed_out: bool,
    /// Subtests that did not pass: name, status, message.
    pub failures: Vec<(String, String, String)>,
}

/// A JSON string field of an adapter line.
fn text(field: Option<&str>) -> String {
    field.and_then(|f| serde_json::from_str::<String>(f).ok()).unwrap_or_default()
}

impl EngineResult {
    /// Reads the adapter's lines (other output is ignored).
    pub fn parse(lines: &[String]) -> Self {
        let mut r = Self::default();
        for line in lines {
            let mut fields = line.split('\t');
            match fields.next() {
                Some("WPT-TEST") => r.tests += 1,
                Some("WPT-RESULT") => {
                    let status = fields.next().unwrap_or_default().to_owned();
                    let (name, message) = (text(fields.next()), text(fields.next()));
                    if status.eq_ignore_ascii_case("pass") {
                        r.passed += 1;
                    } else {
                        r.failures.push((name, status, message));
                    }
                }
                Some("WPT-DONE") => {
                    let status = fields.next().unwrap_or_default().to_owned();
                    let message = text(fields.next());
                    if !status.eq_ignore_ascii_case("ok") && !message.is_empty() {
                        r.errors.push(format!("harness {status}: {message}"));
                    }
                    r.done = Some(status);
                }
                Some("WPT-ERROR") => r.errors.push(text(fields.next())),
                Some("WPT-TIMEOUT") => r.timed_out = true,
                _ => {}
            }
        }
        r
    }

    /// A short note on how the run ended, if not cleanly.
    fn note(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.timed_out {
            parts.push("timed out".to_owned());
        } else if self.done.is_none() {
            parts.push("harness never completed".to_owned());
        }
        if let Some(first) = self.errors.first() {
            let first: String = first.chars().take(100).collect();
            parts.push(first.replace('|', "\\|"));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// One test file (or one variant of it) on both engines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileResult {
    /// Why the file was not run (it needs a browser).
    pub skipped: Option<String>,
    /// jsvm's run.
    pub jsvm: EngineResult,
    /// node's run, unless only jsvm ran (`--check`).
    pub node: Option<EngineResult>,
}

impl FileResult {
    /// Subtests in the file: as many as the engine that registered more.
    fn total(&self) -> u64 {
        self.jsvm.tests.max(self.node.as_ref().map_or(0, |n| n.tests))
    }
}

/// Sums per directory.
#[derive(Default, Clone, Copy)]
struct Totals {
    files: u64,
    skipped: u64,
    subtests: u64,
    jsvm: u64,
    node: u64,
}

impl Totals {
    fn add(&mut self, r: &FileResult) {
        self.files += 1;
        self.skipped += u64::from(r.skipped.is_some());
        self.subtests += r.total();
        self.jsvm += r.jsvm.passed;
        self.node += r.node.as_ref().map_or(0, |n| n.passed);
    }
}

/// The directory a file is counted under.
fn directory(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn by_directory(results: &BTreeMap<String, FileResult>) -> BTreeMap<String, Totals> {
    let mut dirs: BTreeMap<String, Totals> = BTreeMap::new();
    for (file, r) in results {
        dirs.entry(directory(file).to_owned()).or_default().add(r);
    }
    dirs
}

fn overall(results: &BTreeMap<String, FileResult>) -> Totals {
    let mut t = Totals::default();
    for r in results.values() {
        t.add(r);
    }
    t
}

fn ratio(passed: u64, total: u64) -> String {
    let percent = if total == 0 { 0.0 } else { 100.0 * passed as f64 / total as f64 };
    format!("{passed}/{total} ({percent:.1}%)")
}

/// Every subtest that did not pass and every harness problem, per file.
pub fn details(results: &BTreeMap<String, FileResult>) -> String {
    let mut out = String::new();
    for (file, r) in results {
        if let Some(why) = &r.skipped {
            let _ = writeln!(out, "SKIP {file}: {why}");
            continue;
        }
        let engines = [("jsvm", Some(&r.jsvm)), ("node", r.node.as_ref())];
        for (engine, result) in engines {
            let Some(result) = result else { continue };
            let _ = writeln!(out, "{engine} {file}: {}", ratio(result.passed, result.tests));
            for e in &result.errors {
                let _ = writeln!(out, "  ERROR {e}");
            }
            if result.timed_out {
                let _ = writeln!(out, "  TIMEOUT");
            }
            for (name, status, message) in &result.failures {
                let _ = writeln!(out, "  {status} {name}: {}", message.lines().next().unwrap_or_default());
            }
        }
    }
    out
}

/// The per-directory table for the terminal.
pub fn summary(results: &BTreeMap<String, FileResult>, elapsed: Duration) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{:<40} {:>6} {:>8} {:>20} {:>20}", "directory", "files", "subtests", "jsvm", "node");
    for (dir, t) in by_directory(results) {
        let _ = writeln!(
            out,
            "{dir:<40} {:>6} {:>8} {:>20} {:>20}",
            t.files,
            t.subtests,
            ratio(t.jsvm, t.subtests),
            ratio(t.node, t.subtests)
        );
    }
    let t = overall(results);
    let _ = writeln!(
        out,
        "wpt: {} files ({} skipped) in {:.1}s, {} subtests: jsvm {}, node {}",
        t.files,
        t.skipped,
        elapsed.as_secs_f64(),
        t.subtests,
        ratio(t.jsvm, t.subtests),
        ratio(t.node, t.subtests)
    );
    out
}

/// Writes `wpt.md` and `wpt-baseline.json`.
pub fn write(dir: &Path, results: &BTreeMap<String, FileResult>, root: &Path) -> Result<(), TaskError> {
    let revision = std::fs::read_to_string(root.join("REVISION")).unwrap_or_default();
    let revision = revision.lines().find_map(|l| l.strip_prefix("commit: ")).unwrap_or("unknown").to_owned();
    let node_version = std::process::Command::new("node")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let t = overall(results);
    let mut md = String::new();
    let _ = writeln!(md, "# WPT results (streams, encoding)\n");
    let _ = writeln!(md, "Generated by `cargo xtask wpt`; do not edit. WPT revision {revision}; node {node_version}.");
    let _ = writeln!(
        md,
        "Both engines run each file through the same adapter (`xtask/src/wpt/adapter.js`). A file's subtest \
         total is the larger of the two engines' registered counts. Skipped files need a browser \
         (`*.window.js`, `*.html`, `transferable/`) and count as not passed.\n"
    );
    let _ = writeln!(
        md,
        "**Total: {} files ({} skipped), {} subtests: jsvm {}, node {}.**\n",
        t.files,
        t.skipped,
        t.subtests,
        ratio(t.jsvm, t.subtests),
        ratio(t.node, t.subtests)
    );
    let _ = writeln!(
        md,
        "## By directory\n\n| directory | files | skipped | subtests | jsvm | node |\n|---|---:|---:|---:|---:|---:|"
    );
    for (d, t) in by_directory(results) {
        let _ = writeln!(
            md,
            "| {d} | {} | {} | {} | {} | {} |",
            t.files,
            t.skipped,
            t.subtests,
            ratio(t.jsvm, t.subtests),
            ratio(t.node, t.subtests)
        );
    }
    let _ = writeln!(md, "\n## By file\n\n| file | subtests | jsvm | node | notes (jsvm) |\n|---|---:|---:|---:|---|");
    for (file, r) in results {
        if let Some(why) = &r.skipped {
            let _ = writeln!(md, "| {file} | – | skipped | skipped | {why} |");
            continue;
        }
        let node = r.node.as_ref().map_or(0, |n| n.passed);
        let _ = writeln!(
            md,
            "| {file} | {} | {} | {node} | {} |",
            r.total(),
            r.jsvm.passed,
            r.jsvm.note().unwrap_or_default()
        );
    }
    std::fs::write(dir.join("wpt.md"), md).map_err(|e| TaskError::Conformance(e.to_string()))?;
    crate::baseline::write(&dir.join("wpt-baseline.json"), results.iter().map(|(k, r)| (k, r.jsvm.passed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_adapter_lines() {
        let lines: Vec<String> = [
            "WPT-TEST\t\"a\"",
            "WPT-TEST\t\"b\"",
            "noise",
            "WPT-RESULT\tPass\t\"a\"\t\"\"",
            "WPT-RESULT\tFail\t\"b\"\t\"assert_equals: expected 1 but got 2\"",
            "WPT-DONE\tOK\t\"\"",
            "WPT-ERROR\t\"script x.js: TypeError\"",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let r = EngineResult::parse(&lines);
        assert_eq!((r.tests, r.passed), (2, 1));
        assert_eq!(r.done.as_deref(), Some("OK"));
        assert_eq!(r.failures[0].0, "b");
        assert_eq!(r.errors, ["script x.js: TypeError"]);
        assert!(!r.timed_out);
    }
}
