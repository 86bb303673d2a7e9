//! The state the benchmarks share: a VM's context state with tracking on.

use js_async_context::{ContextState, Frame, SwapScope, VariableId};
use js_gc::{Heap, HeapConfig};

/// A heap that collects only when asked.
pub fn bench_heap() -> Heap {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    unsafe { Heap::with_config(HeapConfig { stress: false, poison: false, ..HeapConfig::default() }) }
}

/// A VM state with tracking on and a current frame of three variables,
/// plus a second frame to install.
pub struct Tracking {
    /// The heap the frames live in.
    pub heap: Heap,
    /// The VM's context state.
    pub state: ContextState<u64>,
    /// A frame other than the current one.
    pub other: Frame<u64>,
    /// The three variables.
    pub variables: [VariableId; 3],
}

pub fn tracking() -> Tracking {
    let mut heap = bench_heap();
    let mut state = ContextState::new();
    let variables = [(); 3].map(|()| state.create_variable().expect("variable"));
    let mut frame = Frame::new(&mut heap, variables[0], 1);
    frame = frame.with(&mut heap, variables[1], 2).with(&mut heap, variables[2], 3);
    let other = frame.with(&mut heap, variables[1], 20);
    state.enter_with(Some(frame));
    // Warm the saved-frame stack so scopes never allocate.
    drop(SwapScope::enter(&mut state, None));
    Tracking { heap, state, other, variables }
}
