//! `TextDecoder` (WHATWG Encoding §8.1) on `encoding_rs`: every WHATWG
//! encoding and label, `fatal` (a `TypeError` on malformed input),
//! `ignoreBOM`, and `decode(input, { stream: true })`, which keeps the
//! decoder (and the partial sequence it holds) for the next call.
//!
//! Bytes are decoded straight out of the buffer (no copy: nothing can run
//! JavaScript while they are read) into UTF-16, which becomes a Latin-1
//! string when every unit fits.

use encoding_rs::{CoderResult, Decoder, DecoderResult, Encoding, REPLACEMENT};
use js_gc::{Gc, Trace, Tracer};

use crate::abstract_ops::to_boolean;
use crate::builtins::array_buffer::{BufferData, buffer_data};
use crate::builtins::constructor;
use crate::builtins::typed_array::{typed_array_data, typed_array_length};
use crate::host::{webidl_attribute, webidl_operation, webidl_to_string_tag};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::get;
use crate::object::{DataClass, JsObject};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A `TextDecoder`: its slots are a [`TextDecoderState`] cell.
static TEXT_DECODER: DataClass = DataClass::plain::<TextDecoderState>("TextDecoder");

// SAFETY: a decoder holds no heap pointers.
unsafe impl Trace for TextDecoderState {
    const NEEDS_TRACE: bool = false;

    fn trace(&self, _: &mut Tracer) {}

    fn type_name() -> &'static str {
        "TextDecoderState"
    }
}

/// The internal slots of a TextDecoder.
pub struct TextDecoderState {
    /// `[[encoding]]`.
    encoding: &'static Encoding,
    /// `[[error mode]]` is "fatal".
    fatal: bool,
    /// `[[ignore BOM]]`.
    ignore_bom: bool,
    /// `[[decoder]]` with its `[[I/O queue]]` of undecoded bytes; `None`
    /// until the next `decode` makes a fresh one.
    decoder: Option<Decoder>,
    /// `[[do not flush]]`: the last call streamed, so the next one goes on
    /// with the same decoder.
    do_not_flush: bool,
}

impl TextDecoderState {
    /// A decoder in the state the constructor leaves it.
    pub fn new(encoding: &'static Encoding, fatal: bool, ignore_bom: bool) -> Self {
        Self { encoding, fatal, ignore_bom, decoder: None, do_not_flush: false }
    }

    /// A new decoder for the encoding: it drops a leading BOM of the
    /// encoding unless BOMs are ignored, and never switches encoding on a
    /// BOM (TextDecoder does no sniffing).
    fn fresh_decoder(&self) -> Decoder {
        if self.ignore_bom {
            self.encoding.new_decoder_without_bom_handling()
        } else {
            self.encoding.new_decoder_with_bom_removal()
        }
    }

    /// The encoding's name in lowercase (`"utf-8"`, `"windows-1252"`).
    pub fn encoding_name(&self) -> String {
        self.encoding.name().to_ascii_lowercase()
    }

    /// `[[encoding]]`.
    pub const fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// `[[error mode]]` is "fatal".
    pub const fn fatal(&self) -> bool {
        self.fatal
    }

    /// `[[ignore BOM]]`.
    pub const fn ignore_bom(&self) -> bool {
        self.ignore_bom
    }

    /// Decodes the next chunk of a stream of chunks (`TextDecoderStream`:
    /// `last` once the stream ended), going on with the decoder the
    /// previous chunk left, which keeps a sequence split between chunks.
    ///
    /// # Errors
    /// Malformed input in fatal mode, or an output too long.
    pub fn decode_chunk(&mut self, bytes: &[u8], last: bool) -> Result<Vec<u16>, DecodeError> {
        let mut decoder = self.decoder.take().unwrap_or_else(|| self.fresh_decoder());
        let result = decode_step(self, &mut decoder, bytes, last);
        if !last {
            self.decoder = Some(decoder);
        }
        result
    }
}

/// Why decoding stopped short.
#[derive(Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Malformed input in fatal mode.
    Malformed,
    /// The output would not fit in memory.
    TooLong,
}

/// One `decode` call's decoding step over `bytes`: `last` is false while
/// streaming. Returns UTF-16 code units.
pub fn decode_step(
    state: &TextDecoderState,
    decoder: &mut Decoder,
    bytes: &[u8],
    last: bool,
) -> Result<Vec<u16>, DecodeError> {
    let capacity = decoder.max_utf16_buffer_length(bytes.len()).ok_or(DecodeError::TooLong)?;
    let mut out = vec![0u16; capacity];
    let written = if state.fatal {
        let (result, _, written) = decoder.decode_to_utf16_without_replacement(bytes, &mut out, last);
        match result {
            DecoderResult::InputEmpty => written,
            DecoderResult::Malformed(..) => return Err(DecodeError::Malformed),
            DecoderResult::OutputFull => return Err(DecodeError::TooLong),
        }
    } else {
        let (result, _, written, _) = decoder.decode_to_utf16(bytes, &mut out, last);
        match result {
            CoderResult::InputEmpty => written,
            CoderResult::OutputFull => return Err(DecodeError::TooLong),
        }
    };
    out.truncate(written);
    Ok(out)
}

