//! The queue's observable behaviour as insta snapshots
//! (`tests/all/snapshots/`): which job runs when, for enqueues made before
//! and during a drain, a Node-style checkpoint over two queues, a drain
//! that stops at a failing job, ring-buffer growth across wrap-around,
//! dispatch by job-kind range, the context slot, the call cache's LRU
//! order and the inbox's delivery order. A change to any of these orders
//! shows up as a snapshot diff.

use std::fmt::Write as _;

use js_microtask::{
    CallCache, Job, JobFlags, JobKind, JobKindRange, JobKindSpace, JobQueue, QueueCounters, RemoteInbox, WaitStatus,
};

/// Logs its first slot.
const LOG: JobKind = JobKind::new(0);
/// Queues `arg(1)` `LOG` children, numbered `arg(0) * 10 + n`.
const FAN_OUT: JobKind = JobKind::new(1);
/// Queues a job on the other queue of a two-queue checkpoint.
const CROSS: JobKind = JobKind::new(2);
/// Fails when run (a termination request, say).
const FAIL: JobKind = JobKind::new(3);
/// Runs a nested drain of a second queue holding `arg(1)` `LOG` jobs.
const NESTED: JobKind = JobKind::new(4);

/// What a job of these tests does, and its id.
fn describe(job: &Job<u64>) -> String {
    let name = match job.kind() {
        LOG => "log",
        FAN_OUT => "fan-out",
        CROSS => "cross",
        FAIL => "fail",
        NESTED => "nested",
        _ => "unknown",
    };
    format!("{name} {}", job.arg(0))
}

fn job(kind: JobKind, id: u64, extra: u64) -> Job<u64> {
    Job::new(kind, [id, extra, 0, 0])
}

fn counters(counters: QueueCounters) -> String {
    let QueueCounters { queued, run, discarded, high_water } = counters;
    format!("queued {queued}, run {run}, discarded {discarded}, high water {high_water}")
}

/// Runs one job of the single-queue tests, logging it.
fn run_one(queue: &mut JobQueue<u64>, job: Job<u64>, log: &mut Vec<String>) {
    log.push(format!("run {}", describe(&job)));
    match job.kind() {
        FAN_OUT => {
            for n in 0..job.arg(1) {
                let child = self::job(LOG, job.arg(0) * 10 + n, 0);
                log.push(format!("  queue {} (behind {} waiting)", describe(&child), queue.len()));
                queue.enqueue(child);
            }
        }
        NESTED => {
            let mut inner: JobQueue<u64> = JobQueue::new();
            for n in 0..job.arg(1) {
                inner.enqueue(self::job(LOG, job.arg(0) * 10 + n, 0));
            }
            // The outer queue may still be queued to from inside.
            queue.enqueue(self::job(LOG, job.arg(0) * 100, 0));
            log.push("  nested drain begins".into());
            inner.drain(|_, inner_job| log.push(format!("  nested run {}", describe(&inner_job))));
            log.push("  nested drain ends".into());
        }
        _ => {}
    }
}

#[test]
fn jobs_queued_during_a_drain_run_after_those_waiting() {
    let mut queue: JobQueue<u64> = JobQueue::new();
    queue.enqueue(job(FAN_OUT, 1, 2));
    queue.enqueue(job(LOG, 2, 0));
    queue.enqueue(job(FAN_OUT, 3, 1));
    queue.enqueue(job(NESTED, 4, 2));
    let mut log = vec![format!("before: {}", counters(queue.counters()))];
    let ran = queue.drain(|queue, job| run_one(queue, job, &mut log));
    log.push(format!("drain ran {ran} jobs; after: {}", counters(queue.counters())));
    insta::assert_snapshot!(log.join("\n"));
}

