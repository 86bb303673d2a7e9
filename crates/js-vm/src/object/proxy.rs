//! Proxy exotic objects (ECMA-262 §10.5): `ProxyCreate`, revocation, and the
//! internal methods that forward to a handler's traps and check every trap
//! result against the invariants the target imposes.
//!
//! [`crate::object::internal_methods`] dispatches here with one kind check
//! per call, so ordinary objects pay nothing else for proxies.
//!
//! Rooting: a trap is user code, so it may reach a safepoint, and it may
//! revoke the proxy, which drops the proxy's only references to its target
//! and handler. Each operation therefore keeps the target, handler, trap,
//! key and every value it was given or got back in `vm.stack.temp_roots` until it
//! returns. [`proxy_own_property_keys`] leaves the keys it returns there, as
//! they may be fresh atoms nothing else holds; the caller's scope (a native
//! function's return, or an explicit truncation) releases them.
//!
//! Depth: a proxy's target or handler may itself be a proxy, so every
//! operation counts as a native re-entry; a long chain ends in a
//! `RangeError` rather than exhausting the native stack.

use std::collections::HashSet;

use js_gc::{Gc, Trace, Tracer};

use super::internal_methods::{self as im, from_property_descriptor, key_to_value, to_property_descriptor};
use super::{Elements, JsObject, ObjectKind, Properties, PropertyDescriptor, PropertyKey};
use crate::abstract_ops::{same_value, to_boolean, to_property_key};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A proxy's internal slots.
pub struct ProxyData {
    /// `[[ProxyTarget]]`; `None` once revoked.
    pub target: Option<Gc<JsObject>>,
    /// `[[ProxyHandler]]`; `None` once revoked.
    pub handler: Option<Gc<JsObject>>,
    /// Whether the proxy has `[[Call]]`: its target was callable when the
    /// proxy was made (it keeps it after revocation).
    pub callable: bool,
    /// Whether the proxy has `[[Construct]]`.
    pub constructor: bool,
}

// SAFETY: the target and the handler are reported while they are held.
unsafe impl Trace for ProxyData {
    fn trace(&self, tracer: &mut Tracer) {
        self.target.trace(tracer);
        self.handler.trace(tracer);
    }
}

/// The handler methods of §10.5, by the name the handler defines them under.
#[derive(Clone, Copy)]
enum Trap {
    GetPrototypeOf,
    SetPrototypeOf,
    IsExtensible,
    PreventExtensions,
    GetOwnPropertyDescriptor,
    DefineProperty,
    Has,
    Get,
    Set,
    DeleteProperty,
    OwnKeys,
    Apply,
    Construct,
}

impl Trap {
    fn name(self) -> &'static str {
        match self {
            Trap::GetPrototypeOf => "getPrototypeOf",
            Trap::SetPrototypeOf => "setPrototypeOf",
            Trap::IsExtensible => "isExtensible",
            Trap::PreventExtensions => "preventExtensions",
            Trap::GetOwnPropertyDescriptor => "getOwnPropertyDescriptor",
            Trap::DefineProperty => "defineProperty",
            Trap::Has => "has",
            Trap::Get => "get",
            Trap::Set => "set",
            Trap::DeleteProperty => "deleteProperty",
            Trap::OwnKeys => "ownKeys",
            Trap::Apply => "apply",
            Trap::Construct => "construct",
        }
    }
}

/// `ProxyCreate(target, handler)` (§10.5.14).
pub fn proxy_create(vm: &mut Vm, target: Value, handler: Value) -> JsResult<Gc<JsObject>> {
    let (Some(target), Some(handler)) = (target.as_object(), handler.as_object()) else {
        return Err(vm.type_error("Cannot create proxy with a non-object as target or handler"));
    };
    let t = target.borrow(&vm.heap);
    let (callable, constructor) = (t.is_callable(), t.is_constructor(&vm.heap));
    let proxy = JsObject {
        proto: None,
        extensible: true,
        is_html_dda: false,
        properties: Properties::Dictionary(Box::default()),
        elements: Elements::Dense(Vec::new()),
        kind: ObjectKind::Proxy(ProxyData { target: Some(target), handler: Some(handler), callable, constructor }),
    };
    Ok(vm.heap.alloc(proxy))
}

