//! `WritableStreamDefaultController` abstract operations (Streams §5.4):
//! set-up, the write queue, and processing writes and the close against
//! the sink. Each write's sink promise is continued by a slim reaction or
//! a directly queued job carrying the controller ([`WRITE_SETTLED`]).

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{CLOSE_SETTLED, START_SETTLED_WRITABLE, WRITE_SETTLED};
use crate::promises::{promise_rejected_with, promise_resolved_with, queue_continuation, upon_result, upon_value};
use crate::queue::{QueueEntry, ValueQueue, valid_size};
use crate::readable_stream_default_controller::{StartAlgorithm, run_start, upon_start};
use crate::slots::{
    LazySignal, SinkAlgorithms, StreamSlots, WritableControllerSlots, WritableState, writable_controller,
    writable_stream,
};
use crate::writable_stream::{
    deal_with_rejection, finish_in_flight_close, finish_in_flight_close_with_error, finish_in_flight_write,
    finish_in_flight_write_with_error, update_backpressure, writable_stream_finish_erroring,
    writable_stream_start_erroring,
};

/// `SetUpWritableStreamDefaultController`: makes the controller, links it
/// to `stream`, sets the initial backpressure and runs `start`.
///
/// # Errors
/// What `start` threw.
pub fn set_up_writable_stream_default_controller<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
    start: StartAlgorithm<H::Value, H::Promise>,
    algorithms: SinkAlgorithms<H::Value, H::Object>,
    high_water_mark: f64,
    size: H::Value,
) -> Result<H::Object, H::Value> {
    let controller = host.new_stream_object(StreamSlots::WritableStreamDefaultController(WritableControllerSlots {
        stream,
        queue: ValueQueue::default(),
        started: false,
        high_water_mark,
        size,
        algorithms,
        abort_signal: LazySignal::Unmade,
    }));
    writable_stream(host, stream).controller = Some(controller);
    let backpressure = get_backpressure(host, controller);
    update_backpressure(host, stream, backpressure);
    let start_result = run_start(host, start, controller)?;
    let data = host.stream_object_value(controller);
    upon_start(host, start_result, START_SETTLED_WRITABLE, data);
    Ok(controller)
}

/// `controller.signal`: `[[abortController]]`'s signal, made now if this
/// is its first observation (already aborted if the stream was).
pub fn writable_controller_signal<H: StreamHost>(host: &mut H, controller: H::Object) -> H::Value {
    let state = writable_controller(host, controller).abort_signal;
    if let LazySignal::Made(signal) = state {
        return signal;
    }
    let signal = host.new_abort_signal();
    host.root(signal);
    writable_controller(host, controller).abort_signal = LazySignal::Made(signal);
    if let LazySignal::Aborted(reason) = state {
        // Nothing listens to a signal made just now: no user code runs.
        host.signal_abort(signal, reason);
    }
    signal
}

/// "Signal abort on `controller.[[abortController]]` with `reason`" (by
/// `WritableStreamAbort`): runs the signal's listeners if script made it,
/// else records the reason for when it does.
pub(crate) fn signal_abort_controller<H: StreamHost>(host: &mut H, controller: H::Object, reason: H::Value) {
    let slots = writable_controller(host, controller);
    match slots.abort_signal {
        LazySignal::Unmade => slots.abort_signal = LazySignal::Aborted(reason),
        LazySignal::Aborted(_) => {}
        LazySignal::Made(signal) => host.signal_abort(signal, reason),
    }
}

/// The start promise settled.
pub(crate) fn start_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    let slots = writable_controller(host, controller);
    slots.started = true;
    let stream = slots.stream;
    match outcome {
        Ok(_) => advance_queue_if_needed(host, controller),
        Err(reason) => deal_with_rejection(host, stream, reason),
    }
}

/// `WritableStreamDefaultControllerClearAlgorithms`.
fn clear_algorithms<H: StreamHost>(host: &mut H, controller: H::Object) {
    let slots = writable_controller(host, controller);
    slots.algorithms = SinkAlgorithms::Cleared;
    slots.size = H::Value::undefined();
}

/// `WritableStreamDefaultControllerClose`.
pub(crate) fn writable_stream_default_controller_close<H: StreamHost>(host: &mut H, controller: H::Object) {
    writable_controller(host, controller).queue.enqueue_close();
    advance_queue_if_needed(host, controller);
}

