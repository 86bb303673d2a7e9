//! `ReadableStreamPipeTo` (Streams §4.9.4): a pipe is an internal record
//! ([`PipeSlots`]) driven by continuations, in node's turns: node runs the
//! loop as an async function (`while (!await step())`, each step awaiting
//! the writer's `ready` and returning a promise its read settles, the
//! read's chunk steps writing a queued chunk at once; a chunk `enqueue()`
//! hands over is written a microtask later, as the spec requires and node
//! 20 does not), waits for the last write
//! with a recursive async function, and waits for a `signal`'s actions
//! with `Promise.all` over promises derived from them. Each of those
//! awaits and adoptions is a job here, with no promise or closure made.

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{
    PIPE_ACTION_SETTLED, PIPE_DEST_CLOSED, PIPE_HOP, PIPE_READY, PIPE_RUN, PIPE_SIGNAL_ACTION_SETTLED, PIPE_SIGNAL_ALL,
    PIPE_SIGNAL_ELEMENT, PIPE_SOURCE_CLOSED, PIPE_STEP_SETTLED, PIPE_STEP_THENABLE, PIPE_WRITE, PIPE_WRITE_AWAITED,
};
use crate::lazy_promise::LazyPromise;
use crate::promises::{mark_handled, new_promise, queue_continuation, reject, resolve, upon_promise};
use crate::readable_stream::readable_stream_cancel;
use crate::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read,
    readable_stream_default_reader_release, reader_closed,
};
use crate::slots::{
    PipeSlots, ReadRequest, ReadableState, ShutdownAction, StreamSlots, WritableState, pipe, readable_stream,
    writable_stream, writer,
};
use crate::writable_stream::{close_queued_or_in_flight, writable_stream_abort};
use crate::writable_stream_default_writer::{
    acquire_writable_stream_default_writer, close_with_error_propagation, writable_stream_default_writer_release,
    writer_closed, writer_write,
};

/// `pipeTo`'s options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PipeOptions {
    /// `preventClose`.
    pub prevent_close: bool,
    /// `preventAbort`.
    pub prevent_abort: bool,
    /// `preventCancel`.
    pub prevent_cancel: bool,
}

/// `ReadableStreamPipeTo(source, dest, ..., signal)`: the promise of the
/// pipe. Both streams must be unlocked (the caller checked); `signal`, if
/// given, is an AbortSignal (the caller converted it).
///
/// # Errors
/// A TypeError if either stream is locked.
pub fn readable_stream_pipe_to<H: StreamHost>(
    host: &mut H,
    source: H::Object,
    dest: H::Object,
    options: PipeOptions,
    signal: Option<H::Value>,
) -> Result<H::Promise, H::Value> {
    let reader = acquire_readable_stream_default_reader(host, source)?;
    let writer = acquire_writable_stream_default_writer(host, dest)?;
    readable_stream(host, source).disturbed = true;
    let promise = new_promise(host);
    let record = host.new_stream_object(StreamSlots::Pipe(PipeSlots {
        source,
        dest,
        reader,
        writer,
        prevent_close: options.prevent_close,
        prevent_abort: options.prevent_abort,
        prevent_cancel: options.prevent_cancel,
        shutting_down: false,
        promise,
        current_write: None,
        action: ShutdownAction::None,
        error: None,
        reading: false,
        step_thenable_ran: false,
        step_done: None,
        awaited_write: None,
        wait_depth: 0,
        hops: 0,
        wait_error: None,
        signal,
        abort_algorithm: None,
        signal_actions_pending: 0,
        signal_actions_rejected: false,
    }));
    if let Some(signal) = signal {
        if host.signal_abort_reason(signal).is_some() {
            // Node returns here: no loop, no propagation rule.
            pipe_signal_aborted(host, record);
            return Ok(promise);
        }
        let algorithm = host.add_pipe_abort_algorithm(signal, record);
        pipe(host, record).abort_algorithm = Some(algorithm);
    }
    // The loop's first step starts before the propagation rules are set up.
    step(host, record);
    let data = host.stream_object_value(record);
    let closed = reader_closed(host, reader);
    upon_promise(host, closed, PIPE_SOURCE_CLOSED, data);
    let closed = writer_closed(host, writer);
    upon_promise(host, closed, PIPE_DEST_CLOSED, data);
    check_states(host, record);
    Ok(promise)
}

