//! A `ReadableStream`'s async iterator (`values()`, `[Symbol.asyncIterator]`,
//! Streams §4.2.5): next and return steps over a default reader.
//!
//! As WebIDL's ongoing-promise chaining requires, a `next()` or `return()`
//! made while another is in progress waits for it; calls run in order, each
//! a turn after the promise of the one before settled (the reaction to the
//! ongoing promise).
//! `next()` on a stream with queued chunks, with nothing in progress,
//! returns a promise already fulfilled with the result (no read request).

use std::collections::VecDeque;

use js_promise::PromiseValue;

use crate::host::StreamHost;
use crate::jobs::{ITERATOR_NEXT_SETTLED, ITERATOR_ONGOING_SETTLED, ITERATOR_RETURN_SETTLED};
use crate::promises::{new_promise, promise_resolved_with, queue_continuation, reject, resolve, upon_promise};
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
        busy: false,
        finished: false,
        waiting: VecDeque::new(),
        returning: None,
        current: None,
    })))
}

/// `iterator.next()`.
pub fn async_iterator_next<H: StreamHost>(host: &mut H, iterator: H::Object) -> H::Promise {
    let slots = async_iterator(host, iterator);
    let idle = !slots.busy && slots.waiting.is_empty();
    if idle && slots.finished {
        let result = host.iter_result(H::Value::undefined(), true);
        return promise_resolved_with(host, result);
    }
    let reader = slots.reader;
    if idle && let Some(chunk) = read_buffered(host, reader) {
        let result = host.iter_result(chunk, false);
        return promise_resolved_with(host, result);
    }
    let promise = new_promise(host);
    if idle {
        next_steps(host, iterator, promise);
    } else {
        async_iterator(host, iterator).waiting.push_back((promise, false, H::Value::undefined()));
    }
    promise
}

/// The next steps for the `next()` whose promise is `promise`.
fn next_steps<H: StreamHost>(host: &mut H, iterator: H::Object, promise: H::Promise) {
    let slots = async_iterator(host, iterator);
    if slots.finished {
        let result = host.iter_result(H::Value::undefined(), true);
        resolve(host, promise, result);
        return;
    }
    let reader = slots.reader;
    if default_reader(host, reader).stream.is_none() {
        let result = host.iter_result(H::Value::undefined(), true);
        resolve(host, promise, result);
        return;
    }
    let slots = async_iterator(host, iterator);
    slots.busy = true;
    slots.current = Some(promise);
    readable_stream_default_reader_read(host, reader, ReadRequest::AsyncIterator(iterator, promise));
}

/// The reaction to the settled promise of the previous call: the first
/// waiting call runs; if it settles at once, the next one waits a turn
/// for it in turn.
pub(crate) fn ongoing_settled<H: StreamHost>(host: &mut H, iterator: H::Object) {
    let slots = async_iterator(host, iterator);
    slots.busy = false;
    let Some((promise, is_return, value)) = slots.waiting.pop_front() else { return };
    if is_return {
        return_steps(host, iterator, promise, value);
    } else {
        next_steps(host, iterator, promise);
    }
    if !async_iterator(host, iterator).busy {
        call_finished(host, iterator);
    }
}

/// The read request's chunk steps. The `next()` promise settles a turn
/// later ([`ITERATOR_NEXT_SETTLED`]), as WebIDL's promise derived from the
/// read does.
pub(crate) fn chunk_steps<H: StreamHost>(host: &mut H, iterator: H::Object, _promise: H::Promise, chunk: H::Value) {
    let result = host.iter_result(chunk, false);
    let data = host.stream_object_value(iterator);
    queue_continuation(host, ITERATOR_NEXT_SETTLED, data, Ok(result));
}

/// The read request's close steps: the reader is released and the
/// iteration ends.
pub(crate) fn close_steps<H: StreamHost>(host: &mut H, iterator: H::Object, _promise: H::Promise) {
    let slots = async_iterator(host, iterator);
    slots.finished = true;
    let reader = slots.reader;
    readable_stream_default_reader_release(host, reader);
    let result = host.iter_result(H::Value::undefined(), true);
    let data = host.stream_object_value(iterator);
    queue_continuation(host, ITERATOR_NEXT_SETTLED, data, Ok(result));
}

/// The read request's error steps.
pub(crate) fn error_steps<H: StreamHost>(host: &mut H, iterator: H::Object, _promise: H::Promise, error: H::Value) {
    let slots = async_iterator(host, iterator);
    slots.finished = true;
    let reader = slots.reader;
    readable_stream_default_reader_release(host, reader);
    let data = host.stream_object_value(iterator);
    queue_continuation(host, ITERATOR_NEXT_SETTLED, data, Err(error));
}

/// The outstanding `next()` settles with `outcome`; waiting calls run.
pub(crate) fn next_settled<H: StreamHost>(host: &mut H, iterator: H::Object, outcome: Result<H::Value, H::Value>) {
    let Some(promise) = async_iterator(host, iterator).current.take() else { return };
    match outcome {
        Ok(result) => resolve(host, promise, result),
        Err(error) => reject(host, promise, error),
    }
    call_finished(host, iterator);
}

/// The call in progress settled its promise: the waiting calls run a turn
/// later, as reactions to that promise would.
fn call_finished<H: StreamHost>(host: &mut H, iterator: H::Object) {
    let slots = async_iterator(host, iterator);
    slots.busy = false;
    if !slots.waiting.is_empty() {
        // Busy until the reaction runs, so a call made in between waits too.
        slots.busy = true;
        let data = host.stream_object_value(iterator);
        queue_continuation(host, ITERATOR_ONGOING_SETTLED, data, Ok(H::Value::undefined()));
    }
}

/// `iterator.return(value)`.
pub fn async_iterator_return<H: StreamHost>(host: &mut H, iterator: H::Object, value: H::Value) -> H::Promise {
    let promise = new_promise(host);
    let slots = async_iterator(host, iterator);
    if slots.busy || !slots.waiting.is_empty() {
        slots.waiting.push_back((promise, true, value));
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
    let slots = async_iterator(host, iterator);
    slots.returning = Some((promise, value));
    slots.busy = true;
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
    call_finished(host, iterator);
}
