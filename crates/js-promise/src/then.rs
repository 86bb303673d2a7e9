//! PerformPromiseThen and `%Promise.prototype.then%` with the intrinsic
//! constructor.

use crate::host::{PromiseHost, RejectionOperation};
use crate::jobs::{QueuedReaction, enqueue_reaction_job};
use crate::reaction::{
    Continuation, FullReaction, NewReaction, PromiseCapability, ReactionFlags, ReactionLink, SlimReaction,
};
use crate::state::{PromiseState, Slots};
use crate::value::PromiseValue;

/// [PerformPromiseThen](https://tc39.es/ecma262/#sec-performpromisethen)
/// with user handlers: non-callable handlers are empty. The reaction is
/// inline if it is the promise's first and its capability is not
/// [`PromiseCapability::Functions`], else a [`FullReaction`] cell.
pub fn perform_promise_then<H: PromiseHost>(
    host: &mut H,
    promise: H::Promise,
    on_fulfilled: H::Value,
    on_rejected: H::Value,
    capability: PromiseCapability<H::Value, H::Promise>,
) {
    let empty = H::Value::undefined();
    let on_fulfilled = if host.is_callable(on_fulfilled) { on_fulfilled } else { empty };
    let on_rejected = if host.is_callable(on_rejected) { on_rejected } else { empty };
    add_reaction(host, promise, NewReaction::Full { on_fulfilled, on_rejected, capability });
}

/// PerformPromiseThen with an internal continuation and no result
/// capability (await, async-generator steps, `for await`, streams): an
/// inline reaction if it is the promise's first, else a [`SlimReaction`]
/// cell. No function objects are made.
pub fn perform_promise_then_continuation<H: PromiseHost>(
    host: &mut H,
    promise: H::Promise,
    continuation: Continuation<H::Value>,
) {
    add_reaction(host, promise, NewReaction::Slim(continuation));
}

/// [`%Promise.prototype.then%`](https://tc39.es/ecma262/#sec-promise.prototype.then)
/// on a native promise whose species constructor is `%Promise%` (the host
/// checks that): the derived promise is made without resolving functions.
/// Returns it.
pub fn promise_then<H: PromiseHost>(
    host: &mut H,
    promise: H::Promise,
    on_fulfilled: H::Value,
    on_rejected: H::Value,
) -> H::Promise {
    let derived = host.new_promise();
    perform_promise_then(host, promise, on_fulfilled, on_rejected, PromiseCapability::Intrinsic(derived));
    derived
}

/// Registers `reaction` on `promise`, or queues its job if `promise` is
/// settled; marks the promise handled.
pub(crate) fn add_reaction<H: PromiseHost>(
    host: &mut H,
    promise: H::Promise,
    reaction: NewReaction<H::Value, H::Promise>,
) {
    let context = host.capture_reaction_context();
    let state = host.promise_state(promise);
    let (argument, rejected) = match &mut state.slots {
        Slots::Pending(reactions) => {
            state.flags |= PromiseState::<H::Value, H::Promise>::IS_HANDLED;
            if reactions.inline.is_none()
                && reactions.head.is_none()
                && let Some(inline) = reaction.as_inline()
            {
                reactions.inline = Some(inline);
                reactions.inline_context = context.value;
                if context.is_frame {
                    state.flags |= PromiseState::<H::Value, H::Promise>::INLINE_CONTEXT_FRAME;
                } else {
                    state.flags &= !PromiseState::<H::Value, H::Promise>::INLINE_CONTEXT_FRAME;
                }
            } else {
                append_cell(host, promise, reaction, context);
            }
            return;
        }
        Slots::Fulfilled(value) => (*value, false),
        Slots::Rejected(reason) => (*reason, true),
    };
    // The tracker sees `[[PromiseIsHandled]]` still false, as in the spec.
    if rejected && !state.is_handled() {
        host.promise_rejection_tracker(promise, RejectionOperation::Handle);
    }
    host.promise_state(promise).mark_handled();
    let queued = match reaction.as_inline() {
        Some(inline) => QueuedReaction::Inline(inline),
        None => QueuedReaction::Record(new_full_cell(host, reaction, context)),
    };
    enqueue_reaction_job(host, queued, argument, rejected, context);
}

fn new_full_cell<H: PromiseHost>(
    host: &mut H,
    reaction: NewReaction<H::Value, H::Promise>,
    context: crate::reaction::ContextSlot<H::Value>,
) -> js_gc::Gc<FullReaction<H::Value, H::Promise>> {
    let NewReaction::Full { on_fulfilled, on_rejected, capability } = reaction else {
        unreachable!("only full reactions lack an inline form")
    };
    host.heap().alloc(FullReaction {
        on_fulfilled,
        on_rejected,
        capability,
        context: context.value,
        flags: ReactionFlags::for_slot(&context),
        next: None,
    })
}

/// Allocates a reaction cell and links it after the promise's last one.
fn append_cell<H: PromiseHost>(
    host: &mut H,
    promise: H::Promise,
    reaction: NewReaction<H::Value, H::Promise>,
    context: crate::reaction::ContextSlot<H::Value>,
) {
    let link = match reaction {
        NewReaction::Slim(continuation) => {
            ReactionLink::Slim(host.heap().alloc(SlimReaction::new(continuation, &context)))
        }
        NewReaction::Full { .. } => ReactionLink::Full(new_full_cell(host, reaction, context)),
    };
    let Slots::Pending(reactions) = &mut host.promise_state(promise).slots else {
        unreachable!("the promise was pending a moment ago")
    };
    let tail = reactions.tail.replace(link.as_any()).and_then(ReactionLink::<H::Value, H::Promise>::from_any);
    if reactions.head.is_none() {
        reactions.head = Some(link.as_any());
    }
    let link = Some(link.as_any());
    match tail {
        Some(ReactionLink::Slim(cell)) => cell.borrow_mut(host.heap()).next = link,
        Some(ReactionLink::Full(cell)) => cell.borrow_mut(host.heap()).next = link,
        None => {}
    }
}
