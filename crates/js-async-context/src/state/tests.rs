use js_gc::Heap;

use super::ContextState;
use crate::error::ContextError;
use crate::frame::Frame;

#[test]
fn tracking_turns_on_at_the_first_variable() {
    let mut state: ContextState<u64> = ContextState::new();
    assert!(!state.tracking_enabled());
    assert_eq!(state.capture(), None);
    let first = state.create_variable().unwrap();
    let second = state.create_variable().unwrap();
    assert!(state.tracking_enabled());
    assert!(first < second);
    assert_eq!(first.index().get(), 1);
    assert_eq!(state.variable_count(), 2);
}

#[test]
fn capture_returns_the_current_frame_once_tracking() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let mut state: ContextState<u64> = ContextState::default();
    let var = state.create_variable().unwrap();
    assert_eq!(state.capture(), None);
    let frame = Frame::new(&mut heap, var, 1);
    state.enter_with(Some(frame));
    assert_eq!(state.capture(), Some(frame));
    assert_eq!(state.get(&heap, var), Some(1));
}

#[test]
fn variable_ids_run_out_with_a_typed_error() {
    let mut state: ContextState<u64> = ContextState::new();
    state.variables = u32::MAX - 1;
    assert_eq!(state.create_variable().unwrap().index().get(), u32::MAX);
    assert_eq!(state.create_variable(), Err(ContextError::TooManyVariables { limit: u32::MAX }));
}
