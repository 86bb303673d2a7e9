//! TransformStream and TransformStreamDefaultController abstract operations
//! (Streams §6.4): the two sides' algorithms, backpressure, and the
//! controller's enqueue, error and terminate.
//!
//! A write runs `transform` and is continued by [`TRANSFORM_SETTLED`]
//! carrying the controller, which then hands the outcome to the writable
//! side one turn later, as the spec's derived promise would.

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{
    BACKPRESSURE_SETTLED, FLUSH_SETTLED, TRANSFORM_CANCEL_SETTLED, TRANSFORM_SETTLED,
    TRANSFORM_SETTLED_AFTER_BACKPRESSURE, WRITE_SETTLED,
};
use crate::promises::{new_promise, queue_continuation, reject, resolve, upon_promise, upon_result};
use crate::readable_stream::{new_readable_stream, readable_stream_state, readable_stream_stored_error};
use crate::readable_stream_default_controller::{
    StartAlgorithm, can_close_or_enqueue, has_backpressure, readable_stream_default_controller_close,
    readable_stream_default_controller_enqueue, readable_stream_default_controller_error,
    set_up_readable_stream_default_controller,
};
use crate::slots::{
    ReadableState, SinkAlgorithms, SourceAlgorithms, StreamSlots, TransformControllerSlots, TransformStreamSlots,
    WritableState, readable_stream, transform_controller, transform_stream, writable_stream,
};
use crate::writable_stream::new_writable_stream;
use crate::writable_stream_default_controller::{error_if_needed, set_up_writable_stream_default_controller};

/// A transformer's methods and the strategies' figures, converted.
#[derive(Debug, Clone, Copy)]
pub struct TransformerInit<V> {
    /// The transformer object (`this` of its methods).
    pub transformer: V,
    /// `start`, or `undefined`.
    pub start: V,
    /// `transform`, or `undefined`.
    pub transform: V,
    /// `flush`, or `undefined`.
    pub flush: V,
    /// `cancel`, or `undefined`.
    pub cancel: V,
    /// The writable side's high-water mark.
    pub writable_high_water_mark: f64,
    /// The writable side's size function, or `undefined`.
    pub writable_size: V,
    /// The readable side's high-water mark.
    pub readable_high_water_mark: f64,
    /// The readable side's size function, or `undefined`.
    pub readable_size: V,
}

/// `new TransformStream(...)` after argument conversion:
/// `InitializeTransformStream`, the controller set-up and `start`.
///
/// # Errors
/// What `start` threw.
pub fn create_transform_stream<H: StreamHost>(
    host: &mut H,
    init: TransformerInit<H::Value>,
) -> Result<H::Object, H::Value> {
    let start_promise = new_promise(host);
    let start_value = host.promise_value(start_promise);
    host.root(start_value);
    let writable = new_writable_stream(host);
    let readable = new_readable_stream(host);
    let stream = host.new_stream_object(StreamSlots::TransformStream(TransformStreamSlots {
        backpressure: false,
        backpressure_change_promise: None,
        readable,
        writable,
        controller: None,
        waiting_chunk: H::Value::undefined(),
    }));
    set_up_writable_stream_default_controller(
        host,
        writable,
        StartAlgorithm::Promise(start_promise),
        SinkAlgorithms::Transform(stream),
        init.writable_high_water_mark,
        init.writable_size,
    )?;
    set_up_readable_stream_default_controller(
        host,
        readable,
        StartAlgorithm::Promise(start_promise),
        SourceAlgorithms::Transform(stream),
        init.readable_high_water_mark,
        init.readable_size,
    )?;
    set_backpressure(host, stream, true);
    let controller = host.new_stream_object(StreamSlots::TransformStreamDefaultController(TransformControllerSlots {
        stream,
        transformer: init.transformer,
        transform: init.transform,
        flush: init.flush,
        cancel: init.cancel,
        cleared: false,
        finish_promise: None,
        finish_reason: H::Value::undefined(),
        cancel_from_abort: false,
    }));
    transform_stream(host, stream).controller = Some(controller);
    let start_result = if init.start == H::Value::undefined() {
        H::Value::undefined()
    } else {
        let argument = host.stream_object_value(controller);
        host.call(init.start, init.transformer, &[argument])?
    };
    resolve(host, start_promise, start_result);
    Ok(stream)
}

/// `[[readable]]`.
pub fn transform_stream_readable<H: StreamHost>(host: &mut H, stream: H::Object) -> H::Object {
    transform_stream(host, stream).readable
}

/// `[[writable]]`.
pub fn transform_stream_writable<H: StreamHost>(host: &mut H, stream: H::Object) -> H::Object {
    transform_stream(host, stream).writable
}

