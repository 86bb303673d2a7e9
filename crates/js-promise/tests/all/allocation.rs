//! Allocation accounting with `HeapStats`: objects and bytes per operation,
//! with and without an active async-context frame or embedder context.

use std::fmt::Write as _;

use js_async_context::Frame;
use js_gc::HeapStats;
use std::hint::black_box;

use js_promise::promise_then;

use crate::host::{Promise, TestHost, Value};

/// What one operation allocated.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Delta {
    objects: u64,
    bytes: u64,
    by_type: Vec<(&'static str, u64)>,
}

fn delta(before: &HeapStats, after: &HeapStats) -> Delta {
    let by_type = after
        .types
        .iter()
        .filter_map(|t| {
            let grown = t.objects - before.objects_of(t.name);
            (grown > 0).then_some((t.name, grown))
        })
        .collect();
    Delta { objects: after.live_objects - before.live_objects, bytes: after.live_bytes - before.live_bytes, by_type }
}

#[derive(Clone, Copy, Debug)]
enum Row {
    AwaitNonObject,
    AwaitSettled,
    AwaitPending,
    AwaitPendingSecondReaction,
    Then,
    ThenBoth,
    ThenSecondReaction,
}

impl Row {
    const ALL: [Row; 7] = [
        Row::AwaitNonObject,
        Row::AwaitSettled,
        Row::AwaitPending,
        Row::AwaitPendingSecondReaction,
        Row::Then,
        Row::ThenBoth,
        Row::ThenSecondReaction,
    ];

    fn label(self) -> &'static str {
        match self {
            Row::AwaitNonObject => "await of a non-object",
            Row::AwaitSettled => "await of a settled promise",
            Row::AwaitPending => "await of a pending promise (first reaction)",
            Row::AwaitPendingSecondReaction => "await of a pending promise (second reaction)",
            Row::Then => "pending.then(f)",
            Row::ThenBoth => "pending.then(f, g)",
            Row::ThenSecondReaction => "pending.then(f) (second reaction)",
        }
    }
}

/// The context an operation runs under.
#[derive(Clone, Copy, Debug)]
enum Context {
    Nothing,
    Frame,
    Embedder,
}

/// Runs `row` once (setup outside the measurement) and returns what the
/// operation itself allocated.
fn measure(row: Row, context: Context) -> Delta {
    let mut host = TestHost::new();
    let frame = if matches!(context, Context::Frame) {
        let als = host.context.create_variable().expect("a variable");
        Some(Frame::new(&mut host.heap, als, Value::Int(1)))
    } else {
        None
    };
    if matches!(context, Context::Embedder) {
        let resource = host.thenable(Value::Undefined);
        host.embedder_context = Some(resource);
    }
    let resume = host.func(|_, _| Ok(Value::Undefined));
    let f = host.func(|_, _| Ok(Value::Undefined));
    let g = host.func(|_, _| Ok(Value::Undefined));
    let settled = host.fulfilled(Value::Int(1));
    let pending = host.pending();
    let busy: Promise = host.pending();
    host.await_with(Value::Promise(busy), resume).expect("first reaction");
    host.then(busy, f, Value::Undefined);
    host.run_in(frame, |host| {
        let before = host.heap.stats();
        match row {
            Row::AwaitNonObject => host.await_with(Value::Int(3), resume).map(drop).expect("await"),
            Row::AwaitSettled => host.await_with(Value::Promise(settled), resume).map(drop).expect("await"),
            Row::AwaitPending => host.await_with(Value::Promise(pending), resume).map(drop).expect("await"),
            Row::AwaitPendingSecondReaction => host.await_with(Value::Promise(busy), resume).map(drop).expect("await"),
            Row::Then => {
                black_box(promise_then(host, pending, f, Value::Undefined));
            }
            Row::ThenBoth => {
                black_box(promise_then(host, pending, f, g));
            }
            Row::ThenSecondReaction => {
                black_box(promise_then(host, busy, f, Value::Undefined));
            }
        }
        let after = host.heap.stats();
        delta(&before, &after)
    })
}

#[test]
fn allocation_per_operation_meets_the_targets() {
    let mut table = String::from(
        "| operation | no frame: objects | bytes | active frame: objects | bytes | cells |\n|---|---|---|---|---|---|\n",
    );
    for row in Row::ALL {
        let plain = measure(row, Context::Nothing);
        let framed = measure(row, Context::Frame);
        // An active frame adds no object and no byte; nor does an embedder
        // context (it rides in the same slot).
        assert_eq!(plain, framed, "{}: an active frame changed the allocation", row.label());
        let embedder = measure(row, Context::Embedder);
        assert_eq!(plain, embedder, "{}: an embedder context changed the allocation", row.label());
        let expected: &[(&str, u64)] = match row {
            Row::AwaitNonObject | Row::AwaitSettled | Row::AwaitPending => &[],
            Row::AwaitPendingSecondReaction => &[("PromiseSlimReaction", 1)],
            Row::Then | Row::ThenBoth => &[("Promise", 1)],
            Row::ThenSecondReaction => &[("Promise", 1), ("PromiseReaction", 1)],
        };
        assert_eq!(plain.by_type, expected, "{}", row.label());
        if matches!(row, Row::AwaitNonObject) {
            assert_eq!((plain.objects, plain.bytes), (0, 0));
        }
        let cells: Vec<String> = plain.by_type.iter().map(|(name, n)| format!("{n} {name}")).collect();
        let _ = writeln!(
            table,
            "| {} | {} | {} | {} | {} | {} |",
            row.label(),
            plain.objects,
            plain.bytes,
            framed.objects,
            framed.bytes,
            if cells.is_empty() { "none".to_string() } else { cells.join(", ") }
        );
    }
    println!("{table}");
}

#[test]
fn reaction_and_promise_cell_sizes() {
    let mut host = TestHost::new();
    let busy = host.pending();
    let resume = host.func(|_, _| Ok(Value::Undefined));
    let f = host.func(|_, _| Ok(Value::Undefined));
    host.await_with(Value::Promise(busy), resume).expect("inline");
    host.await_with(Value::Promise(busy), resume).expect("slim");
    promise_then(&mut host, busy, f, Value::Undefined);
    let stats = host.heap.stats();
    let size = |name: &str| stats.types.iter().find(|t| t.name == name).map(|t| t.cell_size);
    println!(
        "cell sizes (header included, before size-class rounding): Promise {:?}, PromiseSlimReaction {:?}, PromiseReaction {:?}",
        size("Promise"),
        size("PromiseSlimReaction"),
        size("PromiseReaction")
    );
    assert!(size("PromiseSlimReaction") < size("PromiseReaction"));
}
