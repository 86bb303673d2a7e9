//! String and String.prototype (§22.1), except the RegExp-based methods.

use crate::string::is_white_space_or_line_terminator;
use js_gc::Gc;

use icu_locale_core::LanguageIdentifier;

use super::iteration::create_string_iterator;
use super::locale::case_mapping::{self, Case};
use super::locale::normalization::NormalizationForm;
use super::locale::{self, collation};
use super::{constructor, method, symbol_method, value_property};
use crate::abstract_ops::{to_integer_or_infinity, to_number, to_string, to_uint32};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{call, get_method};
use crate::object::{Attributes, ObjectKind, PropertyKey};
use crate::string::{JsStr, JsString, StringBuilder};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// RequireObjectCoercible(this) then `ToString`, flattened.
fn this_string(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Gc<JsString>> {
    if info.this.is_nullish() {
        return Err(vm.type_error(&format!("String.prototype.{name} called on null or undefined")));
    }
    let s = to_string(vm, info.this)?;
    vm.keep_alive(Value::string(s));
    Ok(JsString::flatten(&mut vm.heap, s))
}

fn arg_string(vm: &mut Vm, info: &CallInfo, i: usize) -> JsResult<Gc<JsString>> {
    let v = info.arg(vm, i);
    let s = to_string(vm, v)?;
    vm.keep_alive(Value::string(s));
    Ok(JsString::flatten(&mut vm.heap, s))
}

fn units(vm: &Vm, s: Gc<JsString>) -> Vec<u16> {
    s.borrow(&vm.heap).flat().units().collect()
}

fn from_units(vm: &mut Vm, units: &[u16]) -> Value {
    Value::string(vm.heap.alloc(JsString::from_utf16(units)))
}

/// The flat string `s`'s code units `from..to` as a new string, copied from
/// `s` in its own width (not through a copy of all of `s`).
fn substring_value(vm: &mut Vm, s: Gc<JsString>, from: usize, to: usize) -> Value {
    let sub = JsString::from_js_str(s.borrow(&vm.heap).flat().slice(from, to));
    Value::string(vm.heap.alloc(sub))
}

fn string_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = if info.argc == 0 {
        vm.atoms.intern_str(&mut vm.heap, "")
    } else {
        let v = info.arg(vm, 0);
        if info.new_target.is_none()
            && let Some(sym) = v.as_symbol()
        {
            let d = sym.borrow(&vm.heap).description.map(|d| d.borrow(&vm.heap).flat().to_rust_string());
            return Ok(vm.string(&format!("Symbol({})", d.unwrap_or_default())));
        }
        to_string(vm, v)?
    };
    let Some(nt) = info.new_target else { return Ok(Value::string(s)) };
    // Reading `new.target.prototype` may run a proxy trap.
    vm.keep_alive(Value::string(s));
    let proto = prototype_from_constructor(vm, nt, |i| i.string_prototype)?;
    Ok(Value::object(vm.new_object_of_kind(Some(proto), ObjectKind::String(s))))
}

fn from_char_code(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    // ToUint16 of each argument.
    let code_unit = |vm: &mut Vm, i| -> JsResult<u16> {
        let v = info.arg(vm, i);
        Ok(to_uint32(to_number(vm, v)?) as u16)
    };
    if info.argc == 1 {
        let unit = code_unit(vm, 0)?;
        return Ok(Value::string(vm.atoms.one_unit(&mut vm.heap, unit)));
    }
    let mut out = Vec::with_capacity(info.argc);
    for i in 0..info.argc {
        out.push(code_unit(vm, i)?);
    }
    Ok(from_units(vm, &out))
}

fn from_code_point(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let mut b = StringBuilder::new();
    for i in 0..info.argc {
        let v = info.arg(vm, i);
        let n = to_number(vm, v)?;
        if n.fract() != 0.0 || !(0.0..=1_114_111.0).contains(&n) {
            return Err(vm.range_error(&format!("Invalid code point {}", crate::abstract_ops::number_to_string(n))));
        }
        let cp = n as u32;
        if cp > 0xFFFF {
            let c = cp - 0x10000;
            b.push(0xD800 + (c >> 10) as u16);
            b.push(0xDC00 + (c & 0x3FF) as u16);
        } else {
            b.push(cp as u16);
        }
    }
    Ok(Value::string(b.finish(&mut vm.heap)))
}

