//! `pipeTo` with its options and an AbortSignal.

use js_streams::StreamHost;
use js_streams::pipe_to::PipeOptions;
use js_streams::readable_stream::{is_readable_stream_locked, readable_stream_state};
use js_streams::readable_stream_default_controller::{
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error,
};
use js_streams::slots::{ReadableState, WritableState};
use js_streams::writable_stream::{writable_stream_abort, writable_stream_state};
use js_streams::writable_stream_default_controller::writable_stream_default_controller_error;

use crate::construct::{Sink, Source, counting_pull, logging_write, pipe, readable, take_log, writable};
use crate::host::{TestHost, Value};

/// The sink's calls, without the pipe's own settling lines.
fn sink_calls(log: &[String]) -> Vec<&str> {
    log.iter().map(String::as_str).filter(|line| !line.starts_with("pull")).collect()
}

#[test]
fn every_chunk_is_written_then_the_destination_closed() {
    let mut host = TestHost::new();
    let pull = counting_pull(&mut host, 3);
    let (source, _) = readable(&mut host, Source { pull, ..Source::default() });
    let write = logging_write(&mut host);
    let close = host.logging("close", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { write, close, ..Sink::default() });
    pipe(&mut host, source, dest, PipeOptions::default(), None);
    host.run_jobs();
    let log = take_log(&mut host);
    assert_eq!(
        sink_calls(&log),
        [
            "write(1, [stream object])",
            "write(2, [stream object])",
            "write(3, [stream object])",
            "close()",
            "pipe: fulfilled undefined"
        ]
    );
    assert_eq!(writable_stream_state(&mut host, dest), WritableState::Closed);
    assert!(!is_readable_stream_locked(&mut host, source), "the pipe released its reader");
}

#[test]
fn prevent_close_leaves_the_destination_open() {
    let mut host = TestHost::new();
    let pull = counting_pull(&mut host, 1);
    let (source, _) = readable(&mut host, Source { pull, ..Source::default() });
    let write = logging_write(&mut host);
    let close = host.logging("close", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { write, close, ..Sink::default() });
    pipe(&mut host, source, dest, PipeOptions { prevent_close: true, ..PipeOptions::default() }, None);
    host.run_jobs();
    let log = take_log(&mut host);
    assert_eq!(sink_calls(&log), ["write(1, [stream object])", "pipe: fulfilled undefined"]);
    assert_eq!(writable_stream_state(&mut host, dest), WritableState::Writable);
}

#[test]
fn a_source_error_aborts_the_destination() {
    let mut host = TestHost::new();
    let (source, controller) = readable(&mut host, Source::default());
    let abort = host.logging("abort", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { abort, ..Sink::default() });
    pipe(&mut host, source, dest, PipeOptions::default(), None);
    host.run_jobs();
    let error = host.error_value("source failed");
    readable_stream_default_controller_error(&mut host, controller, error);
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["abort(TypeError: source failed)", "pipe: rejected TypeError: source failed"]);
}

#[test]
fn prevent_abort_keeps_the_destination_writable_on_a_source_error() {
    let mut host = TestHost::new();
    let (source, controller) = readable(&mut host, Source::default());
    let abort = host.logging("abort", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { abort, ..Sink::default() });
    pipe(&mut host, source, dest, PipeOptions { prevent_abort: true, ..PipeOptions::default() }, None);
    host.run_jobs();
    let error = host.error_value("source failed");
    readable_stream_default_controller_error(&mut host, controller, error);
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["pipe: rejected TypeError: source failed"]);
    assert_eq!(writable_stream_state(&mut host, dest), WritableState::Writable);
}

#[test]
fn a_destination_error_cancels_the_source() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let (source, _) = readable(&mut host, Source { cancel, ..Source::default() });
    let (dest, dest_controller) = writable(&mut host, Sink::default());
    pipe(&mut host, source, dest, PipeOptions::default(), None);
    host.run_jobs();
    let error = host.error_value("sink failed");
    writable_stream_default_controller_error(&mut host, dest_controller, error);
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["cancel(TypeError: sink failed)", "pipe: rejected TypeError: sink failed"]);
    assert_eq!(readable_stream_state(&mut host, source), ReadableState::Closed);
}

