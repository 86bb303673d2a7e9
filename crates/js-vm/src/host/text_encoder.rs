//! `TextEncoder` (WHATWG Encoding §8.2): `encode(input)` and
//! `encodeInto(source, destination)`, UTF-8 only.
//!
//! The string is transcoded straight from the engine's representation with
//! `encoding_rs`'s converters: a Latin-1 string byte for byte, a UTF-16
//! string from its code units, and a rope leaf by leaf in place (it is never
//! flattened or copied first). A surrogate pair split between two leaves is
//! joined; lone surrogates become U+FFFD, as converting to a USVString does.

use encoding_rs::mem::{convert_latin1_to_utf8_partial, convert_utf16_to_utf8_partial};
use js_gc::{Gc, Trace, Tracer};

use crate::abstract_ops::to_string;
use crate::builtins::array_buffer::with_bytes_and_heap;
use crate::builtins::constructor;
use crate::builtins::typed_array::{ElementType, new_uint8_array_from_bytes, typed_array_data, typed_array_length};
use crate::host::{webidl_attribute, webidl_operation, webidl_to_string_tag};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::create_data_property;
use crate::object::{DataClass, JsObject};
use crate::string::{JsStr, JsString};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A `TextEncoder`: it has no state (it always encodes UTF-8), so its
/// cell is empty; the class alone marks the kind.
static TEXT_ENCODER: DataClass = DataClass::plain::<TextEncoderSlots>("TextEncoder");

/// A `TextEncoder`'s (empty) slots.
struct TextEncoderSlots;

// SAFETY: no heap pointers.
unsafe impl Trace for TextEncoderSlots {
    const NEEDS_TRACE: bool = false;

    fn trace(&self, _: &mut Tracer) {}

    fn type_name() -> &'static str {
        "TextEncoder"
    }
}

/// U+FFFD in UTF-8.
const REPLACEMENT: [u8; 3] = [0xEF, 0xBF, 0xBD];

fn is_high_surrogate(u: u16) -> bool {
    (0xD800..0xDC00).contains(&u)
}

fn is_low_surrogate(u: u16) -> bool {
    (0xDC00..0xE000).contains(&u)
}

/// UTF-8 output of a string fed to it piece by piece, into a destination
/// that may be too small (`encodeInto`): it stops before the first code
/// point that does not fit and counts the UTF-16 code units it consumed.
#[derive(Debug, Default)]
pub struct Utf8Writer {
    /// A high surrogate that ended the previous piece: it pairs with a low
    /// surrogate starting the next one, or becomes U+FFFD.
    pending_high: Option<u16>,
    /// Code units consumed.
    pub read: usize,
    /// Bytes written.
    pub written: usize,
    /// The destination filled up.
    full: bool,
}

impl Utf8Writer {
    /// A writer that goes on from the previous string's trailing high
    /// surrogate (a stream of strings, as `TextEncoderStream` encodes).
    pub fn resuming(pending_high: Option<u16>) -> Self {
        Self { pending_high, ..Self::default() }
    }

    /// The high surrogate the last piece ended with, waiting for its pair.
    pub const fn pending_high(&self) -> Option<u16> {
        self.pending_high
    }

    /// Writes `bytes` for `units` code units if they fit.
    fn put(&mut self, dst: &mut [u8], bytes: &[u8], units: usize) -> bool {
        let Some(slot) = dst.get_mut(self.written..self.written + bytes.len()) else {
            self.full = true;
            return false;
        };
        slot.copy_from_slice(bytes);
        self.written += bytes.len();
        self.read += units;
        true
    }

    /// Emits a pending high surrogate as U+FFFD (nothing paired it).
    fn flush_pending(&mut self, dst: &mut [u8]) -> bool {
        match self.pending_high.take() {
            Some(_) => self.put(dst, &REPLACEMENT, 1),
            None => true,
        }
    }

