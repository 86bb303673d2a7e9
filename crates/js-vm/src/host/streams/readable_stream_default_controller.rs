//! `ReadableStreamDefaultController`: `desiredSize`, `close`, `enqueue`,
//! `error`. Not constructible from script.

use js_streams::readable_stream_default_controller::{
    can_close_or_enqueue, desired_size, readable_stream_default_controller_close,
    readable_stream_default_controller_enqueue, readable_stream_default_controller_error,
};

use super::{VmStreamSlots, branded, idl_attribute, idl_method, number_or_null, thrown, to_string_tag};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_controller(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::ReadableStreamDefaultController(_))
}

fn this_controller(vm: &mut Vm, info: &CallInfo) -> JsResult<js_gc::Gc<crate::object::JsObject>> {
    branded(vm, info.this, is_controller).ok_or_else(|| vm.type_error("Illegal invocation"))
}

/// `get desiredSize`.
fn desired_size_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    Ok(number_or_null(desired_size(&mut vm.host(), controller)))
}

/// `close()`.
fn close(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    if !can_close_or_enqueue(&mut vm.host(), controller) {
        return Err(vm.type_error("The stream is not in a state that permits close"));
    }
    readable_stream_default_controller_close(&mut vm.host(), controller);
    Ok(Value::UNDEFINED)
}

/// `enqueue(chunk)`.
fn enqueue(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    if !can_close_or_enqueue(&mut vm.host(), controller) {
        return Err(vm.type_error("The stream is not in a state that permits enqueue"));
    }
    let chunk = info.arg(vm, 0);
    readable_stream_default_controller_enqueue(&mut vm.host(), controller, chunk).map_err(|e| thrown(vm, e))?;
    vm.take_termination()?;
    Ok(Value::UNDEFINED)
}

/// `error(e)`.
fn error(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let controller = this_controller(vm, info)?;
    let e = info.arg(vm, 0);
    readable_stream_default_controller_error(&mut vm.host(), controller, e);
    Ok(Value::UNDEFINED)
}

/// Installs `ReadableStreamDefaultController`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.readable_stream_default_controller = Some(proto);
    constructor(vm, "ReadableStreamDefaultController", 0, crate::host::illegal_constructor, proto);
    idl_attribute(vm, proto, "desiredSize", desired_size_getter);
    idl_method(vm, proto, "close", 0, close);
    idl_method(vm, proto, "enqueue", 0, enqueue);
    idl_method(vm, proto, "error", 0, error);
    to_string_tag(vm, proto, "ReadableStreamDefaultController");
}