/// The bytes an `AllowSharedBufferSource` views: its buffer, offset and
/// length (empty when detached or out of bounds); `None` if `v` is not one.
pub(crate) fn buffer_source(vm: &Vm, v: Value) -> Option<(Gc<JsObject>, usize, usize)> {
    let o = v.as_object()?;
    if let Some(data) = buffer_data(vm, o) {
        return Some((o, 0, data.byte_length()));
    }
    if let Some(ta) = typed_array_data(vm, o) {
        let len = typed_array_length(vm, &ta).map_or(0, |n| n * ta.element.size());
        return Some((ta.buffer, ta.byte_offset, len));
    }
    if let Some(view) = crate::builtins::data_view::view_data(vm, o) {
        let buffer_len = buffer_data(vm, view.buffer).map_or(0, BufferData::byte_length);
        let len = match view.byte_length {
            Some(n) if view.byte_offset + n <= buffer_len => n,
            Some(_) => 0,
            None => buffer_len.saturating_sub(view.byte_offset),
        };
        return Some((view.buffer, view.byte_offset, len));
    }
    None
}

/// Checks that `this` is a TextDecoder.
fn this_decoder(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    match info.this.as_object() {
        Some(o) if o.borrow(&vm.heap).is_data(&TEXT_DECODER) => Ok(o),
        _ => Err(vm.type_error("Value of \"this\" must be of type TextDecoder")),
    }
}

fn with_state<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut TextDecoderState) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<TextDecoderState>(&TEXT_DECODER)?;
    Some(f(cell.borrow_mut(&mut vm.heap)))
}

/// Reads the boolean member `name` of a dictionary argument (WebIDL:
/// `undefined`/`null` is the empty dictionary, other non-objects are a
/// `TypeError`).
fn dictionary_flag(vm: &mut Vm, dictionary: Value, name: &str) -> JsResult<bool> {
    if dictionary.is_undefined() || dictionary.is_null() {
        return Ok(false);
    }
    let Some(o) = dictionary.as_object() else {
        return Err(vm.type_error("The \"options\" argument must be of type object."));
    };
    let key = vm.key(name);
    let value = get(vm, o, key, dictionary)?;
    Ok(to_boolean(vm, value))
}

/// The state the constructor arguments `(label = "utf-8", options = {})`
/// of `TextDecoder` and `TextDecoderStream` give: the label converted
/// first, then the options' members in order (fatal, ignoreBOM), then the
/// encoding looked up.
pub(crate) fn decoder_from_arguments(vm: &mut Vm, info: &CallInfo) -> JsResult<TextDecoderState> {
    let label = info.arg(vm, 0);
    let label = if label.is_undefined() { "utf-8".to_owned() } else { vm.rust_string(label)? };
    let options = info.arg(vm, 1);
    let fatal = dictionary_flag(vm, options, "fatal")?;
    let ignore_bom = dictionary_flag(vm, options, "ignoreBOM")?;
    // "Get an encoding" (trims ASCII whitespace, ignores case); the
    // replacement encoding is never decoded with.
    let encoding = Encoding::for_label(label.as_bytes()).filter(|&e| e != REPLACEMENT);
    let Some(encoding) = encoding else {
        return Err(vm.range_error(&format!("The \"{label}\" encoding is not supported")));
    };
    Ok(TextDecoderState::new(encoding, fatal, ignore_bom))
}

/// `new TextDecoder(label = "utf-8", options = {})`.
fn text_decoder_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor TextDecoder cannot be invoked without 'new'"));
    };
    let state = decoder_from_arguments(vm, info)?;
    let fallback = vm.runtime.host_objects.text_decoder_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    Ok(Value::object(vm.new_object_with_data(Some(proto), &TEXT_DECODER, state)))
}

/// `get TextDecoder.prototype.encoding`.
fn encoding_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_decoder(vm, info)?;
    let name = with_state(vm, o, |s| s.encoding_name()).unwrap_or_default();
    Ok(vm.string(&name))
}

/// `get TextDecoder.prototype.fatal`.
fn fatal_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_decoder(vm, info)?;
    Ok(Value::boolean(with_state(vm, o, |s| s.fatal).unwrap_or_default()))
}

/// `get TextDecoder.prototype.ignoreBOM`.
fn ignore_bom_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_decoder(vm, info)?;
    Ok(Value::boolean(with_state(vm, o, |s| s.ignore_bom).unwrap_or_default()))
}

