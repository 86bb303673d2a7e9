//! A `ReadableStream`'s async iterator (`values()`, `[Symbol.asyncIterator]`,
//! Streams §4.2.5): next and return steps over a default reader.
//!
//! `next()` on a stream with queued chunks returns a promise already
//! fulfilled with the result (no read request). Reads are answered in
//! order, so several `next()` calls simply queue read requests; a
//! `return()` made while reads are outstanding waits for them, as WebIDL's
//! ongoing-promise chaining does.

use std::collections::VecDeque;

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::ITERATOR_RETURN_SETTLED;
use crate::promises::{new_promise, promise_rejected_with, promise_resolved_with, reject, resolve, upon_promise};
use crate::readable_stream::readable_stream_cancel;
use crate::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, read_buffered, readable_stream_default_reader_read,
    readable_stream_default_reader_release,
};
use crate::slots::{AsyncIteratorState, ReadRequest, StreamSlots, async_iterator, default_reader};

/// `values({ preventCancel })`: a new iterator holding a reader.
///
/// # Errors
/// A TypeError if the stream is locked.
pub fn readable_stream_values<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
    prevent_cancel: bool,
) -> Result<H::Object, H::Value> {
    let reader = acquire_readable_stream_default_reader(host, stream)?;
    Ok(host.new_stream_object(StreamSlots::ReadableStreamAsyncIterator(AsyncIteratorState {
        reader,
        prevent_cancel,
        finished: false,
        pending_reads: 0,
        waiting_returns: VecDeque::new(),
        returning: None,
    })))
}

/// `iterator.next()`.
pub fn async_iterator_next<H: StreamHost>(host: &mut H, iterator: H::Object) -> H::Promise {
    let slots = async_iterator(host, iterator);
    if slots.finished && slots.pending_reads == 0 {
        let result = host.iter_result(H::Value::undefined(), true);
        return promise_resolved_with(host, result);
    }
    let reader = slots.reader;
    if slots.pending_reads == 0
        && slots.waiting_returns.is_empty()
        && let Some(chunk) = read_buffered(host, reader)
    {
        let result = host.iter_result(chunk, false);
        return promise_resolved_with(host, result);
    }
    let promise = new_promise(host);
    let slots = async_iterator(host, iterator);
    if !slots.waiting_returns.is_empty() || slots.returning.is_some() || slots.finished {
        // After a return(): the iteration is over once it completes.
        let result = host.iter_result(H::Value::undefined(), true);
        resolve(host, promise, result);
        return promise;
    }
    slots.pending_reads += 1;
    if default_reader(host, reader).stream.is_none() {
        async_iterator(host, iterator).pending_reads -= 1;
        let error = host.new_error(ErrorKind::Type, "The iterator's reader was released");
        return promise_rejected_with(host, error);
    }
    readable_stream_default_reader_read(host, reader, ReadRequest::AsyncIterator(iterator, promise));
    promise
}

/// A read answered: one fewer outstanding, and a waiting `return()` runs
/// once none are left.
fn read_answered<H: StreamHost>(host: &mut H, iterator: H::Object) {
    let slots = async_iterator(host, iterator);
    slots.pending_reads = slots.pending_reads.saturating_sub(1);
    if slots.pending_reads == 0
        && let Some((promise, value)) = slots.waiting_returns.pop_front()
    {
        return_steps(host, iterator, promise, value);
    }
}

/// The read request's chunk steps.
pub(crate) fn chunk_steps<H: StreamHost>(host: &mut H, iterator: H::Object, promise: H::Promise, chunk: H::Value) {
    let result = host.iter_result(chunk, false);
    resolve(host, promise, result);
    read_answered(host, iterator);
}

/// The read request's close steps: the reader is released and the
/// iteration ends.
pub(crate) fn close_steps<H: StreamHost>(host: &mut H, iterator: H::Object, promise: H::Promise) {
    let slots = async_iterator(host, iterator);
    slots.finished = true;
    let reader = slots.reader;
    readable_stream_default_reader_release(host, reader);
    let result = host.iter_result(H::Value::undefined(), true);
    resolve(host, promise, result);
    read_answered(host, iterator);
}

/// The read request's error steps.
pub(crate) fn error_steps<H: StreamHost>(host: &mut H, iterator: H::Object, promise: H::Promise, error: H::Value) {
    let slots = async_iterator(host, iterator);
    slots.finished = true;
    let reader = slots.reader;
    readable_stream_default_reader_release(host, reader);
    reject(host, promise, error);
    read_answered(host, iterator);
}

/// `iterator.return(value)`.
pub fn async_iterator_return<H: StreamHost>(host: &mut H, iterator: H::Object, value: H::Value) -> H::Promise {
    let promise = new_promise(host);
    let slots = async_iterator(host, iterator);
    if slots.pending_reads > 0 || slots.returning.is_some() {
        slots.waiting_returns.push_back((promise, value));
        return promise;
    }
    return_steps(host, iterator, promise, value);
    promise
}

/// The return steps for the `return()` whose promise is `promise`.
fn return_steps<H: StreamHost>(host: &mut H, iterator: H::Object, promise: H::Promise, value: H::Value) {
    let slots = async_iterator(host, iterator);
    let was_finished = slots.finished;
    slots.finished = true;
    let (reader, prevent_cancel) = (slots.reader, slots.prevent_cancel);
    let stream = default_reader(host, reader).stream;
    let Some(stream) = stream.filter(|_| !was_finished) else {
        let result = host.iter_result(value, true);
        resolve(host, promise, result);
        return;
    };
    if prevent_cancel {
        readable_stream_default_reader_release(host, reader);
        let result = host.iter_result(value, true);
        resolve(host, promise, result);
        return;
    }
    let cancel = readable_stream_cancel(host, stream, value);
    readable_stream_default_reader_release(host, reader);
    async_iterator(host, iterator).returning = Some((promise, value));
    let data = host.stream_object_value(iterator);
    upon_promise(host, cancel, ITERATOR_RETURN_SETTLED, data);
}

/// The cancel of a `return()` settled.
pub(crate) fn return_settled<H: StreamHost>(host: &mut H, iterator: H::Object, outcome: Result<H::Value, H::Value>) {
    let Some((promise, value)) = async_iterator(host, iterator).returning.take() else { return };
    match outcome {
        Ok(_) => {
            let result = host.iter_result(value, true);
            resolve(host, promise, result);
        }
        Err(reason) => reject(host, promise, reason),
    }
    if let Some((next, value)) = async_iterator(host, iterator).waiting_returns.pop_front() {
        return_steps(host, iterator, next, value);
    }
}
