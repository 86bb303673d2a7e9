//! `ReadableStreamDefaultTee` (Streams §4.9.1): two branches reading one
//! source through one reader, driven by a tee record ([`TeeSlots`]) and
//! continuations instead of the spec's closures.

use js_promise::PromiseValue;

use crate::host::StreamHost;
use crate::jobs::{TEE_CHUNK, TEE_READER_CLOSED};
use crate::promises::{new_promise, queue_continuation, resolve, upon_promise};
use crate::readable_stream::{new_readable_stream, readable_stream_cancel};
use crate::readable_stream_default_controller::{
    StartAlgorithm, readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error, set_up_readable_stream_default_controller,
};
use crate::readable_stream_default_reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read, reader_closed,
};
use crate::slots::{ReadRequest, SourceAlgorithms, StreamSlots, TeeSlots, readable_stream, tee};

/// `ReadableStreamTee(stream, false)`: the two branches (a byte stream is
/// teed by `ReadableByteStreamTee`).
///
/// # Errors
/// A TypeError if the stream is locked.
pub fn readable_stream_tee<H: StreamHost>(host: &mut H, stream: H::Object) -> Result<[H::Object; 2], H::Value> {
    if let Some(controller) = readable_stream(host, stream).controller
        && crate::slots::is_byte_controller(host, controller)
    {
        return crate::readable_byte_stream_tee::readable_byte_stream_tee(host, stream);
    }
    let reader = acquire_readable_stream_default_reader(host, stream)?;
    let cancel_promise = new_promise(host);
    let record = host.new_stream_object(StreamSlots::Tee(TeeSlots {
        stream,
        reader,
        reading: false,
        read_again: false,
        canceled: [false; 2],
        reasons: [H::Value::undefined(); 2],
        branches: [None; 2],
        cancel_promise,
    }));
    let mut branches = [stream; 2];
    for (index, branch) in branches.iter_mut().enumerate() {
        let made = new_readable_stream(host);
        let start = StartAlgorithm::User { this_value: H::Value::undefined(), start: H::Value::undefined() };
        set_up_readable_stream_default_controller(
            host,
            made,
            start,
            SourceAlgorithms::Tee(record, index as u8),
            1.0,
            H::Value::undefined(),
        )?;
        *branch = made;
    }
    tee(host, record).branches = [Some(branches[0]), Some(branches[1])];
    let closed = reader_closed(host, reader);
    let data = host.stream_object_value(record);
    upon_promise(host, closed, TEE_READER_CLOSED, data);
    Ok(branches)
}

/// The branches' pull algorithm (the caller continues with a promise
/// resolved with undefined).
pub(crate) fn pull_algorithm<H: StreamHost>(host: &mut H, record: H::Object) {
    let slots = tee(host, record);
    if slots.reading {
        slots.read_again = true;
        return;
    }
    slots.reading = true;
    let reader = slots.reader;
    readable_stream_default_reader_read(host, reader, ReadRequest::Tee(record));
}

/// The tee read request's chunk steps: the rest happens in a microtask.
pub(crate) fn chunk_steps<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    let data = host.stream_object_value(record);
    queue_continuation(host, TEE_CHUNK, data, Ok(chunk));
}

fn branch_controller<H: StreamHost>(host: &mut H, record: H::Object, index: usize) -> Option<H::Object> {
    let branch = tee(host, record).branches[index]?;
    readable_stream(host, branch).controller
}

/// The microtask of the chunk steps: enqueue into each branch not
/// cancelled, then read again if asked.
pub(crate) fn chunk_microtask<H: StreamHost>(host: &mut H, record: H::Object, chunk: H::Value) {
    tee(host, record).read_again = false;
    for index in 0..2 {
        if !tee(host, record).canceled[index]
            && let Some(controller) = branch_controller(host, record, index)
        {
            // An enqueue error (a branch's size algorithm) errors that
            // branch; the tee carries on with the other.
            let _ = readable_stream_default_controller_enqueue(host, controller, chunk);
        }
    }
    let slots = tee(host, record);
    slots.reading = false;
    if slots.read_again {
        pull_algorithm(host, record);
    }
}

/// The tee read request's close steps.
pub(crate) fn close_steps<H: StreamHost>(host: &mut H, record: H::Object) {
    tee(host, record).reading = false;
    for index in 0..2 {
        if !tee(host, record).canceled[index]
            && let Some(controller) = branch_controller(host, record, index)
        {
            readable_stream_default_controller_close(host, controller);
        }
    }
    let slots = tee(host, record);
    if !slots.canceled[0] || !slots.canceled[1] {
        let promise = slots.cancel_promise;
        resolve(host, promise, H::Value::undefined());
    }
}

/// The tee read request's error steps.
pub(crate) fn error_steps<H: StreamHost>(host: &mut H, record: H::Object) {
    tee(host, record).reading = false;
}

/// A branch's cancel algorithm: once both branches cancelled, the source
/// is cancelled with both reasons.
pub(crate) fn cancel_algorithm<H: StreamHost>(
    host: &mut H,
    record: H::Object,
    branch: u8,
    reason: H::Value,
) -> H::Promise {
    let index = usize::from(branch & 1);
    let slots = tee(host, record);
    slots.canceled[index] = true;
    slots.reasons[index] = reason;
    let promise = slots.cancel_promise;
    if slots.canceled[1 - index] {
        let (reasons, stream) = (slots.reasons, slots.stream);
        let composite = host.new_array(&reasons);
        host.root(composite);
        let result = readable_stream_cancel(host, stream, composite);
        let value = host.promise_value(result);
        resolve(host, promise, value);
    }
    promise
}

/// The reader's `closed` settled: a rejection errors both branches.
pub(crate) fn reader_closed_settled<H: StreamHost>(
    host: &mut H,
    record: H::Object,
    outcome: Result<H::Value, H::Value>,
) {
    let Err(reason) = outcome else { return };
    for index in 0..2 {
        if let Some(controller) = branch_controller(host, record, index) {
            readable_stream_default_controller_error(host, controller, reason);
        }
    }
    let slots = tee(host, record);
    if !slots.canceled[0] || !slots.canceled[1] {
        let promise = slots.cancel_promise;
        resolve(host, promise, H::Value::undefined());
    }
}
