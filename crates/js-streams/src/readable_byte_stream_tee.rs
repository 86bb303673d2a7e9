//! `ReadableByteStreamTee` (Streams §4.9.1): two byte stream branches
//! reading one source, through a default reader when neither branch has a
//! BYOB read pending and through a BYOB reader (reading into that branch's
//! view) when one has. The tee record ([`ByteTeeSlots`]) and continuation
//! jobs stand in for the spec's closures.

use js_promise::PromiseValue;

use crate::host::StreamHost;
use crate::jobs::{BYTE_TEE_BYOB_CHUNK_1, BYTE_TEE_BYOB_CHUNK_2, BYTE_TEE_CHUNK, BYTE_TEE_READER_CLOSED};
use crate::promises::{new_promise, queue_continuation, resolve, upon_promise};
use crate::pull_into_descriptor::ViewConstructor;
use crate::readable_byte_stream_controller::{
    get_byob_request, has_pending_pull_intos, readable_byte_stream_controller_close,
    readable_byte_stream_controller_enqueue, readable_byte_stream_controller_error,
    readable_byte_stream_controller_respond, readable_byte_stream_controller_respond_with_new_view,
    set_up_readable_byte_stream_controller,
};
use crate::readable_stream::{new_readable_stream, readable_stream_cancel};
use crate::readable_stream_byob_reader::{
    acquire_readable_stream_byob_reader, readable_stream_byob_reader_read, readable_stream_byob_reader_release,
};
use crate::readable_stream_default_controller::StartAlgorithm;
use crate::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read, readable_stream_default_reader_release,
};
use crate::slots::{
    ByteTeeSlots, ReadIntoRequest, ReadRequest, SourceAlgorithms, StreamSlots, byob_request, byte_tee, is_byob_reader,
    readable_stream, reader_closed_slot,
};

/// `ReadableByteStreamTee(stream)`: the two branches.
///
/// # Errors
/// A TypeError if the stream is locked.
pub fn readable_byte_stream_tee<H: StreamHost>(host: &mut H, stream: H::Object) -> Result<[H::Object; 2], H::Value> {
    let reader = acquire_readable_stream_default_reader(host, stream)?;
    let cancel_promise = new_promise(host);
    let record = host.new_stream_object(StreamSlots::ByteTee(ByteTeeSlots {
        stream,
        reader,
        reading: false,
        read_again: [false; 2],
        canceled: [false; 2],
        reasons: [H::Value::undefined(); 2],
        branches: [None; 2],
        cancel_promise,
        released_readers: 0,
    }));
    let mut branches = [stream; 2];
    for (index, branch) in branches.iter_mut().enumerate() {
        let made = new_readable_stream(host);
        let start = StartAlgorithm::User { this_value: H::Value::undefined(), start: H::Value::undefined() };
        set_up_readable_byte_stream_controller(
            host,
            made,
            start,
            SourceAlgorithms::ByteTee(record, index as u8),
            0.0,
            None,
        )?;
        *branch = made;
    }
    byte_tee(host, record).branches = [Some(branches[0]), Some(branches[1])];
    forward_reader_error(host, record, reader);
    Ok(branches)
}

/// `forwardReaderError(thisReader)`: a rejection of the reader's `closed`
/// errors both branches.
fn forward_reader_error<H: StreamHost>(host: &mut H, record: H::Object, reader: H::Object) {
    let mut closed = *reader_closed_slot(host, reader);
    let promise = closed.get(host);
    *reader_closed_slot(host, reader) = closed;
    let data = host.stream_object_value(record);
    upon_promise(host, promise, BYTE_TEE_READER_CLOSED, data);
}

/// Releases the tee's reader before it is replaced by one of the other
/// kind. Its pending `closed` is rejected by the release, which runs its
/// `forwardReaderError` reaction with "thisReader is not reader": counted
/// so that reaction is skipped (reactions run in the order their promises
/// settle, so the count matches them up).
fn release_reader<H: StreamHost>(host: &mut H, record: H::Object, reader: H::Object) {
    let closed = *reader_closed_slot(host, reader);
    if closed.is_pending(host) {
        byte_tee(host, record).released_readers += 1;
    }
    if is_byob_reader(host, reader) {
        readable_stream_byob_reader_release(host, reader);
    } else {
        readable_stream_default_reader_release(host, reader);
    }
}

/// The reaction of `forwardReaderError`.
pub(crate) fn reader_closed_settled<H: StreamHost>(
    host: &mut H,
    record: H::Object,
    outcome: Result<H::Value, H::Value>,
) {
    let Err(reason) = outcome else { return };
    let slots = byte_tee(host, record);
    if slots.released_readers > 0 {
        slots.released_readers -= 1;
        return;
    }
    for index in 0..2 {
        if let Some(controller) = branch_controller(host, record, index) {
            readable_byte_stream_controller_error(host, controller, reason);
        }
    }
    resolve_cancel_unless_both_canceled(host, record);
}