/// `TextDecoder.prototype.decode(input, options = {})`.
fn decode(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_decoder(vm, info)?;
    let input = info.arg(vm, 0);
    let source = if input.is_undefined() {
        None
    } else {
        let Some(source) = buffer_source(vm, input) else {
            return Err(vm.type_error(
                "The \"input\" argument must be an instance of ArrayBuffer, SharedArrayBuffer, or ArrayBufferView.",
            ));
        };
        Some(source)
    };
    let options = info.arg(vm, 1);
    let stream = dictionary_flag(vm, options, "stream")?;
    // The options getter may have detached or shrunk the buffer: its
    // bytes are read now.
    let source = source.and_then(|_| buffer_source(vm, input));
    let Some((mut decoder, snapshot)) = with_state(vm, o, |state| {
        let decoder = match (state.do_not_flush, state.decoder.take()) {
            (true, Some(decoder)) => decoder,
            _ => state.fresh_decoder(),
        };
        state.do_not_flush = stream;
        (decoder, TextDecoderState::new(state.encoding, state.fatal, state.ignore_bom))
    }) else {
        return Err(vm.type_error("Value of \"this\" must be of type TextDecoder"));
    };
    let bytes: &[u8] = source
        .and_then(|(buffer, offset, len)| buffer_data(vm, buffer)?.bytes()?.get(offset..offset + len))
        .unwrap_or(&[]);
    let result = decode_step(&snapshot, &mut decoder, bytes, !stream);
    if stream {
        with_state(vm, o, |state| state.decoder = Some(decoder));
    }
    match result {
        Ok(units) => Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&units)))),
        Err(DecodeError::Malformed) => {
            let name = snapshot.encoding_name();
            Err(vm.type_error(&format!("The encoded data was not valid for encoding {name}")))
        }
        Err(DecodeError::TooLong) => Err(vm.range_error("Invalid string length")),
    }
}

/// Installs the `TextDecoder` global.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.text_decoder_prototype = Some(proto);
    constructor(vm, "TextDecoder", 0, text_decoder_ctor, proto);
    webidl_attribute(vm, proto, "encoding", encoding_getter, None);
    webidl_attribute(vm, proto, "fatal", fatal_getter, None);
    webidl_attribute(vm, proto, "ignoreBOM", ignore_bom_getter, None);
    webidl_operation(vm, proto, "decode", 0, decode);
    webidl_to_string_tag(vm, proto, "TextDecoder");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(label: &str, fatal: bool, ignore_bom: bool, chunks: &[&[u8]]) -> Result<String, DecodeError> {
        let encoding = Encoding::for_label(label.as_bytes()).expect("known label");
        let state = TextDecoderState::new(encoding, fatal, ignore_bom);
        let mut decoder = state.fresh_decoder();
        let mut out = Vec::new();
        for (i, chunk) in chunks.iter().enumerate() {
            out.extend(decode_step(&state, &mut decoder, chunk, i + 1 == chunks.len())?);
        }
        Ok(String::from_utf16_lossy(&out))
    }

    #[test]
    fn streaming_keeps_partial_sequences() {
        let euro = "€".as_bytes();
        assert_eq!(decode_all("utf-8", false, false, &[&euro[..1], &euro[1..2], &euro[2..]]), Ok("€".to_owned()));
        assert_eq!(decode_all("utf-16le", false, false, &[&[0x41], &[0x00]]), Ok("A".to_owned()));
    }

    #[test]
    fn bom_is_removed_unless_ignored() {
        let bytes: &[u8] = &[0xEF, 0xBB, 0xBF, 0x61];
        assert_eq!(decode_all("utf-8", false, false, &[bytes]), Ok("a".to_owned()));
        assert_eq!(decode_all("utf-8", false, true, &[bytes]), Ok("\u{FEFF}a".to_owned()));
        // No sniffing: a UTF-16 BOM is just bytes to UTF-8.
        assert_eq!(decode_all("utf-8", false, false, &[&[0xFF, 0xFE]]), Ok("\u{FFFD}\u{FFFD}".to_owned()));
    }

    #[test]
    fn fatal_rejects_malformed_input_and_unfinished_sequences() {
        assert_eq!(decode_all("utf-8", true, false, &[&[0xC3, 0x28]]), Err(DecodeError::Malformed));
        assert_eq!(decode_all("utf-8", true, false, &[&[0xE2, 0x82]]), Err(DecodeError::Malformed));
        assert_eq!(decode_all("utf-8", false, false, &[&[0xE2, 0x82]]), Ok("\u{FFFD}".to_owned()));
    }

    #[test]
    fn decode_chunk_keeps_its_decoder_until_the_last_chunk() {
        let mut state = TextDecoderState::new(Encoding::for_label(b"utf-8").expect("label"), true, false);
        let euro = "€".as_bytes();
        assert_eq!(state.decode_chunk(&[0xEF, 0xBB], false), Ok(vec![]));
        assert_eq!(state.decode_chunk(&[0xBF, euro[0]], false), Ok(vec![]));
        assert_eq!(state.decode_chunk(&euro[1..], false), Ok(vec![0x20AC]));
        assert_eq!(state.decode_chunk(&[euro[0]], false), Ok(vec![]));
        assert_eq!(state.decode_chunk(&[], true), Err(DecodeError::Malformed));
    }

    #[test]
    fn labels_are_whatwg_names() {
        let state = TextDecoderState::new(Encoding::for_label(b" Latin1 ").expect("label"), false, false);
        assert_eq!(state.encoding_name(), "windows-1252");
    }
}
