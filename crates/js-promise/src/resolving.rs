//! Resolving functions, resolution, fulfilment, rejection and
//! TriggerPromiseReactions.

use js_gc::{Trace, Tracer};
use js_microtask::{Job, JobFlags};

use crate::error::PromiseError;
use crate::host::{PromiseHost, RejectionOperation};
use crate::jobs::{PROMISE_RESOLVE_THENABLE_JOB, QueuedReaction, enqueue_reaction_job};
use crate::reaction::{ContextSlot, InlineReaction, PromiseCapability, ReactionLink};
use crate::state::{PromiseState, Slots};

/// Which of the two resolving functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResolvingKind {
    /// The resolve function.
    Resolve,
    /// The reject function.
    Reject,
}

/// What a resolving function object made by
/// [`PromiseHost::create_resolving_function`] stores: its promise, the
/// generation standing in for its `alreadyResolved` record, and its kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResolvingFunction<P> {
    /// `[[Promise]]`.
    pub promise: P,
    /// The pair's generation (see [`PromiseState`]).
    pub generation: u32,
    /// Resolve or reject.
    pub kind: ResolvingKind,
}

// SAFETY: the promise is the only pointer.
unsafe impl<P: Trace> Trace for ResolvingFunction<P> {
    fn trace(&self, tracer: &mut Tracer) {
        self.promise.trace(tracer);
    }
}

/// [CreateResolvingFunctions](https://tc39.es/ecma262/#sec-createresolvingfunctions):
/// resolve and reject function objects for `promise`, for user code to see
/// (the `Promise` constructor's executor, `Promise.withResolvers`, the
/// thenable job).
///
/// A promise whose current pair has not been used yet gets that pair made
/// into objects (the pair every promise has from birth, kept as flags until
/// now); after the current pair resolved, a new generation starts (a fresh
/// `alreadyResolved`).
///
/// Deviation: two pairs made for one promise before either resolved would
/// share one `alreadyResolved`; ECMA-262 never makes such pairs.
pub fn create_resolving_functions<H: PromiseHost>(host: &mut H, promise: H::Promise) -> (H::Value, H::Value) {
    let state = host.promise_state(promise);
    if state.is_already_resolved() {
        state.generation = state.generation.wrapping_add(1);
        state.flags &= !PromiseState::<H::Value, H::Promise>::ALREADY_RESOLVED;
    }
    let generation = state.generation;
    let resolve =
        host.create_resolving_function(ResolvingFunction { promise, generation, kind: ResolvingKind::Resolve });
    let reject = host.create_resolving_function(ResolvingFunction { promise, generation, kind: ResolvingKind::Reject });
    (resolve, reject)
}

/// The behaviour of a resolving function object when called with
/// `argument` ([Promise Resolve Functions](https://tc39.es/ecma262/#sec-promise-resolve-functions),
/// [Promise Reject Functions](https://tc39.es/ecma262/#sec-promise-reject-functions)).
/// Does nothing once its pair has resolved.
pub fn call_resolving_function<H: PromiseHost>(
    host: &mut H,
    function: ResolvingFunction<H::Promise>,
    argument: H::Value,
) {
    if !take_resolution(host, function.promise, function.generation) {
        return;
    }
    match function.kind {
        ResolvingKind::Resolve => resolve_steps(host, function.promise, argument),
        ResolvingKind::Reject => reject_promise(host, function.promise, argument),
    }
}

/// Calls `promise`'s current resolve function with `resolution`, without
/// making it an object: how a job settles an intrinsic capability and how
/// the host settles its internal promises (an async function's result).
pub fn promise_resolve_function<H: PromiseHost>(host: &mut H, promise: H::Promise, resolution: H::Value) {
    let generation = host.promise_state(promise).generation;
    call_resolving_function(host, ResolvingFunction { promise, generation, kind: ResolvingKind::Resolve }, resolution);
}

/// Calls `promise`'s current reject function with `reason`, without making
/// it an object.
pub fn promise_reject_function<H: PromiseHost>(host: &mut H, promise: H::Promise, reason: H::Value) {
    let generation = host.promise_state(promise).generation;
    call_resolving_function(host, ResolvingFunction { promise, generation, kind: ResolvingKind::Reject }, reason);
}

/// Checks and sets `alreadyResolved` of the pair `generation`.
fn take_resolution<H: PromiseHost>(host: &mut H, promise: H::Promise, generation: u32) -> bool {
    let state = host.promise_state(promise);
    if state.generation != generation || state.is_already_resolved() {
        return false;
    }
    state.flags |= PromiseState::<H::Value, H::Promise>::ALREADY_RESOLVED;
    true
}

