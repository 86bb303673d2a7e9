//! Package `exports` and `imports` (Node's `PACKAGE_EXPORTS_RESOLVE`,
//! `PACKAGE_IMPORTS_RESOLVE`, `PACKAGE_TARGET_RESOLVE`) and the
//! node_modules walk of `PACKAGE_RESOLVE`, shared by both module systems;
//! they differ only in the conditions they pass.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use super::errors::{
    ErrorCode, ResolveError, import_not_defined, invalid_config, invalid_specifier, invalid_target, path_not_exported,
};
use super::package_json::{Json, PackageJson};
use super::{Resolved, Resolver, percent_decode};

/// What a target resolved to: `Ok(None)` is the algorithm's `undefined`
/// (no condition matched), `Ok(Some(None))` its `null` (excluded).
type TargetResult = Result<Option<Option<Resolved>>, ResolveError>;

/// One `exports`/`imports` lookup: the package and the importer.
struct Lookup<'a> {
    package_json: &'a Path,
    base: Option<&'a Path>,
    conditions: &'a [&'a str],
    /// `imports` rather than `exports`.
    internal: bool,
}

/// Whether `text` contains a path segment `.`, `..` or `node_modules`
/// (any case, percent-encoded or not): Node's `invalidSegmentRegEx`
/// without the empty segments it only warns about.
fn has_invalid_segment(text: &str) -> bool {
    text.split(['/', '\\']).any(|segment| {
        let decoded = percent_decode(segment).to_ascii_lowercase();
        decoded == "." || decoded == ".." || decoded == "node_modules"
    })
}

/// `${target}` of a target that is not a string, array or condition map:
/// the text Node puts in `ERR_INVALID_PACKAGE_TARGET`.
fn target_text(target: &Json) -> String {
    match target {
        Json::String(s) => s.clone(),
        other => other.to_json_text(),
    }
}

/// Whether `key` is an array index (`"0"`, `"12"`), which condition maps
/// may not have.
fn is_array_index(key: &str) -> bool {
    key.parse::<u32>().is_ok_and(|n| n != u32::MAX && n.to_string() == key)
}

/// Node's `patternKeyCompare`: the longer prefix before `*` wins, then the
/// longer key.
fn pattern_key_compare(a: &str, b: &str) -> Ordering {
    let a_star = a.find('*');
    let b_star = b.find('*');
    let base_a = a_star.map_or(a.len(), |i| i + 1);
    let base_b = b_star.map_or(b.len(), |i| i + 1);
    match base_a.cmp(&base_b) {
        Ordering::Greater => return Ordering::Less,
        Ordering::Less => return Ordering::Greater,
        Ordering::Equal => {}
    }
    if a_star.is_none() {
        return Ordering::Greater;
    }
    if b_star.is_none() {
        return Ordering::Less;
    }
    b.len().cmp(&a.len())
}

/// The best `*` key of `map` matching `name`, and what `*` stands for.
fn best_pattern_match<'m>(map: &'m [(String, Json)], name: &str) -> Option<(&'m str, String)> {
    let mut best: Option<(&str, String)> = None;
    for (key, _) in map {
        let Some(star) = key.find('*') else { continue };
        if !name.starts_with(&key[..star]) || key.rfind('*') != Some(star) {
            continue;
        }
        let trailer = &key[star + 1..];
        let better = best.as_ref().is_none_or(|(b, _)| pattern_key_compare(b, key) == Ordering::Greater);
        if name.len() >= key.len() && name.ends_with(trailer) && better {
            best = Some((key, name[star..name.len() - trailer.len()].to_owned()));
        }
    }
    best
}