/// Revokes a proxy: it drops its target and handler, and every later
/// operation on it throws a `TypeError`.
pub fn revoke(vm: &mut Vm, proxy: Gc<JsObject>) {
    if let ObjectKind::Proxy(data) = &mut proxy.borrow_mut(&mut vm.heap).kind {
        data.target = None;
        data.handler = None;
    }
}

/// The first object that is not a proxy along `obj`'s chain of proxy
/// targets (`obj` itself if it is not a proxy); `None` if a proxy on the way
/// is revoked. Runs no trap.
pub fn innermost_target(vm: &Vm, mut obj: Gc<JsObject>) -> Option<Gc<JsObject>> {
    while let ObjectKind::Proxy(data) = &obj.borrow(&vm.heap).kind {
        obj = data.target?;
    }
    Some(obj)
}

/// The value to keep alive for a key (index keys need none).
fn key_root(key: PropertyKey) -> Value {
    match key {
        PropertyKey::String(s) => Value::string(s),
        PropertyKey::Symbol(s) => Value::symbol(s),
        PropertyKey::Index(_) => Value::UNDEFINED,
    }
}

/// The values a descriptor holds, to keep alive.
fn descriptor_roots(desc: Option<&PropertyDescriptor>) -> [Value; 3] {
    desc.map_or([Value::UNDEFINED; 3], |d| {
        [d.value.unwrap_or_default(), d.get.unwrap_or_default(), d.set.unwrap_or_default()]
    })
}

/// One proxy operation: checks that the proxy is not revoked, keeps the
/// target, handler and `roots` alive and counts a native re-entry, looks up
/// the trap (`GetMethod(handler, name)`), and runs `steps` with the target,
/// the handler and the trap (`None` when the handler has none).
fn operation<T>(
    vm: &mut Vm,
    proxy: Gc<JsObject>,
    trap: Trap,
    roots: &[Value],
    steps: impl FnOnce(&mut Vm, Gc<JsObject>, Gc<JsObject>, Option<Value>) -> JsResult<T>,
) -> JsResult<T> {
    let ObjectKind::Proxy(ProxyData { target: Some(target), handler: Some(handler), .. }) = proxy.borrow(&vm.heap).kind
    else {
        let name = trap.name();
        return Err(vm.type_error(&format!("Cannot perform '{name}' on a proxy that has been revoked")));
    };
    if crate::interpreter::native_stack_exhausted(vm) {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.extend([Value::object(target), Value::object(handler)]);
    vm.stack.temp_roots.extend_from_slice(roots);
    vm.stack.native_depth += 1;
    let result = get_trap(vm, handler, trap).and_then(|t| steps(vm, target, handler, t));
    vm.stack.native_depth -= 1;
    vm.stack.temp_roots.truncate(mark);
    result
}

/// `GetMethod(handler, name)`, keeping the trap alive.
fn get_trap(vm: &mut Vm, handler: Gc<JsObject>, trap: Trap) -> JsResult<Option<Value>> {
    let key = vm.key(trap.name());
    let method = im::get_value(vm, Value::object(handler), key)?;
    if method.is_nullish() {
        return Ok(None);
    }
    if !crate::abstract_ops::is_callable(vm, method) {
        let name = trap.name();
        return Err(vm.type_error(&format!("'{name}' on proxy: trap is not a function")));
    }
    vm.stack.temp_roots.push(method);
    Ok(Some(method))
}

/// Calls a trap with the handler as `this`, keeping the result alive.
fn call_trap(vm: &mut Vm, trap: Value, handler: Gc<JsObject>, args: &[Value]) -> JsResult<Value> {
    let result = im::call(vm, trap, Value::object(handler), args)?;
    vm.stack.temp_roots.push(result);
    Ok(result)
}

/// Calls a trap and converts its result with `ToBoolean`.
fn call_boolean_trap(vm: &mut Vm, trap: Value, handler: Gc<JsObject>, args: &[Value]) -> JsResult<bool> {
    let result = im::call(vm, trap, Value::object(handler), args)?;
    Ok(to_boolean(vm, result))
}

/// A `TypeError` for a broken invariant: `'trap' on proxy: detail`, with
/// `{key}` in `detail` replaced by the property key.
fn invariant_error(vm: &mut Vm, trap: Trap, key: Option<PropertyKey>, detail: &str) -> crate::vm::Exception {
    let detail = match key {
        Some(k) => detail.replace("{key}", &im::key_to_display(vm, k)),
        None => detail.to_owned(),
    };
    let name = trap.name();
    vm.type_error(&format!("'{name}' on proxy: {detail}"))
}

/// `[[GetOwnProperty]]` of the target, keeping the descriptor's values alive.
fn target_own_property(vm: &mut Vm, target: Gc<JsObject>, key: PropertyKey) -> JsResult<Option<PropertyDescriptor>> {
    let desc = im::get_own_property(vm, target, key)?;
    vm.stack.temp_roots.extend(descriptor_roots(desc.as_ref()));
    Ok(desc)
}

/// `IsCompatiblePropertyDescriptor(Extensible, Desc, Current)` (§10.1.6.2).
fn is_compatible_property_descriptor(
    vm: &mut Vm,
    extensible: bool,
    desc: &PropertyDescriptor,
    current: Option<&PropertyDescriptor>,
) -> bool {
    match current {
        None => extensible,
        Some(current) => im::is_compatible(vm, current, desc),
    }
}

/// `[[GetPrototypeOf]]` (§10.5.1).
pub fn proxy_get_prototype_of(vm: &mut Vm, proxy: Gc<JsObject>) -> JsResult<Option<Gc<JsObject>>> {
    operation(vm, proxy, Trap::GetPrototypeOf, &[], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::get_prototype_of(vm, target) };
        let result = call_trap(vm, trap, handler, &[Value::object(target)])?;
        let proto = match result.as_object() {
            Some(o) => Some(o),
            None if result.is_null() => None,
            None => {
                return Err(invariant_error(vm, Trap::GetPrototypeOf, None, "trap returned neither object nor null"));
            }
        };
        if im::is_extensible(vm, target)? {
            return Ok(proto);
        }
        if im::get_prototype_of(vm, target)? != proto {
            return Err(invariant_error(
                vm,
                Trap::GetPrototypeOf,
                None,
                "proxy target is non-extensible but the trap did not return its actual prototype",
            ));
        }
        Ok(proto)
    })
}

