//! `ReadableByteStreamController` abstract operations (Streams §4.7.4 and
//! §4.9.5): set-up, pulling, enqueue (with the buffer transferred), close,
//! error, the pull-into descriptors that BYOB reads and auto-allocated
//! default reads wait on, `respond`/`respondWithNewView`, and the
//! controller's pull, release and cancel steps.
//!
//! Like the default controller, pulls are continued by a slim reaction or a
//! directly queued job carrying the controller (the readable stream job
//! kinds, dispatched on the controller's kind); no closure is made per
//! pull. The BYOB request object and its view are made only when the
//! source reads `controller.byobRequest`.

use std::collections::VecDeque;

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{PULL_SETTLED, START_SETTLED_READABLE};
use crate::promises::{promise_rejected_with, promise_resolved_with, queue_continuation, upon_result, upon_value};
use crate::pull_into_descriptor::{ByteQueueEntry, PullIntoDescriptor, ReaderType, ViewConstructor};
use crate::readable_stream::{
    add_read_request, fulfill_read_request, num_read_requests, read_request_chunk_steps, read_request_error_steps,
    readable_stream_close, readable_stream_error, stream_has_byob_reader, stream_has_default_reader,
};
use crate::readable_stream_byob_reader::{
    add_read_into_request, fulfill_read_into_request, num_read_into_requests, read_into_request_chunk_steps,
    read_into_request_close_steps, read_into_request_error_steps,
};
use crate::readable_stream_default_controller::{StartAlgorithm, run_start};
use crate::slots::{
    ByobRequestSlots, ByteControllerSlots, ReadIntoRequest, ReadRequest, ReadableState, SourceAlgorithms, StreamSlots,
    byob_request, byte_controller, default_reader, readable_stream,
};

type Descriptor<H> = PullIntoDescriptor<<H as js_promise::PromiseHost>::Value>;

/// `SetUpReadableByteStreamController`: makes the controller, links it to
/// `stream` and runs `start`.
///
/// # Errors
/// What `start` threw.
pub fn set_up_readable_byte_stream_controller<H: StreamHost>(
    host: &mut H,
    stream: H::Object,
    start: StartAlgorithm<H::Value, H::Promise>,
    algorithms: SourceAlgorithms<H::Value, H::Object>,
    high_water_mark: f64,
    auto_allocate_chunk_size: Option<usize>,
) -> Result<H::Object, H::Value> {
    let controller = host.new_stream_object(StreamSlots::ReadableByteStreamController(ByteControllerSlots {
        stream,
        queue: VecDeque::new(),
        queue_total_size: 0,
        started: false,
        close_requested: false,
        pull_again: false,
        pulling: false,
        high_water_mark,
        auto_allocate_chunk_size,
        byob_request: None,
        pending_pull_intos: VecDeque::new(),
        algorithms,
    }));
    readable_stream(host, stream).controller = Some(controller);
    let start_result = run_start(host, start, controller)?;
    let data = host.stream_object_value(controller);
    upon_result(host, start_result, START_SETTLED_READABLE, data);
    Ok(controller)
}

/// The start promise settled.
pub(crate) fn start_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    match outcome {
        Ok(_) => {
            byte_controller(host, controller).started = true;
            call_pull_if_needed(host, controller);
        }
        Err(reason) => readable_byte_stream_controller_error(host, controller, reason),
    }
}

/// `ReadableByteStreamControllerCallPullIfNeeded`.
pub fn call_pull_if_needed<H: StreamHost>(host: &mut H, controller: H::Object) {
    if !should_call_pull(host, controller) {
        return;
    }
    let slots = byte_controller(host, controller);
    if slots.pulling {
        slots.pull_again = true;
        return;
    }
    slots.pulling = true;
    let algorithms = slots.algorithms;
    let data = host.stream_object_value(controller);
    match algorithms {
        SourceAlgorithms::User { source, pull, .. } if pull != H::Value::undefined() => {
            match host.call(pull, source, &[data]) {
                Ok(result) => upon_result(host, result, PULL_SETTLED, data),
                Err(thrown) => queue_continuation(host, PULL_SETTLED, data, Err(thrown)),
            }
        }
        SourceAlgorithms::ByteTee(record, branch) => {
            crate::readable_byte_stream_tee::pull_algorithm(host, record, usize::from(branch & 1));
            upon_value(host, H::Value::undefined(), PULL_SETTLED, data);
        }
        _ => upon_value(host, H::Value::undefined(), PULL_SETTLED, data),
    }
}

