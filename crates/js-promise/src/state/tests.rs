//! Unit tests of `PromiseState`.

use super::{PromiseState, PromiseStatus};
use crate::test_value::Num;

#[test]
fn new_state_is_pending_unhandled_generation_zero() {
    let state: PromiseState<Num, Num> = PromiseState::new();
    assert_eq!(state.status(), PromiseStatus::Pending);
    assert_eq!(state.result(), None);
    assert!(!state.is_handled());
    assert!(!state.is_already_resolved());
    assert_eq!(state.generation(), 0);
    assert!(state.has_no_reactions());
}

#[test]
fn mark_handled_sets_the_flag() {
    let mut state: PromiseState<Num, Num> = PromiseState::default();
    state.mark_handled();
    assert!(state.is_handled());
}
