//! Spec-exact promise machinery for a JavaScript engine: the promise state
//! a host embeds in its promise cells, reactions in three representations,
//! resolving functions made only when user code can see them, rejection
//! tracking, and the steps of `await` with its fast paths.
//!
//! The shape of a host (a complete one, over js-gc cells and a js-microtask
//! queue, is the test host in `tests/all/host.rs`):
//!
//! ```text
//! // In the host's promise cell:
//! struct PromiseObject { state: PromiseState<Value, Gc<PromiseObject>>, /* properties */ }
//! // `p.then(f)`:
//! let derived = promise_then(vm, p, f, undefined);
//! // `await v` in an async function:
//! await_value(vm, v, Continuation { job: RESUME_ASYNC, data: frame })?;
//! // The host's microtask loop:
//! if is_promise_job(job.kind()) { run_promise_job(vm, &job)?; } else { /* host kinds */ }
//! ```
//!
//! # What it owns
//!
//! * [`PromiseState`]: `[[PromiseState]]`, `[[PromiseResult]]`, the
//!   reactions, `[[PromiseIsHandled]]` and the resolving-function generation,
//!   embedded by the host in its own promise cell and traced from it.
//! * The algorithms, as functions over [`PromiseHost`]:
//!   [`create_resolving_functions`], [`call_resolving_function`]
//!   (resolution with exactly one `Get("then")`, the self-resolution
//!   TypeError, NewPromiseResolveThenableJob), [`fulfill_promise`],
//!   [`reject_promise`] (TriggerPromiseReactions), [`perform_promise_then`],
//!   [`promise_then`], [`run_promise_job`] (PromiseReactionJob,
//!   PromiseResolveThenableJob), HostPromiseRejectionTracker calls with
//!   [`RejectionOperation::Reject`] and [`RejectionOperation::Handle`], and
//!   [`await_value`].
//! * Reactions: **inline** (a promise's first reaction is stored in its
//!   cell: no allocation), **slim** ([`SlimReaction`]: an internal
//!   [`Continuation`] and a context slot) and **full** ([`FullReaction`]:
//!   handlers, capability, context slot). A flag bit on each reaction cell,
//!   and on the promise for its inline reaction, says whether the context
//!   slot holds an async-context frame or an embedder context
//!   ([`ContextSlot`], unpacked as [`ContextKind`]). Jobs carry the frame in
//!   their fourth slot with [`js_microtask::JobFlags::CONTEXT_FRAME`], and
//!   an embedder context in the same slot without it.
//!
//! # The embedder's side
//!
//! The host implements [`PromiseHost`] (and
//! [`js_async_context::ContextHost`]) on its VM: value tests, `Get("then")`,
//! calls, function objects for resolving functions, TypeErrors, the job
//! queue and the rejection tracker. Its microtask loop hands the crate's
//! jobs ([`is_promise_job`]) to [`run_promise_job`] and runs its own
//! continuation jobs (the [`Continuation::job`] kinds) with
//! [`ContinuationJob::read`] under [`with_job_context`]. Promise jobs run
//! under [`js_async_context::SwapScope`] with the frame captured when the
//! reaction or job was registered.
//!
//! A host with a context of its own (Node's `AsyncResource`-style async
//! ids, a browser's incumbent settings object) stores it in the context
//! slot instead of the frame by overriding
//! [`PromiseHost::capture_reaction_context`] (returning
//! [`ContextSlot::embedder`]); a job carrying one runs with no frame,
//! between [`PromiseHost::enter_embedder_context`] and
//! [`PromiseHost::leave_embedder_context`]. Its own jobs carry one with
//! [`ContextSlot::store_in`].
//!
//! # Performance decisions
//!
//! * A promise's first reaction is inline: `await` of a pending promise and
//!   `p.then(f)` on a fresh `p` allocate no reaction object. Later reactions
//!   are cells linked in registration order (slim ones are smaller).
//! * Internal promises (derived promises of `then` with the intrinsic
//!   constructor, promises made by `await`) never get resolving function
//!   objects: a generation number in the state stands in for the
//!   `alreadyResolved` record, and function objects are made only by
//!   [`create_resolving_functions`].
//! * The async-context frame, or the embedder's context, rides in slots
//!   reactions and jobs already have, with a flag bit saying which: an
//!   active frame or embedder context adds no object and no byte.
//! * Await fast paths: a non-object or a settled native promise with the
//!   intrinsic `constructor` is resumed by a job queued at once; a pending one
//!   gets an inline or slim reaction; spec ordering is kept on every path.
//!
//! # Allocation per operation
//!
//! Heap cells each operation makes, the same with no context, an active
//! async-context frame or an embedder context (asserted by
//! `tests/all/allocation.rs` with [`js_gc::HeapStats`]):
//!
//! | operation | cells |
//! |---|---|
//! | `await` of a non-object | none |
//! | `await` of a settled native promise | none |
//! | `await` of a pending native promise, first reaction | none (inline) |
//! | `await` of a pending native promise, later reaction | 1 [`SlimReaction`] |
//! | `pending.then(f)`, `pending.then(f, g)`, first reaction | 1 promise (the derived one; inline reaction, no resolving functions) |
//! | `pending.then(f)`, later reaction | 1 promise, 1 [`FullReaction`] |
//!
//! With an 8-byte value, a promise's state is 64 bytes (its inline reaction
//! included), a slim reaction 40, a full one 72.
//!
//! # Limits
//!
//! Jobs carry four slots, so a settled full reaction whose capability has
//! functions (a subclass's `then`) is carried as its cell. The crate claims
//! job kinds `0xFF00..=0xFF02` ([`JOB_KINDS`], for the host's
//! [`js_microtask::JobKindSpace`]) and embedder job flag bits 0 to 2.

#![allow(
    clippy::doc_markdown,
    reason = "spec operation names (PerformPromiseThen, TypeError) are prose here, not code"
)]

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod awaiting;
mod context;
mod error;
mod host;
mod jobs;
mod reaction;
mod resolving;
mod state;
#[cfg(test)]
mod test_value;
mod then;
mod value;

pub use awaiting::{AwaitPath, await_value, promise_resolve};
pub use context::{capture_context, job_context, job_frame, with_job_context};
pub use error::PromiseError;
pub use host::{PromiseHost, RejectionOperation};
pub use jobs::{
    ContinuationJob, HANDLER_PRESENT, HAS_CAPABILITY, JOB_KINDS, JobError, PROMISE_REACTION_JOB,
    PROMISE_REACTION_RECORD_JOB, PROMISE_RESOLVE_THENABLE_JOB, SETTLED_REJECTED, is_promise_job, run_promise_job,
};
pub use reaction::{
    ContextKind, ContextSlot, Continuation, FullReaction, InlineReaction, NewReaction, PromiseCapability,
    ReactionFlags, ReactionLink, SlimReaction,
};
pub use resolving::{
    ResolvingFunction, ResolvingKind, call_resolving_function, create_resolving_functions, fulfill_promise,
    promise_reject_function, promise_resolve_function, reject_promise,
};
pub use state::{PromiseState, PromiseStatus};
pub use then::{perform_promise_then, perform_promise_then_continuation, promise_then};
pub use value::PromiseValue;
