//! Annex B.2.1: the web-legacy global functions `escape` and `unescape`.
//!
//! They work on UTF-16 code units, not on UTF-8 like `encodeURI`: a unit
//! below 256 outside the unescaped set becomes `%XX`, any other `%uXXXX`.

use super::method;
use crate::abstract_ops::to_string;
use crate::interpreter::CallInfo;
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The punctuation `escape` leaves alone besides ASCII letters and digits.
const ESCAPE_UNESCAPED_PUNCTUATION: &[u8] = b"@*_+-./";

fn arg_units(vm: &mut Vm, info: &CallInfo) -> JsResult<Vec<u16>> {
    let v = info.arg(vm, 0);
    let s = to_string(vm, v)?;
    let s = JsString::flatten(&mut vm.heap, s);
    Ok(s.borrow(&vm.heap).flat().units().collect())
}

fn hex_digit(n: u16) -> u16 {
    let n = n & 0xF;
    if n < 10 { u16::from(b'0') + n } else { u16::from(b'A') + n - 10 }
}

/// Escape one string's code units (B.2.1.1 steps 4–6).
pub(crate) fn escape_units(units: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(units.len());
    for &c in units {
        let unescaped =
            u8::try_from(c).is_ok_and(|b| b.is_ascii_alphanumeric() || ESCAPE_UNESCAPED_PUNCTUATION.contains(&b));
        if unescaped {
            out.push(c);
        } else if c < 256 {
            out.extend_from_slice(&[u16::from(b'%'), hex_digit(c >> 4), hex_digit(c)]);
        } else {
            out.extend_from_slice(&[
                u16::from(b'%'),
                u16::from(b'u'),
                hex_digit(c >> 12),
                hex_digit(c >> 8),
                hex_digit(c >> 4),
                hex_digit(c),
            ]);
        }
    }
    out
}

fn hex_value(u: u16) -> Option<u16> {
    char::from_u32(u32::from(u)).and_then(|c| c.to_digit(16)).map(|d| d as u16)
}

/// The value of `units` read as hexadecimal digits, if all of them are.
fn hex_run(units: &[u16]) -> Option<u16> {
    units.iter().try_fold(0u16, |acc, &u| Some((acc << 4) | hex_value(u)?))
}

/// Unescape one string's code units (B.2.1.2 steps 4–6): a malformed `%`
/// sequence stays as it is.
pub(crate) fn unescape_units(units: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(units.len());
    let mut k = 0;
    while k < units.len() {
        let c = units[k];
        if c == u16::from(b'%') {
            if units.get(k + 1) == Some(&u16::from(b'u'))
                && let Some(unit) = units.get(k + 2..k + 6).and_then(hex_run)
            {
                out.push(unit);
                k += 6;
                continue;
            }
            if let Some(unit) = units.get(k + 1..k + 3).and_then(hex_run) {
                out.push(unit);
                k += 3;
                continue;
            }
        }
        out.push(c);
        k += 1;
    }
    out
}

fn escape(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let units = arg_units(vm, info)?;
    let out = escape_units(&units);
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&out))))
}

fn unescape(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let units = arg_units(vm, info)?;
    let out = unescape_units(&units);
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&out))))
}

/// Installs `escape` and `unescape` on the global object.
pub(crate) fn install(vm: &mut Vm) {
    let global = vm.realm.global;
    method(vm, global, "escape", 1, escape);
    method(vm, global, "unescape", 1, unescape);
}

#[cfg(test)]
mod tests {
    use super::{escape_units, unescape_units};

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn escape_keeps_the_unescaped_set_and_encodes_the_rest() {
        assert_eq!(escape_units(&utf16("aZ09@*_+-./")), utf16("aZ09@*_+-./"));
        assert_eq!(escape_units(&utf16(" ~\u{ff}")), utf16("%20%7E%FF"));
        assert_eq!(escape_units(&[0x100, 0xD800]), utf16("%u0100%uD800"));
    }

    #[test]
    fn unescape_decodes_well_formed_and_keeps_malformed_sequences() {
        assert_eq!(unescape_units(&utf16("%41%u0042%u00")), utf16("AB%u00"));
        assert_eq!(unescape_units(&utf16("%4g%%u12x4%")), utf16("%4g%%u12x4%"));
        assert_eq!(unescape_units(&utf16("%uD83D%uDE00")), vec![0xD83D, 0xDE00]);
        assert_eq!(unescape_units(&utf16("%u004")), utf16("%u004"));
    }
}
