use std::panic::{AssertUnwindSafe, catch_unwind};

use js_gc::{Heap, HeapConfig};

use super::SwapScope;
use crate::frame::Frame;
use crate::state::ContextState;
use crate::variable::VariableId;

fn setup() -> (Heap, ContextState<u64>, VariableId) {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let heap = unsafe { Heap::with_config(HeapConfig { stress: false, ..HeapConfig::default() }) };
    let mut state = ContextState::new();
    let var = state.create_variable().unwrap();
    (heap, state, var)
}

/// Runs a "job" that captured `captured`, as a drain would.
fn run_job<R>(
    state: &mut ContextState<u64>,
    captured: Option<Frame<u64>>,
    job: impl FnOnce(&mut ContextState<u64>) -> R,
) -> R {
    let mut scope = SwapScope::enter(state, captured);
    job(scope.state())
}

#[test]
fn a_job_that_captured_no_frame_runs_with_none_even_after_an_earlier_enter_with() {
    let (mut heap, mut state, var) = setup();
    let frame = Frame::new(&mut heap, var, 1);
    run_job(&mut state, None, |state| {
        state.enter_with(Some(frame));
        assert_eq!(state.current(), Some(frame));
    });
    run_job(&mut state, None, |state| {
        assert_eq!(state.current(), None);
        assert_eq!(state.capture(), None);
    });
    assert_eq!(state.current(), None);
}

#[test]
fn enter_with_inside_a_job_ends_with_the_job() {
    let (mut heap, mut state, var) = setup();
    let outer = Frame::new(&mut heap, var, 1);
    let inner = Frame::new(&mut heap, var, 2);
    state.enter_with(Some(outer));
    run_job(&mut state, Some(outer), |state| {
        state.enter_with(Some(inner));
        assert_eq!(state.get(&heap, var), Some(2));
    });
    assert_eq!(state.current(), Some(outer));
    assert_eq!(state.scope_depth(), 0);
}

#[test]
fn nested_scopes_restore_in_order() {
    let (mut heap, mut state, var) = setup();
    let frames: Vec<Frame<u64>> = (0..3).map(|n| Frame::new(&mut heap, var, n)).collect();
    {
        let mut first = SwapScope::enter(&mut state, Some(frames[0]));
        {
            let mut second = SwapScope::enter(&mut first, Some(frames[1]));
            {
                let third = SwapScope::enter(&mut second, Some(frames[2]));
                assert_eq!(third.current(), Some(frames[2]));
                assert_eq!(third.scope_depth(), 3);
            }
            assert_eq!(second.current(), Some(frames[1]));
            {
                let mut none = SwapScope::enter(&mut second, None);
                assert_eq!(none.current(), None);
                none.state().enter_with(Some(frames[2]));
            }
            assert_eq!(second.current(), Some(frames[1]));
        }
        assert_eq!(first.current(), Some(frames[0]));
    }
    assert_eq!(state.current(), None);
    assert_eq!(state.scope_depth(), 0);
}

#[test]
fn unwinding_restores_the_previous_frame() {
    let (mut heap, mut state, var) = setup();
    let outer = Frame::new(&mut heap, var, 1);
    let inner = Frame::new(&mut heap, var, 2);
    state.enter_with(Some(outer));
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut scope = SwapScope::enter(&mut state, Some(inner));
        scope.state().enter_with(None);
        panic!("the job threw");
    }));
    assert!(result.is_err());
    assert_eq!(state.current(), Some(outer));
    assert_eq!(state.scope_depth(), 0);
}

#[test]
fn tracking_off_scopes_do_nothing() {
    let mut state: ContextState<u64> = ContextState::new();
    {
        let scope = SwapScope::enter(&mut state, None);
        assert_eq!(scope.scope_depth(), 0);
    }
    assert_eq!(state.current(), None);
}

#[test]
fn a_job_that_creates_the_first_variable_leaves_no_frame_behind() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let mut state: ContextState<u64> = ContextState::new();
    run_job(&mut state, None, |state| {
        let var = state.create_variable().unwrap();
        let frame = Frame::new(&mut heap, var, 5);
        state.enter_with(Some(frame));
    });
    assert!(state.tracking_enabled());
    assert_eq!(state.current(), None);
}

#[test]
fn a_leaked_inner_scope_does_not_confuse_the_outer_one() {
    let (mut heap, mut state, var) = setup();
    let frames: Vec<Frame<u64>> = (0..2).map(|n| Frame::new(&mut heap, var, n)).collect();
    {
        let mut outer = SwapScope::enter(&mut state, Some(frames[0]));
        std::mem::forget(SwapScope::enter(&mut outer, Some(frames[1])));
        assert_eq!(outer.current(), Some(frames[1]));
    }
    assert_eq!(state.current(), None);
    assert_eq!(state.scope_depth(), 0);
}

/// Roots a collection in a state, as a VM's `Roots` would.
struct StateRoots<'a>(&'a ContextState<u64>);

impl js_gc::Roots for StateRoots<'_> {
    fn trace_roots(&self, tracer: &mut js_gc::Tracer) {
        js_gc::Trace::trace(self.0, tracer);
    }
}

#[test]
fn saved_frames_survive_a_collection_during_the_job() {
    let (mut heap, mut state, var) = setup();
    let outer = Frame::new(&mut heap, var, 1);
    state.enter_with(Some(outer));
    {
        let mut scope = SwapScope::enter(&mut state, None);
        // The outer frame is only reachable through the saved stack now.
        // SAFETY: only frames reachable from the state are used afterwards.
        let report = unsafe { heap.collect(&mut StateRoots(scope.state())) };
        assert_eq!(report.freed_objects, 0);
    }
    assert_eq!(state.get(&heap, var), Some(1));
}
