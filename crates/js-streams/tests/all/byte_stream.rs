//! ReadableStream with a byte controller: default and BYOB readers, BYOB
//! requests, buffer transfer.

use js_streams::StreamHost;
use js_streams::readable_byte_stream_controller::{
    close_method, enqueue_method, get_byob_request, set_up_readable_byte_stream_controller,
};
use js_streams::readable_stream::new_readable_stream;
use js_streams::readable_stream_byob_reader::{acquire_readable_stream_byob_reader, byob_reader_read};
use js_streams::readable_stream_byob_request::{byob_request_respond, byob_request_view};
use js_streams::readable_stream_default_controller::StartAlgorithm;
use js_streams::slots::SourceAlgorithms;

use crate::construct::{read, reader, take_log};
use crate::host::{Object, TestHost, Value};

/// `new ReadableStream({ type: "bytes", pull })`: the stream and its
/// controller.
fn byte_stream(host: &mut TestHost, pull: Value) -> (Object, Object) {
    let stream = new_readable_stream(host);
    let source = host.record(Vec::new());
    let controller = set_up_readable_byte_stream_controller(
        host,
        stream,
        StartAlgorithm::User { this_value: source, start: Value::Undefined },
        SourceAlgorithms::User { source, pull, cancel: Value::Undefined },
        0.0,
        None,
    )
    .expect("no start");
    (stream, controller)
}

#[test]
fn enqueued_bytes_are_read_by_a_default_reader() {
    let mut host = TestHost::new();
    let (stream, controller) = byte_stream(&mut host, Value::Undefined);
    host.run_jobs();
    let chunk = host.new_bytes(&[1, 2, 3]);
    let reader = reader(&mut host, stream);
    let promise = read(&mut host, reader, "read");
    enqueue_method(&mut host, controller, chunk).unwrap();
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: [view [1, 2, 3]], done: false}"]);
    let _ = promise;
    assert_eq!(host.view_bytes(chunk), Vec::<u8>::new(), "enqueue transferred the chunk's buffer");
}

#[test]
fn a_byob_read_of_queued_bytes_fills_the_view() {
    let mut host = TestHost::new();
    let (stream, controller) = byte_stream(&mut host, Value::Undefined);
    host.run_jobs();
    let chunk = host.new_bytes(&[9, 8, 7, 6]);
    enqueue_method(&mut host, controller, chunk).unwrap();
    let reader = acquire_readable_stream_byob_reader(&mut host, stream).unwrap();
    let view = host.new_bytes(&[0, 0]);
    let promise = byob_reader_read(&mut host, reader, view, 1);
    host.observe(promise, "read");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: [view [9, 8]], done: false}"]);
    let second = host.new_bytes(&[0, 0, 0]);
    let promise = byob_reader_read(&mut host, reader, second, 1);
    host.observe(promise, "rest");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["rest: fulfilled {value: [view [7, 6]], done: false}"]);
}

#[test]
fn a_pull_answers_a_byob_read_through_the_request() {
    let mut host = TestHost::new();
    let pull = host.function(|host, _this, args| {
        let Value::Stream(controller) = args[0] else { panic!("pull gets the controller") };
        let request = get_byob_request(host, controller).expect("a BYOB read is pending");
        let view = byob_request_view(host, request).expect("the request has a view");
        let record = host.view_record(view);
        let Value::Buffer(buffer) = record.buffer else { panic!("a buffer") };
        if let Some(bytes) = buffer.borrow_mut(&mut host.heap).bytes.as_mut() {
            bytes[record.byte_offset] = 42;
        }
        host.log.push(format!("pull: request of {} bytes", record.byte_length));
        byob_request_respond(host, request, 1)?;
        Ok(Value::Undefined)
    });
    let (stream, _controller) = byte_stream(&mut host, pull);
    host.run_jobs();
    let reader = acquire_readable_stream_byob_reader(&mut host, stream).unwrap();
    let view = host.new_bytes(&[0, 0, 0, 0]);
    let promise = byob_reader_read(&mut host, reader, view, 1);
    host.observe(promise, "read");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["pull: request of 4 bytes", "read: fulfilled {value: [view [42]], done: false}"]);
    assert_eq!(host.view_bytes(view), Vec::<u8>::new(), "the view's buffer was transferred");
}

#[test]
fn close_ends_byob_reads_with_an_empty_view() {
    let mut host = TestHost::new();
    let (stream, controller) = byte_stream(&mut host, Value::Undefined);
    host.run_jobs();
    close_method(&mut host, controller).unwrap();
    let reader = acquire_readable_stream_byob_reader(&mut host, stream).unwrap();
    let view = host.new_bytes(&[0, 0]);
    let promise = byob_reader_read(&mut host, reader, view, 1);
    host.observe(promise, "read");
    host.run_jobs();
    assert_eq!(take_log(&mut host), ["read: fulfilled {value: [view []], done: true}"]);
}

#[test]
fn enqueue_of_a_detached_view_is_a_type_error() {
    let mut host = TestHost::new();
    let (_, controller) = byte_stream(&mut host, Value::Undefined);
    let chunk = host.new_bytes(&[1]);
    let Value::View(view) = chunk else { unreachable!() };
    let buffer = view.borrow(&host.heap).buffer;
    buffer.borrow_mut(&mut host.heap).bytes = None;
    let error = enqueue_method(&mut host, controller, chunk).unwrap_err();
    assert!(host.describe(error).starts_with("TypeError"), "{}", host.describe(error));
}