/// The pull promise settled.
pub(crate) fn pull_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    match outcome {
        Ok(_) => {
            let slots = byte_controller(host, controller);
            slots.pulling = false;
            if slots.pull_again {
                slots.pull_again = false;
                call_pull_if_needed(host, controller);
            }
        }
        Err(reason) => readable_byte_stream_controller_error(host, controller, reason),
    }
}

/// `ReadableByteStreamControllerShouldCallPull`.
fn should_call_pull<H: StreamHost>(host: &mut H, controller: H::Object) -> bool {
    let slots = byte_controller(host, controller);
    let (stream, close_requested, started) = (slots.stream, slots.close_requested, slots.started);
    if readable_stream(host, stream).state != ReadableState::Readable || close_requested || !started {
        return false;
    }
    if stream_has_default_reader(host, stream) && num_read_requests(host, stream) > 0 {
        return true;
    }
    if stream_has_byob_reader(host, stream) && num_read_into_requests(host, stream) > 0 {
        return true;
    }
    desired_size(host, controller).is_some_and(|size| size > 0.0)
}

/// `ReadableByteStreamControllerClearAlgorithms`.
fn clear_algorithms<H: StreamHost>(host: &mut H, controller: H::Object) {
    byte_controller(host, controller).algorithms = SourceAlgorithms::Cleared;
}

/// `ReadableByteStreamControllerClearPendingPullIntos`.
fn clear_pending_pull_intos<H: StreamHost>(host: &mut H, controller: H::Object) {
    invalidate_byob_request(host, controller);
    byte_controller(host, controller).pending_pull_intos.clear();
}

/// `ResetQueue` for the byte queue.
fn reset_queue<H: StreamHost>(host: &mut H, controller: H::Object) {
    let slots = byte_controller(host, controller);
    slots.queue.clear();
    slots.queue_total_size = 0;
}

/// `ReadableByteStreamControllerClose`.
///
/// # Errors
/// The TypeError for a pending read left with a partial element (the
/// stream is errored with it first).
pub fn readable_byte_stream_controller_close<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
) -> Result<(), H::Value> {
    let slots = byte_controller(host, controller);
    let stream = slots.stream;
    let close_requested = slots.close_requested;
    if close_requested || readable_stream(host, stream).state != ReadableState::Readable {
        return Ok(());
    }
    let slots = byte_controller(host, controller);
    if slots.queue_total_size > 0 {
        slots.close_requested = true;
        return Ok(());
    }
    if let Some(first) = slots.pending_pull_intos.front()
        && first.bytes_filled % first.element_size != 0
    {
        let error = host.new_error(ErrorKind::Type, "Insufficient bytes to fill elements in the given buffer");
        host.root(error);
        readable_byte_stream_controller_error(host, controller, error);
        return Err(error);
    }
    clear_algorithms(host, controller);
    readable_stream_close(host, stream);
    Ok(())
}

/// `ReadableByteStreamControllerCommitPullIntoDescriptor`.
fn commit_pull_into_descriptor<H: StreamHost>(host: &mut H, stream: H::Object, descriptor: Descriptor<H>) {
    let filled_view = convert_pull_into_descriptor(host, descriptor);
    fulfill_with_view(host, stream, descriptor, filled_view);
}

/// `ReadableByteStreamControllerCommitPullIntoDescriptor` for a descriptor
/// whose buffer the caller just made by a transfer that nothing else has
/// seen (no BYOB request was made over it): the conversion's second
/// transfer would only make another buffer object, so the view is made
/// over this one (same outcome, one object fewer).
fn commit_fresh_pull_into_descriptor<H: StreamHost>(host: &mut H, stream: H::Object, descriptor: Descriptor<H>) {
    let filled_view = view_over_fresh_buffer(host, descriptor);
    fulfill_with_view(host, stream, descriptor, filled_view);
}

/// The filled part of a descriptor whose buffer nothing else has seen, as
/// a view over that buffer (see [`commit_fresh_pull_into_descriptor`]).
fn view_over_fresh_buffer<H: StreamHost>(host: &mut H, descriptor: Descriptor<H>) -> H::Value {
    let length = descriptor.bytes_filled / descriptor.element_size;
    let view = host.new_view(descriptor.view_constructor, descriptor.buffer, descriptor.byte_offset, length);
    host.root(view);
    view
}

