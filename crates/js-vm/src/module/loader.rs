//! The embedder's module hooks (HostLoadImportedModule split in two:
//! resolving a specifier to a module-map key, and reading a key's text)
//! and the default loader, which follows Node's ES module resolution for
//! files.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// Why a module could not be resolved or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleLoadError {
    /// The error message.
    pub message: String,
    /// Node's error `code` (`ERR_MODULE_NOT_FOUND`), set on the thrown
    /// `Error`.
    pub code: Option<String>,
}

/// How a VM finds modules. Built-in `node:` modules are handled by the VM
/// before the loader is asked.
pub trait ModuleLoader {
    /// Resolves `specifier` imported by `referrer` (the importing module's
    /// key or the importing script's file name; `None` for an entry point)
    /// to the module's key. Equal keys are the same module.
    fn resolve(&mut self, specifier: &str, referrer: Option<&str>) -> Result<String, ModuleLoadError>;

    /// The source text of the module `key`.
    fn load(&mut self, key: &str) -> Result<String, ModuleLoadError>;

    /// `import.meta.url` of the module `key`.
    fn url(&self, key: &str) -> String {
        key.to_owned()
    }

    /// The file the module `key` was read from, if it is a file:
    /// `import.meta.filename`, and its directory `import.meta.dirname`.
    fn file_path(&self, _key: &str) -> Option<String> {
        None
    }

    /// `import.meta.resolve(specifier)` in the module `referrer`: the URL
    /// `specifier` names, whether or not a module is there (Node resolves
    /// without loading).
    fn resolve_url(&mut self, specifier: &str, referrer: &str) -> Result<String, ModuleLoadError> {
        let key = self.resolve(specifier, Some(referrer))?;
        Ok(self.url(&key))
    }
}

/// Modules are files: relative specifiers (`./x.mjs`, `../y.js`) resolve
/// against the importer's directory (the current directory for an entry
/// point), absolute paths and `file:` URLs are taken as they are, and the
/// key is the canonical path. Bare specifiers (packages) are not
/// supported.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

/// Node's ERR_MODULE_NOT_FOUND.
fn not_found(message: String) -> ModuleLoadError {
    ModuleLoadError { message, code: Some("ERR_MODULE_NOT_FOUND".to_owned()) }
}

/// Removes `.` and `..` components without touching the file system.
fn normalize(path: &Path) -> PathBuf {
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

/// Decodes `%XX` escapes of a `file:` URL path.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(text.get(i + 1..i + 3).unwrap_or(""), 16)
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
    let mut url = String::from("file://");
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b);
        if keep {
            url.push(char::from(b));
        } else {
            let _ = write!(url, "%{b:02X}");
        }
    }
    url
}

impl FsLoader {
    /// The path `specifier` names from `referrer` (the current directory
    /// for an entry point), normalised but not looked up.
    fn candidate_path(specifier: &str, referrer: Option<&str>) -> Result<PathBuf, ModuleLoadError> {
        let base_dir = match referrer {
            Some(r) => {
                let r = Path::new(r);
                let absolute =
                    if r.is_absolute() { r.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(r) };
                absolute.parent().map(Path::to_path_buf).unwrap_or_default()
            }
            None => std::env::current_dir().unwrap_or_default(),
        };
        let path = if let Some(rest) = specifier.strip_prefix("file://") {
            PathBuf::from(percent_decode(rest))
        } else if specifier.starts_with('/') {
            PathBuf::from(specifier)
        } else if specifier.starts_with("./") || specifier.starts_with("../") || referrer.is_none() {
            base_dir.join(specifier)
        } else {
            let from = referrer.unwrap_or("<entry>");
            return Err(not_found(format!("Cannot find package '{specifier}' imported from {from}")));
        };
        Ok(normalize(&path))
    }
}

impl ModuleLoader for FsLoader {
    fn resolve(&mut self, specifier: &str, referrer: Option<&str>) -> Result<String, ModuleLoadError> {
        let path = Self::candidate_path(specifier, referrer)?;
        match std::fs::canonicalize(&path) {
            Ok(p) if p.is_file() => Ok(p.to_string_lossy().into_owned()),
            _ => {
                let shown = path.to_string_lossy();
                Err(not_found(match referrer {
                    Some(r) => format!("Cannot find module '{shown}' imported from {r}"),
                    None => format!("Cannot find module '{shown}'"),
                }))
            }
        }
    }

    fn load(&mut self, key: &str) -> Result<String, ModuleLoadError> {
        std::fs::read_to_string(key)
            .map_err(|e| ModuleLoadError { message: format!("Cannot read module '{key}': {e}"), code: None })
    }

    fn url(&self, key: &str) -> String {
        file_url(key)
    }

    fn file_path(&self, key: &str) -> Option<String> {
        Some(key.to_owned())
    }

    fn resolve_url(&mut self, specifier: &str, referrer: &str) -> Result<String, ModuleLoadError> {
        let path = Self::candidate_path(specifier, Some(referrer))?;
        Ok(file_url(&path.to_string_lossy()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_escape_like_node() {
        assert_eq!(file_url("/a b/c%.mjs"), "file:///a%20b/c%25.mjs");
        assert_eq!(percent_decode("/a%20b/c%25.mjs"), "/a b/c%.mjs");
    }

    #[test]
    fn dot_segments_are_removed() {
        assert_eq!(normalize(Path::new("/a/./b/../c.mjs")), PathBuf::from("/a/c.mjs"));
    }

    #[test]
    fn missing_files_are_not_found() {
        let mut loader = FsLoader;
        let err = loader.resolve("./definitely-missing.mjs", Some("/nonexistent/main.mjs")).unwrap_err();
        assert_eq!(err.code.as_deref(), Some("ERR_MODULE_NOT_FOUND"));
        assert!(err.message.contains("/nonexistent/definitely-missing.mjs"));
        assert!(loader.resolve("lodash", Some("/x/main.mjs")).is_err());
    }

    #[test]
    fn resolve_url_does_not_need_the_file() {
        let mut loader = FsLoader;
        assert_eq!(loader.resolve_url("./missing.mjs", "/a/b/main.mjs").unwrap(), "file:///a/b/missing.mjs");
        assert_eq!(loader.resolve_url("../x/p q.js", "/a/b/main.mjs").unwrap(), "file:///a/x/p%20q.js");
        assert_eq!(loader.resolve_url("pkg", "/a/main.mjs").unwrap_err().code.as_deref(), Some("ERR_MODULE_NOT_FOUND"));
    }
}
