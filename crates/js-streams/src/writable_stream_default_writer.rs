//! `WritableStreamDefaultWriter` abstract operations (Streams §5.3.4):
//! acquiring, writing, closing, aborting, releasing, and the lazily made
//! `closed` and `ready` promises.

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::lazy_promise::LazyPromise;
use crate::promises::{new_promise, promise_rejected_with, promise_resolved_with};
use crate::slots::{StreamSlots, WritableState, WriterSlots, writable_stream, writer};
use crate::writable_stream::{
    close_queued_or_in_flight, is_writable_stream_locked, writable_stream_abort, writable_stream_close,
};
use crate::writable_stream_default_controller::{
    desired_size, get_chunk_size, writable_stream_default_controller_write,
};

/// `AcquireWritableStreamDefaultWriter(stream)`
/// (`SetUpWritableStreamDefaultWriter`).
///
/// # Errors
/// A TypeError if the stream is locked.
pub fn acquire_writable_stream_default_writer<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
) -> Result<H::Object, H::Value> {
    if is_writable_stream_locked(host, stream) {
        return Err(host.new_error(ErrorKind::Type, "WritableStream is locked"));
    }
    let close_queued = close_queued_or_in_flight(host, stream);
    let slots = writable_stream(host, stream);
    let stored_error = slots.stored_error;
    let (ready, closed) = match slots.state {
        WritableState::Writable => {
            let ready = if !close_queued && slots.backpressure {
                LazyPromise::Pending
            } else {
                LazyPromise::Fulfilled(H::Value::undefined())
            };
            (ready, LazyPromise::Pending)
        }
        WritableState::Erroring => (LazyPromise::Rejected(stored_error), LazyPromise::Pending),
        WritableState::Closed => {
            (LazyPromise::Fulfilled(H::Value::undefined()), LazyPromise::Fulfilled(H::Value::undefined()))
        }
        WritableState::Errored => (LazyPromise::Rejected(stored_error), LazyPromise::Rejected(stored_error)),
    };
    let writer_object = host.new_stream_object(StreamSlots::WritableStreamDefaultWriter(WriterSlots {
        stream: Some(stream),
        closed,
        ready,
    }));
    writable_stream(host, stream).writer = Some(writer_object);
    Ok(writer_object)
}

/// `writer.closed`, made now if this is the first look.
pub fn writer_closed<H: StreamHost>(host: &mut H, writer_object: H::Object) -> H::Promise {
    let mut closed = writer(host, writer_object).closed;
    let promise = closed.get(host);
    writer(host, writer_object).closed = closed;
    promise
}

/// `writer.ready`, made now if this is the first look.
pub fn writer_ready<H: StreamHost>(host: &mut H, writer_object: H::Object) -> H::Promise {
    let mut ready = writer(host, writer_object).ready;
    let promise = ready.get(host);
    writer(host, writer_object).ready = ready;
    promise
}

/// The stream `writer_object` holds.
pub fn writer_stream<H: StreamHost>(host: &mut H, writer_object: H::Object) -> Option<H::Object> {
    writer(host, writer_object).stream
}

fn released_error<H: StreamHost>(host: &mut H) -> H::Promise {
    let error = host.new_error(ErrorKind::Type, "This writer has been released");
    promise_rejected_with(host, error)
}

/// `writer.desiredSize` (`Ok(None)` is null).
///
/// # Errors
/// A TypeError for a released writer.
pub fn writer_desired_size<H: StreamHost>(host: &mut H, writer_object: H::Object) -> Result<Option<f64>, H::Value> {
    let Some(stream) = writer(host, writer_object).stream else {
        return Err(host.new_error(ErrorKind::Type, "This writer has been released"));
    };
    let slots = writable_stream(host, stream);
    Ok(match slots.state {
        WritableState::Errored | WritableState::Erroring => None,
        WritableState::Closed => Some(0.0),
        WritableState::Writable => slots.controller.map(|c| desired_size(host, c)),
    })
}

