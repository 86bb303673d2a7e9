//! Number and Number.prototype (§21.1).

use super::exact_decimal::{ExactDecimal, shortest_digits};
use super::locale::number_format::NumberFormat;
use super::{constructor, method, value_property};
use crate::abstract_ops::{Numeric, number_to_string, to_integer_or_infinity, to_number, to_numeric};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::{Attributes, ObjectKind};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn number_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let n = if info.argc == 0 {
        0.0
    } else {
        let v = info.arg(vm, 0);
        match to_numeric(vm, v)? {
            Numeric::Number(n) => n,
            Numeric::BigInt(b) => crate::bigint::ops::to_number(b.borrow(&vm.heap).value()),
        }
    };
    let Some(nt) = info.new_target else { return Ok(Value::number(n)) };
    let proto = prototype_from_constructor(vm, nt, |i| i.number_prototype)?;
    Ok(Value::object(vm.new_object_of_kind(Some(proto), ObjectKind::Number(n))))
}

fn this_number(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<f64> {
    if let Some(n) = info.this.as_number() {
        return Ok(n);
    }
    if let Some(o) = info.this.as_object()
        && let ObjectKind::Number(n) = o.borrow(&vm.heap).kind
    {
        return Ok(n);
    }
    Err(vm.type_error(&format!("Number.prototype.{name} requires that 'this' be a Number")))
}

/// `Number::toString(x`, radix) for radix 2..=36 other than 10.
pub fn number_to_radix_string(x: f64, radix: u32) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".to_owned() } else { "-Infinity".to_owned() };
    }
    let negative = x < 0.0;
    let x = x.abs();
    let mut int = x.trunc();
    let mut frac = x - int;
    let mut digits = Vec::new();
    if int == 0.0 {
        digits.push(b'0');
    }
    while int >= 1.0 {
        let d = (int % f64::from(radix)) as u32;
        digits.push(char::from_digit(d, radix).map_or(b'0', |c| c as u8));
        int = (int / f64::from(radix)).trunc();
    }
    digits.reverse();
    let mut out = String::from_utf8(digits).unwrap_or_default();
    if frac > 0.0 {
        out.push('.');
        // Enough digits to round-trip a double in any radix.
        let mut count = 0;
        while frac > 0.0 && count < 52 {
            frac *= f64::from(radix);
            let d = frac.trunc() as u32;
            out.push(char::from_digit(d, radix).unwrap_or('0'));
            frac -= f64::from(d);
            count += 1;
        }
    }
    if negative { format!("-{out}") } else { out }
}

fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = this_number(vm, info, "toString")?;
    let radix_arg = info.arg(vm, 0);
    let radix = if radix_arg.is_undefined() { 10.0 } else { to_integer_or_infinity(to_number(vm, radix_arg)?) };
    if !(2.0..=36.0).contains(&radix) {
        return Err(vm.range_error("toString() radix must be between 2 and 36"));
    }
    let text = if radix == 10.0 { number_to_string(x) } else { number_to_radix_string(x, radix as u32) };
    Ok(vm.string(&text))
}

fn value_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::number(this_number(vm, info, "valueOf")?))
}

fn to_fixed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = this_number(vm, info, "toFixed")?;
    let digits_arg = info.arg(vm, 0);
    let f = to_integer_or_infinity(to_number(vm, digits_arg)?);
    if !(0.0..=100.0).contains(&f) {
        return Err(vm.range_error("toFixed() digits argument must be between 0 and 100"));
    }
    if !x.is_finite() || x.abs() >= 1e21 {
        return Ok(vm.string(&number_to_string(x)));
    }
    Ok(vm.string(&fixed_text(x, f as u32)))
}

/// toFixed steps 7–12 for a finite `x` below 10^21 in magnitude.
fn fixed_text(x: f64, f: u32) -> String {
    // -0 is not below 0, so it has no sign; -0.0001 is, and keeps it.
    let sign = if x < 0.0 { "-" } else { "" };
    let mut m = if x == 0.0 { vec![b'0'] } else { ExactDecimal::of(x.abs()).fixed_digits(f) };
    if f != 0 {
        let f = f as usize;
        if m.len() <= f {
            let mut padded = vec![b'0'; f + 1 - m.len()];
            padded.extend_from_slice(&m);
            m = padded;
        }
        m.insert(m.len() - f, b'.');
    }
    format!("{sign}{}", String::from_utf8_lossy(&m))
}

/// `"e+5"` / `"e-7"`: the exponent part both toExponential and toPrecision write.
fn exponent_suffix(e: i32) -> String {
    format!("e{}{}", if e >= 0 { '+' } else { '-' }, e.unsigned_abs())
}

/// `d.ddd` from significant digits, the point after the first.
fn with_point_after_first(digits: &[u8]) -> String {
    let text = String::from_utf8_lossy(digits);
    if digits.len() > 1 { format!("{}.{}", &text[..1], &text[1..]) } else { text.into_owned() }
}