/// Steps 7 to 16 of the resolve function: self-resolution, non-objects,
/// exactly one `Get(resolution, "then")`, and the thenable job.
fn resolve_steps<H: PromiseHost>(host: &mut H, promise: H::Promise, resolution: H::Value) {
    if host.as_promise(resolution) == Some(promise) {
        let error = host.type_error(PromiseError::SelfResolution);
        reject_promise(host, promise, error);
        return;
    }
    if !host.is_object(resolution) {
        fulfill_promise(host, promise, resolution);
        return;
    }
    let then = match host.get_then(resolution) {
        Ok(then) => then,
        Err(thrown) => {
            reject_promise(host, promise, thrown);
            return;
        }
    };
    if !host.is_callable(then) {
        fulfill_promise(host, promise, resolution);
        return;
    }
    // NewPromiseResolveThenableJob(promise, resolution, then), with the
    // context captured as HostMakeJobCallback would.
    let context = host.capture_reaction_context();
    let mut job =
        Job::new(PROMISE_RESOLVE_THENABLE_JOB, [host.promise_value(promise), resolution, then, context.value]);
    if context.is_frame {
        job = job.with_flags(JobFlags::CONTEXT_FRAME);
    }
    host.enqueue_job(job);
}

/// [FulfillPromise](https://tc39.es/ecma262/#sec-fulfillpromise): settles
/// a pending `promise` with `value` and triggers its reactions.
///
/// # Panics
/// In debug builds, if `promise` is not pending.
pub fn fulfill_promise<H: PromiseHost>(host: &mut H, promise: H::Promise, value: H::Value) {
    settle(host, promise, value, false);
}

/// [RejectPromise](https://tc39.es/ecma262/#sec-rejectpromise): settles a
/// pending `promise` with `reason`, reports it to the rejection tracker if
/// nothing handles it, and triggers its reactions.
///
/// # Panics
/// In debug builds, if `promise` is not pending.
pub fn reject_promise<H: PromiseHost>(host: &mut H, promise: H::Promise, reason: H::Value) {
    settle(host, promise, reason, true);
}

fn settle<H: PromiseHost>(host: &mut H, promise: H::Promise, value: H::Value, rejected: bool) {
    let state = host.promise_state(promise);
    let settled = if rejected { Slots::Rejected(value) } else { Slots::Fulfilled(value) };
    let Slots::Pending(reactions) = std::mem::replace(&mut state.slots, settled) else {
        debug_assert!(false, "a settled promise was settled again");
        return;
    };
    let inline_is_frame = state.flags & PromiseState::<H::Value, H::Promise>::INLINE_CONTEXT_FRAME != 0;
    state.flags &= !PromiseState::<H::Value, H::Promise>::INLINE_CONTEXT_FRAME;
    if rejected && !state.is_handled() {
        host.promise_rejection_tracker(promise, RejectionOperation::Reject);
    }
    // TriggerPromiseReactions: one job per reaction, in registration order.
    if let Some(inline) = reactions.inline {
        let context = ContextSlot { value: reactions.inline_context, is_frame: inline_is_frame };
        enqueue_reaction_job(host, QueuedReaction::Inline(inline), value, rejected, context);
    }
    let mut link = reactions.head;
    while let Some(current) = link.and_then(ReactionLink::from_any) {
        link = trigger_cell(host, current, value, rejected);
    }
}

/// Queues the job of one reaction cell; returns the next cell.
fn trigger_cell<H: PromiseHost>(
    host: &mut H,
    link: ReactionLink<H::Value, H::Promise>,
    argument: H::Value,
    rejected: bool,
) -> Option<js_gc::GcAny> {
    let heap = host.heap();
    let (reaction, context, next) = match link {
        ReactionLink::Slim(cell) => {
            let slim = cell.borrow(heap);
            let context = slim.context_slot();
            (QueuedReaction::Inline(InlineReaction::Slim(slim.continuation)), context, slim.next)
        }
        ReactionLink::Full(cell) => {
            let full = cell.borrow(heap);
            let context = full.context_slot();
            let capability = match full.capability {
                PromiseCapability::Undefined => Some(None),
                PromiseCapability::Intrinsic(promise) => Some(Some(promise)),
                PromiseCapability::Functions { .. } => None,
            };
            let reaction = match capability {
                Some(capability) => QueuedReaction::Inline(InlineReaction::Full {
                    on_fulfilled: full.on_fulfilled,
                    on_rejected: full.on_rejected,
                    capability,
                }),
                None => QueuedReaction::Record(cell),
            };
            (reaction, context, full.next)
        }
    };
    enqueue_reaction_job(host, reaction, argument, rejected, context);
    next
}
