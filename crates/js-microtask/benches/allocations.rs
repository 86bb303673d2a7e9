//! Heap allocations per operation of the js-microtask workloads, counted by
//! this binary's global allocator (per thread) and printed as `fact:` lines.
//! A binary of its own, so the counting allocator perturbs no timing or
//! instruction count. Run by `cargo xtask bench microtask`.

#[allow(dead_code, reason = "each benchmark binary uses its part of the shared workloads")]
mod workload;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use js_microtask::JobQueue;
use workload::{BURST, BoxedQueue, Cache, boxed_burst, callee, job_queue_burst, setup_of};

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

/// Allocations per job and per cache lookup once warm.
fn main() {
    const ROUNDS: u64 = 1000;
    let warm_queue = || {
        let mut queue = JobQueue::new();
        job_queue_burst(&mut queue, 0, &mut 0);
        queue
    };
    report("microtask/queue-drain JobQueue", "job", ROUNDS * BURST, warm_queue, |queue| {
        let mut sum = 0;
        for round in 0..ROUNDS {
            job_queue_burst(queue, round, &mut sum);
        }
        black_box(sum);
    });
    let warm_boxed = || {
        let mut queue = BoxedQueue::new();
        boxed_burst(&mut queue, 0, &mut 0);
        queue
    };
    report("microtask/queue-drain VecDeque<Box<dyn FnOnce>>", "job", ROUNDS * BURST, warm_boxed, |queue| {
        let mut sum = 0;
        for round in 0..ROUNDS {
            boxed_burst(queue, round, &mut sum);
        }
        black_box(sum);
    });
    report("microtask/call-cache miss + insert, 48 keys", "lookup", 48 * ROUNDS, Cache::new, |cache| {
        for i in 0..48 * ROUNDS {
            let key = callee(i % 48);
            if cache.get(key).is_none() {
                cache.insert(key, setup_of(key));
            }
        }
    });
}
