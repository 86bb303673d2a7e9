//! The crate's continuation jobs: each kind resumes one algorithm step
//! with the object it concerns (slot 0) and the outcome (slot 1, rejected
//! if [`js_promise::SETTLED_REJECTED`]), queued by a slim promise reaction
//! or directly. The host's microtask loop hands jobs whose kind
//! [`is_stream_job`] to [`run_stream_job`].

use js_microtask::{Job, JobKind, JobKindRange};
use js_promise::{ContinuationJob, PromiseValue, with_job_context};

use crate::host::StreamHost;
use crate::promises::queue_continuation;

/// The job kinds this crate owns, `0xFE00..=0xFEFF`: `0xFE00..=0xFE3F` are
/// continuations, `0xFE80..` and `0xFEC0..` the jobs that adopt a
/// promise for them. Register the range in the host's
/// [`js_microtask::JobKindSpace`] beside its own.
pub const JOB_KINDS: JobKindRange = JobKindRange::new("js-streams", 0xFE00, 0xFEFF);

/// A readable controller's start promise settled.
pub const START_SETTLED_READABLE: JobKind = JOB_KINDS.kind(0x00);
/// A readable controller's pull promise settled.
pub const PULL_SETTLED: JobKind = JOB_KINDS.kind(0x01);
/// A source's cancel promise settled (slot 0: the promise `cancel()` returned).
pub const CANCEL_SETTLED: JobKind = JOB_KINDS.kind(0x02);
/// A writable controller's start promise settled.
pub const START_SETTLED_WRITABLE: JobKind = JOB_KINDS.kind(0x03);
/// A sink's write promise settled.
pub const WRITE_SETTLED: JobKind = JOB_KINDS.kind(0x04);
/// A sink's close promise settled.
pub const CLOSE_SETTLED: JobKind = JOB_KINDS.kind(0x05);
/// A sink's abort promise settled (slot 0: the stream).
pub const ABORT_SETTLED: JobKind = JOB_KINDS.kind(0x06);
/// A transform's promise settled (slot 0: the transform controller).
pub const TRANSFORM_SETTLED: JobKind = JOB_KINDS.kind(0x07);
/// A transform run after backpressure lifted settled.
pub const TRANSFORM_SETTLED_AFTER_BACKPRESSURE: JobKind = JOB_KINDS.kind(0x08);
/// Backpressure lifted for a waiting write.
pub const BACKPRESSURE_SETTLED: JobKind = JOB_KINDS.kind(0x09);
/// A flush promise settled.
pub const FLUSH_SETTLED: JobKind = JOB_KINDS.kind(0x0A);
/// A transformer's cancel promise settled.
pub const TRANSFORM_CANCEL_SETTLED: JobKind = JOB_KINDS.kind(0x0B);
/// [`WRITE_SETTLED`] one turn later.
pub const WRITE_SETTLED_NEXT_TURN: JobKind = JOB_KINDS.kind(0x0C);
/// A pipe's step promise's thenable job (it adopts the read's promise).
pub const PIPE_STEP_THENABLE: JobKind = JOB_KINDS.kind(0x10);
/// A pipe writes a chunk `enqueue()` handed to its read (slot 1: the
/// chunk) and its step's promise settles.
pub const PIPE_WRITE: JobKind = JOB_KINDS.kind(0x2E);
/// A pipe step's `await ready` resumed.
pub const PIPE_READY: JobKind = JOB_KINDS.kind(0x11);
/// The pipe's source reader's `closed` settled.
pub const PIPE_SOURCE_CLOSED: JobKind = JOB_KINDS.kind(0x12);
/// The pipe's destination writer's `closed` settled.
pub const PIPE_DEST_CLOSED: JobKind = JOB_KINDS.kind(0x13);
/// A pipe's step promise settled.
pub const PIPE_STEP_SETTLED: JobKind = JOB_KINDS.kind(0x14);
/// A pipe loop's `await step()` resumed.
pub const PIPE_RUN: JobKind = JOB_KINDS.kind(0x17);
/// The write a pipe's shutdown awaits settled.
pub const PIPE_WRITE_AWAITED: JobKind = JOB_KINDS.kind(0x28);
/// A turn of a pipe's wait for its last write returning.
pub const PIPE_HOP: JobKind = JOB_KINDS.kind(0x29);
/// The pipe's shutdown action settled.
pub const PIPE_ACTION_SETTLED: JobKind = JOB_KINDS.kind(0x15);
/// The promise derived from one of the actions of a pipe's `signal` abort
/// settled (slot 0: the pipe record).
pub const PIPE_SIGNAL_ACTION_SETTLED: JobKind = JOB_KINDS.kind(0x16);
/// `Promise.all`'s reaction to one of a pipe's signal actions.
pub const PIPE_SIGNAL_ELEMENT: JobKind = JOB_KINDS.kind(0x2A);
/// The `Promise.all` of a pipe's signal actions settled.
pub const PIPE_SIGNAL_ALL: JobKind = JOB_KINDS.kind(0x2B);
/// A tee read's chunk, a microtask after it arrived (slot 0: the tee
/// record, slot 1: the chunk).
pub const TEE_CHUNK: JobKind = JOB_KINDS.kind(0x18);
/// The tee's reader's `closed` settled.
pub const TEE_READER_CLOSED: JobKind = JOB_KINDS.kind(0x19);
/// `ReadableStream.from`: the iterator's `next()` result settled (slot 0:
/// the controller).
pub const FROM_NEXT_SETTLED: JobKind = JOB_KINDS.kind(0x1A);
/// `ReadableStream.from`: the iterator's `return()` result settled (slot
/// 0: the cancel promise).
pub const FROM_RETURN_SETTLED: JobKind = JOB_KINDS.kind(0x1B);
/// A byte tee's default read chunk, a microtask after it arrived (slot 0:
/// the byte tee record, slot 1: the chunk).
pub const BYTE_TEE_CHUNK: JobKind = JOB_KINDS.kind(0x22);
/// A byte tee's BYOB read for branch 1 filled its view, a microtask later
/// (slot 0: the byte tee record, slot 1: the view).
pub const BYTE_TEE_BYOB_CHUNK_1: JobKind = JOB_KINDS.kind(0x23);
/// [`BYTE_TEE_BYOB_CHUNK_1`] for branch 2.
pub const BYTE_TEE_BYOB_CHUNK_2: JobKind = JOB_KINDS.kind(0x24);
/// The byte tee's current reader's `closed` settled.
pub const BYTE_TEE_READER_CLOSED: JobKind = JOB_KINDS.kind(0x25);
/// The thenable job of an async iterator's chained call (slot 1: the
/// call's promise): the promise the steps made would be adopted from now.
pub const ITERATOR_THENABLE_JOB: JobKind = JOB_KINDS.kind(0x21);
/// A chained call's promise takes its steps' outcome (slot 1: the promise).
pub const ITERATOR_ADOPTED: JobKind = JOB_KINDS.kind(0x27);
/// An async iterator's `return()` cancel settled.
pub const ITERATOR_RETURN_SETTLED: JobKind = JOB_KINDS.kind(0x20);
/// The reaction to the promise an async iterator's call was chained on:
/// the first queued chained call runs its steps.
pub const ITERATOR_ONGOING_SETTLED: JobKind = JOB_KINDS.kind(0x26);

