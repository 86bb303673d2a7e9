//! The JavaScript face of the CommonJS loader: the `Module` constructor
//! (`require('module')`) with `createRequire`, `builtinModules`,
//! `isBuiltin`, `_cache` and `_extensions`; module objects; and the
//! per-module `require` function with `resolve`, `resolve.paths`, `main`,
//! `extensions` and `cache`.

use std::path::{Path, PathBuf};

use js_gc::Gc;

use crate::builtins::error::ErrorKind;
use crate::builtins::{method, native_function, native_function_with_data, value_property};
use crate::interpreter::CallInfo;
use crate::module::node_resolution::{Resolved, node_module_paths, percent_decode};
use crate::object::internal_methods::{array_create, create_data_property_or_throw, define_builtin, get, set};
use crate::object::{Attributes, JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

use super::{coded_error, get_named, load, module_filename, resolve_filename};

/// `require.cache` (`Module._cache`): filename → module object, with no
/// prototype.
pub(crate) fn cache(vm: &mut Vm) -> Gc<JsObject> {
    if let Some(c) = vm.runtime.host_objects.module_cache {
        return c;
    }
    let c = vm.new_object(None);
    vm.runtime.host_objects.module_cache = Some(c);
    c
}

/// Defines an ordinary data property (writable, enumerable, configurable).
fn data(vm: &mut Vm, o: Gc<JsObject>, name: &str, value: Value) -> JsResult<()> {
    let key = vm.key(name);
    create_data_property_or_throw(vm, o, key, value)
}

/// An array of path strings.
pub(crate) fn paths_array(vm: &mut Vm, paths: &[PathBuf]) -> Gc<JsObject> {
    let items: Vec<Value> = paths.iter().map(|p| vm.string(&p.to_string_lossy())).collect();
    array_create(vm, &items)
}

/// `new Module(id, parent)`: `id`, `path`, `exports`, `filename`,
/// `loaded`, `children` in Node's order, and a place in `parent.children`.
pub(crate) fn new_module(vm: &mut Vm, id: &str, parent: Option<Gc<JsObject>>) -> JsResult<Gc<JsObject>> {
    let proto = vm.runtime.host_objects.module_prototype;
    let module = vm.new_object(proto);
    let id_value = vm.string(id);
    data(vm, module, "id", id_value)?;
    let dir = Path::new(id).parent().map_or_else(|| ".".to_owned(), |d| d.display().to_string());
    let dir = if dir.is_empty() { ".".to_owned() } else { dir };
    let path_value = vm.string(&dir);
    data(vm, module, "path", path_value)?;
    let exports = vm.new_plain_object();
    data(vm, module, "exports", Value::object(exports))?;
    data(vm, module, "filename", Value::NULL)?;
    data(vm, module, "loaded", Value::boolean(false))?;
    let children = array_create(vm, &[]);
    data(vm, module, "children", Value::object(children))?;
    if let Some(p) = parent {
        add_child(vm, p, module, false)?;
    }
    Ok(module)
}

/// The elements of `parent.children` if it is an array.
fn children_of(vm: &mut Vm, parent: Gc<JsObject>) -> JsResult<Option<(Gc<JsObject>, Vec<Value>)>> {
    let children = get_named(vm, parent, "children")?;
    let Some(array) = children.as_object() else { return Ok(None) };
    if !crate::abstract_ops::is_array(vm, children)? {
        return Ok(None);
    }
    let length = crate::object::internal_methods::length_of_array_like(vm, array)? as u64;
    let mut items = Vec::new();
    for i in 0..length {
        let key = crate::object::internal_methods::index_key(vm, i);
        items.push(get(vm, array, key, children)?);
    }
    Ok(Some((array, items)))
}

/// `updateChildren`: appends `child` to `parent.children` (unless `scan`
/// finds it there already).
pub(crate) fn add_child(vm: &mut Vm, parent: Gc<JsObject>, child: Gc<JsObject>, scan: bool) -> JsResult<()> {
    let Some((array, items)) = children_of(vm, parent)? else { return Ok(()) };
    if scan && items.contains(&Value::object(child)) {
        return Ok(());
    }
    let key = crate::object::internal_methods::index_key(vm, items.len() as u64);
    set(vm, array, key, Value::object(child), Value::object(array)).map(drop)
}

/// Takes a module that failed to load out of `parent.children`.
pub(crate) fn remove_child(vm: &mut Vm, parent: Gc<JsObject>, child: Gc<JsObject>) -> JsResult<()> {
    let Some((array, items)) = children_of(vm, parent)? else { return Ok(()) };
    let Some(index) = items.iter().position(|v| *v == Value::object(child)) else { return Ok(()) };
    for (i, value) in items.iter().enumerate().skip(index + 1) {
        let key = crate::object::internal_methods::index_key(vm, (i - 1) as u64);
        set(vm, array, key, *value, Value::object(array))?;
    }
    let length = PropertyKey::String(vm.names.length);
    set(vm, array, length, Value::number((items.len() - 1) as f64), Value::object(array)).map(drop)
}

/// `makeRequireFunction(module)`.
pub(crate) fn make_require_function(vm: &mut Vm, module: Gc<JsObject>) -> Gc<JsObject> {
    let module_value = Value::object(module);
    let require = native_function_with_data(vm, "require", 1, require, module_value);
    let resolve = native_function_with_data(vm, "resolve", 2, resolve, module_value);
    let paths = native_function_with_data(vm, "paths", 1, resolve_paths, module_value);
    // Nothing below runs user code: the new objects cannot be collected.
    let _ = data(vm, resolve, "paths", Value::object(paths));
    let _ = data(vm, require, "resolve", Value::object(resolve));
    let main = vm.runtime.host_objects.main_module.map_or(Value::UNDEFINED, Value::object);
    let _ = data(vm, require, "main", main);
    let extensions = vm.runtime.host_objects.module_extensions.map_or(Value::UNDEFINED, Value::object);
    let _ = data(vm, require, "extensions", extensions);
    let cache = cache(vm);
    let _ = data(vm, require, "cache", Value::object(cache));
    require
}

/// How Node describes a wrong argument: `Received type number (1)`.
fn received(vm: &mut Vm, value: Value) -> String {
    if value.is_undefined() {
        return "Received undefined".to_owned();
    }
    if value.is_null() {
        return "Received null".to_owned();
    }
    if let Some(o) = value.as_object() {
        if o.borrow(&vm.heap).is_callable() {
            let name = get_named(vm, o, "name").ok().and_then(|n| vm.rust_string(n).ok()).unwrap_or_default();
            return format!("Received function {name}");
        }
        let name = vm.constructor_name(value).unwrap_or_else(|| "Object".to_owned());
        return format!("Received an instance of {name}");
    }
    let kind = crate::abstract_ops::type_of(vm, value);
    let text = vm.display(value);
    format!("Received type {kind} ({text})")
}

/// A string argument `name`, validated as Node's `validateString`.
fn string_argument(vm: &mut Vm, value: Value, name: &str) -> JsResult<String> {
    if !value.is_string() {
        let message = format!("The \"{name}\" argument must be of type string. {}", received(vm, value));
        return Err(coded_error(vm, ErrorKind::Type, &message, "ERR_INVALID_ARG_TYPE", None));
    }
    vm.rust_string(value)
}

/// The module a `require` function (or its `resolve`) belongs to.
fn owner(vm: &mut Vm, info: &CallInfo) -> Option<Gc<JsObject>> {
    info.data(vm).as_object()
}

/// `require(id)`.
fn require(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let id = info.arg(vm, 0);
    let id = string_argument(vm, id, "id")?;
    if id.is_empty() {
        let message = "The argument 'id' must be a non-empty string. Received ''";
        return Err(coded_error(vm, ErrorKind::Type, message, "ERR_INVALID_ARG_VALUE", None));
    }
    let module = owner(vm, info);
    load(vm, &id, module, false)
}

/// `require.resolve(request)`: the file `require` would load, or the
/// request itself for a built-in.
fn resolve(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let request = info.arg(vm, 0);
    let request = string_argument(vm, request, "request")?;
    let module = owner(vm, info);
    match resolve_filename(vm, &request, module)? {
        Resolved::Builtin(_) => Ok(vm.string(&request)),
        Resolved::File(path) => Ok(vm.string(&path.to_string_lossy())),
    }
}

/// `require.resolve.paths(request)`: where `require` looks, `null` for a
/// built-in.
fn resolve_paths(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let request = info.arg(vm, 0);
    let request = string_argument(vm, request, "request")?;
    let parent = match owner(vm, info) {
        Some(m) => module_filename(vm, m)?,
        None => None,
    };
    match vm.runtime.commonjs.resolver.require_lookup_paths(&request, parent.as_deref().map(Path::new)) {
        Some(paths) => Ok(Value::object(paths_array(vm, &paths))),
        None => Ok(Value::NULL),
    }
}

/// `Module.prototype.require(id)`.
fn module_require(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let id = info.arg(vm, 0);
    let id = string_argument(vm, id, "id")?;
    let this = info.this.as_object();
    load(vm, &id, this, false)
}

/// `new Module(id, parent)`.
fn module_constructor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let id = info.arg(vm, 0);
    let id = if id.is_undefined() { String::new() } else { vm.rust_string(id)? };
    let parent = info.arg(vm, 1).as_object();
    new_module(vm, &id, parent).map(Value::object)
}