/// The end of `CommitPullIntoDescriptor`: the read request or read-into
/// request that made the descriptor gets the view.
fn fulfill_with_view<H: StreamHost>(host: &mut H, stream: H::Object, descriptor: Descriptor<H>, filled_view: H::Value) {
    let done = readable_stream(host, stream).state == ReadableState::Closed;
    if descriptor.reader_type == ReaderType::Default {
        fulfill_read_request(host, stream, filled_view, done);
    } else {
        fulfill_read_into_request(host, stream, filled_view, done);
    }
}

/// `ReadableByteStreamControllerConvertPullIntoDescriptor`: the filled
/// part as a view of the descriptor's kind, over the buffer transferred
/// once more.
fn convert_pull_into_descriptor<H: StreamHost>(host: &mut H, descriptor: Descriptor<H>) -> H::Value {
    // The descriptor's buffer is owned by the stream and was never exposed
    // detached, so the transfer succeeds; a failure would leave the bytes
    // where they are, which is still a valid view.
    let buffer = host.transfer_array_buffer(descriptor.buffer).unwrap_or(descriptor.buffer);
    host.root(buffer);
    let length = descriptor.bytes_filled / descriptor.element_size;
    let view = host.new_view(descriptor.view_constructor, buffer, descriptor.byte_offset, length);
    host.root(view);
    view
}

/// `ReadableByteStreamControllerEnqueue`.
///
/// # Errors
/// A TypeError for a detached chunk or pending read buffer, or what the
/// transfer threw.
pub fn readable_byte_stream_controller_enqueue<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    chunk: H::Value,
) -> Result<(), H::Value> {
    let slots = byte_controller(host, controller);
    let (stream, close_requested) = (slots.stream, slots.close_requested);
    if close_requested || readable_stream(host, stream).state != ReadableState::Readable {
        return Ok(());
    }
    let record = host.view_record(chunk);
    if host.array_buffer_byte_length(record.buffer).is_none() {
        return Err(host.new_error(ErrorKind::Type, "The chunk's buffer is detached"));
    }
    let transferred = host.transfer_array_buffer(record.buffer)?;
    host.root(transferred);
    if let Some(first) = byte_controller(host, controller).pending_pull_intos.front().copied() {
        if host.array_buffer_byte_length(first.buffer).is_none() {
            return Err(host.new_error(ErrorKind::Type, "The BYOB request's buffer has been detached"));
        }
        invalidate_byob_request(host, controller);
        let buffer = host.transfer_array_buffer(first.buffer)?;
        host.root(buffer);
        let slots = byte_controller(host, controller);
        if let Some(head) = slots.pending_pull_intos.front_mut() {
            head.buffer = buffer;
        }
        if first.reader_type == ReaderType::None {
            let head = PullIntoDescriptor { buffer, ..first };
            enqueue_detached_pull_into_to_queue(host, controller, head);
        }
    }
    let (byte_offset, byte_length) = (record.byte_offset, record.byte_length);
    if stream_has_default_reader(host, stream) {
        process_read_requests_using_queue(host, controller);
        if num_read_requests(host, stream) == 0 {
            enqueue_chunk_to_queue(host, controller, transferred, byte_offset, byte_length);
        } else {
            if !byte_controller(host, controller).pending_pull_intos.is_empty() {
                shift_pending_pull_into(host, controller);
            }
            let view = host.new_view(ViewConstructor::Uint8, transferred, byte_offset, byte_length);
            host.root(view);
            fulfill_read_request(host, stream, view, false);
        }
    } else if stream_has_byob_reader(host, stream) {
        enqueue_chunk_to_queue(host, controller, transferred, byte_offset, byte_length);
        let filled = process_pull_into_descriptors_using_queue(host, controller);
        for descriptor in filled {
            commit_pull_into_descriptor(host, stream, descriptor);
        }
    } else {
        enqueue_chunk_to_queue(host, controller, transferred, byte_offset, byte_length);
    }
    call_pull_if_needed(host, controller);
    Ok(())
}

/// `ReadableByteStreamControllerEnqueueChunkToQueue`.
fn enqueue_chunk_to_queue<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    buffer: H::Value,
    byte_offset: usize,
    byte_length: usize,
) {
    let slots = byte_controller(host, controller);
    slots.queue.push_back(ByteQueueEntry { buffer, byte_offset, byte_length });
    slots.queue_total_size += byte_length;
}

