//! The Reflect object (§28.1).

use super::{method, value_property};
use crate::abstract_ops::to_property_key;
use crate::interpreter::{CallInfo, is_constructor};
use crate::object::internal_methods::{
    self as im, call, construct, define_own_property, delete, get, get_own_property, has_property, own_property_keys,
    prevent_extensions, set, set_prototype_of,
};
use crate::object::{Attributes, JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn target(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<js_gc::Gc<JsObject>> {
    match info.arg(vm, 0).as_object() {
        Some(o) => Ok(o),
        None => Err(vm.type_error(&format!("Reflect.{name} called on non-object"))),
    }
}

fn key_arg(vm: &mut Vm, info: &CallInfo) -> JsResult<PropertyKey> {
    let k = info.arg(vm, 1);
    to_property_key(vm, k)
}

fn apply(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let f = info.arg(vm, 0);
    if !crate::abstract_ops::is_callable(vm, f) {
        return Err(vm.type_error("Reflect.apply target is not callable"));
    }
    let this = info.arg(vm, 1);
    let list = info.arg(vm, 2);
    if !list.is_object() {
        return Err(vm.type_error("CreateListFromArrayLike called on non-object"));
    }
    let args = super::function::list_from_array_like(vm, list)?;
    call(vm, f, this, &args)
}

fn construct_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(f) = info.arg(vm, 0).as_object().filter(|o| is_constructor(vm, *o)) else {
        return Err(vm.type_error("Reflect.construct target is not a constructor"));
    };
    let nt = if info.argc > 2 { info.arg(vm, 2) } else { Value::object(f) };
    let Some(nt) = nt.as_object().filter(|o| is_constructor(vm, *o)) else {
        return Err(vm.type_error("Reflect.construct newTarget is not a constructor"));
    };
    let list = info.arg(vm, 1);
    if !list.is_object() {
        return Err(vm.type_error("CreateListFromArrayLike called on non-object"));
    }
    let args = super::function::list_from_array_like(vm, list)?;
    construct(vm, f, &args, Some(nt))
}

fn define_property(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "defineProperty")?;
    let key = key_arg(vm, info)?;
    // The descriptor's getters run while only this frame holds the key.
    vm.keep_key_alive(key);
    let attributes = info.arg(vm, 2);
    let desc = super::object::to_property_descriptor(vm, attributes)?;
    Ok(Value::boolean(define_own_property(vm, o, key, desc)?))
}

fn delete_property(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "deleteProperty")?;
    let key = key_arg(vm, info)?;
    Ok(Value::boolean(delete(vm, o, key)?))
}

fn get_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "get")?;
    let key = key_arg(vm, info)?;
    let receiver = if info.argc > 2 { info.arg(vm, 2) } else { Value::object(o) };
    get(vm, o, key, receiver)
}

fn get_own_property_descriptor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "getOwnPropertyDescriptor")?;
    let key = key_arg(vm, info)?;
    let desc = get_own_property(vm, o, key)?;
    super::object::from_property_descriptor(vm, desc)
}

fn get_prototype_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "getPrototypeOf")?;
    Ok(im::get_prototype_of(vm, o)?.map_or(Value::NULL, Value::object))
}

fn has(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "has")?;
    let key = key_arg(vm, info)?;
    Ok(Value::boolean(has_property(vm, o, key)?))
}

fn is_extensible(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "isExtensible")?;
    Ok(Value::boolean(im::is_extensible(vm, o)?))
}

fn own_keys(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "ownKeys")?;
    let keys = own_property_keys(vm, o)?;
    let values: Vec<Value> = keys.into_iter().map(|k| super::object::key_to_value(vm, k)).collect();
    Ok(Value::object(super::array::array_create(vm, &values)))
}

fn prevent_extensions_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "preventExtensions")?;
    Ok(Value::boolean(prevent_extensions(vm, o)?))
}

fn set_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "set")?;
    let key = key_arg(vm, info)?;
    let v = info.arg(vm, 2);
    let receiver = if info.argc > 3 { info.arg(vm, 3) } else { Value::object(o) };
    Ok(Value::boolean(set(vm, o, key, v, receiver)?))
}

fn set_prototype_of_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = target(vm, info, "setPrototypeOf")?;
    let proto = info.arg(vm, 1);
    let proto = if proto.is_null() {
        None
    } else {
        match proto.as_object() {
            Some(p) => Some(p),
            None => return Err(vm.type_error("Object prototype may only be an Object or null")),
        }
    };
    Ok(Value::boolean(set_prototype_of(vm, o, proto)?))
}

/// Installs Reflect.
pub(crate) fn install(vm: &mut Vm) {
    let reflect = vm.new_plain_object();
    let global = vm.realm.global;
    value_property(vm, global, "Reflect", Value::object(reflect), Attributes::METHOD);
    let functions: [(&str, u32, crate::function::NativeFn); 13] = [
        ("apply", 3, apply),
        ("construct", 2, construct_fn),
        ("defineProperty", 3, define_property),
        ("deleteProperty", 2, delete_property),
        ("get", 2, get_fn),
        ("getOwnPropertyDescriptor", 2, get_own_property_descriptor),
        ("getPrototypeOf", 1, get_prototype_of),
        ("has", 2, has),
        ("isExtensible", 1, is_extensible),
        ("ownKeys", 1, own_keys),
        ("preventExtensions", 1, prevent_extensions_fn),
        ("set", 3, set_fn),
        ("setPrototypeOf", 2, set_prototype_of_fn),
    ];
    for (name, length, f) in functions {
        method(vm, reflect, name, length, f);
    }
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("Reflect");
    crate::object::internal_methods::define_builtin(vm, reflect, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}
