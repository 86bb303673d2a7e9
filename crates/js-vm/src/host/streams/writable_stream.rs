//! `WritableStream`: the constructor (underlying sink and strategy
//! conversion), `locked`, `abort`, `close` and `getWriter`.

use js_streams::readable_stream_default_controller::StartAlgorithm;
use js_streams::slots::SinkAlgorithms;
use js_streams::writable_stream::{
    close_queued_or_in_flight, is_writable_stream_locked, new_writable_stream, writable_stream_abort,
    writable_stream_close,
};
use js_streams::writable_stream_default_controller::set_up_writable_stream_default_controller;
use js_streams::writable_stream_default_writer::acquire_writable_stream_default_writer;

use super::conversions::{callback_member, dictionary, extract_high_water_mark, member, strategy};
use super::{
    VmStreamSlots, branded, idl_attribute, idl_method, promise_result, rejected_type_error, require_new,
    set_prototype_from, thrown, to_string_tag,
};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Whether the slots are a `WritableStream`'s.
pub(super) fn is_writable_stream(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::WritableStream(_))
}

/// `new WritableStream(underlyingSink, strategy)`.
fn writable_stream_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let new_target = require_new(vm, info, "WritableStream")?;
    let sink = info.arg(vm, 0);
    if sink.is_null() {
        return Err(vm.type_error("The underlying sink must be an object"));
    }
    let sink = if sink.is_undefined() { Value::NULL } else { sink };
    let strategy = strategy(vm, info.arg(vm, 1))?;
    if !sink.is_null() && !sink.is_object() {
        return Err(vm.type_error("The underlying sink must be an object"));
    }
    let dict = dictionary(vm, sink, "The underlying sink")?;
    let abort = callback_member(vm, dict, "abort", "underlyingSink")?;
    let close = callback_member(vm, dict, "close", "underlyingSink")?;
    let start = callback_member(vm, dict, "start", "underlyingSink")?;
    let sink_type = member(vm, dict, "type")?;
    let write = callback_member(vm, dict, "write", "underlyingSink")?;
    if !sink_type.is_undefined() {
        return Err(vm.range_error("Invalid type is specified"));
    }
    let stream = new_writable_stream(&mut vm.host());
    set_prototype_from(vm, stream, new_target)?;
    let high_water_mark = extract_high_water_mark(vm, strategy, 1.0)?;
    set_up_writable_stream_default_controller(
        &mut vm.host(),
        stream,
        StartAlgorithm::User { this_value: sink, start },
        SinkAlgorithms::User { sink, write, close, abort },
        high_water_mark,
        strategy.size,
    )
    .map_err(|e| thrown(vm, e))?;
    vm.take_termination()?;
    Ok(Value::object(stream))
}

/// `get locked`.
fn locked_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_writable_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    Ok(Value::boolean(is_writable_stream_locked(&mut vm.host(), stream)))
}

/// `abort(reason)`.
fn abort(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_writable_stream) else {
        return rejected_type_error(vm, "Illegal invocation");
    };
    if is_writable_stream_locked(&mut vm.host(), stream) {
        return rejected_type_error(vm, "Cannot abort a locked WritableStream");
    }
    let reason = info.arg(vm, 0);
    let promise = writable_stream_abort(&mut vm.host(), stream, reason);
    promise_result(vm, promise)
}

/// `close()`.
fn close(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_writable_stream) else {
        return rejected_type_error(vm, "Illegal invocation");
    };
    if is_writable_stream_locked(&mut vm.host(), stream) {
        return rejected_type_error(vm, "Cannot close a locked WritableStream");
    }
    if close_queued_or_in_flight(&mut vm.host(), stream) {
        return rejected_type_error(vm, "Cannot close a WritableStream that is closing");
    }
    let promise = writable_stream_close(&mut vm.host(), stream);
    promise_result(vm, promise)
}

/// `getWriter()`.
fn get_writer(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_writable_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    let writer = acquire_writable_stream_default_writer(&mut vm.host(), stream).map_err(|e| thrown(vm, e))?;
    Ok(Value::object(writer))
}

/// Installs `WritableStream`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.writable_stream = Some(proto);
    constructor(vm, "WritableStream", 0, writable_stream_ctor, proto);
    idl_attribute(vm, proto, "locked", locked_getter);
    idl_method(vm, proto, "abort", 0, abort);
    idl_method(vm, proto, "close", 0, close);
    idl_method(vm, proto, "getWriter", 0, get_writer);
    to_string_tag(vm, proto, "WritableStream");
}