/// `ReadableByteStreamControllerEnqueueClonedChunkToQueue`.
fn enqueue_cloned_chunk_to_queue<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    buffer: H::Value,
    byte_offset: usize,
    byte_length: usize,
) -> Result<(), H::Value> {
    match host.new_array_buffer(byte_length, Some((buffer, byte_offset))) {
        Ok(clone) => {
            host.root(clone);
            enqueue_chunk_to_queue(host, controller, clone, 0, byte_length);
            Ok(())
        }
        Err(error) => {
            host.root(error);
            readable_byte_stream_controller_error(host, controller, error);
            Err(error)
        }
    }
}

/// `ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue`: the bytes
/// a released reader's read already received go to the queue.
fn enqueue_detached_pull_into_to_queue<H: StreamHost>(host: &mut H, controller: H::Object, descriptor: Descriptor<H>) {
    if descriptor.bytes_filled > 0 {
        // An allocation failure errored the stream; the descriptor goes
        // either way.
        let _ = enqueue_cloned_chunk_to_queue(
            host,
            controller,
            descriptor.buffer,
            descriptor.byte_offset,
            descriptor.bytes_filled,
        );
    }
    shift_pending_pull_into(host, controller);
}

/// `ReadableByteStreamControllerError`.
pub fn readable_byte_stream_controller_error<H: StreamHost>(host: &mut H, controller: H::Object, error: H::Value) {
    let stream = byte_controller(host, controller).stream;
    if readable_stream(host, stream).state != ReadableState::Readable {
        return;
    }
    clear_pending_pull_intos(host, controller);
    reset_queue(host, controller);
    clear_algorithms(host, controller);
    readable_stream_error(host, stream, error);
}

/// `ReadableByteStreamControllerFillPullIntoDescriptorFromQueue`: copies
/// queued bytes into `descriptor`; whether it reached its minimum fill.
fn fill_pull_into_descriptor_from_queue<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    descriptor: &mut Descriptor<H>,
) -> bool {
    let total = byte_controller(host, controller).queue_total_size;
    let max_bytes_to_copy = total.min(descriptor.byte_length - descriptor.bytes_filled);
    let max_bytes_filled = descriptor.bytes_filled + max_bytes_to_copy;
    let mut remaining = max_bytes_to_copy;
    let mut ready = false;
    let max_aligned_bytes = max_bytes_filled - max_bytes_filled % descriptor.element_size;
    if max_aligned_bytes >= descriptor.minimum_fill {
        remaining = max_aligned_bytes.saturating_sub(descriptor.bytes_filled);
        ready = true;
    }
    while remaining > 0 {
        let Some(head) = byte_controller(host, controller).queue.front().copied() else { break };
        let bytes_to_copy = remaining.min(head.byte_length);
        let dest_start = descriptor.byte_offset + descriptor.bytes_filled;
        host.copy_buffer_bytes(descriptor.buffer, dest_start, head.buffer, head.byte_offset, bytes_to_copy);
        let slots = byte_controller(host, controller);
        if head.byte_length == bytes_to_copy {
            slots.queue.pop_front();
        } else if let Some(entry) = slots.queue.front_mut() {
            entry.byte_offset += bytes_to_copy;
            entry.byte_length -= bytes_to_copy;
        }
        slots.queue_total_size -= bytes_to_copy;
        descriptor.bytes_filled += bytes_to_copy;
        remaining -= bytes_to_copy;
    }
    ready
}

/// Writes `descriptor` back as the head of the pending pull-intos (the
/// fill operated on a copy).
fn store_head<H: StreamHost>(host: &mut H, controller: H::Object, descriptor: Descriptor<H>) {
    if let Some(head) = byte_controller(host, controller).pending_pull_intos.front_mut() {
        *head = descriptor;
    }
}

/// `ReadableByteStreamControllerFillReadRequestFromQueue`.
fn fill_read_request_from_queue<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    request: ReadRequest<H::Object, H::Promise>,
) {
    let view = take_queued_view(host, controller);
    if let Some(view) = view {
        read_request_chunk_steps(host, request, view);
    }
}

/// The first queue entry as a `Uint8Array`, with the queue-drain steps run
/// (`FillReadRequestFromQueue` up to the chunk steps). `None` if nothing
/// is queued.
pub(crate) fn take_queued_view<H: StreamHost>(host: &mut H, controller: H::Object) -> Option<H::Value> {
    let slots = byte_controller(host, controller);
    let entry = slots.queue.pop_front()?;
    slots.queue_total_size -= entry.byte_length;
    host.root(entry.buffer);
    handle_queue_drain(host, controller);
    let view = host.new_view(ViewConstructor::Uint8, entry.buffer, entry.byte_offset, entry.byte_length);
    host.root(view);
    Some(view)
}

