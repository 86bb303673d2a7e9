//! WritableStream abstract operations (Streams §5.5): abort, close, the
//! erroring state machine and the in-flight request bookkeeping.

use std::collections::VecDeque;

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::ABORT_SETTLED;
use crate::lazy_promise::LazyPromise;
use crate::promises::{new_promise, promise_rejected_with, promise_resolved_with, reject, resolve, upon_promise};
use crate::slots::{
    PendingAbortRequest, StreamSlots, WritableState, WritableStreamSlots, writable_controller, writable_stream, writer,
};
use crate::writable_stream_default_controller as controller;

/// `InitializeWritableStream`: a new stream object, without a controller.
pub fn new_writable_stream<H: StreamHost>(host: &mut H) -> H::Object {
    host.new_stream_object(StreamSlots::WritableStream(WritableStreamSlots {
        state: WritableState::Writable,
        stored_error: H::Value::undefined(),
        writer: None,
        controller: None,
        in_flight_write_request: None,
        close_request: None,
        in_flight_close_request: None,
        pending_abort_request: None,
        abort_in_progress: None,
        write_requests: VecDeque::new(),
        backpressure: false,
    }))
}

/// `IsWritableStreamLocked`.
pub fn is_writable_stream_locked<H: StreamHost>(host: &mut H, stream: H::Object) -> bool {
    writable_stream(host, stream).writer.is_some()
}

/// `[[state]]`.
pub fn writable_stream_state<H: StreamHost>(host: &mut H, stream: H::Object) -> WritableState {
    writable_stream(host, stream).state
}

/// `WritableStreamAbort(stream, reason)`.
pub fn writable_stream_abort<H: StreamHost>(host: &mut H, stream: H::Object, reason: H::Value) -> H::Promise {
    let slots = writable_stream(host, stream);
    if matches!(slots.state, WritableState::Closed | WritableState::Errored) {
        return promise_resolved_with(host, H::Value::undefined());
    }
    if let Some(controller_object) = slots.controller {
        host.root(reason);
        controller::signal_abort_controller(host, controller_object, reason);
    }
    // The signal's listeners may have changed the state.
    let slots = writable_stream(host, stream);
    if matches!(slots.state, WritableState::Closed | WritableState::Errored) {
        return promise_resolved_with(host, H::Value::undefined());
    }
    if let Some(pending) = slots.pending_abort_request {
        return pending.promise;
    }
    let was_already_erroring = slots.state == WritableState::Erroring;
    let reason = if was_already_erroring { H::Value::undefined() } else { reason };
    let promise = new_promise(host);
    writable_stream(host, stream).pending_abort_request =
        Some(PendingAbortRequest { promise, reason, was_already_erroring });
    if !was_already_erroring {
        writable_stream_start_erroring(host, stream, reason);
    }
    promise
}

/// `WritableStreamClose(stream)`.
pub fn writable_stream_close<H: StreamHost>(host: &mut H, stream: H::Object) -> H::Promise {
    let slots = writable_stream(host, stream);
    if matches!(slots.state, WritableState::Closed | WritableState::Errored) {
        let error = host.new_error(ErrorKind::Type, "The stream is closed or errored");
        return promise_rejected_with(host, error);
    }
    let promise = new_promise(host);
    let slots = writable_stream(host, stream);
    slots.close_request = Some(promise);
    if let Some(writer_object) = slots.writer
        && slots.backpressure
        && slots.state == WritableState::Writable
    {
        let mut ready = writer(host, writer_object).ready;
        ready.resolve(host, H::Value::undefined());
        writer(host, writer_object).ready = ready;
    }
    if let Some(controller_object) = writable_stream(host, stream).controller {
        controller::writable_stream_default_controller_close(host, controller_object);
    }
    promise
}

/// `WritableStreamCloseQueuedOrInFlight`.
pub fn close_queued_or_in_flight<H: StreamHost>(host: &mut H, stream: H::Object) -> bool {
    writable_stream(host, stream).close_queued_or_in_flight()
}

/// `WritableStreamDealWithRejection(stream, error)`.
pub(crate) fn deal_with_rejection<H: StreamHost>(host: &mut H, stream: H::Object, error: H::Value) {
    if writable_stream(host, stream).state == WritableState::Writable {
        writable_stream_start_erroring(host, stream, error);
        return;
    }
    writable_stream_finish_erroring(host, stream);
}

/// `WritableStreamStartErroring(stream, reason)`.
pub(crate) fn writable_stream_start_erroring<H: StreamHost>(host: &mut H, stream: H::Object, reason: H::Value) {
    let slots = writable_stream(host, stream);
    slots.state = WritableState::Erroring;
    slots.stored_error = reason;
    let controller_object = slots.controller;
    if let Some(writer_object) = slots.writer {
        crate::writable_stream_default_writer::ensure_ready_promise_rejected(host, writer_object, reason);
    }
    let started = controller_object.is_some_and(|c| writable_controller(host, c).started);
    if !has_operation_marked_in_flight(host, stream) && started {
        writable_stream_finish_erroring(host, stream);
    }
}

