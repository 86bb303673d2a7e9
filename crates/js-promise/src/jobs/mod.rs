//! The promise jobs: building them from reactions
//! ([NewPromiseReactionJob](https://tc39.es/ecma262/#sec-newpromisereactionjob))
//! and running them ([`run_promise_job`]).
//!
//! Job layouts (slot 3 is always the context slot: a frame when the job's
//! [`JobFlags::CONTEXT_FRAME`] is set, else an embedder context, `undefined`
//! for none; see [`ContextSlot`]):
//!
//! | kind | slot 0 | slot 1 | slot 2 |
//! |---|---|---|---|
//! | [`PROMISE_REACTION_JOB`] | handler (if [`HANDLER_PRESENT`]) | argument | capability promise (if [`HAS_CAPABILITY`]) |
//! | [`PROMISE_REACTION_RECORD_JOB`] | the [`FullReaction`] cell | argument | — |
//! | [`PROMISE_RESOLVE_THENABLE_JOB`] | promise | thenable | `then` |
//! | a host continuation ([`Continuation::job`]) | payload | argument | — |
//!
//! [`SETTLED_REJECTED`] says the argument is a rejection reason.

use js_gc::Gc;
use js_microtask::{Job, JobFlags, JobKind, JobKindRange};
use thiserror::Error;

use crate::context::with_job_context;
use crate::host::PromiseHost;
use crate::reaction::{ContextSlot, Continuation, FullReaction, InlineReaction, PromiseCapability};
use crate::resolving::{
    ResolvingFunction, ResolvingKind, call_resolving_function, create_resolving_functions, promise_reject_function,
    promise_resolve_function,
};
use crate::value::PromiseValue;

/// The job kinds this crate owns, `0xFF00..=0xFF02`: register the range in
/// the host's [`js_microtask::JobKindSpace`] beside its own.
pub const JOB_KINDS: JobKindRange = JobKindRange::new("js-promise", 0xFF00, 0xFF02);

/// `PromiseReactionJob` of a reaction whose capability is `undefined` or
/// intrinsic.
pub const PROMISE_REACTION_JOB: JobKind = JOB_KINDS.kind(0);
/// `PromiseReactionJob` of a reaction whose capability has functions: the
/// job carries the reaction cell.
pub const PROMISE_REACTION_RECORD_JOB: JobKind = JOB_KINDS.kind(1);
/// `PromiseResolveThenableJob`.
pub const PROMISE_RESOLVE_THENABLE_JOB: JobKind = JOB_KINDS.kind(2);

/// The job's argument is a rejection reason (the promise was rejected). The
/// crate claims embedder flag bits 0 to 2 of the jobs it queues.
pub const SETTLED_REJECTED: JobFlags = JobFlags::embedder(0);
/// Slot 0 of a [`PROMISE_REACTION_JOB`] holds a handler (else it is empty).
pub const HANDLER_PRESENT: JobFlags = JobFlags::embedder(1);
/// Slot 2 of a [`PROMISE_REACTION_JOB`] holds the capability's promise
/// (else the capability is `undefined`).
pub const HAS_CAPABILITY: JobFlags = JobFlags::embedder(2);

/// Whether `kind` is one of this crate's jobs, for [`run_promise_job`].
pub const fn is_promise_job(kind: JobKind) -> bool {
    JOB_KINDS.contains(kind)
}

/// A job [`run_promise_job`] cannot run.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JobError {
    /// The job's kind is not one of this crate's.
    #[error("job kind {0:?} is not a promise job")]
    NotAPromiseJob(JobKind),
    /// A slot did not hold what the job kind puts there.
    #[error("malformed promise job of kind {0:?}: slot {1} holds the wrong kind of value")]
    MalformedJob(JobKind, usize),
}

/// A settled reaction about to become a job.
#[derive(Clone, Copy)]
pub(crate) enum QueuedReaction<V: PromiseValue, P: js_gc::Trace + 'static> {
    Inline(InlineReaction<V, P>),
    Record(Gc<FullReaction<V, P>>),
}

/// NewPromiseReactionJob + HostEnqueuePromiseJob for one reaction.
pub(crate) fn enqueue_reaction_job<H: PromiseHost>(
    host: &mut H,
    reaction: QueuedReaction<H::Value, H::Promise>,
    argument: H::Value,
    rejected: bool,
    context: ContextSlot<H::Value>,
) {
    let undefined = H::Value::undefined();
    let mut job = match reaction {
        QueuedReaction::Inline(InlineReaction::Slim(continuation)) => {
            host.enqueue_job(ContinuationJob::build(continuation, argument, rejected, context));
            return;
        }
        QueuedReaction::Inline(InlineReaction::Full { on_fulfilled, on_rejected, capability }) => {
            let handler = if rejected { on_rejected } else { on_fulfilled };
            let mut flags = JobFlags::EMPTY;
            if handler != undefined {
                flags = flags | HANDLER_PRESENT;
            }
            let capability = capability.map_or(undefined, |promise| {
                flags = flags | HAS_CAPABILITY;
                host.promise_value(promise)
            });
            Job::new(PROMISE_REACTION_JOB, [handler, argument, capability, context.value]).with_flags(flags)
        }
        QueuedReaction::Record(cell) => Job::new(
            PROMISE_REACTION_RECORD_JOB,
            [H::Value::from_cell(cell.as_any()), argument, undefined, context.value],
        ),
    };
    if rejected {
        job = job.with_flags(SETTLED_REJECTED);
    }
    // The slot already holds the context; only a frame needs the flag (a
    // new job's flag is clear, which is what an embedder context needs).
    if context.is_frame {
        job = job.with_flags(JobFlags::CONTEXT_FRAME);
    }
    host.enqueue_job(job);
}