impl Resolver {
    /// `PACKAGE_EXPORTS_RESOLVE(packageURL, subpath, exports, conditions)`.
    pub(crate) fn package_exports_resolve(
        &mut self,
        package: &PackageJson,
        subpath: &str,
        base: Option<&Path>,
        conditions: &[&str],
    ) -> Result<Resolved, ResolveError> {
        let Some(exports) = &package.exports else { return Err(path_not_exported(&package.path, subpath, base)) };
        let lookup = Lookup { package_json: &package.path, base, conditions, internal: false };
        let sugar;
        let map: &[(String, Json)] = if Self::is_conditional_sugar(exports, &package.path, base)? {
            sugar = vec![(".".to_owned(), exports.clone())];
            &sugar
        } else if let Json::Object(entries) = exports {
            entries
        } else {
            &[]
        };
        let not_exported = || path_not_exported(&package.path, subpath, base);
        if !subpath.contains('*')
            && !subpath.ends_with('/')
            && let Some((_, target)) = map.iter().find(|(k, _)| k == subpath)
        {
            return self.resolve_target(&lookup, target, "", subpath, false)?.flatten().ok_or_else(not_exported);
        }
        if let Some((key, star)) = best_pattern_match(map, subpath) {
            let target = map.iter().find(|(k, _)| k == key).map_or(&Json::Null, |(_, t)| t);
            return self.resolve_target(&lookup, target, &star, key, true)?.flatten().ok_or_else(not_exported);
        }
        Err(not_exported())
    }

    /// `isConditionalExportsMainSugar`: `exports` is one target for `.`
    /// (a string, an array, or an object of conditions); mixing `.` keys
    /// and condition names is an error.
    fn is_conditional_sugar(exports: &Json, package_json: &Path, base: Option<&Path>) -> Result<bool, ResolveError> {
        match exports {
            Json::String(_) | Json::Array(_) => Ok(true),
            Json::Object(entries) => {
                let mut sugar = None;
                for (key, _) in entries {
                    let condition = key.is_empty() || !key.starts_with('.');
                    match sugar {
                        None => sugar = Some(condition),
                        Some(s) if s != condition => {
                            return Err(invalid_config(
                                package_json,
                                base,
                                "\"exports\" cannot contain some keys starting with '.' and some not. The exports \
                                 object must either be an object of package subpath keys or an object of main entry \
                                 condition name keys only.",
                            ));
                        }
                        Some(_) => {}
                    }
                }
                Ok(sugar.unwrap_or(false))
            }
            _ => Ok(false),
        }
    }

    /// `PACKAGE_IMPORTS_RESOLVE(specifier, parentURL, conditions)` for a
    /// `#name` imported by the file `base`.
    pub(crate) fn package_imports_resolve(
        &mut self,
        name: &str,
        base: &Path,
        conditions: &[&str],
    ) -> Result<Resolved, ResolveError> {
        if name == "#" || name.starts_with("#/") || name.ends_with('/') {
            return Err(invalid_specifier(name, "is not a valid internal imports specifier name", Some(base)));
        }
        let package = self.packages.scope(base)?;
        if let Some(package) = &package
            && let Some(Json::Object(imports)) = &package.imports
        {
            let lookup = Lookup { package_json: &package.path, base: Some(base), conditions, internal: true };
            if !name.contains('*')
                && let Some((_, target)) = imports.iter().find(|(k, _)| k == name)
            {
                if let Some(Some(resolved)) = self.resolve_target(&lookup, target, "", name, false)? {
                    return Ok(resolved);
                }
            } else if let Some((key, star)) = best_pattern_match(imports, name) {
                let target = imports.iter().find(|(k, _)| k == key).map_or(&Json::Null, |(_, t)| t);
                if let Some(Some(resolved)) = self.resolve_target(&lookup, target, &star, key, true)? {
                    return Ok(resolved);
                }
            }
        }
        Err(import_not_defined(name, package.as_ref().map(|p| p.path.as_path()), base))
    }

    /// `PACKAGE_TARGET_RESOLVE`.
    fn resolve_target(
        &mut self,
        lookup: &Lookup<'_>,
        target: &Json,
        subpath: &str,
        key: &str,
        pattern: bool,
    ) -> TargetResult {
        match target {
            Json::String(t) => self.resolve_target_string(lookup, t, subpath, key, pattern).map(|r| Some(Some(r))),
            Json::Array(items) => {
                if items.is_empty() {
                    return Ok(Some(None));
                }
                // `undefined` until an item gives `null` or an invalid target.
                let mut last: Option<Option<ResolveError>> = None;
                for item in items {
                    match self.resolve_target(lookup, item, subpath, key, pattern) {
                        Err(e) if e.code == ErrorCode::InvalidPackageTarget => last = Some(Some(e)),
                        Err(e) => return Err(e),
                        Ok(None) => {}
                        Ok(Some(None)) => last = Some(None),
                        Ok(Some(Some(resolved))) => return Ok(Some(Some(resolved))),
                    }
                }
                match last {
                    None => Ok(None),
                    Some(None) => Ok(Some(None)),
                    Some(Some(e)) => Err(e),
                }
            }
            Json::Object(conditions) => {
                if conditions.iter().any(|(k, _)| is_array_index(k)) {
                    return Err(invalid_config(
                        lookup.package_json,
                        lookup.base,
                        "\"exports\" cannot contain numeric property keys.",
                    ));
                }
                for (condition, value) in conditions {
                    if condition == "default" || lookup.conditions.contains(&condition.as_str()) {
                        let result = self.resolve_target(lookup, value, subpath, key, pattern)?;
                        if result.is_some() {
                            return Ok(result);
                        }
                    }
                }
                Ok(None)
            }
            Json::Null => Ok(Some(None)),
            other => Err(Self::invalid_target(lookup, key, &target_text(other))),
        }
    }