fn to_precision(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = this_number(vm, info, "toPrecision")?;
    let p_arg = info.arg(vm, 0);
    if p_arg.is_undefined() {
        return Ok(vm.string(&number_to_string(x)));
    }
    let p = to_integer_or_infinity(to_number(vm, p_arg)?);
    if !x.is_finite() {
        return Ok(vm.string(&number_to_string(x)));
    }
    if !(1.0..=100.0).contains(&p) {
        return Err(vm.range_error("toPrecision() argument must be between 1 and 100"));
    }
    Ok(vm.string(&precision_text(x, p as usize)))
}

/// toPrecision steps 6–12 for a finite `x`.
fn precision_text(x: f64, p: usize) -> String {
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, e) = if x == 0.0 { (vec![b'0'; p], 0) } else { ExactDecimal::of(x.abs()).significant_digits(p) };
    let text = String::from_utf8_lossy(&digits);
    let p = p as i32;
    let body = if e < -6 || e >= p {
        format!("{}{}", with_point_after_first(&digits), exponent_suffix(e))
    } else if e == p - 1 {
        text.into_owned()
    } else if e >= 0 {
        let int_len = e as usize + 1;
        format!("{}.{}", &text[..int_len], &text[int_len..])
    } else {
        format!("0.{}{text}", "0".repeat((-e - 1) as usize))
    };
    format!("{sign}{body}")
}

fn to_exponential(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = this_number(vm, info, "toExponential")?;
    let f_arg = info.arg(vm, 0);
    let f = to_integer_or_infinity(to_number(vm, f_arg)?);
    if !x.is_finite() {
        return Ok(vm.string(&number_to_string(x)));
    }
    if !(0.0..=100.0).contains(&f) {
        return Err(vm.range_error("toExponential() argument must be between 0 and 100"));
    }
    let fraction_digits = if f_arg.is_undefined() { None } else { Some(f as usize) };
    Ok(vm.string(&exponential_text(x, fraction_digits)))
}

/// toExponential steps 6–14 for a finite `x`; `None` asks for as many
/// digits as it takes to identify the double (step 10.b).
fn exponential_text(x: f64, fraction_digits: Option<usize>) -> String {
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, e) = match fraction_digits {
        _ if x == 0.0 => (vec![b'0'; fraction_digits.unwrap_or(0) + 1], 0),
        Some(f) => ExactDecimal::of(x.abs()).significant_digits(f + 1),
        None => shortest_digits(x.abs()),
    };
    format!("{sign}{}{}", with_point_after_first(&digits), exponent_suffix(e))
}

/// `Number.prototype.toLocaleString([locales [, options]])` (ECMA-402
/// §20.2.1): formatted as `Intl.NumberFormat(locales, options)` would in en.
fn to_locale_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = this_number(vm, info, "toLocaleString")?;
    let locales = info.arg(vm, 0);
    let options = info.arg(vm, 1);
    let format = NumberFormat::new(vm, locales, options, "Number.prototype.toLocaleString")?;
    Ok(vm.string(&format.format_number(x)))
}

fn is_finite(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::boolean(info.arg(vm, 0).as_number().is_some_and(f64::is_finite)))
}

fn is_nan(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::boolean(info.arg(vm, 0).as_number().is_some_and(f64::is_nan)))
}

fn is_integer(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::boolean(info.arg(vm, 0).as_number().is_some_and(|n| n.is_finite() && n.trunc() == n)))
}

fn is_safe_integer(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let ok = info
        .arg(vm, 0)
        .as_number()
        .is_some_and(|n| n.is_finite() && n.trunc() == n && n.abs() <= 9_007_199_254_740_991.0);
    Ok(Value::boolean(ok))
}

/// Installs Number and Number.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.number_prototype;
    let ctor = constructor(vm, "Number", 1, number_ctor, proto);
    let constants = [
        ("MAX_SAFE_INTEGER", 9_007_199_254_740_991.0),
        ("MIN_SAFE_INTEGER", -9_007_199_254_740_991.0),
        ("MAX_VALUE", f64::MAX),
        ("MIN_VALUE", 5e-324),
        ("EPSILON", f64::EPSILON),
        ("POSITIVE_INFINITY", f64::INFINITY),
        ("NEGATIVE_INFINITY", f64::NEG_INFINITY),
        ("NaN", f64::NAN),
    ];
    for (name, value) in constants {
        value_property(vm, ctor, name, Value::number(value), Attributes::NONE);
    }
    method(vm, ctor, "isFinite", 1, is_finite);
    method(vm, ctor, "isNaN", 1, is_nan);
    method(vm, ctor, "isInteger", 1, is_integer);
    method(vm, ctor, "isSafeInteger", 1, is_safe_integer);
    method(vm, proto, "toString", 1, to_string_method);
    method(vm, proto, "toLocaleString", 0, to_locale_string);
    method(vm, proto, "valueOf", 0, value_of);
    method(vm, proto, "toFixed", 1, to_fixed);
    method(vm, proto, "toPrecision", 1, to_precision);
    method(vm, proto, "toExponential", 1, to_exponential);
}
