//! `TextDecoderStream` (WHATWG Encoding §8.3): a transform stream from
//! `AllowSharedBufferSource` chunks to strings, with `encoding`, `fatal`,
//! `ignoreBOM`, `readable` and `writable`.
//!
//! As for `TextEncoderStream`, the stream's `[[transform]]` is a
//! js-streams `TransformStream` whose transformer is the decoder stream
//! itself and whose `transform` and `flush` are native functions shared
//! by the VM. One `encoding_rs` decoder lives across the chunks, so a
//! sequence (and a BOM) split between chunks decodes as if whole; the
//! flush at close ends it (an unfinished sequence is U+FFFD, or a
//! `TypeError` in fatal mode). Chunk bytes are decoded straight out of
//! their buffer: nothing can run script while they are read, so the spec's
//! copy is not needed.

use js_gc::{Gc, Trace, Tracer};
use js_streams::transform_stream::{
    transform_controller_enqueue, transform_stream_readable, transform_stream_writable,
};

use crate::builtins::array_buffer::buffer_data;
use crate::builtins::{constructor, native_function};
use crate::host::streams::{VmStreamSlots, branded, create_native_transform_stream, thrown};
use crate::host::text_decoder::{DecodeError, TextDecoderState, buffer_source, decoder_from_arguments};
use crate::host::{webidl_attribute, webidl_to_string_tag};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::{DataClass, JsObject};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A `TextDecoderStream`: its slots are a [`TextDecoderStreamState`] cell.
static TEXT_DECODER_STREAM: DataClass = DataClass::plain::<TextDecoderStreamState>("TextDecoderStream");

// SAFETY: the transform stream is the one edge.
unsafe impl Trace for TextDecoderStreamState {
    fn trace(&self, tracer: &mut Tracer) {
        self.transform.trace(tracer);
    }

    fn type_name() -> &'static str {
        "TextDecoderStreamState"
    }
}

/// The internal slots of a `TextDecoderStream`.
pub struct TextDecoderStreamState {
    /// `[[transform]]` (set once the constructor made it).
    transform: Option<Gc<JsObject>>,
    /// The encoding, the flags and `[[decoder]]` with its `[[I/O queue]]`.
    decoder: TextDecoderState,
}

fn with_state<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut TextDecoderStreamState) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<TextDecoderStreamState>(&TEXT_DECODER_STREAM)?;
    Some(f(cell.borrow_mut(&mut vm.heap)))
}

/// The `TextDecoderStream` `value` is, or a `TypeError`.
fn this_stream(vm: &mut Vm, value: Value) -> JsResult<Gc<JsObject>> {
    match value.as_object() {
        Some(o) if o.borrow(&vm.heap).is_data(&TEXT_DECODER_STREAM) => Ok(o),
        _ => Err(vm.type_error("Value of \"this\" must be of type TextDecoderStream")),
    }
}

/// The transform stream controller a transform algorithm was called with.
fn controller_argument(vm: &mut Vm, info: &CallInfo, index: usize) -> JsResult<Gc<JsObject>> {
    let value = info.arg(vm, index);
    branded(vm, value, |s| matches!(s, VmStreamSlots::TransformStreamDefaultController(_)))
        .ok_or_else(|| vm.type_error("Illegal invocation"))
}

/// Decodes `bytes` of the chunk `chunk` (`None`: the end of the stream)
/// with the stream's decoder and enqueues the text, if any.
fn decode_and_enqueue_bytes(
    vm: &mut Vm,
    stream: Gc<JsObject>,
    controller: Gc<JsObject>,
    chunk: Option<(Gc<JsObject>, usize, usize)>,
) -> JsResult<()> {
    // The decoder leaves the object while it reads the buffer's bytes
    // (both live in the heap), and goes back after.
    let Some(mut state) = with_state(vm, stream, |s| {
        let taken = TextDecoderState::new(s.decoder.encoding(), s.decoder.fatal(), s.decoder.ignore_bom());
        std::mem::replace(&mut s.decoder, taken)
    }) else {
        return Err(vm.type_error("Value of \"this\" must be of type TextDecoderStream"));
    };
    let bytes: &[u8] = chunk
        .and_then(|(buffer, offset, len)| buffer_data(vm, buffer)?.bytes()?.get(offset..offset + len))
        .unwrap_or(&[]);
    let result = state.decode_chunk(bytes, chunk.is_none());
    let name = state.encoding_name();
    with_state(vm, stream, |s| s.decoder = state);
    let units = match result {
        Ok(units) => units,
        Err(DecodeError::Malformed) => {
            return Err(vm.type_error(&format!("The encoded data was not valid for encoding {name}")));
        }
        Err(DecodeError::TooLong) => return Err(vm.range_error("Invalid string length")),
    };
    if units.is_empty() {
        return Ok(());
    }
    let text = Value::string(vm.heap.alloc(JsString::from_utf16(&units)));
    transform_controller_enqueue(&mut vm.host(), controller, text).map_err(|e| thrown(vm, e))?;
    vm.take_termination()
}

