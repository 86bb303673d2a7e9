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
        on_fulfilled: Num::Int(1),
        on_rejected: Num::Int(0),
        capability: PromiseCapability::Intrinsic(Num::Int(2)),
    };
    assert_eq!(
        full.as_inline(),
        Some(InlineReaction::Full {
            on_fulfilled: Num::Int(1),
            on_rejected: Num::Int(0),
            capability: Some(Num::Int(2))
        })
    );
}

#[test]
fn functions_capability_has_no_inline_form() {
    let full: NewReaction<Num, Num> = NewReaction::Full {
        on_fulfilled: Num::Int(0),
        on_rejected: Num::Int(0),
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

#[test]
fn sizes_with_a_word_value() {
    use js_gc::{Gc, GcAny, Trace, Tracer};

    use crate::state::PromiseState;
    use crate::value::PromiseValue;

    #[derive(Clone, Copy, PartialEq)]
    struct Word(u64);
    // SAFETY: owns nothing.
    unsafe impl Trace for Word {
        const NEEDS_TRACE: bool = false;
        fn trace(&self, _tracer: &mut Tracer) {}
    }
    impl PromiseValue for Word {
        fn undefined() -> Self {
            Word(0)
        }
        fn from_cell(cell: GcAny) -> Self {
            Word(cell.addr() as u64)
        }
        fn as_cell(self) -> Option<GcAny> {
            None
        }
    }
    struct Cell;
    // SAFETY: owns nothing.
    unsafe impl Trace for Cell {
        fn trace(&self, _tracer: &mut Tracer) {}
    }
    type P = Gc<Cell>;
    // With an engine's 8-byte value: a promise's slots (inline reaction
    // included) in 8 words, a slim reaction in 5, a full one in 9.
    assert!(size_of::<PromiseState<Word, P>>() <= 64);
    assert!(size_of::<InlineReaction<Word, P>>() <= 32);
    assert!(size_of::<super::SlimReaction<Word, P>>() <= 40);
    assert!(size_of::<super::FullReaction<Word, P>>() <= 72);
}
