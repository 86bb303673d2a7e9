//! Heap allocations per operation of the js-microtask workloads, counted by
//! this binary's global allocator (per thread) and printed as `fact:` lines.
//! A binary of its own, so the counting allocator perturbs no timing or
//! instruction count. Run by `cargo xtask bench microtask`.

#[allow(dead_code, reason = "each benchmark binary uses its part of the shared workloads")]
mod workload;

use std::hint::black_box;

use bench_support::counting_allocator::{CountingAllocator, report};
use js_microtask::JobQueue;
use workload::{BURST, BoxedQueue, Cache, boxed_burst, callee, job_queue_burst, setup_of};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

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
