//! js-microtask benchmarks: queue + drain per job against the usual queue
//! of boxed closures, call-cache hits and misses, and the remote inbox's
//! post→run latency and cross-thread throughput. Wall time with criterion;
//! instructions per operation with callgrind (printed as `fact:` lines).
//! Allocation counts come from the separate `allocations` benchmark binary,
//! so no counting allocator perturbs these measurements.
//! Run with `cargo xtask bench microtask`.

mod workload;

use std::collections::VecDeque;
use std::hint::black_box;
use std::num::NonZeroU64;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use js_microtask::{JobQueue, RemoteInbox, WaitStatus};
use workload::{
    BURST, BoxedQueue, Cache, boxed_burst, callee, full_set_cache, job_queue_burst, setup_of, warm_cache, wide_setup_of,
};

/// The callgrind harness: 100,000 operations in the shorter run.
const CALLGRIND: bench_support::callgrind::Callgrind = bench_support::callgrind::Callgrind::new(100_000);

/// The cache as the engine holds it: behind a pointer the compiler cannot
/// see through, so its fields (counters included) live in memory across
/// lookups rather than in registers of the benchmark loop.
fn escaped<T>(cache: &mut T) -> &mut T {
    black_box(cache)
}

/// Runs `count` repetitions of `op` under callgrind (the child side of
/// [`callgrind::report`]). Setup is identical for every count.
fn run_counted(op: &str, count: u64) {
    let mut sum = 0_u64;
    match op {
        "baseline" => {
            for i in 0..count {
                black_box(black_box(i));
            }
        }
        "baseline-16-keys" => {
            let (_, keys) = warm_cache();
            for i in 0..count {
                black_box(keys[(black_box(i) & 15) as usize]);
            }
        }
        "job-queue" => {
            let mut queue = JobQueue::new();
            job_queue_burst(&mut queue, 0, &mut sum);
            for round in 0..count / BURST {
                job_queue_burst(&mut queue, black_box(round), &mut sum);
            }
        }
        "boxed-closures" => {
            let mut queue = BoxedQueue::new();
            boxed_burst(&mut queue, 0, &mut sum);
            for round in 0..count / BURST {
                boxed_burst(&mut queue, black_box(round), &mut sum);
            }
        }
        "cache-hit-same-key" => {
            let (mut cache, keys) = warm_cache();
            let cache = escaped(&mut cache);
            for _ in 0..count {
                black_box(cache.get(black_box(keys[5])));
            }
        }
        "cache-hit-16-keys" => {
            let (mut cache, keys) = warm_cache();
            let cache = escaped(&mut cache);
            for i in 0..count {
                black_box(cache.get(keys[(black_box(i) & 15) as usize]));
            }
        }
        "cache-hit-way-0" | "cache-hit-way-1" | "cache-hit-way-2" | "cache-hit-way-3" => {
            let (mut cache, keys) = full_set_cache(setup_of);
            let cache = escaped(&mut cache);
            let way: usize = op["cache-hit-way-".len()..].parse().expect("way number");
            for _ in 0..count {
                black_box(cache.get(black_box(keys[way])));
            }
        }
        "wide-cache-hit-way-0" | "wide-cache-hit-way-1" | "wide-cache-hit-way-2" | "wide-cache-hit-way-3" => {
            let (mut cache, keys) = full_set_cache(wide_setup_of);
            let cache = escaped(&mut cache);
            let way: usize = op["wide-cache-hit-way-".len()..].parse().expect("way number");
            for _ in 0..count {
                black_box(cache.get(black_box(keys[way])));
            }
        }
        "baseline-48-keys" => {
            let keys: Vec<NonZeroU64> = (0..48).map(callee).collect();
            for i in 0..count {
                black_box(keys[(black_box(i) % 48) as usize]);
            }
        }
        "cache-miss-insert-48-keys" => {
            // Six keys per set taking turns in four ways: every get misses
            // and every insert evicts the set's least recently used key.
            let mut cache = Cache::new();
            let cache = escaped(&mut cache);
            let keys: Vec<NonZeroU64> = (0..48).map(callee).collect();
            for i in 0..count {
                let key = keys[(black_box(i) % 48) as usize];
                if cache.get(key).is_none() {
                    black_box(cache.insert(key, setup_of(key)));
                }
            }
            black_box(cache.counters());
        }
        "cache-miss" => {
            let (mut cache, _) = warm_cache();
            let cache = escaped(&mut cache);
            let absent = callee(1000);
            for _ in 0..count {
                black_box(cache.get(black_box(absent)));
            }
        }
        "inbox-post-take" => {
            let inbox = RemoteInbox::new();
            for i in 0..count {
                inbox.post(black_box(i)).expect("open inbox");
                black_box(inbox.try_take());
            }
        }
        _ => panic!("unknown callgrind operation {op}"),
    }
    black_box(sum);
}