/// `module.createRequire(filename)`: a `require` for a module at
/// `filename` (a `file:` URL or an absolute path; a directory when it
/// ends in `/`).
fn create_require(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let argument = info.arg(vm, 0);
    let mut text = None;
    if argument.is_string() {
        text = Some(vm.rust_string(argument)?);
    } else if let Some(o) = argument.as_object() {
        let href = get_named(vm, o, "href")?;
        if href.is_string() {
            text = Some(vm.rust_string(href)?);
        }
    }
    let path = match text {
        Some(t) if t.starts_with("file://") => Some(percent_decode(&t[7..])),
        Some(t) if t.starts_with('/') => Some(t),
        _ => None,
    };
    let Some(path) = path else {
        let shown =
            if argument.is_string() { format!("'{}'", vm.rust_string(argument)?) } else { vm.display(argument) };
        let message = format!(
            "The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received {shown}"
        );
        return Err(coded_error(vm, ErrorKind::Type, &message, "ERR_INVALID_ARG_VALUE", None));
    };
    let proxy = if path.ends_with('/') { format!("{path}noop.js") } else { path };
    let module = new_module(vm, &proxy, None)?;
    let filename = vm.string(&proxy);
    let key = vm.key("filename");
    set(vm, module, key, filename, Value::object(module))?;
    let dir = Path::new(&proxy).parent().unwrap_or(Path::new("/")).to_path_buf();
    let paths = paths_array(vm, &node_module_paths(&dir));
    data(vm, module, "paths", Value::object(paths))?;
    Ok(Value::object(make_require_function(vm, module)))
}