fn raw(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let cooked = info.arg(vm, 0);
    let cooked = crate::abstract_ops::to_object(vm, cooked)?;
    vm.keep_alive(Value::object(cooked));
    let raw_key = vm.key("raw");
    let raw = crate::object::internal_methods::get(vm, cooked, raw_key, Value::object(cooked))?;
    let raw = crate::abstract_ops::to_object(vm, raw)?;
    vm.keep_alive(Value::object(raw));
    let len = crate::object::internal_methods::length_of_array_like(vm, raw)?;
    let mut b = StringBuilder::new();
    let mut i = 0.0;
    while i < len {
        let key = super::function::index_key(vm, i as u64);
        let seg = crate::object::internal_methods::get(vm, raw, key, Value::object(raw))?;
        let seg = to_string(vm, seg)?;
        let seg = JsString::flatten(&mut vm.heap, seg);
        b.push_str(seg.borrow(&vm.heap).flat());
        if i + 1.0 < len && (i as usize + 1) < info.argc {
            let sub = info.arg(vm, i as usize + 1);
            let sub = to_string(vm, sub)?;
            let sub = JsString::flatten(&mut vm.heap, sub);
            b.push_str(sub.borrow(&vm.heap).flat());
        }
        i += 1.0;
    }
    Ok(Value::string(b.finish(&mut vm.heap)))
}

fn this_string_value(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Value> {
    if info.this.is_string() {
        return Ok(info.this);
    }
    if let Some(o) = info.this.as_object()
        && let ObjectKind::String(s) = o.borrow(&vm.heap).kind
    {
        return Ok(Value::string(s));
    }
    Err(vm.type_error(&format!("String.prototype.{name} requires that 'this' be a String")))
}

fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_string_value(vm, info, "toString")
}

fn value_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_string_value(vm, info, "valueOf")
}

fn position_arg(vm: &mut Vm, info: &CallInfo, i: usize) -> JsResult<f64> {
    let v = info.arg(vm, i);
    Ok(to_integer_or_infinity(to_number(vm, v)?))
}

fn char_at(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "charAt")?;
    let pos = position_arg(vm, info, 0)?;
    let flat = s.borrow(&vm.heap).flat();
    if pos < 0.0 || pos >= flat.len() as f64 {
        return Ok(Value::string(vm.atoms.intern_str(&mut vm.heap, "")));
    }
    let unit = flat.at(pos as usize);
    Ok(Value::string(vm.atoms.one_unit(&mut vm.heap, unit)))
}

fn char_code_at(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "charCodeAt")?;
    let pos = position_arg(vm, info, 0)?;
    let flat = s.borrow(&vm.heap).flat();
    if pos < 0.0 || pos >= flat.len() as f64 {
        return Ok(Value::number(f64::NAN));
    }
    Ok(Value::number(f64::from(flat.at(pos as usize))))
}

fn code_point_at(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "codePointAt")?;
    let pos = position_arg(vm, info, 0)?;
    let flat = s.borrow(&vm.heap).flat();
    if pos < 0.0 || pos >= flat.len() as f64 {
        return Ok(Value::UNDEFINED);
    }
    let i = pos as usize;
    let first = flat.at(i);
    if (0xD800..0xDC00).contains(&first) && i + 1 < flat.len() {
        let second = flat.at(i + 1);
        if (0xDC00..0xE000).contains(&second) {
            let cp = 0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00);
            return Ok(Value::number(f64::from(cp)));
        }
    }
    Ok(Value::number(f64::from(first)))
}

fn at(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "at")?;
    let rel = position_arg(vm, info, 0)?;
    let len = s.borrow(&vm.heap).len() as f64;
    let k = if rel >= 0.0 { rel } else { len + rel };
    if k < 0.0 || k >= len {
        return Ok(Value::UNDEFINED);
    }
    let unit = s.borrow(&vm.heap).flat().at(k as usize);
    Ok(Value::string(vm.atoms.one_unit(&mut vm.heap, unit)))
}

