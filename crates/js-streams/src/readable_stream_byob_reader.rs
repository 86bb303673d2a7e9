//! `ReadableStreamBYOBReader` abstract operations (Streams §4.6 and
//! §4.9.3): acquiring, reading into a view (`read(view, { min })`),
//! releasing, cancelling, and the read-into request queue with its steps.

use std::collections::VecDeque;

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{BYOB_READ_ADOPTED, BYOB_READ_THENABLE};
use crate::lazy_promise::LazyPromise;
use crate::promises::{new_promise, promise_rejected_with};
use crate::pull_into_descriptor::ViewConstructor;
use crate::readable_byte_stream_controller::pull_into;
use crate::readable_stream::{
    is_readable_stream_locked, locked_error, readable_stream_cancel, readable_stream_reader_generic_release,
};
use crate::slots::{
    ByobReaderSlots, ReadIntoRequest, ReadableState, StreamSlots, byob_reader, is_byte_controller, readable_stream,
};

/// `AcquireReadableStreamBYOBReader(stream)` (also the reader constructor's
/// `SetUpReadableStreamBYOBReader`).
///
/// # Errors
/// A TypeError if the stream is locked or not a byte stream.
pub fn acquire_readable_stream_byob_reader<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
) -> Result<H::Object, H::Value> {
    if is_readable_stream_locked(host, stream) {
        return Err(locked_error(host));
    }
    let controller = readable_stream(host, stream).controller;
    if !controller.is_some_and(|controller| is_byte_controller(host, controller)) {
        return Err(host.new_error(ErrorKind::Type, "A BYOB reader needs a readable byte stream"));
    }
    let slots = readable_stream(host, stream);
    let closed = match slots.state {
        ReadableState::Readable => LazyPromise::Pending,
        ReadableState::Closed => LazyPromise::Fulfilled(H::Value::undefined()),
        ReadableState::Errored => LazyPromise::Rejected(slots.stored_error),
    };
    let reader = host.new_stream_object(StreamSlots::ReadableStreamBYOBReader(ByobReaderSlots {
        stream: Some(stream),
        closed,
        adopting: crate::adoption::Adoptions::default(),
        read_into_requests: VecDeque::new(),
    }));
    readable_stream(host, stream).reader = Some(reader);
    Ok(reader)
}

/// `reader.closed`: the promise, made now if this is the first look.
pub fn byob_reader_closed<H: StreamHost>(host: &mut H, reader: H::Object) -> H::Promise {
    let mut closed = byob_reader(host, reader).closed;
    let promise = closed.get(host);
    byob_reader(host, reader).closed = closed;
    promise
}

/// `reader.read(view, { min })`: the method's checks, then the read. The
/// host converted `view` to an `ArrayBufferView` and `min` to an
/// `unsigned long long`.
pub fn byob_reader_read<H: StreamHost>(host: &mut H, reader: H::Object, view: H::Value, min: u64) -> H::Promise {
    let record = host.view_record(view);
    let check = if record.byte_length == 0 {
        Some((ErrorKind::Type, "view must have non-zero byteLength"))
    } else if matches!(host.array_buffer_byte_length(record.buffer), Some(0) | None) {
        // A detached buffer's byte length is 0, so the spec's byte-length
        // check comes before (and answers for) its IsDetachedBuffer check.
        Some((ErrorKind::Type, "view's buffer must have non-zero byteLength"))
    } else if min == 0 {
        Some((ErrorKind::Type, "options.min must be greater than 0"))
    } else {
        let length = if record.constructor == ViewConstructor::DataView {
            record.byte_length
        } else {
            record.byte_length / record.constructor.element_size()
        };
        if min > length as u64 {
            Some((ErrorKind::Range, "options.min must be less than or equal to the view's length"))
        } else if byob_reader(host, reader).stream.is_none() {
            Some((ErrorKind::Type, "This reader has been released"))
        } else {
            None
        }
    };
    if let Some((kind, message)) = check {
        let error = host.new_error(kind, message);
        return promise_rejected_with(host, error);
    }
    // Node's `read()` is an async function returning the request's
    // promise, which its own promise adopts (two turns): the request's
    // outcome goes to the returned promise through the adoption.
    let promise = new_promise(host);
    byob_reader(host, reader).adopting.begin(promise);
    // `min` is at most the view's length here, which fits a usize.
    readable_stream_byob_reader_read(host, reader, view, min as usize, ReadIntoRequest::Promise(reader, promise));
    let data = host.stream_object_value(reader);
    let value = host.promise_value(promise);
    crate::promises::queue_continuation(host, BYOB_READ_THENABLE, data, Ok(value));
    promise
}