/// Applies the propagation rules to the streams' current states, in the
/// spec's order.
fn check_states<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    let (source, dest) = (slots.source, slots.dest);
    let source_slots = readable_stream(host, source);
    let (source_state, source_error) = (source_slots.state, source_slots.stored_error);
    let dest_slots = writable_stream(host, dest);
    let (dest_state, dest_error) = (dest_slots.state, dest_slots.stored_error);
    if source_state == ReadableState::Errored {
        source_errored(host, record, source_error);
    } else if dest_state == WritableState::Errored {
        dest_errored(host, record, dest_error);
    } else if source_state == ReadableState::Closed {
        source_closed(host, record);
    } else if close_queued_or_in_flight(host, dest) || dest_state == WritableState::Closed {
        let error = host.new_error(ErrorKind::Type, "The destination stream is closing or closed");
        host.root(error);
        let prevent_cancel = pipe(host, record).prevent_cancel;
        if prevent_cancel {
            shutdown(host, record, ShutdownAction::None, Some(error));
        } else {
            shutdown(host, record, ShutdownAction::CancelSource(error), Some(error));
        }
    }
}

fn source_errored<H: StreamHost>(host: &mut H, record: H::Object, error: H::Value) {
    let action = if pipe(host, record).prevent_abort { ShutdownAction::None } else { ShutdownAction::AbortDest(error) };
    shutdown(host, record, action, Some(error));
}

fn dest_errored<H: StreamHost>(host: &mut H, record: H::Object, error: H::Value) {
    let action =
        if pipe(host, record).prevent_cancel { ShutdownAction::None } else { ShutdownAction::CancelSource(error) };
    shutdown(host, record, action, Some(error));
}

fn source_closed<H: StreamHost>(host: &mut H, record: H::Object) {
    let action = if pipe(host, record).prevent_close { ShutdownAction::None } else { ShutdownAction::CloseDest };
    shutdown(host, record, action, None);
}

/// The pipe's abort algorithm (its `signal` aborted): shut down with the
/// signal's actions and its abort reason.
pub fn pipe_signal_aborted<H: StreamHost>(host: &mut H, record: H::Object) {
    let Some(signal) = pipe(host, record).signal else { return };
    let error = host.signal_abort_reason(signal).unwrap_or_else(H::Value::undefined);
    host.root(error);
    shutdown(host, record, ShutdownAction::SignalAbort(error), Some(error));
}

/// A step of the loop (node's `step()`): ends the loop once shutting
/// down, else awaits the writer's `ready` ([`PIPE_READY`]).
pub(crate) fn step<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    if slots.shutting_down {
        return;
    }
    let writer_object = slots.writer;
    let data = host.stream_object_value(record);
    // `await ready`: a ready promise not yet made need not be made to be
    // waited on once it is settled.
    match writer(host, writer_object).ready {
        LazyPromise::Fulfilled(_) => queue_continuation(host, PIPE_READY, data, Ok(H::Value::undefined())),
        LazyPromise::Made(ready) => upon_promise(host, ready, PIPE_READY, data),
        LazyPromise::Pending | LazyPromise::Rejected(_) | LazyPromise::RejectedReleased => {
            let mut ready = writer(host, writer_object).ready;
            let promise = ready.get(host);
            writer(host, writer_object).ready = ready;
            upon_promise(host, promise, PIPE_READY, data);
        }
    }
}