fn index_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "indexOf")?;
    let search = arg_string(vm, info, 0)?;
    let pos = position_arg(vm, info, 1)?;
    let (h, n) = (s.borrow(&vm.heap).flat(), search.borrow(&vm.heap).flat());
    let start = pos.clamp(0.0, h.len() as f64) as usize;
    Ok(Value::number(h.find(n, start).map_or(-1.0, |i| i as f64)))
}

fn last_index_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "lastIndexOf")?;
    let search = arg_string(vm, info, 0)?;
    let pos_arg = info.arg(vm, 1);
    let num_pos = to_number(vm, pos_arg)?;
    let (h, n) = (s.borrow(&vm.heap).flat(), search.borrow(&vm.heap).flat());
    let pos = if num_pos.is_nan() { f64::INFINITY } else { to_integer_or_infinity(num_pos) };
    let start = pos.clamp(0.0, h.len() as f64) as usize;
    Ok(Value::number(h.rfind(n, start).map_or(-1.0, |i| i as f64)))
}

/// IsRegExp (§7.2.8).
fn is_regexp_arg(vm: &mut Vm, v: Value) -> JsResult<bool> {
    super::regexp::is_regexp(vm, v)
}

fn includes(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "includes")?;
    let arg = info.arg(vm, 0);
    if is_regexp_arg(vm, arg)? {
        return Err(vm.type_error("First argument to String.prototype.includes must not be a regular expression"));
    }
    let search = arg_string(vm, info, 0)?;
    let pos = position_arg(vm, info, 1)?;
    let (h, n) = (s.borrow(&vm.heap).flat(), search.borrow(&vm.heap).flat());
    let start = pos.clamp(0.0, h.len() as f64) as usize;
    Ok(Value::boolean(h.find(n, start).is_some()))
}

fn starts_with(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "startsWith")?;
    let arg = info.arg(vm, 0);
    if is_regexp_arg(vm, arg)? {
        return Err(vm.type_error("First argument to String.prototype.startsWith must not be a regular expression"));
    }
    let search = arg_string(vm, info, 0)?;
    let pos = position_arg(vm, info, 1)?;
    let (h, n) = (s.borrow(&vm.heap).flat(), search.borrow(&vm.heap).flat());
    let start = pos.clamp(0.0, h.len() as f64) as usize;
    Ok(Value::boolean(h.matches_at(n, start)))
}

fn ends_with(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "endsWith")?;
    let arg = info.arg(vm, 0);
    if is_regexp_arg(vm, arg)? {
        return Err(vm.type_error("First argument to String.prototype.endsWith must not be a regular expression"));
    }
    let search = arg_string(vm, info, 0)?;
    let len = s.borrow(&vm.heap).len();
    let end_arg = info.arg(vm, 1);
    let end = if end_arg.is_undefined() {
        len
    } else {
        to_integer_or_infinity(to_number(vm, end_arg)?).clamp(0.0, len as f64) as usize
    };
    let (h, n) = (s.borrow(&vm.heap).flat(), search.borrow(&vm.heap).flat());
    Ok(Value::boolean(end.checked_sub(n.len()).is_some_and(|start| h.matches_at(n, start))))
}

fn slice(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "slice")?;
    let len = s.borrow(&vm.heap).len() as f64;
    let start = position_arg(vm, info, 0)?;
    let end_arg = info.arg(vm, 1);
    let end = if end_arg.is_undefined() { len } else { to_integer_or_infinity(to_number(vm, end_arg)?) };
    let from = if start < 0.0 { (len + start).max(0.0) } else { start.min(len) };
    let to = if end < 0.0 { (len + end).max(0.0) } else { end.min(len) };
    if from >= to {
        return Ok(Value::string(vm.atoms.intern_str(&mut vm.heap, "")));
    }
    Ok(substring_value(vm, s, from as usize, to as usize))
}

fn substring(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "substring")?;
    let len = s.borrow(&vm.heap).len() as f64;
    let start = position_arg(vm, info, 0)?.clamp(0.0, len);
    let end_arg = info.arg(vm, 1);
    let end =
        if end_arg.is_undefined() { len } else { to_integer_or_infinity(to_number(vm, end_arg)?).clamp(0.0, len) };
    let (from, to) = (start.min(end), start.max(end));
    Ok(substring_value(vm, s, from as usize, to as usize))
}