/// `WritableStreamFinishErroring(stream)`.
pub(crate) fn writable_stream_finish_erroring<H: StreamHost>(host: &mut H, stream: H::Object) {
    let slots = writable_stream(host, stream);
    slots.state = WritableState::Errored;
    let controller_object = slots.controller;
    if let Some(c) = controller_object {
        writable_controller(host, c).queue.reset();
    }
    let slots = writable_stream(host, stream);
    let stored_error = slots.stored_error;
    let requests = std::mem::take(&mut slots.write_requests);
    for request in requests {
        reject(host, request, stored_error);
    }
    let Some(abort_request) = writable_stream(host, stream).pending_abort_request.take() else {
        reject_close_and_closed_promise_if_needed(host, stream);
        return;
    };
    if abort_request.was_already_erroring {
        reject(host, abort_request.promise, stored_error);
        reject_close_and_closed_promise_if_needed(host, stream);
        return;
    }
    let Some(c) = controller_object else { return };
    // Stored before the sink's abort runs: the slot keeps it alive.
    writable_stream(host, stream).abort_in_progress = Some(abort_request.promise);
    let promise = controller::abort_steps(host, c, abort_request.reason);
    let data = host.stream_object_value(stream);
    upon_promise(host, promise, ABORT_SETTLED, data);
}

/// The sink's abort promise settled.
pub(crate) fn abort_settled<H: StreamHost>(host: &mut H, stream: H::Object, outcome: Result<H::Value, H::Value>) {
    if let Some(promise) = writable_stream(host, stream).abort_in_progress.take() {
        match outcome {
            Ok(_) => resolve(host, promise, H::Value::undefined()),
            Err(reason) => reject(host, promise, reason),
        }
    }
    reject_close_and_closed_promise_if_needed(host, stream);
}

/// `WritableStreamFinishInFlightWrite`.
pub(crate) fn finish_in_flight_write<H: StreamHost>(host: &mut H, stream: H::Object) {
    if let Some(promise) = writable_stream(host, stream).in_flight_write_request.take() {
        resolve(host, promise, H::Value::undefined());
    }
}

/// `WritableStreamFinishInFlightWriteWithError`.
pub(crate) fn finish_in_flight_write_with_error<H: StreamHost>(host: &mut H, stream: H::Object, error: H::Value) {
    if let Some(promise) = writable_stream(host, stream).in_flight_write_request.take() {
        reject(host, promise, error);
    }
    deal_with_rejection(host, stream, error);
}

/// `WritableStreamFinishInFlightClose`.
pub(crate) fn finish_in_flight_close<H: StreamHost>(host: &mut H, stream: H::Object) {
    if let Some(promise) = writable_stream(host, stream).in_flight_close_request.take() {
        resolve(host, promise, H::Value::undefined());
    }
    let slots = writable_stream(host, stream);
    if slots.state == WritableState::Erroring {
        slots.stored_error = H::Value::undefined();
        if let Some(abort_request) = slots.pending_abort_request.take() {
            resolve(host, abort_request.promise, H::Value::undefined());
        }
    }
    let slots = writable_stream(host, stream);
    slots.state = WritableState::Closed;
    if let Some(writer_object) = slots.writer {
        let mut closed = writer(host, writer_object).closed;
        closed.resolve(host, H::Value::undefined());
        writer(host, writer_object).closed = closed;
    }
}

/// `WritableStreamFinishInFlightCloseWithError`.
pub(crate) fn finish_in_flight_close_with_error<H: StreamHost>(host: &mut H, stream: H::Object, error: H::Value) {
    if let Some(promise) = writable_stream(host, stream).in_flight_close_request.take() {
        reject(host, promise, error);
    }
    if let Some(abort_request) = writable_stream(host, stream).pending_abort_request.take() {
        reject(host, abort_request.promise, error);
    }
    deal_with_rejection(host, stream, error);
}

/// `WritableStreamHasOperationMarkedInFlight`.
fn has_operation_marked_in_flight<H: StreamHost>(host: &mut H, stream: H::Object) -> bool {
    let slots = writable_stream(host, stream);
    slots.in_flight_write_request.is_some() || slots.in_flight_close_request.is_some()
}

/// `WritableStreamRejectCloseAndClosedPromiseIfNeeded`.
fn reject_close_and_closed_promise_if_needed<H: StreamHost>(host: &mut H, stream: H::Object) {
    let slots = writable_stream(host, stream);
    let stored_error = slots.stored_error;
    if let Some(promise) = slots.close_request.take() {
        reject(host, promise, stored_error);
    }
    if let Some(writer_object) = writable_stream(host, stream).writer {
        let mut closed = writer(host, writer_object).closed;
        closed.reject_handled(host, stored_error);
        writer(host, writer_object).closed = closed;
    }
}

/// `WritableStreamUpdateBackpressure(stream, backpressure)`.
pub(crate) fn update_backpressure<H: StreamHost>(host: &mut H, stream: H::Object, backpressure: bool) {
    let slots = writable_stream(host, stream);
    if backpressure == slots.backpressure {
        return;
    }
    if let Some(writer_object) = slots.writer {
        if backpressure {
            writer(host, writer_object).ready = LazyPromise::Pending;
        } else {
            let mut ready = writer(host, writer_object).ready;
            ready.resolve(host, H::Value::undefined());
            writer(host, writer_object).ready = ready;
        }
    }
    writable_stream(host, stream).backpressure = backpressure;
}
