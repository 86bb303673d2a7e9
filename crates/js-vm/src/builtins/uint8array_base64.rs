//! Uint8Array to and from base64 and hex (ES2026 §23.3.2–23.3.3):
//! `Uint8Array.fromBase64`, `Uint8Array.fromHex` and the prototype's
//! `toBase64`, `toHex`, `setFromBase64` and `setFromHex`.
//!
//! The decoders ([`from_base64`], [`from_hex`]) and encoders are pure
//! functions over code units and bytes; the builtins around them read the
//! options, check the receiver and move bytes in and out of the buffer.
//! Decoding runs no user code, so a buffer checked in bounds before it is
//! still in bounds when the bytes are written.

use js_gc::Gc;

use super::array_buffer::{buffer_data, is_immutable_buffer, with_buffer_mut};
use super::method;
use super::typed_array::{
    ElementType, TypedArrayData, new_uint8_array_from_bytes, typed_array_data, typed_array_length,
};
use crate::abstract_ops::to_boolean;
use crate::interpreter::CallInfo;
use crate::object::JsObject;
use crate::object::internal_methods::{create_data_property, get};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The standard base64 alphabet (RFC 4648 Table 1).
const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The URL- and filename-safe alphabet (RFC 4648 Table 2).
const BASE64URL_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The `alphabet` option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Alphabet {
    /// `"base64"`: `+` and `/`.
    Base64,
    /// `"base64url"`: `-` and `_`.
    Base64Url,
}

/// The `lastChunkHandling` option: what a final chunk of fewer than four
/// characters means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LastChunkHandling {
    /// `"loose"`: a partial chunk of two or three characters decodes, with
    /// or without padding, and its unused bits may be anything.
    Loose,
    /// `"strict"`: the last chunk must be padded and its unused bits zero.
    Strict,
    /// `"stop-before-partial"`: an unpadded partial chunk is left unread.
    StopBeforePartial,
}

/// The result record of `FromBase64` / `FromHex`: the code units consumed,
/// the bytes decoded before any error, and the error.
#[derive(Debug, PartialEq, Eq)]
pub struct Decoded {
    /// `[[Read]]`: code units consumed by the complete chunks decoded.
    pub read: usize,
    /// `[[Bytes]]`.
    pub bytes: Vec<u8>,
    /// `[[Error]]`: the `SyntaxError`'s message, if decoding failed.
    pub error: Option<&'static str>,
}

impl Decoded {
    /// This record with a `SyntaxError`; `read` and `bytes` stay as the
    /// last complete chunk left them.
    fn fail(mut self, message: &'static str) -> Self {
        self.error = Some(message);
        self
    }
}

/// `SkipAsciiWhitespace`: the index of the first code unit at or after
/// `index` that is not tab, line feed, form feed, carriage return or space.
fn skip_ascii_whitespace(units: &[u16], mut index: usize) -> usize {
    while units.get(index).is_some_and(|&c| matches!(c, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)) {
        index += 1;
    }
    index
}

/// The 6-bit value of a character of the standard alphabet.
fn sextet(c: u16) -> Option<u8> {
    let c = u8::try_from(c).ok()?;
    BASE64_ALPHABET.iter().position(|&a| a == c).map(|p| p as u8)
}

/// `DecodeBase64Chunk`: two to four sextets to one to three bytes
/// appended to `out`. With `throw_on_extra_bits`, the bits a short chunk
/// leaves over must be zero (`Err` otherwise, appending nothing).
fn decode_base64_chunk(chunk: &[u8], throw_on_extra_bits: bool, out: &mut Vec<u8>) -> Result<(), ()> {
    let mut bits = 0u32;
    for i in 0..4 {
        bits = (bits << 6) | u32::from(chunk.get(i).copied().unwrap_or(0));
    }
    let [_, b0, b1, b2] = bits.to_be_bytes();
    let (decoded, extra): (&[u8], u8) = match chunk.len() {
        2 => (&[b0], b1),
        3 => (&[b0, b1], b2),
        _ => (&[b0, b1, b2], 0),
    };
    if throw_on_extra_bits && extra != 0 {
        return Err(());
    }
    out.extend_from_slice(decoded);
    Ok(())
}

