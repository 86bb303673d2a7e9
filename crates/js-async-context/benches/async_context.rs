//! js-async-context benchmarks: `capture()` with tracking off and on, a swap
//! scope's enter + exit, and frame reads and writes. Wall time with
//! criterion; instructions per operation with callgrind (`fact:` lines).
//! Allocation counts come from the separate `allocations` benchmark binary,
//! so no counting allocator perturbs these measurements.
//! Run with `cargo xtask bench async-context`.

mod workload;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use js_async_context::{ContextState, Frame, SwapScope};
use workload::tracking;

/// The callgrind harness: 100,000 operations in the shorter run.
const CALLGRIND: bench_support::callgrind::Callgrind = bench_support::callgrind::Callgrind::new(100_000);

#[inline]
fn swap_scope(state: &mut ContextState<u64>, captured: Option<Frame<u64>>) {
    // The state is behind `black_box`ed pointers, so the scope's stores
    // cannot be optimised away.
    drop(SwapScope::enter(state, captured));
}

/// Runs `count` repetitions of `op` under callgrind (the child side of
/// [`callgrind::report`]).
fn run_counted(op: &str, count: u64) {
    let off: ContextState<u64> = ContextState::new();
    let mut off_mut: ContextState<u64> = ContextState::new();
    let mut on = tracking();
    match op {
        "baseline" => {
            for _ in 0..count {
                black_box(black_box(&off));
            }
        }
        "capture-off" => {
            for _ in 0..count {
                black_box(black_box(&off).capture());
            }
        }
        "capture-on" => {
            for _ in 0..count {
                black_box(black_box(&on.state).capture());
            }
        }
        "baseline-swap" => {
            for _ in 0..count {
                black_box(black_box(&mut on.state));
                black_box(Some(on.other));
            }
        }
        "swap-off" => {
            for _ in 0..count {
                swap_scope(black_box(&mut off_mut), black_box(None));
            }
        }
        "swap-on" => {
            for _ in 0..count {
                swap_scope(black_box(&mut on.state), black_box(Some(on.other)));
            }
        }
        "swap-on-same" => {
            let current = on.state.current();
            for _ in 0..count {
                swap_scope(black_box(&mut on.state), black_box(current));
            }
        }
        "frame-get" => {
            let frame = on.state.current().expect("frame");
            for _ in 0..count {
                black_box(black_box(frame).get(&on.heap, on.variables[2]));
            }
        }
        _ => panic!("unknown callgrind operation {op}"),
    }
}

fn instruction_facts() {
    let measure = |op, baseline, label, unit| bench_support::callgrind::Measure { op, baseline, label, unit };
    CALLGRIND.report(&[
        measure("capture-off", Some("baseline"), "async-context/capture tracking off", "capture"),
        measure("capture-on", Some("baseline"), "async-context/capture tracking on", "capture"),
        measure("swap-off", Some("baseline-swap"), "async-context/swap-scope tracking off (enter + exit)", "scope"),
        measure(
            "swap-on",
            Some("baseline-swap"),
            "async-context/swap-scope tracking on, installs a frame (enter + exit)",
            "scope",
        ),
        measure(
            "swap-on-same",
            Some("baseline-swap"),
            "async-context/swap-scope tracking on, frame already current (enter + exit)",
            "scope",
        ),
        measure("frame-get", Some("baseline"), "async-context/frame get, 3 bindings", "get"),
    ]);
}

fn capture(c: &mut Criterion) {
    let mut group = c.benchmark_group("async-context/capture");
    let off: ContextState<u64> = ContextState::new();
    group.bench_function("tracking off", |b| b.iter(|| black_box(&off).capture()));
    let on = tracking();
    group.bench_function("tracking on", |b| b.iter(|| black_box(&on.state).capture()));
    group.finish();
}

fn swap(c: &mut Criterion) {
    let mut group = c.benchmark_group("async-context/swap-scope");
    let mut off: ContextState<u64> = ContextState::new();
    group.bench_function("tracking off: enter + exit", |b| b.iter(|| swap_scope(black_box(&mut off), None)));
    let mut on = tracking();
    let other = on.other;
    group.bench_function("tracking on, installs a frame: enter + exit", |b| {
        b.iter(|| swap_scope(black_box(&mut on.state), black_box(Some(other))));
    });
    let current = on.state.current();
    group.bench_function("tracking on, frame already current: enter + exit", |b| {
        b.iter(|| swap_scope(black_box(&mut on.state), black_box(current)));
    });
    group.finish();
}

fn frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("async-context/frame");
    let mut on = tracking();
    let current = on.state.current().expect("frame");
    let variable = on.variables[2];
    group.bench_function("get, 3 bindings", |b| b.iter(|| black_box(current).get(&on.heap, variable)));
    group.bench_function("with, 3 → 3 bindings (AsyncLocalStorage.run)", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut remaining = iters;
            while remaining > 0 {
                let batch = remaining.min(10_000);
                let start = Instant::now();
                for n in 0..batch {
                    black_box(current.with(&mut on.heap, variable, n));
                }
                total += start.elapsed();
                remaining -= batch;
                let mut roots = vec![current];
                // SAFETY: only `current` is used afterwards.
                unsafe { on.heap.collect(&mut roots) };
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
    capture(&mut criterion);
    swap(&mut criterion);
    frame(&mut criterion);
    criterion.final_summary();
}
