//! `TransformStreamDefaultController`: `desiredSize`, `enqueue`, `error`,
//! `terminate`. Not constructible from script.

use js_streams::transform_stream::{
    transform_controller_desired_size, transform_controller_enqueue, transform_controller_error,
    transform_controller_terminate,
};

use super::{VmStreamSlots, branded, idl_attribute, idl_method, number_or_null, thrown, to_string_tag};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_controller(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::TransformStreamDefaultController(_))
}

fn this_controller(vm: &mut Vm, info: &CallInfo) -> JsResult<js_gc::Gc<crate::object::JsObject>> {
    branded(vm, info.this, is_controller).ok_or_else(|| vm.type_error("Illegal invocation"))
}

/// `get desiredSize`.
fn desired_size_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    Ok(number_or_null(transform_controller_desired_size(&mut vm.host(), controller)))
}

/// `enqueue(chunk)`.
fn enqueue(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    let chunk = info.arg(vm, 0);
    transform_controller_enqueue(&mut vm.host(), controller, chunk).map_err(|e| thrown(vm, e))?;
    vm.take_termination()?;
    Ok(Value::UNDEFINED)
}

/// `error(reason)`.
fn error(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    let reason = info.arg(vm, 0);
    transform_controller_error(&mut vm.host(), controller, reason);
    Ok(Value::UNDEFINED)
}

/// `terminate()`.
fn terminate(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    transform_controller_terminate(&mut vm.host(), controller);
    Ok(Value::UNDEFINED)
}

/// Installs `TransformStreamDefaultController`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.transform_stream_default_controller = Some(proto);
    constructor(vm, "TransformStreamDefaultController", 0, crate::host::illegal_constructor, proto);
    idl_attribute(vm, proto, "desiredSize", desired_size_getter);
    idl_method(vm, proto, "enqueue", 0, enqueue);
    idl_method(vm, proto, "error", 0, error);
    idl_method(vm, proto, "terminate", 0, terminate);
    to_string_tag(vm, proto, "TransformStreamDefaultController");
}
