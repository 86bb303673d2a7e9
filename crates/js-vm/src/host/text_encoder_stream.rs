//! `TextEncoderStream` (WHATWG Encoding §8.4): a transform stream from
//! strings to UTF-8 `Uint8Array`s, with `encoding`, `readable` and
//! `writable`.
//!
//! The stream's `[[transform]]` is a `TransformStream` made by js-streams
//! whose transformer is the `TextEncoderStream` object itself and whose
//! `transform` and `flush` are two native functions shared by every
//! encoder stream of the VM (never exposed to script), so a stream costs
//! no closures and a chunk nothing beyond its output array. A high
//! surrogate that ends a chunk waits for the next one ("encode and enqueue
//! a chunk" keeps it as the leading surrogate); a lone one left at the end
//! becomes U+FFFD.

use js_gc::{Gc, Trace, Tracer};
use js_streams::transform_stream::{
    transform_controller_enqueue, transform_stream_readable, transform_stream_writable,
};

use crate::abstract_ops::to_string;
use crate::builtins::typed_array::new_uint8_array_from_bytes;
use crate::builtins::{constructor, native_function};
use crate::host::streams::{VmStreamSlots, branded, create_native_transform_stream, thrown};
use crate::host::text_encoder::{Utf8Writer, utf8_capacity};
use crate::host::{webidl_attribute, webidl_to_string_tag};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::{DataClass, JsObject};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A `TextEncoderStream`: its slots are a [`TextEncoderStreamState`] cell.
static TEXT_ENCODER_STREAM: DataClass = DataClass::plain::<TextEncoderStreamState>("TextEncoderStream");

// SAFETY: the transform stream is the one edge.
unsafe impl Trace for TextEncoderStreamState {
    fn trace(&self, tracer: &mut Tracer) {
        self.transform.trace(tracer);
    }

    fn type_name() -> &'static str {
        "TextEncoderStreamState"
    }
}

/// U+FFFD in UTF-8: what a leading surrogate left at the end becomes.
const REPLACEMENT: [u8; 3] = [0xEF, 0xBF, 0xBD];

/// The internal slots of a `TextEncoderStream`.
pub struct TextEncoderStreamState {
    /// `[[transform]]` (set once the constructor made it).
    transform: Option<Gc<JsObject>>,
    /// `[[leading surrogate]]`.
    leading_surrogate: Option<u16>,
}

fn with_state<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut TextEncoderStreamState) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<TextEncoderStreamState>(&TEXT_ENCODER_STREAM)?;
    Some(f(cell.borrow_mut(&mut vm.heap)))
}

/// The `TextEncoderStream` `value` is, or a `TypeError`.
fn this_stream(vm: &mut Vm, value: Value) -> JsResult<Gc<JsObject>> {
    match value.as_object() {
        Some(o) if o.borrow(&vm.heap).is_data(&TEXT_ENCODER_STREAM) => Ok(o),
        _ => Err(vm.type_error("Value of \"this\" must be of type TextEncoderStream")),
    }
}

/// The transform stream controller a transform algorithm was called with.
fn controller_argument(vm: &mut Vm, info: &CallInfo, index: usize) -> JsResult<Gc<JsObject>> {
    let value = info.arg(vm, index);
    branded(vm, value, |s| matches!(s, VmStreamSlots::TransformStreamDefaultController(_)))
        .ok_or_else(|| vm.type_error("Illegal invocation"))
}

/// Enqueues `bytes` as a new `Uint8Array` on the transform's readable side.
fn enqueue_bytes(vm: &mut Vm, controller: Gc<JsObject>, bytes: Vec<u8>) -> JsResult<()> {
    let chunk = new_uint8_array_from_bytes(vm, bytes)?;
    transform_controller_enqueue(&mut vm.host(), controller, Value::object(chunk)).map_err(|e| thrown(vm, e))?;
    vm.take_termination()
}

/// The transform algorithm, "encode and enqueue a chunk": `this` is the
/// encoder stream, the arguments the chunk and the controller.
fn encode_and_enqueue(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let stream = this_stream(vm, info.this)?;
    let controller = controller_argument(vm, info, 1)?;
    let chunk = info.arg(vm, 0);
    let input = to_string(vm, chunk)?;
    vm.keep_alive(Value::string(input));
    let leading = with_state(vm, stream, |s| s.leading_surrogate).flatten();
    // A leading surrogate carried over adds at most three bytes.
    let mut output = vec![0; utf8_capacity(vm, input) + REPLACEMENT.len()];
    let mut writer = Utf8Writer::resuming(leading);
    JsString::for_each_piece(&vm.heap, input, |piece| writer.piece(piece, &mut output));
    with_state(vm, stream, |s| s.leading_surrogate = writer.pending_high());
    output.truncate(writer.written);
    if !output.is_empty() {
        enqueue_bytes(vm, controller, output)?;
    }
    Ok(Value::UNDEFINED)
}

/// The flush algorithm, "encode and flush": a leading surrogate nothing
/// paired becomes U+FFFD.
fn encode_and_flush(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let stream = this_stream(vm, info.this)?;
    let controller = controller_argument(vm, info, 0)?;
    if with_state(vm, stream, |s| s.leading_surrogate.take()).flatten().is_some() {
        enqueue_bytes(vm, controller, REPLACEMENT.to_vec())?;
    }
    Ok(Value::UNDEFINED)
}

/// The shared transform and flush functions, made on first use.
fn algorithms(vm: &mut Vm) -> (Value, Value) {
    let made = &vm.runtime.host_objects.text_encoder_stream_algorithms;
    if let Some((transform, flush)) = *made {
        return (Value::object(transform), Value::object(flush));
    }
    let transform = native_function(vm, "transform", 2, encode_and_enqueue, false);
    let flush = native_function(vm, "flush", 1, encode_and_flush, false);
    vm.runtime.host_objects.text_encoder_stream_algorithms = Some((transform, flush));
    (Value::object(transform), Value::object(flush))
}

/// `new TextEncoderStream()`.
fn text_encoder_stream_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor TextEncoderStream cannot be invoked without 'new'"));
    };
    let fallback = vm.runtime.host_objects.text_encoder_stream_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    let state = TextEncoderStreamState { transform: None, leading_surrogate: None };
    let stream = vm.new_object_with_data(Some(proto), &TEXT_ENCODER_STREAM, state);
    vm.keep_alive(Value::object(stream));
    let (transform, flush) = algorithms(vm);
    let transform_stream = create_native_transform_stream(vm, stream, transform, flush)?;
    with_state(vm, stream, |s| s.transform = Some(transform_stream));
    Ok(Value::object(stream))
}

/// The transform stream of the encoder stream `this` names.
fn this_transform(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    let stream = this_stream(vm, info.this)?;
    with_state(vm, stream, |s| s.transform)
        .flatten()
        .ok_or_else(|| vm.type_error("Value of \"this\" must be of type TextEncoderStream"))
}

/// `get encoding`: always `"utf-8"`.
fn encoding_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_stream(vm, info.this)?;
    Ok(vm.string("utf-8"))
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

/// Installs the `TextEncoderStream` global.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.text_encoder_stream_prototype = Some(proto);
    constructor(vm, "TextEncoderStream", 0, text_encoder_stream_ctor, proto);
    webidl_attribute(vm, proto, "encoding", encoding_getter, None);
    webidl_attribute(vm, proto, "readable", readable_getter, None);
    webidl_attribute(vm, proto, "writable", writable_getter, None);
    webidl_to_string_tag(vm, proto, "TextEncoderStream");
}