/// The step's `await ready` resumed: a rejection ends the loop; else the
/// step reads, and its promise adopts the read's outcome (the thenable job
/// is queued after whatever the read queued).
pub(crate) fn ready_settled<H: StreamHost>(host: &mut H, record: H::Object, outcome: Result<H::Value, H::Value>) {
    if outcome.is_err() {
        return;
    }
    let slots = pipe(host, record);
    slots.step_thenable_ran = false;
    slots.step_done = None;
    slots.reading = true;
    let reader = slots.reader;
    readable_stream_default_reader_read(host, reader, ReadRequest::Pipe(record));
    pipe(host, record).reading = false;
    let data = host.stream_object_value(record);
    queue_continuation(host, PIPE_STEP_THENABLE, data, Ok(H::Value::undefined()));
}

/// The read settled the step's promise (`done`: the loop ends).
fn step_read_settled<H: StreamHost>(host: &mut H, record: H::Object, done: bool) {
    let slots = pipe(host, record);
    slots.step_done = Some(done);
    if slots.step_thenable_ran {
        let data = host.stream_object_value(record);
        queue_continuation(host, PIPE_STEP_SETTLED, data, Ok(H::Value::undefined()));
    }
}

/// The step promise's thenable job.
pub(crate) fn step_thenable<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    slots.step_thenable_ran = true;
    if slots.step_done.is_some() {
        let data = host.stream_object_value(record);
        queue_continuation(host, PIPE_STEP_SETTLED, data, Ok(H::Value::undefined()));
    }
}

/// The step's promise settled: the loop's `await` resumes a turn later.
pub(crate) fn step_settled<H: StreamHost>(host: &mut H, record: H::Object) {
    let data = host.stream_object_value(record);
    queue_continuation(host, PIPE_RUN, data, Ok(H::Value::undefined()));
}

/// The loop's `await step()` resumed.
pub(crate) fn run<H: StreamHost>(host: &mut H, record: H::Object) {
    if pipe(host, record).step_done == Some(false) {
        step(host, record);
    }
}

/// The pipe read request's chunk steps. A chunk the read took from the
/// queue is written at once (as node 20 does); one handed over by the
/// source's `enqueue()` is written by a microtask ([`PIPE_WRITE`]): the
/// spec forbids writing inside `enqueue()` (node 20 does not wait there).
pub(crate) fn chunk_steps<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    if !pipe(host, record).reading {
        let data = host.stream_object_value(record);
        queue_continuation(host, PIPE_WRITE, data, Ok(chunk));
        return;
    }
    write_chunk(host, record, chunk);
}

/// Writes a chunk the pipe read; the step's promise settles.
pub(crate) fn write_chunk<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    let writer = pipe(host, record).writer;
    let write = writer_write(host, writer, chunk);
    mark_handled(host, write);
    pipe(host, record).current_write = Some(write);
    step_read_settled(host, record, false);
}

/// The pipe read request's close steps (the closed watcher shuts down).
pub(crate) fn read_close_steps<H: StreamHost>(host: &mut H, record: H::Object) {
    step_read_settled(host, record, true);
}

/// The pipe read request's error steps: the step rejects, which ends the
/// loop (the closed watcher shuts down).
pub(crate) fn read_error_steps<H: StreamHost>(host: &mut H, record: H::Object, _error: H::Value) {
    step_read_settled(host, record, true);
}

/// The source reader's `closed` settled.
pub(crate) fn source_closed_settled<H: StreamHost>(
    host: &mut H,
    record: H::Object,
    outcome: Result<H::Value, H::Value>,
) {
    match outcome {
        Ok(_) => source_closed(host, record),
        Err(error) => source_errored(host, record, error),
    }
}

/// The destination writer's `closed` settled.
pub(crate) fn dest_closed_settled<H: StreamHost>(host: &mut H, record: H::Object, outcome: Result<H::Value, H::Value>) {
    if let Err(error) = outcome {
        dest_errored(host, record, error);
    }
}

