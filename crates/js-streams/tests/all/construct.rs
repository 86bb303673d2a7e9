//! The JavaScript constructors and methods as an engine's bindings call
//! the algorithms, after argument conversion.

use js_streams::pipe_to::{PipeOptions, readable_stream_pipe_to};
use js_streams::readable_stream::new_readable_stream;
use js_streams::readable_stream_default_controller::{StartAlgorithm, set_up_readable_stream_default_controller};
use js_streams::readable_stream_default_reader::{acquire_readable_stream_default_reader, reader_read};
use js_streams::slots::{SinkAlgorithms, SourceAlgorithms};
use js_streams::transform_stream::{TransformerInit, create_transform_stream};
use js_streams::writable_stream::new_writable_stream;
use js_streams::writable_stream_default_controller::set_up_writable_stream_default_controller;
use js_streams::writable_stream_default_writer::{acquire_writable_stream_default_writer, writer_write};

use crate::host::{Object, Promise, TestHost, Value};

/// An underlying source: its methods (`undefined` when absent) and
/// strategy.
#[derive(Clone, Copy)]
pub struct Source {
    pub start: Value,
    pub pull: Value,
    pub cancel: Value,
    pub high_water_mark: f64,
    pub size: Value,
}

impl Default for Source {
    fn default() -> Self {
        Self {
            start: Value::Undefined,
            pull: Value::Undefined,
            cancel: Value::Undefined,
            high_water_mark: 1.0,
            size: Value::Undefined,
        }
    }
}

/// `new ReadableStream(source, strategy)`: the stream and its controller.
pub fn readable(host: &mut TestHost, source: Source) -> (Object, Object) {
    let stream = new_readable_stream(host);
    let this_value = host.record(Vec::new());
    let controller = set_up_readable_stream_default_controller(
        host,
        stream,
        StartAlgorithm::User { this_value, start: source.start },
        SourceAlgorithms::User { source: this_value, pull: source.pull, cancel: source.cancel },
        source.high_water_mark,
        source.size,
    )
    .expect("start does not throw");
    (stream, controller)
}

/// An underlying sink: its methods and strategy.
#[derive(Clone, Copy)]
pub struct Sink {
    pub start: Value,
    pub write: Value,
    pub close: Value,
    pub abort: Value,
    pub high_water_mark: f64,
}

impl Default for Sink {
    fn default() -> Self {
        Self {
            start: Value::Undefined,
            write: Value::Undefined,
            close: Value::Undefined,
            abort: Value::Undefined,
            high_water_mark: 1.0,
        }
    }
}

/// `new WritableStream(sink, strategy)`: the stream and its controller.
pub fn writable(host: &mut TestHost, sink: Sink) -> (Object, Object) {
    let stream = new_writable_stream(host);
    let this_value = host.record(Vec::new());
    let controller = set_up_writable_stream_default_controller(
        host,
        stream,
        StartAlgorithm::User { this_value, start: sink.start },
        SinkAlgorithms::User { sink: this_value, write: sink.write, close: sink.close, abort: sink.abort },
        sink.high_water_mark,
        Value::Undefined,
    )
    .expect("start does not throw");
    (stream, controller)
}

/// A transformer's methods.
#[derive(Clone, Copy)]
pub struct Transformer {
    pub start: Value,
    pub transform: Value,
    pub flush: Value,
    pub cancel: Value,
}

impl Default for Transformer {
    fn default() -> Self {
        Self { start: Value::Undefined, transform: Value::Undefined, flush: Value::Undefined, cancel: Value::Undefined }
    }
}

/// `new TransformStream(transformer)` with the default strategies
/// (writable high-water mark 1, readable 0).
pub fn transform(host: &mut TestHost, transformer: Transformer) -> Object {
    let this_value = host.record(Vec::new());
    create_transform_stream(
        host,
        TransformerInit {
            transformer: this_value,
            start: transformer.start,
            transform: transformer.transform,
            flush: transformer.flush,
            cancel: transformer.cancel,
            writable_high_water_mark: 1.0,
            writable_size: Value::Undefined,
            readable_high_water_mark: 0.0,
            readable_size: Value::Undefined,
        },
    )
    .expect("start does not throw")
}

/// A `pull` that enqueues `1`, `2`, … up to `count`, then closes.
pub fn counting_pull(host: &mut TestHost, count: u32) -> Value {
    let next = std::cell::Cell::new(0);
    host.function(move |host, _this, args| {
        let Value::Stream(controller) = args[0] else { panic!("pull gets the controller") };
        let n = next.get() + 1;
        next.set(n);
        host.log.push(format!("pull {n}"));
        if n > count {
            js_streams::readable_stream_default_controller::readable_stream_default_controller_close(host, controller);
        } else {
            js_streams::readable_stream_default_controller::readable_stream_default_controller_enqueue(
                host,
                controller,
                Value::Num(f64::from(n)),
            )?;
        }
        Ok(Value::Undefined)
    })
}

/// A sink `write` that logs the chunk and returns `undefined`.
pub fn logging_write(host: &mut TestHost) -> Value {
    host.logging("write", Value::Undefined)
}

/// A default reader of `stream`.
pub fn reader(host: &mut TestHost, stream: Object) -> Object {
    acquire_readable_stream_default_reader(host, stream).expect("unlocked")
}

/// A writer of `stream`.
pub fn writer(host: &mut TestHost, stream: Object) -> Object {
    acquire_writable_stream_default_writer(host, stream).expect("unlocked")
}

/// `reader.read()`, observed under `label`.
pub fn read(host: &mut TestHost, reader: Object, label: &'static str) -> Promise {
    let promise = reader_read(host, reader);
    host.observe(promise, label);
    promise
}

/// `writer.write(chunk)`, observed under `label`.
pub fn write(host: &mut TestHost, writer: Object, chunk: Value, label: &'static str) -> Promise {
    let promise = writer_write(host, writer, chunk);
    host.observe(promise, label);
    promise
}

/// `source.pipeTo(dest, options)`, observed as `pipe`.
pub fn pipe(host: &mut TestHost, source: Object, dest: Object, options: PipeOptions, signal: Option<Value>) -> Promise {
    let promise = readable_stream_pipe_to(host, source, dest, options, signal).expect("unlocked");
    host.observe(promise, "pipe");
    promise
}

/// The log since the last call, emptied.
pub fn take_log(host: &mut TestHost) -> Vec<String> {
    std::mem::take(&mut host.log)
}
