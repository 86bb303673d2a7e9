//! ReadableStream abstract operations (Streams §4.9): creation, locking,
//! cancel, close, error and the read-request queue.

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::CANCEL_SETTLED;
use crate::lazy_promise::LazyPromise;
use crate::promises::{new_promise, promise_rejected_with, promise_resolved_with, upon_promise};
use crate::readable_byte_stream_controller as byte_controller;
use crate::readable_stream_async_iterator as async_iterator;
use crate::readable_stream_byob_reader::{close_read_into_requests, error_read_into_requests};
use crate::readable_stream_default_controller as controller;
use crate::slots::{
    ReadRequest, ReadableState, ReadableStreamSlots, StreamSlots, default_reader, is_byob_reader, is_byte_controller,
    readable_stream, reader_closed_slot, reader_stream_slot,
};

/// `InitializeReadableStream`: a new stream object in state `"readable"`,
/// without a controller yet.
pub fn new_readable_stream<H: StreamHost>(host: &mut H) -> H::Object {
    host.new_stream_object(StreamSlots::ReadableStream(ReadableStreamSlots {
        state: ReadableState::Readable,
        stored_error: H::Value::undefined(),
        disturbed: false,
        reader: None,
        controller: None,
    }))
}

/// `IsReadableStreamLocked`.
pub fn is_readable_stream_locked<H: StreamHost>(host: &mut H, stream: H::Object) -> bool {
    readable_stream(host, stream).reader.is_some()
}

/// `[[state]]`.
pub fn readable_stream_state<H: StreamHost>(host: &mut H, stream: H::Object) -> ReadableState {
    readable_stream(host, stream).state
}

/// `[[storedError]]`.
pub fn readable_stream_stored_error<H: StreamHost>(host: &mut H, stream: H::Object) -> H::Value {
    readable_stream(host, stream).stored_error
}

/// `ReadableStreamCancel(stream, reason)`: the promise it returns.
pub fn readable_stream_cancel<H: StreamHost>(host: &mut H, stream: H::Object, reason: H::Value) -> H::Promise {
    let slots = readable_stream(host, stream);
    slots.disturbed = true;
    let (state, stored_error, controller) = (slots.state, slots.stored_error, slots.controller);
    match state {
        ReadableState::Closed => return promise_resolved_with(host, H::Value::undefined()),
        ReadableState::Errored => return promise_rejected_with(host, stored_error),
        ReadableState::Readable => {}
    }
    readable_stream_close(host, stream);
    if let Some(reader) = readable_stream(host, stream).reader
        && is_byob_reader(host, reader)
    {
        close_read_into_requests(host, reader);
    }
    let Some(controller) = controller else { return promise_resolved_with(host, H::Value::undefined()) };
    let source_cancel = if is_byte_controller(host, controller) {
        byte_controller::cancel_steps(host, controller, reason)
    } else {
        controller::cancel_steps(host, controller, reason)
    };
    // "Reacting to sourceCancelPromise with a fulfilment step that returns
    // undefined": the derived promise, settled by a continuation.
    let result = new_promise(host);
    let result_value = host.promise_value(result);
    host.root(result_value);
    upon_promise(host, source_cancel, CANCEL_SETTLED, result_value);
    result
}

/// `ReadableStreamClose(stream)`.
pub fn readable_stream_close<H: StreamHost>(host: &mut H, stream: H::Object) {
    let slots = readable_stream(host, stream);
    slots.state = ReadableState::Closed;
    let Some(reader) = slots.reader else { return };
    let mut closed = *reader_closed_slot(host, reader);
    closed.resolve(host, H::Value::undefined());
    *reader_closed_slot(host, reader) = closed;
    if is_byob_reader(host, reader) {
        return;
    }
    let requests = std::mem::take(&mut default_reader(host, reader).read_requests);
    root_requests(host, &requests);
    for request in requests {
        read_request_close_steps(host, request);
    }
}

/// `ReadableStreamError(stream, e)`.
pub fn readable_stream_error<H: StreamHost>(host: &mut H, stream: H::Object, error: H::Value) {
    let slots = readable_stream(host, stream);
    slots.state = ReadableState::Errored;
    slots.stored_error = error;
    let Some(reader) = slots.reader else { return };
    let mut closed = *reader_closed_slot(host, reader);
    closed.reject_handled(host, error);
    *reader_closed_slot(host, reader) = closed;
    if is_byob_reader(host, reader) {
        error_read_into_requests(host, reader, error);
    } else {
        error_read_requests(host, reader, error);
    }
}

