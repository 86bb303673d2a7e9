//! Unit tests of reaction representations.

use js_microtask::JobKind;

use super::{ContextSlot, Continuation, InlineReaction, NewReaction, PromiseCapability, ReactionFlags};
use crate::test_value::Num;

#[test]
fn slim_and_intrinsic_full_reactions_have_an_inline_form() {
    let continuation = Continuation { job: JobKind::new(1), data: Num::Int(3) };
    let slim: NewReaction<Num, Num> = NewReaction::Slim(continuation);
    assert_eq!(slim.as_inline(), Some(InlineReaction::Slim(continuation)));
    let full: NewReaction<Num, Num> = NewReaction::Full {
        on_fulfilled: Some(Num::Int(1)),
        on_rejected: None,
        capability: PromiseCapability::Intrinsic(Num::Int(2)),
    };
    assert_eq!(
        full.as_inline(),
        Some(InlineReaction::Full {
            on_fulfilled: Some(Num::Int(1)),
            on_rejected: None,
            capability: Some(Num::Int(2))
        })
    );
}

#[test]
fn functions_capability_has_no_inline_form() {
    let full: NewReaction<Num, Num> = NewReaction::Full {
        on_fulfilled: None,
        on_rejected: None,
        capability: PromiseCapability::Functions { promise: Num::Int(1), resolve: Num::Int(2), reject: Num::Int(3) },
    };
    assert_eq!(full.as_inline(), None);
}

#[test]
fn context_flag_follows_the_slot() {
    let none: ContextSlot<Num> = ContextSlot::none();
    assert!(!ReactionFlags::for_slot(&none).contains(ReactionFlags::CONTEXT_FRAME));
    let framed = ContextSlot { value: Num::Int(0), is_frame: true };
    assert!(ReactionFlags::for_slot(&framed).contains(ReactionFlags::CONTEXT_FRAME));
}
