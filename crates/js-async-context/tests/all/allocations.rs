//! Capturing and swapping frames allocate nothing once warm.

use js_async_context::{ContextState, Frame, SwapScope};
use js_gc::Heap;

use bench_support::counting_allocator::allocations_during;

#[test]
fn capture_and_swap_scopes_allocate_nothing_once_warm() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let mut state: ContextState<u64> = ContextState::new();
    let off = allocations_during(|| {
        for _ in 0..1000 {
            let captured = state.capture();
            drop(SwapScope::enter(&mut state, captured));
        }
    });
    assert_eq!(off, 0, "tracking off");

    let variable = state.create_variable().unwrap();
    let frames = [Frame::new(&mut heap, variable, 1), Frame::new(&mut heap, variable, 2)];
    state.enter_with(Some(frames[0]));
    {
        // Warm the saved-frame stack to the nesting depth used below.
        let mut outer = SwapScope::enter(&mut state, None);
        drop(SwapScope::enter(&mut outer, None));
    }
    let on = allocations_during(|| {
        for n in 0..1000 {
            let captured = Some(frames[n % 2]);
            let mut outer = SwapScope::enter(&mut state, captured);
            let again = outer.capture();
            let mut inner = SwapScope::enter(&mut outer, again);
            inner.enter_with(None);
        }
    });
    assert_eq!(on, 0, "tracking on");
    assert_eq!(state.current(), Some(frames[0]));
}