/// The thenable job of a BYOB `read(view)`'s promise (slot 0: the
/// reader, slot 1: the promise).
pub const BYOB_READ_THENABLE: JobKind = JOB_KINDS.kind(0x2C);
/// A BYOB `read(view)`'s promise takes its outcome (slot 0: the reader,
/// slot 1: the promise).
pub const BYOB_READ_ADOPTED: JobKind = JOB_KINDS.kind(0x2D);

/// The kinds that adopt a promise for a continuation: `0xFE80 | k` is the
/// thenable job of WebIDL's "a promise resolved with" a native promise
/// (slot 1: that promise) on behalf of the continuation kind `0xFE00 | k`;
/// `0xFEC0 | k` is the adopted promise's reaction, which queues `0xFE00 |
/// k` (the new promise's reaction). So the continuation runs three turns
/// after the promise settles, with no promise made.
const ADOPT_BASE: u16 = JOB_KINDS.first() | 0x80;
/// See [`ADOPT_BASE`].
const ADOPTED_BASE: u16 = JOB_KINDS.first() | 0xC0;
/// The continuation kinds are `0xFE00..=0xFE3F`.
const CONTINUATION_MASK: u16 = 0x3F;

/// The thenable job that adopts a native promise for the continuation
/// `settled` (which must be one of this crate's kinds).
pub(crate) const fn adopt_kind(settled: JobKind) -> JobKind {
    JobKind::new(ADOPT_BASE | (settled.tag() & CONTINUATION_MASK))
}

