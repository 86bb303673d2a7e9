//! Node's ES module resolution (`ESM_RESOLVE`) and format
//! (`ESM_FILE_FORMAT`): specifiers are URLs, files are named in full.

use std::path::{Path, PathBuf};

use super::errors::{ErrorCode, ResolveError, invalid_specifier};
use super::{Format, PackageType, Resolved, Resolver, normalize, percent_decode};

/// The conditions `import` matches in `exports` and `imports`.
pub const ESM_CONDITIONS: &[&str] = &["node", "import"];

/// Whether a specifier is a path rather than a bare name
/// (`shouldBeTreatedAsRelativeOrAbsolutePath`).
pub(crate) fn is_relative_or_absolute(specifier: &str) -> bool {
    specifier.starts_with('/')
        || specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier == "."
        || specifier == ".."
}

impl Resolver {
    /// `ESM_RESOLVE(specifier, parentURL)`: the module `import specifier`
    /// names from the file `parent` (an entry point resolves against the
    /// current directory), with Node's hints appended to a not-found
    /// error when `require` would have found something.
    ///
    /// # Errors
    ///
    /// Node's error for the failed step.
    pub fn resolve_import(&mut self, specifier: &str, parent: &Path) -> Result<Resolved, ResolveError> {
        self.module_resolve(specifier, parent).map_err(|mut error| {
            if matches!(error.code, ErrorCode::ErrModuleNotFound | ErrorCode::UnsupportedDirImport)
                && let Some(hint) = self.commonjs_hint(specifier, parent)
            {
                error.message = format!("{}\nDid you mean to import \"{hint}\"?", error.message);
            }
            error
        })
    }

    /// The URL `import.meta.resolve(specifier)` gives: like
    /// [`Resolver::resolve_import`], but a missing file is still a URL.
    pub fn resolve_import_url(&mut self, specifier: &str, parent: &Path) -> Result<String, ResolveError> {
        match self.module_resolve(specifier, parent) {
            Ok(Resolved::Builtin(name)) => Ok(format!("node:{name}")),
            Ok(Resolved::File(path)) => Ok(super::file_url(&path.to_string_lossy())),
            Err(e) if e.code == ErrorCode::ErrModuleNotFound && is_relative_or_absolute(specifier) => {
                let path = Self::specifier_path(specifier, parent);
                Ok(super::file_url(&path.to_string_lossy()))
            }
            Err(e) if e.code == ErrorCode::ErrModuleNotFound && specifier.starts_with("file://") => {
                Ok(super::file_url(&normalize(Path::new(&percent_decode(&specifier[7..]))).to_string_lossy()))
            }
            Err(e) => Err(e),
        }
    }

    /// The path a relative or absolute specifier names, not looked up.
    fn specifier_path(specifier: &str, parent: &Path) -> PathBuf {
        let dir = parent.parent().unwrap_or(Path::new("/"));
        let mut path = normalize(&dir.join(percent_decode(specifier)));
        // A URL keeps its trailing slash, and Node's messages show it.
        if specifier.ends_with('/') && path.parent().is_some() {
            path.push("");
        }
        path
    }

    fn module_resolve(&mut self, specifier: &str, parent: &Path) -> Result<Resolved, ResolveError> {
        let resolved = if is_relative_or_absolute(specifier) {
            if has_encoded_separator(specifier) {
                let path = normalize(&parent.parent().unwrap_or(Path::new("/")).join(specifier));
                return Err(invalid_specifier(
                    &path.to_string_lossy(),
                    "must not include encoded \"/\" or \"\\\" characters",
                    Some(parent),
                ));
            }
            Resolved::File(Self::specifier_path(specifier, parent))
        } else if specifier.starts_with('#') {
            self.package_imports_resolve(specifier, parent, ESM_CONDITIONS)?
        } else if let Some(rest) = specifier.strip_prefix("file://") {
            Resolved::File(normalize(Path::new(&percent_decode(rest))))
        } else if let Some(name) = specifier.strip_prefix("node:") {
            return match self.builtin(name) {
                Some(name) => Ok(Resolved::Builtin(name)),
                None => Err(ResolveError::new(
                    ErrorCode::UnknownBuiltinModule,
                    format!("No such built-in module: {specifier}"),
                )),
            };
        } else if super::is_url(specifier) {
            let scheme = &specifier[..=specifier.find(':').unwrap_or(0)];
            return Err(ResolveError::new(
                ErrorCode::UnsupportedEsmUrlScheme,
                format!(
                    "Only URLs with a scheme in: file, data, and node are supported by the default ESM loader. \
                     Received protocol '{scheme}'"
                ),
            ));
        } else {
            self.package_resolve(specifier, parent, ESM_CONDITIONS)?
        };
        match resolved {
            Resolved::File(path) => finalize_resolution(&path, parent).map(Resolved::File),
            builtin @ Resolved::Builtin(_) => Ok(builtin),
        }
    }

