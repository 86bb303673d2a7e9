//! Boolean and Boolean.prototype (§20.3).

use super::{constructor, method};
use crate::abstract_ops::to_boolean;
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::ObjectKind;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn boolean_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let b = to_boolean(vm, v);
    let Some(nt) = info.new_target else { return Ok(Value::boolean(b)) };
    let proto = prototype_from_constructor(vm, nt, |i| i.boolean_prototype)?;
    Ok(Value::object(vm.new_object_of_kind(Some(proto), ObjectKind::Boolean(b))))
}

fn this_boolean(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<bool> {
    if let Some(b) = info.this.as_boolean() {
        return Ok(b);
    }
    if let Some(o) = info.this.as_object()
        && let ObjectKind::Boolean(b) = o.borrow(&vm.heap).kind
    {
        return Ok(b);
    }
    Err(vm.type_error(&format!("Boolean.prototype.{name} requires that 'this' be a Boolean")))
}

fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let b = this_boolean(vm, info, "toString")?;
    Ok(vm.string(if b { "true" } else { "false" }))
}

fn value_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::boolean(this_boolean(vm, info, "valueOf")?))
}

/// Installs Boolean and Boolean.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.boolean_prototype;
    constructor(vm, "Boolean", 1, boolean_ctor, proto);
    method(vm, proto, "toString", 0, to_string_method);
    method(vm, proto, "valueOf", 0, value_of);
}