fn instruction_facts() {
    let measure = |op, baseline, label, unit| bench_support::callgrind::Measure { op, baseline, label, unit };
    let counts = CALLGRIND.report(&[
        measure("job-queue", None, "microtask/queue-drain JobQueue (enqueue + drain + dispatch)", "job"),
        measure(
            "boxed-closures",
            None,
            "microtask/queue-drain VecDeque<Box<dyn FnOnce>> (box + push + pop + call + free)",
            "job",
        ),
        measure("cache-hit-same-key", Some("baseline"), "microtask/call-cache hit, same key", "get"),
        measure("cache-hit-16-keys", Some("baseline-16-keys"), "microtask/call-cache hit, 16 keys round robin", "get"),
        measure("cache-hit-way-0", Some("baseline"), "microtask/call-cache hit, key in way 0 of a full set", "get"),
        measure("cache-hit-way-1", Some("baseline"), "microtask/call-cache hit, key in way 1 of a full set", "get"),
        measure("cache-hit-way-2", Some("baseline"), "microtask/call-cache hit, key in way 2 of a full set", "get"),
        measure("cache-hit-way-3", Some("baseline"), "microtask/call-cache hit, key in way 3 of a full set", "get"),
        measure(
            "wide-cache-hit-way-0",
            Some("baseline"),
            "microtask/call-cache hit, key in way 0 of a full set, 16-byte entries",
            "get",
        ),
        measure(
            "wide-cache-hit-way-1",
            Some("baseline"),
            "microtask/call-cache hit, key in way 1 of a full set, 16-byte entries",
            "get",
        ),
        measure(
            "wide-cache-hit-way-2",
            Some("baseline"),
            "microtask/call-cache hit, key in way 2 of a full set, 16-byte entries",
            "get",
        ),
        measure(
            "wide-cache-hit-way-3",
            Some("baseline"),
            "microtask/call-cache hit, key in way 3 of a full set, 16-byte entries",
            "get",
        ),
        measure("cache-miss", Some("baseline"), "microtask/call-cache miss", "get"),
        measure(
            "cache-miss-insert-48-keys",
            Some("baseline-48-keys"),
            "microtask/call-cache miss + insert (evicting), 48 keys round robin",
            "get",
        ),
        measure("inbox-post-take", Some("baseline"), "microtask/inbox post + try_take, one thread", "task"),
    ]);
    if let (Some(ours), Some(boxed)) = (counts[0], counts[1]) {
        println!(
            "fact: callgrind: JobQueue uses {:.3}× the instructions per job of the boxed-closure queue (target ≤ 0.333)",
            ours / boxed
        );
    }
}

fn queue_drain(c: &mut Criterion) {
    let mut group = c.benchmark_group("microtask/queue-drain");
    group.throughput(Throughput::Elements(BURST));
    group.bench_function("JobQueue, 64 jobs", |b| {
        let mut queue = JobQueue::new();
        let mut sum = 0;
        job_queue_burst(&mut queue, 0, &mut sum);
        let mut round = 0;
        b.iter(|| {
            round += 1;
            job_queue_burst(&mut queue, black_box(round), &mut sum);
        });
        black_box(sum);
    });
    group.bench_function("VecDeque<Box<dyn FnOnce>>, 64 jobs", |b| {
        let mut queue = BoxedQueue::new();
        let mut sum = 0;
        boxed_burst(&mut queue, 0, &mut sum);
        let mut round = 0;
        b.iter(|| {
            round += 1;
            boxed_burst(&mut queue, black_box(round), &mut sum);
        });
        black_box(sum);
    });
    group.finish();
}

