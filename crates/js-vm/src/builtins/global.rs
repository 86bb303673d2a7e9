//! The global object's value and function properties (§19.1, §19.2).

use std::fmt::Write as _;

use super::{method, value_property};
use crate::abstract_ops::{string_to_number, to_number, to_string};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{define_own_property, ordinary_get_own_property};
use crate::object::{Attributes, PropertyDescriptor};
use crate::string::{JsStr, JsString, StringBuilder};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `CreateGlobalVarBinding` (§9.1.1.4.17): a `var` of a script (not
/// deletable) or of eval code (`deletable`) becomes a property of the
/// global object, undefined, unless it exists.
pub(crate) fn declare_global_var(vm: &mut Vm, name: &str, deletable: bool) {
    let key = vm.key(name);
    let global = vm.realm.global;
    // The global object is ordinary: no user code runs.
    if ordinary_get_own_property(vm, global, key).is_none() && global.borrow(&vm.heap).extensible {
        let mut attributes = Attributes::WRITABLE | Attributes::ENUMERABLE;
        if deletable {
            attributes |= Attributes::CONFIGURABLE;
        }
        let desc = PropertyDescriptor::data(Value::UNDEFINED, Attributes::from_bits(attributes));
        let _ = define_own_property(vm, global, key, desc);
    }
}

/// `HasLexicalDeclaration` of the global environment (§9.1.1.4.13).
pub(crate) fn has_lexical_declaration(vm: &mut Vm, name: &str) -> bool {
    let atom = vm.atoms.intern_str(&mut vm.heap, name);
    vm.realm.global_lexicals.contains_key(&atom)
}

/// `HasRestrictedGlobalProperty` (§9.1.1.4.14): a non-configurable own
/// property of the global object (`undefined`, `NaN`...).
pub(crate) fn has_restricted_global_property(vm: &mut Vm, name: &str) -> bool {
    let key = vm.key(name);
    let global = vm.realm.global;
    ordinary_get_own_property(vm, global, key).is_some_and(|d| d.configurable != Some(true))
}

/// `CanDeclareGlobalVar` (§9.1.1.4.15).
pub(crate) fn can_declare_global_var(vm: &mut Vm, name: &str) -> bool {
    let key = vm.key(name);
    let global = vm.realm.global;
    ordinary_get_own_property(vm, global, key).is_some() || global.borrow(&vm.heap).extensible
}

/// `CanDeclareGlobalFunction` (§9.1.1.4.16).
pub(crate) fn can_declare_global_function(vm: &mut Vm, name: &str) -> bool {
    let key = vm.key(name);
    let global = vm.realm.global;
    match ordinary_get_own_property(vm, global, key) {
        None => global.borrow(&vm.heap).extensible,
        Some(d) if d.configurable == Some(true) => true,
        Some(d) => d.is_data() && d.writable == Some(true) && d.enumerable == Some(true),
    }
}

/// `CreateGlobalFunctionBinding` (§9.1.1.4.18): defines (or, when it
/// cannot be redefined, only sets) the global property `name` to the
/// function `value`.
pub(crate) fn create_global_function_binding(
    vm: &mut Vm,
    name: crate::object::PropertyKey,
    value: Value,
    deletable: bool,
) -> JsResult<()> {
    let global = vm.realm.global;
    let desc = match ordinary_get_own_property(vm, global, name) {
        Some(existing) if existing.configurable != Some(true) => {
            PropertyDescriptor { value: Some(value), ..PropertyDescriptor::default() }
        }
        _ => {
            let mut attributes = Attributes::WRITABLE | Attributes::ENUMERABLE;
            if deletable {
                attributes |= Attributes::CONFIGURABLE;
            }
            PropertyDescriptor::data(value, Attributes::from_bits(attributes))
        }
    };
    if !define_own_property(vm, global, name, desc)? {
        return Err(vm.type_error("Cannot redefine a global function binding"));
    }
    crate::object::internal_methods::set(vm, global, name, value, Value::object(global))?;
    Ok(())
}

fn is_nan(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    Ok(Value::boolean(to_number(vm, v)?.is_nan()))
}

fn is_finite(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    Ok(Value::boolean(to_number(vm, v)?.is_finite()))
}

fn is_ws(u: u16) -> bool {
    matches!(u, 0x09..=0x0D | 0x20 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF)
}

fn parse_float(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let s = to_string(vm, v)?;
    let s = JsString::flatten(&mut vm.heap, s);
    let units: Vec<u16> = s.borrow(&vm.heap).flat().units().skip_while(|&u| is_ws(u)).collect();
    // The longest prefix that is a StrDecimalLiteral.
    let text: String = units.iter().take_while(|&&u| u < 0x80).map(|&u| char::from(u as u8)).collect();
    let bytes = text.as_bytes();
    let mut i = 0;
    if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
        i += 1;
    }
    if text[i..].starts_with("Infinity") {
        let sign = if bytes.first() == Some(&b'-') { -1.0 } else { 1.0 };
        return Ok(Value::number(sign * f64::INFINITY));
    }
    let digits_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let mut any = i > digits_start;
    if i < bytes.len() && bytes[i] == b'.' {
        let j = i + 1;
        let mut k = j;
        while k < bytes.len() && bytes[k].is_ascii_digit() {
            k += 1;
        }
        if k > j || any {
            any = any || k > j;
            i = k;
        }
    }
    if !any {
        return Ok(Value::number(f64::NAN));
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let mut k = i + 1;
        if k < bytes.len() && (bytes[k] == b'+' || bytes[k] == b'-') {
            k += 1;
        }
        let exp_start = k;
        while k < bytes.len() && bytes[k].is_ascii_digit() {
            k += 1;
        }
        if k > exp_start {
            i = k;
        }
    }
    let n = string_to_number(JsStr::Latin1(&bytes[..i]));
    Ok(Value::number(n))
}