/// `writer.abort(reason)`.
pub fn writer_abort<H: StreamHost>(host: &mut H, writer_object: H::Object, reason: H::Value) -> H::Promise {
    match writer(host, writer_object).stream {
        Some(stream) => writable_stream_abort(host, stream, reason),
        None => released_error(host),
    }
}

/// `writer.close()`.
pub fn writer_close<H: StreamHost>(host: &mut H, writer_object: H::Object) -> H::Promise {
    let Some(stream) = writer(host, writer_object).stream else { return released_error(host) };
    if close_queued_or_in_flight(host, stream) {
        let error = host.new_error(ErrorKind::Type, "The stream is closing");
        return promise_rejected_with(host, error);
    }
    writable_stream_close(host, stream)
}

/// `WritableStreamDefaultWriterCloseWithErrorPropagation(writer)`.
pub(crate) fn close_with_error_propagation<H: StreamHost>(host: &mut H, writer_object: H::Object) -> H::Promise {
    let Some(stream) = writer(host, writer_object).stream else { return released_error(host) };
    let slots = writable_stream(host, stream);
    let (state, stored_error) = (slots.state, slots.stored_error);
    if close_queued_or_in_flight(host, stream) || state == WritableState::Closed {
        return promise_resolved_with(host, H::Value::undefined());
    }
    if state == WritableState::Errored {
        return promise_rejected_with(host, stored_error);
    }
    writable_stream_close(host, stream)
}

/// `writer.releaseLock()` (`WritableStreamDefaultWriterRelease`; nothing
/// if already released).
pub fn writable_stream_default_writer_release<H: StreamHost>(host: &mut H, writer_object: H::Object) {
    let Some(stream) = writer(host, writer_object).stream else { return };
    let error = host.new_error(ErrorKind::Type, "Writer was released");
    host.root(error);
    ensure_ready_promise_rejected(host, writer_object, error);
    let mut closed = writer(host, writer_object).closed;
    if closed.is_pending(host) {
        closed.reject_handled(host, error);
    } else {
        closed = LazyPromise::Rejected(error);
    }
    writer(host, writer_object).closed = closed;
    writable_stream(host, stream).writer = None;
    writer(host, writer_object).stream = None;
}

/// `WritableStreamDefaultWriterEnsureReadyPromiseRejected`.
pub(crate) fn ensure_ready_promise_rejected<H: StreamHost>(host: &mut H, writer_object: H::Object, error: H::Value) {
    let mut ready = writer(host, writer_object).ready;
    if ready.is_pending(host) {
        ready.reject_handled(host, error);
    } else {
        ready = LazyPromise::Rejected(error);
    }
    writer(host, writer_object).ready = ready;
}

/// `writer.write(chunk)` (`WritableStreamDefaultWriterWrite`).
pub fn writer_write<H: StreamHost>(host: &mut H, writer_object: H::Object, chunk: H::Value) -> H::Promise {
    let Some(stream) = writer(host, writer_object).stream else { return released_error(host) };
    let Some(controller) = writable_stream(host, stream).controller else { return released_error(host) };
    let size = get_chunk_size(host, controller, chunk);
    if writer(host, writer_object).stream != Some(stream) {
        return released_error(host);
    }
    let slots = writable_stream(host, stream);
    let (state, stored_error) = (slots.state, slots.stored_error);
    let close_queued = slots.close_queued_or_in_flight();
    if state == WritableState::Errored {
        return promise_rejected_with(host, stored_error);
    }
    if close_queued || state == WritableState::Closed {
        let error = host.new_error(ErrorKind::Type, "The stream is closing or closed");
        return promise_rejected_with(host, error);
    }
    if state == WritableState::Erroring {
        return promise_rejected_with(host, stored_error);
    }
    let promise = new_promise(host);
    writable_stream(host, stream).write_requests.push_back(promise);
    writable_stream_default_controller_write(host, controller, chunk, size);
    promise
}