/// `[[SetPrototypeOf]]` (§10.5.2).
pub fn proxy_set_prototype_of(vm: &mut Vm, proxy: Gc<JsObject>, proto: Option<Gc<JsObject>>) -> JsResult<bool> {
    let proto_value = proto.map_or(Value::NULL, Value::object);
    operation(vm, proxy, Trap::SetPrototypeOf, &[proto_value], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::set_prototype_of(vm, target, proto) };
        if !call_boolean_trap(vm, trap, handler, &[Value::object(target), proto_value])? {
            return Ok(false);
        }
        if im::is_extensible(vm, target)? {
            return Ok(true);
        }
        if im::get_prototype_of(vm, target)? != proto {
            return Err(invariant_error(
                vm,
                Trap::SetPrototypeOf,
                None,
                "trap returned truish for setting a new prototype on the non-extensible proxy target",
            ));
        }
        Ok(true)
    })
}

/// `[[IsExtensible]]` (§10.5.3).
pub fn proxy_is_extensible(vm: &mut Vm, proxy: Gc<JsObject>) -> JsResult<bool> {
    operation(vm, proxy, Trap::IsExtensible, &[], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::is_extensible(vm, target) };
        let result = call_boolean_trap(vm, trap, handler, &[Value::object(target)])?;
        let target_result = im::is_extensible(vm, target)?;
        if result != target_result {
            let detail =
                format!("trap result does not reflect extensibility of proxy target (which is '{target_result}')");
            return Err(invariant_error(vm, Trap::IsExtensible, None, &detail));
        }
        Ok(result)
    })
}

/// `[[PreventExtensions]]` (§10.5.4).
pub fn proxy_prevent_extensions(vm: &mut Vm, proxy: Gc<JsObject>) -> JsResult<bool> {
    operation(vm, proxy, Trap::PreventExtensions, &[], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::prevent_extensions(vm, target) };
        let result = call_boolean_trap(vm, trap, handler, &[Value::object(target)])?;
        if result && im::is_extensible(vm, target)? {
            return Err(invariant_error(
                vm,
                Trap::PreventExtensions,
                None,
                "trap returned truish but the proxy target is extensible",
            ));
        }
        Ok(result)
    })
}

