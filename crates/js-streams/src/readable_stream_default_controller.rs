//! `ReadableStreamDefaultController` abstract operations (Streams §4.7):
//! set-up with the start algorithm, pulling, enqueue, close, error, and
//! the controller's cancel and pull steps.
//!
//! Pulls are continued by a slim promise reaction or a directly queued job
//! carrying the controller ([`PULL_SETTLED`]); no closure is made per pull.

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{PULL_SETTLED, START_SETTLED_READABLE};
use crate::promises::{promise_rejected_with, promise_resolved_with, queue_continuation, upon_result, upon_value};
use crate::queue::{QueueEntry, ValueQueue, valid_size};
use crate::readable_stream::{
    add_read_request, num_read_requests, read_request_chunk_steps, readable_stream_close, readable_stream_error,
    take_read_request,
};
use crate::slots::{
    ReadRequest, ReadableControllerSlots, ReadableState, SourceAlgorithms, StreamSlots, readable_controller,
    readable_stream,
};

/// How a controller starts: an underlying source's `start` method (or
/// none), or a promise another object made (a `TransformStream`'s start
/// promise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StartAlgorithm<V, P> {
    /// Call `start` (`undefined`: none) on `this_value` with the
    /// controller.
    User {
        /// The underlying object.
        this_value: V,
        /// Its `start` method, or `undefined`.
        start: V,
    },
    /// Wait for this promise.
    Promise(P),
}

/// Runs a start algorithm: `Ok(the value to wait for)`, or what `start`
/// threw.
pub(crate) fn run_start<H: StreamHost>(
    host: &mut H,
    start: StartAlgorithm<H::Value, H::Promise>,
    controller: H::Object,
) -> Result<H::Value, H::Value> {
    match start {
        StartAlgorithm::User { this_value, start } => {
            if start == H::Value::undefined() {
                return Ok(H::Value::undefined());
            }
            let argument = host.stream_object_value(controller);
            host.call(start, this_value, &[argument])
        }
        StartAlgorithm::Promise(promise) => Ok(host.promise_value(promise)),
    }
}

/// "Upon settlement of a promise resolved with `start_result`": `settled`
/// runs with `data` (the controller) and the outcome. A native promise (a
/// `TransformStream`'s start promise, or one `start()` returned) is
/// adopted through a thenable job, so the controller starts three turns
/// after it settles, as the spec's new promise (and node) would.
pub(crate) fn upon_start<H: StreamHost>(
    host: &mut H,
    start_result: H::Value,
    settled: js_microtask::JobKind,
    data: H::Value,
) {
    upon_result(host, start_result, settled, data);
}

/// `SetUpReadableStreamDefaultController`: makes the controller, links it
/// to `stream` and runs `start`.
///
/// # Errors
/// What `start` threw.
pub fn set_up_readable_stream_default_controller<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
    start: StartAlgorithm<H::Value, H::Promise>,
    algorithms: SourceAlgorithms<H::Value, H::Object>,
    high_water_mark: f64,
    size: H::Value,
) -> Result<H::Object, H::Value> {
    let controller = host.new_stream_object(StreamSlots::ReadableStreamDefaultController(ReadableControllerSlots {
        stream,
        queue: ValueQueue::default(),
        started: false,
        close_requested: false,
        pull_again: false,
        pulling: false,
        high_water_mark,
        size,
        algorithms,
    }));
    readable_stream(host, stream).controller = Some(controller);
    let start_result = run_start(host, start, controller)?;
    let data = host.stream_object_value(controller);
    upon_start(host, start_result, START_SETTLED_READABLE, data);
    Ok(controller)
}

/// The start promise settled.
pub(crate) fn start_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    match outcome {
        Ok(_) => {
            readable_controller(host, controller).started = true;
            call_pull_if_needed(host, controller);
        }
        Err(reason) => readable_stream_default_controller_error(host, controller, reason),
    }
}

