//! `ReadableStream`: the constructor (underlying source and strategy
//! conversion), `locked`, `cancel`, `getReader`, `pipeTo`, `pipeThrough`,
//! `values` and `@@asyncIterator`.

use js_streams::pipe_to::{PipeOptions, readable_stream_pipe_to};
use js_streams::readable_byte_stream_controller::set_up_readable_byte_stream_controller;
use js_streams::readable_stream::{is_readable_stream_locked, new_readable_stream, readable_stream_cancel};
use js_streams::readable_stream_default_controller::{StartAlgorithm, set_up_readable_stream_default_controller};
use js_streams::slots::SourceAlgorithms;
use js_streams::writable_stream::is_writable_stream_locked;

use super::array_buffer_view::to_enforced_u64;
use super::conversions::{callback_member, dictionary, extract_high_water_mark, member, strategy};
use super::{
    VmStreamSlots, branded, idl_attribute, idl_method, promise_result, rejected_type_error, require_new,
    set_prototype_from, thrown, to_string_tag,
};
use crate::abstract_ops::to_boolean;
use crate::builtins::constructor;
use crate::host::abort_signal;
use crate::interpreter::CallInfo;
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Whether the slots are a `ReadableStream`'s.
pub(super) fn is_readable_stream(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::ReadableStream(_))
}

/// Whether the slots are a `WritableStream`'s.
fn is_writable_stream(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::WritableStream(_))
}

/// `new ReadableStream(underlyingSource, strategy)`.
fn readable_stream_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let new_target = require_new(vm, info, "ReadableStream")?;
    let source = info.arg(vm, 0);
    if source.is_null() {
        return Err(vm.type_error("The underlying source must be an object"));
    }
    let source = if source.is_undefined() { Value::NULL } else { source };
    let strategy = strategy(vm, info.arg(vm, 1))?;
    if !source.is_null() && !source.is_object() {
        return Err(vm.type_error("The underlying source must be an object"));
    }
    let dict = dictionary(vm, source, "The underlying source")?;
    let auto_allocate = member(vm, dict, "autoAllocateChunkSize")?;
    let auto_allocate = if auto_allocate.is_undefined() {
        None
    } else {
        Some(to_enforced_u64(vm, auto_allocate, "autoAllocateChunkSize")?)
    };
    let cancel = callback_member(vm, dict, "cancel", "underlyingSource")?;
    let pull = callback_member(vm, dict, "pull", "underlyingSource")?;
    let start = callback_member(vm, dict, "start", "underlyingSource")?;
    let source_type = member(vm, dict, "type")?;
    let bytes = if source_type.is_undefined() {
        false
    } else {
        let text = vm.rust_string(source_type)?;
        if text != "bytes" {
            return Err(vm.type_error(&format!(
                "The provided value '{text}' is not a valid enum value of type ReadableStreamType."
            )));
        }
        true
    };
    let stream = new_readable_stream(&mut vm.host());
    set_prototype_from(vm, stream, new_target)?;
    let start = StartAlgorithm::User { this_value: source, start };
    let algorithms = SourceAlgorithms::User { source, pull, cancel };
    if bytes {
        if !strategy.size.is_undefined() {
            return Err(vm.range_error("The strategy of a readable byte stream cannot have a size function"));
        }
        let high_water_mark = extract_high_water_mark(vm, strategy, 0.0)?;
        // SetUpReadableByteStreamControllerFromUnderlyingSource.
        if auto_allocate == Some(0) {
            return Err(vm.type_error("autoAllocateChunkSize must be greater than 0"));
        }
        let Ok(auto_allocate) = auto_allocate.map(usize::try_from).transpose() else {
            return Err(vm.range_error("autoAllocateChunkSize is too large"));
        };
        set_up_readable_byte_stream_controller(
            &mut vm.host(),
            stream,
            start,
            algorithms,
            high_water_mark,
            auto_allocate,
        )
        .map_err(|e| thrown(vm, e))?;
    } else {
        let high_water_mark = extract_high_water_mark(vm, strategy, 1.0)?;
        set_up_readable_stream_default_controller(
            &mut vm.host(),
            stream,
            start,
            algorithms,
            high_water_mark,
            strategy.size,
        )
        .map_err(|e| thrown(vm, e))?;
    }
    vm.take_termination()?;
    Ok(Value::object(stream))
}

