//! Promise reactions in their three representations.
//!
//! * **Inline**: a promise's first reaction lives in its own cell
//!   ([`InlineReaction`] inside [`PromiseState`](crate::PromiseState)); adding
//!   it allocates nothing. Its context-slot flag is a bit of the promise's
//!   flags.
//! * **Slim** ([`SlimReaction`]): an internal continuation (await, async
//!   generator steps, `for await`, streams algorithms): a host job kind, one
//!   payload value and the context slot.
//! * **Full** ([`FullReaction`]): a `then` reaction with handlers, the result
//!   capability and the context slot
//!   ([PromiseReaction Records](https://tc39.es/ecma262/#sec-promisereaction-records)).
//!
//! Reactions after the first are cells chained in registration order.

use std::fmt;

use js_async_context::Frame;
use js_gc::{Gc, GcAny, Trace, Tracer};
use js_microtask::{CONTEXT_SLOT, Job, JobFlags, JobKind};

use crate::value::PromiseValue;

/// An internal continuation: what a slim reaction does when its promise
/// settles. The host's job `job` is queued with the payload in slot 0, the
/// settlement value in slot 1, the context in slot 3, and
/// [`SETTLED_REJECTED`](crate::SETTLED_REJECTED) if the promise was
/// rejected. Read it back with [`ContinuationJob`](crate::ContinuationJob).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Continuation<V> {
    /// The host's job kind that resumes the computation.
    pub job: JobKind,
    /// Its payload (the suspended async function's frame, a stream...).
    pub data: V,
}

// SAFETY: the payload is the only value a continuation owns.
unsafe impl<V: Trace> Trace for Continuation<V> {
    const NEEDS_TRACE: bool = V::NEEDS_TRACE;
    fn trace(&self, tracer: &mut Tracer) {
        self.data.trace(tracer);
    }
}

/// The `[[Capability]]` of a full reaction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PromiseCapability<V, P> {
    /// `undefined`: the reaction's result is dropped (`PerformPromiseThen`
    /// without a result capability).
    Undefined,
    /// A native promise made by `%Promise%` whose resolving functions were
    /// never observable, so they were never made: the job settles the
    /// promise directly.
    Intrinsic(P),
    /// A capability made by `NewPromiseCapability(C)` for another
    /// constructor: its promise and its resolve and reject functions.
    Functions {
        /// `[[Promise]]`.
        promise: V,
        /// `[[Resolve]]`.
        resolve: V,
        /// `[[Reject]]`.
        reject: V,
    },
}

// SAFETY: every value and promise the capability holds is traced.
unsafe impl<V: Trace, P: Trace> Trace for PromiseCapability<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::Undefined => {}
            Self::Intrinsic(promise) => promise.trace(tracer),
            Self::Functions { promise, resolve, reject } => {
                promise.trace(tracer);
                resolve.trace(tracer);
                reject.trace(tracer);
            }
        }
    }
}

/// A promise's first reaction, stored in its cell. A full reaction whose
/// capability is [`PromiseCapability::Functions`] is never inline (its three
/// functions would not fit a job), so inline full reactions carry at most a
/// promise.
///
/// Handlers are callable or empty; `undefined` (never callable) stands for
/// empty, here and in [`FullReaction`] and [`NewReaction`], so a handler
/// costs one value and no tag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InlineReaction<V, P> {
    /// A slim reaction.
    Slim(Continuation<V>),
    /// A full reaction with an `undefined` (`None`) or intrinsic capability.
    Full {
        /// `[[Handler]]` of the fulfil reaction; `undefined` is empty.
        on_fulfilled: V,
        /// `[[Handler]]` of the reject reaction; `undefined` is empty.
        on_rejected: V,
        /// The capability's promise, if there is a capability.
        capability: Option<P>,
    },
}

// SAFETY: every value and promise the reaction holds is traced.
unsafe impl<V: Trace, P: Trace> Trace for InlineReaction<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::Slim(continuation) => continuation.trace(tracer),
            Self::Full { on_fulfilled, on_rejected, capability } => {
                on_fulfilled.trace(tracer);
                on_rejected.trace(tracer);
                capability.trace(tracer);
            }
        }
    }
}

/// The context slot of a reaction or job, packed as it is stored: one
/// value and one flag bit. With `is_frame` the value is the async-context
/// frame captured at registration (a value made by
/// [`PromiseValue::from_cell`]); without it the value is an
/// embedder-defined context (Node's `AsyncResource`-style resource, a
/// browser's incumbent settings object), `undefined` meaning no context.
///
/// The slot has room for one of the two: an embedder that needs both a
/// frame and its own context stores a context value of its own that holds
/// the frame, and installs the frame itself when told the context is
/// entered (see [`PromiseHost::enter_embedder_context`](crate::PromiseHost::enter_embedder_context)).
/// [`kind`](Self::kind) unpacks the slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContextSlot<V> {
    /// The frame (as a value made by [`PromiseValue::from_cell`]), the
    /// embedder's context, or `undefined`.
    pub value: V,
    /// Whether `value` holds a frame (else an embedder context).
    pub is_frame: bool,
}