/// `ReadableStreamDefaultControllerCallPullIfNeeded`.
pub fn call_pull_if_needed<H: StreamHost>(host: &mut H, controller: H::Object) {
    if !should_call_pull(host, controller) {
        return;
    }
    let slots = readable_controller(host, controller);
    if slots.pulling {
        slots.pull_again = true;
        return;
    }
    slots.pulling = true;
    let algorithms = slots.algorithms;
    let data = host.stream_object_value(controller);
    match algorithms {
        SourceAlgorithms::User { source, pull, .. } => {
            if pull == H::Value::undefined() {
                upon_value(host, H::Value::undefined(), PULL_SETTLED, data);
                return;
            }
            match host.call(pull, source, &[data]) {
                Ok(result) => upon_result(host, result, PULL_SETTLED, data),
                Err(thrown) => queue_continuation(host, PULL_SETTLED, data, Err(thrown)),
            }
        }
        SourceAlgorithms::Transform(stream) => {
            let promise = crate::transform_stream::source_pull_algorithm(host, stream);
            let value = host.promise_value(promise);
            upon_value(host, value, PULL_SETTLED, data);
        }
        SourceAlgorithms::Tee(record, _) => {
            crate::readable_stream_tee::pull_algorithm(host, record);
            upon_value(host, H::Value::undefined(), PULL_SETTLED, data);
        }
        SourceAlgorithms::Iterator { iterator, next } => {
            crate::readable_stream_from::pull_algorithm(host, controller, iterator, next);
        }
        // A byte tee's algorithms only drive byte controllers.
        SourceAlgorithms::ByteTee(..) | SourceAlgorithms::Cleared => {
            upon_value(host, H::Value::undefined(), PULL_SETTLED, data);
        }
    }
}

/// The pull promise settled.
pub(crate) fn pull_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    match outcome {
        Ok(_) => {
            let slots = readable_controller(host, controller);
            slots.pulling = false;
            if slots.pull_again {
                slots.pull_again = false;
                call_pull_if_needed(host, controller);
            }
        }
        Err(reason) => readable_stream_default_controller_error(host, controller, reason),
    }
}

/// `ReadableStreamDefaultControllerShouldCallPull`.
fn should_call_pull<H: StreamHost>(host: &mut H, controller: H::Object) -> bool {
    // The spec's steps read the controller's and the stream's slots
    // several times over (CanCloseOrEnqueue, [[started]], the read
    // requests, GetDesiredSize); this reads each object's slots once. It
    // runs after every enqueue and every read.
    let slots = readable_controller(host, controller);
    if slots.close_requested || !slots.started {
        return false;
    }
    let (stream, desired_size) = (slots.stream, slots.high_water_mark - slots.queue.total_size());
    if readable_stream(host, stream).state != ReadableState::Readable {
        return false;
    }
    // A read request pending means the stream is locked to a default reader.
    num_read_requests(host, stream) > 0 || desired_size > 0.0
}

/// `ReadableStreamDefaultControllerClearAlgorithms`.
fn clear_algorithms<H: StreamHost>(host: &mut H, controller: H::Object) {
    let slots = readable_controller(host, controller);
    slots.algorithms = SourceAlgorithms::Cleared;
    slots.size = H::Value::undefined();
}

/// `ReadableStreamDefaultControllerClose`.
pub fn readable_stream_default_controller_close<H: StreamHost>(host: &mut H, controller: H::Object) {
    if !can_close_or_enqueue(host, controller) {
        return;
    }
    let slots = readable_controller(host, controller);
    slots.close_requested = true;
    if slots.queue.is_empty() {
        let stream = slots.stream;
        clear_algorithms(host, controller);
        readable_stream_close(host, stream);
    }
}

/// `ReadableStreamDefaultControllerEnqueue`.
///
/// # Errors
/// What the size algorithm threw, or the RangeError for an invalid size
/// (the stream is errored with it first).
pub fn readable_stream_default_controller_enqueue<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    chunk: H::Value,
) -> Result<(), H::Value> {
    // CanCloseOrEnqueue, with each object's slots read once: this runs for
    // every chunk.
    let slots = readable_controller(host, controller);
    if slots.close_requested {
        return Ok(());
    }
    let (stream, size_fn) = (slots.stream, slots.size);
    let stream_slots = readable_stream(host, stream);
    if stream_slots.state != ReadableState::Readable {
        return Ok(());
    }
    // IsReadableStreamLocked and a read request pending: the request's
    // chunk steps get the chunk (ReadableStreamFulfillReadRequest).
    if let Some(request) = stream_slots.reader.and_then(|reader| take_read_request(host, reader)) {
        read_request_chunk_steps(host, request, chunk);
    } else {
        let size = if size_fn == H::Value::undefined() {
            1.0
        } else {
            let result = host.call(size_fn, H::Value::undefined(), &[chunk]).and_then(|v| host.to_number(v));
            match result {
                Ok(size) => size,
                Err(thrown) => {
                    readable_stream_default_controller_error(host, controller, thrown);
                    return Err(thrown);
                }
            }
        };
        if !valid_size(size) {
            let error = host.new_error(ErrorKind::Range, "The chunk size must be a finite, non-negative number");
            readable_stream_default_controller_error(host, controller, error);
            return Err(error);
        }
        readable_controller(host, controller).queue.enqueue(chunk, size);
    }
    call_pull_if_needed(host, controller);
    Ok(())
}

