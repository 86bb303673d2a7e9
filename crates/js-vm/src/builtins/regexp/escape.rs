//! `RegExp.escape(S)` (ES2025 §22.2.5.1): a pattern that matches `S`
//! literally wherever it is placed in another pattern.

use crate::interpreter::CallInfo;
use crate::string::{JsString, is_white_space_or_line_terminator};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Punctuators escaped as `\xHH` so that the result is safe after `\c`,
/// inside `(?`, class set syntax of the `v` flag and similar contexts.
const OTHER_PUNCTUATORS: &[u8] = b",-=<>#&!%:;@~'`\"";

/// `RegExp.escape`.
pub(super) fn regexp_escape(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = info.arg(vm, 0);
    let Some(s) = s.as_string() else {
        return Err(vm.type_error("RegExp.escape requires a string"));
    };
    let units = super::units_of(vm, s);
    let mut escaped: Vec<u16> = Vec::with_capacity(units.len() * 2);
    for c in char::decode_utf16(units.iter().copied()) {
        let code_point = match c {
            Ok(c) => c as u32,
            Err(lone) => u32::from(lone.unpaired_surrogate()),
        };
        let leading_alphanumeric =
            escaped.is_empty() && u8::try_from(code_point).is_ok_and(|b| b.is_ascii_alphanumeric());
        if leading_alphanumeric {
            push_hex_escape(&mut escaped, code_point);
        } else {
            encode_for_regexp_escape(&mut escaped, code_point);
        }
    }
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&escaped))))
}

/// `EncodeForRegExpEscape(c)`.
fn encode_for_regexp_escape(out: &mut Vec<u16>, code_point: u32) {
    const SYNTAX_CHARACTERS: &[u8] = b"^$\\.*+?()[]{}|/";
    if let Ok(byte) = u8::try_from(code_point) {
        if SYNTAX_CHARACTERS.contains(&byte) {
            out.extend([u16::from(b'\\'), u16::from(byte)]);
            return;
        }
        let control_escape = match byte {
            0x09 => Some(b't'),
            0x0A => Some(b'n'),
            0x0B => Some(b'v'),
            0x0C => Some(b'f'),
            0x0D => Some(b'r'),
            _ => None,
        };
        if let Some(letter) = control_escape {
            out.extend([u16::from(b'\\'), u16::from(letter)]);
            return;
        }
    }
    let is_surrogate = (0xD800..=0xDFFF).contains(&code_point);
    let needs_escape = u8::try_from(code_point).is_ok_and(|b| OTHER_PUNCTUATORS.contains(&b))
        || is_surrogate
        || u16::try_from(code_point).is_ok_and(is_white_space_or_line_terminator);
    if needs_escape {
        push_hex_escape(out, code_point);
        return;
    }
    let mut buffer = [0u16; 2];
    match char::from_u32(code_point) {
        Some(c) => out.extend_from_slice(c.encode_utf16(&mut buffer)),
        None => out.push(code_point as u16),
    }
}

/// `\xHH` for code points up to 0xFF, otherwise `\uHHHH` per UTF-16 code
/// unit, in lowercase hex as the spec's Number::toString(·, 16) writes it.
fn push_hex_escape(out: &mut Vec<u16>, code_point: u32) {
    if code_point <= 0xFF {
        out.extend([u16::from(b'\\'), u16::from(b'x')]);
        push_hex_digits(out, code_point, 2);
        return;
    }
    // Code points above U+FFFF are valid chars (lone surrogates are below).
    let mut buffer = [code_point as u16, 0];
    let units: &[u16] = match char::from_u32(code_point).filter(|_| code_point > 0xFFFF) {
        Some(c) => c.encode_utf16(&mut buffer),
        None => &buffer[..1],
    };
    for &unit in units {
        out.extend([u16::from(b'\\'), u16::from(b'u')]);
        push_hex_digits(out, u32::from(unit), 4);
    }
}

/// `value` as `digits` lowercase hex digits.
fn push_hex_digits(out: &mut Vec<u16>, value: u32, digits: u32) {
    for shift in (0..digits).rev() {
        let nibble = (value >> (shift * 4)) & 0xF;
        out.push(u16::from(b"0123456789abcdef"[nibble as usize]));
    }
}
