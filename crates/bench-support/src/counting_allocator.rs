//! A global allocator that counts allocations per thread, so tests running
//! in parallel do not see each other's.
//!
//! A test or benchmark binary installs it with
//! `#[global_allocator] static ALLOCATOR: CountingAllocator = CountingAllocator;`
//! and measures with [`allocations_during`] or [`report`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting `alloc`, `alloc_zeroed` and `realloc`
/// calls of the calling thread.
pub struct CountingAllocator;

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

/// Allocations the calling thread made while `f` ran (0 unless
/// [`CountingAllocator`] is the binary's global allocator).
pub fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// Runs `setup` (uncounted), then `op` over the state it made, which
/// performs `ops` operations, and prints a `fact:` line with the
/// allocations per `unit`.
pub fn report<S>(label: &str, unit: &str, ops: u64, setup: impl FnOnce() -> S, op: impl FnOnce(&mut S)) {
    let mut state = setup();
    let allocations = allocations_during(|| op(&mut state));
    println!(
        "fact: allocations: {label}: {:.3} per {unit} ({allocations} in {ops} {unit}s after warm-up)",
        allocations as f64 / ops as f64
    );
}
