//! js-promise benchmarks: the rows of the allocation table (await of a
//! non-object, of a settled promise, of a pending promise; `pending.then(f)`,
//! `pending.then(f, g)`), each without and with an active async-context
//! frame. Wall time with criterion (groups `promise/...`); instructions per
//! operation with callgrind, printed as `fact:` lines. Run with
//! `cargo xtask bench promise`.
//!
//! Every operation is a whole cycle: register, settle where the row needs
//! it, and drain the jobs it queued (through the test host's closure-based
//! functions). Rows on a pending promise include making and fulfilling it;
//! the `new + fulfill + drain` baseline measures that part alone and is
//! subtracted in the instruction facts.

#[allow(dead_code, reason = "the benchmarks use part of the test host")]
#[path = "../tests/all/host.rs"]
mod host;

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use host::{TestHost, Value};
use js_async_context::Frame;
use js_promise::{PromiseHost, fulfill_promise, promise_then};

/// The callgrind harness: 20,000 operations in the shorter run.
const CALLGRIND: bench_support::callgrind::Callgrind = bench_support::callgrind::Callgrind::new(20_000);

/// One benchmarked operation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Baseline,
    AwaitNonObject,
    AwaitSettled,
    AwaitPending,
    Then,
    ThenBoth,
}

impl Op {
    const ALL: [Op; 6] = [Op::Baseline, Op::AwaitNonObject, Op::AwaitSettled, Op::AwaitPending, Op::Then, Op::ThenBoth];

    fn name(self) -> &'static str {
        match self {
            Op::Baseline => "new + fulfill + drain (baseline)",
            Op::AwaitNonObject => "await non-object",
            Op::AwaitSettled => "await settled promise",
            Op::AwaitPending => "await pending promise",
            Op::Then => "pending.then(f)",
            Op::ThenBoth => "pending.then(f, g)",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Op::Baseline => "baseline",
            Op::AwaitNonObject => "await-non-object",
            Op::AwaitSettled => "await-settled",
            Op::AwaitPending => "await-pending",
            Op::Then => "then-f",
            Op::ThenBoth => "then-f-g",
        }
    }

    fn from_key(key: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.key() == key)
    }
}

/// The host and the values every operation uses, made once.
struct Bench {
    host: TestHost,
    frame: Option<Frame<Value>>,
    resume: Value,
    f: Value,
    g: Value,
    settled: host::Promise,
}

impl Bench {
    fn new(with_frame: bool) -> Self {
        let mut host = TestHost::new();
        let frame = if with_frame {
            let als = host.context.create_variable().expect("a variable");
            Some(Frame::new(&mut host.heap, als, Value::Int(1)))
        } else {
            None
        };
        if let Some(frame) = frame {
            host.root(Value::Cell(frame.as_any()));
        }
        let resume = host.func(|_, _| Ok(Value::Undefined));
        let f = host.func(|_, args| Ok(args[0]));
        let g = host.func(|_, args| Ok(args[0]));
        let settled = host.fulfilled(Value::Int(1));
        Self { host, frame, resume, f, g, settled }
    }

    /// One operation, its jobs drained.
    fn run(&mut self, op: Op) {
        let Self { host, frame, resume, f, g, settled } = self;
        let (resume, f, g, settled) = (*resume, *f, *g, *settled);
        host.run_in(*frame, |host| {
            match op {
                Op::Baseline => {
                    let p = host.new_promise();
                    fulfill_promise(host, p, Value::Int(2));
                }
                Op::AwaitNonObject => host.await_with(black_box(Value::Int(3)), resume).map(drop).expect("await"),
                Op::AwaitSettled => host.await_with(Value::Promise(settled), resume).map(drop).expect("await"),
                Op::AwaitPending => {
                    let p = host.new_promise();
                    host.await_with(Value::Promise(p), resume).map(drop).expect("await");
                    fulfill_promise(host, p, Value::Int(2));
                }
                Op::Then | Op::ThenBoth => {
                    let p = host.new_promise();
                    let on_rejected = if op == Op::ThenBoth { g } else { Value::Undefined };
                    black_box(promise_then(host, p, f, on_rejected));
                    fulfill_promise(host, p, Value::Int(2));
                }
            }
            host.run_microtasks();
        });
    }
}

fn run_counted(key: &str, count: u64) {
    let (name, with_frame) = match key.strip_suffix("+frame") {
        Some(name) => (name, true),
        None => (key, false),
    };
    let op = Op::from_key(name).unwrap_or_else(|| panic!("unknown callgrind operation {key}"));
    let mut bench = Bench::new(with_frame);
    bench.run(op);
    for _ in 0..count {
        bench.run(op);
    }
}

fn instruction_facts() {
    for with_frame in [false, true] {
        let suffix = if with_frame { "+frame" } else { "" };
        let frame_label = if with_frame { "active frame" } else { "no frame" };
        let baseline = CALLGRIND.per_op(&format!("baseline{suffix}")).ok();
        for op in Op::ALL {
            let key = format!("{}{suffix}", op.key());
            match CALLGRIND.per_op(&key) {
                Ok(raw) => {
                    let subtract = matches!(op, Op::AwaitPending | Op::Then | Op::ThenBoth);
                    match (subtract, baseline) {
                        (true, Some(base)) => println!(
                            "fact: callgrind: promise/{} ({frame_label}): {:.0} instructions/op beyond the baseline ({raw:.0} with new + fulfill + drain)",
                            op.name(),
                            raw - base
                        ),
                        _ => println!(
                            "fact: callgrind: promise/{} ({frame_label}): {raw:.0} instructions/op (registration, job and drain)",
                            op.name()
                        ),
                    }
                }
                Err(error) => {
                    println!("fact: callgrind: promise/{} ({frame_label}): not measured ({error})", op.name());
                }
            }
        }
    }
}

fn wall_time(c: &mut Criterion) {
    for with_frame in [false, true] {
        let group_name = if with_frame { "promise/ops-active-frame" } else { "promise/ops-no-frame" };
        let mut group = c.benchmark_group(group_name);
        for op in Op::ALL {
            group.bench_function(op.name(), |b| {
                let mut bench = Bench::new(with_frame);
                bench.run(op);
                b.iter(|| bench.run(op));
            });
        }
        group.finish();
    }
}

fn main() {
    if let Some((op, count)) = bench_support::callgrind::child_request() {
        run_counted(&op, count);
        return;
    }
    instruction_facts();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    wall_time(&mut criterion);
    criterion.final_summary();
}
