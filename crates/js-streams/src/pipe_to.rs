//! `ReadableStreamPipeTo` (Streams §4.9.4): a pipe is an internal record
//! ([`PipeSlots`]) driven by continuations: waiting for the writer's
//! `ready`, reading with a pipe read request, writing, and the four
//! propagation rules that shut it down.
//!
//! Per chunk the pipe queues one plain job that writes the chunk and takes
//! the next step (no closure, no promise beyond the write's own request
//! promise).

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{
    PIPE_ACTION_SETTLED, PIPE_DEST_CLOSED, PIPE_READY, PIPE_SIGNAL_ACTION_SETTLED, PIPE_SOURCE_CLOSED, PIPE_WRITE,
    PIPE_WRITES_DONE_NEXT_TURN,
};
use crate::promises::{is_pending, mark_handled, new_promise, queue_continuation, reject, resolve, upon_promise};
use crate::readable_stream::readable_stream_cancel;
use crate::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read,
    readable_stream_default_reader_release, reader_closed,
};
use crate::slots::{
    PipeSlots, ReadRequest, ReadableState, ShutdownAction, StreamSlots, WritableState, pipe, readable_stream,
    writable_stream,
};
use crate::writable_stream::{close_queued_or_in_flight, writable_stream_abort};
use crate::writable_stream_default_writer::{
    acquire_writable_stream_default_writer, close_with_error_propagation, writable_stream_default_writer_release,
    writer_closed, writer_ready, writer_write,
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
        busy: false,
        write_queued: false,
        signal,
        abort_algorithm: None,
        signal_actions_pending: 0,
        signal_actions_rejected: false,
    }));
    if let Some(signal) = signal {
        if host.signal_aborted(signal) {
            // The spec returns here: no propagation rule is set up.
            pipe_signal_aborted(host, record);
            return Ok(promise);
        }
        let algorithm = host.add_pipe_abort_algorithm(signal, record);
        pipe(host, record).abort_algorithm = Some(algorithm);
    }
    let data = host.stream_object_value(record);
    let closed = reader_closed(host, reader);
    upon_promise(host, closed, PIPE_SOURCE_CLOSED, data);
    let closed = writer_closed(host, writer);
    upon_promise(host, closed, PIPE_DEST_CLOSED, data);
    check_states(host, record);
    step(host, record);
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
    let error = host.signal_abort_reason(signal);
    host.root(error);
    shutdown(host, record, ShutdownAction::SignalAbort(error), Some(error));
}

/// The next step of the loop: wait for `ready` under backpressure, else
/// read.
pub(crate) fn step<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    if slots.shutting_down || slots.busy {
        return;
    }
    slots.busy = true;
    let (dest, writer, reader) = (slots.dest, slots.writer, slots.reader);
    let data = host.stream_object_value(record);
    if writable_stream(host, dest).backpressure {
        let ready = writer_ready(host, writer);
        upon_promise(host, ready, PIPE_READY, data);
        return;
    }
    readable_stream_default_reader_read(host, reader, ReadRequest::Pipe(record));
}

/// `writer.ready` settled.
pub(crate) fn ready_settled<H: StreamHost>(host: &mut H, record: H::Object, outcome: Result<H::Value, H::Value>) {
    let slots = pipe(host, record);
    slots.busy = false;
    if outcome.is_ok() && !slots.shutting_down {
        let reader = slots.reader;
        slots.busy = true;
        readable_stream_default_reader_read(host, reader, ReadRequest::Pipe(record));
    }
}

/// The pipe read request's chunk steps: the chunk is written by a job
/// ([`PIPE_WRITE`]), never synchronously inside the source's `enqueue()`.
pub(crate) fn chunk_steps<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    pipe(host, record).write_queued = true;
    let data = host.stream_object_value(record);
    queue_continuation(host, PIPE_WRITE, data, Ok(chunk));
}