/// A read's outcome is known: its promise settles once its thenable job
/// ran and a turn passed.
fn deliver<H: StreamHost>(host: &mut H, reader: H::Object, promise: H::Promise, outcome: Result<H::Value, H::Value>) {
    let outcome = crate::promises::look_up_then(host, outcome);
    if byob_reader(host, reader).adopting.deliver(promise, outcome) {
        queue_adopted(host, reader, promise);
    }
}

fn queue_adopted<H: StreamHost>(host: &mut H, reader: H::Object, promise: H::Promise) {
    let data = host.stream_object_value(reader);
    let value = host.promise_value(promise);
    crate::promises::queue_continuation(host, BYOB_READ_ADOPTED, data, Ok(value));
}

/// The thenable job of a read's promise ([`BYOB_READ_THENABLE`]).
pub(crate) fn read_thenable_job<H: StreamHost>(host: &mut H, reader: H::Object, promise: H::Value) {
    let Some(promise) = host.as_promise(promise) else { return };
    if byob_reader(host, reader).adopting.thenable_job(promise) {
        queue_adopted(host, reader, promise);
    }
}

/// A read's promise takes its outcome ([`BYOB_READ_ADOPTED`]).
pub(crate) fn read_adopted<H: StreamHost>(host: &mut H, reader: H::Object, promise: H::Value) {
    let Some(promise) = host.as_promise(promise) else { return };
    match byob_reader(host, reader).adopting.finish(promise) {
        Some(Ok(result)) => crate::promises::resolve(host, promise, result),
        Some(Err(reason)) => crate::promises::reject(host, promise, reason),
        None => {}
    }
}

/// `ReadableStreamBYOBReaderRead(reader, view, min, readIntoRequest)`.
pub(crate) fn readable_stream_byob_reader_read<H: StreamHost>(
    host: &mut H,
    reader: H::Object,
    view: H::Value,
    min: usize,
    request: ReadIntoRequest<H::Object, H::Promise>,
) {
    let Some(stream) = byob_reader(host, reader).stream else { return };
    let slots = readable_stream(host, stream);
    slots.disturbed = true;
    if slots.state == ReadableState::Errored {
        let error = slots.stored_error;
        read_into_request_error_steps(host, request, error);
        return;
    }
    if let Some(controller) = slots.controller {
        pull_into(host, controller, view, min, request);
    }
}

/// `reader.cancel(reason)`.
pub fn byob_reader_cancel<H: StreamHost>(host: &mut H, reader: H::Object, reason: H::Value) -> H::Promise {
    let Some(stream) = byob_reader(host, reader).stream else {
        let error = host.new_error(ErrorKind::Type, "This reader has been released");
        return promise_rejected_with(host, error);
    };
    readable_stream_cancel(host, stream, reason)
}

/// `ReadableStreamBYOBReaderRelease(reader)` (`releaseLock()`; nothing if
/// already released).
pub fn readable_stream_byob_reader_release<H: StreamHost>(host: &mut H, reader: H::Object) {
    if byob_reader(host, reader).stream.is_none() {
        return;
    }
    readable_stream_reader_generic_release(host, reader);
    // The error is only observable through a pending read it rejects.
    if byob_reader(host, reader).read_into_requests.is_empty() {
        return;
    }
    let error = host.new_error(ErrorKind::Type, "Releasing reader");
    host.root(error);
    error_read_into_requests(host, reader, error);
}

/// Whether `reader` still holds a stream.
pub fn byob_reader_stream<H: StreamHost>(host: &mut H, reader: H::Object) -> Option<H::Object> {
    byob_reader(host, reader).stream
}

/// `ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e)`.
pub(crate) fn error_read_into_requests<H: StreamHost>(host: &mut H, reader: H::Object, error: H::Value) {
    let requests = std::mem::take(&mut byob_reader(host, reader).read_into_requests);
    for &request in &requests {
        root_request(host, request);
    }
    for request in requests {
        read_into_request_error_steps(host, request, error);
    }
}

