//! A nested drain that evicts the entry the outer call copied out.

use std::num::NonZeroU64;

use js_microtask::{CallCache, Job, JobKind, JobQueue};

/// What the engine caches about a callee: enough to skip call setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CallSetup {
    frame_size: u32,
    arity: u32,
}

const CALL: JobKind = JobKind::new(0);
const NESTED_DRAIN: JobKind = JobKind::new(1);

fn callee(n: u64) -> NonZeroU64 {
    NonZeroU64::new(0x1000 + n * 64).unwrap()
}

fn setup_of(key: NonZeroU64) -> CallSetup {
    CallSetup { frame_size: (key.get() % 97) as u32, arity: (key.get() % 5) as u32 }
}

#[test]
fn a_nested_drain_evicting_the_entry_does_not_disturb_the_outer_copy() {
    type Cache = CallCache<NonZeroU64, CallSetup>;
    let mut cache = Cache::new();
    let outer = callee(0);
    cache.insert(outer, setup_of(outer));
    // Callees that share the outer callee's set: enough to push it out.
    let rivals: Vec<NonZeroU64> =
        (1..).map(callee).filter(|&k| Cache::set_index(k) == Cache::set_index(outer)).take(4).collect();

    let mut queue: JobQueue<u64> = JobQueue::new();
    queue.enqueue(Job::new(NESTED_DRAIN, [outer.get(), 0, 0, 0]));
    let mut outer_checked = false;
    queue.drain(|queue, job| {
        if job.kind() != NESTED_DRAIN {
            return;
        }
        // The outer call: copy the entry out, then call, and the callee
        // runs a nested drain (a microtask checkpoint inside a native call).
        let key = NonZeroU64::new(job.arg(0)).unwrap();
        let copy = cache.get(key).expect("the outer callee is cached");
        let mut nested: JobQueue<u64> = JobQueue::new();
        for rival in &rivals {
            nested.enqueue(Job::new(CALL, [rival.get(), 0, 0, 0]));
        }
        nested.drain(|_, job| {
            let key = NonZeroU64::new(job.arg(0)).unwrap();
            if cache.get(key).is_none() {
                cache.insert(key, setup_of(key));
            }
        });
        assert!(!cache.contains(key), "the nested drain evicted the outer entry");
        assert_eq!(copy, setup_of(key), "the outer copy is intact");
        outer_checked = true;
        queue.enqueue(Job::new(CALL, [key.get(), 0, 0, 0]));
    });
    assert!(outer_checked);
    assert_eq!(cache.counters().evictions, 1);
}