/// `[[GetOwnProperty]]` (§10.5.5).
pub fn proxy_get_own_property(
    vm: &mut Vm,
    proxy: Gc<JsObject>,
    key: PropertyKey,
) -> JsResult<Option<PropertyDescriptor>> {
    const TRAP: Trap = Trap::GetOwnPropertyDescriptor;
    operation(vm, proxy, TRAP, &[key_root(key)], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::get_own_property(vm, target, key) };
        let key_value = key_to_value(vm, key);
        let result = call_trap(vm, trap, handler, &[Value::object(target), key_value])?;
        if !result.is_object() && !result.is_undefined() {
            let detail = "trap returned neither object nor undefined for property '{key}'";
            return Err(invariant_error(vm, TRAP, Some(key), detail));
        }
        let target_desc = target_own_property(vm, target, key)?;
        if result.is_undefined() {
            let Some(target_desc) = target_desc else { return Ok(None) };
            if target_desc.configurable == Some(false) {
                let detail =
                    "trap returned undefined for property '{key}' which is non-configurable in the proxy target";
                return Err(invariant_error(vm, TRAP, Some(key), detail));
            }
            if !im::is_extensible(vm, target)? {
                let detail =
                    "trap returned undefined for property '{key}' which exists in the non-extensible proxy target";
                return Err(invariant_error(vm, TRAP, Some(key), detail));
            }
            return Ok(None);
        }
        let extensible_target = im::is_extensible(vm, target)?;
        let result_desc = to_property_descriptor(vm, result)?.complete();
        vm.stack.temp_roots.extend(descriptor_roots(Some(&result_desc)));
        if !is_compatible_property_descriptor(vm, extensible_target, &result_desc, target_desc.as_ref()) {
            let detail = "trap returned descriptor for property '{key}' that is incompatible with the existing \
                          property in the proxy target";
            return Err(invariant_error(vm, TRAP, Some(key), detail));
        }
        if result_desc.configurable == Some(false) {
            let Some(target_desc) = target_desc.filter(|d| d.configurable == Some(false)) else {
                let detail = "trap reported non-configurability for property '{key}' which is either non-existent \
                              or configurable in the proxy target";
                return Err(invariant_error(vm, TRAP, Some(key), detail));
            };
            if result_desc.writable == Some(false) && target_desc.writable == Some(true) {
                let detail = "trap reported non-configurable and writable for property '{key}' which is \
                              non-configurable, non-writable in the proxy target";
                return Err(invariant_error(vm, TRAP, Some(key), detail));
            }
        }
        Ok(Some(result_desc))
    })
}

/// `[[DefineOwnProperty]]` (§10.5.6).
pub fn proxy_define_own_property(
    vm: &mut Vm,
    proxy: Gc<JsObject>,
    key: PropertyKey,
    desc: PropertyDescriptor,
) -> JsResult<bool> {
    const TRAP: Trap = Trap::DefineProperty;
    let [value, get, set] = descriptor_roots(Some(&desc));
    operation(vm, proxy, TRAP, &[key_root(key), value, get, set], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::define_own_property(vm, target, key, desc) };
        let desc_object = from_property_descriptor(vm, Some(desc))?;
        vm.stack.temp_roots.push(desc_object);
        let key_value = key_to_value(vm, key);
        if !call_boolean_trap(vm, trap, handler, &[Value::object(target), key_value, desc_object])? {
            return Ok(false);
        }
        let target_desc = target_own_property(vm, target, key)?;
        let extensible_target = im::is_extensible(vm, target)?;
        let setting_config_false = desc.configurable == Some(false);
        let Some(target_desc) = target_desc else {
            if !extensible_target {
                let detail = "trap returned truish for adding property '{key}' to the non-extensible proxy target";
                return Err(invariant_error(vm, TRAP, Some(key), detail));
            }
            if setting_config_false {
                let detail = "trap returned truish for defining non-configurable property '{key}' which is \
                              either non-existent or configurable in the proxy target";
                return Err(invariant_error(vm, TRAP, Some(key), detail));
            }
            return Ok(true);
        };
        if !is_compatible_property_descriptor(vm, extensible_target, &desc, Some(&target_desc)) {
            let detail = "trap returned truish for adding property '{key}' that is incompatible with the \
                          existing property in the proxy target";
            return Err(invariant_error(vm, TRAP, Some(key), detail));
        }
        if setting_config_false && target_desc.configurable == Some(true) {
            let detail = "trap returned truish for defining non-configurable property '{key}' which is either \
                          non-existent or configurable in the proxy target";
            return Err(invariant_error(vm, TRAP, Some(key), detail));
        }
        if target_desc.is_data()
            && target_desc.configurable == Some(false)
            && target_desc.writable == Some(true)
            && desc.writable == Some(false)
        {
            let detail = "trap returned truish for defining non-configurable property '{key}' which cannot be \
                          non-writable, unless there exists a corresponding non-configurable, non-writable own \
                          property of the target object";
            return Err(invariant_error(vm, TRAP, Some(key), detail));
        }
        Ok(true)
    })
}