fn readable_controller_of<H: StreamHost>(host: &mut H, stream: H::Object) -> Option<H::Object> {
    let readable = transform_stream(host, stream).readable;
    readable_stream(host, readable).controller
}

fn writable_controller_of<H: StreamHost>(host: &mut H, stream: H::Object) -> Option<H::Object> {
    let writable = transform_stream(host, stream).writable;
    writable_stream(host, writable).controller
}

fn controller_of<H: StreamHost>(host: &mut H, stream: H::Object) -> H::Object {
    transform_stream(host, stream).controller.expect("a transform stream's controller is set up with it")
}

/// `TransformStreamSetBackpressure`.
fn set_backpressure<H: StreamHost>(host: &mut H, stream: H::Object, backpressure: bool) {
    if let Some(promise) = transform_stream(host, stream).backpressure_change_promise {
        resolve(host, promise, H::Value::undefined());
    }
    let promise = new_promise(host);
    let slots = transform_stream(host, stream);
    slots.backpressure_change_promise = Some(promise);
    slots.backpressure = backpressure;
}

/// `TransformStreamError`.
fn transform_stream_error<H: StreamHost>(host: &mut H, stream: H::Object, error: H::Value) {
    if let Some(controller) = readable_controller_of(host, stream) {
        readable_stream_default_controller_error(host, controller, error);
    }
    error_writable_and_unblock_write(host, stream, error);
}

/// `TransformStreamErrorWritableAndUnblockWrite`.
fn error_writable_and_unblock_write<H: StreamHost>(host: &mut H, stream: H::Object, error: H::Value) {
    let controller = controller_of(host, stream);
    clear_algorithms(host, controller);
    if let Some(writable_controller) = writable_controller_of(host, stream) {
        error_if_needed(host, writable_controller, error);
    }
    unblock_write(host, stream);
}

/// `TransformStreamUnblockWrite`.
fn unblock_write<H: StreamHost>(host: &mut H, stream: H::Object) {
    if transform_stream(host, stream).backpressure {
        set_backpressure(host, stream, false);
    }
}

/// `TransformStreamDefaultControllerClearAlgorithms`.
fn clear_algorithms<H: StreamHost>(host: &mut H, controller: H::Object) {
    let slots = transform_controller(host, controller);
    slots.cleared = true;
    slots.transform = H::Value::undefined();
    slots.flush = H::Value::undefined();
    slots.cancel = H::Value::undefined();
}

/// `TransformStreamDefaultControllerEnqueue` (`controller.enqueue`).
///
/// # Errors
/// A TypeError if the readable side cannot take chunks, or the readable
/// side's error if enqueueing failed.
pub fn transform_controller_enqueue<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    chunk: H::Value,
) -> Result<(), H::Value> {
    let stream = transform_controller(host, controller).stream;
    let Some(readable_controller) = readable_controller_of(host, stream) else { return Ok(()) };
    if !can_close_or_enqueue(host, readable_controller) {
        return Err(host.new_error(ErrorKind::Type, "Readable side is not in a state that permits enqueue"));
    }
    if let Err(error) = readable_stream_default_controller_enqueue(host, readable_controller, chunk) {
        error_writable_and_unblock_write(host, stream, error);
        let readable = transform_stream(host, stream).readable;
        return Err(readable_stream_stored_error(host, readable));
    }
    let backpressure = has_backpressure(host, readable_controller);
    if backpressure != transform_stream(host, stream).backpressure {
        set_backpressure(host, stream, true);
    }
    Ok(())
}

/// `controller.error(reason)`.
pub fn transform_controller_error<H: StreamHost>(host: &mut H, controller: H::Object, reason: H::Value) {
    let stream = transform_controller(host, controller).stream;
    transform_stream_error(host, stream, reason);
}

/// `controller.terminate()`.
pub fn transform_controller_terminate<H: StreamHost>(host: &mut H, controller: H::Object) {
    let stream = transform_controller(host, controller).stream;
    if let Some(readable_controller) = readable_controller_of(host, stream) {
        readable_stream_default_controller_close(host, readable_controller);
    }
    let error = host.new_error(ErrorKind::Type, "The transform stream has been terminated");
    host.root(error);
    error_writable_and_unblock_write(host, stream, error);
}

/// `controller.desiredSize` (`None` is null).
pub fn transform_controller_desired_size<H: StreamHost>(host: &mut H, controller: H::Object) -> Option<f64> {
    let stream = transform_controller(host, controller).stream;
    let readable_controller = readable_controller_of(host, stream)?;
    crate::readable_stream_default_controller::desired_size(host, readable_controller)
}

