//! ReadableStream with a default controller and default reader.

use js_streams::readable_stream::{readable_stream_cancel, readable_stream_state};
use js_streams::readable_stream_default_controller::{
    desired_size, readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error,
};
use js_streams::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_release, reader_cancel, reader_closed,
};
use js_streams::slots::ReadableState;

use crate::construct::{Source, counting_pull, read, readable, reader, take_log};
use crate::host::{TestHost, Value};

#[test]
fn start_runs_at_construction_and_pull_after_it_settles() {
    let mut host = TestHost::new();
    let start = host.logging("start", Value::Undefined);
    let pull = host.logging("pull", Value::Undefined);
    readable(&mut host, Source { start, pull, ..Source::default() });
    assert_eq!(take_log(&mut host), ["start([stream object])"]);
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["pull([stream object])"], "a pull that enqueued nothing is not repeated");
}

#[test]
fn a_buffered_chunk_is_read_at_once() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(7.0)).unwrap();
    let reader = reader(&mut host, stream);
    let promise = read(&mut host, reader, "read");
    assert_eq!(host.outcome(promise), "fulfilled {value: 7, done: false}", "settled with no turn");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: 7, done: false}"]);
}

#[test]
fn a_pending_read_is_fulfilled_by_the_next_enqueue() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    let reader = reader(&mut host, stream);
    let promise = read(&mut host, reader, "read");
    host.run_jobs();
    assert_eq!(host.outcome(promise), "pending");
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Str("a")).unwrap();
    assert_eq!(host.outcome(promise), "fulfilled {value: \"a\", done: false}");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: \"a\", done: false}"]);
}

#[test]
fn reads_after_close_are_done() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(1.0)).unwrap();
    readable_stream_default_controller_close(&mut host, controller);
    assert_eq!(readable_stream_state(&mut host, stream), ReadableState::Readable, "the queue still holds a chunk");
    let reader = reader(&mut host, stream);
    read(&mut host, reader, "first");
    assert_eq!(readable_stream_state(&mut host, stream), ReadableState::Closed, "closed once drained");
    read(&mut host, reader, "second");
    let closed = reader_closed(&mut host, reader);
    host.observe(closed, "closed");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        [
            "first: fulfilled {value: 1, done: false}",
            "second: fulfilled {value: undefined, done: true}",
            "closed: fulfilled undefined"
        ]
    );
}

#[test]
fn an_error_rejects_pending_reads_and_closed() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    let reader = reader(&mut host, stream);
    read(&mut host, reader, "read");
    let closed = reader_closed(&mut host, reader);
    host.observe(closed, "closed");
    let error = host.error_value("boom");
    readable_stream_default_controller_error(&mut host, controller, error);
    read(&mut host, reader, "later");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        // ReadableStreamError rejects `closed` before the read requests.
        ["closed: rejected TypeError: boom", "read: rejected TypeError: boom", "later: rejected TypeError: boom"]
    );
    assert_eq!(readable_stream_state(&mut host, stream), ReadableState::Errored);
}

#[test]
fn pull_fills_the_queue_to_the_high_water_mark() {
    let mut host = TestHost::new();
    let pull = counting_pull(&mut host, 10);
    let (_stream, controller) = readable(&mut host, Source { pull, high_water_mark: 3.0, ..Source::default() });
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["pull 1", "pull 2", "pull 3"]);
    assert_eq!(desired_size(&mut host, controller), Some(0.0));
}

#[test]
fn each_read_pulls_once_more() {
    let mut host = TestHost::new();
    let pull = counting_pull(&mut host, 2);
    let (stream, _controller) = readable(&mut host, Source { pull, ..Source::default() });
    host.run_jobs();
    let reader = reader(&mut host, stream);
    for label in ["r1", "r2", "r3"] {
        read(&mut host, reader, label);
        host.run_jobs();
    }
    assert_eq!(
        take_log(&mut host),
        // A read that takes a queued chunk calls pull at once, before its
        // promise's reaction runs.
        [
            "pull 1",
            "pull 2",
            "r1: fulfilled {value: 1, done: false}",
            "pull 3",
            "r2: fulfilled {value: 2, done: false}",
            "r3: fulfilled {value: undefined, done: true}",
        ]
    );
}

#[test]
fn pull_waits_for_a_start_promise() {
    let mut host = TestHost::new();
    let started = host.pending_promise();
    let start_result = Value::Promise(started);
    let start = host.logging("start", start_result);
    let pull = host.logging("pull", Value::Undefined);
    readable(&mut host, Source { start, pull, ..Source::default() });
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["start([stream object])"]);
    host.fulfill(started, Value::Undefined);
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["pull([stream object])"]);
}