/// `ReadableByteStreamControllerGetBYOBRequest`: the request object, made
/// now if a read is pending and nobody looked yet; `None` is null.
pub fn get_byob_request<H: StreamHost>(host: &mut H, controller: H::Object) -> Option<H::Object> {
    let slots = byte_controller(host, controller);
    if slots.byob_request.is_some() {
        return slots.byob_request;
    }
    let first = slots.pending_pull_intos.front().copied()?;
    let view = host.new_view(
        ViewConstructor::Uint8,
        first.buffer,
        first.byte_offset + first.bytes_filled,
        first.byte_length - first.bytes_filled,
    );
    host.root(view);
    let request = host.new_stream_object(StreamSlots::ReadableStreamBYOBRequest(ByobRequestSlots {
        controller: Some(controller),
        view: Some(view),
    }));
    byte_controller(host, controller).byob_request = Some(request);
    Some(request)
}

/// `ReadableByteStreamControllerGetDesiredSize` (`None` is null).
pub fn desired_size<H: StreamHost>(host: &mut H, controller: H::Object) -> Option<f64> {
    let slots = byte_controller(host, controller);
    let (high_water_mark, total, stream) = (slots.high_water_mark, slots.queue_total_size, slots.stream);
    match readable_stream(host, stream).state {
        ReadableState::Errored => None,
        ReadableState::Closed => Some(0.0),
        ReadableState::Readable => Some(high_water_mark - total as f64),
    }
}

/// `ReadableByteStreamControllerHandleQueueDrain`.
fn handle_queue_drain<H: StreamHost>(host: &mut H, controller: H::Object) {
    let slots = byte_controller(host, controller);
    if slots.queue_total_size == 0 && slots.close_requested {
        let stream = slots.stream;
        clear_algorithms(host, controller);
        readable_stream_close(host, stream);
    } else {
        call_pull_if_needed(host, controller);
    }
}

/// `ReadableByteStreamControllerInvalidateBYOBRequest`.
fn invalidate_byob_request<H: StreamHost>(host: &mut H, controller: H::Object) {
    let Some(request) = byte_controller(host, controller).byob_request.take() else { return };
    let slots = byob_request(host, request);
    slots.controller = None;
    slots.view = None;
}

/// `ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue`: the
/// descriptors filled (and shifted off), to be committed by the caller.
fn process_pull_into_descriptors_using_queue<H: StreamHost>(host: &mut H, controller: H::Object) -> Vec<Descriptor<H>> {
    let mut filled = Vec::new();
    loop {
        let slots = byte_controller(host, controller);
        if slots.queue_total_size == 0 {
            break;
        }
        let Some(mut descriptor) = slots.pending_pull_intos.front().copied() else { break };
        let ready = fill_pull_into_descriptor_from_queue(host, controller, &mut descriptor);
        store_head(host, controller, descriptor);
        if ready && let Some(descriptor) = shift_pending_pull_into(host, controller) {
            // Held here while earlier ones are committed (which can run
            // user code through a `then` getter).
            host.root(descriptor.buffer);
            filled.push(descriptor);
        }
    }
    filled
}

/// `ReadableByteStreamControllerProcessReadRequestsUsingQueue`.
fn process_read_requests_using_queue<H: StreamHost>(host: &mut H, controller: H::Object) {
    let stream = byte_controller(host, controller).stream;
    let Some(reader) = readable_stream(host, stream).reader else { return };
    loop {
        if byte_controller(host, controller).queue_total_size == 0 {
            return;
        }
        let Some(request) = default_reader(host, reader).read_requests.pop_front() else { return };
        fill_read_request_from_queue(host, controller, request);
    }
}