fn parse_int(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let s = to_string(vm, v)?;
    let s = JsString::flatten(&mut vm.heap, s);
    let units: Vec<u16> = s.borrow(&vm.heap).flat().units().skip_while(|&u| is_ws(u)).collect();
    let mut i = 0;
    let mut sign = 1.0;
    if let Some(&c) = units.first() {
        if c == u16::from(b'-') {
            sign = -1.0;
        }
        if c == u16::from(b'-') || c == u16::from(b'+') {
            i = 1;
        }
    }
    let radix_arg = info.arg(vm, 1);
    let mut radix = crate::abstract_ops::to_int32(to_number(vm, radix_arg)?);
    let mut strip_prefix = true;
    if radix != 0 {
        if !(2..=36).contains(&radix) {
            return Ok(Value::number(f64::NAN));
        }
        if radix != 16 {
            strip_prefix = false;
        }
    } else {
        radix = 10;
    }
    if strip_prefix
        && units.len() >= i + 2
        && units[i] == u16::from(b'0')
        && (units[i + 1] == u16::from(b'x') || units[i + 1] == u16::from(b'X'))
    {
        i += 2;
        radix = 16;
    }
    let radix = radix as u32;
    let mut n = 0.0f64;
    let start = i;
    while i < units.len() {
        let Some(d) = char::from_u32(u32::from(units[i])).and_then(|c| c.to_digit(radix)) else { break };
        n = n * f64::from(radix) + f64::from(d);
        i += 1;
    }
    if i == start {
        return Ok(Value::number(f64::NAN));
    }
    if radix == 10 && i - start > 15 {
        // Re-parse decimal digits exactly (long numbers round differently).
        let digits: String = units[start..i].iter().map(|&u| char::from(u as u8)).collect();
        n = digits.parse::<f64>().unwrap_or(n);
    }
    Ok(Value::number(sign * n))
}

/// What `encodeURI` leaves alone and `decodeURI` leaves encoded beyond the
/// unreserved set: the reserved characters and `#`.
const URI_RESERVED_AND_HASH: &str = ";/?:@&=+$,#";
const URI_UNESCAPED_EXTRA: &str = "-_.!~*'()";

fn encode(vm: &mut Vm, info: &CallInfo, extra_unescaped: &str) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let s = to_string(vm, v)?;
    let s = JsString::flatten(&mut vm.heap, s);
    let units: Vec<u16> = s.borrow(&vm.heap).flat().units().collect();
    let mut out = String::new();
    let mut k = 0;
    while k < units.len() {
        let c = units[k];
        if c < 0x80 {
            let ch = char::from(c as u8);
            if ch.is_ascii_alphanumeric() || URI_UNESCAPED_EXTRA.contains(ch) || extra_unescaped.contains(ch) {
                out.push(ch);
                k += 1;
                continue;
            }
        }
        let cp = if (0xDC00..0xE000).contains(&c) {
            return Err(vm.throw_error(super::error::ErrorKind::Uri, "URI malformed"));
        } else if (0xD800..0xDC00).contains(&c) {
            let Some(&next) = units.get(k + 1).filter(|&&n| (0xDC00..0xE000).contains(&n)) else {
                return Err(vm.throw_error(super::error::ErrorKind::Uri, "URI malformed"));
            };
            k += 1;
            0x10000 + ((u32::from(c) - 0xD800) << 10) + (u32::from(next) - 0xDC00)
        } else {
            u32::from(c)
        };
        let mut buf = [0u8; 4];
        let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
        for b in ch.encode_utf8(&mut buf).bytes() {
            let _ = write!(out, "%{b:02X}");
        }
        k += 1;
    }
    Ok(vm.string(&out))
}

fn encode_uri(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    encode(vm, info, URI_RESERVED_AND_HASH)
}

fn encode_uri_component(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    encode(vm, info, "")
}

fn hex_value(u: u16) -> Option<u8> {
    char::from_u32(u32::from(u)).and_then(|c| c.to_digit(16)).map(|d| d as u8)
}