/// Node's checkpoint: the `nextTick` queue drains, then the microtask
/// queue, and again while either has work. A job queued on the other queue
/// waits for that queue's turn.
#[test]
fn a_two_queue_checkpoint_alternates_until_both_are_empty() {
    let mut ticks: JobQueue<u64> = JobQueue::new();
    let mut microtasks: JobQueue<u64> = JobQueue::new();
    // A microtask that queues a tick, a tick that queues a microtask.
    microtasks.enqueue(job(LOG, 1, 0));
    microtasks.enqueue(job(CROSS, 2, 2));
    microtasks.enqueue(job(LOG, 3, 0));
    ticks.enqueue(job(CROSS, 4, 1));
    ticks.enqueue(job(LOG, 5, 0));
    let mut log = Vec::new();
    let mut round = 0;
    while !(ticks.is_empty() && microtasks.is_empty()) {
        round += 1;
        log.push(format!("round {round}: {} ticks, {} microtasks waiting", ticks.len(), microtasks.len()));
        ticks.drain(|ticks, job| {
            log.push(format!("  tick {}", describe(&job)));
            if job.kind() == CROSS {
                // Queues `arg(1)` microtasks, and one more tick.
                for n in 0..job.arg(1) {
                    microtasks.enqueue(self::job(LOG, job.arg(0) * 10 + n, 0));
                }
                if job.arg(0) < 10 {
                    ticks.enqueue(self::job(LOG, job.arg(0) * 100, 0));
                }
            }
        });
        microtasks.drain(|microtasks, job| {
            log.push(format!("  microtask {}", describe(&job)));
            if job.kind() == CROSS {
                // Queues `arg(1)` ticks, which wait for the next round, and
                // one more microtask, which runs in this one.
                for n in 0..job.arg(1) {
                    ticks.enqueue(self::job(CROSS, job.arg(0) * 10 + n, 0));
                }
                microtasks.enqueue(self::job(LOG, job.arg(0) * 100, 0));
            }
        });
    }
    log.push(format!("ticks: {}", counters(ticks.counters())));
    log.push(format!("microtasks: {}", counters(microtasks.counters())));
    insta::assert_snapshot!(log.join("\n"));
}

#[test]
fn try_drain_stops_at_the_failing_job_and_keeps_the_rest() {
    let mut queue: JobQueue<u64> = JobQueue::new();
    queue.enqueue(job(LOG, 1, 0));
    queue.enqueue(job(FAN_OUT, 2, 2));
    queue.enqueue(job(FAIL, 3, 0));
    queue.enqueue(job(LOG, 4, 0));
    let mut log = Vec::new();
    let result = queue.try_drain(|queue, job| {
        if job.kind() == FAIL {
            log.push(format!("run {}: fails", describe(&job)));
            return Err(job.arg(0));
        }
        run_one(queue, job, &mut log);
        Ok(())
    });
    log.push(format!("try_drain: {result:?}"));
    let waiting: Vec<String> = queue.iter().map(describe).collect();
    log.push(format!("still waiting: {}", waiting.join(", ")));
    log.push(format!("peek: {:?}", queue.peek().map(describe)));
    log.push(counters(queue.counters()));
    let ran = queue.drain(|queue, job| run_one(queue, job, &mut log));
    log.push(format!("resumed drain ran {ran}"));
    queue.enqueue(job(LOG, 5, 0));
    queue.enqueue(job(LOG, 6, 0));
    queue.clear();
    log.push(format!("after clear of 2: {} waiting; {}", queue.len(), counters(queue.counters())));
    insta::assert_snapshot!(log.join("\n"));
}

