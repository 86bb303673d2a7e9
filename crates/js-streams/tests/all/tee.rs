//! `tee()` of a default stream.

use js_streams::readable_stream::{readable_stream_cancel, readable_stream_state};
use js_streams::readable_stream_default_controller::{
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error,
};
use js_streams::readable_stream_tee::readable_stream_tee;
use js_streams::slots::ReadableState;

use crate::construct::{Source, counting_pull, read, readable, reader, take_log};
use crate::host::{TestHost, Value};

#[test]
fn both_branches_see_every_chunk() {
    let mut host = TestHost::new();
    let pull = counting_pull(&mut host, 2);
    let (stream, _) = readable(&mut host, Source { pull, high_water_mark: 0.0, ..Source::default() });
    let [left, right] = readable_stream_tee(&mut host, stream).unwrap();
    let (left, right) = (reader(&mut host, left), reader(&mut host, right));
    for round in ["1", "2", "3"] {
        let _ = round;
        read(&mut host, left, "left");
        read(&mut host, right, "right");
        host.run_jobs();
    }
    let log: Vec<String> = take_log(&mut host).into_iter().filter(|line| !line.starts_with("pull")).collect();
    assert_eq!(
        log,
        [
            "left: fulfilled {value: 1, done: false}",
            "right: fulfilled {value: 1, done: false}",
            "left: fulfilled {value: 2, done: false}",
            "right: fulfilled {value: 2, done: false}",
            "left: fulfilled {value: undefined, done: true}",
            "right: fulfilled {value: undefined, done: true}",
        ]
    );
}

#[test]
fn tee_locks_the_source() {
    let mut host = TestHost::new();
    let (stream, _) = readable(&mut host, Source::default());
    readable_stream_tee(&mut host, stream).unwrap();
    assert!(js_streams::readable_stream::is_readable_stream_locked(&mut host, stream));
    let error = readable_stream_tee(&mut host, stream).unwrap_err();
    assert!(host.describe(error).starts_with("TypeError"));
}

#[test]
fn one_branch_reads_ahead_and_the_other_gets_the_chunks_queued() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    let [left, right] = readable_stream_tee(&mut host, stream).unwrap();
    let left = reader(&mut host, left);
    read(&mut host, left, "left");
    readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(1.0)).unwrap();
    host.run_jobs();
    readable_stream_default_controller_close(&mut host, controller);
    host.run_jobs();
    let right = reader(&mut host, right);
    read(&mut host, right, "right");
    read(&mut host, right, "right again");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        [
            "left: fulfilled {value: 1, done: false}",
            "right: fulfilled {value: 1, done: false}",
            "right again: fulfilled {value: undefined, done: true}",
        ]
    );
}

#[test]
fn the_source_is_cancelled_when_both_branches_are_with_both_reasons() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let (stream, _) = readable(&mut host, Source { cancel, ..Source::default() });
    let [left, right] = readable_stream_tee(&mut host, stream).unwrap();
    let first = readable_stream_cancel(&mut host, left, Value::Str("a"));
    host.observe(first, "left cancel");
    host.run_jobs();
    assert_eq!(take_log(&mut host), Vec::<String>::new(), "one branch's cancel waits for the other");
    let second = readable_stream_cancel(&mut host, right, Value::Str("b"));
    host.observe(second, "right cancel");
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        ["cancel([\"a\", \"b\"])", "left cancel: fulfilled undefined", "right cancel: fulfilled undefined"]
    );
}

#[test]
fn an_error_reaches_both_branches() {
    let mut host = TestHost::new();
    let (stream, controller) = readable(&mut host, Source::default());
    let [left, right] = readable_stream_tee(&mut host, stream).unwrap();
    let error = host.error_value("source broke");
    readable_stream_default_controller_error(&mut host, controller, error);
    host.run_jobs();
    assert_eq!(readable_stream_state(&mut host, left), ReadableState::Errored);
    assert_eq!(readable_stream_state(&mut host, right), ReadableState::Errored);
}