/// Takes every read-into request of `reader` and runs its close steps with
/// `undefined` (`ReadableStreamCancel` on a stream a BYOB reader holds).
pub(crate) fn close_read_into_requests<H: StreamHost>(host: &mut H, reader: H::Object) {
    let requests = std::mem::take(&mut byob_reader(host, reader).read_into_requests);
    for &request in &requests {
        root_request(host, request);
    }
    for request in requests {
        read_into_request_close_steps(host, request, H::Value::undefined());
    }
}

/// `ReadableStreamGetNumReadIntoRequests(stream)` (0 without a BYOB
/// reader).
pub(crate) fn num_read_into_requests<H: StreamHost>(host: &mut H, stream: H::Object) -> usize {
    match readable_stream(host, stream).reader {
        Some(reader) => match host.stream_slots(reader) {
            StreamSlots::ReadableStreamBYOBReader(slots) => slots.read_into_requests.len(),
            _ => 0,
        },
        None => 0,
    }
}

/// `ReadableStreamAddReadIntoRequest(stream, readRequest)`.
pub(crate) fn add_read_into_request<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
    request: ReadIntoRequest<H::Object, H::Promise>,
) {
    if let Some(reader) = readable_stream(host, stream).reader
        && let StreamSlots::ReadableStreamBYOBReader(slots) = host.stream_slots(reader)
    {
        slots.read_into_requests.push_back(request);
    }
}

/// `ReadableStreamFulfillReadIntoRequest(stream, chunk, done)`.
pub(crate) fn fulfill_read_into_request<H: StreamHost>(host: &mut H, stream: H::Object, chunk: H::Value, done: bool) {
    let Some(reader) = readable_stream(host, stream).reader else { return };
    let request = match host.stream_slots(reader) {
        StreamSlots::ReadableStreamBYOBReader(slots) => slots.read_into_requests.pop_front(),
        _ => None,
    };
    let Some(request) = request else { return };
    if done {
        read_into_request_close_steps(host, request, chunk);
    } else {
        read_into_request_chunk_steps(host, request, chunk);
    }
}

/// Roots one read-into request's objects (its steps can run user code
/// while the rest wait).
fn root_request<H: StreamHost>(host: &mut H, request: ReadIntoRequest<H::Object, H::Promise>) {
    let value = match request {
        ReadIntoRequest::Promise(reader, _) => host.stream_object_value(reader),
        ReadIntoRequest::Tee(record, _) => host.stream_object_value(record),
    };
    host.root(value);
}

/// A read-into request's chunk steps.
pub(crate) fn read_into_request_chunk_steps<H: StreamHost>(
    host: &mut H,
    request: ReadIntoRequest<H::Object, H::Promise>,
    chunk: H::Value,
) {
    root_request(host, request);
    host.root(chunk);
    match request {
        ReadIntoRequest::Promise(reader, promise) => {
            let result = host.iter_result(chunk, false);
            deliver(host, reader, promise, Ok(result));
        }
        ReadIntoRequest::Tee(record, branch) => {
            crate::readable_byte_stream_tee::byob_chunk_steps(host, record, usize::from(branch & 1), chunk);
        }
    }
}

/// A read-into request's close steps (`chunk` is an empty view, or
/// `undefined` after a cancel).
pub(crate) fn read_into_request_close_steps<H: StreamHost>(
    host: &mut H,
    request: ReadIntoRequest<H::Object, H::Promise>,
    chunk: H::Value,
) {
    root_request(host, request);
    host.root(chunk);
    match request {
        ReadIntoRequest::Promise(reader, promise) => {
            let result = host.iter_result(chunk, true);
            deliver(host, reader, promise, Ok(result));
        }
        ReadIntoRequest::Tee(record, branch) => {
            crate::readable_byte_stream_tee::byob_close_steps(host, record, usize::from(branch & 1), chunk);
        }
    }
}

/// A read-into request's error steps.
pub(crate) fn read_into_request_error_steps<H: StreamHost>(
    host: &mut H,
    request: ReadIntoRequest<H::Object, H::Promise>,
    error: H::Value,
) {
    match request {
        ReadIntoRequest::Promise(reader, promise) => deliver(host, reader, promise, Err(error)),
        ReadIntoRequest::Tee(record, _) => crate::readable_byte_stream_tee::error_steps(host, record),
    }
}