fn decode(vm: &mut Vm, info: &CallInfo, reserved: &str) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let s = to_string(vm, v)?;
    let s = JsString::flatten(&mut vm.heap, s);
    let units: Vec<u16> = s.borrow(&vm.heap).flat().units().collect();
    let malformed = |vm: &mut Vm| vm.throw_error(super::error::ErrorKind::Uri, "URI malformed");
    let mut b = StringBuilder::new();
    let mut k = 0;
    let byte_at = |k: usize| -> Option<u8> {
        if units.get(k) != Some(&u16::from(b'%')) {
            return None;
        }
        Some(hex_value(*units.get(k + 1)?)? * 16 + hex_value(*units.get(k + 2)?)?)
    };
    while k < units.len() {
        if units[k] != u16::from(b'%') {
            b.push(units[k]);
            k += 1;
            continue;
        }
        let Some(first) = byte_at(k) else { return Err(malformed(vm)) };
        if first < 0x80 {
            let ch = char::from(first);
            if reserved.contains(ch) {
                for &u in &units[k..k + 3] {
                    b.push(u);
                }
            } else {
                b.push(u16::from(first));
            }
            k += 3;
            continue;
        }
        let n = match first {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return Err(malformed(vm)),
        };
        let mut bytes = [first, 0, 0, 0];
        for (i, slot) in bytes.iter_mut().enumerate().take(n).skip(1) {
            match byte_at(k + 3 * i) {
                Some(byte) if byte & 0xC0 == 0x80 => *slot = byte,
                _ => return Err(malformed(vm)),
            }
        }
        let Ok(text) = std::str::from_utf8(&bytes[..n]) else { return Err(malformed(vm)) };
        for c in text.chars() {
            b.push_char(c);
        }
        k += 3 * n;
    }
    Ok(Value::string(b.finish(&mut vm.heap)))
}

fn decode_uri(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    decode(vm, info, URI_RESERVED_AND_HASH)
}

fn decode_uri_component(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    decode(vm, info, "")
}

/// `eval(x)` called indirectly: global, sloppy unless the text says
/// otherwise.
fn eval(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = info.arg(vm, 0);
    perform_eval(vm, x, None)
}

/// `PerformEval` (§19.2.1.1). A direct call passes its call site's scope
/// table: the eval code then reads and writes the caller's bindings and
/// runs with its environment and `this`. (A sloppy direct eval's `var`s
/// stay local to the eval code inside functions.)
pub(crate) fn perform_eval(vm: &mut Vm, x: Value, direct: Option<DirectEval>) -> JsResult<Value> {
    if !x.is_string() {
        return Ok(x);
    }
    let strict = direct.as_ref().is_some_and(|d| d.scope.strict);
    let text = vm.rust_string(x)?;
    let source = std::rc::Rc::new(crate::bytecode::Source::new("eval", text));
    // Eval code runs for its caller's script or module (`import()` in it
    // resolves from there).
    crate::bytecode::inherit_referrer(vm, &source);
    let outer = direct.as_ref().map(|d| std::rc::Rc::clone(&d.scope));
    let code = match crate::compiler::compile_eval(vm, &source, strict, outer) {
        Ok(code) => code,
        Err(e) => return Err(vm.compile_error(&e)),
    };
    match direct {
        Some(d) => crate::interpreter::run_eval(vm, code, d.env, d.this),
        None => crate::interpreter::run_script(vm, code),
    }
}

/// The caller's context of a direct eval.
pub(crate) struct DirectEval {
    /// The call site's scope table.
    pub scope: std::rc::Rc<crate::bytecode::EvalScope>,
    /// The caller's current environment.
    pub env: Option<js_gc::Gc<crate::environment::DeclarativeEnvironment>>,
    /// The caller's `this`.
    pub this: Value,
}

/// Installs the global value and function properties.
pub(crate) fn install(vm: &mut Vm) {
    let global = vm.realm.global;
    value_property(vm, global, "globalThis", Value::object(global), Attributes::METHOD);
    value_property(vm, global, "NaN", Value::number(f64::NAN), Attributes::NONE);
    value_property(vm, global, "Infinity", Value::number(f64::INFINITY), Attributes::NONE);
    value_property(vm, global, "undefined", Value::UNDEFINED, Attributes::NONE);
    let functions: [(&str, u32, crate::function::NativeFn); 9] = [
        ("eval", 1, eval),
        ("isNaN", 1, is_nan),
        ("isFinite", 1, is_finite),
        ("parseFloat", 1, parse_float),
        ("parseInt", 2, parse_int),
        ("encodeURI", 1, encode_uri),
        ("encodeURIComponent", 1, encode_uri_component),
        ("decodeURI", 1, decode_uri),
        ("decodeURIComponent", 1, decode_uri_component),
    ];
    for (name, length, f) in functions {
        let function = method(vm, global, name, length, f);
        if name == "eval" {
            vm.realm.intrinsics.eval = function;
        }
        if name == "parseFloat" || name == "parseInt" {
            // Number.parseFloat/parseInt are the same function objects.
            let number_key = vm.key("Number");
            if let Ok(number) = crate::object::internal_methods::get(vm, global, number_key, Value::object(global))
                && let Some(n) = number.as_object()
            {
                value_property(vm, n, name, Value::object(function), Attributes::METHOD);
            }
        }
    }
}
