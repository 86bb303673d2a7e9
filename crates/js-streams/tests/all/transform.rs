//! TransformStream: transform, flush, backpressure, errors, terminate.

use js_streams::readable_stream::readable_stream_state;
use js_streams::slots::{ReadableState, WritableState};
use js_streams::transform_stream::{
    transform_controller_enqueue, transform_controller_terminate, transform_stream_readable, transform_stream_writable,
};
use js_streams::writable_stream::writable_stream_state;
use js_streams::writable_stream_default_writer::writer_close;

use crate::construct::{Transformer, read, reader, take_log, transform, write, writer};
use crate::host::{TestHost, Value};

/// A transform that enqueues each chunk twice.
fn doubling(host: &mut TestHost) -> Value {
    host.function(|host, _this, args| {
        let Value::Stream(controller) = args[1] else { panic!("transform gets the controller") };
        let line = format!("transform({})", host.describe(args[0]));
        host.log.push(line);
        transform_controller_enqueue(host, controller, args[0])?;
        transform_controller_enqueue(host, controller, args[0])?;
        Ok(Value::Undefined)
    })
}

#[test]
fn chunks_pass_through_without_a_transformer() {
    let mut host = TestHost::new();
    let stream = transform(&mut host, Transformer::default());
    let (writable, readable) =
        (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
    let writer = writer(&mut host, writable);
    let reader = reader(&mut host, readable);
    read(&mut host, reader, "read");
    write(&mut host, writer, Value::Str("x"), "write");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: \"x\", done: false}", "write: fulfilled undefined"]);
}

#[test]
fn transform_may_enqueue_several_chunks() {
    let mut host = TestHost::new();
    let transform_fn = doubling(&mut host);
    let stream = transform(&mut host, Transformer { transform: transform_fn, ..Transformer::default() });
    let (writable, readable) =
        (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
    let writer = writer(&mut host, writable);
    let reader = reader(&mut host, readable);
    read(&mut host, reader, "r1");
    read(&mut host, reader, "r2");
    write(&mut host, writer, Value::Num(3.0), "write");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        [
            "transform(3)",
            "r1: fulfilled {value: 3, done: false}",
            "r2: fulfilled {value: 3, done: false}",
            "write: fulfilled undefined"
        ]
    );
}

#[test]
fn backpressure_holds_the_transform_until_a_read() {
    let mut host = TestHost::new();
    let transform_fn = doubling(&mut host);
    let stream = transform(&mut host, Transformer { transform: transform_fn, ..Transformer::default() });
    let (writable, readable) =
        (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
    let writer = writer(&mut host, writable);
    write(&mut host, writer, Value::Num(1.0), "write");
    host.run_jobs();
    assert_eq!(take_log(&mut host), Vec::<String>::new(), "readable high-water mark 0: no transform before a read");
    let reader = reader(&mut host, readable);
    read(&mut host, reader, "read");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        ["transform(1)", "read: fulfilled {value: 1, done: false}", "write: fulfilled undefined"]
    );
}

#[test]
fn flush_runs_on_close_and_closes_the_readable_side() {
    let mut host = TestHost::new();
    let flush = host.logging("flush", Value::Undefined);
    let stream = transform(&mut host, Transformer { flush, ..Transformer::default() });
    let (writable, readable) =
        (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
    let writer = writer(&mut host, writable);
    let reader = reader(&mut host, readable);
    read(&mut host, reader, "read");
    let closing = writer_close(&mut host, writer);
    host.observe(closing, "close");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        ["flush([stream object])", "read: fulfilled {value: undefined, done: true}", "close: fulfilled undefined"]
    );
    assert_eq!(readable_stream_state(&mut host, readable), ReadableState::Closed);
}

#[test]
fn a_transform_that_throws_errors_both_sides() {
    let mut host = TestHost::new();
    let error = host.error_value("bad chunk");
    let transform_fn = host.throwing("transform", error);
    let stream = transform(&mut host, Transformer { transform: transform_fn, ..Transformer::default() });
    let (writable, readable) =
        (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
    let writer = writer(&mut host, writable);
    let reader = reader(&mut host, readable);
    read(&mut host, reader, "read");
    write(&mut host, writer, Value::Num(1.0), "write");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        [
            "transform(1, [stream object])",
            "read: rejected TypeError: bad chunk",
            "write: rejected TypeError: bad chunk"
        ]
    );
    assert_eq!(readable_stream_state(&mut host, readable), ReadableState::Errored);
    assert_eq!(writable_stream_state(&mut host, writable), WritableState::Errored);
}

#[test]
fn terminate_closes_the_readable_side_and_errors_the_writable_side() {
    let mut host = TestHost::new();
    let terminate = host.function(|host, _this, args| {
        let Value::Stream(controller) = args[0] else { panic!("start gets the controller") };
        host.log.push("start: terminate".to_owned());
        transform_controller_terminate(host, controller);
        Ok(Value::Undefined)
    });
    let stream = transform(&mut host, Transformer { start: terminate, ..Transformer::default() });
    let (writable, readable) =
        (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["start: terminate"]);
    assert_eq!(readable_stream_state(&mut host, readable), ReadableState::Closed);
    assert_eq!(writable_stream_state(&mut host, writable), WritableState::Errored);
}

#[test]
fn cancelling_the_readable_side_calls_the_transformer_cancel() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let stream = transform(&mut host, Transformer { cancel, ..Transformer::default() });
    let (writable, readable) =
        (transform_stream_writable(&mut host, stream), transform_stream_readable(&mut host, stream));
    let cancelled = js_streams::readable_stream::readable_stream_cancel(&mut host, readable, Value::Str("enough"));
    host.observe(cancelled, "cancel result");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["cancel(\"enough\")", "cancel result: fulfilled undefined"]);
    assert_eq!(writable_stream_state(&mut host, writable), WritableState::Errored);
}
