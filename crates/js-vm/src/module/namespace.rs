//! Module namespace exotic objects (§10.4.6): a null-prototype,
//! non-extensible object whose string keys are the module's exported
//! names in code-unit order, each a live view of the binding it resolves
//! to, plus `@@toStringTag` "Module".

use js_gc::{Gc, Trace, Tracer};

use crate::abstract_ops::same_value;
use crate::environment::{DeclarativeEnvironment, ImportBinding};
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, DataClass, ExoticMethods, JsObject, PropertyDescriptor, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

use super::ModuleId;
use super::link::{Resolution, ResolveResult, get_exported_names, resolve_export};

/// A module namespace exotic object (§10.4.6): its slots are a
/// [`NamespaceData`] cell.
static MODULE_NAMESPACE: DataClass = DataClass {
    name: "Module",
    cell: DataClass::cell_type::<NamespaceData>(),
    exotic: Some(&NAMESPACE_METHODS),
    inspect: None,
};

/// The namespace's internal methods for string keys (§10.4.6); symbols
/// (its `@@toStringTag`) take the ordinary ones.
static NAMESPACE_METHODS: ExoticMethods = ExoticMethods {
    // A binding in its TDZ is a ReferenceError (§10.4.6.5).
    check_get_own_property: |vm, obj, key| {
        if key.is_symbol() { Ok(()) } else { namespace_get(vm, obj, key).map(drop) }
    },
    get_own_property: |vm, obj, key| (!key.is_symbol()).then(|| namespace_get_own(vm, obj, key)),
    define_own_property: |vm, obj, key, desc| (!key.is_symbol()).then(|| namespace_define_own(vm, obj, key, desc)),
    has_property: |_, _, _| None,
    get: |vm, obj, key| (!key.is_symbol()).then(|| namespace_get(vm, obj, key)),
    // §10.4.6.9: namespaces are read-only.
    set: |_, _, _, _, _| Some(Ok(false)),
    delete: |_, _, _| None,
    own_property_keys: |vm, obj, _| namespace_own_keys(vm, obj),
    can_prevent_extensions: |_, _| true,
};

fn namespace_cell(vm: &Vm, obj: Gc<JsObject>) -> Option<Gc<NamespaceData>> {
    obj.borrow(&vm.heap).data_of(&MODULE_NAMESPACE)
}

/// Where a namespace's export reads its value.
#[derive(Clone, Copy, Debug)]
pub enum NamespaceBinding {
    /// A slot of a module environment.
    Slot(Gc<DeclarativeEnvironment>, u32),
    /// Another module's namespace object (made when first read).
    Namespace(ModuleId),
}

/// `[[Exports]]` of a namespace object (its `[[Module]]` is needed only
/// while the namespace is made).
pub struct NamespaceData {
    /// The exported names, sorted by code units, with their bindings.
    pub exports: Vec<(PropertyKey, NamespaceBinding)>,
}

// SAFETY: the keys and the environments are all the pointers.
unsafe impl Trace for NamespaceData {
    fn trace(&self, tracer: &mut Tracer) {
        for (key, binding) in &self.exports {
            key.trace(tracer);
            if let NamespaceBinding::Slot(env, _) = binding {
                env.trace(tracer);
            }
        }
    }
}

/// `GetModuleNamespace(module)`.
pub fn get_module_namespace(vm: &mut Vm, module: ModuleId) -> Gc<JsObject> {
    if let Some(ns) = vm.module(module).namespace {
        return ns;
    }
    let names = get_exported_names(vm, module, &mut Vec::new());
    let mut exports: Vec<(Vec<u16>, NamespaceBinding)> = Vec::new();
    for name in names {
        if let ResolveResult::Found(resolution) = resolve_export(vm, module, &name, &mut Vec::new()) {
            let binding = match resolution {
                Resolution::Binding { module: m, slot } => NamespaceBinding::Slot(vm.module(m).env, slot),
                Resolution::Namespace(m) => NamespaceBinding::Namespace(m),
            };
            exports.push((name.encode_utf16().collect(), binding));
        }
    }
    exports.sort_by(|a, b| a.0.cmp(&b.0));
    let exports = exports
        .into_iter()
        .map(|(units, binding)| {
            let text = String::from_utf16_lossy(&units);
            (vm.key(&text), binding)
        })
        .collect();
    let data = NamespaceData { exports };
    let ns = vm.new_object_with_data(None, &MODULE_NAMESPACE, data);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let module_text = vm.string("Module");
    define_builtin(vm, ns, tag, module_text, Attributes::NONE);
    ns.borrow_mut(&mut vm.heap).extensible = false;
    vm.module_mut(module).namespace = Some(ns);
    ns
}