/// Interleaved enqueues and runs move the ring's head around its buffer;
/// growing while the live jobs wrap past the end keeps them in order.
#[test]
fn growth_across_wrap_around_keeps_fifo_order() {
    let mut queue: JobQueue<u64> = JobQueue::with_capacity(4);
    let mut log = Vec::new();
    let mut next = 0;
    let mut capacity = queue.capacity();
    log.push(format!("capacity before the first job: {capacity}"));
    // Each step queues `push` jobs and runs `pop`; the backlog rises past
    // the capacity twice.
    for (push, pop) in [(10, 6), (8, 4), (12, 3), (0, 30)] {
        for _ in 0..push {
            queue.enqueue(job(LOG, next, 0));
            next += 1;
            if queue.capacity() != capacity {
                log.push(format!("  grew {capacity} -> {} at {} waiting", queue.capacity(), queue.len()));
                capacity = queue.capacity();
            }
        }
        let ran: Vec<String> = (0..pop).map_while(|_| queue.dequeue()).map(|job| job.arg(0).to_string()).collect();
        log.push(format!("queue {push}, run {}: {}; {} waiting", ran.len(), ran.join(" "), queue.len()));
    }
    log.push(counters(queue.counters()));
    insta::assert_snapshot!(log.join("\n"));
}

/// Three crates' job kinds in one declared space; the drain hands each job
/// to the owner of its kind, and a kind outside every range to nobody.
#[test]
fn the_drain_dispatches_by_the_owner_of_each_kind() {
    const ENGINE: JobKindRange = JobKindRange::new("engine", 0x0000, 0x00FF);
    const STREAMS: JobKindRange = JobKindRange::new("streams", 0xFE00, 0xFEFF);
    const PROMISES: JobKindRange = JobKindRange::new("promises", 0xFF00, 0xFF02);
    const KINDS: JobKindSpace<3> = JobKindSpace::new([ENGINE, STREAMS, PROMISES]);

    let mut queue: JobQueue<u64> = JobQueue::new();
    for (n, kind) in [PROMISES.kind(0), ENGINE.kind(1), STREAMS.kind(0x21), PROMISES.kind(2), JobKind::new(0x8000)]
        .into_iter()
        .enumerate()
    {
        queue.enqueue(Job::new(kind, [n as u64, 0, 0, 0]));
    }
    let mut log = Vec::new();
    queue.drain(|queue, job| {
        let line = match KINDS.owner_of(job.kind()) {
            Some(range) => {
                let offset = range.offset(job.kind()).expect("the owner contains the kind");
                format!("job {} -> {} kind {offset} (tag {:#06x})", job.arg(0), range.owner(), job.kind().tag())
            }
            None => format!("job {} -> no owner (tag {:#06x})", job.arg(0), job.kind().tag()),
        };
        log.push(line);
        // A promise job queues an engine job (an await resumption).
        if job.kind() == PROMISES.kind(0) {
            queue.enqueue(Job::new(ENGINE.kind(0), [job.arg(0) + 100, 0, 0, 0]));
        }
    });
    let collision = JobKindSpace::try_new([ENGINE, STREAMS, JobKindRange::new("late", 0x00F0, 0x0100)]);
    log.push(format!("a late range overlapping the engine's: {}", collision.map(|_| ()).unwrap_err()));
    insta::assert_snapshot!(log.join("\n"));
}

/// Slot 3 is the async-context frame when the flag says so, the
/// embedder's context otherwise; embedder flags ride beside it.
#[test]
fn the_context_slot_and_flags_as_each_job_sees_them() {
    const HANDLER: JobFlags = JobFlags::embedder(1);
    let mut queue: JobQueue<u64> = JobQueue::new();
    queue.enqueue(job(LOG, 1, 0));
    queue.enqueue(job(LOG, 2, 0).with_context_frame(0xF2));
    queue.enqueue(job(LOG, 3, 0).with_embedder_context(0xE3));
    queue.enqueue(job(LOG, 4, 0).with_flags(HANDLER).with_context_frame(0xF4));
    queue.enqueue(job(LOG, 5, 0).with_context_frame(0xF5).with_flags(HANDLER));
    let mut log = Vec::new();
    queue.drain(|_, job| {
        log.push(format!(
            "{}: flags {:?}, frame {:?}, embedder context {:?}, handler {}",
            describe(&job),
            job.flags(),
            job.context_frame(),
            job.embedder_context(),
            job.flags().contains(HANDLER)
        ));
    });
    insta::assert_snapshot!(log.join("\n"));
}