/// `ReadableByteStreamControllerPullInto(controller, view, min,
/// readIntoRequest)`; `min` was validated against the view.
pub(crate) fn pull_into<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    view: H::Value,
    min: usize,
    request: ReadIntoRequest<H::Object, H::Promise>,
) {
    let stream = byte_controller(host, controller).stream;
    let record = host.view_record(view);
    let element_size = record.constructor.element_size();
    let buffer = match host.transfer_array_buffer(record.buffer) {
        Ok(buffer) => buffer,
        Err(error) => {
            read_into_request_error_steps(host, request, error);
            return;
        }
    };
    host.root(buffer);
    let buffer_byte_length = host.array_buffer_byte_length(buffer).unwrap_or(0);
    let mut descriptor = PullIntoDescriptor {
        buffer,
        buffer_byte_length,
        byte_offset: record.byte_offset,
        byte_length: record.byte_length,
        bytes_filled: 0,
        minimum_fill: min * element_size,
        element_size,
        view_constructor: record.constructor,
        reader_type: ReaderType::Byob,
    };
    let slots = byte_controller(host, controller);
    if !slots.pending_pull_intos.is_empty() {
        slots.pending_pull_intos.push_back(descriptor);
        add_read_into_request(host, stream, request);
        return;
    }
    if readable_stream(host, stream).state == ReadableState::Closed {
        let empty = host.new_view(descriptor.view_constructor, descriptor.buffer, descriptor.byte_offset, 0);
        read_into_request_close_steps(host, request, empty);
        return;
    }
    if byte_controller(host, controller).queue_total_size > 0 {
        if fill_pull_into_descriptor_from_queue(host, controller, &mut descriptor) {
            // The buffer was made by the transfer above and nothing else
            // has seen it: no second transfer.
            let filled = view_over_fresh_buffer(host, descriptor);
            handle_queue_drain(host, controller);
            read_into_request_chunk_steps(host, request, filled);
            return;
        }
        if byte_controller(host, controller).close_requested {
            let error = host.new_error(ErrorKind::Type, "Insufficient bytes to fill elements in the given buffer");
            host.root(error);
            readable_byte_stream_controller_error(host, controller, error);
            read_into_request_error_steps(host, request, error);
            return;
        }
    }
    byte_controller(host, controller).pending_pull_intos.push_back(descriptor);
    add_read_into_request(host, stream, request);
    call_pull_if_needed(host, controller);
}

/// `ReadableByteStreamControllerRespond`.
///
/// # Errors
/// A TypeError or RangeError for a `bytesWritten` the state does not
/// allow.
pub fn readable_byte_stream_controller_respond<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    bytes_written: u64,
) -> Result<(), H::Value> {
    let slots = byte_controller(host, controller);
    let stream = slots.stream;
    let Some(first) = slots.pending_pull_intos.front().copied() else {
        return Err(host.new_error(ErrorKind::Type, "There is no pending read to respond to"));
    };
    if readable_stream(host, stream).state == ReadableState::Closed {
        if bytes_written != 0 {
            return Err(host.new_error(ErrorKind::Type, "bytesWritten must be 0 when the stream is closed"));
        }
    } else {
        if bytes_written == 0 {
            return Err(host.new_error(ErrorKind::Type, "bytesWritten must be greater than 0"));
        }
        let room = (first.byte_length - first.bytes_filled) as u64;
        if bytes_written > room {
            return Err(host.new_error(ErrorKind::Range, "bytesWritten out of range"));
        }
    }
    let buffer = host.transfer_array_buffer(first.buffer)?;
    host.root(buffer);
    store_head(host, controller, PullIntoDescriptor { buffer, ..first });
    // Bounded by the descriptor's byte length above.
    respond_internal(host, controller, bytes_written as usize)
}

/// `ReadableByteStreamControllerRespondInClosedState`.
fn respond_in_closed_state<H: StreamHost>(host: &mut H, controller: H::Object, first: Descriptor<H>) {
    if first.reader_type == ReaderType::None {
        shift_pending_pull_into(host, controller);
    }
    let stream = byte_controller(host, controller).stream;
    if stream_has_byob_reader(host, stream) {
        let mut filled = Vec::new();
        while filled.len() < num_read_into_requests(host, stream) {
            let Some(descriptor) = shift_pending_pull_into(host, controller) else { break };
            host.root(descriptor.buffer);
            filled.push(descriptor);
        }
        for descriptor in filled {
            commit_pull_into_descriptor(host, stream, descriptor);
        }
    }
}

