use super::{JobQueue, MIN_CAPACITY, QueueCounters};
use crate::job::{Job, JobKind};

fn job(n: u64) -> Job<u64> {
    Job::new(JobKind::new(1), [n, 0, 0, 0])
}

#[test]
fn runs_jobs_in_fifo_order() {
    let mut queue = JobQueue::new();
    for n in 0..5 {
        queue.enqueue(job(n));
    }
    let mut seen = Vec::new();
    let ran = queue.drain(|_, job| seen.push(job.arg(0)));
    assert_eq!(ran, 5);
    assert_eq!(seen, [0, 1, 2, 3, 4]);
    assert!(queue.is_empty());
}

#[test]
fn jobs_queued_while_draining_run_after_the_waiting_ones() {
    let mut queue = JobQueue::new();
    queue.enqueue(job(1));
    queue.enqueue(job(2));
    let mut seen = Vec::new();
    queue.drain(|queue, job| {
        let n = job.arg(0);
        seen.push(n);
        if n < 10 {
            queue.enqueue(self::job(n * 10));
        }
    });
    assert_eq!(seen, [1, 2, 10, 20]);
}

#[test]
fn grows_geometrically_and_keeps_order_across_the_wrap() {
    let mut queue = JobQueue::new();
    // Move the head into the middle of the first buffer, then overfill it
    // so growth copies a wrapped range.
    for n in 0..10 {
        queue.enqueue(job(n));
    }
    for n in 0..10 {
        assert_eq!(queue.dequeue().map(|j| j.arg(0)), Some(n));
    }
    for n in 0..40 {
        queue.enqueue(job(n));
    }
    assert_eq!(queue.capacity(), 4 * MIN_CAPACITY);
    let order: Vec<u64> = queue.iter().map(|j| j.arg(0)).collect();
    assert_eq!(order, (0..40).collect::<Vec<_>>());
    let mut next = 0;
    queue.drain(|_, job| {
        assert_eq!(job.arg(0), next);
        next += 1;
    });
    assert_eq!(next, 40);
}

#[test]
fn allocates_lazily_and_honours_requested_capacity() {
    let queue: JobQueue<u64> = JobQueue::with_capacity(100);
    assert_eq!(queue.capacity(), 0);
    let mut queue = queue;
    queue.enqueue(job(0));
    assert_eq!(queue.capacity(), 128);
}

#[test]
fn counts_queued_run_discarded_and_high_water() {
    let mut queue = JobQueue::new();
    for n in 0..7 {
        queue.enqueue(job(n));
    }
    queue.dequeue();
    queue.dequeue();
    queue.enqueue(job(7));
    queue.clear();
    queue.enqueue(job(8));
    assert_eq!(queue.peek().map(|j| j.arg(0)), Some(8));
    queue.drain(|_, _| {});
    assert_eq!(queue.counters(), QueueCounters { queued: 9, run: 3, discarded: 6, high_water: 7 });
}

#[test]
fn try_drain_stops_at_the_first_failure() {
    let mut queue = JobQueue::new();
    for n in 0..5 {
        queue.enqueue(job(n));
    }
    let result = queue.try_drain(|_, job| if job.arg(0) == 2 { Err(job.arg(0)) } else { Ok(()) });
    assert_eq!(result, Err(2));
    assert_eq!(queue.iter().map(|j| j.arg(0)).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(queue.try_drain(|_, _| Ok::<(), ()>(())), Ok(2));
}

#[test]
fn empty_queue_dequeues_nothing() {
    let mut queue: JobQueue<u64> = JobQueue::default();
    assert!(queue.dequeue().is_none());
    assert!(queue.peek().is_none());
    assert_eq!(queue.drain(|_, _| unreachable!("no job")), 0);
    assert_eq!(queue.iter().len(), 0);
}