/// `ReadableStreamReaderGenericRelease(reader)`: the `closed` promise
/// rejected, the controller's release steps, the link cut both ways.
pub(crate) fn readable_stream_reader_generic_release<H: StreamHost>(host: &mut H, reader: H::Object) {
    let Some(stream) = *reader_stream_slot(host, reader) else { return };
    let state = readable_stream(host, stream).state;
    let mut closed = *reader_closed_slot(host, reader);
    match closed {
        // An observed pending promise is rejected now; otherwise the
        // rejected promise (and its TypeError) is made if anyone looks.
        LazyPromise::Made(_) if state == ReadableState::Readable && closed.is_pending(host) => {
            let error = host.new_error(ErrorKind::Type, "Releasing reader");
            host.root(error);
            closed.reject_handled(host, error);
        }
        _ => closed = LazyPromise::RejectedReleased,
    }
    *reader_closed_slot(host, reader) = closed;
    if let Some(controller) = readable_stream(host, stream).controller
        && is_byte_controller(host, controller)
    {
        byte_controller::release_steps(host, controller);
    }
    readable_stream(host, stream).reader = None;
    *reader_stream_slot(host, reader) = None;
}

/// `ReadableStreamHasDefaultReader(stream)`.
pub(crate) fn stream_has_default_reader<H: StreamHost>(host: &mut H, stream: H::Object) -> bool {
    readable_stream(host, stream).reader.is_some_and(|reader| !is_byob_reader(host, reader))
}

/// `ReadableStreamHasBYOBReader(stream)`.
pub(crate) fn stream_has_byob_reader<H: StreamHost>(host: &mut H, stream: H::Object) -> bool {
    readable_stream(host, stream).reader.is_some_and(|reader| is_byob_reader(host, reader))
}

/// The stream's controller's `[[PullSteps]](readRequest)` (default or
/// byte controller).
pub(crate) fn controller_pull_steps<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    request: ReadRequest<H::Object, H::Promise>,
) {
    if is_byte_controller(host, controller) {
        byte_controller::pull_steps(host, controller, request);
    } else {
        controller::pull_steps(host, controller, request);
    }
}

/// `ReadableStreamDefaultReaderErrorReadRequests(reader, e)`.
pub(crate) fn error_read_requests<H: StreamHost>(host: &mut H, reader: H::Object, error: H::Value) {
    let requests = std::mem::take(&mut default_reader(host, reader).read_requests);
    root_requests(host, &requests);
    for request in requests {
        read_request_error_steps(host, request, error);
    }
}

/// `ReadableStreamGetNumReadRequests(stream)` (0 without a reader).
pub(crate) fn num_read_requests<H: StreamHost>(host: &mut H, stream: H::Object) -> usize {
    // One slot lookup per object: this runs on every enqueue and pull check.
    let Some(reader) = readable_stream(host, stream).reader else { return 0 };
    match host.stream_slots(reader) {
        StreamSlots::ReadableStreamDefaultReader(reader) => reader.read_requests.len(),
        _ => 0,
    }
}

/// `ReadableStreamAddReadRequest(stream, readRequest)`.
pub(crate) fn add_read_request<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
    request: ReadRequest<H::Object, H::Promise>,
) {
    if let Some(reader) = readable_stream(host, stream).reader
        && let StreamSlots::ReadableStreamDefaultReader(reader) = host.stream_slots(reader)
    {
        reader.read_requests.push_back(request);
    }
}

/// `ReadableStreamFulfillReadRequest(stream, chunk, done)`.
pub(crate) fn fulfill_read_request<H: StreamHost>(host: &mut H, stream: H::Object, chunk: H::Value, done: bool) {
    let Some(reader) = readable_stream(host, stream).reader else { return };
    let Some(request) = take_read_request(host, reader) else { return };
    if done {
        read_request_close_steps(host, request);
    } else {
        read_request_chunk_steps(host, request, chunk);
    }
}

