//! The YAML front matter of a test262 file (`/*--- ... ---*/`): only the
//! keys the runner needs, read with a small line-based parser.

/// When a negative test must fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negative {
    /// `parse`, `resolution` or `runtime`.
    pub phase: String,
    /// The expected error constructor's name.
    pub error_type: String,
}

/// A test's metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// Harness files to evaluate before the test.
    pub includes: Vec<String>,
    /// `onlyStrict`, `noStrict`, `raw`, `async`, `module`, ...
    pub flags: Vec<String>,
    /// Feature tags.
    pub features: Vec<String>,
    /// Expected failure, for negative tests.
    pub negative: Option<Negative>,
}

impl Metadata {
    /// Whether `flag` is set.
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

/// Parses an inline list `[a, b]` or returns `None`.
fn inline_list(value: &str) -> Option<Vec<String>> {
    let inner = value.trim().strip_prefix('[')?.strip_suffix(']')?;
    Some(inner.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
}

/// Reads the metadata of a test's source text.
pub fn parse(source: &str) -> Metadata {
    let mut meta = Metadata::default();
    let Some(start) = source.find("/*---") else { return meta };
    let Some(end) = source[start..].find("---*/") else { return meta };
    let yaml = &source[start + 5..start + end];
    let mut current_list: Option<&str> = None;
    let mut in_negative = false;
    let (mut phase, mut error_type) = (String::new(), String::new());
    // A test may use CR alone as its line terminator (the
    // line-terminator-normalisation tests do); `str::lines` would see one line.
    for line in yaml.split(['\n', '\r']) {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indented = line.starts_with(' ') || line.starts_with('\t');
        if let (true, Some(item)) = (indented, trimmed.strip_prefix("- ")) {
            match current_list {
                Some("includes") => meta.includes.push(item.trim().to_owned()),
                Some("flags") => meta.flags.push(item.trim().to_owned()),
                Some("features") => meta.features.push(item.trim().to_owned()),
                _ => {}
            }
            continue;
        }
        if indented && in_negative {
            if let Some((k, v)) = trimmed.split_once(':') {
                match k.trim() {
                    "phase" => v.trim().clone_into(&mut phase),
                    "type" => v.trim().clone_into(&mut error_type),
                    _ => {}
                }
            }
            continue;
        }
        if indented {
            continue;
        }
        current_list = None;
        in_negative = false;
        let Some((key, value)) = trimmed.split_once(':') else { continue };
        let key = key.trim();
        match key {
            "includes" | "flags" | "features" => {
                let items = inline_list(value);
                let target = match key {
                    "includes" => &mut meta.includes,
                    "flags" => &mut meta.flags,
                    _ => &mut meta.features,
                };
                match items {
                    Some(items) => target.extend(items),
                    None => current_list = Some(key),
                }
                if current_list.is_some() {
                    current_list = Some(match key {
                        "includes" => "includes",
                        "flags" => "flags",
                        _ => "features",
                    });
                }
            }
            "negative" => in_negative = true,
            _ => {}
        }
    }
    if in_negative || !phase.is_empty() {
        meta.negative = Some(Negative { phase, error_type });
    }
    meta
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_flags_and_negative() {
        let src = "/*---\nesid: x\nincludes: [compareArray.js, propertyHelper.js]\nflags: [onlyStrict]\nnegative:\n  phase: parse\n  type: SyntaxError\nfeatures:\n  - let\n  - class\n---*/\n$DONOTEVALUATE();";
        let m = parse(src);
        assert_eq!(m.includes, vec!["compareArray.js", "propertyHelper.js"]);
        assert!(m.has_flag("onlyStrict"));
        assert_eq!(m.features, vec!["let", "class"]);
        assert_eq!(m.negative, Some(Negative { phase: "parse".into(), error_type: "SyntaxError".into() }));
    }

    #[test]
    fn multiline_description_does_not_confuse_the_parser() {
        let src = "/*---\ndescription: |\n  flags: [raw]\n  - nope\nflags: [noStrict]\n---*/";
        let m = parse(src);
        assert_eq!(m.flags, vec!["noStrict"]);
        assert!(m.negative.is_none());
    }
}
