//! Async iteration (`values()`, `for await`) and `ReadableStream.from`.

use js_streams::readable_stream::readable_stream_state;
use js_streams::readable_stream_async_iterator::{async_iterator_next, async_iterator_return, readable_stream_values};
use js_streams::readable_stream_default_controller::{
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error,
};
use js_streams::readable_stream_from::readable_stream_from_iterable;
use js_streams::slots::ReadableState;

use crate::construct::{Source, read, readable, reader, take_log};
use crate::host::{TestHost, Value};

#[test]
fn next_yields_buffered_chunks_then_done() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(1.0)).unwrap();
    readable_stream_default_controller_close(&mut host, controller);
    let iterator = readable_stream_values(&mut host, stream, false).unwrap();
    for label in ["first", "second"] {
        let promise = async_iterator_next(&mut host, iterator);
        host.observe(promise, label);
        host.run_jobs();
    }
    assert_eq!(
        take_log(&mut host),
        ["first: fulfilled {value: 1, done: false}", "second: fulfilled {value: undefined, done: true}"]
    );
}

#[test]
fn calls_made_at_once_settle_in_order() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    let iterator = readable_stream_values(&mut host, stream, false).unwrap();
    for label in ["a", "b", "c"] {
        let promise = async_iterator_next(&mut host, iterator);
        host.observe(promise, label);
    }
    for n in [1.0, 2.0] {
        readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(n)).unwrap();
        host.run_jobs();
    }
    readable_stream_default_controller_close(&mut host, controller);
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        [
            "a: fulfilled {value: 1, done: false}",
            "b: fulfilled {value: 2, done: false}",
            "c: fulfilled {value: undefined, done: true}",
        ]
    );
}

#[test]
fn return_cancels_the_stream() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let (stream, _) = readable(&mut host, Source { cancel, ..Source::default() });
    let iterator = readable_stream_values(&mut host, stream, false).unwrap();
    let promise = async_iterator_return(&mut host, iterator, Value::Str("stop"));
    host.observe(promise, "return");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["cancel(\"stop\")", "return: fulfilled {value: \"stop\", done: true}"]);
    assert_eq!(readable_stream_state(&mut host, stream), ReadableState::Closed);
}

#[test]
fn prevent_cancel_releases_without_cancelling() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let (stream, controller) = readable(&mut host, Source { cancel, ..Source::default() });
    let iterator = readable_stream_values(&mut host, stream, true).unwrap();
    let promise = async_iterator_return(&mut host, iterator, Value::Undefined);
    host.observe(promise, "return");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["return: fulfilled {value: undefined, done: true}"]);
    assert!(!js_streams::readable_stream::is_readable_stream_locked(&mut host, stream), "released");
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(5.0)).unwrap();
    let reader = reader(&mut host, stream);
    read(&mut host, reader, "read");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: 5, done: false}"]);
}

#[test]
fn an_errored_stream_rejects_next() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    let iterator = readable_stream_values(&mut host, stream, false).unwrap();
    let error = host.error_value("bad");
    readable_stream_default_controller_error(&mut host, controller, error);
    let promise = async_iterator_next(&mut host, iterator);
    host.observe(promise, "next");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["next: rejected TypeError: bad"]);
}

#[test]
fn from_pulls_an_iterator_on_demand() {
    let mut host = TestHost::new();
    let count = std::cell::Cell::new(0.0);
    let next = host.function(move |host, _this, _args| {
        let n = count.get() + 1.0;
        count.set(n);
        host.log.push(format!("next {n}"));
        let done = n > 2.0;
        let result = host
            .record(vec![("value", if done { Value::Undefined } else { Value::Num(n) }), ("done", Value::Bool(done))]);
        // An async iterator's `next` returns a promise of the result.
        let promise = host.pending_promise();
        host.fulfill(promise, result);
        Ok(Value::Promise(promise))
    });
    let iterator = host.record(Vec::new());
    let stream = readable_stream_from_iterable(&mut host, iterator, next).unwrap();
    host.run_jobs();
    assert_eq!(take_log(&mut host), Vec::<String>::new(), "high-water mark 0: nothing pulled before a read");
    let reader = reader(&mut host, stream);
    for label in ["r1", "r2", "r3"] {
        read(&mut host, reader, label);
        host.run_jobs();
    }
    assert_eq!(
        take_log(&mut host),
        [
            "next 1",
            "r1: fulfilled {value: 1, done: false}",
            "next 2",
            "r2: fulfilled {value: 2, done: false}",
            "next 3",
            "r3: fulfilled {value: undefined, done: true}",
        ]
    );
}