/// `ReadableByteStreamControllerRespondInReadableState`.
fn respond_in_readable_state<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    bytes_written: usize,
    mut descriptor: Descriptor<H>,
) -> Result<(), H::Value> {
    descriptor.bytes_filled += bytes_written;
    store_head(host, controller, descriptor);
    let stream = byte_controller(host, controller).stream;
    if descriptor.reader_type == ReaderType::None {
        enqueue_detached_pull_into_to_queue(host, controller, descriptor);
        let filled = process_pull_into_descriptors_using_queue(host, controller);
        for descriptor in filled {
            commit_pull_into_descriptor(host, stream, descriptor);
        }
        return Ok(());
    }
    if descriptor.bytes_filled < descriptor.minimum_fill {
        return Ok(());
    }
    shift_pending_pull_into(host, controller);
    let remainder = descriptor.bytes_filled % descriptor.element_size;
    if remainder > 0 {
        let end = descriptor.byte_offset + descriptor.bytes_filled;
        enqueue_cloned_chunk_to_queue(host, controller, descriptor.buffer, end - remainder, remainder)?;
    }
    descriptor.bytes_filled -= remainder;
    let filled = process_pull_into_descriptors_using_queue(host, controller);
    // `respond()` or `respondWithNewView()` transferred the buffer just
    // now and the BYOB request over the old one was invalidated.
    commit_fresh_pull_into_descriptor(host, stream, descriptor);
    for descriptor in filled {
        commit_pull_into_descriptor(host, stream, descriptor);
    }
    Ok(())
}

/// `ReadableByteStreamControllerRespondInternal`.
fn respond_internal<H: StreamHost>(host: &mut H, controller: H::Object, bytes_written: usize) -> Result<(), H::Value> {
    let Some(first) = byte_controller(host, controller).pending_pull_intos.front().copied() else { return Ok(()) };
    invalidate_byob_request(host, controller);
    let stream = byte_controller(host, controller).stream;
    if readable_stream(host, stream).state == ReadableState::Closed {
        respond_in_closed_state(host, controller, first);
    } else {
        respond_in_readable_state(host, controller, bytes_written, first)?;
    }
    call_pull_if_needed(host, controller);
    Ok(())
}

/// `ReadableByteStreamControllerRespondWithNewView`.
///
/// # Errors
/// A TypeError or RangeError for a view that does not match the pending
/// read, or what the transfer threw.
pub fn readable_byte_stream_controller_respond_with_new_view<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    view: H::Value,
) -> Result<(), H::Value> {
    let slots = byte_controller(host, controller);
    let stream = slots.stream;
    let Some(first) = slots.pending_pull_intos.front().copied() else {
        return Err(host.new_error(ErrorKind::Type, "There is no pending read to respond to"));
    };
    let record = host.view_record(view);
    if readable_stream(host, stream).state == ReadableState::Closed {
        if record.byte_length != 0 {
            return Err(host.new_error(ErrorKind::Type, "The view's length must be 0 when the stream is closed"));
        }
    } else if record.byte_length == 0 {
        return Err(host.new_error(ErrorKind::Type, "The view's length must be greater than 0"));
    }
    if first.byte_offset + first.bytes_filled != record.byte_offset {
        return Err(host.new_error(ErrorKind::Range, "The region specified by view does not match byobRequest"));
    }
    if first.buffer_byte_length != host.array_buffer_byte_length(record.buffer).unwrap_or(0) {
        return Err(host.new_error(ErrorKind::Range, "The buffer of view has different capacity than byobRequest"));
    }
    if first.bytes_filled + record.byte_length > first.byte_length {
        return Err(host.new_error(ErrorKind::Range, "The region specified by view is larger than byobRequest"));
    }
    let buffer = host.transfer_array_buffer(record.buffer)?;
    host.root(buffer);
    store_head(host, controller, PullIntoDescriptor { buffer, ..first });
    respond_internal(host, controller, record.byte_length)
}

/// `ReadableByteStreamControllerShiftPendingPullInto`.
fn shift_pending_pull_into<H: StreamHost>(host: &mut H, controller: H::Object) -> Option<Descriptor<H>> {
    byte_controller(host, controller).pending_pull_intos.pop_front()
}

/// `[[PullSteps]](readRequest)`: a default reader's read.
pub(crate) fn pull_steps<H: StreamHost>(
    host: &mut H,
    controller: H::Object,
    request: ReadRequest<H::Object, H::Promise>,
) {
    let slots = byte_controller(host, controller);
    let stream = slots.stream;
    if slots.queue_total_size > 0 {
        fill_read_request_from_queue(host, controller, request);
        return;
    }
    if let Some(size) = slots.auto_allocate_chunk_size {
        let buffer = match host.new_array_buffer(size, None) {
            Ok(buffer) => buffer,
            Err(error) => {
                read_request_error_steps(host, request, error);
                return;
            }
        };
        host.root(buffer);
        byte_controller(host, controller).pending_pull_intos.push_back(PullIntoDescriptor {
            buffer,
            buffer_byte_length: size,
            byte_offset: 0,
            byte_length: size,
            bytes_filled: 0,
            minimum_fill: 1,
            element_size: 1,
            view_constructor: ViewConstructor::Uint8,
            reader_type: ReaderType::Default,
        });
    }
    add_read_request(host, stream, request);
    call_pull_if_needed(host, controller);
}

