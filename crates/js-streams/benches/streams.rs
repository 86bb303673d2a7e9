#![allow(clippy::doc_markdown, reason = "spec names (TransformStream) are prose here, not code")]

//! Per-chunk costs of the stream state machines over the reference host of
//! the integration tests (`tests/all/host.rs`): wall time with criterion,
//! and heap cells and Rust allocations per chunk as `fact:` lines. Run by
//! `cargo xtask bench js-streams`. The heap is collected every 4096
//! chunks inside the timed loop (its cost is part of a chunk's), and the
//! counting allocator adds a thread-local increment per allocation.

#[allow(dead_code, reason = "the benchmarks use part of the test host")]
#[path = "../tests/all/construct.rs"]
mod construct;
#[allow(dead_code, reason = "the benchmarks use part of the test host")]
#[path = "../tests/all/host.rs"]
mod host;

use std::hint::black_box;
use std::time::Duration;

use bench_support::counting_allocator::{CountingAllocator, allocations_during};
use criterion::Criterion;
use js_streams::readable_stream_async_iterator::{async_iterator_next, readable_stream_values};
use js_streams::readable_stream_default_controller::readable_stream_default_controller_enqueue;
use js_streams::readable_stream_default_reader::reader_read;
use js_streams::transform_stream::{transform_stream_readable, transform_stream_writable};
use js_streams::writable_stream_default_writer::writer_write;

use construct::{Sink, Source, Transformer, readable, reader, transform, writable, writer};
use host::{Object, TestHost, Value};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// One per-chunk path.
#[derive(Clone, Copy)]
enum Op {
    /// `controller.enqueue(c)` then `reader.read()` of the buffered chunk.
    BufferedRead,
    /// `reader.read()` pending, answered by `controller.enqueue(c)`.
    PendingRead,
    /// `iterator.next()` of a buffered chunk.
    BufferedNext,
    /// `writer.write(c)` to a sink whose `write` returns `undefined`.
    Write,
    /// `writer.write(c)` into an identity `TransformStream`, read out.
    TransformPassThrough,
}

impl Op {
    const ALL: [Op; 5] = [Op::BufferedRead, Op::PendingRead, Op::BufferedNext, Op::Write, Op::TransformPassThrough];

    fn name(self) -> &'static str {
        match self {
            Op::BufferedRead => "read of a buffered chunk (enqueue + read + drain)",
            Op::PendingRead => "pending read answered by enqueue (+ drain)",
            Op::BufferedNext => "async iterator next of a buffered chunk (+ drain)",
            Op::Write => "write to a sink (+ drain)",
            Op::TransformPassThrough => "identity transform: write + read (+ drain)",
        }
    }
}

/// A host with the streams one op needs, kept across collections.
struct Bench {
    host: TestHost,
    op: Op,
    /// The controller or writer the op writes to.
    input: Object,
    /// The reader or iterator the op reads from.
    output: Object,
    keep: Vec<Value>,
    ops_since_collection: u32,
}

impl Bench {
    fn new(op: Op) -> Self {
        let mut host = TestHost::new();
        let (input, output) = match op {
            Op::BufferedRead | Op::PendingRead => {
                let (stream, controller) = readable(&mut host, Source::default());
                (controller, reader(&mut host, stream))
            }
            Op::BufferedNext => {
                let (stream, controller) = readable(&mut host, Source::default());
                (controller, readable_stream_values(&mut host, stream, false).expect("unlocked"))
            }
            Op::Write => {
                let write = host.function(|_host, _this, _args| Ok(Value::Undefined));
                let (stream, _) = writable(&mut host, Sink { write, high_water_mark: 16.0, ..Sink::default() });
                let writer = writer(&mut host, stream);
                (writer, writer)
            }
            Op::TransformPassThrough => {
                let stream = transform(&mut host, Transformer::default());
                let (w, r) =
                    (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
                (writer(&mut host, w), reader(&mut host, r))
            }
        };
        host.run_jobs();
        let keep = vec![Value::Stream(input), Value::Stream(output)];
        Self { host, op, input, output, keep, ops_since_collection: 0 }
    }

    fn run(&mut self) {
        let host = &mut self.host;
        let chunk = Value::Num(1.0);
        match self.op {
            Op::BufferedRead => {
                readable_stream_default_controller_enqueue(host, self.input, chunk).expect("enqueue");
                black_box(reader_read(host, self.output));
            }
            Op::PendingRead => {
                let promise = reader_read(host, self.output);
                readable_stream_default_controller_enqueue(host, self.input, chunk).expect("enqueue");
                black_box(promise);
            }
            Op::BufferedNext => {
                readable_stream_default_controller_enqueue(host, self.input, chunk).expect("enqueue");
                black_box(async_iterator_next(host, self.output));
            }
            Op::Write => {
                black_box(writer_write(host, self.input, chunk));
            }
            Op::TransformPassThrough => {
                let read = reader_read(host, self.output);
                black_box(writer_write(host, self.input, chunk));
                black_box(read);
            }
        }
        host.run_jobs();
        self.ops_since_collection += 1;
        if self.ops_since_collection == 4096 {
            self.ops_since_collection = 0;
            // SAFETY: the bench uses only its input and output objects
            // afterwards, which are `keep`; the drain just ended.
            unsafe { self.host.collect(&self.keep) };
        }
    }
}

/// Heap cells and Rust allocations per chunk once warm, as `fact:` lines.
fn allocation_facts() {
    const OPS: u32 = 1000;
    for op in Op::ALL {
        let mut bench = Bench::new(op);
        bench.run();
        // SAFETY: as in `Bench::run`.
        unsafe { bench.host.collect(&bench.keep) };
        let before = bench.host.heap.stats().live_objects;
        let allocations = allocations_during(|| {
            for _ in 0..OPS {
                bench.run();
            }
        });
        let cells = bench.host.heap.stats().live_objects - before;
        println!(
            "fact: allocations: streams/{}: {:.2} heap cells and {:.2} Rust allocations per chunk ({cells} cells, {allocations} allocations in {OPS} chunks)",
            op.name(),
            f64::from(u32::try_from(cells).unwrap_or(u32::MAX)) / f64::from(OPS),
            allocations as f64 / f64::from(OPS),
        );
    }
}

fn wall_time(c: &mut Criterion) {
    let mut group = c.benchmark_group("streams/per-chunk");
    for op in Op::ALL {
        group.bench_function(op.name(), |b| {
            let mut bench = Bench::new(op);
            bench.run();
            b.iter(|| bench.run());
        });
    }
    group.finish();
}

fn main() {
    allocation_facts();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    wall_time(&mut criterion);
    criterion.final_summary();
}