/// `[[HasProperty]]` (§10.5.7).
pub fn proxy_has_property(vm: &mut Vm, proxy: Gc<JsObject>, key: PropertyKey) -> JsResult<bool> {
    operation(vm, proxy, Trap::Has, &[key_root(key)], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::has_property(vm, target, key) };
        let key_value = key_to_value(vm, key);
        if call_boolean_trap(vm, trap, handler, &[Value::object(target), key_value])? {
            return Ok(true);
        }
        if let Some(target_desc) = target_own_property(vm, target, key)? {
            if target_desc.configurable == Some(false) {
                let detail =
                    "trap returned falsish for property '{key}' which exists in the proxy target as non-configurable";
                return Err(invariant_error(vm, Trap::Has, Some(key), detail));
            }
            if !im::is_extensible(vm, target)? {
                let detail = "trap returned falsish for property '{key}' but the proxy target is not extensible";
                return Err(invariant_error(vm, Trap::Has, Some(key), detail));
            }
        }
        Ok(false)
    })
}

/// `[[Get]]` (§10.5.8).
pub fn proxy_get(vm: &mut Vm, proxy: Gc<JsObject>, key: PropertyKey, receiver: Value) -> JsResult<Value> {
    operation(vm, proxy, Trap::Get, &[key_root(key), receiver], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::get(vm, target, key, receiver) };
        let key_value = key_to_value(vm, key);
        let result = call_trap(vm, trap, handler, &[Value::object(target), key_value, receiver])?;
        let Some(target_desc) = target_own_property(vm, target, key)? else { return Ok(result) };
        if target_desc.configurable != Some(false) {
            return Ok(result);
        }
        if target_desc.is_data()
            && target_desc.writable == Some(false)
            && !same_value(vm, result, target_desc.value.unwrap_or_default())
        {
            let detail = "property '{key}' is a read-only and non-configurable data property on the proxy target \
                          but the proxy did not return its actual value";
            return Err(invariant_error(vm, Trap::Get, Some(key), detail));
        }
        if target_desc.is_accessor() && target_desc.get.unwrap_or_default().is_undefined() && !result.is_undefined() {
            let detail = "property '{key}' is a non-configurable accessor property on the proxy target and does \
                          not have a getter function, but the trap did not return 'undefined'";
            return Err(invariant_error(vm, Trap::Get, Some(key), detail));
        }
        Ok(result)
    })
}

/// `[[Set]]` (§10.5.9).
pub fn proxy_set(vm: &mut Vm, proxy: Gc<JsObject>, key: PropertyKey, value: Value, receiver: Value) -> JsResult<bool> {
    operation(vm, proxy, Trap::Set, &[key_root(key), value, receiver], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::set(vm, target, key, value, receiver) };
        let key_value = key_to_value(vm, key);
        if !call_boolean_trap(vm, trap, handler, &[Value::object(target), key_value, value, receiver])? {
            return Ok(false);
        }
        let Some(target_desc) = target_own_property(vm, target, key)? else { return Ok(true) };
        if target_desc.configurable != Some(false) {
            return Ok(true);
        }
        if target_desc.is_data()
            && target_desc.writable == Some(false)
            && !same_value(vm, value, target_desc.value.unwrap_or_default())
        {
            let detail = "trap returned truish for property '{key}' which exists in the proxy target as a \
                          non-configurable and non-writable data property with a different value";
            return Err(invariant_error(vm, Trap::Set, Some(key), detail));
        }
        if target_desc.is_accessor() && target_desc.set.unwrap_or_default().is_undefined() {
            let detail = "trap returned truish for property '{key}' which exists in the proxy target as a \
                          non-configurable and non-writable accessor property without a setter";
            return Err(invariant_error(vm, Trap::Set, Some(key), detail));
        }
        Ok(true)
    })
}

