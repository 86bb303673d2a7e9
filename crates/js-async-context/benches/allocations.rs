//! Heap allocations per operation of the js-async-context workloads,
//! counted by this binary's global allocator (per thread) and printed as
//! `fact:` lines. A binary of its own, so the counting allocator perturbs no
//! timing or instruction count. Run by `cargo xtask bench async-context`.

mod workload;

use std::hint::black_box;

use bench_support::counting_allocator::{CountingAllocator, report};
use js_async_context::{ContextState, SwapScope};
use workload::tracking;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Allocations per capture, per swap scope and per new frame, as `fact:`
/// lines.
fn main() {
    const OPS: u64 = 100_000;
    report("async-context/capture + swap-scope, tracking off", "job", OPS, ContextState::<u64>::new, |state| {
        for _ in 0..OPS {
            let captured = state.capture();
            drop(SwapScope::enter(black_box(&mut *state), captured));
        }
    });
    report("async-context/capture + swap-scope, tracking on", "job", OPS, tracking, |on| {
        let other = on.other;
        for n in 0..OPS {
            let captured = if n % 2 == 0 { on.state.capture() } else { Some(other) };
            drop(SwapScope::enter(black_box(&mut on.state), captured));
        }
    });
    report("async-context/frame with (AsyncLocalStorage.run)", "frame", OPS, tracking, |on| {
        let current = on.state.current().expect("frame");
        for n in 0..OPS {
            black_box(current.with(&mut on.heap, on.variables[2], n));
        }
    });
}