fn substr(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "substr")?;
    let len = s.borrow(&vm.heap).len() as f64;
    let start = position_arg(vm, info, 0)?;
    let start = if start < 0.0 { (len + start).max(0.0) } else { start.min(len) };
    let length_arg = info.arg(vm, 1);
    let count = if length_arg.is_undefined() { len } else { to_integer_or_infinity(to_number(vm, length_arg)?) };
    let end = (start + count).min(len);
    if start >= end {
        return Ok(Value::string(vm.atoms.intern_str(&mut vm.heap, "")));
    }
    Ok(substring_value(vm, s, start as usize, end as usize))
}

/// toUpperCase / toLowerCase, and the TransformCase of their locale forms,
/// by the rules of `language` (`und`: the root rules).
fn convert_case(vm: &mut Vm, s: Gc<JsString>, case: Case, language: &LanguageIdentifier) -> Value {
    let flat = s.borrow(&vm.heap).flat();
    if let JsStr::Latin1(bytes) = flat
        && bytes.is_ascii()
        && *language == LanguageIdentifier::UNKNOWN
    {
        let converted: Vec<u8> =
            if case == Case::Upper { bytes.to_ascii_uppercase() } else { bytes.to_ascii_lowercase() };
        return Value::string(vm.heap.alloc(JsString::from_latin1(converted)));
    }
    let units: Vec<u16> = flat.units().collect();
    let converted = case_mapping::convert_case(&units, case, language);
    from_units(vm, &converted)
}

fn to_upper_case(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "toUpperCase")?;
    Ok(convert_case(vm, s, Case::Upper, &LanguageIdentifier::UNKNOWN))
}

fn to_lower_case(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "toLowerCase")?;
    Ok(convert_case(vm, s, Case::Lower, &LanguageIdentifier::UNKNOWN))
}

/// `toLocaleUpperCase` / `toLocaleLowerCase([locales])` (ECMA-402 §19.1.2,
/// §19.1.3): the case rules of the first requested locale's language.
fn convert_locale_case(vm: &mut Vm, info: &CallInfo, case: Case, name: &str) -> JsResult<Value> {
    let s = this_string(vm, info, name)?;
    let locales = info.arg(vm, 0);
    let language = case_mapping::case_language(locale::requested_language(vm, locales)?);
    Ok(convert_case(vm, s, case, &language))
}

fn to_locale_upper_case(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    convert_locale_case(vm, info, Case::Upper, "toLocaleUpperCase")
}

fn to_locale_lower_case(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    convert_locale_case(vm, info, Case::Lower, "toLocaleLowerCase")
}

/// `String.prototype.normalize([form])` (§22.1.3.15).
fn normalize(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "normalize")?;
    let form_arg = info.arg(vm, 0);
    let form = if form_arg.is_undefined() {
        NormalizationForm::Nfc
    } else {
        let name = vm.rust_string(form_arg)?;
        NormalizationForm::from_name(&name)
            .ok_or_else(|| vm.range_error("The normalization form should be one of NFC, NFD, NFKC, NFKD."))?
    };
    let flat = s.borrow(&vm.heap).flat();
    // Below U+00A0 every form leaves text alone, and Latin-1 is in NFC.
    let unchanged = match flat {
        JsStr::Latin1(bytes) => form == NormalizationForm::Nfc || bytes.iter().all(|&b| b < 0xA0),
        JsStr::Utf16(_) => false,
    };
    if unchanged {
        return Ok(Value::string(s));
    }
    let units: Vec<u16> = flat.units().collect();
    let normalized = form.normalize(&units);
    Ok(from_units(vm, &normalized))
}

/// Code points, with lone surrogates kept as `Err(unit)`.
fn string_with_lone_surrogates(s: JsStr<'_>) -> Vec<Result<char, u16>> {
    let u: Vec<u16> = s.units().collect();
    char::decode_utf16(u.iter().copied()).map(|r| r.map_err(|e| e.unpaired_surrogate())).collect()
}

fn trim_impl(vm: &mut Vm, info: &CallInfo, start: bool, end: bool, name: &str) -> JsResult<Value> {
    let s = this_string(vm, info, name)?;
    let u = s.borrow(&vm.heap).flat();
    let mut a = 0;
    let mut b = u.len();
    if start {
        while a < b && is_white_space_or_line_terminator(u.at(a)) {
            a += 1;
        }
    }
    if end {
        while b > a && is_white_space_or_line_terminator(u.at(b - 1)) {
            b -= 1;
        }
    }
    Ok(substring_value(vm, s, a, b))
}