/// What a [`ContextSlot`] holds, unpacked: what a job runs under.
#[derive(Clone, Copy, PartialEq)]
pub enum ContextKind<V> {
    /// No context: the job runs with no frame and no embedder context.
    None,
    /// An async-context frame: the job runs with it current.
    Frame(Frame<V>),
    /// An embedder-defined context: the job runs with no frame, between
    /// the host's [`enter_embedder_context`](crate::PromiseHost::enter_embedder_context)
    /// and [`leave_embedder_context`](crate::PromiseHost::leave_embedder_context).
    Embedder(V),
}

impl<V: fmt::Debug> fmt::Debug for ContextKind<V>
where
    Frame<V>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::None => f.write_str("None"),
            Self::Frame(frame) => f.debug_tuple("Frame").field(frame).finish(),
            Self::Embedder(context) => f.debug_tuple("Embedder").field(context).finish(),
        }
    }
}

impl<V: PromiseValue> ContextSlot<V> {
    /// No context.
    #[inline]
    pub fn none() -> Self {
        Self { value: V::undefined(), is_frame: false }
    }

    /// The slot holding `frame`.
    #[inline]
    pub fn frame(frame: Frame<V>) -> Self {
        Self { value: V::from_cell(frame.as_any()), is_frame: true }
    }

    /// The slot holding the embedder's `context` (`undefined` is no
    /// context).
    #[inline]
    pub fn embedder(context: V) -> Self {
        Self { value: context, is_frame: false }
    }

    /// The slot a job carries: slot [`CONTEXT_SLOT`] with
    /// [`JobFlags::CONTEXT_FRAME`] saying whether it is a frame.
    #[inline]
    pub fn of_job(job: &Job<V>) -> Self {
        Self { value: job.arg(CONTEXT_SLOT), is_frame: job.flags().contains(JobFlags::CONTEXT_FRAME) }
    }

    /// `job` carrying this slot: the value in slot [`CONTEXT_SLOT`], and
    /// [`JobFlags::CONTEXT_FRAME`] set if it is a frame (cleared if not).
    #[inline]
    #[must_use]
    pub fn store_in(self, job: Job<V>) -> Job<V> {
        if self.is_frame { job.with_context_frame(self.value) } else { job.with_embedder_context(self.value) }
    }

    /// What the slot holds. A slot flagged as a frame whose value is not a
    /// frame cell of this `V` reads as no context.
    #[inline]
    pub fn kind(&self) -> ContextKind<V> {
        if self.is_frame {
            self.value.as_cell().and_then(Frame::from_any).map_or(ContextKind::None, ContextKind::Frame)
        } else if self.value == V::undefined() {
            ContextKind::None
        } else {
            ContextKind::Embedder(self.value)
        }
    }

    /// The slot stored as `value` with reaction flags `flags`.
    #[inline]
    pub fn from_reaction(value: V, flags: ReactionFlags) -> Self {
        Self { value, is_frame: flags.contains(ReactionFlags::CONTEXT_FRAME) }
    }
}

/// Flag bits of a reaction cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReactionFlags(u8);

impl ReactionFlags {
    /// The context slot holds an async-context frame. Clear, it holds an
    /// embedder context (`undefined` for none).
    pub const CONTEXT_FRAME: Self = Self(1);

    /// The flags of a reaction whose context slot is `slot`.
    pub fn for_slot<V>(slot: &ContextSlot<V>) -> Self {
        if slot.is_frame { Self::CONTEXT_FRAME } else { Self(0) }
    }

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
}

/// A reaction cell after the first, of either kind. Links are stored as
/// [`GcAny`] (one word) and told apart by the cell's type.
#[derive(Debug)]
pub enum ReactionLink<V: PromiseValue, P: Trace + 'static> {
    /// A slim reaction.
    Slim(Gc<SlimReaction<V, P>>),
    /// A full reaction.
    Full(Gc<FullReaction<V, P>>),
}

impl<V: PromiseValue, P: Trace + 'static> ReactionLink<V, P> {
    /// The link to the reaction cell `cell`, if it is one of these.
    pub fn from_any(cell: GcAny) -> Option<Self> {
        cell.downcast().map(Self::Slim).or_else(|| cell.downcast().map(Self::Full))
    }

    /// The cell, type erased.
    pub fn as_any(self) -> GcAny {
        match self {
            Self::Slim(cell) => cell.as_any(),
            Self::Full(cell) => cell.as_any(),
        }
    }
}