fn branch_controller<H: StreamHost>(host: &mut H, record: H::Object, index: usize) -> Option<H::Object> {
    let branch = byte_tee(host, record).branches[index]?;
    readable_stream(host, branch).controller
}

fn resolve_cancel_unless_both_canceled<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = byte_tee(host, record);
    if !slots.canceled[0] || !slots.canceled[1] {
        let promise = slots.cancel_promise;
        resolve(host, promise, H::Value::undefined());
    }
}

/// `pull1Algorithm` / `pull2Algorithm` (the caller continues with a
/// promise resolved with undefined): read into the branch's BYOB request
/// view if it has one, else read a chunk with the default reader.
pub(crate) fn pull_algorithm<H: StreamHost>(host: &mut H, record: H::Object, branch: usize) {
    let slots = byte_tee(host, record);
    if slots.reading {
        slots.read_again[branch] = true;
        return;
    }
    slots.reading = true;
    let Some(controller) = branch_controller(host, record, branch) else { return };
    let view = get_byob_request(host, controller).and_then(|request| byob_request(host, request).view);
    match view {
        None => pull_with_default_reader(host, record),
        Some(view) => pull_with_byob_reader(host, record, view, branch),
    }
}

/// `pullWithDefaultReader()`.
fn pull_with_default_reader<H: StreamHost>(host: &mut H, record: H::Object) {
    let mut reader = byte_tee(host, record).reader;
    if is_byob_reader(host, reader) {
        release_reader(host, record, reader);
        let stream = byte_tee(host, record).stream;
        let Ok(acquired) = acquire_readable_stream_default_reader(host, stream) else { return };
        reader = acquired;
        byte_tee(host, record).reader = reader;
        forward_reader_error(host, record, reader);
    }
    readable_stream_default_reader_read(host, reader, ReadRequest::ByteTee(record));
}

/// `pullWithBYOBReader(view, forBranch2)`.
fn pull_with_byob_reader<H: StreamHost>(host: &mut H, record: H::Object, view: H::Value, branch: usize) {
    host.root(view);
    let mut reader = byte_tee(host, record).reader;
    if !is_byob_reader(host, reader) {
        release_reader(host, record, reader);
        let stream = byte_tee(host, record).stream;
        let Ok(acquired) = acquire_readable_stream_byob_reader(host, stream) else { return };
        reader = acquired;
        byte_tee(host, record).reader = reader;
        forward_reader_error(host, record, reader);
    }
    readable_stream_byob_reader_read(host, reader, view, 1, ReadIntoRequest::Tee(record, branch as u8));
}

/// `CloneAsUint8Array(chunk)`.
fn clone_as_uint8_array<H: StreamHost>(host: &mut H, chunk: H::Value) -> Result<H::Value, H::Value> {
    let record = host.view_record(chunk);
    let buffer = host.new_array_buffer(record.byte_length, Some((record.buffer, record.byte_offset)))?;
    host.root(buffer);
    let view = host.new_view(ViewConstructor::Uint8, buffer, 0, record.byte_length);
    host.root(view);
    Ok(view)
}

/// A failed clone errors both branches and cancels the source with the
/// error.
fn clone_failed<H: StreamHost>(host: &mut H, record: H::Object, error: H::Value) {
    host.root(error);
    for index in 0..2 {
        if let Some(controller) = branch_controller(host, record, index) {
            readable_byte_stream_controller_error(host, controller, error);
        }
    }
    let stream = byte_tee(host, record).stream;
    let cancel = readable_stream_cancel(host, stream, error);
    let value = host.promise_value(cancel);
    let promise = byte_tee(host, record).cancel_promise;
    resolve(host, promise, value);
}

/// The end of a chunk's microtask: the read is over, and a pull that came
/// in meanwhile runs now.
fn read_finished<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = byte_tee(host, record);
    slots.reading = false;
    if slots.read_again[0] {
        pull_algorithm(host, record, 0);
    } else if slots.read_again[1] {
        pull_algorithm(host, record, 1);
    }
}

/// The default read request's chunk steps: the rest happens in a microtask.
pub(crate) fn chunk_steps<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    let data = host.stream_object_value(record);
    queue_continuation(host, BYTE_TEE_CHUNK, data, Ok(chunk));
}

/// The microtask of the default read's chunk steps: the chunk to branch 1,
/// a copy to branch 2.
pub(crate) fn chunk_microtask<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    let slots = byte_tee(host, record);
    slots.read_again = [false; 2];
    let canceled = slots.canceled;
    let mut chunks = [chunk; 2];
    if !canceled[0] && !canceled[1] {
        match clone_as_uint8_array(host, chunk) {
            Ok(clone) => chunks[1] = clone,
            Err(error) => {
                clone_failed(host, record, error);
                return;
            }
        }
    }
    for index in 0..2 {
        if !canceled[index]
            && let Some(controller) = branch_controller(host, record, index)
        {
            // The chunk is a fresh view over a buffer the tee owns, so the
            // enqueue cannot fail.
            let _ = readable_byte_stream_controller_enqueue(host, controller, chunks[index]);
        }
    }
    read_finished(host, record);
}

