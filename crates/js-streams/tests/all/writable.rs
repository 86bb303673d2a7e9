//! WritableStream with its default controller and writer.

use js_streams::slots::WritableState;
use js_streams::writable_stream::{writable_stream_abort, writable_stream_state};
use js_streams::writable_stream_default_controller::{desired_size, writable_stream_default_controller_error};
use js_streams::writable_stream_default_writer::{
    acquire_writable_stream_default_writer, writable_stream_default_writer_release, writer_close, writer_closed,
    writer_desired_size, writer_ready,
};

use crate::construct::{Sink, logging_write, take_log, writable, write, writer};
use crate::host::{TestHost, Value};

#[test]
fn writes_reach_the_sink_in_order_one_at_a_time() {
    let mut host = TestHost::new();
    let write_fn = logging_write(&mut host);
    let (stream, _) = writable(&mut host, Sink { write: write_fn, high_water_mark: 4.0, ..Sink::default() });
    let writer = writer(&mut host, stream);
    write(&mut host, writer, Value::Num(1.0), "w1");
    write(&mut host, writer, Value::Num(2.0), "w2");
    assert_eq!(take_log(&mut host), Vec::<String>::new(), "the sink waits for start");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        // Finishing write 1 resolves its promise and starts write 2 at once,
        // before the promise's reaction runs.
        [
            "write(1, [stream object])",
            "write(2, [stream object])",
            "w1: fulfilled undefined",
            "w2: fulfilled undefined"
        ]
    );
}

#[test]
fn a_pending_sink_write_holds_the_next() {
    let mut host = TestHost::new();
    let first = host.pending_promise();
    let results = std::cell::RefCell::new(vec![Value::Undefined, Value::Promise(first)]);
    let write_fn = host.function(move |host, _this, args| {
        let line = format!("write({})", host.describe(args[0]));
        host.log.push(line);
        Ok(results.borrow_mut().pop().unwrap_or(Value::Undefined))
    });
    let (stream, _) = writable(&mut host, Sink { write: write_fn, high_water_mark: 4.0, ..Sink::default() });
    let writer = writer(&mut host, stream);
    write(&mut host, writer, Value::Num(1.0), "w1");
    write(&mut host, writer, Value::Num(2.0), "w2");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["write(1)"]);
    host.fulfill(first, Value::Undefined);
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["write(2)", "w1: fulfilled undefined", "w2: fulfilled undefined"]);
}

#[test]
#[allow(clippy::float_cmp, reason = "desired sizes here are exact small integers")]
fn backpressure_shows_in_desired_size_and_ready() {
    let mut host = TestHost::new();
    let pending = host.pending_promise();
    let write_fn = host.logging("write", Value::Promise(pending));
    let (stream, controller) = writable(&mut host, Sink { write: write_fn, high_water_mark: 2.0, ..Sink::default() });
    let writer = writer(&mut host, stream);
    host.run_jobs();
    let ready = writer_ready(&mut host, writer);
    assert_eq!(host.outcome(ready), "fulfilled undefined");
    write(&mut host, writer, Value::Num(1.0), "w1");
    write(&mut host, writer, Value::Num(2.0), "w2");
    assert_eq!(desired_size(&mut host, controller), 0.0);
    assert_eq!(writer_desired_size(&mut host, writer).unwrap(), Some(0.0));
    let ready = writer_ready(&mut host, writer);
    assert_eq!(host.outcome(ready), "pending", "a new ready promise while the queue is full");
    host.fulfill(pending, Value::Undefined);
    host.run_jobs();
    assert_eq!(host.outcome(ready), "fulfilled undefined");
}

#[test]
fn close_waits_for_queued_writes_then_calls_the_sink() {
    let mut host = TestHost::new();
    let write_fn = logging_write(&mut host);
    let close = host.logging("close", Value::Undefined);
    let (stream, _) = writable(&mut host, Sink { write: write_fn, close, high_water_mark: 4.0, ..Sink::default() });
    let writer = writer(&mut host, stream);
    write(&mut host, writer, Value::Num(1.0), "w1");
    let closing = writer_close(&mut host, writer);
    host.observe(closing, "close result");
    let closed = writer_closed(&mut host, writer);
    host.observe(closed, "closed");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        [
            "write(1, [stream object])",
            "close()",
            "w1: fulfilled undefined",
            "close result: fulfilled undefined",
            "closed: fulfilled undefined"
        ]
    );
    assert_eq!(writable_stream_state(&mut host, stream), WritableState::Closed);
}