/// The binding of export `key` of namespace `obj`, if `obj` is a
/// namespace and exports it.
fn lookup(vm: &Vm, obj: Gc<JsObject>, key: PropertyKey) -> Option<NamespaceBinding> {
    let data = namespace_cell(vm, obj)?.borrow(&vm.heap);
    data.exports.iter().find(|(k, _)| *k == key).map(|(_, b)| *b)
}

/// The binding's current value; `None` in its TDZ.
fn binding_value(vm: &mut Vm, binding: NamespaceBinding) -> Option<Value> {
    match binding {
        NamespaceBinding::Slot(env, slot) => {
            let v = env.borrow(&vm.heap).slots[slot as usize];
            let v = match v.as_internal::<ImportBinding>() {
                Some(b) => {
                    let (target, target_slot) = {
                        let b = b.borrow(&vm.heap);
                        (b.env, b.slot)
                    };
                    target.borrow(&vm.heap).slots[target_slot as usize]
                }
                None => v,
            };
            (!v.is_hole()).then_some(v)
        }
        NamespaceBinding::Namespace(m) => Some(Value::object(get_module_namespace(vm, m))),
    }
}

/// The ReferenceError of a binding read in its TDZ.
fn uninitialized(vm: &mut Vm, key: PropertyKey) -> crate::vm::Exception {
    let name = crate::object::internal_methods::key_to_display(vm, key);
    vm.reference_error(&format!("Cannot access '{name}' before initialization"))
}

/// `[[Get]]` for a string key (§10.4.6.8).
fn namespace_get(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey) -> JsResult<Value> {
    let Some(binding) = lookup(vm, obj, key) else { return Ok(Value::UNDEFINED) };
    match binding_value(vm, binding) {
        Some(v) => Ok(v),
        None => Err(uninitialized(vm, key)),
    }
}

/// `[[GetOwnProperty]]` for a string key (§10.4.6.5). A binding in its
/// TDZ, where the spec throws, reads as `undefined`: this operation cannot
/// throw in this engine (the throwing paths are `[[Get]]` and
/// `[[DefineOwnProperty]]`).
fn namespace_get_own(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey) -> Option<PropertyDescriptor> {
    let binding = lookup(vm, obj, key)?;
    let value = binding_value(vm, binding).unwrap_or(Value::UNDEFINED);
    Some(PropertyDescriptor::data(value, Attributes::from_bits(Attributes::WRITABLE | Attributes::ENUMERABLE)))
}

/// `[[DefineOwnProperty]]` for a string key (§10.4.6.6).
fn namespace_define_own(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, desc: &PropertyDescriptor) -> JsResult<bool> {
    let Some(binding) = lookup(vm, obj, key) else { return Ok(false) };
    let Some(current) = binding_value(vm, binding) else { return Err(uninitialized(vm, key)) };
    if desc.configurable == Some(true) || desc.enumerable == Some(false) || desc.is_accessor() {
        return Ok(false);
    }
    if desc.writable == Some(false) {
        return Ok(false);
    }
    if let Some(v) = desc.value {
        return Ok(same_value(vm, v, current));
    }
    Ok(true)
}

/// `[[OwnPropertyKeys]]` (§10.4.6.11): the exports, then the symbols.
fn namespace_own_keys(vm: &Vm, obj: Gc<JsObject>) -> Vec<PropertyKey> {
    let Some(data) = namespace_cell(vm, obj) else { return Vec::new() };
    let data = data.borrow(&vm.heap);
    let o = obj.borrow(&vm.heap);
    let mut keys: Vec<PropertyKey> = data.exports.iter().map(|(k, _)| *k).collect();
    keys.extend(o.own_keys(&vm.heap));
    keys
}