fn trim(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    trim_impl(vm, info, true, true, "trim")
}
fn trim_start(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    trim_impl(vm, info, true, false, "trimStart")
}
fn trim_end(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    trim_impl(vm, info, false, true, "trimEnd")
}

fn pad(vm: &mut Vm, info: &CallInfo, at_start: bool) -> JsResult<Value> {
    let s = this_string(vm, info, if at_start { "padStart" } else { "padEnd" })?;
    let max_arg = info.arg(vm, 0);
    let max = crate::abstract_ops::to_length(vm, max_arg)?;
    let len = s.borrow(&vm.heap).len() as f64;
    if max <= len {
        return Ok(Value::string(s));
    }
    let fill_arg = info.arg(vm, 1);
    let filler: Vec<u16> = if fill_arg.is_undefined() {
        vec![0x20]
    } else {
        let f = to_string(vm, fill_arg)?;
        let f = JsString::flatten(&mut vm.heap, f);
        units(vm, f)
    };
    if filler.is_empty() {
        return Ok(Value::string(s));
    }
    if max > crate::string::MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    let fill_len = (max - len) as usize;
    let padding: Vec<u16> = filler.iter().copied().cycle().take(fill_len).collect();
    let own = units(vm, s);
    let mut out = Vec::with_capacity(max as usize);
    if at_start {
        out.extend_from_slice(&padding);
        out.extend_from_slice(&own);
    } else {
        out.extend_from_slice(&own);
        out.extend_from_slice(&padding);
    }
    Ok(from_units(vm, &out))
}

fn pad_start(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    pad(vm, info, true)
}
fn pad_end(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    pad(vm, info, false)
}

fn repeat(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "repeat")?;
    let count_arg = info.arg(vm, 0);
    let n = to_integer_or_infinity(to_number(vm, count_arg)?);
    if n < 0.0 || n == f64::INFINITY {
        return Err(vm.range_error(&format!("Invalid count value: {}", crate::abstract_ops::number_to_string(n))));
    }
    let len = s.borrow(&vm.heap).len();
    if n == 0.0 || len == 0 {
        return Ok(Value::string(vm.atoms.intern_str(&mut vm.heap, "")));
    }
    if (len as f64) * n > crate::string::MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    let mut b = StringBuilder::with_capacity(len * n as usize);
    for i in 0..n as usize {
        // A copy of up to half a gigabyte: interruptible between pieces.
        vm.check_interrupt_every(i, 4096)?;
        b.push_str(s.borrow(&vm.heap).flat());
    }
    Ok(Value::string(b.finish(&mut vm.heap)))
}

fn concat(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let mut s = this_string(vm, info, "concat")?;
    for i in 0..info.argc {
        let next = arg_string(vm, info, i)?;
        s = match JsString::concat_within_limit(&mut vm.heap, s, next) {
            Some(s) => s,
            None => return Err(vm.range_error("Invalid string length")),
        };
        vm.keep_alive(Value::string(s));
    }
    Ok(Value::string(s))
}

fn split(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if info.this.is_nullish() {
        return Err(vm.type_error("String.prototype.split called on null or undefined"));
    }
    let separator = info.arg(vm, 0);
    let limit = info.arg(vm, 1);
    if separator.is_object() {
        let key = PropertyKey::Symbol(vm.symbols.split);
        if let Some(splitter) = get_method(vm, separator, key)? {
            return call(vm, splitter, separator, &[info.this, limit]);
        }
    }
    let s = this_string(vm, info, "split")?;
    let lim = if limit.is_undefined() { u32::MAX } else { to_uint32(to_number(vm, limit)?) };
    let sep = to_string(vm, separator)?;
    let sep = JsString::flatten(&mut vm.heap, sep);
    if lim == 0 {
        return Ok(Value::object(super::array::array_create(vm, &[])));
    }
    if separator.is_undefined() {
        return Ok(Value::object(super::array::array_create(vm, &[Value::string(s)])));
    }
    let (h_len, n_len) = (s.borrow(&vm.heap).len(), sep.borrow(&vm.heap).len());
    let mut parts = Vec::new();
    if n_len == 0 {
        for i in 0..h_len.min(lim as usize) {
            parts.push(substring_value(vm, s, i, i + 1));
        }
        return Ok(Value::object(super::array::array_create(vm, &parts)));
    }
    if h_len == 0 {
        return Ok(Value::object(super::array::array_create(vm, &[Value::string(s)])));
    }
    let mut start = 0;
    while let Some(i) = s.borrow(&vm.heap).flat().find(sep.borrow(&vm.heap).flat(), start) {
        parts.push(substring_value(vm, s, start, i));
        vm.keep_alive(*parts.last().unwrap_or(&Value::UNDEFINED));
        if parts.len() as u32 >= lim {
            return Ok(Value::object(super::array::array_create(vm, &parts)));
        }
        start = i + n_len;
    }
    parts.push(substring_value(vm, s, start, h_len));
    Ok(Value::object(super::array::array_create(vm, &parts)))
}