/// `[[ReleaseSteps]]()`: a released reader's first pending read stays (the
/// source may be writing into it) with reader type "none"; the rest go.
pub(crate) fn release_steps<H: StreamHost>(host: &mut H, controller: H::Object) {
    let slots = byte_controller(host, controller);
    if let Some(mut first) = slots.pending_pull_intos.front().copied() {
        first.reader_type = ReaderType::None;
        slots.pending_pull_intos.clear();
        slots.pending_pull_intos.push_back(first);
    }
}

/// `[[CancelSteps]](reason)`: the promise of the cancel algorithm.
pub(crate) fn cancel_steps<H: StreamHost>(host: &mut H, controller: H::Object, reason: H::Value) -> H::Promise {
    clear_pending_pull_intos(host, controller);
    reset_queue(host, controller);
    let algorithms = byte_controller(host, controller).algorithms;
    let promise = match algorithms {
        SourceAlgorithms::User { source, cancel, .. } if cancel != H::Value::undefined() => {
            match host.call(cancel, source, &[reason]) {
                Ok(result) => crate::promises::promise_converted_from(host, result),
                Err(thrown) => promise_rejected_with(host, thrown),
            }
        }
        SourceAlgorithms::ByteTee(record, branch) => {
            crate::readable_byte_stream_tee::cancel_algorithm(host, record, usize::from(branch & 1), reason)
        }
        _ => promise_resolved_with(host, H::Value::undefined()),
    };
    let value = host.promise_value(promise);
    host.root(value);
    clear_algorithms(host, controller);
    promise
}

/// Whether bytes are queued (`[[queueTotalSize]]` > 0).
pub(crate) fn has_queued_bytes<H: StreamHost>(host: &mut H, controller: H::Object) -> bool {
    byte_controller(host, controller).queue_total_size > 0
}

/// Whether a read is pending (`[[pendingPullIntos]]` is not empty).
pub(crate) fn has_pending_pull_intos<H: StreamHost>(host: &mut H, controller: H::Object) -> bool {
    !byte_controller(host, controller).pending_pull_intos.is_empty()
}

/// `controller.close()`: the method's checks, then the close.
///
/// # Errors
/// A TypeError if a close was already requested or the stream is not
/// readable, or what the close threw.
pub fn close_method<H: StreamHost>(host: &mut H, controller: H::Object) -> Result<(), H::Value> {
    let slots = byte_controller(host, controller);
    let stream = slots.stream;
    if slots.close_requested {
        return Err(host.new_error(ErrorKind::Type, "The stream is already closing"));
    }
    if readable_stream(host, stream).state != ReadableState::Readable {
        return Err(host.new_error(ErrorKind::Type, "The stream is not in a state that permits close"));
    }
    readable_byte_stream_controller_close(host, controller)
}

/// `controller.enqueue(chunk)`: the method's checks, then the enqueue.
///
/// # Errors
/// A TypeError for an empty chunk or buffer, a closing or closed stream,
/// or what the enqueue threw.
pub fn enqueue_method<H: StreamHost>(host: &mut H, controller: H::Object, chunk: H::Value) -> Result<(), H::Value> {
    let record = host.view_record(chunk);
    if record.byte_length == 0 {
        return Err(host.new_error(ErrorKind::Type, "chunk must have non-zero byteLength"));
    }
    if host.array_buffer_byte_length(record.buffer).unwrap_or(0) == 0 {
        return Err(host.new_error(ErrorKind::Type, "chunk's buffer must have non-zero byteLength"));
    }
    let slots = byte_controller(host, controller);
    let stream = slots.stream;
    if slots.close_requested {
        return Err(host.new_error(ErrorKind::Type, "The stream is closing"));
    }
    if readable_stream(host, stream).state != ReadableState::Readable {
        return Err(host.new_error(ErrorKind::Type, "The stream is not in a state that permits enqueue"));
    }
    readable_byte_stream_controller_enqueue(host, controller, chunk)
}