/// `module.isBuiltin(name)`.
fn is_builtin(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = info.arg(vm, 0);
    if !name.is_string() {
        return Ok(Value::boolean(false));
    }
    let name = vm.rust_string(name)?;
    let bare = name.strip_prefix("node:").unwrap_or(&name);
    Ok(Value::boolean(vm.runtime.commonjs.resolver.builtin(bare).is_some()))
}

/// `Module._extensions[ext](module, filename)`: loads `filename` into
/// `module` by its own extension.
fn extension_loader(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(module) = info.arg(vm, 0).as_object() else {
        return Err(vm.type_error("The module argument must be a Module object"));
    };
    let filename = info.arg(vm, 1);
    let filename = string_argument(vm, filename, "filename")?;
    super::load_file(vm, module, &filename)?;
    Ok(Value::UNDEFINED)
}

/// Makes `Module`, its prototype, `Module._cache` and `Module._extensions`.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.new_plain_object();
    vm.runtime.host_objects.module_prototype = Some(proto);
    let ctor = native_function(vm, "Module", 0, module_constructor, true);
    vm.runtime.host_objects.module_constructor = Some(ctor);
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, ctor, proto_key, Value::object(proto), Attributes::NONE);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, proto, ctor_key, Value::object(ctor), Attributes::METHOD);
    method(vm, proto, "require", 1, module_require);
    let extensions = vm.new_object(None);
    vm.runtime.host_objects.module_extensions = Some(extensions);
    for ext in [".js", ".json", ".node"] {
        let f = native_function(vm, "", 2, extension_loader, false);
        let _ = data(vm, extensions, ext, Value::object(f));
    }
    let cache = cache(vm);
    let names: Vec<Value> = crate::module::builtin::BUILTINS.iter().map(|b| vm.string(b)).collect();
    let builtins = array_create(vm, &names);
    let _ = data(vm, ctor, "builtinModules", Value::object(builtins));
    let create = native_function(vm, "createRequire", 1, create_require, false);
    let _ = data(vm, ctor, "createRequire", Value::object(create));
    let is = native_function(vm, "isBuiltin", 1, is_builtin, false);
    let _ = data(vm, ctor, "isBuiltin", Value::object(is));
    let _ = data(vm, ctor, "_cache", Value::object(cache));
    let _ = data(vm, ctor, "_extensions", Value::object(extensions));
    let global_paths = vm.runtime.commonjs.resolver.global_paths.clone();
    let global_paths = paths_array(vm, &global_paths);
    let _ = data(vm, ctor, "globalPaths", Value::object(global_paths));
    value_property(vm, ctor, "Module", Value::object(ctor), Attributes::METHOD);
}
