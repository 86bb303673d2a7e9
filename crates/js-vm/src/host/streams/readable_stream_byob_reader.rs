//! `ReadableStreamBYOBReader`: the constructor, `closed`, `read(view, {
//! min })`, `releaseLock` and `cancel`.

use js_streams::readable_stream_byob_reader::{
    acquire_readable_stream_byob_reader, byob_reader_cancel, byob_reader_closed, byob_reader_read,
    readable_stream_byob_reader_release,
};

use super::array_buffer_view::{to_array_buffer_view, to_enforced_u64};
use super::conversions::{dictionary, member};
use super::readable_stream::is_readable_stream;
use super::{
    VmStreamSlots, branded, idl_attribute, idl_method, promise_result, rejected_type_error, require_new,
    set_prototype_from, thrown, to_string_tag,
};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

fn is_reader(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::ReadableStreamBYOBReader(_))
}

/// `new ReadableStreamBYOBReader(stream)`.
fn reader_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let new_target = require_new(vm, info, "ReadableStreamBYOBReader")?;
    let Some(stream) = branded(vm, info.arg(vm, 0), is_readable_stream) else {
        return Err(vm.type_error("The argument must be a ReadableStream"));
    };
    let reader = acquire_readable_stream_byob_reader(&mut vm.host(), stream).map_err(|e| thrown(vm, e))?;
    set_prototype_from(vm, reader, new_target)?;
    Ok(Value::object(reader))
}

/// `get closed`.
fn closed_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return rejected_type_error(vm, "Illegal invocation") };
    let promise = byob_reader_closed(&mut vm.host(), reader);
    promise_result(vm, promise)
}

/// Converts `read()`'s arguments: the view and
/// `ReadableStreamBYOBReaderReadOptions.min` (`[EnforceRange] unsigned
/// long long`, default 1).
fn read_arguments(vm: &mut Vm, info: &CallInfo) -> JsResult<(Value, u64)> {
    let view = to_array_buffer_view(vm, info.arg(vm, 0), "view")?;
    let options = dictionary(vm, info.arg(vm, 1), "The read options")?;
    let min = member(vm, options, "min")?;
    let min = if min.is_undefined() { 1 } else { to_enforced_u64(vm, min, "options.min")? };
    Ok((view, min))
}

/// `read(view, options)`.
fn read(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return rejected_type_error(vm, "Illegal invocation") };
    let (view, min) = match read_arguments(vm, info) {
        Ok(arguments) => arguments,
        // A promise-returning operation rejects on a conversion error.
        Err(Exception::Throw(error)) => {
            let promise = js_promise::PromiseHost::new_promise(&mut vm.host());
            js_promise::reject_promise(&mut vm.host(), promise, error);
            return Ok(Value::object(promise));
        }
        Err(other) => return Err(other),
    };
    let promise = byob_reader_read(&mut vm.host(), reader, view, min);
    promise_result(vm, promise)
}

/// `releaseLock()`.
fn release_lock(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return Err(vm.type_error("Illegal invocation")) };
    readable_stream_byob_reader_release(&mut vm.host(), reader);
    Ok(Value::UNDEFINED)
}

/// `cancel(reason)`.
fn cancel(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(reader) = branded(vm, info.this, is_reader) else { return rejected_type_error(vm, "Illegal invocation") };
    let reason = info.arg(vm, 0);
    let promise = byob_reader_cancel(&mut vm.host(), reader, reason);
    promise_result(vm, promise)
}

/// Installs `ReadableStreamBYOBReader`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.readable_stream_byob_reader = Some(proto);
    constructor(vm, "ReadableStreamBYOBReader", 1, reader_ctor, proto);
    idl_attribute(vm, proto, "closed", closed_getter);
    idl_method(vm, proto, "cancel", 0, cancel);
    idl_method(vm, proto, "read", 1, read);
    idl_method(vm, proto, "releaseLock", 0, release_lock);
    to_string_tag(vm, proto, "ReadableStreamBYOBReader");
}