/// `TransformStreamDefaultControllerPerformTransform`: calls `transform`
/// (or enqueues the chunk) and arranges for `continuation` with the
/// outcome.
fn perform_transform<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    chunk: H::Value,
    continuation: js_microtask::JobKind,
) {
    let slots = transform_controller(host, controller);
    let (transformer, transform) = (slots.transformer, slots.transform);
    let data = host.stream_object_value(controller);
    let result = if transform == H::Value::undefined() {
        transform_controller_enqueue(host, controller, chunk).map(|()| H::Value::undefined())
    } else {
        host.call(transform, transformer, &[chunk, data])
    };
    match result {
        Ok(value) => upon_result(host, value, continuation, data),
        Err(thrown) => queue_continuation(host, continuation, data, Err(thrown)),
    }
}

/// `TransformStreamDefaultSinkWriteAlgorithm`.
pub(crate) fn sink_write_algorithm<H: StreamHost>(host: &mut H, stream: H::Object, chunk: H::Value) {
    let controller = controller_of(host, stream);
    let slots = transform_stream(host, stream);
    if slots.backpressure {
        let promise = slots.backpressure_change_promise.expect("backpressure comes with its change promise");
        slots.waiting_chunk = chunk;
        let data = host.stream_object_value(controller);
        upon_promise(host, promise, BACKPRESSURE_SETTLED, data);
        return;
    }
    perform_transform(host, controller, chunk, TRANSFORM_SETTLED);
}

/// Backpressure lifted for a waiting write.
pub(crate) fn backpressure_settled<H: StreamHost>(host: &mut H, controller: H::Object) {
    let stream = transform_controller(host, controller).stream;
    let slots = transform_stream(host, stream);
    let chunk = std::mem::replace(&mut slots.waiting_chunk, H::Value::undefined());
    let writable = slots.writable;
    let writable_slots = writable_stream(host, writable);
    if writable_slots.state == WritableState::Erroring {
        // The reaction throws the writable side's error: the write fails
        // (one turn later, as the sink write promise's reaction), but no
        // transform ran, so the stream is not errored by it.
        let error = writable_slots.stored_error;
        if let Some(writable_controller) = writable_controller_of(host, stream) {
            let data = host.stream_object_value(writable_controller);
            queue_continuation(host, WRITE_SETTLED, data, Err(error));
        }
        return;
    }
    perform_transform(host, controller, chunk, TRANSFORM_SETTLED_AFTER_BACKPRESSURE);
}

/// The transform promise settled: a rejection errors the stream; the
/// outcome reaches the writable side `hops` turns later (the spec's
/// derived promises).
pub(crate) fn transform_settled<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    outcome: Result<H::Value, H::Value>,
    next: js_microtask::JobKind,
) {
    let stream = transform_controller(host, controller).stream;
    if let Err(reason) = outcome {
        transform_stream_error(host, stream, reason);
    }
    let Some(writable_controller) = writable_controller_of(host, stream) else { return };
    let data = host.stream_object_value(writable_controller);
    queue_continuation(host, next, data, outcome);
}

/// `TransformStreamDefaultSinkCloseAlgorithm`.
pub(crate) fn sink_close_algorithm<H: StreamHost>(host: &mut H, stream: H::Object) -> H::Promise {
    let controller = controller_of(host, stream);
    if let Some(promise) = transform_controller(host, controller).finish_promise {
        return promise;
    }
    let finish = new_promise(host);
    let slots = transform_controller(host, controller);
    slots.finish_promise = Some(finish);
    let (transformer, flush) = (slots.transformer, slots.flush);
    let data = host.stream_object_value(controller);
    let result =
        if flush == H::Value::undefined() { Ok(H::Value::undefined()) } else { host.call(flush, transformer, &[data]) };
    clear_algorithms(host, controller);
    match result {
        Ok(value) => upon_result(host, value, FLUSH_SETTLED, data),
        Err(thrown) => queue_continuation(host, FLUSH_SETTLED, data, Err(thrown)),
    }
    finish
}

/// The flush promise settled.
pub(crate) fn flush_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    let slots = transform_controller(host, controller);
    let (stream, finish) = (slots.stream, slots.finish_promise);
    let Some(finish) = finish else { return };
    let readable = transform_stream(host, stream).readable;
    let readable_controller = readable_controller_of(host, stream);
    match outcome {
        Ok(_) => {
            if readable_stream_state(host, readable) == ReadableState::Errored {
                let error = readable_stream_stored_error(host, readable);
                reject(host, finish, error);
            } else {
                if let Some(c) = readable_controller {
                    readable_stream_default_controller_close(host, c);
                }
                resolve(host, finish, H::Value::undefined());
            }
        }
        Err(reason) => {
            if let Some(c) = readable_controller {
                readable_stream_default_controller_error(host, c, reason);
            }
            reject(host, finish, reason);
        }
    }
}