    fn invalid_target(lookup: &Lookup<'_>, key: &str, target: &str) -> ResolveError {
        let quoted = Json::String(target.to_owned()).to_json_text();
        let relative_error = !lookup.internal && !target.is_empty() && !target.starts_with("./");
        invalid_target(lookup.package_json, key, &quoted, lookup.internal, lookup.base, relative_error)
    }

    /// `PACKAGE_TARGET_RESOLVE` for a string target.
    fn resolve_target_string(
        &mut self,
        lookup: &Lookup<'_>,
        target: &str,
        subpath: &str,
        key: &str,
        pattern: bool,
    ) -> Result<Resolved, ResolveError> {
        if !subpath.is_empty() && !pattern && !target.ends_with('/') {
            return Err(Self::invalid_target(lookup, key, target));
        }
        if !target.starts_with("./") {
            // An `imports` target may name another package.
            if lookup.internal && !target.starts_with("../") && !target.starts_with('/') && !super::is_url(target) {
                let specifier = if pattern { target.replace('*', subpath) } else { format!("{target}{subpath}") };
                return self.package_resolve(&specifier, lookup.package_json, lookup.conditions);
            }
            return Err(Self::invalid_target(lookup, key, target));
        }
        if has_invalid_segment(&target[2..]) {
            return Err(Self::invalid_target(lookup, key, target));
        }
        let package_dir = lookup.package_json.parent().unwrap_or(Path::new("/"));
        let resolved = super::normalize(&package_dir.join(&target[2..]));
        if !resolved.starts_with(package_dir) {
            return Err(Self::invalid_target(lookup, key, target));
        }
        if subpath.is_empty() {
            return Ok(Resolved::File(resolved));
        }
        if has_invalid_segment(subpath) {
            let request = if pattern { key.replacen('*', subpath, 1) } else { format!("{key}{subpath}") };
            let field = if lookup.internal { "imports" } else { "exports" };
            let reason = format!(
                "request is not a valid match in pattern \"{key}\" for the \"{field}\" resolution of {}",
                lookup.package_json.display()
            );
            return Err(invalid_specifier(&request, &reason, lookup.base));
        }
        let text = if pattern {
            resolved.to_string_lossy().replace('*', subpath)
        } else {
            format!("{}{}{subpath}", resolved.display(), if target.ends_with('/') { "/" } else { "" })
        };
        Ok(Resolved::File(PathBuf::from(text)))
    }