    /// Encodes the next piece of the string; `false` once `dst` is full.
    pub fn piece(&mut self, piece: JsStr<'_>, dst: &mut [u8]) -> bool {
        if self.full {
            return false;
        }
        match piece {
            // An empty piece leaves a pending high surrogate pending.
            JsStr::Latin1([]) | JsStr::Utf16([]) => {}
            JsStr::Latin1(bytes) => {
                if !self.flush_pending(dst) {
                    return false;
                }
                let (read, written) = convert_latin1_to_utf8_partial(bytes, &mut dst[self.written..]);
                self.read += read;
                self.written += written;
                self.full = read < bytes.len();
            }
            JsStr::Utf16(mut units) => {
                if let Some(high) = self.pending_high {
                    if let Some(&low) = units.first().filter(|&&u| is_low_surrogate(u)) {
                        let c = char::decode_utf16([high, low]).next().and_then(Result::ok).unwrap_or('\u{FFFD}');
                        let mut buf = [0; 4];
                        if !self.put(dst, c.encode_utf8(&mut buf).as_bytes(), 2) {
                            return false;
                        }
                        self.pending_high = None;
                        units = &units[1..];
                    } else if !self.flush_pending(dst) {
                        return false;
                    }
                }
                // A high surrogate at the end may pair with the next piece.
                if let Some((&last, body)) = units.split_last()
                    && is_high_surrogate(last)
                {
                    units = body;
                    self.pending_high = Some(last);
                }
                let (read, written) = convert_utf16_to_utf8_partial(units, &mut dst[self.written..]);
                self.read += read;
                self.written += written;
                if read < units.len() {
                    self.pending_high = None;
                    self.full = true;
                }
            }
        }
        !self.full
    }

    /// Ends the string: a high surrogate left over becomes U+FFFD.
    pub fn finish(&mut self, dst: &mut [u8]) {
        if !self.full {
            self.flush_pending(dst);
        }
    }
}

/// The most UTF-8 bytes `s` can need: two per Latin-1 unit above 0x7F,
/// three per UTF-16 unit.
pub(crate) fn utf8_capacity(vm: &Vm, s: Gc<JsString>) -> usize {
    let mut total = 0usize;
    JsString::for_each_piece(&vm.heap, s, |piece| {
        total += match piece {
            JsStr::Latin1(bytes) => bytes.len() + bytes.iter().filter(|&&b| b >= 0x80).count(),
            JsStr::Utf16(units) => units.len() * 3,
        };
        true
    });
    total
}

/// The UTF-8 encoding of `s`, lone surrogates as U+FFFD.
pub fn utf8_encode(vm: &Vm, s: Gc<JsString>) -> Vec<u8> {
    let mut out = vec![0; utf8_capacity(vm, s)];
    let mut writer = Utf8Writer::default();
    JsString::for_each_piece(&vm.heap, s, |piece| writer.piece(piece, &mut out));
    writer.finish(&mut out);
    out.truncate(writer.written);
    out.shrink_to_fit();
    out
}

/// Checks that `this` is a TextEncoder.
fn this_encoder(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    match info.this.as_object() {
        Some(o) if o.borrow(&vm.heap).is_data(&TEXT_ENCODER) => Ok(o),
        _ => Err(vm.type_error("Value of \"this\" must be of type TextEncoder")),
    }
}

/// `new TextEncoder()`.
fn text_encoder_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor TextEncoder cannot be invoked without 'new'"));
    };
    let fallback = vm.runtime.host_objects.text_encoder_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    Ok(Value::object(vm.new_object_with_data(Some(proto), &TEXT_ENCODER, TextEncoderSlots)))
}

/// `get TextEncoder.prototype.encoding`: always `"utf-8"`.
fn encoding_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_encoder(vm, info)?;
    Ok(vm.string("utf-8"))
}

/// `TextEncoder.prototype.encode(input = "")`: a new Uint8Array.
fn encode(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_encoder(vm, info)?;
    let input = info.arg(vm, 0);
    let bytes = if input.is_undefined() {
        Vec::new()
    } else {
        let s = to_string(vm, input)?;
        utf8_encode(vm, s)
    };
    Ok(Value::object(new_uint8_array_from_bytes(vm, bytes)?))
}