impl<V: PromiseValue, P: Trace + 'static> Clone for ReactionLink<V, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: PromiseValue, P: Trace + 'static> Copy for ReactionLink<V, P> {}

// SAFETY: one edge to the cell.
unsafe impl<V: PromiseValue, P: Trace + 'static> Trace for ReactionLink<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::Slim(cell) => cell.trace(tracer),
            Self::Full(cell) => cell.trace(tracer),
        }
    }
}

/// A slim reaction cell: a continuation and the context slot.
#[derive(Debug)]
pub struct SlimReaction<V: PromiseValue, P: Trace + 'static> {
    /// What to resume.
    pub continuation: Continuation<V>,
    /// The context slot's value: a frame or an embedder context.
    pub context: V,
    /// [`ReactionFlags::CONTEXT_FRAME`] if `context` is a frame (else it is
    /// an embedder context).
    pub flags: ReactionFlags,
    /// The next reaction of the same promise (a [`ReactionLink`]).
    pub next: Option<GcAny>,
    _promise: std::marker::PhantomData<P>,
}

impl<V: PromiseValue, P: Trace + 'static> SlimReaction<V, P> {
    /// A slim reaction with no successor.
    pub fn new(continuation: Continuation<V>, context: &ContextSlot<V>) -> Self {
        Self {
            continuation,
            context: context.value,
            flags: ReactionFlags::for_slot(context),
            next: None,
            _promise: std::marker::PhantomData,
        }
    }

    /// The context slot, with its flag.
    pub fn context_slot(&self) -> ContextSlot<V> {
        ContextSlot::from_reaction(self.context, self.flags)
    }
}

// SAFETY: continuation, context and the next link are all the pointers the
// cell owns.
unsafe impl<V: PromiseValue, P: Trace + 'static> Trace for SlimReaction<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        self.continuation.trace(tracer);
        self.context.trace(tracer);
        self.next.trace(tracer);
    }

    fn type_name() -> &'static str {
        "PromiseSlimReaction"
    }
}

/// A full reaction cell: a `PromiseReaction` record for both outcomes
/// (the spec's fulfil and reject records share capability and context).
#[derive(Debug)]
pub struct FullReaction<V: PromiseValue, P: Trace + 'static> {
    /// The fulfil handler; `undefined` is empty.
    pub on_fulfilled: V,
    /// The reject handler; `undefined` is empty.
    pub on_rejected: V,
    /// `[[Capability]]`.
    pub capability: PromiseCapability<V, P>,
    /// The context slot's value: a frame or an embedder context.
    pub context: V,
    /// [`ReactionFlags::CONTEXT_FRAME`] if `context` is a frame (else it is
    /// an embedder context).
    pub flags: ReactionFlags,
    /// The next reaction of the same promise (a [`ReactionLink`]).
    pub next: Option<GcAny>,
}

impl<V: PromiseValue, P: Trace + 'static> FullReaction<V, P> {
    /// The context slot, with its flag.
    pub fn context_slot(&self) -> ContextSlot<V> {
        ContextSlot::from_reaction(self.context, self.flags)
    }
}

// SAFETY: handlers, capability, context and the next link are all the
// pointers the cell owns.
unsafe impl<V: PromiseValue, P: Trace + 'static> Trace for FullReaction<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        self.on_fulfilled.trace(tracer);
        self.on_rejected.trace(tracer);
        self.capability.trace(tracer);
        self.context.trace(tracer);
        self.next.trace(tracer);
    }

    fn type_name() -> &'static str {
        "PromiseReaction"
    }
}

/// A reaction being registered, before it has a representation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NewReaction<V, P> {
    /// An internal continuation.
    Slim(Continuation<V>),
    /// A `then` reaction.
    Full {
        /// The fulfil handler; `undefined` is empty.
        on_fulfilled: V,
        /// The reject handler; `undefined` is empty.
        on_rejected: V,
        /// The result capability.
        capability: PromiseCapability<V, P>,
    },
}

impl<V: Copy, P: Copy> NewReaction<V, P> {
    /// The inline form, if the reaction has one.
    pub(crate) fn as_inline(&self) -> Option<InlineReaction<V, P>> {
        match *self {
            Self::Slim(continuation) => Some(InlineReaction::Slim(continuation)),
            Self::Full { on_fulfilled, on_rejected, capability } => {
                let capability = match capability {
                    PromiseCapability::Undefined => None,
                    PromiseCapability::Intrinsic(promise) => Some(promise),
                    PromiseCapability::Functions { .. } => return None,
                };
                Some(InlineReaction::Full { on_fulfilled, on_rejected, capability })
            }
        }
    }
}

#[cfg(test)]
mod tests;