    /// `PACKAGE_RESOLVE(packageSpecifier, parentURL)`: a built-in, the
    /// importer's own package by name, or the first `node_modules/NAME`
    /// above `base` (a file or a package.json).
    pub(crate) fn package_resolve(
        &mut self,
        specifier: &str,
        base: &Path,
        conditions: &[&str],
    ) -> Result<Resolved, ResolveError> {
        if let Some(name) = self.builtin(specifier) {
            return Ok(Resolved::Builtin(name));
        }
        let (name, subpath) = parse_package_name(specifier)
            .ok_or_else(|| invalid_specifier(specifier, "is not a valid package name", Some(base)))?;
        if let Some(own) = self.packages.scope(base)?
            && own.name.as_deref() == Some(name)
            && own.exports.is_some()
        {
            return self.package_exports_resolve(&own, &subpath, Some(base), conditions);
        }
        let mut dir = base.parent();
        while let Some(d) = dir {
            dir = d.parent();
            if d.file_name().is_some_and(|n| n == "node_modules") {
                continue;
            }
            let package_dir = d.join("node_modules").join(name);
            if !package_dir.is_dir() {
                continue;
            }
            let package_json = package_dir.join("package.json");
            let package = self.packages.read(&package_json, Some(base))?;
            let package = package.unwrap_or_else(|| {
                std::rc::Rc::new(PackageJson {
                    path: package_json.clone(),
                    name: None,
                    main: None,
                    package_type: super::PackageType::None,
                    exports: None,
                    imports: None,
                })
            });
            if package.exports.is_some() {
                return self.package_exports_resolve(&package, &subpath, Some(base), conditions);
            }
            if subpath == "." {
                return legacy_main_resolve(&package_dir, package.main.as_deref(), base);
            }
            return Ok(Resolved::File(super::normalize(&package_dir.join(percent_decode(&subpath[2..])))));
        }
        Err(ResolveError::new(
            ErrorCode::ErrModuleNotFound,
            format!("Cannot find package '{name}' imported from {}", base.display()),
        ))
    }
}

/// `parsePackageName`: the package name (`@scope/name` or `name`) and the
/// subpath (`.` or `./rest`); `None` for an invalid name.
pub(crate) fn parse_package_name(specifier: &str) -> Option<(&str, String)> {
    let mut separator = specifier.find('/');
    if specifier.starts_with('@') {
        let first = separator?;
        separator = specifier[first + 1..].find('/').map(|i| i + first + 1);
    }
    let name = separator.map_or(specifier, |i| &specifier[..i]);
    if name.starts_with('.') || name.contains('%') || name.contains('\\') {
        return None;
    }
    let subpath = format!(".{}", separator.map_or("", |i| &specifier[i..]));
    Some((name, subpath))
}

/// `LEGACY_MAIN_RESOLVE`: `main` with the extensions and index files Node
/// 20 still tries for ES modules, then the package's `index`.
fn legacy_main_resolve(package_dir: &Path, main: Option<&str>, base: &Path) -> Result<Resolved, ResolveError> {
    if let Some(main) = main {
        for suffix in ["", ".js", ".json", ".node", "/index.js", "/index.json", "/index.node"] {
            let candidate = super::normalize(&package_dir.join(format!("{main}{suffix}")));
            if candidate.is_file() {
                return Ok(Resolved::File(candidate));
            }
        }
    }
    for index in ["index.js", "index.json", "index.node"] {
        let candidate = package_dir.join(index);
        if candidate.is_file() {
            return Ok(Resolved::File(candidate));
        }
    }
    let shown = super::normalize(&package_dir.join(main.unwrap_or("index.js")));
    Err(ResolveError::new(
        ErrorCode::ErrModuleNotFound,
        format!("Cannot find package '{}' imported from {}", shown.display(), base.display()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_split_from_subpaths() {
        assert_eq!(parse_package_name("a"), Some(("a", ".".to_owned())));
        assert_eq!(parse_package_name("a/b/c"), Some(("a", "./b/c".to_owned())));
        assert_eq!(parse_package_name("@s/a/b"), Some(("@s/a", "./b".to_owned())));
        assert_eq!(parse_package_name("@s"), None);
        assert_eq!(parse_package_name(".a"), None);
        assert_eq!(parse_package_name("a%2f"), None);
    }

    #[test]
    fn pattern_keys_order_as_node_orders_them() {
        assert_eq!(pattern_key_compare("./a/*", "./a/b/*"), Ordering::Greater);
        assert_eq!(pattern_key_compare("./a/b/*", "./a/*"), Ordering::Less);
        assert_eq!(pattern_key_compare("./a/*.js", "./a/*"), Ordering::Less);
        let map = vec![("./*".to_owned(), Json::Null), ("./x/*".to_owned(), Json::Null)];
        assert_eq!(best_pattern_match(&map, "./x/y"), Some(("./x/*", "y".to_owned())));
    }

    #[test]
    fn invalid_segments() {
        assert!(has_invalid_segment("a/../b"));
        assert!(has_invalid_segment("a/%2E/b"));
        assert!(has_invalid_segment("Node_Modules/x"));
        assert!(!has_invalid_segment("a//b"));
        assert!(!has_invalid_segment("a/.b"));
    }
}