/// `GetSubstitution` (§22.1.3.19.1) without named captures.
fn substitution(matched: &[u16], position: usize, string: &[u16], replacement: &[u16]) -> Vec<u16> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < replacement.len() {
        let c = replacement[i];
        if c == u16::from(b'$') && i + 1 < replacement.len() {
            let next = replacement[i + 1];
            match next {
                x if x == u16::from(b'$') => {
                    out.push(x);
                    i += 2;
                    continue;
                }
                x if x == u16::from(b'&') => {
                    out.extend_from_slice(matched);
                    i += 2;
                    continue;
                }
                x if x == u16::from(b'`') => {
                    out.extend_from_slice(&string[..position]);
                    i += 2;
                    continue;
                }
                x if x == u16::from(b'\'') => {
                    let end = (position + matched.len()).min(string.len());
                    out.extend_from_slice(&string[end..]);
                    i += 2;
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

fn replace_impl(vm: &mut Vm, info: &CallInfo, all: bool) -> JsResult<Value> {
    let name = if all { "replaceAll" } else { "replace" };
    if info.this.is_nullish() {
        return Err(vm.type_error(&format!("String.prototype.{name} called on null or undefined")));
    }
    let search_value = info.arg(vm, 0);
    let replace_value = info.arg(vm, 1);
    // Only an object's @@replace is used (a primitive's would come from a
    // patched prototype).
    if search_value.is_object() {
        if all && is_regexp_arg(vm, search_value)? {
            // §22.1.3.20 step 2.b: a RegExp must be global.
            let flags_key = vm.key("flags");
            let flags = crate::object::internal_methods::get_value(vm, search_value, flags_key)?;
            if flags.is_nullish() {
                return Err(
                    vm.type_error("String.prototype.replaceAll called with a RegExp whose flags are null or undefined")
                );
            }
            let flags = to_string(vm, flags)?;
            let flags = JsString::flatten(&mut vm.heap, flags);
            if !units(vm, flags).contains(&u16::from(b'g')) {
                return Err(vm.type_error("replaceAll must be called with a global RegExp"));
            }
        }
        let key = PropertyKey::Symbol(vm.symbols.replace);
        if let Some(replacer) = get_method(vm, search_value, key)? {
            return call(vm, replacer, search_value, &[info.this, replace_value]);
        }
    }
    let s = this_string(vm, info, name)?;
    let search = to_string(vm, search_value)?;
    let search = JsString::flatten(&mut vm.heap, search);
    vm.keep_alive(Value::string(search));
    let functional = crate::abstract_ops::is_callable(vm, replace_value);
    let replacement = if functional {
        Vec::new()
    } else {
        let r = to_string(vm, replace_value)?;
        let r = JsString::flatten(&mut vm.heap, r);
        units(vm, r)
    };
    let (h, n) = (units(vm, s), units(vm, search));
    let mut positions = Vec::new();
    let mut from = 0;
    while let Some(p) = s.borrow(&vm.heap).flat().find(search.borrow(&vm.heap).flat(), from) {
        positions.push(p);
        if !all {
            break;
        }
        from = p + n.len().max(1);
        if from > h.len() {
            break;
        }
    }
    let mut out = Vec::new();
    let mut end_of_last = 0;
    for p in positions {
        out.extend_from_slice(&h[end_of_last..p]);
        if functional {
            let r = call(
                vm,
                replace_value,
                Value::UNDEFINED,
                &[Value::string(search), Value::number(p as f64), Value::string(s)],
            )?;
            let r = to_string(vm, r)?;
            let r = JsString::flatten(&mut vm.heap, r);
            out.extend(r.borrow(&vm.heap).flat().units());
        } else {
            out.extend(substitution(&n, p, &h, &replacement));
        }
        end_of_last = p + n.len();
    }
    out.extend_from_slice(&h[end_of_last.min(h.len())..]);
    Ok(from_units(vm, &out))
}

fn replace(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    replace_impl(vm, info, false)
}
fn replace_all(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    replace_impl(vm, info, true)
}

/// `String.prototype.localeCompare(that [, locales [, options]])`
/// (ECMA-402 §19.1.1): the root collation, which is also en's.
fn locale_compare(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "localeCompare")?;
    let other = arg_string(vm, info, 0)?;
    let locales = info.arg(vm, 1);
    let options = info.arg(vm, 2);
    let collator = collation::collator(vm, locales, options)?;
    let ord = collation::compare(&collator, s.borrow(&vm.heap).flat(), other.borrow(&vm.heap).flat());
    Ok(Value::number(match ord {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    }))
}

fn is_well_formed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "isWellFormed")?;
    let ok = string_with_lone_surrogates(s.borrow(&vm.heap).flat()).iter().all(Result::is_ok);
    Ok(Value::boolean(ok))
}

fn to_well_formed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "toWellFormed")?;
    let mut b = StringBuilder::new();
    for piece in string_with_lone_surrogates(s.borrow(&vm.heap).flat()) {
        b.push_char(piece.unwrap_or('\u{FFFD}'));
    }
    Ok(Value::string(b.finish(&mut vm.heap)))
}

