//! `import.meta` (§13.3.12): HostGetImportMetaProperties as Node fills it
//! in — `dirname`, `filename` (for modules read from files), `resolve` and
//! `url`.

use std::path::Path;

use crate::bytecode::{Code, ScriptOrModule};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::create_data_property_or_throw;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

use super::ModuleId;

/// `import.meta` of the module `code` belongs to: an object with a null
/// prototype, made once per module.
pub(crate) fn import_meta(vm: &mut Vm, code: js_gc::Gc<Code>) -> JsResult<Value> {
    let Some(ScriptOrModule::Module(id)) = code.borrow(&vm.heap).source.referrer.borrow().clone() else {
        return Err(vm.syntax_error("Cannot use 'import.meta' outside a module"));
    };
    if let Some(meta) = vm.module(id).meta {
        return Ok(Value::object(meta));
    }
    // The module record roots `meta`; each value below is stored into it
    // before the next allocation.
    let meta = vm.new_object(None);
    vm.module_mut(id).meta = Some(meta);
    let module_key = vm.module(id).key.clone();
    if let Some(path) = vm.modules.loader.file_path(&module_key) {
        let dirname = Path::new(&path).parent().map_or_else(|| path.clone(), |p| p.to_string_lossy().into_owned());
        for (name, text) in [("dirname", dirname.as_str()), ("filename", path.as_str())] {
            let value = vm.string(text);
            let key = vm.key(name);
            create_data_property_or_throw(vm, meta, key, value)?;
        }
    }
    let resolve = crate::builtins::native_function_with_data(vm, "resolve", 1, resolve, Value::number(f64::from(id)));
    let key = vm.key("resolve");
    create_data_property_or_throw(vm, meta, key, Value::object(resolve))?;
    let url = vm.modules.loader.url(&module_key);
    let url = vm.string(&url);
    let key = vm.key("url");
    create_data_property_or_throw(vm, meta, key, url)?;
    Ok(Value::object(meta))
}

/// `import.meta.resolve(specifier)`: the URL `specifier` names from this
/// module, without loading it; `node:` specifiers are URLs already, and
/// the bare names of built-in modules resolve to `node:name`.
fn resolve(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let specifier = info.arg(vm, 0);
    let specifier = vm.rust_string(specifier)?;
    if specifier.starts_with("node:") {
        return Ok(vm.string(&specifier));
    }
    if let Some(name) = super::builtin::builtin_name(&specifier) {
        return Ok(vm.string(&format!("node:{name}")));
    }
    let Some(id) = info.data(vm).as_number() else { return Ok(Value::UNDEFINED) };
    let referrer = vm.module(id as ModuleId).key.clone();
    match vm.modules.loader.resolve_url(&specifier, &referrer) {
        Ok(url) => Ok(vm.string(&url)),
        Err(error) => Err(vm.module_load_error(&error)),
    }
}