/// Whether `kind` is one of this crate's jobs ([`JOB_KINDS`]).
pub const fn is_stream_job(kind: JobKind) -> bool {
    JOB_KINDS.contains(kind)
}

/// Runs one of this crate's jobs under the context it captured. A job
/// whose slot 0 is not what its kind puts there runs nothing.
pub fn run_stream_job<H: StreamHost>(host: &mut H, job: &Job<H::Value>) {
    let continuation = ContinuationJob::read(job);
    let kind = job.kind();
    with_job_context(host, job, |host| {
        let tag = kind.tag();
        if tag & !CONTINUATION_MASK == ADOPT_BASE {
            // The thenable job: wait for the promise (slot 1).
            if let Ok(promise) = continuation.outcome
                && let Some(promise) = host.as_promise(promise)
            {
                let adopted = JobKind::new(ADOPTED_BASE | (tag & CONTINUATION_MASK));
                crate::promises::upon_promise(host, promise, adopted, continuation.data);
            }
            return;
        }
        if tag & !CONTINUATION_MASK == ADOPTED_BASE {
            let settled = JOB_KINDS.kind(tag & CONTINUATION_MASK);
            queue_continuation(host, settled, continuation.data, continuation.outcome);
            return;
        }
        if kind == CANCEL_SETTLED {
            if let Some(promise) = host.as_promise(continuation.data) {
                match continuation.outcome {
                    Ok(_) => crate::promises::resolve(host, promise, H::Value::undefined()),
                    Err(reason) => crate::promises::reject(host, promise, reason),
                }
            }
            return;
        }
        if kind == FROM_RETURN_SETTLED {
            if let Some(promise) = host.as_promise(continuation.data) {
                crate::readable_stream_from::return_settled(host, promise, continuation.outcome);
            }
            return;
        }
        if let Some(target) = host.as_stream_object(continuation.data) {
            dispatch(host, kind, target, continuation.data, continuation.outcome);
        }
    });
}