/// `WritableStreamDefaultControllerGetChunkSize` (a throwing size
/// algorithm errors the stream and gives 1).
pub(crate) fn get_chunk_size<H: StreamHost>(host: &mut H, controller: H::Object, chunk: H::Value) -> f64 {
    let size_fn = writable_controller(host, controller).size;
    if size_fn == H::Value::undefined() {
        return 1.0;
    }
    match host.call(size_fn, H::Value::undefined(), &[chunk]).and_then(|v| host.to_number(v)) {
        Ok(size) => size,
        Err(thrown) => {
            error_if_needed(host, controller, thrown);
            1.0
        }
    }
}

/// `WritableStreamDefaultControllerGetDesiredSize`.
pub fn desired_size<H: StreamHost>(host: &mut H, controller: H::Object) -> f64 {
    writable_controller(host, controller).desired_size()
}

/// `WritableStreamDefaultControllerWrite`.
pub(crate) fn writable_stream_default_controller_write<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    chunk: H::Value,
    size: f64,
) {
    if !valid_size(size) {
        let error = host.new_error(ErrorKind::Range, "The chunk size must be a finite, non-negative number");
        error_if_needed(host, controller, error);
        return;
    }
    let slots = writable_controller(host, controller);
    slots.queue.enqueue(chunk, size);
    let stream = slots.stream;
    refresh_backpressure(host, controller, stream);
    advance_queue_if_needed(host, controller);
}

/// The backpressure update after the queue changed, in a write and in its
/// completion: `WritableStreamUpdateBackpressure(stream,
/// WritableStreamDefaultControllerGetBackpressure(controller))` unless a
/// close is queued or in flight or the stream is not writable (each slot
/// read once; computing the backpressure first observes nothing).
fn refresh_backpressure<H: StreamHost>(host: &mut H, controller: H::Object, stream: H::Object) {
    let backpressure = writable_controller(host, controller).desired_size() <= 0.0;
    let stream_slots = writable_stream(host, stream);
    if !stream_slots.close_queued_or_in_flight() && stream_slots.state == WritableState::Writable {
        update_backpressure(host, stream, backpressure);
    }
}

/// `WritableStreamDefaultControllerAdvanceQueueIfNeeded`.
fn advance_queue_if_needed<H: StreamHost>(host: &mut H, controller: H::Object) {
    let slots = writable_controller(host, controller);
    if !slots.started {
        return;
    }
    // Nothing below changes the queue before its head is used.
    let (stream, head) = (slots.stream, slots.queue.peek());
    let stream_slots = writable_stream(host, stream);
    if stream_slots.in_flight_write_request.is_some() {
        return;
    }
    match stream_slots.state {
        WritableState::Erroring => {
            writable_stream_finish_erroring(host, stream);
            return;
        }
        WritableState::Closed | WritableState::Errored => return,
        WritableState::Writable => {}
    }
    match head {
        None => {}
        Some(QueueEntry::Close) => process_close(host, controller),
        Some(QueueEntry::Chunk(chunk, _)) => process_write(host, controller, chunk),
    }
}

/// `WritableStreamDefaultControllerErrorIfNeeded`.
pub(crate) fn error_if_needed<H: StreamHost>(host: &mut H, controller: H::Object, error: H::Value) {
    let stream = writable_controller(host, controller).stream;
    if writable_stream(host, stream).state == WritableState::Writable {
        writable_stream_default_controller_error(host, controller, error);
    }
}

/// `WritableStreamDefaultControllerError`.
pub fn writable_stream_default_controller_error<H: StreamHost>(host: &mut H, controller: H::Object, error: H::Value) {
    let stream = writable_controller(host, controller).stream;
    clear_algorithms(host, controller);
    writable_stream_start_erroring(host, stream, error);
}

/// `controller.error(e)`: nothing unless the stream is writable.
pub fn controller_error_method<H: StreamHost>(host: &mut H, controller: H::Object, error: H::Value) {
    let stream = writable_controller(host, controller).stream;
    if writable_stream(host, stream).state != WritableState::Writable {
        return;
    }
    writable_stream_default_controller_error(host, controller, error);
}

/// `WritableStreamDefaultControllerGetBackpressure`.
fn get_backpressure<H: StreamHost>(host: &mut H, controller: H::Object) -> bool {
    desired_size(host, controller) <= 0.0
}