/// Writes a chunk the pipe read, then takes the next step.
pub(crate) fn write_chunk<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    let slots = pipe(host, record);
    slots.busy = false;
    slots.write_queued = false;
    let writer = slots.writer;
    let write = writer_write(host, writer, chunk);
    mark_handled(host, write);
    let slots = pipe(host, record);
    slots.current_write = Some(write);
    if slots.shutting_down {
        // The shutdown began while this chunk waited: it waits for this
        // write too.
        wait_for_writes_then_act(host, record);
    } else {
        step(host, record);
    }
}

/// The pipe read request's close steps (the closed watcher shuts down).
pub(crate) fn read_close_steps<H: StreamHost>(host: &mut H, record: H::Object) {
    pipe(host, record).busy = false;
}

/// The pipe read request's error steps (the closed watcher shuts down).
pub(crate) fn read_error_steps<H: StreamHost>(host: &mut H, record: H::Object, _error: H::Value) {
    pipe(host, record).busy = false;
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
/// [`ShutdownAction::None`]): once pending writes finished, run the action,
/// then finalize.
fn shutdown<H: StreamHost>(host: &mut H, record: H::Object, action: ShutdownAction<H::Value>, error: Option<H::Value>) {
    let slots = pipe(host, record);
    if slots.shutting_down {
        return;
    }
    slots.shutting_down = true;
    slots.action = action;
    slots.error = error;
    if slots.write_queued {
        // A chunk read but not yet written: its write job continues.
        return;
    }
    wait_for_writes_then_act(host, record);
}

/// "Wait until every chunk that has been read has been written", then run
/// the action. While the destination is writable this takes two turns
/// after the last write settled (or now, if none is pending), as the
/// reference implementation's chained `then` on the current write does;
/// the order of the actions against the streams' own continuations (a
/// sink's `start` settling, say) depends on it.
fn wait_for_writes_then_act<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = pipe(host, record);
    let (dest, current_write) = (slots.dest, slots.current_write);
    if writable_stream(host, dest).state == WritableState::Writable && !close_queued_or_in_flight(host, dest) {
        let data = host.stream_object_value(record);
        match current_write {
            Some(write) if is_pending(host, write) => upon_promise(host, write, PIPE_WRITES_DONE_NEXT_TURN, data),
            _ => queue_continuation(host, PIPE_WRITES_DONE_NEXT_TURN, data, Ok(H::Value::undefined())),
        }
        return;
    }
    run_action(host, record);
}

/// Pending writes finished (or the last one settled): run the action.
pub(crate) fn run_action<H: StreamHost>(host: &mut H, record: H::Object) {
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
/// a stream still in the state it applies to (else it is a promise
/// resolved with undefined, which needs no promise here), and waits for
/// all of them ([`PIPE_SIGNAL_ACTION_SETTLED`]), as WebIDL's "wait for all"
/// does: the first rejection, or the last fulfilment, settles the action
/// one turn later.
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
        // "Wait for all" of nothing fulfils in a microtask.
        pending = 1;
        queue_continuation(host, PIPE_SIGNAL_ACTION_SETTLED, data, Ok(H::Value::undefined()));
    }
    pipe(host, record).signal_actions_pending = pending;
}

/// One of the signal's actions settled.
pub(crate) fn signal_action_settled<H: StreamHost>(
    host: &mut H,
    record: H::Object,
    outcome: Result<H::Value, H::Value>,
) {
    let data = host.stream_object_value(record);
    let slots = pipe(host, record);
    if slots.signal_actions_rejected {
        return;
    }
    if let Err(error) = outcome {
        slots.signal_actions_rejected = true;
        queue_continuation(host, PIPE_ACTION_SETTLED, data, Err(error));
        return;
    }
    slots.signal_actions_pending = slots.signal_actions_pending.saturating_sub(1);
    if slots.signal_actions_pending == 0 {
        queue_continuation(host, PIPE_ACTION_SETTLED, data, Ok(H::Value::undefined()));
    }
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