/// `[[Delete]]` (§10.5.10).
pub fn proxy_delete(vm: &mut Vm, proxy: Gc<JsObject>, key: PropertyKey) -> JsResult<bool> {
    operation(vm, proxy, Trap::DeleteProperty, &[key_root(key)], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::delete(vm, target, key) };
        let key_value = key_to_value(vm, key);
        if !call_boolean_trap(vm, trap, handler, &[Value::object(target), key_value])? {
            return Ok(false);
        }
        let Some(target_desc) = target_own_property(vm, target, key)? else { return Ok(true) };
        if target_desc.configurable == Some(false) {
            let detail = "trap returned truish for property '{key}' which is non-configurable in the proxy target";
            return Err(invariant_error(vm, Trap::DeleteProperty, Some(key), detail));
        }
        if !im::is_extensible(vm, target)? {
            let detail = "trap returned truish for property '{key}' but the proxy target is non-extensible";
            return Err(invariant_error(vm, Trap::DeleteProperty, Some(key), detail));
        }
        Ok(true)
    })
}

/// `[[OwnPropertyKeys]]` (§10.5.11). The keys stay in `vm.stack.temp_roots`
/// (see the module docs).
pub fn proxy_own_property_keys(vm: &mut Vm, proxy: Gc<JsObject>) -> JsResult<Vec<PropertyKey>> {
    let keys = operation(vm, proxy, Trap::OwnKeys, &[], |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::own_property_keys(vm, target) };
        let result = call_trap(vm, trap, handler, &[Value::object(target)])?;
        let trap_result = create_key_list(vm, result)?;
        let mut unchecked: HashSet<PropertyKey> = HashSet::with_capacity(trap_result.len());
        for &key in &trap_result {
            if !unchecked.insert(key) {
                let detail = "trap returned duplicate entries";
                return Err(invariant_error(vm, Trap::OwnKeys, None, detail));
            }
        }
        let extensible_target = im::is_extensible(vm, target)?;
        let target_keys = im::own_property_keys(vm, target)?;
        let mut configurable_keys = Vec::new();
        let mut nonconfigurable_keys = Vec::new();
        for key in target_keys {
            let desc = target_own_property(vm, target, key)?;
            if desc.is_some_and(|d| d.configurable == Some(false)) {
                nonconfigurable_keys.push(key);
            } else {
                configurable_keys.push(key);
            }
        }
        if extensible_target && nonconfigurable_keys.is_empty() {
            return Ok(trap_result);
        }
        for key in nonconfigurable_keys {
            if !unchecked.remove(&key) {
                let detail = "trap result did not include '{key}'";
                return Err(invariant_error(vm, Trap::OwnKeys, Some(key), detail));
            }
        }
        if extensible_target {
            return Ok(trap_result);
        }
        for key in configurable_keys {
            if !unchecked.remove(&key) {
                let detail = "trap result did not include '{key}'";
                return Err(invariant_error(vm, Trap::OwnKeys, Some(key), detail));
            }
        }
        if !unchecked.is_empty() {
            let detail = "trap returned extra keys but proxy target is non-extensible";
            return Err(invariant_error(vm, Trap::OwnKeys, None, detail));
        }
        Ok(trap_result)
    })?;
    vm.stack.temp_roots.extend(keys.iter().map(|&k| key_root(k)));
    Ok(keys)
}

/// `CreateListFromArrayLike(obj, « String, Symbol »)` (§7.3.18) for an
/// `ownKeys` result, keeping each key alive.
fn create_key_list(vm: &mut Vm, list: Value) -> JsResult<Vec<PropertyKey>> {
    let Some(array) = list.as_object() else {
        return Err(vm.type_error("CreateListFromArrayLike called on non-object"));
    };
    let len = im::length_of_array_like(vm, array)? as u64;
    let mut keys = Vec::new();
    for i in 0..len {
        let index = im::index_key(vm, i);
        let element = im::get(vm, array, index, list)?;
        if !element.is_string() && element.as_symbol().is_none() {
            // Only primitives are shown: converting an object could run code.
            let text = if element.is_object() { "object".to_owned() } else { vm.rust_string(element)? };
            return Err(vm.type_error(&format!("{text} is not a valid property name")));
        }
        let key = to_property_key(vm, element)?;
        vm.stack.temp_roots.push(key_root(key));
        keys.push(key);
    }
    Ok(keys)
}