/// `WritableStreamDefaultControllerProcessClose`.
fn process_close<H: StreamHost>(host: &mut H, controller: H::Object) {
    let stream = writable_controller(host, controller).stream;
    let slots = writable_stream(host, stream);
    slots.in_flight_close_request = slots.close_request.take();
    writable_controller(host, controller).queue.dequeue();
    let algorithms = writable_controller(host, controller).algorithms;
    let data = host.stream_object_value(controller);
    match algorithms {
        SinkAlgorithms::User { sink, close, .. } => {
            let result =
                if close == H::Value::undefined() { Ok(H::Value::undefined()) } else { host.call(close, sink, &[]) };
            clear_algorithms(host, controller);
            match result {
                Ok(value) => upon_result(host, value, CLOSE_SETTLED, data),
                Err(thrown) => queue_continuation(host, CLOSE_SETTLED, data, Err(thrown)),
            }
        }
        SinkAlgorithms::Transform(transform) => {
            let promise = crate::transform_stream::sink_close_algorithm(host, transform);
            clear_algorithms(host, controller);
            let value = host.promise_value(promise);
            upon_value(host, value, CLOSE_SETTLED, data);
        }
        SinkAlgorithms::Cleared => upon_value(host, H::Value::undefined(), CLOSE_SETTLED, data),
    }
}

/// The sink's close promise settled.
pub(crate) fn close_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    let stream = writable_controller(host, controller).stream;
    match outcome {
        Ok(_) => finish_in_flight_close(host, stream),
        Err(reason) => finish_in_flight_close_with_error(host, stream, reason),
    }
}

/// `WritableStreamDefaultControllerProcessWrite`.
fn process_write<H: StreamHost>(host: &mut H, controller: H::Object, chunk: H::Value) {
    let controller_slots = writable_controller(host, controller);
    let (stream, algorithms) = (controller_slots.stream, controller_slots.algorithms);
    let slots = writable_stream(host, stream);
    slots.in_flight_write_request = slots.write_requests.pop_front();
    let data = host.stream_object_value(controller);
    match algorithms {
        SinkAlgorithms::User { sink, write, .. } => {
            if write == H::Value::undefined() {
                upon_value(host, H::Value::undefined(), WRITE_SETTLED, data);
                return;
            }
            match host.call(write, sink, &[chunk, data]) {
                Ok(value) => upon_result(host, value, WRITE_SETTLED, data),
                Err(thrown) => queue_continuation(host, WRITE_SETTLED, data, Err(thrown)),
            }
        }
        SinkAlgorithms::Transform(transform) => crate::transform_stream::sink_write_algorithm(host, transform, chunk),
        SinkAlgorithms::Cleared => upon_value(host, H::Value::undefined(), WRITE_SETTLED, data),
    }
}

/// The sink's write promise settled.
pub(crate) fn write_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    let stream = writable_controller(host, controller).stream;
    match outcome {
        Ok(_) => {
            finish_in_flight_write(host, stream);
            writable_controller(host, controller).queue.dequeue();
            refresh_backpressure(host, controller, stream);
            advance_queue_if_needed(host, controller);
        }
        Err(reason) => {
            if writable_stream(host, stream).state == WritableState::Writable {
                clear_algorithms(host, controller);
            }
            finish_in_flight_write_with_error(host, stream, reason);
        }
    }
}

/// `[[AbortSteps]](reason)`: the sink's abort promise.
pub(crate) fn abort_steps<H: StreamHost>(host: &mut H, controller: H::Object, reason: H::Value) -> H::Promise {
    let algorithms = writable_controller(host, controller).algorithms;
    let promise = match algorithms {
        SinkAlgorithms::User { sink, abort, .. } if abort != H::Value::undefined() => {
            match host.call(abort, sink, &[reason]) {
                Ok(value) => crate::promises::promise_converted_from(host, value),
                Err(thrown) => promise_rejected_with(host, thrown),
            }
        }
        SinkAlgorithms::Transform(transform) => crate::transform_stream::sink_abort_algorithm(host, transform, reason),
        SinkAlgorithms::User { .. } | SinkAlgorithms::Cleared => promise_resolved_with(host, H::Value::undefined()),
    };
    let value = host.promise_value(promise);
    host.root(value);
    clear_algorithms(host, controller);
    promise
}