/// `FromBase64`: decodes `units` into at
/// most `max_length` bytes, stopping before a chunk that would not fit.
pub fn from_base64(units: &[u16], alphabet: Alphabet, last: LastChunkHandling, max_length: usize) -> Decoded {
    let mut out = Decoded { read: 0, bytes: Vec::new(), error: None };
    if max_length == 0 {
        return out;
    }
    let bad = "Invalid base64 string";
    let mut chunk = [0u8; 4];
    let mut chunk_length = 0;
    let mut index = 0;
    let length = units.len();
    loop {
        index = skip_ascii_whitespace(units, index);
        if index == length {
            if chunk_length > 0 {
                match last {
                    LastChunkHandling::StopBeforePartial => return out,
                    LastChunkHandling::Loose if chunk_length > 1 => {
                        // Without extra-bit checks a short chunk always decodes.
                        let _ = decode_base64_chunk(&chunk[..chunk_length], false, &mut out.bytes);
                    }
                    LastChunkHandling::Loose | LastChunkHandling::Strict => return out.fail(bad),
                }
            }
            out.read = length;
            return out;
        }
        let mut c = units[index];
        index += 1;
        if c == u16::from(b'=') {
            if chunk_length < 2 {
                return out.fail(bad);
            }
            index = skip_ascii_whitespace(units, index);
            if chunk_length == 2 {
                if index == length {
                    if last == LastChunkHandling::StopBeforePartial {
                        return out;
                    }
                    return out.fail(bad);
                }
                if units[index] == u16::from(b'=') {
                    index = skip_ascii_whitespace(units, index + 1);
                }
            }
            if index < length {
                return out.fail(bad);
            }
            let strict = last == LastChunkHandling::Strict;
            if decode_base64_chunk(&chunk[..chunk_length], strict, &mut out.bytes).is_err() {
                return out.fail(bad);
            }
            out.read = length;
            return out;
        }
        if alphabet == Alphabet::Base64Url {
            if c == u16::from(b'+') || c == u16::from(b'/') {
                return out.fail(bad);
            } else if c == u16::from(b'-') {
                c = u16::from(b'+');
            } else if c == u16::from(b'_') {
                c = u16::from(b'/');
            }
        }
        let Some(value) = sextet(c) else { return out.fail(bad) };
        let remaining = max_length - out.bytes.len();
        if (remaining == 1 && chunk_length == 2) || (remaining == 2 && chunk_length == 3) {
            return out;
        }
        chunk[chunk_length] = value;
        chunk_length += 1;
        if chunk_length == 4 {
            // A full chunk has no extra bits.
            let _ = decode_base64_chunk(&chunk, false, &mut out.bytes);
            chunk_length = 0;
            out.read = index;
            if out.bytes.len() == max_length {
                return out;
            }
        }
    }
}

/// The value of one hexadecimal digit (either case).
fn hex_digit(c: u16) -> Option<u8> {
    char::from_u32(u32::from(c)).and_then(|c| c.to_digit(16)).map(|d| d as u8)
}

/// `FromHex`: decodes pairs of hex digits into at most `max_length` bytes.
pub fn from_hex(units: &[u16], max_length: usize) -> Decoded {
    let mut out = Decoded { read: 0, bytes: Vec::new(), error: None };
    let length = units.len();
    if !length.is_multiple_of(2) {
        return out.fail("Hex string must have an even length");
    }
    while out.read < length && out.bytes.len() < max_length {
        let (Some(high), Some(low)) = (hex_digit(units[out.read]), hex_digit(units[out.read + 1])) else {
            return out.fail("Invalid hex string");
        };
        out.read += 2;
        out.bytes.push((high << 4) | low);
    }
    out
}

