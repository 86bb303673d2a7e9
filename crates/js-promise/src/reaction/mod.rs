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

use js_gc::{Gc, GcAny, Trace, Tracer};
use js_microtask::JobKind;

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

/// The context slot of a reaction: the async-context frame captured at
/// registration (`is_frame`), or `undefined`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContextSlot<V> {
    /// The frame, as a value made by [`PromiseValue::from_cell`], or
    /// `undefined`.
    pub value: V,
    /// Whether `value` holds a frame.
    pub is_frame: bool,
}

impl<V: PromiseValue> ContextSlot<V> {
    /// No frame.
    pub fn none() -> Self {
        Self { value: V::undefined(), is_frame: false }
    }
}

/// Flag bits of a reaction cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReactionFlags(u8);

impl ReactionFlags {
    /// The context slot holds an async-context frame.
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
    /// The context slot.
    pub context: V,
    /// [`ReactionFlags::CONTEXT_FRAME`] if `context` is a frame.
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
    /// The context slot.
    pub context: V,
    /// [`ReactionFlags::CONTEXT_FRAME`] if `context` is a frame.
    pub flags: ReactionFlags,
    /// The next reaction of the same promise (a [`ReactionLink`]).
    pub next: Option<GcAny>,
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
