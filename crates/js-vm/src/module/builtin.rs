//! Built-in modules (`node:async_hooks`, `node:module`, `node:process`): synthetic module
//! records whose exports are the host object's own properties, plus
//! `default` for the object itself, as Node exposes its built-ins to ES
//! modules.

use crate::object::PropertyKey;
use crate::value::Value;
use crate::vm::Vm;

use super::ModuleId;

/// The built-in modules this host has, by their names without `node:`.
pub const BUILTINS: &[&str] = &["async_hooks", "module", "process"];

/// The built-in module a specifier names (`node:x`, or the bare `x`).
pub(crate) fn builtin_name(specifier: &str) -> Option<&'static str> {
    let name = specifier.strip_prefix("node:").unwrap_or(specifier);
    BUILTINS.iter().copied().find(|b| *b == name)
}

/// Makes the record of built-in module `name` (one of [`builtin_name`]'s).
pub(crate) fn create(vm: &mut Vm, name: &str) -> ModuleId {
    let object = match name {
        "process" => vm.runtime.host_objects.process.map_or(Value::UNDEFINED, Value::object),
        "module" => vm.runtime.host_objects.module_constructor.map_or(Value::UNDEFINED, Value::object),
        _ => crate::host::async_local_storage::async_hooks_module(vm),
    };
    let mut exports: Vec<(String, Value)> = Vec::new();
    // Values read so far stay rooted while getters run.
    let mark = vm.stack.temp_roots.len();
    if let Some(o) = object.as_object() {
        // A builtin module's object is ordinary: no trap runs.
        let keys = crate::object::internal_methods::own_property_keys(vm, o).unwrap_or_default();
        for key in keys {
            let PropertyKey::String(atom) = key else { continue };
            // `Module` is a function: its `length`, `name` and `prototype`
            // are not exports (Node exports enumerable own properties; the
            // other host objects define their methods non-enumerable, as
            // builtins are, but still export them).
            if name == "module" {
                let enumerable = crate::object::internal_methods::get_own_property(vm, o, key)
                    .ok()
                    .flatten()
                    .is_some_and(|d| d.enumerable == Some(true));
                if !enumerable {
                    continue;
                }
            }
            let export = atom.borrow(&vm.heap).flat().to_rust_string();
            let value = crate::object::internal_methods::get(vm, o, key, object).unwrap_or(Value::UNDEFINED);
            vm.stack.temp_roots.push(value);
            exports.push((export, value));
        }
    }
    exports.push(("default".to_owned(), object));
    let borrowed: Vec<(&str, Value)> = exports.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let id = vm.add_synthetic_module(&format!("node:{name}"), &borrowed);
    vm.stack.temp_roots.truncate(mark);
    id
}