/// The base64 encoding of `bytes` in `alphabet`, padded with `=` to a
/// multiple of four characters unless `omit_padding`.
pub fn to_base64(bytes: &[u8], alphabet: Alphabet, omit_padding: bool) -> String {
    let table = match alphabet {
        Alphabet::Base64 => BASE64_ALPHABET,
        Alphabet::Base64Url => BASE64URL_ALPHABET,
    };
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let bits = (u32::from(group[0]) << 16)
            | (u32::from(group.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(group.get(2).copied().unwrap_or(0));
        let characters = group.len() + 1;
        for i in 0..4 {
            if i < characters {
                out.push(char::from(table[((bits >> (18 - 6 * i)) & 63) as usize]));
            } else if !omit_padding {
                out.push('=');
            }
        }
    }
    out
}

/// Lowercase hexadecimal, two digits a byte.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// `ValidateUint8Array`: the receiver's typed array slots, if it is a
/// `Uint8Array` (not any other typed array, `Uint8ClampedArray` included).
fn validate_uint8_array(vm: &mut Vm, v: Value, name: &str) -> JsResult<TypedArrayData> {
    match v.as_object().and_then(|o| typed_array_data(vm, o)) {
        Some(ta) if ta.element == ElementType::Uint8 => Ok(ta),
        _ => Err(vm.type_error(&format!("{name}: the receiver is not a Uint8Array"))),
    }
}

/// [`validate_uint8_array`] for the `setFrom*` methods, which write: a
/// `TypeError` too for a view of an immutable buffer.
fn validate_writable_uint8_array(vm: &mut Vm, v: Value, name: &str) -> JsResult<TypedArrayData> {
    let ta = validate_uint8_array(vm, v, name)?;
    if is_immutable_buffer(vm, ta.buffer) {
        return Err(vm.type_error(&format!("{name}: the Uint8Array's buffer is immutable")));
    }
    Ok(ta)
}

/// The array's length, or a `TypeError` when it is out of bounds or its
/// buffer detached (`IsTypedArrayOutOfBounds`).
fn in_bounds_length(vm: &mut Vm, ta: &TypedArrayData, name: &str) -> JsResult<usize> {
    typed_array_length(vm, ta)
        .ok_or_else(|| vm.type_error(&format!("{name}: the Uint8Array is out of bounds or its buffer detached")))
}

/// `GetUint8ArrayBytes`: a copy of the array's bytes.
fn uint8_array_bytes(vm: &mut Vm, ta: &TypedArrayData, name: &str) -> JsResult<Vec<u8>> {
    let len = in_bounds_length(vm, ta, name)?;
    let bytes = buffer_data(vm, ta.buffer)
        .and_then(|d| d.bytes())
        .and_then(|b| b.get(ta.byte_offset..ta.byte_offset + len))
        .map(<[u8]>::to_vec);
    Ok(bytes.unwrap_or_default())
}

/// `SetUint8ArrayBytes`: `bytes` over the start of the array, which the
/// caller checked is long enough.
fn set_uint8_array_bytes(vm: &mut Vm, ta: &TypedArrayData, bytes: &[u8]) {
    let start = ta.byte_offset;
    with_buffer_mut(vm, ta.buffer, |d| {
        if let Some(dest) = d.bytes_mut().and_then(|b| b.get_mut(start..start + bytes.len())) {
            dest.copy_from_slice(bytes);
        }
    });
}

/// `GetOptionsObject`: the options object, or `None` for `undefined`
/// (an empty object with a null prototype, whose properties are all
/// `undefined`, so none is made).
fn options_object(vm: &mut Vm, options: Value, name: &str) -> JsResult<Option<Gc<JsObject>>> {
    if options.is_undefined() {
        return Ok(None);
    }
    match options.as_object() {
        Some(o) => Ok(Some(o)),
        None => Err(vm.type_error(&format!("{name}: options must be an object"))),
    }
}

/// `Get(opts, name)`, `undefined` without an options object.
fn option(vm: &mut Vm, opts: Option<Gc<JsObject>>, name: &str) -> JsResult<Value> {
    let Some(o) = opts else { return Ok(Value::UNDEFINED) };
    let key = vm.key(name);
    get(vm, o, key, Value::object(o))
}

/// Whether `v` is the string `expected`.
fn is_string_value(vm: &Vm, v: Value, expected: &str) -> bool {
    v.as_string().is_some_and(|s| s.borrow(&vm.heap).as_flat().is_some_and(|f| f.eq_str(expected)))
}

/// A string option among `choices` (`undefined` picks the first); any
/// other value, a non-string included, is a `TypeError`.
fn choice<T: Copy>(vm: &mut Vm, v: Value, choices: &[(&str, T)], what: &str, name: &str) -> JsResult<T> {
    if v.is_undefined() {
        return Ok(choices[0].1);
    }
    // A rope is flattened so its text can be compared.
    if let Some(s) = v.as_string() {
        JsString::flatten(&mut vm.heap, s);
    }
    for &(text, value) in choices {
        if is_string_value(vm, v, text) {
            return Ok(value);
        }
    }
    let expected: Vec<String> = choices.iter().map(|(t, _)| format!("\"{t}\"")).collect();
    Err(vm.type_error(&format!("{name}: {what} must be one of {}", expected.join(", "))))
}

/// The `alphabet` option.
fn alphabet_option(vm: &mut Vm, opts: Option<Gc<JsObject>>, name: &str) -> JsResult<Alphabet> {
    let v = option(vm, opts, "alphabet")?;
    choice(vm, v, &[("base64", Alphabet::Base64), ("base64url", Alphabet::Base64Url)], "alphabet", name)
}

/// The `lastChunkHandling` option.
fn last_chunk_option(vm: &mut Vm, opts: Option<Gc<JsObject>>, name: &str) -> JsResult<LastChunkHandling> {
    let v = option(vm, opts, "lastChunkHandling")?;
    let choices = [
        ("loose", LastChunkHandling::Loose),
        ("strict", LastChunkHandling::Strict),
        ("stop-before-partial", LastChunkHandling::StopBeforePartial),
    ];
    choice(vm, v, &choices, "lastChunkHandling", name)
}

/// The code units of the argument, which must be a string (no
/// coercion: a `TypeError` otherwise).
fn string_argument(vm: &mut Vm, v: Value, name: &str) -> JsResult<Vec<u16>> {
    let Some(s) = v.as_string() else {
        return Err(vm.type_error(&format!("{name}: the argument must be a string")));
    };
    let s = JsString::flatten(&mut vm.heap, s);
    Ok(s.borrow(&vm.heap).flat().units().collect())
}

/// `Uint8Array.fromBase64 ( string [ , options ] )`.
fn from_base64_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Uint8Array.fromBase64";
    let units = string_argument(vm, info.arg(vm, 0), name)?;
    let opts = options_object(vm, info.arg(vm, 1), name)?;
    let alphabet = alphabet_option(vm, opts, name)?;
    let last = last_chunk_option(vm, opts, name)?;
    let result = from_base64(&units, alphabet, last, usize::MAX);
    if let Some(message) = result.error {
        return Err(vm.syntax_error(message));
    }
    new_uint8_array_from_bytes(vm, result.bytes).map(Value::object)
}