fn dispatch<H: StreamHost>(
    host: &mut H,
    kind: JobKind,
    target: H::Object,
    data: H::Value,
    outcome: Result<H::Value, H::Value>,
) {
    use crate::{
        pipe_to, readable_byte_stream_controller as rbsc, readable_byte_stream_tee as byte_tee,
        readable_stream_async_iterator, readable_stream_default_controller as rsdc, transform_stream, writable_stream,
        writable_stream_default_controller as wsdc,
    };
    // The readable controller kinds share their start and pull jobs.
    let byte_controller =
        (kind == START_SETTLED_READABLE || kind == PULL_SETTLED) && crate::slots::is_byte_controller(host, target);
    match kind {
        START_SETTLED_READABLE if byte_controller => rbsc::start_settled(host, target, outcome),
        PULL_SETTLED if byte_controller => rbsc::pull_settled(host, target, outcome),
        START_SETTLED_READABLE => rsdc::start_settled(host, target, outcome),
        PULL_SETTLED => rsdc::pull_settled(host, target, outcome),
        START_SETTLED_WRITABLE => wsdc::start_settled(host, target, outcome),
        WRITE_SETTLED => wsdc::write_settled(host, target, outcome),
        WRITE_SETTLED_NEXT_TURN => queue_continuation(host, WRITE_SETTLED, data, outcome),
        CLOSE_SETTLED => wsdc::close_settled(host, target, outcome),
        ABORT_SETTLED => writable_stream::abort_settled(host, target, outcome),
        TRANSFORM_SETTLED => transform_stream::transform_settled(host, target, outcome, WRITE_SETTLED),
        TRANSFORM_SETTLED_AFTER_BACKPRESSURE => {
            transform_stream::transform_settled(host, target, outcome, WRITE_SETTLED_NEXT_TURN);
        }
        BACKPRESSURE_SETTLED => transform_stream::backpressure_settled(host, target),
        FLUSH_SETTLED => transform_stream::flush_settled(host, target, outcome),
        TRANSFORM_CANCEL_SETTLED => transform_stream::cancel_settled(host, target, outcome),
        PIPE_STEP_THENABLE => pipe_to::step_thenable(host, target),
        PIPE_READY => pipe_to::ready_settled(host, target, outcome),
        PIPE_WRITE => {
            if let Ok(chunk) = outcome {
                pipe_to::write_chunk(host, target, chunk);
            }
        }
        PIPE_SOURCE_CLOSED => pipe_to::source_closed_settled(host, target, outcome),
        PIPE_DEST_CLOSED => pipe_to::dest_closed_settled(host, target, outcome),
        PIPE_STEP_SETTLED => pipe_to::step_settled(host, target),
        PIPE_RUN => pipe_to::run(host, target),
        PIPE_WRITE_AWAITED => pipe_to::write_awaited(host, target, outcome),
        PIPE_HOP => pipe_to::hop(host, target),
        PIPE_ACTION_SETTLED => pipe_to::action_settled(host, target, outcome),
        PIPE_SIGNAL_ACTION_SETTLED => pipe_to::signal_action_settled(host, target, outcome),
        PIPE_SIGNAL_ELEMENT => pipe_to::signal_element(host, target, outcome),
        PIPE_SIGNAL_ALL => pipe_to::signal_all_settled(host, target, outcome),
        TEE_CHUNK => {
            if let Ok(chunk) = outcome {
                crate::readable_stream_tee::chunk_microtask(host, target, chunk);
            }
        }
        BYTE_TEE_CHUNK => {
            if let Ok(chunk) = outcome {
                byte_tee::chunk_microtask(host, target, chunk);
            }
        }
        BYTE_TEE_BYOB_CHUNK_1 | BYTE_TEE_BYOB_CHUNK_2 => {
            if let Ok(chunk) = outcome {
                byte_tee::byob_chunk_microtask(host, target, usize::from(kind == BYTE_TEE_BYOB_CHUNK_2), chunk);
            }
        }
        BYTE_TEE_READER_CLOSED => byte_tee::reader_closed_settled(host, target, outcome),
        FROM_NEXT_SETTLED => crate::readable_stream_from::next_settled(host, target, outcome),
        TEE_READER_CLOSED => crate::readable_stream_tee::reader_closed_settled(host, target, outcome),
        BYOB_READ_THENABLE => {
            if let Ok(promise) = outcome {
                crate::readable_stream_byob_reader::read_thenable_job(host, target, promise);
            }
        }
        BYOB_READ_ADOPTED => {
            if let Ok(promise) = outcome {
                crate::readable_stream_byob_reader::read_adopted(host, target, promise);
            }
        }
        ITERATOR_THENABLE_JOB => {
            if let Ok(promise) = outcome {
                readable_stream_async_iterator::thenable_job(host, target, promise);
            }
        }
        ITERATOR_ADOPTED => {
            if let Ok(promise) = outcome {
                readable_stream_async_iterator::adopted(host, target, promise);
            }
        }
        ITERATOR_RETURN_SETTLED => readable_stream_async_iterator::return_settled(host, target, outcome),
        ITERATOR_ONGOING_SETTLED => readable_stream_async_iterator::ongoing_settled(host, target),
        _ => {}
    }
}