/// The call cache's recency order within one set as callees are looked up
/// and inserted, the key each insertion evicts, and the counters.
#[test]
fn call_cache_recency_and_evictions_in_one_set() {
    type Cache = CallCache<u64, u32>;
    let mut cache = Cache::new();
    let set = Cache::set_index(1);
    // Six callees that share a set: more than its four ways.
    let callees: Vec<u64> = (1..).filter(|&k| Cache::set_index(k) == set).take(6).collect();
    let name = |key: u64| format!("c{}", callees.iter().position(|&c| c == key).expect("a callee"));
    let mut log = Vec::new();
    let show = |cache: &Cache| cache.set_keys_by_recency(set).into_iter().map(name).collect::<Vec<_>>().join(" ");
    let call = |cache: &mut Cache, index: usize, log: &mut Vec<String>| {
        let key = callees[index];
        let event = match cache.get(key) {
            Some(entry) => format!("call c{index}: hit {entry}"),
            None => match cache.insert(key, index as u32 * 7) {
                Some(evicted) => format!("call c{index}: miss, insert, evicts {}", name(evicted)),
                None => format!("call c{index}: miss, insert"),
            },
        };
        log.push(format!("{event:<36} most recent first: {}", show(cache)));
    };
    for index in [0, 1, 2, 3, 0, 4, 2, 5, 1, 0] {
        call(&mut cache, index, &mut log);
    }
    cache.invalidate(callees[2]);
    log.push(format!("{:<36} most recent first: {}", "invalidate c2", show(&cache)));
    call(&mut cache, 3, &mut log);
    call(&mut cache, 2, &mut log);
    let pruned = cache.prune(|key| key == callees[0] || key == callees[5]);
    log.push(format!("{:<36} most recent first: {}", format!("prune c0 and c5: {pruned}"), show(&cache)));
    log.push(format!("{:?}", cache.counters()));
    insta::assert_snapshot!(log.join("\n"));
}

/// Tasks posted from other threads arrive in posting order per producer;
/// after `close`, posts fail and the tasks already posted still arrive.
#[test]
fn inbox_delivery_order_and_close() {
    let inbox: RemoteInbox<String> = RemoteInbox::new();
    let mut log = Vec::new();
    std::thread::scope(|scope| {
        for producer in ["timer", "io"] {
            let inbox = &inbox;
            // One producer at a time, so the interleaving is fixed.
            scope
                .spawn(move || {
                    for n in 1..=3 {
                        inbox.post(format!("{producer} {n}")).expect("open");
                    }
                })
                .join()
                .expect("the producer ran");
        }
    });
    let mut taken = std::collections::VecDeque::new();
    log.push(format!("wait: {:?}", inbox.wait(None)));
    let count = inbox.take_all(&mut taken);
    log.push(format!("take_all: {count}: {}", taken.drain(..).collect::<Vec<_>>().join(", ")));
    inbox.post("late 1".into()).expect("open");
    inbox.close();
    let refused = inbox.post("after close".into()).map_err(|error| {
        let message = error.to_string();
        format!("{message}: {}", error.into_task())
    });
    log.push(format!("post after close: {refused:?}"));
    log.push(format!("wait: {:?}", inbox.wait(Some(std::time::Duration::ZERO))));
    log.push(format!("try_take: {:?}", inbox.try_take()));
    let end = inbox.wait(Some(std::time::Duration::ZERO));
    assert_eq!(end, WaitStatus::Closed);
    log.push(format!("wait: {end:?}; posted {}", inbox.posted()));
    let mut text = log.join("\n");
    let _ = write!(text, "\nclosed: {}", inbox.is_closed());
    insta::assert_snapshot!(text);
}