/// `Uint8Array.fromHex ( string )`.
fn from_hex_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let units = string_argument(vm, info.arg(vm, 0), "Uint8Array.fromHex")?;
    let result = from_hex(&units, usize::MAX);
    if let Some(message) = result.error {
        return Err(vm.syntax_error(message));
    }
    new_uint8_array_from_bytes(vm, result.bytes).map(Value::object)
}

/// The `{ read, written }` object the `setFrom*` methods return, after
/// writing the decoded bytes and throwing the decoder's error if any.
fn finish_set_from(vm: &mut Vm, ta: &TypedArrayData, result: &Decoded) -> JsResult<Value> {
    set_uint8_array_bytes(vm, ta, &result.bytes);
    if let Some(message) = result.error {
        return Err(vm.syntax_error(message));
    }
    let object = vm.new_plain_object();
    // Rooted while the keys are made.
    vm.keep_alive(Value::object(object));
    let read = vm.key("read");
    create_data_property(vm, object, read, Value::number(result.read as f64))?;
    let written = vm.key("written");
    create_data_property(vm, object, written, Value::number(result.bytes.len() as f64))?;
    Ok(Value::object(object))
}

/// `Uint8Array.prototype.setFromBase64 ( string [ , options ] )`.
fn set_from_base64(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Uint8Array.prototype.setFromBase64";
    let ta = validate_writable_uint8_array(vm, info.this, name)?;
    let units = string_argument(vm, info.arg(vm, 0), name)?;
    let opts = options_object(vm, info.arg(vm, 1), name)?;
    let alphabet = alphabet_option(vm, opts, name)?;
    let last = last_chunk_option(vm, opts, name)?;
    let byte_length = in_bounds_length(vm, &ta, name)?;
    let result = from_base64(&units, alphabet, last, byte_length);
    finish_set_from(vm, &ta, &result)
}