/// Runs the transformer's `cancel` for an abort of the writable side or a
/// cancel of the readable side; [`TRANSFORM_CANCEL_SETTLED`] finishes.
fn run_cancel<H: StreamHost>(host: &mut H, stream: H::Object, reason: H::Value, from_abort: bool) -> H::Promise {
    let controller = controller_of(host, stream);
    if let Some(promise) = transform_controller(host, controller).finish_promise {
        return promise;
    }
    let finish = new_promise(host);
    let slots = transform_controller(host, controller);
    slots.finish_promise = Some(finish);
    slots.finish_reason = reason;
    slots.cancel_from_abort = from_abort;
    let (transformer, cancel) = (slots.transformer, slots.cancel);
    let result = if cancel == H::Value::undefined() {
        Ok(H::Value::undefined())
    } else {
        host.call(cancel, transformer, &[reason])
    };
    clear_algorithms(host, controller);
    let data = host.stream_object_value(controller);
    match result {
        // A promise `cancel()` returned is converted to `Promise<undefined>`
        // by adoption (two turns more than waiting on it), as WebIDL does.
        Ok(value) => upon_result(host, value, TRANSFORM_CANCEL_SETTLED, data),
        Err(thrown) => queue_continuation(host, TRANSFORM_CANCEL_SETTLED, data, Err(thrown)),
    }
    finish
}

/// `TransformStreamDefaultSinkAbortAlgorithm`. Node's is an async
/// function returning the finish promise, so what the writable side waits
/// on is a promise adopting it (a thenable job, then a reaction): the
/// abort settles a turn after the finish promise when that settles after
/// the thenable job ran, as node's does; the spec returns the finish
/// promise itself.
pub(crate) fn sink_abort_algorithm<H: StreamHost>(host: &mut H, stream: H::Object, reason: H::Value) -> H::Promise {
    let finish = run_cancel(host, stream, reason, true);
    let adopting = new_promise(host);
    let finish = host.promise_value(finish);
    resolve(host, adopting, finish);
    adopting
}

/// `TransformStreamDefaultSourceCancelAlgorithm`.
pub(crate) fn source_cancel_algorithm<H: StreamHost>(host: &mut H, stream: H::Object, reason: H::Value) -> H::Promise {
    run_cancel(host, stream, reason, false)
}

/// The transformer's cancel settled, for an abort (the writable side is
/// erroring) or a cancel (the readable side closed).
pub(crate) fn cancel_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    let slots = transform_controller(host, controller);
    let (stream, finish, reason, from_abort) =
        (slots.stream, slots.finish_promise, slots.finish_reason, slots.cancel_from_abort);
    let Some(finish) = finish else { return };
    let readable = transform_stream(host, stream).readable;
    let writable = transform_stream(host, stream).writable;
    match outcome {
        Ok(_) => {
            if from_abort {
                if readable_stream_state(host, readable) == ReadableState::Errored {
                    let error = readable_stream_stored_error(host, readable);
                    reject(host, finish, error);
                } else {
                    if let Some(c) = readable_controller_of(host, stream) {
                        readable_stream_default_controller_error(host, c, reason);
                    }
                    resolve(host, finish, H::Value::undefined());
                }
            } else if writable_stream(host, writable).state == WritableState::Errored {
                let error = writable_stream(host, writable).stored_error;
                reject(host, finish, error);
            } else {
                if let Some(c) = writable_controller_of(host, stream) {
                    error_if_needed(host, c, reason);
                }
                unblock_write(host, stream);
                resolve(host, finish, H::Value::undefined());
            }
        }
        Err(error) => {
            if from_abort {
                if let Some(c) = readable_controller_of(host, stream) {
                    readable_stream_default_controller_error(host, c, error);
                }
            } else {
                if let Some(c) = writable_controller_of(host, stream) {
                    error_if_needed(host, c, error);
                }
                unblock_write(host, stream);
            }
            reject(host, finish, error);
        }
    }
}

/// `TransformStreamDefaultSourcePullAlgorithm`: lifts backpressure and
/// returns the new change promise.
pub(crate) fn source_pull_algorithm<H: StreamHost>(host: &mut H, stream: H::Object) -> H::Promise {
    set_backpressure(host, stream, false);
    transform_stream(host, stream).backpressure_change_promise.expect("set_backpressure made it")
}