/// "Shutdown with an action" (or plain shutdown with
/// [`ShutdownAction::None`]): once the last write finished (while the
/// destination is writable), run the action, then finalize.
fn shutdown<H: StreamHost>(host: &mut H, record: H::Object, action: ShutdownAction<H::Value>, error: Option<H::Value>) {
    let slots = pipe(host, record);
    if slots.shutting_down {
        return;
    }
    slots.shutting_down = true;
    slots.action = action;
    slots.error = error;
    let dest = slots.dest;
    if writable_stream(host, dest).state == WritableState::Writable && !close_queued_or_in_flight(host, dest) {
        wait_for_current_write(host, record);
        return;
    }
    complete(host, record);
}

/// One call of node's `waitForCurrentWrite()`: awaits the current write.
fn wait_for_current_write<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    let write = slots.current_write;
    slots.awaited_write = write;
    let data = host.stream_object_value(record);
    match write {
        Some(write) => upon_promise(host, write, PIPE_WRITE_AWAITED, data),
        None => queue_continuation(host, PIPE_WRITE_AWAITED, data, Ok(H::Value::undefined())),
    }
}

/// The awaited write settled: wait again if another write started since,
/// else the wait returns (a rejected write rejects it).
pub(crate) fn write_awaited<H: StreamHost>(host: &mut H, record: H::Object, outcome: Result<H::Value, H::Value>) {
    let slots = pipe(host, record);
    let error = match outcome {
        Err(error) => Some(error),
        Ok(_) if slots.awaited_write != slots.current_write => {
            slots.wait_depth += 1;
            wait_for_current_write(host, record);
            return;
        }
        Ok(_) => None,
    };
    // Each nested call's return resumes its caller a turn later; the
    // reaction to the outermost one runs a turn after that.
    slots.hops = slots.wait_depth;
    slots.wait_depth = 0;
    slots.wait_error = error;
    let data = host.stream_object_value(record);
    queue_continuation(host, PIPE_HOP, data, Ok(H::Value::undefined()));
}

/// A turn of the wait's return: the last one runs the action (or
/// finalizes with the write's error).
pub(crate) fn hop<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    if slots.hops > 0 {
        slots.hops -= 1;
        let data = host.stream_object_value(record);
        queue_continuation(host, PIPE_HOP, data, Ok(H::Value::undefined()));
        return;
    }
    if let Some(error) = slots.wait_error.take() {
        finalize(host, record, Some(error));
        return;
    }
    complete(host, record);
}

/// Runs the shutdown action, then finalizes once it settles.
fn complete<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    let (action, source, dest, writer) = (slots.action, slots.source, slots.dest, slots.writer);
    let promise = match action {
        ShutdownAction::None => {
            let error = slots.error;
            finalize(host, record, error);
            return;
        }
        ShutdownAction::AbortDest(reason) => writable_stream_abort(host, dest, reason),
        ShutdownAction::CancelSource(reason) => readable_stream_cancel(host, source, reason),
        ShutdownAction::CloseDest => close_with_error_propagation(host, writer),
        ShutdownAction::SignalAbort(reason) => {
            run_signal_actions(host, record, reason);
            return;
        }
    };
    let data = host.stream_object_value(record);
    upon_promise(host, promise, PIPE_ACTION_SETTLED, data);
}

