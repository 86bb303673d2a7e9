//! Node's CommonJS resolution (`Module._resolveFilename`): paths relative
//! to the requiring file, the node_modules walk, `exports`/`imports` with
//! the `require` condition, and the `.js`/`.json`/`.node` and `index`
//! rules.

use std::path::{Path, PathBuf};

use super::errors::{ErrorCode, ResolveError};
use super::{Resolved, Resolver, normalize};

/// The conditions `require` matches in `exports` and `imports`.
pub const CJS_CONDITIONS: &[&str] = &["node", "require"];

/// The extensions `require` tries, in order (`Module._extensions`).
const EXTENSIONS: &[&str] = &[".js", ".json", ".node"];

/// `Module._nodeModulePaths(from)`: `node_modules` in `from` and each
/// directory above it, skipping directories that are themselves called
/// `node_modules`.
pub fn node_module_paths(from: &Path) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let mut dir = Some(from);
    while let Some(d) = dir {
        if d.parent().is_some() && d.file_name().is_none_or(|n| n != "node_modules") {
            paths.push(d.join("node_modules"));
        }
        dir = d.parent();
    }
    paths.push(PathBuf::from("/node_modules"));
    paths
}

/// Whether `request` is relative in the sense of `_resolveLookupPaths`:
/// `.`, `..`, or starting with `./` or `../`.
fn is_relative(request: &str) -> bool {
    request == "." || request == ".." || request.starts_with("./") || request.starts_with("../")
}

/// `_findPath`'s trailing-slash test: the request names a directory.
fn has_trailing_slash(request: &str) -> bool {
    request.ends_with('/') || request == "." || request == ".." || request.ends_with("/.") || request.ends_with("/..")
}

/// A `MODULE_NOT_FOUND` without a require stack.
fn not_found(message: String) -> ResolveError {
    ResolveError::new(ErrorCode::ModuleNotFound, message)
}

