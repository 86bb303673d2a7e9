//! A `ReadableStream`'s async iterator (`values()`, `[Symbol.asyncIterator]`,
//! Streams §4.2.5): next and return steps over a default reader, chained on
//! the ongoing promise as WebIDL's asynchronous iterator prototype does, in
//! exactly node's turns.
//!
//! Node's iterator (which the tick-exact tests follow) keeps a `current`
//! promise: the first call is chained on a resolved promise; a call made
//! while `current` is set is chained on it (`current.then(steps, steps)`,
//! and the derived promise is resolved with the steps' promise, which
//! adopts it: a thenable job and a reaction, two turns); a call made while
//! it is unset runs its steps at once and returns their promise. A read
//! answered, closed or errored unsets `current`, so with queued chunks the
//! calls alternate between chained and direct.
//!
//! Nothing is allocated for the chaining itself: a chained call is recorded
//! in the iterator's slots (the promise it waits on, or its place among the
//! queued reactions), its steps deliver their outcome to the call's own
//! promise through two jobs ([`ITERATOR_THENABLE_JOB`],
//! [`ITERATOR_ADOPTED`]) instead of through a second promise. A direct call
//! on a stream with queued chunks makes only its promise and result.

use std::collections::VecDeque;

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{ITERATOR_ADOPTED, ITERATOR_ONGOING_SETTLED, ITERATOR_RETURN_SETTLED, ITERATOR_THENABLE_JOB};
use crate::promises::{is_pending, new_promise, queue_continuation, reject, resolve, upon_promise};
use crate::readable_stream::readable_stream_cancel;
use crate::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, read_buffered, readable_stream_default_reader_read,
    readable_stream_default_reader_release,
};
use crate::slots::{
    AsyncIteratorState, IteratorCall, OngoingPromise, ReadRequest, StreamSlots, async_iterator, default_reader,
};

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
        started: false,
        finished: false,
        current: OngoingPromise::None,
        chained: Vec::new(),
        queued: VecDeque::new(),
        adopting: crate::adoption::Adoptions::default(),
        returning: None,
    })))
}

/// `iterator.next()`.
pub fn async_iterator_next<H: StreamHost>(host: &mut H, iterator: H::Object) -> H::Promise {
    call(host, iterator, false, H::Value::undefined())
}

/// `iterator.return(value)`.
pub fn async_iterator_return<H: StreamHost>(host: &mut H, iterator: H::Object, value: H::Value) -> H::Promise {
    call(host, iterator, true, value)
}

/// A `next()` or `return()`: chained on `current` if it is set, else its
/// steps run now; its promise becomes `current`.
fn call<H: StreamHost>(host: &mut H, iterator: H::Object, is_return: bool, value: H::Value) -> H::Promise {
    let slots = async_iterator(host, iterator);
    if !slots.started {
        // The first call waits a turn (node chains it on a resolved
        // promise so the controller can start first).
        slots.started = true;
        if !is_return {
            slots.current = OngoingPromise::Settled;
        }
    }
    let promise = new_promise(host);
    let call = IteratorCall { promise, is_return, value };
    let current = async_iterator(host, iterator).current;
    match current {
        OngoingPromise::None => run_steps(host, iterator, call),
        OngoingPromise::Promise(ongoing) if is_pending(host, ongoing) => {
            async_iterator(host, iterator).chained.push((ongoing, call));
            let data = host.stream_object_value(iterator);
            upon_promise(host, ongoing, ITERATOR_ONGOING_SETTLED, data);
        }
        OngoingPromise::Settled | OngoingPromise::Promise(_) => queue_chained(host, iterator, call),
    }
    async_iterator(host, iterator).current = OngoingPromise::Promise(promise);
    promise
}

/// Chains `call` on a settled promise: its reaction is queued now.
fn queue_chained<H: StreamHost>(host: &mut H, iterator: H::Object, call: IteratorCall<H::Value, H::Promise>) {
    async_iterator(host, iterator).queued.push_back(call);
    let data = host.stream_object_value(iterator);
    queue_continuation(host, ITERATOR_ONGOING_SETTLED, data, Ok(H::Value::undefined()));
}

/// The reaction to the promise the first queued chained call waited on:
/// its steps run, and its promise adopts their outcome (the thenable job
/// is queued after whatever the steps queued).
pub(crate) fn ongoing_settled<H: StreamHost>(host: &mut H, iterator: H::Object) {
    let Some(call) = async_iterator(host, iterator).queued.pop_front() else { return };
    async_iterator(host, iterator).adopting.begin(call.promise);
    run_steps(host, iterator, call);
    let data = host.stream_object_value(iterator);
    let promise = host.promise_value(call.promise);
    queue_continuation(host, ITERATOR_THENABLE_JOB, data, Ok(promise));
}

fn run_steps<H: StreamHost>(host: &mut H, iterator: H::Object, call: IteratorCall<H::Value, H::Promise>) {
    if call.is_return {
        return_steps(host, iterator, call.promise, call.value);
    } else {
        next_steps(host, iterator, call.promise);
    }
}