/// `Uint8Array.prototype.setFromHex ( string )`.
fn set_from_hex(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Uint8Array.prototype.setFromHex";
    let ta = validate_writable_uint8_array(vm, info.this, name)?;
    let units = string_argument(vm, info.arg(vm, 0), name)?;
    let byte_length = in_bounds_length(vm, &ta, name)?;
    let result = from_hex(&units, byte_length);
    finish_set_from(vm, &ta, &result)
}

/// `Uint8Array.prototype.toBase64 ( [ options ] )`.
fn to_base64_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Uint8Array.prototype.toBase64";
    let ta = validate_uint8_array(vm, info.this, name)?;
    let opts = options_object(vm, info.arg(vm, 0), name)?;
    let alphabet = alphabet_option(vm, opts, name)?;
    let omit_padding = option(vm, opts, "omitPadding")?;
    let omit_padding = to_boolean(vm, omit_padding);
    // The option getters may have detached or shrunk the buffer.
    let bytes = uint8_array_bytes(vm, &ta, name)?;
    Ok(vm.string(&to_base64(&bytes, alphabet, omit_padding)))
}

/// `Uint8Array.prototype.toHex ( )`.
fn to_hex_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Uint8Array.prototype.toHex";
    let ta = validate_uint8_array(vm, info.this, name)?;
    let bytes = uint8_array_bytes(vm, &ta, name)?;
    Ok(vm.string(&to_hex(&bytes)))
}

/// Installs the two static methods on `%Uint8Array%` and the four on
/// `%Uint8Array.prototype%` (after the typed arrays are installed).
pub(crate) fn install(vm: &mut Vm) {
    let ctor = vm.realm.intrinsics.uint8_array;
    method(vm, ctor, "fromBase64", 1, from_base64_method);
    method(vm, ctor, "fromHex", 1, from_hex_method);
    let proto = vm.realm.intrinsics.uint8_array_prototype;
    method(vm, proto, "setFromBase64", 1, set_from_base64);
    method(vm, proto, "setFromHex", 1, set_from_hex);
    method(vm, proto, "toBase64", 0, to_base64_method);
    method(vm, proto, "toHex", 0, to_hex_method);
}