fn call_cache(c: &mut Criterion) {
    let mut group = c.benchmark_group("microtask/call-cache");
    group.bench_function("hit, same key", |b| {
        let (mut cache, keys) = warm_cache();
        b.iter(|| cache.get(black_box(keys[5])));
    });
    group.bench_function("hit, 16 keys round robin", |b| {
        let (mut cache, keys) = warm_cache();
        let mut i = 0_usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            cache.get(keys[i & 15])
        });
    });
    group.bench_function("hit, key in way 3 of a full set", |b| {
        let (mut cache, keys) = full_set_cache(setup_of);
        b.iter(|| cache.get(black_box(keys[3])));
    });
    group.bench_function("miss", |b| {
        let (mut cache, _) = warm_cache();
        let absent = callee(1000);
        b.iter(|| cache.get(black_box(absent)));
    });
    group.bench_function("miss + insert, 48 keys round robin", |b| {
        let mut cache = Cache::new();
        let keys: Vec<NonZeroU64> = (0..48).map(callee).collect();
        let mut i = 0_usize;
        b.iter(|| {
            i = (i + 1) % 48;
            let key = keys[i];
            let setup = cache.get(key).unwrap_or_else(|| {
                cache.insert(key, setup_of(key));
                setup_of(key)
            });
            u64::from(setup.frame_size) + u64::from(setup.call_registers.get())
        });
    });
    group.finish();
}

/// Post→run latency: the main thread posts to an echo thread, which runs
/// the task by posting it back; half a round trip is one post→run.
fn inbox_latency(c: &mut Criterion) {
    let mut group = c.benchmark_group("microtask/inbox-latency");
    group.bench_function("round trip between two threads (2 × post→run)", |b| {
        let to_echo: Arc<RemoteInbox<u64>> = Arc::new(RemoteInbox::new());
        let to_main: Arc<RemoteInbox<u64>> = Arc::new(RemoteInbox::new());
        let echo = {
            let (to_echo, to_main) = (Arc::clone(&to_echo), Arc::clone(&to_main));
            thread::spawn(move || {
                while to_echo.wait(None) == WaitStatus::Ready {
                    while let Some(task) = to_echo.try_take() {
                        to_main.post(task + 1).expect("main inbox open");
                    }
                }
            })
        };
        b.iter(|| {
            to_echo.post(black_box(1)).expect("echo inbox open");
            loop {
                to_main.wait(None);
                if let Some(answer) = to_main.try_take() {
                    break answer;
                }
            }
        });
        to_echo.close();
        echo.join().expect("echo thread");
    });
    group.bench_function("post + take, one thread", |b| {
        let inbox = RemoteInbox::new();
        b.iter(|| {
            inbox.post(black_box(1_u64)).expect("open inbox");
            inbox.try_take()
        });
    });
    group.finish();
}

/// Throughput: two producer threads post 20 000 tasks in all; the loop
/// waits and takes batches.
fn inbox_throughput(c: &mut Criterion) {
    const PER_PRODUCER: u64 = 10_000;
    const PRODUCERS: u64 = 2;
    let mut group = c.benchmark_group("microtask/inbox-throughput");
    group.throughput(Throughput::Elements(PER_PRODUCER * PRODUCERS)).sample_size(20);
    group.bench_function("2 producers → 1 loop, batches", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut batch = VecDeque::new();
            for _ in 0..iters {
                let inbox: Arc<RemoteInbox<u64>> = Arc::new(RemoteInbox::new());
                let start = Instant::now();
                let producers: Vec<_> = (0..PRODUCERS)
                    .map(|_| {
                        let inbox = Arc::clone(&inbox);
                        thread::spawn(move || {
                            for n in 0..PER_PRODUCER {
                                inbox.post(n).expect("open inbox");
                            }
                        })
                    })
                    .collect();
                let mut received = 0;
                let mut sum = 0_u64;
                while received < PER_PRODUCER * PRODUCERS {
                    inbox.wait(None);
                    received += inbox.take_all(&mut batch) as u64;
                    sum += batch.drain(..).sum::<u64>();
                }
                total += start.elapsed();
                black_box(sum);
                for producer in producers {
                    producer.join().expect("producer thread");
                }
            }
            total
        });
    });
    group.finish();
}

fn main() {
    if let Some((op, count)) = bench_support::callgrind::child_request() {
        run_counted(&op, count);
        return;
    }
    instruction_facts();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    queue_drain(&mut criterion);
    call_cache(&mut criterion);
    inbox_latency(&mut criterion);
    inbox_throughput(&mut criterion);
    criterion.final_summary();
}