/// `[[Call]]` (§10.5.12).
pub fn proxy_call(vm: &mut Vm, proxy: Gc<JsObject>, this: Value, args: &[Value]) -> JsResult<Value> {
    if !proxy.borrow(&vm.heap).is_callable() {
        return Err(vm.type_error("proxy is not a function"));
    }
    let mut roots = Vec::with_capacity(args.len() + 1);
    roots.push(this);
    roots.extend_from_slice(args);
    operation(vm, proxy, Trap::Apply, &roots, |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::call(vm, Value::object(target), this, args) };
        let arg_array = Value::object(im::array_create(vm, args));
        vm.stack.temp_roots.push(arg_array);
        im::call(vm, trap, Value::object(handler), &[Value::object(target), this, arg_array])
    })
}

/// `[[Construct]]` (§10.5.13).
pub fn proxy_construct(vm: &mut Vm, proxy: Gc<JsObject>, args: &[Value], new_target: Gc<JsObject>) -> JsResult<Value> {
    if !proxy.borrow(&vm.heap).is_constructor(&vm.heap) {
        return Err(vm.type_error("proxy is not a constructor"));
    }
    let mut roots = Vec::with_capacity(args.len() + 1);
    roots.push(Value::object(new_target));
    roots.extend_from_slice(args);
    operation(vm, proxy, Trap::Construct, &roots, |vm, target, handler, trap| {
        let Some(trap) = trap else { return im::construct(vm, target, args, Some(new_target)) };
        let arg_array = Value::object(im::array_create(vm, args));
        vm.stack.temp_roots.push(arg_array);
        let args = [Value::object(target), arg_array, Value::object(new_target)];
        let result = im::call(vm, trap, Value::object(handler), &args)?;
        if !result.is_object() {
            return Err(invariant_error(vm, Trap::Construct, None, "trap returned non-object"));
        }
        Ok(result)
    })
}

#[cfg(test)]
mod tests {
    use crate::vm::Vm;

    fn eval(vm: &mut Vm, source: &str) -> String {
        let value = vm.eval_script("test.js", source).unwrap_or_else(|_| panic!("{source} throws"));
        value.to_rust_string(vm).unwrap_or_default()
    }

    /// Ends the synchronous run (so WeakRefs stop pinning their targets)
    /// and collects.
    fn settle(vm: &mut Vm) {
        assert!(vm.run_microtasks().is_ok());
        vm.collect_garbage();
    }

    #[test]
    fn a_proxy_keeps_its_target_and_handler_until_revoked() {
        let mut vm = Vm::new();
        eval(
            &mut vm,
            "var r = (function () {
                 var target = { v: 1 }, handler = {};
                 globalThis.targetRef = new WeakRef(target);
                 globalThis.handlerRef = new WeakRef(handler);
                 return Proxy.revocable(target, handler);
             })();",
        );
        settle(&mut vm);
        let alive = "[targetRef.deref() !== undefined, handlerRef.deref() !== undefined, r.proxy.v].join()";
        assert_eq!(eval(&mut vm, alive), "true,true,1");
        eval(&mut vm, "r.revoke()");
        settle(&mut vm);
        let dead = "[targetRef.deref() === undefined, handlerRef.deref() === undefined].join()";
        assert_eq!(eval(&mut vm, dead), "true,true");
    }

    #[test]
    fn long_proxy_chains_end_in_a_range_error() {
        let mut vm = Vm::new();
        let source = "var p = {}; for (var i = 0; i < 2000; i++) p = new Proxy(p, {});
                      try { p.x; 'no error' } catch (e) { e.constructor.name }";
        assert_eq!(eval(&mut vm, source), "RangeError");
    }

    #[test]
    fn traps_see_the_spec_arguments() {
        let mut vm = Vm::new();
        let source = "var seen = [];
            var p = new Proxy(function () {}, {
                get(t, k, r) { seen.push('get ' + String(k) + ' ' + (r === p)); return Reflect.get(t, k, r); },
                apply(t, self, args) { seen.push('apply ' + self + ' ' + args.length); return 7; },
                construct(t, args, nt) { seen.push('construct ' + (nt === p)); return {}; },
            });
            p.name; p.call(3, 1, 2); new p(); seen.join('; ')";
        assert_eq!(eval(&mut vm, source), "get name true; get call true; apply 3 2; construct true");
    }
}