/// `ReadableStreamDefaultControllerError`.
pub fn readable_stream_default_controller_error<H: StreamHost>(host: &mut H, controller: H::Object, error: H::Value) {
    let slots = readable_controller(host, controller);
    let stream = slots.stream;
    if readable_stream(host, stream).state != ReadableState::Readable {
        return;
    }
    readable_controller(host, controller).queue.reset();
    clear_algorithms(host, controller);
    readable_stream_error(host, stream, error);
}

/// `ReadableStreamDefaultControllerGetDesiredSize` (`None` is null).
pub fn desired_size<H: StreamHost>(host: &mut H, controller: H::Object) -> Option<f64> {
    let slots = readable_controller(host, controller);
    let (high_water_mark, total, stream) = (slots.high_water_mark, slots.queue.total_size(), slots.stream);
    match readable_stream(host, stream).state {
        ReadableState::Errored => None,
        ReadableState::Closed => Some(0.0),
        ReadableState::Readable => Some(high_water_mark - total),
    }
}

/// `ReadableStreamDefaultControllerHasBackpressure`.
pub(crate) fn has_backpressure<H: StreamHost>(host: &mut H, controller: H::Object) -> bool {
    !should_call_pull(host, controller)
}

/// `ReadableStreamDefaultControllerCanCloseOrEnqueue`.
pub fn can_close_or_enqueue<H: StreamHost>(host: &mut H, controller: H::Object) -> bool {
    let slots = readable_controller(host, controller);
    if slots.close_requested {
        return false;
    }
    let stream = slots.stream;
    readable_stream(host, stream).state == ReadableState::Readable
}

/// `[[CancelSteps]](reason)`: the promise of the cancel algorithm.
pub(crate) fn cancel_steps<H: StreamHost>(host: &mut H, controller: H::Object, reason: H::Value) -> H::Promise {
    readable_controller(host, controller).queue.reset();
    let algorithms = readable_controller(host, controller).algorithms;
    let promise = match algorithms {
        SourceAlgorithms::User { source, cancel, .. } if cancel != H::Value::undefined() => {
            match host.call(cancel, source, &[reason]) {
                Ok(result) => crate::promises::promise_converted_from(host, result),
                Err(thrown) => promise_rejected_with(host, thrown),
            }
        }
        SourceAlgorithms::Transform(stream) => crate::transform_stream::source_cancel_algorithm(host, stream, reason),
        SourceAlgorithms::Tee(record, branch) => {
            crate::readable_stream_tee::cancel_algorithm(host, record, branch, reason)
        }
        SourceAlgorithms::Iterator { iterator, .. } => {
            crate::readable_stream_from::cancel_algorithm(host, iterator, reason)
        }
        SourceAlgorithms::User { .. } | SourceAlgorithms::ByteTee(..) | SourceAlgorithms::Cleared => {
            promise_resolved_with(host, H::Value::undefined())
        }
    };
    let value = host.promise_value(promise);
    host.root(value);
    clear_algorithms(host, controller);
    promise
}

/// Takes the first queued chunk for a read, with the steps that follow a
/// dequeue (close once drained, else pull if needed): `[[PullSteps]]` up
/// to the read request's chunk steps. `None` if nothing is queued.
pub(crate) fn dequeue_for_read<H: StreamHost>(host: &mut H, controller: H::Object) -> Option<H::Value> {
    let slots = readable_controller(host, controller);
    let Some(QueueEntry::Chunk(chunk, _)) = slots.queue.dequeue() else { return None };
    host.root(chunk);
    let slots = readable_controller(host, controller);
    if slots.close_requested && slots.queue.is_empty() {
        let stream = slots.stream;
        clear_algorithms(host, controller);
        readable_stream_close(host, stream);
    } else {
        call_pull_if_needed(host, controller);
    }
    Some(chunk)
}

/// `[[PullSteps]](readRequest)`.
pub(crate) fn pull_steps<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    request: ReadRequest<H::Object, H::Promise>,
) {
    if let Some(chunk) = dequeue_for_read(host, controller) {
        read_request_chunk_steps(host, request, chunk);
        return;
    }
    let stream = readable_controller(host, controller).stream;
    add_read_request(host, stream, request);
    call_pull_if_needed(host, controller);
}