// Node 20 has none of these methods, so they are tested here rather than
// in a tests/js program diffed with node.
#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    fn decode(s: &str, last: LastChunkHandling) -> Decoded {
        from_base64(&units(s), Alphabet::Base64, last, usize::MAX)
    }

    #[test]
    fn encodes_with_and_without_padding() {
        assert_eq!(to_base64(b"", Alphabet::Base64, false), "");
        assert_eq!(to_base64(b"f", Alphabet::Base64, false), "Zg==");
        assert_eq!(to_base64(b"fo", Alphabet::Base64, false), "Zm8=");
        assert_eq!(to_base64(b"foo", Alphabet::Base64, false), "Zm9v");
        assert_eq!(to_base64(b"foob", Alphabet::Base64, true), "Zm9vYg");
        assert_eq!(to_base64(&[0xfb, 0xff], Alphabet::Base64, false), "+/8=");
        assert_eq!(to_base64(&[0xfb, 0xff], Alphabet::Base64Url, true), "-_8");
        assert_eq!(to_hex(&[0, 0x0f, 0xa0, 0xff]), "000fa0ff");
    }

    #[test]
    fn decodes_padded_loose_and_whitespace() {
        let d = decode(" Zm9v\tYg = = ", LastChunkHandling::Loose);
        assert_eq!((d.read, d.bytes.as_slice(), d.error), (13, &b"foob"[..], None));
        let d = decode("Zm9vYg", LastChunkHandling::Loose);
        assert_eq!(d.bytes, b"foob");
        assert_eq!(d.read, 6);
        // Loose ignores nonzero extra bits; strict rejects them.
        assert_eq!(decode("Zh==", LastChunkHandling::Loose).bytes, b"f");
        let d = decode("Zm9vZh==", LastChunkHandling::Strict);
        assert_eq!((d.read, d.bytes.as_slice(), d.error.is_some()), (4, &b"foo"[..], true));
    }

    #[test]
    fn last_chunk_rules() {
        let d = decode("Zm9vYg", LastChunkHandling::StopBeforePartial);
        assert_eq!((d.read, d.bytes.as_slice(), d.error), (4, &b"foo"[..], None));
        let d = decode("Zm9vYg=", LastChunkHandling::StopBeforePartial);
        assert_eq!((d.read, d.bytes.as_slice(), d.error), (4, &b"foo"[..], None));
        assert!(decode("Zm9vYg", LastChunkHandling::Strict).error.is_some());
        assert!(decode("Zm9vY", LastChunkHandling::Loose).error.is_some());
        assert!(decode("Zg=", LastChunkHandling::Loose).error.is_some());
        assert!(decode("Z===", LastChunkHandling::Loose).error.is_some());
        assert!(decode("Zg==Zg==", LastChunkHandling::Loose).error.is_some());
        assert!(decode("Zm9v=", LastChunkHandling::Loose).error.is_some());
    }

    #[test]
    fn alphabets_exclude_each_other() {
        let url = from_base64(&units("-_8"), Alphabet::Base64Url, LastChunkHandling::Loose, usize::MAX);
        assert_eq!(url.bytes, [0xfb, 0xff]);
        let plain = from_base64(&units("+/8"), Alphabet::Base64Url, LastChunkHandling::Loose, usize::MAX);
        assert!(plain.error.is_some());
        assert!(decode("-_8", LastChunkHandling::Loose).error.is_some());
        assert!(decode("Zm\u{e9}v", LastChunkHandling::Loose).error.is_some());
    }

    #[test]
    fn decoding_stops_at_the_target_size() {
        let d = from_base64(&units("Zm9vYmFy"), Alphabet::Base64, LastChunkHandling::Loose, 4);
        assert_eq!((d.read, d.bytes.as_slice(), d.error), (4, &b"foo"[..], None));
        let d = from_base64(&units("Zm9vYmFy"), Alphabet::Base64, LastChunkHandling::Loose, 6);
        assert_eq!((d.read, d.bytes.len()), (8, 6));
        let d = from_base64(&units("Zm9v"), Alphabet::Base64, LastChunkHandling::Loose, 0);
        assert_eq!((d.read, d.bytes.len()), (0, 0));
        let d = from_hex(&units("666f6f"), 2);
        assert_eq!((d.read, d.bytes.as_slice(), d.error), (4, &b"fo"[..], None));
    }

    #[test]
    fn hex_errors_keep_what_was_decoded() {
        assert_eq!(from_hex(&units("0A0b"), usize::MAX).bytes, [10, 11]);
        let d = from_hex(&units("aaxx"), usize::MAX);
        assert_eq!((d.read, d.bytes.as_slice(), d.error.is_some()), (2, &[0xaa][..], true));
        let d = from_hex(&units("aaa"), usize::MAX);
        assert_eq!((d.read, d.bytes.len(), d.error.is_some()), (0, 0, true));
        // Fullwidth digits are not hex digits.
        assert!(from_hex(&units("\u{ff10}\u{ff10}"), usize::MAX).error.is_some());
    }
}

