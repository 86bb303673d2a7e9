//! Heap allocations per operation of the js-async-context workloads,
//! counted by this binary's global allocator (per thread) and printed as
//! `fact:` lines. A binary of its own, so the counting allocator perturbs no
//! timing or instruction count. Run by `cargo xtask bench async-context`.

mod workload;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use js_async_context::{ContextState, SwapScope};
use workload::tracking;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting `alloc`, `alloc_zeroed` and `realloc`
/// calls of the calling thread.
struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is a const-initialised thread-local `Cell` without a destructor,
// so touching it never allocates or re-enters the allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `setup` (uncounted), then `ops` operations of `op`, and prints a
/// `fact:` line with the allocations per operation.
fn report<S>(label: &str, unit: &str, ops: u64, setup: impl FnOnce() -> S, op: impl FnOnce(&mut S)) {
    let mut state = setup();
    let before = ALLOCATIONS.with(Cell::get);
    op(&mut state);
    let allocations = ALLOCATIONS.with(Cell::get) - before;
    println!(
        "fact: allocations: {label}: {:.3} per {unit} ({allocations} in {ops} {unit}s after warm-up)",
        allocations as f64 / ops as f64
    );
}

/// Allocations per capture, per swap scope and per new frame, as `fact:`
/// lines.
fn main() {
    const OPS: u64 = 100_000;
    report("async-context/capture + swap-scope, tracking off", "job", OPS, ContextState::<u64>::new, |state| {
        for _ in 0..OPS {
            let captured = state.capture();
            drop(SwapScope::enter(black_box(&mut *state), captured));
        }
    });
    report("async-context/capture + swap-scope, tracking on", "job", OPS, tracking, |on| {
        let other = on.other;
        for n in 0..OPS {
            let captured = if n % 2 == 0 { on.state.capture() } else { Some(other) };
            drop(SwapScope::enter(black_box(&mut on.state), captured));
        }
    });
    report("async-context/frame with (AsyncLocalStorage.run)", "frame", OPS, tracking, |on| {
        let current = on.state.current().expect("frame");
        for n in 0..OPS {
            black_box(current.with(&mut on.heap, on.variables[2], n));
        }
    });
}
