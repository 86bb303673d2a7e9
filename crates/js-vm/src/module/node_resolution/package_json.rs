//! Reading package.json files (Node's `packageJsonReader`): the fields the
//! resolution algorithms use, and the package scope of a file.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::errors::{ResolveError, invalid_config};

/// A JSON value of a package.json field (`exports`, `imports` and their
/// nested conditions), objects in JavaScript's key order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object: its keys and values in `OrdinaryOwnPropertyKeys` order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The value of `key` if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The text `JSON.stringify` gives this value, for error messages.
    pub fn to_json_text(&self) -> String {
        match self {
            Json::Null => "null".to_owned(),
            Json::Bool(b) => b.to_string(),
            Json::Number(n) => {
                if n.fract() == 0.0 && n.abs() < 1e21 {
                    format!("{n:.0}")
                } else {
                    n.to_string()
                }
            }
            Json::String(s) => quote(s),
            Json::Array(items) => format!("[{}]", items.iter().map(Json::to_json_text).collect::<Vec<_>>().join(",")),
            Json::Object(entries) => format!(
                "{{{}}}",
                entries.iter().map(|(k, v)| format!("{}:{}", quote(k), v.to_json_text())).collect::<Vec<_>>().join(",")
            ),
        }
    }
}

/// A JSON string literal.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A package's `"type"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackageType {
    /// `"type": "commonjs"`.
    CommonJs,
    /// `"type": "module"`.
    Module,
    /// No `"type"` (or another value): `.js` files are CommonJS.
    None,
}

/// The fields of a package.json that resolution reads.
#[derive(Clone, Debug, PartialEq)]
pub struct PackageJson {
    /// The package.json file's path.
    pub path: PathBuf,
    /// `"name"` if it is a string.
    pub name: Option<String>,
    /// `"main"` if it is a string.
    pub main: Option<String>,
    /// `"type"`.
    pub package_type: PackageType,
    /// `"exports"` unless absent or `null`.
    pub exports: Option<Json>,
    /// `"imports"` unless absent or `null`.
    pub imports: Option<Json>,
}

/// Nesting a package.json may have: deep enough for any real one, shallow
/// enough that turning it into [`Json`] by recursion is safe on any stack.
const MAX_DEPTH: usize = 512;

/// Converts a parsed JSON value to [`Json`].
fn convert(value: &js_json::reference::Value) -> Json {
    use js_json::reference::{Property, Value};
    match value {
        Value::Null | Value::Undefined | Value::Symbol(_) | Value::BigInt(_) => Json::Null,
        Value::Boolean(b) => Json::Bool(*b),
        Value::Number(n) => Json::Number(*n),
        Value::String(s) => Json::String(s.to_string_lossy()),
        Value::Object(o) if o.is_array() => Json::Array(o.elements().iter().map(convert).collect()),
        Value::Object(o) => Json::Object(
            o.properties()
                .iter()
                .map(|(k, p)| {
                    let v = match p {
                        Property::Data(v) => convert(v),
                        Property::Getter(_) => Json::Null,
                    };
                    (k.to_string_lossy(), v)
                })
                .collect(),
        ),
    }
}

/// Parses package.json text. `Err` holds the parser's message.
pub fn parse_package_json(path: &Path, text: &str) -> Result<PackageJson, String> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut host = js_json::reference::ReferenceHost::new();
    let limits = js_json::Limits { max_depth: MAX_DEPTH };
    let parsed =
        js_json::parse(&mut host, js_json::JsStr::Utf16(&units), &js_json::reference::Value::Undefined, limits)
            .map_err(|e| match e {
                js_json::reference::Exception::Json(error) => error.to_string(),
                js_json::reference::Exception::Thrown(_) => "invalid JSON".to_owned(),
            })?;
    let root = convert(&parsed);
    let string = |key: &str| match root.get(key) {
        Some(Json::String(s)) => Some(s.clone()),
        _ => None,
    };
    let present = |key: &str| root.get(key).filter(|v| **v != Json::Null).cloned();
    let package_type = match root.get("type") {
        Some(Json::String(t)) if t == "module" => PackageType::Module,
        Some(Json::String(t)) if t == "commonjs" => PackageType::CommonJs,
        _ => PackageType::None,
    };
    Ok(PackageJson {
        path: path.to_path_buf(),
        name: string("name"),
        main: string("main"),
        package_type,
        exports: present("exports"),
        imports: present("imports"),
    })
}

/// Reads package.json files once each.
#[derive(Debug, Default)]
pub struct PackageJsonCache {
    entries: HashMap<PathBuf, Option<Rc<PackageJson>>>,
}

impl PackageJsonCache {
    /// The package.json at `path`; `Ok(None)` when there is no such file.
    /// `base` names the importing module in the error for malformed JSON.
    pub fn read(&mut self, path: &Path, base: Option<&Path>) -> Result<Option<Rc<PackageJson>>, ResolveError> {
        if let Some(entry) = self.entries.get(path) {
            return Ok(entry.clone());
        }
        let entry = match std::fs::read_to_string(path) {
            Ok(text) => match parse_package_json(path, &text) {
                Ok(p) => Some(Rc::new(p)),
                Err(detail) => return Err(invalid_config(path, base, &detail)),
            },
            Err(_) => None,
        };
        self.entries.insert(path.to_path_buf(), entry.clone());
        Ok(entry)
    }

    /// `GetPackageScopeConfig`: the nearest package.json above `file`,
    /// not looking past a `node_modules` directory.
    pub fn scope(&mut self, file: &Path) -> Result<Option<Rc<PackageJson>>, ResolveError> {
        let mut dir = file.parent();
        while let Some(d) = dir {
            if d.file_name().is_some_and(|n| n == "node_modules") {
                return Ok(None);
            }
            if let Some(p) = self.read(&d.join("package.json"), None)? {
                return Ok(Some(p));
            }
            dir = d.parent();
        }
        Ok(None)
    }

    /// The `"type"` of the package `file` belongs to.
    pub fn package_type(&mut self, file: &Path) -> PackageType {
        self.scope(file).ok().flatten().map_or(PackageType::None, |p| p.package_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_and_keys_keep_javascript_order() {
        let p = parse_package_json(
            Path::new("/p/package.json"),
            r#"{"name":"p","main":1,"type":"module","exports":{"b":"./b","1":"./one","a":null},"imports":null}"#,
        )
        .unwrap();
        assert_eq!(p.name.as_deref(), Some("p"));
        assert_eq!(p.main, None);
        assert_eq!(p.package_type, PackageType::Module);
        assert_eq!(p.imports, None);
        let Some(Json::Object(entries)) = &p.exports else { panic!("exports is an object") };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["1", "b", "a"]);
        assert_eq!(p.exports.as_ref().unwrap().to_json_text(), r#"{"1":"./one","b":"./b","a":null}"#);
    }

    #[test]
    fn malformed_json_is_an_error() {
        assert!(parse_package_json(Path::new("/p/package.json"), "{").is_err());
    }
}
