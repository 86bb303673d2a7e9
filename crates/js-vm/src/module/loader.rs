//! The embedder's module hooks (HostLoadImportedModule split in two:
//! resolving a specifier to a module-map key, and reading a key's text)
//! and the default loader, which follows Node's ES module resolution for
//! files ([`super::node_resolution`]).

use std::path::{Path, PathBuf};

use super::node_resolution::{Format, ResolveError, Resolved, Resolver, normalize, percent_decode};

pub use super::node_resolution::file_url;

/// Why a module could not be resolved or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleLoadError {
    /// The error message.
    pub message: String,
    /// Node's error `code` (`ERR_MODULE_NOT_FOUND`), set on the thrown
    /// `Error`.
    pub code: Option<String>,
}

impl From<ResolveError> for ModuleLoadError {
    fn from(e: ResolveError) -> Self {
        ModuleLoadError { message: e.message, code: Some(e.code.as_str().to_owned()) }
    }
}

/// How a module's text is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// An ES module.
    Module,
    /// A CommonJS module: run by the host's `require` machinery, imported
    /// as its `module.exports` plus the names a static scan finds.
    CommonJs,
    /// A JSON file (imported with `with { type: "json" }`).
    Json,
}

/// How a VM finds modules. Built-in `node:` modules are handled by the VM
/// before the loader is asked; a loader may also resolve to a key
/// `node:NAME` to name one.
pub trait ModuleLoader {
    /// Resolves `specifier` imported by `referrer` (the importing module's
    /// key or the importing script's file name; `None` for an entry point)
    /// to the module's key. Equal keys are the same module.
    fn resolve(&mut self, specifier: &str, referrer: Option<&str>) -> Result<String, ModuleLoadError>;

    /// The source text of the module `key`.
    fn load(&mut self, key: &str) -> Result<String, ModuleLoadError>;

    /// How the module `key` is evaluated (an ES module unless the loader
    /// says otherwise).
    fn kind(&mut self, _key: &str) -> Result<SourceKind, ModuleLoadError> {
        Ok(SourceKind::Module)
    }

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

/// Modules are files, found as Node 20 finds ES modules: relative and
/// absolute paths and `file:` URLs, `#imports`, and packages through
/// node_modules with their `exports` (conditions `node`, `import`) or
/// `main`. The key is the canonical path; `.js` files are CommonJS unless
/// their package says `"type": "module"`.
#[derive(Debug)]
pub struct FsLoader {
    resolver: Resolver,
    /// Every `.js` file is an ES module, whatever its package says.
    js_is_module: bool,
}

impl Default for FsLoader {
    fn default() -> Self {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        Self { resolver: Resolver::new(super::builtin::BUILTINS, home.as_deref()), js_is_module: false }
    }
}

impl FsLoader {
    /// A loader for hosts without CommonJS, as browsers and test262's
    /// harness are: resolution as Node's, but every `.js` file imported
    /// is an ES module.
    #[must_use]
    pub fn js_files_as_modules() -> Self {
        Self { js_is_module: true, ..Self::default() }
    }
}

/// The absolute path of a referrer (a script's name may be relative).
fn absolute(referrer: &str) -> PathBuf {
    let path = Path::new(referrer);
    if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(path) }
}

/// An entry point named on the command line: a path from the current
/// directory (or a `file:` URL), which must be a file.
fn entry_path(specifier: &str) -> Result<String, ModuleLoadError> {
    let path = match specifier.strip_prefix("file://") {
        Some(rest) => PathBuf::from(percent_decode(rest)),
        None => normalize(&absolute(specifier)),
    };
    match std::fs::canonicalize(&path) {
        Ok(p) if p.is_file() => Ok(p.to_string_lossy().into_owned()),
        _ => Err(ModuleLoadError {
            message: format!("Cannot find module '{}'", path.display()),
            code: Some("ERR_MODULE_NOT_FOUND".to_owned()),
        }),
    }
}

impl ModuleLoader for FsLoader {
    fn resolve(&mut self, specifier: &str, referrer: Option<&str>) -> Result<String, ModuleLoadError> {
        let Some(referrer) = referrer else { return entry_path(specifier) };
        match self.resolver.resolve_import(specifier, &absolute(referrer))? {
            Resolved::Builtin(name) => Ok(format!("node:{name}")),
            Resolved::File(path) => Ok(path.to_string_lossy().into_owned()),
        }
    }

    fn load(&mut self, key: &str) -> Result<String, ModuleLoadError> {
        std::fs::read_to_string(key)
            .map_err(|e| ModuleLoadError { message: format!("Cannot read module '{key}': {e}"), code: None })
    }

    fn kind(&mut self, key: &str) -> Result<SourceKind, ModuleLoadError> {
        let path = Path::new(key);
        if self.js_is_module && path.extension().is_some_and(|e| e == "js") {
            return Ok(SourceKind::Module);
        }
        Ok(match self.resolver.esm_format(path)? {
            Format::Module => SourceKind::Module,
            Format::CommonJs => SourceKind::CommonJs,
            Format::Json => SourceKind::Json,
        })
    }

    fn url(&self, key: &str) -> String {
        file_url(key)
    }

    fn file_path(&self, key: &str) -> Option<String> {
        Some(key.to_owned())
    }

    fn resolve_url(&mut self, specifier: &str, referrer: &str) -> Result<String, ModuleLoadError> {
        Ok(self.resolver.resolve_import_url(specifier, &absolute(referrer))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_files_are_not_found() {
        let mut loader = FsLoader::default();
        let err = loader.resolve("./definitely-missing.mjs", Some("/nonexistent/main.mjs")).unwrap_err();
        assert_eq!(err.code.as_deref(), Some("ERR_MODULE_NOT_FOUND"));
        assert!(err.message.contains("/nonexistent/definitely-missing.mjs"));
        assert!(loader.resolve("lodash", Some("/x/main.mjs")).is_err());
    }

    #[test]
    fn resolve_url_does_not_need_the_file() {
        let mut loader = FsLoader::default();
        assert_eq!(loader.resolve_url("./missing.mjs", "/a/b/main.mjs").unwrap(), "file:///a/b/missing.mjs");
        assert_eq!(loader.resolve_url("../x/p q.js", "/a/b/main.mjs").unwrap(), "file:///a/x/p%20q.js");
        assert_eq!(loader.resolve_url("pkg", "/a/main.mjs").unwrap_err().code.as_deref(), Some("ERR_MODULE_NOT_FOUND"));
    }
}