    /// What `require(specifier)` from `parent` would find, as Node words
    /// its "Did you mean" hint.
    fn commonjs_hint(&mut self, specifier: &str, parent: &Path) -> Option<String> {
        let specifier = specifier.strip_prefix("file://").map_or_else(|| specifier.to_owned(), percent_decode);
        let found = match self.resolve_require(&specifier, Some(parent), &[]).ok()? {
            Resolved::File(p) => p,
            Resolved::Builtin(_) => return None,
        };
        if specifier.starts_with("./") || specifier.starts_with("../") {
            let dir = parent.parent()?;
            let relative = relative_path(dir, &found);
            return Some(if relative.starts_with("../") { relative } else { format!("./{relative}") });
        }
        if is_relative_or_absolute(&specifier) || super::is_url(&specifier) {
            return Some(found.to_string_lossy().into_owned());
        }
        let package = specifier.split('/').next().unwrap_or(&specifier);
        let found_text = found.to_string_lossy();
        let needle = format!("/node_modules/{package}/");
        match found_text.rfind(&needle) {
            Some(i) => Some(format!("{package}/{}", &found_text[i + needle.len()..])),
            None => Some(super::file_url(&found_text)),
        }
    }

    /// `ESM_FILE_FORMAT(url)`: how an imported file is evaluated.
    ///
    /// # Errors
    ///
    /// `ERR_UNKNOWN_FILE_EXTENSION` for an extension Node does not load.
    pub fn esm_format(&mut self, path: &Path) -> Result<Format, ResolveError> {
        let extension = path.extension().map(|e| e.to_string_lossy().into_owned());
        match extension.as_deref() {
            Some("mjs") => Ok(Format::Module),
            Some("cjs") => Ok(Format::CommonJs),
            Some("json") => Ok(Format::Json),
            Some("js") | None => Ok(match self.packages.package_type(path) {
                PackageType::Module => Format::Module,
                _ => Format::CommonJs,
            }),
            Some(other) => Err(ResolveError {
                code: ErrorCode::UnknownFileExtension,
                message: format!("Unknown file extension \".{other}\" for {}", path.display()),
                require_stack: None,
            }),
        }
    }
}

/// `%2F` or `%5C` (any case) in a specifier.
fn has_encoded_separator(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("%2f") || lower.contains("%5c")
}

/// The file a resolved URL names must exist and not be a directory; the
/// result is its real path.
fn finalize_resolution(path: &Path, parent: &Path) -> Result<PathBuf, ResolveError> {
    let text = path.to_string_lossy();
    if path.is_dir() {
        return Err(ResolveError::new(
            ErrorCode::UnsupportedDirImport,
            format!(
                "Directory import '{text}' is not supported resolving ES modules imported from {}",
                parent.display()
            ),
        ));
    }
    if !path.is_file() {
        return Err(ResolveError::new(
            ErrorCode::ErrModuleNotFound,
            format!("Cannot find module '{text}' imported from {}", parent.display()),
        ));
    }
    Ok(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// `path.relative(from, to)` with `/` separators.
fn relative_path(from: &Path, to: &Path) -> String {
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); from.len() - common];
    parts.extend(to_parts[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(relative_path(Path::new("/a/b"), Path::new("/a/b/c/d.js")), "c/d.js");
        assert_eq!(relative_path(Path::new("/a/b"), Path::new("/a/x.js")), "../x.js");
    }

    #[test]
    fn relative_specifiers() {
        assert!(is_relative_or_absolute("./a") && is_relative_or_absolute("..") && is_relative_or_absolute("/x"));
        assert!(!is_relative_or_absolute(".a") && !is_relative_or_absolute("a/b"));
    }
}
