//! The `// META:` header of a WPT `.any.js` test and the scripts it loads.

use std::path::{Path, PathBuf};

/// What a test's header asks for.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Meta {
    /// `title=`: the name untitled subtests get.
    pub title: Option<String>,
    /// `script=` values in order, as written.
    pub scripts: Vec<String>,
    /// `global=` scopes (comma-separated values joined).
    pub globals: Vec<String>,
    /// `variant=` query strings (`?1-1000`); each is a separate run.
    pub variants: Vec<String>,
    /// `timeout=long`.
    pub long_timeout: bool,
}

/// Parses the `// META: key=value` lines at the top of `source`.
pub fn parse(source: &str) -> Meta {
    let mut meta = Meta::default();
    for line in source.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(rest) = line.strip_prefix("//") else { break };
        let Some(entry) = rest.trim().strip_prefix("META:") else { continue };
        let Some((key, value)) = entry.trim().split_once('=') else { continue };
        let value = value.trim().to_owned();
        match key.trim() {
            "title" => meta.title = Some(value),
            "script" => meta.scripts.push(value),
            "global" => meta.globals.extend(value.split(',').map(|g| g.trim().to_owned())),
            "variant" => meta.variants.push(value),
            "timeout" => meta.long_timeout = value == "long",
            _ => {}
        }
    }
    meta
}

/// The file a `script=` value names: a path starting with `/` is relative
/// to the suite root, any other to the test's directory. The WPT server
/// serves `/resources/WebIDLParser.js` from webidl2, so it maps there.
pub fn resolve_script(root: &Path, test: &Path, script: &str) -> PathBuf {
    if script == "/resources/WebIDLParser.js" {
        return root.join("resources/webidl2/lib/webidl2.js");
    }
    match script.strip_prefix('/') {
        Some(absolute) => root.join(absolute),
        None => test.parent().unwrap_or(root).join(script),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_header_only() {
        let meta = parse(
            "// META: global=window,worker\n// META: script=../resources/a.js\n// META: variant=?1-10\n\
             // META: variant=?11-last\n// META: timeout=long\n// META: title=T\n'use strict';\n// META: script=no.js\n",
        );
        assert_eq!(meta.globals, ["window", "worker"]);
        assert_eq!(meta.scripts, ["../resources/a.js"]);
        assert_eq!(meta.variants, ["?1-10", "?11-last"]);
        assert!(meta.long_timeout);
        assert_eq!(meta.title.as_deref(), Some("T"));
    }

    #[test]
    fn resolves_scripts_like_the_wpt_server() {
        let root = Path::new("/wpt");
        let test = Path::new("/wpt/streams/piping/abort.any.js");
        assert_eq!(resolve_script(root, test, "../resources/x.js"), Path::new("/wpt/streams/piping/../resources/x.js"));
        assert_eq!(resolve_script(root, test, "/common/gc.js"), Path::new("/wpt/common/gc.js"));
        assert_eq!(
            resolve_script(root, test, "/resources/WebIDLParser.js"),
            Path::new("/wpt/resources/webidl2/lib/webidl2.js")
        );
    }
}