/// `TextEncoder.prototype.encodeInto(source, destination)`: writes as many
/// whole code points as fit and returns `{ read, written }`.
fn encode_into(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_encoder(vm, info)?;
    let source = info.arg(vm, 0);
    let source = to_string(vm, source)?;
    vm.keep_alive(Value::string(source));
    let destination = info.arg(vm, 1);
    let view = destination
        .as_object()
        .and_then(|o| typed_array_data(vm, o))
        .filter(|ta| ta.element == ElementType::Uint8)
        .ok_or_else(|| vm.type_error("The \"dest\" argument must be an instance of Uint8Array."))?;
    let (mut read, mut written) = (0, 0);
    if let Some(len) = typed_array_length(vm, &view) {
        let start = view.byte_offset;
        let counts = with_bytes_and_heap(vm, view.buffer, |heap, bytes| {
            let dst = &mut bytes[start..start + len];
            let mut writer = Utf8Writer::default();
            JsString::for_each_piece(heap, source, |piece| writer.piece(piece, dst));
            writer.finish(dst);
            (writer.read, writer.written)
        });
        (read, written) = counts.unwrap_or_default();
    }
    let result = vm.new_plain_object();
    let read_key = vm.key("read");
    create_data_property(vm, result, read_key, Value::number(read as f64))?;
    let written_key = vm.key("written");
    create_data_property(vm, result, written_key, Value::number(written as f64))?;
    Ok(Value::object(result))
}

/// Installs the `TextEncoder` global.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.text_encoder_prototype = Some(proto);
    constructor(vm, "TextEncoder", 0, text_encoder_ctor, proto);
    webidl_attribute(vm, proto, "encoding", encoding_getter, None);
    webidl_operation(vm, proto, "encode", 0, encode);
    webidl_operation(vm, proto, "encodeInto", 2, encode_into);
    webidl_to_string_tag(vm, proto, "TextEncoder");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `pieces` into a destination of `room` bytes.
    fn write(pieces: &[JsStr<'_>], room: usize) -> (Vec<u8>, usize) {
        let mut dst = vec![0; room];
        let mut writer = Utf8Writer::default();
        for &p in pieces {
            if !writer.piece(p, &mut dst) {
                break;
            }
        }
        writer.finish(&mut dst);
        dst.truncate(writer.written);
        (dst, writer.read)
    }

    #[test]
    fn latin1_and_utf16_pieces() {
        let (out, read) = write(&[JsStr::Latin1(b"caf\xe9"), JsStr::Utf16(&[0x2192])], 16);
        assert_eq!(out, "café→".as_bytes());
        assert_eq!(read, 5);
    }

    #[test]
    fn a_pair_split_between_pieces_is_joined() {
        let (out, read) = write(&[JsStr::Utf16(&[0x61, 0xD83D]), JsStr::Utf16(&[0xDE00, 0x62])], 16);
        assert_eq!(out, "a😀b".as_bytes());
        assert_eq!(read, 4);
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let (out, read) = write(&[JsStr::Utf16(&[0xD83D]), JsStr::Latin1(b"x"), JsStr::Utf16(&[0xDE00, 0xD800])], 32);
        assert_eq!(out, "\u{FFFD}x\u{FFFD}\u{FFFD}".as_bytes());
        assert_eq!(read, 4);
    }

    #[test]
    fn a_writer_resumes_with_the_previous_strings_high_surrogate() {
        let mut dst = vec![0; 16];
        let mut first = Utf8Writer::default();
        first.piece(JsStr::Utf16(&[0x61, 0xD83D]), &mut dst);
        assert_eq!(first.pending_high(), Some(0xD83D));
        // Empty pieces keep it waiting.
        let mut empty = Utf8Writer::resuming(first.pending_high());
        empty.piece(JsStr::Latin1(b""), &mut dst);
        empty.piece(JsStr::Utf16(&[]), &mut dst);
        assert_eq!((empty.pending_high(), empty.written), (Some(0xD83D), 0));
        let mut second = Utf8Writer::resuming(empty.pending_high());
        second.piece(JsStr::Utf16(&[0xDE00]), &mut dst);
        assert_eq!(&dst[..second.written], "😀".as_bytes());
        assert_eq!(second.pending_high(), None);
    }

    #[test]
    fn stops_before_a_code_point_that_does_not_fit() {
        let (out, read) = write(&[JsStr::Latin1(b"ab"), JsStr::Utf16(&[0xD83D]), JsStr::Utf16(&[0xDE00])], 5);
        assert_eq!(out, b"ab");
        assert_eq!(read, 2);
        let (out, read) = write(&[JsStr::Latin1(b"a\xe9\xe9")], 4);
        assert_eq!(out, "aé".as_bytes());
        assert_eq!(read, 2);
    }
}