/// The next steps, delivering to `target`.
fn next_steps<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Promise) {
    let slots = async_iterator(host, iterator);
    if slots.finished {
        let result = host.iter_result(H::Value::undefined(), true);
        deliver(host, iterator, target, Ok(result));
        return;
    }
    let reader = slots.reader;
    if default_reader(host, reader).stream.is_none() {
        let error = host.new_error(ErrorKind::Type, "The reader is not bound to a ReadableStream");
        host.root(error);
        deliver(host, iterator, target, Err(error));
        return;
    }
    if let Some(chunk) = read_buffered(host, reader) {
        // The chunk steps, without a read request.
        host.root(chunk);
        chunk_steps(host, iterator, target, chunk);
        return;
    }
    readable_stream_default_reader_read(host, reader, ReadRequest::AsyncIterator(iterator, target));
}

/// The read request's chunk steps.
pub(crate) fn chunk_steps<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Promise, chunk: H::Value) {
    async_iterator(host, iterator).current = OngoingPromise::None;
    let result = host.iter_result(chunk, false);
    deliver(host, iterator, target, Ok(result));
}

/// The read request's close steps: the reader is released and the
/// iteration ends.
pub(crate) fn close_steps<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Promise) {
    let slots = async_iterator(host, iterator);
    slots.current = OngoingPromise::None;
    slots.finished = true;
    let reader = slots.reader;
    readable_stream_default_reader_release(host, reader);
    let result = host.iter_result(H::Value::undefined(), true);
    deliver(host, iterator, target, Ok(result));
}

/// The read request's error steps.
pub(crate) fn error_steps<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Promise, error: H::Value) {
    let slots = async_iterator(host, iterator);
    slots.current = OngoingPromise::None;
    slots.finished = true;
    let reader = slots.reader;
    readable_stream_default_reader_release(host, reader);
    deliver(host, iterator, target, Err(error));
}

/// The return steps (node's are an async function), delivering to
/// `target`.
fn return_steps<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Promise, value: H::Value) {
    let slots = async_iterator(host, iterator);
    if slots.finished {
        let result = host.iter_result(value, true);
        deliver(host, iterator, target, Ok(result));
        return;
    }
    slots.finished = true;
    let (reader, prevent_cancel) = (slots.reader, slots.prevent_cancel);
    let Some(stream) = default_reader(host, reader).stream else {
        let error = host.new_error(ErrorKind::Type, "The reader is not bound to a ReadableStream");
        host.root(error);
        deliver(host, iterator, target, Err(error));
        return;
    };
    if prevent_cancel {
        readable_stream_default_reader_release(host, reader);
        let result = host.iter_result(value, true);
        deliver(host, iterator, target, Ok(result));
        return;
    }
    let cancel = readable_stream_cancel(host, stream, value);
    readable_stream_default_reader_release(host, reader);
    async_iterator(host, iterator).returning = Some((target, value));
    let data = host.stream_object_value(iterator);
    // `await` of the cancel promise: one turn after it settles.
    upon_promise(host, cancel, ITERATOR_RETURN_SETTLED, data);
}

/// The cancel of a `return()` settled.
pub(crate) fn return_settled<H: StreamHost>(host: &mut H, iterator: H::Object, outcome: Result<H::Value, H::Value>) {
    let Some((target, value)) = async_iterator(host, iterator).returning.take() else { return };
    let outcome = match outcome {
        Ok(_) => Ok(host.iter_result(value, true)),
        Err(reason) => Err(reason),
    };
    deliver(host, iterator, target, outcome);
}

/// The steps for `target` produced `outcome`: a direct call's promise
/// settles now; a chained call's once its thenable job has run and a turn
/// has passed.
fn deliver<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Promise, outcome: Result<H::Value, H::Value>) {
    let slots = async_iterator(host, iterator);
    if !slots.adopting.contains(target) {
        settle(host, iterator, target, outcome);
        return;
    }
    if async_iterator(host, iterator).adopting.deliver(target, outcome) {
        queue_adopted(host, iterator, target);
    }
}

/// The thenable job of a chained call: from now on its outcome reaches its
/// promise a turn after it is known.
pub(crate) fn thenable_job<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Value) {
    let Some(target) = host.as_promise(target) else { return };
    if async_iterator(host, iterator).adopting.thenable_job(target) {
        queue_adopted(host, iterator, target);
    }
}

fn queue_adopted<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Promise) {
    let data = host.stream_object_value(iterator);
    let promise = host.promise_value(target);
    queue_continuation(host, ITERATOR_ADOPTED, data, Ok(promise));
}

/// A chained call's promise takes the outcome of its steps.
pub(crate) fn adopted<H: StreamHost>(host: &mut H, iterator: H::Object, target: H::Value) {
    let Some(target) = host.as_promise(target) else { return };
    let Some(outcome) = async_iterator(host, iterator).adopting.finish(target) else { return };
    settle(host, iterator, target, outcome);
}

/// Settles one of the iterator's promises; the call chained on it (its
/// reaction is queued now) joins the queued calls.
fn settle<H: StreamHost>(host: &mut H, iterator: H::Object, promise: H::Promise, outcome: Result<H::Value, H::Value>) {
    match outcome {
        Ok(result) => resolve(host, promise, result),
        Err(reason) => reject(host, promise, reason),
    }
    let slots = async_iterator(host, iterator);
    if slots.chained.is_empty() {
        return;
    }
    let mut index = 0;
    while index < slots.chained.len() {
        if slots.chained[index].0 == promise {
            let (_, call) = slots.chained.remove(index);
            slots.queued.push_back(call);
        } else {
            index += 1;
        }
    }
}