/// [`ShutdownAction::SignalAbort`]: performs the actions in order, each on
/// a stream still in the state it applies to (else a resolved promise,
/// which needs no promise here), and waits for all of them as node's
/// `SafePromiseAll` does: each action's promise is followed by a derived
/// promise ([`PIPE_SIGNAL_ACTION_SETTLED`]), `Promise.all` reacts to those
/// ([`PIPE_SIGNAL_ELEMENT`]), and a promise derived from its result
/// settles the action ([`PIPE_SIGNAL_ALL`]).
fn run_signal_actions<H: StreamHost>(host: &mut H, record: H::Object, reason: H::Value) {
    let slots = pipe(host, record);
    let (source, dest, prevent_abort, prevent_cancel) =
        (slots.source, slots.dest, slots.prevent_abort, slots.prevent_cancel);
    let data = host.stream_object_value(record);
    let mut pending = 0;
    if !prevent_abort {
        pending += 1;
        if writable_stream(host, dest).state == WritableState::Writable {
            let promise = writable_stream_abort(host, dest, reason);
            upon_promise(host, promise, PIPE_SIGNAL_ACTION_SETTLED, data);
        } else {
            queue_continuation(host, PIPE_SIGNAL_ACTION_SETTLED, data, Ok(H::Value::undefined()));
        }
    }
    if !prevent_cancel {
        pending += 1;
        if readable_stream(host, source).state == ReadableState::Readable {
            let promise = readable_stream_cancel(host, source, reason);
            upon_promise(host, promise, PIPE_SIGNAL_ACTION_SETTLED, data);
        } else {
            queue_continuation(host, PIPE_SIGNAL_ACTION_SETTLED, data, Ok(H::Value::undefined()));
        }
    }
    if pending == 0 {
        // `Promise.all` of nothing is fulfilled at once.
        queue_continuation(host, PIPE_SIGNAL_ALL, data, Ok(H::Value::undefined()));
    }
    pipe(host, record).signal_actions_pending = pending;
}

/// One action's derived promise settled: `Promise.all`'s reaction to it
/// runs a turn later.
pub(crate) fn signal_action_settled<H: StreamHost>(
    host: &mut H,
    record: H::Object,
    outcome: Result<H::Value, H::Value>,
) {
    let data = host.stream_object_value(record);
    queue_continuation(host, PIPE_SIGNAL_ELEMENT, data, outcome);
}

/// `Promise.all`'s reaction to one action: the first rejection, or the
/// last fulfilment, settles the combined promise.
pub(crate) fn signal_element<H: StreamHost>(host: &mut H, record: H::Object, outcome: Result<H::Value, H::Value>) {
    let data = host.stream_object_value(record);
    let slots = pipe(host, record);
    if slots.signal_actions_rejected {
        return;
    }
    if let Err(error) = outcome {
        slots.signal_actions_rejected = true;
        queue_continuation(host, PIPE_SIGNAL_ALL, data, Err(error));
        return;
    }
    slots.signal_actions_pending = slots.signal_actions_pending.saturating_sub(1);
    if slots.signal_actions_pending == 0 {
        queue_continuation(host, PIPE_SIGNAL_ALL, data, Ok(H::Value::undefined()));
    }
}

/// The combined promise settled: the promise derived from it settles the
/// action a turn later.
pub(crate) fn signal_all_settled<H: StreamHost>(host: &mut H, record: H::Object, outcome: Result<H::Value, H::Value>) {
    let data = host.stream_object_value(record);
    queue_continuation(host, PIPE_ACTION_SETTLED, data, outcome);
}

/// The shutdown action settled.
pub(crate) fn action_settled<H: StreamHost>(host: &mut H, record: H::Object, outcome: Result<H::Value, H::Value>) {
    let error = match outcome {
        Ok(_) => pipe(host, record).error,
        Err(new_error) => Some(new_error),
    };
    finalize(host, record, error);
}

/// "Finalize": release both locks and settle the pipe's promise.
fn finalize<H: StreamHost>(host: &mut H, record: H::Object, error: Option<H::Value>) {
    let slots = pipe(host, record);
    let (reader, writer, promise) = (slots.reader, slots.writer, slots.promise);
    if let (Some(signal), Some(algorithm)) = (slots.signal, slots.abort_algorithm.take()) {
        host.remove_abort_algorithm(signal, algorithm);
    }
    writable_stream_default_writer_release(host, writer);
    readable_stream_default_reader_release(host, reader);
    match error {
        Some(error) => reject(host, promise, error),
        None => resolve(host, promise, H::Value::undefined()),
    }
}
