//! `ReadableStreamDefaultReader`: the constructor, `closed`, `read`,
//! `releaseLock` and `cancel`.

use js_streams::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_release, reader_cancel, reader_closed,
    reader_read,
};

use super::readable_stream::is_readable_stream;
use super::{
    VmStreamSlots, branded, idl_attribute, idl_method, promise_result, rejected_type_error, require_new,
    set_prototype_from, thrown, to_string_tag,
};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_reader(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::ReadableStreamDefaultReader(_))
}

/// `new ReadableStreamDefaultReader(stream)`.
fn reader_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let new_target = require_new(vm, info, "ReadableStreamDefaultReader")?;
    let Some(stream) = branded(vm, info.arg(vm, 0), is_readable_stream) else {
        return Err(vm.type_error("The argument must be a ReadableStream"));
    };
    let reader = acquire_readable_stream_default_reader(&mut vm.host(), stream).map_err(|e| thrown(vm, e))?;
    set_prototype_from(vm, reader, new_target)?;
    Ok(Value::object(reader))
}

/// `get closed`.
fn closed_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return rejected_type_error(vm, "Illegal invocation") };
    let promise = reader_closed(&mut vm.host(), reader);
    promise_result(vm, promise)
}

/// `read()`.
fn read(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return rejected_type_error(vm, "Illegal invocation") };
    let promise = reader_read(&mut vm.host(), reader);
    promise_result(vm, promise)
}

/// `releaseLock()`.
fn release_lock(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return Err(vm.type_error("Illegal invocation")) };
    readable_stream_default_reader_release(&mut vm.host(), reader);
    Ok(Value::UNDEFINED)
}

/// `cancel(reason)`.
fn cancel(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return rejected_type_error(vm, "Illegal invocation") };
    let reason = info.arg(vm, 0);
    let promise = reader_cancel(&mut vm.host(), reader, reason);
    promise_result(vm, promise)
}

/// Installs `ReadableStreamDefaultReader`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.readable_stream_default_reader = Some(proto);
    constructor(vm, "ReadableStreamDefaultReader", 1, reader_ctor, proto);
    idl_attribute(vm, proto, "closed", closed_getter);
    idl_method(vm, proto, "cancel", 0, cancel);
    idl_method(vm, proto, "read", 0, read);
    idl_method(vm, proto, "releaseLock", 0, release_lock);
    to_string_tag(vm, proto, "ReadableStreamDefaultReader");
}
