//! Unit tests of reaction representations.

use js_async_context::{ContextState, Frame};
use js_gc::Heap;
use js_microtask::{Job, JobFlags, JobKind};

use super::{
    ContextKind, ContextSlot, Continuation, FullReaction, InlineReaction, NewReaction, PromiseCapability,
    ReactionFlags, SlimReaction,
};
use crate::test_value::Num;

/// A frame binding one variable, and the heap holding it.
fn a_frame() -> (Heap, Frame<Num>) {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let mut state: ContextState<Num> = ContextState::new();
    let variable = state.create_variable().expect("a variable");
    let frame = Frame::new(&mut heap, variable, Num::Int(1));
    (heap, frame)
}

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
    let embedder = ContextSlot::embedder(Num::Int(7));
    assert!(!ReactionFlags::for_slot(&embedder).contains(ReactionFlags::CONTEXT_FRAME));
}

#[test]
fn slot_kinds_unpack() {
    let (_heap, frame) = a_frame();
    assert_eq!(ContextSlot::<Num>::none().kind(), ContextKind::None);
    assert_eq!(ContextSlot::frame(frame).kind(), ContextKind::Frame(frame));
    assert_eq!(ContextSlot::embedder(Num::Int(7)).kind(), ContextKind::Embedder(Num::Int(7)));
    // `undefined` as an embedder context is no context.
    assert_eq!(ContextSlot::embedder(Num::Int(0)).kind(), ContextKind::None);
    assert_eq!(ContextSlot::embedder(Num::Int(0)), ContextSlot::none());
    // A frame-flagged slot without a frame cell reads as no context.
    assert_eq!(ContextSlot { value: Num::Int(7), is_frame: true }.kind(), ContextKind::None);
}

#[test]
fn both_kinds_round_trip_through_slim_and_full_reaction_cells() {
    let (_heap, frame) = a_frame();
    let continuation = Continuation { job: JobKind::new(1), data: Num::Int(3) };
    for slot in [ContextSlot::none(), ContextSlot::frame(frame), ContextSlot::embedder(Num::Int(7))] {
        let slim: SlimReaction<Num, Num> = SlimReaction::new(continuation, &slot);
        assert_eq!(slim.context_slot(), slot);
        let full: FullReaction<Num, Num> = FullReaction {
            on_fulfilled: Num::Int(1),
            on_rejected: Num::Int(0),
            capability: PromiseCapability::Undefined,
            context: slot.value,
            flags: ReactionFlags::for_slot(&slot),
            next: None,
        };
        assert_eq!(full.context_slot(), slot);
        assert_eq!(full.context_slot().kind(), slot.kind());
    }
}

#[test]
fn both_kinds_round_trip_through_a_job_slot() {
    let (_heap, frame) = a_frame();
    let job = Job::new(JobKind::new(1), [Num::Int(1), Num::Int(2), Num::Int(3), Num::Int(0)]);
    for slot in [ContextSlot::none(), ContextSlot::frame(frame), ContextSlot::embedder(Num::Int(7))] {
        let carried = slot.store_in(job);
        assert_eq!(ContextSlot::of_job(&carried), slot);
        assert_eq!(carried.flags().contains(JobFlags::CONTEXT_FRAME), slot.is_frame);
        assert_eq!(carried.args()[..3], job.args()[..3]);
        // Storing an embedder context over a frame clears the frame flag.
        let replaced = ContextSlot::embedder(Num::Int(9)).store_in(carried);
        assert_eq!(ContextSlot::of_job(&replaced).kind(), ContextKind::Embedder(Num::Int(9)));
        assert_eq!(replaced.context_frame(), None);
    }
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
