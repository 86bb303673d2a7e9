//! `ReadableStreamBYOBRequest`: `view`, `respond`, `respondWithNewView`.
//! Not constructible from script.

use js_streams::readable_stream_byob_request::{
    byob_request_respond, byob_request_respond_with_new_view, byob_request_view,
};

use super::array_buffer_view::{to_array_buffer_view, to_enforced_u64};
use super::{VmStreamSlots, branded, idl_attribute, idl_method, thrown, to_string_tag};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_request(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::ReadableStreamBYOBRequest(_))
}

fn this_request(vm: &mut Vm, info: &CallInfo) -> JsResult<js_gc::Gc<crate::object::JsObject>> {
    branded(vm, info.this, is_request).ok_or_else(|| vm.type_error("Illegal invocation"))
}

/// `get view`.
fn view_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let request = this_request(vm, info)?;
    Ok(byob_request_view(&mut vm.host(), request).unwrap_or(Value::NULL))
}

/// `respond(bytesWritten)`.
fn respond(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let request = this_request(vm, info)?;
    let bytes_written = to_enforced_u64(vm, info.arg(vm, 0), "bytesWritten")?;
    byob_request_respond(&mut vm.host(), request, bytes_written).map_err(|e| thrown(vm, e))?;
    vm.take_termination()?;
    Ok(Value::UNDEFINED)
}

/// `respondWithNewView(view)`.
fn respond_with_new_view(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let request = this_request(vm, info)?;
    let view = to_array_buffer_view(vm, info.arg(vm, 0), "view")?;
    byob_request_respond_with_new_view(&mut vm.host(), request, view).map_err(|e| thrown(vm, e))?;
    vm.take_termination()?;
    Ok(Value::UNDEFINED)
}

/// Installs `ReadableStreamBYOBRequest`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.readable_stream_byob_request = Some(proto);
    constructor(vm, "ReadableStreamBYOBRequest", 0, crate::host::illegal_constructor, proto);
    idl_attribute(vm, proto, "view", view_getter);
    idl_method(vm, proto, "respond", 1, respond);
    idl_method(vm, proto, "respondWithNewView", 1, respond_with_new_view);
    to_string_tag(vm, proto, "ReadableStreamBYOBRequest");
}