/// `tryFile`: the real path of `path` if it is a file.
fn try_file(path: &Path) -> Option<PathBuf> {
    path.is_file().then(|| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// `tryExtensions`.
fn try_extensions(base: &Path) -> Option<PathBuf> {
    let text = base.as_os_str().to_string_lossy();
    EXTENSIONS.iter().find_map(|ext| try_file(Path::new(&format!("{text}{ext}"))))
}

impl Resolver {
    /// `Module._resolveLookupPaths(request, parent)`: where `require`
    /// looks for `request` (`require.resolve.paths`); `None` for a
    /// built-in.
    pub fn require_lookup_paths(&self, request: &str, parent: Option<&Path>) -> Option<Vec<PathBuf>> {
        if self.builtin(request.strip_prefix("node:").unwrap_or(request)).is_some() {
            return None;
        }
        let bytes = request.as_bytes();
        let bare = bytes.first() != Some(&b'.') || (bytes.len() > 1 && bytes[1] != b'.' && bytes[1] != b'/');
        if bare {
            let mut paths = parent.and_then(Path::parent).map(node_module_paths).unwrap_or_default();
            paths.extend(self.global_paths.iter().cloned());
            return Some(paths);
        }
        Some(vec![parent.and_then(Path::parent).map_or_else(|| PathBuf::from("."), Path::to_path_buf)])
    }

    /// `Module._resolveFilename(request, parent)`: the file `require`
    /// loads for `request` from the module whose file is `parent` (`None`
    /// for the main module). `require_stack` is the chain of requiring
    /// files for the error message.
    ///
    /// # Errors
    ///
    /// `MODULE_NOT_FOUND` with Node's message and require stack, or the
    /// errors of `exports`/`imports` resolution.
    pub fn resolve_require(
        &mut self,
        request: &str,
        parent: Option<&Path>,
        require_stack: &[String],
    ) -> Result<Resolved, ResolveError> {
        if let Some(name) = request.strip_prefix("node:").map_or_else(|| self.builtin(request), |n| self.builtin(n)) {
            return Ok(Resolved::Builtin(name));
        }
        let paths = self.require_lookup_paths(request, parent).unwrap_or_default();
        if request.starts_with('#')
            && let Some(parent) = parent
            && let Some(package) = self.packages.scope(parent)?
            && package.imports.is_some()
        {
            return match self.package_imports_resolve(request, parent, CJS_CONDITIONS) {
                Ok(resolved) => finalize_esm_resolution(resolved, Some(parent), &package.path),
                Err(e) if e.code == ErrorCode::ErrModuleNotFound => {
                    Err(not_found(format!("Cannot find module '{request}'")))
                }
                Err(e) => Err(e),
            };
        }
        if let Some(parent) = parent
            && let Some(found) = self.try_self(parent, request)?
        {
            return Ok(found);
        }
        if let Some(found) = self.find_path(request, &paths)? {
            return Ok(Resolved::File(found));
        }
        let mut message = format!("Cannot find module '{request}'");
        if !require_stack.is_empty() {
            message.push_str("\nRequire stack:\n- ");
            message.push_str(&require_stack.join("\n- "));
        }
        Err(ResolveError { code: ErrorCode::ModuleNotFound, message, require_stack: Some(require_stack.to_vec()) })
    }

    /// `trySelf`: `request` names the requiring file's own package.
    fn try_self(&mut self, parent: &Path, request: &str) -> Result<Option<Resolved>, ResolveError> {
        let Some(package) = self.packages.scope(parent)? else { return Ok(None) };
        let (Some(name), Some(_)) = (&package.name, &package.exports) else { return Ok(None) };
        let expansion = if request == name {
            ".".to_owned()
        } else if let Some(rest) = request.strip_prefix(name.as_str()).filter(|r| r.starts_with('/')) {
            format!(".{rest}")
        } else {
            return Ok(None);
        };
        match self.package_exports_resolve(&package, &expansion, Some(parent), CJS_CONDITIONS) {
            Ok(resolved) => finalize_esm_resolution(resolved, Some(parent), &package.path).map(Some),
            Err(e) if e.code == ErrorCode::ErrModuleNotFound => {
                Err(not_found(format!("Cannot find module '{request}'")))
            }
            Err(e) => Err(e),
        }
    }

    /// `Module._findPath(request, paths)`.
    fn find_path(&mut self, request: &str, paths: &[PathBuf]) -> Result<Option<PathBuf>, ResolveError> {
        let absolute = request.starts_with('/');
        let searched: Vec<PathBuf> = if absolute { vec![PathBuf::new()] } else { paths.to_vec() };
        let trailing_slash = has_trailing_slash(request);
        let inside = !is_relative(request) || !normalize(Path::new(request)).starts_with("..");
        for dir in &searched {
            if inside && !dir.as_os_str().is_empty() && !dir.is_dir() {
                continue;
            }
            if !absolute && let Some(found) = self.resolve_exports(dir, request)? {
                return Ok(Some(found));
            }
            let base = normalize(&std::env::current_dir().unwrap_or_default().join(dir).join(request));
            let mut filename = None;
            if !trailing_slash {
                filename = try_file(&base).or_else(|| try_extensions(&base));
            }
            if filename.is_none() && base.is_dir() {
                filename = self.try_package(&base)?;
            }
            if filename.is_some() {
                return Ok(filename);
            }
        }
        Ok(None)
    }

    /// `resolveExports`: a bare request in one node_modules directory,
    /// through the package's `exports` if it has them.
    fn resolve_exports(&mut self, dir: &Path, request: &str) -> Result<Option<PathBuf>, ResolveError> {
        let Some((name, subpath)) = super::exports::parse_package_name(request) else { return Ok(None) };
        let package_dir = dir.join(name);
        let package_json = package_dir.join("package.json");
        let Some(package) = self.packages.read(&package_json, None)? else { return Ok(None) };
        if package.exports.is_none() {
            return Ok(None);
        }
        match self.package_exports_resolve(&package, &subpath, None, CJS_CONDITIONS) {
            Ok(resolved) => match finalize_esm_resolution(resolved, None, &package_json)? {
                Resolved::File(p) => Ok(Some(p)),
                Resolved::Builtin(_) => Ok(None),
            },
            Err(e) if e.code == ErrorCode::ErrModuleNotFound => {
                Err(not_found(format!("Cannot find module '{request}'")))
            }
            Err(e) => Err(e),
        }
    }

    /// `tryPackage`: a directory's package.json `main`, or its `index`.
    fn try_package(&mut self, dir: &Path) -> Result<Option<PathBuf>, ResolveError> {
        let main = self.packages.read(&dir.join("package.json"), None)?.and_then(|p| p.main.clone());
        let index = dir.join("index");
        let Some(main) = main.filter(|m| !m.is_empty()) else { return Ok(try_extensions(&index)) };
        let filename = normalize(&dir.join(&main));
        let found = try_file(&filename)
            .or_else(|| try_extensions(&filename))
            .or_else(|| try_extensions(&filename.join("index")))
            .or_else(|| try_extensions(&index));
        match found {
            Some(f) => Ok(Some(f)),
            None => Err(not_found(format!(
                "Cannot find module '{}'. Please verify that the package.json has a valid \"main\" entry",
                filename.display()
            ))),
        }
    }
}

/// `finalizeEsmResolution`: what `exports`/`imports` gave must be a file.
fn finalize_esm_resolution(
    resolved: Resolved,
    parent: Option<&Path>,
    _package_json: &Path,
) -> Result<Resolved, ResolveError> {
    let Resolved::File(path) = resolved else { return Ok(resolved) };
    let text = path.to_string_lossy();
    let lower = text.to_ascii_lowercase();
    if lower.contains("%2f") || lower.contains("%5c") {
        return Err(super::errors::invalid_specifier(
            &text,
            "must not include encoded \"/\" or \"\\\" characters",
            parent,
        ));
    }
    match try_file(&path) {
        Some(real) => Ok(Resolved::File(real)),
        None => Err(not_found(format!("Cannot find module '{text}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_module_paths_skip_node_modules_directories() {
        let paths = node_module_paths(Path::new("/a/node_modules/b"));
        let expected: Vec<PathBuf> =
            ["/a/node_modules/b/node_modules", "/a/node_modules", "/node_modules"].iter().map(PathBuf::from).collect();
        assert_eq!(paths, expected);
        assert_eq!(node_module_paths(Path::new("/")), vec![PathBuf::from("/node_modules")]);
    }

    #[test]
    fn trailing_slashes() {
        assert!(has_trailing_slash("./a/") && has_trailing_slash("..") && has_trailing_slash("a/.."));
        assert!(!has_trailing_slash("./a") && !has_trailing_slash("a.b"));
    }
}
