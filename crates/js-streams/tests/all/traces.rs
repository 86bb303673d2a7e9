//! Stream event order, microtask turn by microtask turn, as insta
//! snapshots (`tests/all/snapshots/`): which user callback runs in which
//! turn, and when each promise's reaction sees it settle. These are the
//! tick counts engines are compared on.

use js_streams::pipe_to::PipeOptions;
use js_streams::readable_stream_tee::readable_stream_tee;
use js_streams::transform_stream::{transform_stream_readable, transform_stream_writable};
use js_streams::writable_stream::writable_stream_abort;
use js_streams::writable_stream_default_writer::writer_close;

use crate::construct::{
    Sink, Source, Transformer, counting_pull, pipe, read, readable, reader, take_log, transform, writable, write,
    writer,
};
use crate::host::{TestHost, Value};

fn trace(host: &mut TestHost) -> String {
    host.run_turns();
    take_log(host).join("\n")
}

#[test]
fn pipe_through_a_transform() {
    let mut host = TestHost::new();
    let pull = counting_pull(&mut host, 2);
    let (source, _) = readable(&mut host, Source { pull, ..Source::default() });
    let through = transform(&mut host, Transformer::default());
    let (input, output) =
        (transform_stream_writable(&mut host, through), transform_stream_readable(&mut host, through));
    let write_fn = host.logging("sink write", Value::Undefined);
    let close = host.logging("sink close", Value::Undefined);
    let (dest, _) = writable(&mut host, Sink { write: write_fn, close, ..Sink::default() });
    let first = js_streams::pipe_to::readable_stream_pipe_to(&mut host, source, input, PipeOptions::default(), None)
        .expect("unlocked");
    host.observe(first, "pipe into transform");
    pipe(&mut host, output, dest, PipeOptions::default(), None);
    insta::assert_snapshot!(trace(&mut host));
}

#[test]
fn tee_reads() {
    let mut host = TestHost::new();
    let pull = counting_pull(&mut host, 1);
    let (stream, _) = readable(&mut host, Source { pull, high_water_mark: 0.0, ..Source::default() });
    let [left, right] = readable_stream_tee(&mut host, stream).expect("unlocked");
    let (left, right) = (reader(&mut host, left), reader(&mut host, right));
    read(&mut host, left, "left 1");
    read(&mut host, right, "right 1");
    read(&mut host, left, "left 2");
    read(&mut host, right, "right 2");
    insta::assert_snapshot!(trace(&mut host));
}

#[test]
fn writes_close_and_abort() {
    let mut host = TestHost::new();
    let write_fn = host.logging("sink write", Value::Undefined);
    let close = host.logging("sink close", Value::Undefined);
    let (stream, _) = writable(&mut host, Sink { write: write_fn, close, high_water_mark: 2.0, ..Sink::default() });
    let w = writer(&mut host, stream);
    write(&mut host, w, Value::Num(1.0), "write 1");
    write(&mut host, w, Value::Num(2.0), "write 2");
    let closing = writer_close(&mut host, w);
    host.observe(closing, "close");
    let ready = js_streams::writable_stream_default_writer::writer_ready(&mut host, w);
    host.observe(ready, "ready");
    let closed = js_streams::writable_stream_default_writer::writer_closed(&mut host, w);
    host.observe(closed, "closed");
    let mut text = trace(&mut host);

    let abort = host.logging("sink abort", Value::Undefined);
    let pending = host.pending_promise();
    let slow_write = host.logging("sink write", Value::Promise(pending));
    let (stream, _) = writable(&mut host, Sink { write: slow_write, abort, high_water_mark: 2.0, ..Sink::default() });
    let w = writer(&mut host, stream);
    write(&mut host, w, Value::Num(1.0), "write 1");
    write(&mut host, w, Value::Num(2.0), "write 2");
    host.run_jobs();
    let aborting = writable_stream_abort(&mut host, stream, Value::Str("stop"));
    host.observe(aborting, "abort");
    host.fulfill(pending, Value::Undefined);
    text.push_str("\n--- abort during a write ---\n");
    text.push_str(&trace(&mut host));
    insta::assert_snapshot!(text);
}
