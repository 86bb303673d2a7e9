//! The errors of Node's resolution algorithms, each with the `code` and the
//! message text Node 20 gives it.

use std::fmt;
use std::path::Path;

/// Node's `code` of a resolution error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// `MODULE_NOT_FOUND`: `require` found nothing.
    ModuleNotFound,
    /// `ERR_MODULE_NOT_FOUND`: an ES module import found no file or package.
    ErrModuleNotFound,
    /// `ERR_PACKAGE_PATH_NOT_EXPORTED`: `exports` does not define the subpath.
    PackagePathNotExported,
    /// `ERR_PACKAGE_IMPORT_NOT_DEFINED`: `imports` does not define a `#` name.
    PackageImportNotDefined,
    /// `ERR_INVALID_MODULE_SPECIFIER`: a malformed specifier.
    InvalidModuleSpecifier,
    /// `ERR_INVALID_PACKAGE_TARGET`: an `exports`/`imports` target that is
    /// not a valid relative URL of the package.
    InvalidPackageTarget,
    /// `ERR_INVALID_PACKAGE_CONFIG`: a package.json that is not valid.
    InvalidPackageConfig,
    /// `ERR_UNSUPPORTED_DIR_IMPORT`: an ES module import of a directory.
    UnsupportedDirImport,
    /// `ERR_UNKNOWN_BUILTIN_MODULE`: `node:` with a name Node does not have.
    UnknownBuiltinModule,
    /// `ERR_UNSUPPORTED_ESM_URL_SCHEME`: a URL whose scheme is not `file:`
    /// or `node:`.
    UnsupportedEsmUrlScheme,
    /// `ERR_UNKNOWN_FILE_EXTENSION`: an imported file whose extension names
    /// no format.
    UnknownFileExtension,
}

impl ErrorCode {
    /// The code as Node spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::ModuleNotFound => "MODULE_NOT_FOUND",
            ErrorCode::ErrModuleNotFound => "ERR_MODULE_NOT_FOUND",
            ErrorCode::PackagePathNotExported => "ERR_PACKAGE_PATH_NOT_EXPORTED",
            ErrorCode::PackageImportNotDefined => "ERR_PACKAGE_IMPORT_NOT_DEFINED",
            ErrorCode::InvalidModuleSpecifier => "ERR_INVALID_MODULE_SPECIFIER",
            ErrorCode::InvalidPackageTarget => "ERR_INVALID_PACKAGE_TARGET",
            ErrorCode::InvalidPackageConfig => "ERR_INVALID_PACKAGE_CONFIG",
            ErrorCode::UnsupportedDirImport => "ERR_UNSUPPORTED_DIR_IMPORT",
            ErrorCode::UnknownBuiltinModule => "ERR_UNKNOWN_BUILTIN_MODULE",
            ErrorCode::UnsupportedEsmUrlScheme => "ERR_UNSUPPORTED_ESM_URL_SCHEME",
            ErrorCode::UnknownFileExtension => "ERR_UNKNOWN_FILE_EXTENSION",
        }
    }

    /// Whether Node throws this error as a `TypeError` (the others are
    /// plain `Error`s).
    pub fn is_type_error(self) -> bool {
        matches!(
            self,
            ErrorCode::PackageImportNotDefined | ErrorCode::InvalidModuleSpecifier | ErrorCode::UnknownFileExtension
        )
    }
}

/// Whether the error with Node's `code` is a `TypeError`.
pub fn is_type_error_code(code: &str) -> bool {
    [ErrorCode::PackageImportNotDefined, ErrorCode::InvalidModuleSpecifier, ErrorCode::UnknownFileExtension]
        .iter()
        .any(|c| c.as_str() == code)
        || code == "ERR_IMPORT_ATTRIBUTE_MISSING"
        || code == "ERR_IMPORT_ASSERTION_TYPE_MISSING"
}

/// A failed resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    /// Node's `code`.
    pub code: ErrorCode,
    /// The message, as Node words it.
    pub message: String,
    /// `requireStack` of a `MODULE_NOT_FOUND` from `require`: the file
    /// names of the requiring modules, innermost first.
    pub require_stack: Option<Vec<String>>,
}

impl ResolveError {
    pub(crate) fn new(code: ErrorCode, message: String) -> Self {
        Self { code, message, require_stack: None }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.message, self.code.as_str())
    }
}

impl std::error::Error for ResolveError {}

/// ` imported from BASE`, or nothing without a base.
fn imported_from(base: Option<&Path>) -> String {
    base.map(|b| format!(" imported from {}", b.display())).unwrap_or_default()
}

/// The directory of a package.json, with its trailing separator, as Node
/// prints a package's path.
fn package_dir(package_json: &Path) -> String {
    let dir = package_json.parent().unwrap_or(package_json).display().to_string();
    if dir.ends_with('/') { dir } else { format!("{dir}/") }
}

/// `ERR_PACKAGE_PATH_NOT_EXPORTED`.
pub(crate) fn path_not_exported(package_json: &Path, subpath: &str, base: Option<&Path>) -> ResolveError {
    let dir = package_dir(package_json);
    let message = if subpath == "." {
        format!("No \"exports\" main defined in {dir}package.json{}", imported_from(base))
    } else {
        format!("Package subpath '{subpath}' is not defined by \"exports\" in {dir}package.json{}", imported_from(base))
    };
    ResolveError::new(ErrorCode::PackagePathNotExported, message)
}

/// `ERR_PACKAGE_IMPORT_NOT_DEFINED`.
pub(crate) fn import_not_defined(specifier: &str, package_json: Option<&Path>, base: &Path) -> ResolveError {
    let package = package_json.map(|p| format!(" in package {}package.json", package_dir(p))).unwrap_or_default();
    let message =
        format!("Package import specifier \"{specifier}\" is not defined{package} imported from {}", base.display());
    ResolveError::new(ErrorCode::PackageImportNotDefined, message)
}

/// `ERR_INVALID_PACKAGE_TARGET` for `target` (its JSON text) under `key`.
pub(crate) fn invalid_target(
    package_json: &Path,
    key: &str,
    target: &str,
    is_import: bool,
    base: Option<&Path>,
    relative_error: bool,
) -> ResolveError {
    let dir = package_dir(package_json);
    let hint = if relative_error { "; targets must start with \"./\"" } else { "" };
    let from = imported_from(base);
    let message = if key == "." {
        format!("Invalid \"exports\" main target {target} defined in the package config {dir}package.json{from}{hint}")
    } else {
        let field = if is_import { "imports" } else { "exports" };
        format!(
            "Invalid \"{field}\" target {target} defined for '{key}' in the package config {dir}package.json{from}{hint}"
        )
    };
    ResolveError::new(ErrorCode::InvalidPackageTarget, message)
}

/// `ERR_INVALID_MODULE_SPECIFIER`.
pub(crate) fn invalid_specifier(request: &str, reason: &str, base: Option<&Path>) -> ResolveError {
    let message = format!("Invalid module \"{request}\" {reason}{}", imported_from(base));
    ResolveError::new(ErrorCode::InvalidModuleSpecifier, message)
}

/// `ERR_INVALID_PACKAGE_CONFIG`.
pub(crate) fn invalid_config(package_json: &Path, base: Option<&Path>, detail: &str) -> ResolveError {
    let while_importing = base.map(|b| format!(" while importing {}", b.display())).unwrap_or_default();
    let detail = if detail.is_empty() { String::new() } else { format!(" {detail}") };
    let message = format!("Invalid package config {}{while_importing}.{detail}", package_json.display());
    ResolveError::new(ErrorCode::InvalidPackageConfig, message)
}