/// The default read request's close steps.
pub(crate) fn close_steps<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = byte_tee(host, record);
    slots.reading = false;
    let canceled = slots.canceled;
    for (index, canceled) in canceled.into_iter().enumerate() {
        if !canceled && let Some(controller) = branch_controller(host, record, index) {
            let _ = readable_byte_stream_controller_close(host, controller);
        }
    }
    for index in 0..2 {
        if let Some(controller) = branch_controller(host, record, index)
            && has_pending_pull_intos(host, controller)
        {
            let _ = readable_byte_stream_controller_respond(host, controller, 0);
        }
    }
    resolve_cancel_unless_both_canceled(host, record);
}

/// The read requests' error steps.
pub(crate) fn error_steps<H: StreamHost>(host: &mut H, record: H::Object) {
    byte_tee(host, record).reading = false;
}

/// The BYOB read-into request's chunk steps: the rest happens in a
/// microtask.
pub(crate) fn byob_chunk_steps<H: StreamHost>(host: &mut H, record: H::Object, branch: usize, chunk: H::Value) {
    let data = host.stream_object_value(record);
    let kind = if branch == 0 { BYTE_TEE_BYOB_CHUNK_1 } else { BYTE_TEE_BYOB_CHUNK_2 };
    queue_continuation(host, kind, data, Ok(chunk));
}

/// The microtask of the BYOB read's chunk steps: the filled view answers
/// the reading branch's request, a copy goes to the other branch.
pub(crate) fn byob_chunk_microtask<H: StreamHost>(host: &mut H, record: H::Object, branch: usize, chunk: H::Value) {
    let slots = byte_tee(host, record);
    slots.read_again = [false; 2];
    let (byob_canceled, other_canceled) = (slots.canceled[branch], slots.canceled[1 - branch]);
    let byob_controller = branch_controller(host, record, branch);
    let other_controller = branch_controller(host, record, 1 - branch);
    if other_canceled {
        if !byob_canceled && let Some(controller) = byob_controller {
            let _ = readable_byte_stream_controller_respond_with_new_view(host, controller, chunk);
        }
    } else {
        let clone = match clone_as_uint8_array(host, chunk) {
            Ok(clone) => clone,
            Err(error) => {
                clone_failed(host, record, error);
                return;
            }
        };
        if !byob_canceled && let Some(controller) = byob_controller {
            let _ = readable_byte_stream_controller_respond_with_new_view(host, controller, chunk);
        }
        if let Some(controller) = other_controller {
            let _ = readable_byte_stream_controller_enqueue(host, controller, clone);
        }
    }
    read_finished(host, record);
}

/// The BYOB read-into request's close steps (`chunk` is the empty view, or
/// `undefined` after a cancel).
pub(crate) fn byob_close_steps<H: StreamHost>(host: &mut H, record: H::Object, branch: usize, chunk: H::Value) {
    let slots = byte_tee(host, record);
    slots.reading = false;
    let (byob_canceled, other_canceled) = (slots.canceled[branch], slots.canceled[1 - branch]);
    let byob_controller = branch_controller(host, record, branch);
    let other_controller = branch_controller(host, record, 1 - branch);
    if !byob_canceled && let Some(controller) = byob_controller {
        let _ = readable_byte_stream_controller_close(host, controller);
    }
    if !other_canceled && let Some(controller) = other_controller {
        let _ = readable_byte_stream_controller_close(host, controller);
    }
    if chunk != H::Value::undefined() {
        if !byob_canceled && let Some(controller) = byob_controller {
            let _ = readable_byte_stream_controller_respond_with_new_view(host, controller, chunk);
        }
        if !other_canceled
            && let Some(controller) = other_controller
            && has_pending_pull_intos(host, controller)
        {
            let _ = readable_byte_stream_controller_respond(host, controller, 0);
        }
    }
    if !byob_canceled || !other_canceled {
        let promise = byte_tee(host, record).cancel_promise;
        resolve(host, promise, H::Value::undefined());
    }
}

/// `cancel1Algorithm` / `cancel2Algorithm`: once both branches cancelled,
/// the source is cancelled with both reasons.
pub(crate) fn cancel_algorithm<H: StreamHost>(
    host: &mut H,
    record: H::Object,
    branch: usize,
    reason: H::Value,
) -> H::Promise {
    let slots = byte_tee(host, record);
    slots.canceled[branch] = true;
    slots.reasons[branch] = reason;
    let promise = slots.cancel_promise;
    if slots.canceled[1 - branch] {
        let (reasons, stream) = (slots.reasons, slots.stream);
        let composite = host.new_array(&reasons);
        host.root(composite);
        let result = readable_stream_cancel(host, stream, composite);
        let value = host.promise_value(result);
        resolve(host, promise, value);
    }
    promise
}