/// `get ReadableStream.prototype.locked`.
fn locked_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_readable_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    Ok(Value::boolean(is_readable_stream_locked(&mut vm.host(), stream)))
}

/// `ReadableStream.prototype.cancel(reason)`.
fn cancel(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_readable_stream) else {
        return rejected_type_error(vm, "Illegal invocation");
    };
    if is_readable_stream_locked(&mut vm.host(), stream) {
        return rejected_type_error(vm, "Cannot cancel a locked ReadableStream");
    }
    let reason = info.arg(vm, 0);
    let promise = readable_stream_cancel(&mut vm.host(), stream, reason);
    promise_result(vm, promise)
}

/// `ReadableStream.prototype.getReader(options)`.
fn get_reader(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_readable_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    let options = dictionary(vm, info.arg(vm, 0), "The reader options")?;
    let mode = member(vm, options, "mode")?;
    if !mode.is_undefined() {
        let text = vm.rust_string(mode)?;
        if text != "byob" {
            return Err(vm.type_error(&format!(
                "The provided value '{text}' is not a valid enum value of type ReadableStreamReaderMode."
            )));
        }
        let reader =
            js_streams::readable_stream_byob_reader::acquire_readable_stream_byob_reader(&mut vm.host(), stream)
                .map_err(|e| thrown(vm, e))?;
        return Ok(Value::object(reader));
    }
    let reader =
        js_streams::readable_stream_default_reader::acquire_readable_stream_default_reader(&mut vm.host(), stream)
            .map_err(|e| thrown(vm, e))?;
    Ok(Value::object(reader))
}

/// Converts `StreamPipeOptions` (members in order, each converted as it
/// is read: preventAbort, preventCancel, preventClose, signal, which must
/// be an AbortSignal if present).
fn pipe_options(vm: &mut Vm, value: Value) -> JsResult<(PipeOptions, Option<Value>)> {
    let dict = dictionary(vm, value, "The pipe options")?;
    let prevent_abort = member(vm, dict, "preventAbort")?;
    let prevent_cancel = member(vm, dict, "preventCancel")?;
    let prevent_close = member(vm, dict, "preventClose")?;
    let signal = member(vm, dict, "signal")?;
    let signal = if signal.is_undefined() {
        None
    } else if abort_signal::is_abort_signal(vm, signal) {
        Some(signal)
    } else {
        return Err(vm.type_error("The \"options.signal\" property must be an instance of AbortSignal"));
    };
    let options = PipeOptions {
        prevent_abort: to_boolean(vm, prevent_abort),
        prevent_cancel: to_boolean(vm, prevent_cancel),
        prevent_close: to_boolean(vm, prevent_close),
    };
    Ok((options, signal))
}

/// `ReadableStream.prototype.pipeTo(destination, options)`.
fn pipe_to(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(source) = branded(vm, info.this, is_readable_stream) else {
        return rejected_type_error(vm, "Illegal invocation");
    };
    let Some(dest) = branded(vm, info.arg(vm, 0), is_writable_stream) else {
        return rejected_type_error(vm, "The destination must be a WritableStream");
    };
    let (options, signal) = match pipe_options(vm, info.arg(vm, 1)) {
        Ok(converted) => converted,
        Err(crate::vm::Exception::Throw(error)) => {
            let promise = js_promise::PromiseHost::new_promise(&mut vm.host());
            js_promise::reject_promise(&mut vm.host(), promise, error);
            return Ok(Value::object(promise));
        }
        Err(other) => return Err(other),
    };
    if is_readable_stream_locked(&mut vm.host(), source) {
        return rejected_type_error(vm, "Cannot pipe a locked ReadableStream");
    }
    if is_writable_stream_locked(&mut vm.host(), dest) {
        return rejected_type_error(vm, "Cannot pipe to a locked WritableStream");
    }
    let promise = readable_stream_pipe_to(&mut vm.host(), source, dest, options, signal).map_err(|e| thrown(vm, e))?;
    promise_result(vm, promise)
}