fn iterator(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_string(vm, info, "[Symbol.iterator]")?;
    Ok(create_string_iterator(vm, s))
}

/// Installs String and String.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.string_prototype;
    let ctor = constructor(vm, "String", 1, string_ctor, proto);
    method(vm, ctor, "fromCharCode", 1, from_char_code);
    method(vm, ctor, "fromCodePoint", 1, from_code_point);
    method(vm, ctor, "raw", 1, raw);
    let methods: [(&str, u32, crate::function::NativeFn); 32] = [
        ("toString", 0, to_string_method),
        ("valueOf", 0, value_of),
        ("charAt", 1, char_at),
        ("charCodeAt", 1, char_code_at),
        ("codePointAt", 1, code_point_at),
        ("at", 1, at),
        ("indexOf", 1, index_of),
        ("lastIndexOf", 1, last_index_of),
        ("includes", 1, includes),
        ("startsWith", 1, starts_with),
        ("endsWith", 1, ends_with),
        ("slice", 2, slice),
        ("substring", 2, substring),
        ("substr", 2, substr),
        ("toUpperCase", 0, to_upper_case),
        ("toLowerCase", 0, to_lower_case),
        ("toLocaleUpperCase", 0, to_locale_upper_case),
        ("toLocaleLowerCase", 0, to_locale_lower_case),
        ("normalize", 0, normalize),
        ("trim", 0, trim),
        ("trimStart", 0, trim_start),
        ("trimEnd", 0, trim_end),
        ("padStart", 1, pad_start),
        ("padEnd", 1, pad_end),
        ("repeat", 1, repeat),
        ("concat", 1, concat),
        ("split", 2, split),
        ("replace", 2, replace),
        ("replaceAll", 2, replace_all),
        ("localeCompare", 1, locale_compare),
        ("isWellFormed", 0, is_well_formed),
        ("toWellFormed", 0, to_well_formed),
    ];
    for (name, length, f) in methods {
        let function = method(vm, proto, name, length, f);
        // Annex B: trimLeft/trimRight are the same function objects.
        let alias = match name {
            "trimStart" => "trimLeft",
            "trimEnd" => "trimRight",
            _ => continue,
        };
        value_property(vm, proto, alias, Value::object(function), Attributes::METHOD);
    }
    let iterator_symbol = vm.symbols.iterator;
    symbol_method(vm, proto, iterator_symbol, "[Symbol.iterator]", 0, iterator, Attributes::METHOD);
}