/// The first of `reader`'s read requests, taken out of its list, if it is
/// a default reader with one (the first steps of
/// `ReadableStreamFulfillReadRequest`).
pub(crate) fn take_read_request<H: StreamHost>(
    host: &mut H,
    reader: H::Object,
) -> Option<ReadRequest<H::Object, H::Promise>> {
    match host.stream_slots(reader) {
        StreamSlots::ReadableStreamDefaultReader(reader) => reader.read_requests.pop_front(),
        _ => None,
    }
}

/// Roots the objects of read requests taken out of a reader: their steps
/// can run user code (a `then` getter on `Object.prototype`, a size
/// function) while the rest wait.
fn root_requests<H: StreamHost>(
    host: &mut H,
    requests: &std::collections::VecDeque<ReadRequest<H::Object, H::Promise>>,
) {
    for &request in requests {
        root_request(host, request);
    }
}

/// Roots one read request's objects.
fn root_request<H: StreamHost>(host: &mut H, request: ReadRequest<H::Object, H::Promise>) {
    match request {
        ReadRequest::Promise(promise) => {
            let value = host.promise_value(promise);
            host.root(value);
        }
        ReadRequest::AsyncIterator(iterator, promise) => {
            let value = host.promise_value(promise);
            host.root(value);
            let value = host.stream_object_value(iterator);
            host.root(value);
        }
        ReadRequest::Pipe(record) | ReadRequest::Tee(record) | ReadRequest::ByteTee(record) => {
            let value = host.stream_object_value(record);
            host.root(value);
        }
    }
}

/// A read request's chunk steps.
pub(crate) fn read_request_chunk_steps<H: StreamHost>(
    host: &mut H,
    request: ReadRequest<H::Object, H::Promise>,
    chunk: H::Value,
) {
    root_request(host, request);
    host.root(chunk);
    match request {
        ReadRequest::Promise(promise) => {
            let result = host.iter_result(chunk, false);
            crate::promises::resolve(host, promise, result);
        }
        ReadRequest::AsyncIterator(iterator, promise) => async_iterator::chunk_steps(host, iterator, promise, chunk),
        ReadRequest::Pipe(pipe) => crate::pipe_to::chunk_steps(host, pipe, chunk),
        ReadRequest::Tee(record) => crate::readable_stream_tee::chunk_steps(host, record, chunk),
        ReadRequest::ByteTee(record) => crate::readable_byte_stream_tee::chunk_steps(host, record, chunk),
    }
}

/// A read request's close steps.
pub(crate) fn read_request_close_steps<H: StreamHost>(host: &mut H, request: ReadRequest<H::Object, H::Promise>) {
    root_request(host, request);
    match request {
        ReadRequest::Promise(promise) => {
            let result = host.iter_result(H::Value::undefined(), true);
            crate::promises::resolve(host, promise, result);
        }
        ReadRequest::AsyncIterator(iterator, promise) => async_iterator::close_steps(host, iterator, promise),
        ReadRequest::Pipe(pipe) => crate::pipe_to::read_close_steps(host, pipe),
        ReadRequest::Tee(record) => crate::readable_stream_tee::close_steps(host, record),
        ReadRequest::ByteTee(record) => crate::readable_byte_stream_tee::close_steps(host, record),
    }
}

/// A read request's error steps.
pub(crate) fn read_request_error_steps<H: StreamHost>(
    host: &mut H,
    request: ReadRequest<H::Object, H::Promise>,
    error: H::Value,
) {
    match request {
        ReadRequest::Promise(promise) => crate::promises::reject(host, promise, error),
        ReadRequest::AsyncIterator(iterator, promise) => async_iterator::error_steps(host, iterator, promise, error),
        ReadRequest::Pipe(pipe) => crate::pipe_to::read_error_steps(host, pipe, error),
        ReadRequest::Tee(record) => crate::readable_stream_tee::error_steps(host, record),
        ReadRequest::ByteTee(record) => crate::readable_byte_stream_tee::error_steps(host, record),
    }
}

/// The TypeError for a locked stream.
pub(crate) fn locked_error<H: StreamHost>(host: &mut H) -> H::Value {
    host.new_error(ErrorKind::Type, "ReadableStream is locked")
}