/// A host continuation job, read back: what a slim reaction or an await
/// fast path queued for [`Continuation::job`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContinuationJob<V> {
    /// The continuation's payload.
    pub data: V,
    /// `Ok(value)` if the awaited promise was fulfilled, `Err(reason)` if it
    /// was rejected.
    pub outcome: Result<V, V>,
}

impl<V: PromiseValue> ContinuationJob<V> {
    /// Reads a continuation job. Run it under its frame with
    /// [`with_job_context`].
    pub fn read(job: &Job<V>) -> Self {
        let argument = job.arg(1);
        let outcome = if job.flags().contains(SETTLED_REJECTED) { Err(argument) } else { Ok(argument) };
        Self { data: job.arg(0), outcome }
    }

    /// The continuation job for `continuation` settled with `outcome`.
    pub(crate) fn build(continuation: Continuation<V>, argument: V, rejected: bool, context: ContextSlot<V>) -> Job<V> {
        let mut job = Job::new(continuation.job, [continuation.data, argument, V::undefined(), context.value]);
        if rejected {
            job = job.with_flags(SETTLED_REJECTED);
        }
        // As in `enqueue_reaction_job`: the flag only for a frame.
        if context.is_frame {
            job = job.with_flags(JobFlags::CONTEXT_FRAME);
        }
        job
    }
}

/// Runs one of this crate's jobs under the frame it captured
/// ([PromiseReactionJob](https://tc39.es/ecma262/#sec-newpromisereactionjob),
/// [PromiseResolveThenableJob](https://tc39.es/ecma262/#sec-newpromiseresolvethenablejob)).
///
/// # Errors
/// [`JobError`] if `job` is not a well-formed promise job; nothing ran.
pub fn run_promise_job<H: PromiseHost>(host: &mut H, job: &Job<H::Value>) -> Result<(), JobError> {
    let kind = job.kind();
    if !is_promise_job(kind) {
        return Err(JobError::NotAPromiseJob(kind));
    }
    with_job_context(host, job, |host| match kind {
        PROMISE_REACTION_JOB => {
            let flags = job.flags();
            let handler = flags.contains(HANDLER_PRESENT).then(|| job.arg(0));
            let capability = if flags.contains(HAS_CAPABILITY) {
                let promise = host.as_promise(job.arg(2)).ok_or(JobError::MalformedJob(kind, 2))?;
                PromiseCapability::Intrinsic(promise)
            } else {
                PromiseCapability::Undefined
            };
            promise_reaction_job(host, handler, capability, job.arg(1), flags.contains(SETTLED_REJECTED));
            Ok(())
        }
        PROMISE_REACTION_RECORD_JOB => {
            let cell = job
                .arg(0)
                .as_cell()
                .and_then(js_gc::GcAny::downcast::<FullReaction<H::Value, H::Promise>>)
                .ok_or(JobError::MalformedJob(kind, 0))?;
            let rejected = job.flags().contains(SETTLED_REJECTED);
            let record = cell.borrow(host.heap());
            let handler = if rejected { record.on_rejected } else { record.on_fulfilled };
            let handler = (handler != H::Value::undefined()).then_some(handler);
            let capability = record.capability;
            promise_reaction_job(host, handler, capability, job.arg(1), rejected);
            Ok(())
        }
        _ => {
            let promise = host.as_promise(job.arg(0)).ok_or(JobError::MalformedJob(kind, 0))?;
            promise_resolve_thenable_job(host, promise, job.arg(1), job.arg(2));
            Ok(())
        }
    })
}

/// The body of PromiseReactionJob: run the handler (or pass the argument
/// through) and settle the capability with the outcome.
fn promise_reaction_job<H: PromiseHost>(
    host: &mut H,
    handler: Option<H::Value>,
    capability: PromiseCapability<H::Value, H::Promise>,
    argument: H::Value,
    rejected: bool,
) {
    let undefined = H::Value::undefined();
    let outcome = match handler {
        None if rejected => Err(argument),
        None => Ok(argument),
        Some(handler) => host.call(handler, undefined, &[argument]),
    };
    match capability {
        // The spec asserts the handler cannot throw here (only internal
        // handlers run without a capability); a throw is dropped.
        PromiseCapability::Undefined => {}
        PromiseCapability::Intrinsic(promise) => match outcome {
            Ok(value) => promise_resolve_function(host, promise, value),
            Err(reason) => promise_reject_function(host, promise, reason),
        },
        PromiseCapability::Functions { resolve, reject, .. } => {
            // A throw from the capability's own functions propagates out of
            // the job in the spec; hosts report it, nothing here observes it.
            let _ = match outcome {
                Ok(value) => host.call(resolve, undefined, &[value]),
                Err(reason) => host.call(reject, undefined, &[reason]),
            };
        }
    }
}

/// The body of PromiseResolveThenableJob: call `then` on the thenable with
/// a fresh pair of resolving functions; a throw rejects through that pair.
fn promise_resolve_thenable_job<H: PromiseHost>(host: &mut H, promise: H::Promise, thenable: H::Value, then: H::Value) {
    let (resolve, reject) = create_resolving_functions(host, promise);
    let generation = host.promise_state(promise).generation();
    if let Err(thrown) = host.call(then, thenable, &[resolve, reject]) {
        call_resolving_function(host, ResolvingFunction { promise, generation, kind: ResolvingKind::Reject }, thrown);
    }
}

#[cfg(test)]
mod tests;
