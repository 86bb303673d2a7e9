//! `ReadableStreamBYOBRequest` (Streams §4.8): the view a byte source
//! writes into and the `respond` / `respondWithNewView` methods that hand
//! the written bytes to the pending read.

use crate::host::{ErrorKind, StreamHost};
use crate::readable_byte_stream_controller::{
    readable_byte_stream_controller_respond, readable_byte_stream_controller_respond_with_new_view,
};
use crate::slots::byob_request;

/// `request.view` (`None` is null: the request was answered or
/// invalidated).
pub fn byob_request_view<H: StreamHost>(host: &mut H, request: H::Object) -> Option<H::Value> {
    byob_request(host, request).view
}

/// `request.respond(bytesWritten)`; the host converted `bytesWritten`
/// (`[EnforceRange] unsigned long long`).
///
/// # Errors
/// A TypeError for an invalidated request or a detached view, or what
/// `ReadableByteStreamControllerRespond` threw.
pub fn byob_request_respond<H: StreamHost>(
    host: &mut H,
    request: H::Object,
    bytes_written: u64,
) -> Result<(), H::Value> {
    let slots = byob_request(host, request);
    let (Some(controller), Some(view)) = (slots.controller, slots.view) else {
        return Err(host.new_error(ErrorKind::Type, "This BYOB request has been invalidated"));
    };
    let record = host.view_record(view);
    if host.array_buffer_byte_length(record.buffer).is_none() {
        return Err(host.new_error(ErrorKind::Type, "The BYOB request's buffer has been detached"));
    }
    readable_byte_stream_controller_respond(host, controller, bytes_written)
}

/// `request.respondWithNewView(view)`; the host converted `view` to an
/// `ArrayBufferView`.
///
/// # Errors
/// A TypeError for an invalidated request or a detached view, or what
/// `ReadableByteStreamControllerRespondWithNewView` threw.
pub fn byob_request_respond_with_new_view<H: StreamHost>(
    host: &mut H,
    request: H::Object,
    view: H::Value,
) -> Result<(), H::Value> {
    let Some(controller) = byob_request(host, request).controller else {
        return Err(host.new_error(ErrorKind::Type, "This BYOB request has been invalidated"));
    };
    let record = host.view_record(view);
    if host.array_buffer_byte_length(record.buffer).is_none() {
        return Err(host.new_error(ErrorKind::Type, "The view's buffer has been detached"));
    }
    readable_byte_stream_controller_respond_with_new_view(host, controller, view)
}