#[test]
fn prevent_cancel_keeps_the_source_readable_on_a_destination_error() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let (source, _) = readable(&mut host, Source { cancel, ..Source::default() });
    let (dest, _) = writable(&mut host, Sink::default());
    pipe(&mut host, source, dest, PipeOptions { prevent_cancel: true, ..PipeOptions::default() }, None);
    host.run_jobs();
    let aborted = writable_stream_abort(&mut host, dest, Value::Str("dest gone"));
    host.observe(aborted, "abort");
    host.run_jobs();
    let log = take_log(&mut host);
    assert!(log.contains(&"pipe: rejected \"dest gone\"".to_owned()), "{log:?}");
    assert!(!log.iter().any(|line| line.starts_with("cancel(")), "{log:?}");
    assert_eq!(readable_stream_state(&mut host, source), ReadableState::Readable);
}

#[test]
fn a_closed_source_with_chunks_in_the_queue_writes_them_first() {
    let mut host = TestHost::new();
    let (source, controller) = readable(&mut host, Source { high_water_mark: 4.0, ..Source::default() });
    for n in [1.0, 2.0] {
        readable_stream_default_controller_enqueue(&mut host, controller, Value::Num(n)).unwrap();
    }
    readable_stream_default_controller_close(&mut host, controller);
    let write = logging_write(&mut host);
    let close = host.logging("close", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { write, close, high_water_mark: 4.0, ..Sink::default() });
    pipe(&mut host, source, dest, PipeOptions::default(), None);
    host.run_jobs();
    assert_eq!(
        take_log(&mut host),
        ["write(1, [stream object])", "write(2, [stream object])", "close()", "pipe: fulfilled undefined"]
    );
}

#[test]
fn an_aborted_signal_stops_the_pipe_at_once() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let (source, _) = readable(&mut host, Source { cancel, ..Source::default() });
    let abort = host.logging("abort", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { abort, ..Sink::default() });
    let signal = host.new_abort_signal();
    host.signal_abort(signal, Value::Str("stop"));
    pipe(&mut host, source, dest, PipeOptions::default(), Some(signal));
    host.run_jobs();
    let log = take_log(&mut host);
    assert_eq!(log.last().map(String::as_str), Some("pipe: rejected \"stop\""), "{log:?}");
    assert!(log.contains(&"abort(\"stop\")".to_owned()) && log.contains(&"cancel(\"stop\")".to_owned()), "{log:?}");
}

#[test]
fn aborting_the_signal_mid_pipe_aborts_and_cancels() {
    let mut host = TestHost::new();
    let cancel = host.logging("cancel", Value::Undefined);
    let (source, _) = readable(&mut host, Source { cancel, ..Source::default() });
    let abort = host.logging("abort", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { abort, ..Sink::default() });
    let signal = host.new_abort_signal();
    pipe(&mut host, source, dest, PipeOptions::default(), Some(signal));
    host.run_jobs();
    assert_eq!(take_log(&mut host), Vec::<String>::new());
    host.signal_abort(signal, Value::Str("later"));
    host.run_jobs();
    let log = take_log(&mut host);
    assert_eq!(log.last().map(String::as_str), Some("pipe: rejected \"later\""), "{log:?}");
    assert!(log.contains(&"abort(\"later\")".to_owned()) && log.contains(&"cancel(\"later\")".to_owned()), "{log:?}");
}

#[test]
fn prevent_abort_and_prevent_cancel_leave_both_streams_on_signal_abort() {
    let mut host = TestHost::new();
    let (source, _) = readable(&mut host, Source::default());
    let (dest, _) = writable(&mut host, Sink::default());
    let signal = host.new_abort_signal();
    let options = PipeOptions { prevent_abort: true, prevent_cancel: true, prevent_close: false };
    pipe(&mut host, source, dest, options, Some(signal));
    host.run_jobs();
    host.signal_abort(signal, Value::Str("only the pipe"));
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["pipe: rejected \"only the pipe\""]);
    assert_eq!(readable_stream_state(&mut host, source), ReadableState::Readable);
    assert_eq!(writable_stream_state(&mut host, dest), WritableState::Writable);
    assert!(!is_readable_stream_locked(&mut host, source));
}

#[test]
fn piping_a_locked_stream_is_a_type_error() {
    let mut host = TestHost::new();
    let (source, _) = readable(&mut host, Source::default());
    let (dest, _) = writable(&mut host, Sink::default());
    let _reader = crate::construct::reader(&mut host, source);
    let error = js_streams::pipe_to::readable_stream_pipe_to(&mut host, source, dest, PipeOptions::default(), None)
        .unwrap_err();
    assert!(host.describe(error).starts_with("TypeError"));
}
