//! `ReadableStreamDefaultReader` abstract operations (Streams §4.4):
//! acquiring, reading (with the buffered fast path), releasing and
//! cancelling.

use std::collections::VecDeque;

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::lazy_promise::LazyPromise;
use crate::promises::{new_promise, promise_rejected_with, promise_resolved_with};
use crate::readable_byte_stream_controller::{has_queued_bytes, take_queued_view};
use crate::readable_stream::{
    controller_pull_steps, error_read_requests, is_readable_stream_locked, locked_error, read_request_close_steps,
    read_request_error_steps, readable_stream_cancel, readable_stream_reader_generic_release,
};
use crate::readable_stream_default_controller::dequeue_for_read;
use crate::slots::{
    ReadRequest, ReadableState, ReaderSlots, StreamSlots, default_reader, is_byte_controller, readable_stream,
};

/// `AcquireReadableStreamDefaultReader(stream)` (also the reader
/// constructor's `SetUpReadableStreamDefaultReader`).
///
/// # Errors
/// A TypeError if the stream is locked.
pub fn acquire_readable_stream_default_reader<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
) -> Result<H::Object, H::Value> {
    if is_readable_stream_locked(host, stream) {
        return Err(locked_error(host));
    }
    let slots = readable_stream(host, stream);
    let closed = match slots.state {
        ReadableState::Readable => LazyPromise::Pending,
        ReadableState::Closed => LazyPromise::Fulfilled(H::Value::undefined()),
        ReadableState::Errored => LazyPromise::Rejected(slots.stored_error),
    };
    let reader = host.new_stream_object(StreamSlots::ReadableStreamDefaultReader(ReaderSlots {
        stream: Some(stream),
        closed,
        read_requests: VecDeque::new(),
    }));
    readable_stream(host, stream).reader = Some(reader);
    Ok(reader)
}

/// `reader.closed`: the promise, made now if this is the first look.
pub fn reader_closed<H: StreamHost>(host: &mut H, reader: H::Object) -> H::Promise {
    let mut closed = default_reader(host, reader).closed;
    let promise = closed.get(host);
    default_reader(host, reader).closed = closed;
    promise
}

/// `ReadableStreamDefaultReaderRead(reader, readRequest)`.
pub(crate) fn readable_stream_default_reader_read<H: StreamHost>(
    host: &mut H,
    reader: H::Object,
    request: ReadRequest<H::Object, H::Promise>,
) {
    let Some(stream) = default_reader(host, reader).stream else { return };
    let slots = readable_stream(host, stream);
    slots.disturbed = true;
    match slots.state {
        ReadableState::Closed => read_request_close_steps(host, request),
        ReadableState::Errored => {
            let error = slots.stored_error;
            read_request_error_steps(host, request, error);
        }
        ReadableState::Readable => {
            if let Some(controller) = slots.controller {
                controller_pull_steps(host, controller, request);
            }
        }
    }
}

/// A chunk for a read, taken from the queue without a read request: the
/// buffered fast path of `read()` and async iteration. `Some(chunk)` if the
/// stream is readable, nobody is waiting and a chunk was queued (the
/// stream is marked disturbed and the steps after a dequeue ran); `None`
/// otherwise, and nothing happened.
pub(crate) fn read_buffered<H: StreamHost>(host: &mut H, reader: H::Object) -> Option<H::Value> {
    let slots = default_reader(host, reader);
    if !slots.read_requests.is_empty() {
        return None;
    }
    let stream = slots.stream?;
    let stream_slots = readable_stream(host, stream);
    if stream_slots.state != ReadableState::Readable {
        return None;
    }
    let controller = stream_slots.controller?;
    if is_byte_controller(host, controller) {
        // The byte queue's fast path: a queued entry becomes the chunk's
        // view without a read request.
        if !has_queued_bytes(host, controller) {
            return None;
        }
        readable_stream(host, stream).disturbed = true;
        return take_queued_view(host, controller);
    }
    readable_stream(host, stream).disturbed = true;
    dequeue_for_read(host, controller)
}

/// `reader.read()`: the promise of a read result. A queued chunk settles it
/// at once (no read request is made); otherwise a read request waits.
pub fn reader_read<H: StreamHost>(host: &mut H, reader: H::Object) -> H::Promise {
    if default_reader(host, reader).stream.is_none() {
        let error = host.new_error(ErrorKind::Type, "This reader has been released");
        return promise_rejected_with(host, error);
    }
    if let Some(chunk) = read_buffered(host, reader) {
        let result = host.iter_result(chunk, false);
        return promise_resolved_with(host, result);
    }
    let promise = new_promise(host);
    readable_stream_default_reader_read(host, reader, ReadRequest::Promise(promise));
    promise
}

/// `reader.cancel(reason)`.
pub fn reader_cancel<H: StreamHost>(host: &mut H, reader: H::Object, reason: H::Value) -> H::Promise {
    let Some(stream) = default_reader(host, reader).stream else {
        let error = host.new_error(ErrorKind::Type, "This reader has been released");
        return promise_rejected_with(host, error);
    };
    readable_stream_cancel(host, stream, reason)
}

/// `ReadableStreamDefaultReaderRelease(reader)` (`releaseLock()`; nothing
/// if already released).
pub fn readable_stream_default_reader_release<H: StreamHost>(host: &mut H, reader: H::Object) {
    if default_reader(host, reader).stream.is_none() {
        return;
    }
    readable_stream_reader_generic_release(host, reader);
    // The error is only observable through a pending read it rejects.
    if default_reader(host, reader).read_requests.is_empty() {
        return;
    }
    let error = host.new_error(ErrorKind::Type, "Releasing reader");
    host.root(error);
    error_read_requests(host, reader, error);
}

/// Whether `reader` still holds a stream.
pub fn reader_stream<H: StreamHost>(host: &mut H, reader: H::Object) -> Option<H::Object> {
    default_reader(host, reader).stream
}
