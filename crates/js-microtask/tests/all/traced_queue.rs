//! Jobs whose slots hold cells keep them alive while queued.

use js_gc::{Gc, GcAny, Heap, HeapConfig, Roots, Trace, Tracer};
use js_microtask::{Job, JobKind, JobQueue};

struct Reaction {
    value: u64,
}

// SAFETY: a reaction owns no heap pointers.
unsafe impl Trace for Reaction {
    const NEEDS_TRACE: bool = false;
    fn trace(&self, _tracer: &mut Tracer) {}
}

struct QueueRoots<'a>(&'a JobQueue<Option<GcAny>>);

impl Roots for QueueRoots<'_> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.0.trace(tracer);
    }
}

#[test]
fn waiting_jobs_are_roots_and_run_jobs_are_not() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::with_config(HeapConfig { stress: false, ..HeapConfig::default() }) };
    let mut queue: JobQueue<Option<GcAny>> = JobQueue::new();
    for value in 0..10 {
        let reaction = heap.alloc(Reaction { value }).as_any();
        queue.enqueue(Job::new(JobKind::new(0), [Some(reaction), None, None, None]));
    }
    // Run the first four; their reactions become garbage.
    for _ in 0..4 {
        queue.dequeue();
    }
    // SAFETY: only the reactions of waiting jobs are used afterwards.
    let report = unsafe { heap.collect(&mut QueueRoots(&queue)) };
    assert_eq!((report.live_objects, report.freed_objects), (6, 4));
    let values: Vec<u64> = queue
        .iter()
        .map(|job| job.arg(0).and_then(GcAny::downcast::<Reaction>).map(|r: Gc<Reaction>| r.borrow(&heap).value))
        .map(Option::unwrap)
        .collect();
    assert_eq!(values, [4, 5, 6, 7, 8, 9]);
}
