//! `ReadableByteStreamController`: `byobRequest`, `desiredSize`, `close`,
//! `enqueue`, `error`. Not constructible from script.

use js_streams::readable_byte_stream_controller::{
    close_method, desired_size, enqueue_method, get_byob_request, readable_byte_stream_controller_error,
};

use super::array_buffer_view::to_array_buffer_view;
use super::{VmStreamSlots, branded, idl_attribute, idl_method, number_or_null, thrown, to_string_tag};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_controller(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::ReadableByteStreamController(_))
}

fn this_controller(vm: &mut Vm, info: &CallInfo) -> JsResult<js_gc::Gc<crate::object::JsObject>> {
    branded(vm, info.this, is_controller).ok_or_else(|| vm.type_error("Illegal invocation"))
}

/// `get byobRequest`.
fn byob_request_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    Ok(get_byob_request(&mut vm.host(), controller).map_or(Value::NULL, Value::object))
}

/// `get desiredSize`.
fn desired_size_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    Ok(number_or_null(desired_size(&mut vm.host(), controller)))
}

/// `close()`.
fn close(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    close_method(&mut vm.host(), controller).map_err(|e| thrown(vm, e))?;
    Ok(Value::UNDEFINED)
}

/// `enqueue(chunk)`.
fn enqueue(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    let chunk = to_array_buffer_view(vm, info.arg(vm, 0), "chunk")?;
    enqueue_method(&mut vm.host(), controller, chunk).map_err(|e| thrown(vm, e))?;
    vm.take_termination()?;
    Ok(Value::UNDEFINED)
}

/// `error(e)`.
fn error(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    let e = info.arg(vm, 0);
    readable_byte_stream_controller_error(&mut vm.host(), controller, e);
    Ok(Value::UNDEFINED)
}

/// Installs `ReadableByteStreamController`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.readable_byte_stream_controller = Some(proto);
    constructor(vm, "ReadableByteStreamController", 0, crate::host::illegal_constructor, proto);
    idl_attribute(vm, proto, "byobRequest", byob_request_getter);
    idl_attribute(vm, proto, "desiredSize", desired_size_getter);
    idl_method(vm, proto, "close", 0, close);
    idl_method(vm, proto, "enqueue", 1, enqueue);
    idl_method(vm, proto, "error", 0, error);
    to_string_tag(vm, proto, "ReadableByteStreamController");
}
