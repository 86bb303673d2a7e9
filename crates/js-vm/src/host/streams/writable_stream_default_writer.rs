//! `WritableStreamDefaultWriter`: the constructor, `closed`,
//! `desiredSize`, `ready`, `abort`, `close`, `releaseLock` and `write`.

use js_streams::writable_stream_default_writer::{
    acquire_writable_stream_default_writer, writable_stream_default_writer_release, writer_abort, writer_close,
    writer_closed, writer_desired_size, writer_ready, writer_write,
};

use super::writable_stream::is_writable_stream;
use super::{
    VmStreamSlots, branded, idl_attribute, idl_method, number_or_null, promise_result, rejected_type_error,
    require_new, set_prototype_from, thrown, to_string_tag,
};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_writer(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::WritableStreamDefaultWriter(_))
}

/// `new WritableStreamDefaultWriter(stream)`.
fn writer_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let new_target = require_new(vm, info, "WritableStreamDefaultWriter")?;
    let Some(stream) = branded(vm, info.arg(vm, 0), is_writable_stream) else {
        return Err(vm.type_error("The argument must be a WritableStream"));
    };
    let writer = acquire_writable_stream_default_writer(&mut vm.host(), stream).map_err(|e| thrown(vm, e))?;
    set_prototype_from(vm, writer, new_target)?;
    Ok(Value::object(writer))
}

/// `get closed`.
fn closed_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(writer) = branded(vm, info.this, is_writer) else { return rejected_type_error(vm, "Illegal invocation") };
    let promise = writer_closed(&mut vm.host(), writer);
    promise_result(vm, promise)
}

/// `get ready`.
fn ready_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(writer) = branded(vm, info.this, is_writer) else { return rejected_type_error(vm, "Illegal invocation") };
    let promise = writer_ready(&mut vm.host(), writer);
    promise_result(vm, promise)
}

/// `get desiredSize`.
fn desired_size_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(writer) = branded(vm, info.this, is_writer) else { return Err(vm.type_error("Illegal invocation")) };
    let size = writer_desired_size(&mut vm.host(), writer).map_err(|e| thrown(vm, e))?;
    Ok(number_or_null(size))
}

/// `abort(reason)`.
fn abort(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(writer) = branded(vm, info.this, is_writer) else { return rejected_type_error(vm, "Illegal invocation") };
    let reason = info.arg(vm, 0);
    let promise = writer_abort(&mut vm.host(), writer, reason);
    promise_result(vm, promise)
}

/// `close()`.
fn close(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(writer) = branded(vm, info.this, is_writer) else { return rejected_type_error(vm, "Illegal invocation") };
    let promise = writer_close(&mut vm.host(), writer);
    promise_result(vm, promise)
}

/// `releaseLock()`.
fn release_lock(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(writer) = branded(vm, info.this, is_writer) else { return Err(vm.type_error("Illegal invocation")) };
    writable_stream_default_writer_release(&mut vm.host(), writer);
    Ok(Value::UNDEFINED)
}

/// `write(chunk)`.
fn write(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(writer) = branded(vm, info.this, is_writer) else { return rejected_type_error(vm, "Illegal invocation") };
    let chunk = info.arg(vm, 0);
    let promise = writer_write(&mut vm.host(), writer, chunk);
    promise_result(vm, promise)
}

/// Installs `WritableStreamDefaultWriter`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.writable_stream_default_writer = Some(proto);
    constructor(vm, "WritableStreamDefaultWriter", 1, writer_ctor, proto);
    idl_attribute(vm, proto, "closed", closed_getter);
    idl_attribute(vm, proto, "desiredSize", desired_size_getter);
    idl_attribute(vm, proto, "ready", ready_getter);
    idl_method(vm, proto, "abort", 0, abort);
    idl_method(vm, proto, "close", 0, close);
    idl_method(vm, proto, "releaseLock", 0, release_lock);
    idl_method(vm, proto, "write", 0, write);
    to_string_tag(vm, proto, "WritableStreamDefaultWriter");
}