#[test]
fn write_after_close_is_a_type_error() {
    let mut host = TestHost::new();
    let (stream, _) = writable(&mut host, Sink::default());
    let writer = writer(&mut host, stream);
    let closing = writer_close(&mut host, writer);
    host.observe(closing, "close");
    write(&mut host, writer, Value::Num(1.0), "late write");
    host.run_jobs();
    let log = take_log(&mut host);
    assert!(log[0].starts_with("late write: rejected TypeError"), "{log:?}");
    assert_eq!(log[1], "close: fulfilled undefined");
}

#[test]
fn a_sink_write_that_throws_errors_the_stream() {
    let mut host = TestHost::new();
    let error = host.error_value("disk full");
    let write_fn = host.throwing("write", error);
    let (stream, _) = writable(&mut host, Sink { write: write_fn, ..Sink::default() });
    let writer = writer(&mut host, stream);
    write(&mut host, writer, Value::Num(1.0), "w1");
    host.run_jobs();
    write(&mut host, writer, Value::Num(2.0), "w2");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        ["write(1, [stream object])", "w1: rejected TypeError: disk full", "w2: rejected TypeError: disk full"]
    );
    assert_eq!(writable_stream_state(&mut host, stream), WritableState::Errored);
}

#[test]
fn abort_calls_the_sink_and_rejects_queued_writes() {
    let mut host = TestHost::new();
    let pending = host.pending_promise();
    let write_fn = host.logging("write", Value::Promise(pending));
    let abort = host.logging("abort", Value::Undefined);
    let (stream, _) = writable(&mut host, Sink { write: write_fn, abort, high_water_mark: 4.0, ..Sink::default() });
    let writer = writer(&mut host, stream);
    write(&mut host, writer, Value::Num(1.0), "w1");
    write(&mut host, writer, Value::Num(2.0), "w2");
    host.run_jobs();
    let aborting = writable_stream_abort(&mut host, stream, Value::Str("cancelled"));
    host.observe(aborting, "abort result");
    host.run_jobs();
    // Queued writes wait for the write in flight (WritableStreamFinishErroring).
    assert_eq!(take_log(&mut host), ["write(1, [stream object])"]);
    host.fulfill(pending, Value::Undefined);
    host.run_jobs();
    // Then WritableStreamFinishErroring rejects the queued write and calls
    // the sink's abort, before the settled promises' reactions run.
    assert_eq!(
        take_log(&mut host),
        [
            "abort(\"cancelled\")",
            "w1: fulfilled undefined",
            "w2: rejected \"cancelled\"",
            "abort result: fulfilled undefined"
        ]
    );
    assert_eq!(writable_stream_state(&mut host, stream), WritableState::Errored);
}

#[test]
fn abort_signals_the_controller() {
    let mut host = TestHost::new();
    let (stream, controller) = writable(&mut host, Sink::default());
    let signal = js_streams::writable_stream_default_controller::writable_controller_signal(&mut host, controller);
    assert_eq!(js_streams::StreamHost::signal_abort_reason(&mut host, signal), None);
    let aborting = writable_stream_abort(&mut host, stream, Value::Str("why"));
    host.observe(aborting, "abort");
    assert_eq!(js_streams::StreamHost::signal_abort_reason(&mut host, signal), Some(Value::Str("why")));
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["abort: fulfilled undefined"]);
}

#[test]
fn controller_error_errors_the_stream() {
    let mut host = TestHost::new();
    let (stream, controller) = writable(&mut host, Sink::default());
    host.run_jobs();
    let error = host.error_value("from the sink");
    writable_stream_default_controller_error(&mut host, controller, error);
    assert_eq!(writable_stream_state(&mut host, stream), WritableState::Errored);
    let writer = writer(&mut host, stream);
    write(&mut host, writer, Value::Num(1.0), "w");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["w: rejected TypeError: from the sink"]);
}

#[test]
fn a_locked_stream_refuses_a_second_writer_until_released() {
    let mut host = TestHost::new();
    let (stream, _) = writable(&mut host, Sink::default());
    let first = writer(&mut host, stream);
    assert!(acquire_writable_stream_default_writer(&mut host, stream).is_err());
    writable_stream_default_writer_release(&mut host, first);
    assert!(acquire_writable_stream_default_writer(&mut host, stream).is_ok());
}