#[test]
fn a_rejected_start_promise_errors_the_stream() {
    let mut host = TestHost::new();
    let started = host.pending_promise();
    let start = host.logging("start", Value::Promise(started));
    let (stream, _) = readable(&mut host, Source { start, ..Source::default() });
    let error = host.error_value("no start");
    host.reject(started, error);
    host.run_jobs();
    assert_eq!(readable_stream_state(&mut host, stream), ReadableState::Errored);
}

#[test]
fn start_that_throws_fails_construction() {
    let mut host = TestHost::new();
    let error = host.error_value("thrown");
    let start = host.throwing("start", error);
    let stream = js_streams::readable_stream::new_readable_stream(&mut host);
    let this_value = host.record(Vec::new());
    let result = js_streams::readable_stream_default_controller::set_up_readable_stream_default_controller(
        &mut host,
        stream,
        js_streams::readable_stream_default_controller::StartAlgorithm::User { this_value, start },
        js_streams::slots::SourceAlgorithms::User {
            source: this_value,
            pull: Value::Undefined,
            cancel: Value::Undefined,
        },
        1.0,
        Value::Undefined,
    );
    assert_eq!(result.err(), Some(error));
}

#[test]
fn a_pull_that_throws_errors_the_stream() {
    let mut host = TestHost::new();
    let error = host.error_value("pull failed");
    let pull = host.throwing("pull", error);
    let (stream, _) = readable(&mut host, Source { pull, ..Source::default() });
    let reader = reader(&mut host, stream);
    read(&mut host, reader, "read");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["pull([stream object])", "read: rejected TypeError: pull failed"]);
}

#[test]
fn cancel_calls_the_source_and_closes() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Str("ignored"));
    let (stream, controller) = readable(&mut host, Source { cancel, ..Source::default() });
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(1.0)).unwrap();
    let promise = readable_stream_cancel(&mut host, stream, Value::Str("why"));
    host.observe(promise, "cancel result");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["cancel(\"why\")", "cancel result: fulfilled undefined"]);
    assert_eq!(readable_stream_state(&mut host, stream), ReadableState::Closed);
}

#[test]
fn reader_cancel_settles_pending_reads_as_done() {
    let mut host = TestHost::new();
    let (stream, _) = readable(&mut host, Source::default());
    let reader = reader(&mut host, stream);
    read(&mut host, reader, "read");
    let promise = reader_cancel(&mut host, reader, Value::Undefined);
    host.observe(promise, "cancel");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: undefined, done: true}", "cancel: fulfilled undefined"]);
}

#[test]
fn a_cancel_that_throws_rejects_cancel() {
    let mut host = TestHost::new();
    let error = host.error_value("cancel failed");
    let cancel = host.throwing("cancel", error);
    let (stream, _) = readable(&mut host, Source { cancel, ..Source::default() });
    let promise = readable_stream_cancel(&mut host, stream, Value::Undefined);
    host.observe(promise, "cancel");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["cancel(undefined)", "cancel: rejected TypeError: cancel failed"]);
}

#[test]
fn a_locked_stream_refuses_a_second_reader() {
    let mut host = TestHost::new();
    let (stream, _) = readable(&mut host, Source::default());
    let _reader = reader(&mut host, stream);
    let error = acquire_readable_stream_default_reader(&mut host, stream).unwrap_err();
    assert!(host.describe(error).starts_with("TypeError"), "{}", host.describe(error));
}

#[test]
fn release_rejects_pending_reads_and_unlocks() {
    let mut host = TestHost::new();
    let (stream, _) = readable(&mut host, Source::default());
    let first = reader(&mut host, stream);
    read(&mut host, first, "read");
    readable_stream_default_reader_release(&mut host, first);
    host.run_jobs();
    let log = take_log(&mut host);
    assert_eq!(log.len(), 1);
    assert!(log[0].starts_with("read: rejected TypeError"), "{log:?}");
    let _second = reader(&mut host, stream);
}

#[test]
fn a_size_algorithm_weighs_chunks() {
    let mut host = TestHost::new();
    let size = host.function(|_host, _this, args| Ok(args[0]));
    let (_, controller) = readable(&mut host, Source { size, high_water_mark: 10.0, ..Source::default() });
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(4.0)).unwrap();
    assert_eq!(desired_size(&mut host, controller), Some(6.0));
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(7.0)).unwrap();
    assert_eq!(desired_size(&mut host, controller), Some(-1.0));
}

#[test]
fn an_invalid_size_errors_the_stream_with_a_range_error() {
    let mut host = TestHost::new();
    let size = host.function(|_host, _this, _args| Ok(Value::Num(f64::NAN)));
    let (stream, controller) = readable(&mut host, Source { size, ..Source::default() });
    let error = readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(1.0)).unwrap_err();
    assert!(host.describe(error).starts_with("RangeError"), "{}", host.describe(error));
    assert_eq!(readable_stream_state(&mut host, stream), ReadableState::Errored);
}