/// `ReadableStream.prototype.pipeThrough(transform, options)`.
fn pipe_through(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(source) = branded(vm, info.this, is_readable_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    let pair = dictionary(vm, info.arg(vm, 0), "The transform stream")?;
    let Some(pair) = pair else { return Err(vm.type_error("The transform stream must be an object")) };
    let readable = member(vm, Some(pair), "readable")?;
    let Some(readable) = branded(vm, readable, is_readable_stream) else {
        return Err(vm.type_error("transform.readable must be a ReadableStream"));
    };
    let writable = member(vm, Some(pair), "writable")?;
    let Some(writable) = branded(vm, writable, is_writable_stream) else {
        return Err(vm.type_error("transform.writable must be a WritableStream"));
    };
    let (options, signal) = pipe_options(vm, info.arg(vm, 1))?;
    if is_readable_stream_locked(&mut vm.host(), source) {
        return Err(vm.type_error("Cannot pipe a locked ReadableStream"));
    }
    if is_writable_stream_locked(&mut vm.host(), writable) {
        return Err(vm.type_error("Cannot pipe to a locked WritableStream"));
    }
    let promise =
        readable_stream_pipe_to(&mut vm.host(), source, writable, options, signal).map_err(|e| thrown(vm, e))?;
    // The pipe can finish (and reject) before this returns.
    js_streams::mark_handled(&mut vm.host(), promise);
    vm.take_termination()?;
    Ok(Value::object(readable))
}

/// `ReadableStream.prototype.values(options)` and `@@asyncIterator`.
fn values(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_readable_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    let options = dictionary(vm, info.arg(vm, 0), "The iterator options")?;
    let prevent_cancel = member(vm, options, "preventCancel")?;
    let prevent_cancel = to_boolean(vm, prevent_cancel);
    let iterator =
        js_streams::readable_stream_async_iterator::readable_stream_values(&mut vm.host(), stream, prevent_cancel)
            .map_err(|e| thrown(vm, e))?;
    Ok(Value::object(iterator))
}

/// `ReadableStream.prototype.tee()`.
fn tee(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_readable_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    let [first, second] =
        js_streams::readable_stream_tee::readable_stream_tee(&mut vm.host(), stream).map_err(|e| thrown(vm, e))?;
    Ok(Value::object(crate::builtins::array::array_create(vm, &[Value::object(first), Value::object(second)])))
}

/// `ReadableStream.from(asyncIterable)`.
fn from(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let iterable = info.arg(vm, 0);
    let record = crate::builtins::async_iteration::get_async_iterator(vm, iterable)?;
    let (iterator, next) = {
        let record = record.borrow(&vm.heap);
        (record.iterator, record.next)
    };
    vm.keep_alive(iterator);
    vm.keep_alive(next);
    let stream = js_streams::readable_stream_from::readable_stream_from_iterable(&mut vm.host(), iterator, next)
        .map_err(|e| thrown(vm, e))?;
    Ok(Value::object(stream))
}

/// Installs `ReadableStream`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.readable_stream = Some(proto);
    let ctor = constructor(vm, "ReadableStream", 0, readable_stream_ctor, proto);
    idl_method(vm, ctor, "from", 1, from);
    idl_attribute(vm, proto, "locked", locked_getter);
    idl_method(vm, proto, "cancel", 0, cancel);
    idl_method(vm, proto, "getReader", 0, get_reader);
    idl_method(vm, proto, "pipeThrough", 1, pipe_through);
    idl_method(vm, proto, "pipeTo", 1, pipe_to);
    idl_method(vm, proto, "tee", 0, tee);
    let values_fn = idl_method(vm, proto, "values", 0, values);
    let key = PropertyKey::Symbol(vm.symbols.async_iterator);
    define_builtin(vm, proto, key, Value::object(values_fn), Attributes::METHOD);
    to_string_tag(vm, proto, "ReadableStream");
}
