//! `PromiseState`: the promise slots the host embeds in its promise cell.

use js_gc::{Trace, Tracer};

use js_gc::GcAny;

use crate::reaction::{ContextSlot, InlineReaction, ReactionLink};
use crate::value::PromiseValue;

/// `[[PromiseState]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromiseStatus {
    /// `pending`.
    Pending,
    /// `fulfilled`.
    Fulfilled,
    /// `rejected`.
    Rejected,
}

/// The reactions of a pending promise, in registration order: the inline
/// one, then the chain of cells.
#[derive(Debug)]
pub(crate) struct PendingReactions<V: PromiseValue, P: Trace + 'static> {
    pub(crate) inline: Option<InlineReaction<V, P>>,
    /// The inline reaction's context slot (a frame if
    /// [`PromiseState::INLINE_CONTEXT_FRAME`] is set, else an embedder
    /// context).
    pub(crate) inline_context: V,
    /// The first and last reaction cells ([`ReactionLink`]s).
    pub(crate) head: Option<GcAny>,
    pub(crate) tail: Option<GcAny>,
}

#[derive(Debug)]
pub(crate) enum Slots<V: PromiseValue, P: Trace + 'static> {
    Pending(PendingReactions<V, P>),
    Fulfilled(V),
    Rejected(V),
}

/// The internal slots of a promise (`[[PromiseState]]`,
/// `[[PromiseResult]]`, `[[PromiseFulfillReactions]]`,
/// `[[PromiseRejectReactions]]`, `[[PromiseIsHandled]]`) plus what the lazily
/// made resolving functions need. The host embeds one in each promise cell
/// and traces it from the cell.
///
/// Result and reactions share storage: a pending promise has reactions and
/// no result, a settled one a result and no reactions.
///
/// Resolving functions are identified by a generation instead of sharing an
/// `alreadyResolved` record: a promise has at most one pair that is not yet
/// resolved (a new pair is only made by the thenable job, after the previous
/// pair resolved), so "already resolved" is "an older generation, or the
/// current one with [`ALREADY_RESOLVED`](Self::is_already_resolved) set".
/// Generation 0 is the pair every promise has from birth; it is made into
/// function objects only when user code could see it.
#[derive(Debug)]
pub struct PromiseState<V: PromiseValue, P: Trace + 'static> {
    pub(crate) slots: Slots<V, P>,
    pub(crate) flags: u8,
    pub(crate) generation: u32,
}

impl<V: PromiseValue, P: Trace + 'static> PromiseState<V, P> {
    pub(crate) const IS_HANDLED: u8 = 1;
    pub(crate) const ALREADY_RESOLVED: u8 = 2;
    pub(crate) const INLINE_CONTEXT_FRAME: u8 = 4;

    /// A pending promise with no reactions, not handled, not resolved.
    pub fn new() -> Self {
        Self {
            slots: Slots::Pending(PendingReactions {
                inline: None,
                inline_context: V::undefined(),
                head: None,
                tail: None,
            }),
            flags: 0,
            generation: 0,
        }
    }

    /// `[[PromiseState]]`.
    pub fn status(&self) -> PromiseStatus {
        match self.slots {
            Slots::Pending(_) => PromiseStatus::Pending,
            Slots::Fulfilled(_) => PromiseStatus::Fulfilled,
            Slots::Rejected(_) => PromiseStatus::Rejected,
        }
    }

    /// `[[PromiseResult]]`: `None` while pending.
    pub fn result(&self) -> Option<V> {
        match self.slots {
            Slots::Pending(_) => None,
            Slots::Fulfilled(value) | Slots::Rejected(value) => Some(value),
        }
    }

    /// `[[PromiseIsHandled]]`.
    pub fn is_handled(&self) -> bool {
        self.flags & Self::IS_HANDLED != 0
    }

    /// Sets `[[PromiseIsHandled]]` (as `%Promise.prototype.then%` and
    /// hosts that consume a rejection themselves do).
    pub fn mark_handled(&mut self) {
        self.flags |= Self::IS_HANDLED;
    }

    /// Whether the current resolving functions have been used.
    pub fn is_already_resolved(&self) -> bool {
        self.flags & Self::ALREADY_RESOLVED != 0
    }

    /// The generation of the current resolving functions.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// The context slot of the inline reaction, if the promise is pending
    /// and has one: its value is stored in the promise cell, and a flag bit
    /// of the state says whether it is a frame or an embedder context.
    pub fn inline_context(&self) -> Option<ContextSlot<V>> {
        match &self.slots {
            Slots::Pending(reactions) if reactions.inline.is_some() => Some(ContextSlot {
                value: reactions.inline_context,
                is_frame: self.flags & Self::INLINE_CONTEXT_FRAME != 0,
            }),
            _ => None,
        }
    }

    /// Whether the promise is pending with no reactions.
    pub fn has_no_reactions(&self) -> bool {
        match &self.slots {
            Slots::Pending(reactions) => reactions.inline.is_none() && reactions.head.is_none(),
            _ => true,
        }
    }

    /// The number of registered reactions and how many are inline (0 or 1).
    pub fn reaction_count(&self, heap: &js_gc::Heap) -> (usize, usize) {
        let Slots::Pending(reactions) = &self.slots else { return (0, 0) };
        let inline = usize::from(reactions.inline.is_some());
        let mut count = inline;
        let mut link = reactions.head;
        while let Some(current) = link.and_then(ReactionLink::<V, P>::from_any) {
            count += 1;
            link = match current {
                ReactionLink::Slim(cell) => cell.borrow(heap).next,
                ReactionLink::Full(cell) => cell.borrow(heap).next,
            };
        }
        (count, inline)
    }
}

impl<V: PromiseValue, P: Trace + 'static> Default for PromiseState<V, P> {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: the result, the inline reaction with its context slot and the
// first and last reaction cells are all the pointers the state owns (the
// chain's other cells are reached through `next`).
unsafe impl<V: PromiseValue, P: Trace + 'static> Trace for PromiseState<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match &self.slots {
            Slots::Pending(reactions) => {
                reactions.inline.trace(tracer);
                reactions.inline_context.trace(tracer);
                reactions.head.trace(tracer);
                reactions.tail.trace(tracer);
            }
            Slots::Fulfilled(value) | Slots::Rejected(value) => value.trace(tracer),
        }
    }
}

#[cfg(test)]
mod tests;
