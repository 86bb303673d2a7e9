//! Node 20's module resolution, both systems, as pure functions of the
//! file system: `require` ([`Resolver::resolve_require`]), `import`
//! ([`Resolver::resolve_import`]) and the format of a file
//! ([`Resolver::esm_format`]). Nothing here touches the VM, so the runtime
//! that hosts Node's module system can take it as it is.
//!
//! Paths are absolute; URLs appear only where Node shows them.

mod cjs;
pub mod errors;
mod esm;
mod exports;
pub mod package_json;

use std::path::{Component, Path, PathBuf};

pub use cjs::{CJS_CONDITIONS, node_module_paths};
pub use errors::{ErrorCode, ResolveError};
pub use esm::ESM_CONDITIONS;
pub use package_json::{PackageJson, PackageJsonCache, PackageType};

/// What a specifier resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A built-in module, by its name without `node:`.
    Builtin(&'static str),
    /// A file, by its real path.
    File(PathBuf),
}

/// How a file is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An ES module.
    Module,
    /// A CommonJS module.
    CommonJs,
    /// A JSON file.
    Json,
}

/// The resolver: the built-in modules the host has, the global folders
/// `require` searches last, and the package.json files read so far.
#[derive(Debug)]
pub struct Resolver {
    builtins: &'static [&'static str],
    /// `Module.globalPaths`.
    pub global_paths: Vec<PathBuf>,
    /// package.json files read so far.
    pub packages: PackageJsonCache,
}

impl Resolver {
    /// A resolver for a host whose built-in modules are `builtins` (names
    /// without `node:`), with Node's global folders under `home`.
    pub fn new(builtins: &'static [&'static str], home: Option<&Path>) -> Self {
        let global_paths = home.map(|h| vec![h.join(".node_modules"), h.join(".node_libraries")]).unwrap_or_default();
        Self { builtins, global_paths, packages: PackageJsonCache::default() }
    }

    /// The built-in module `name` (without `node:`), if the host has it.
    pub fn builtin(&self, name: &str) -> Option<&'static str> {
        self.builtins.iter().copied().find(|b| *b == name)
    }

    /// How `require` evaluates `path`: JSON for `.json`, an ES module for
    /// `.mjs` and for `.js` in a `"type": "module"` package, CommonJS
    /// otherwise (any other extension is read as JavaScript).
    pub fn require_format(&mut self, path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") => Format::Json,
            Some("mjs") => Format::Module,
            Some("js") if self.packages.package_type(path) == PackageType::Module => Format::Module,
            _ => Format::CommonJs,
        }
    }
}

/// Removes `.` and `..` components without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Decodes the `%XX` escapes of a URL path.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(b) = text.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `file://` URL of an absolute path (characters outside the URL path
/// set percent-encoded, as Node's `pathToFileURL`).
pub fn file_url(path: &str) -> String {
    use std::fmt::Write as _;
    let mut url = String::from("file://");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            url.push(char::from(b));
        } else {
            let _ = write!(url, "%{b:02X}");
        }
    }
    url
}

/// Whether `text` parses as an absolute URL: a scheme (a letter, then
/// letters, digits, `+`, `-`, `.`) and a colon.
pub(crate) fn is_url(text: &str) -> bool {
    let Some(colon) = text.find(':') else { return false };
    let scheme = &text[..colon];
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_escape_like_node() {
        assert_eq!(file_url("/a b/c%.mjs"), "file:///a%20b/c%25.mjs");
        assert_eq!(percent_decode("/a%20b/c%25.mjs"), "/a b/c%.mjs");
        assert_eq!(percent_decode("%2"), "%2");
    }

    #[test]
    fn dot_segments_are_removed() {
        assert_eq!(normalize(Path::new("/a/./b/../c.mjs")), PathBuf::from("/a/c.mjs"));
    }

    #[test]
    fn urls_have_a_scheme() {
        assert!(is_url("http://x") && is_url("node:fs") && is_url("c:/x"));
        assert!(!is_url("pkg/a:b") && !is_url("1a:b") && !is_url("pkg"));
    }
}