// Through the VM (node 20 lacks these methods): the receiver and option
// checks, the partial writes of `setFrom*` and their `{ read, written }`.
#[cfg(test)]
mod vm_tests {
    use crate::Vm;

    fn eval(source: &str) -> String {
        let mut vm = Vm::new();
        let result = vm.eval_script("base64.js", source).expect("the script runs");
        result.to_rust_string(&mut vm).expect("a string")
    }

    #[test]
    fn round_trips_and_options() {
        let out = eval(
            "const u = Uint8Array.fromBase64('SGVsbG8gd29ybGQ='); \
             [u.length, u.toBase64(), u.toBase64({ omitPadding: true }), u.toHex(), \
              Uint8Array.fromHex('fbff').toBase64({ alphabet: 'base64url' }), \
              Uint8Array.fromBase64('-_8', { alphabet: 'base64url' }).toHex(), \
              Uint8Array.fromBase64('Zm9vYg', { lastChunkHandling: 'stop-before-partial' }).length].join()",
        );
        assert_eq!(out, "11,SGVsbG8gd29ybGQ=,SGVsbG8gd29ybGQ,48656c6c6f20776f726c64,-_8=,fbff,3");
    }

    #[test]
    fn errors_are_the_specified_kinds() {
        let out = eval(
            "const kinds = []; \
             for (const f of [() => Uint8Array.fromBase64(1), () => Uint8Array.fromBase64('Zg==', { alphabet: 'hex' }), \
                              () => Uint8Array.fromBase64('Zg', { lastChunkHandling: 'strict' }), () => Uint8Array.fromHex('abc'), \
                              () => Uint8Array.prototype.toHex.call(new Uint8ClampedArray(1)), \
                              () => new Uint8Array(1).toBase64(null), () => Uint8Array.fromBase64('Zg==', { alphabet: new String('base64') })]) { \
               try { f(); kinds.push('none'); } catch (e) { kinds.push(e.constructor.name); } \
             } kinds.join()",
        );
        assert_eq!(out, "TypeError,TypeError,SyntaxError,SyntaxError,TypeError,TypeError,TypeError");
    }

    #[test]
    fn set_from_writes_what_decoded_before_an_error() {
        let out = eval(
            "const t = new Uint8Array(8); const r = t.setFromBase64('Zm9vYmFy'); \
             const h = new Uint8Array(2).setFromHex('a1b2c3'); \
             const partial = new Uint8Array(4); let kind; \
             try { partial.setFromHex('0102zz'); } catch (e) { kind = e.constructor.name; } \
             const ab = new ArrayBuffer(4, { maxByteLength: 4 }); const fixed = new Uint8Array(ab, 0, 2); \
             const late = (() => { try { fixed.toBase64({ get alphabet() { ab.resize(1); return 'base64'; } }); return 'none'; } catch (e) { return e.constructor.name; } })(); \
             const shrunk = (() => { try { fixed.setFromHex('00'); return 'none'; } catch (e) { return e.constructor.name; } })(); \
             [shrunk, late, r.read, r.written, t.toHex(), h.read, h.written, kind, partial.toHex(), Object.keys(r)].join(' ')",
        );
        assert_eq!(out, "TypeError TypeError 8 6 666f6f6261720000 4 2 SyntaxError 01020000 read,written");
    }
}