/// The transform algorithm, "decode and enqueue a chunk": `this` is the
/// decoder stream, the arguments the chunk (an `AllowSharedBufferSource`,
/// else a `TypeError`) and the controller.
fn decode_and_enqueue(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let stream = this_stream(vm, info.this)?;
    let controller = controller_argument(vm, info, 1)?;
    let chunk = info.arg(vm, 0);
    let Some(source) = buffer_source(vm, chunk) else {
        return Err(vm.type_error(
            "The \"chunk\" argument must be an instance of ArrayBuffer, SharedArrayBuffer, or ArrayBufferView.",
        ));
    };
    decode_and_enqueue_bytes(vm, stream, controller, Some(source))?;
    Ok(Value::UNDEFINED)
}

/// The flush algorithm, "flush and enqueue": ends the decoder's input.
fn flush_and_enqueue(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let stream = this_stream(vm, info.this)?;
    let controller = controller_argument(vm, info, 0)?;
    decode_and_enqueue_bytes(vm, stream, controller, None)?;
    Ok(Value::UNDEFINED)
}

/// The shared transform and flush functions, made on first use.
fn algorithms(vm: &mut Vm) -> (Value, Value) {
    if let Some((transform, flush)) = vm.runtime.host_objects.text_decoder_stream_algorithms {
        return (Value::object(transform), Value::object(flush));
    }
    let transform = native_function(vm, "transform", 2, decode_and_enqueue, false);
    let flush = native_function(vm, "flush", 1, flush_and_enqueue, false);
    vm.runtime.host_objects.text_decoder_stream_algorithms = Some((transform, flush));
    (Value::object(transform), Value::object(flush))
}

/// `new TextDecoderStream(label = "utf-8", options = {})`.
fn text_decoder_stream_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor TextDecoderStream cannot be invoked without 'new'"));
    };
    let decoder = decoder_from_arguments(vm, info)?;
    let fallback = vm.runtime.host_objects.text_decoder_stream_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    let state = TextDecoderStreamState { transform: None, decoder };
    let stream = vm.new_object_with_data(Some(proto), &TEXT_DECODER_STREAM, state);
    vm.keep_alive(Value::object(stream));
    let (transform, flush) = algorithms(vm);
    let transform_stream = create_native_transform_stream(vm, stream, transform, flush)?;
    with_state(vm, stream, |s| s.transform = Some(transform_stream));
    Ok(Value::object(stream))
}

/// The transform stream of the decoder stream `this` names.
fn this_transform(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    let stream = this_stream(vm, info.this)?;
    with_state(vm, stream, |s| s.transform)
        .flatten()
        .ok_or_else(|| vm.type_error("Value of \"this\" must be of type TextDecoderStream"))
}

/// `get encoding`: the encoding's name in lowercase.
fn encoding_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let stream = this_stream(vm, info.this)?;
    let name = with_state(vm, stream, |s| s.decoder.encoding_name()).unwrap_or_default();
    Ok(vm.string(&name))
}

/// `get fatal`.
fn fatal_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let stream = this_stream(vm, info.this)?;
    Ok(Value::boolean(with_state(vm, stream, |s| s.decoder.fatal()).unwrap_or_default()))
}

/// `get ignoreBOM`.
fn ignore_bom_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let stream = this_stream(vm, info.this)?;
    Ok(Value::boolean(with_state(vm, stream, |s| s.decoder.ignore_bom()).unwrap_or_default()))
}

/// `get readable`.
fn readable_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let transform = this_transform(vm, info)?;
    Ok(Value::object(transform_stream_readable(&mut vm.host(), transform)))
}

/// `get writable`.
fn writable_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let transform = this_transform(vm, info)?;
    Ok(Value::object(transform_stream_writable(&mut vm.host(), transform)))
}

/// Installs the `TextDecoderStream` global.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.text_decoder_stream_prototype = Some(proto);
    constructor(vm, "TextDecoderStream", 0, text_decoder_stream_ctor, proto);
    webidl_attribute(vm, proto, "encoding", encoding_getter, None);
    webidl_attribute(vm, proto, "fatal", fatal_getter, None);
    webidl_attribute(vm, proto, "ignoreBOM", ignore_bom_getter, None);
    webidl_attribute(vm, proto, "readable", readable_getter, None);
    webidl_attribute(vm, proto, "writable", writable_getter, None);
    webidl_to_string_tag(vm, proto, "TextDecoderStream");
}
