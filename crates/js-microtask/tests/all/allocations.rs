//! Zero heap allocations per job once the queue is warm.

use std::num::NonZeroU64;

use js_microtask::{CallCache, Job, JobFlags, JobKind, JobQueue};

use bench_support::counting_allocator::allocations_during;

/// The usual queue: boxed closures.
type BoxedQueue = std::collections::VecDeque<Box<dyn FnOnce(&mut u64)>>;

const RESOLVE: JobKind = JobKind::new(0);
const RESUME: JobKind = JobKind::new(1);

/// A round of an engine-like workload: 1000 jobs queued up front, each
/// looking up its callee in the call cache (inserting on a miss), a third
/// of them queueing a follow-up job while the drain runs. Returns a
/// checksum.
fn round(queue: &mut JobQueue<u64>, cache: &mut CallCache<NonZeroU64, (u32, u32)>) -> u64 {
    for n in 0..1000 {
        let job = Job::new(RESOLVE, [n, n % 40 + 1, 0, 0]);
        queue.enqueue(if n % 2 == 0 { job.with_context_frame(7) } else { job.with_flags(JobFlags::embedder(0)) });
    }
    let mut sum = 0;
    queue.drain(|queue, job| {
        let callee = NonZeroU64::new(job.arg(1) * 64).unwrap();
        let (frame_size, _) = cache.get(callee).unwrap_or_else(|| {
            cache.insert(callee, (16, 1));
            (16, 1)
        });
        sum += job.arg(0) + u64::from(frame_size);
        if job.kind() == RESOLVE && job.arg(0) % 3 == 0 {
            queue.enqueue(Job::new(RESUME, [1, job.arg(1), 0, 0]));
        }
    });
    sum
}

#[test]
fn queueing_and_draining_allocate_nothing_once_warm() {
    let mut queue = JobQueue::new();
    let mut cache = CallCache::new();
    let warm_up = allocations_during(|| {
        round(&mut queue, &mut cache);
    });
    assert!(warm_up > 0, "the first round grows the ring buffer");
    let capacity = queue.capacity();

    let mut checksum = 0;
    let steady = allocations_during(|| {
        for _ in 0..100 {
            checksum += round(&mut queue, &mut cache);
        }
    });
    assert_eq!(steady, 0, "allocations in 100 warm rounds of 1334 jobs");
    assert_eq!(queue.capacity(), capacity);
    assert_eq!(queue.counters().run, 101 * 1334);
    assert!(checksum > 0);
}

#[test]
fn the_boxed_closure_baseline_allocates_per_job() {
    // The contrast the design rejects: one allocation per queued job.
    let mut queue = BoxedQueue::new();
    let mut sum = 0;
    let mut run = |queue: &mut BoxedQueue| {
        for n in 0..1000_u64 {
            queue.push_back(Box::new(move |sum: &mut u64| *sum += n));
        }
        while let Some(job) = queue.pop_front() {
            job(&mut sum);
        }
    };
    run(&mut queue);
    assert_eq!(allocations_during(|| run(&mut queue)), 1000);
}
