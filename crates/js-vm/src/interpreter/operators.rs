//! The slow paths of the arithmetic, bitwise and relational operators
//! (§13.15.3 `ApplyStringOrNumericBinaryOperator`, §13.10 relational).

use crate::abstract_ops::{PreferredType, is_less_than, to_int32, to_numeric, to_primitive, to_string, to_uint32};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `a + b`: string concatenation if either primitive is a string.
pub fn add(vm: &mut Vm, a: Value, b: Value) -> JsResult<Value> {
    // Converting `b` can run user code (and a collection): the primitive
    // made from `a` stays rooted meanwhile.
    let mark = vm.temp_roots.len();
    let result = add_rooted(vm, a, b);
    vm.temp_roots.truncate(mark);
    result
}

fn add_rooted(vm: &mut Vm, a: Value, b: Value) -> JsResult<Value> {
    let pa = to_primitive(vm, a, PreferredType::Default)?;
    vm.keep_alive(pa);
    let pb = to_primitive(vm, b, PreferredType::Default)?;
    vm.keep_alive(pb);
    if pa.is_string() || pb.is_string() {
        let sa = to_string(vm, pa)?;
        vm.keep_alive(Value::string(sa));
        let sb = to_string(vm, pb)?;
        return Ok(Value::string(JsString::concat(&mut vm.heap, sa, sb)));
    }
    let x = to_numeric(vm, pa)?;
    let y = to_numeric(vm, pb)?;
    Ok(Value::number(x + y))
}

/// A numeric binary operator after `ToNumeric` on both sides.
#[inline]
pub fn numeric(vm: &mut Vm, a: Value, b: Value, op: fn(f64, f64) -> f64) -> JsResult<Value> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(Value::number(op(x, y)));
    }
    let x = to_numeric(vm, a)?;
    let y = to_numeric(vm, b)?;
    Ok(Value::number(op(x, y)))
}

/// A bitwise operator on `ToInt32` of both sides.
#[inline]
pub fn int32(vm: &mut Vm, a: Value, b: Value, op: fn(i32, i32) -> i32) -> JsResult<Value> {
    let x = to_int32(to_numeric(vm, a)?);
    let y = to_int32(to_numeric(vm, b)?);
    Ok(Value::number(f64::from(op(x, y))))
}

/// `a >>> b`.
pub fn unsigned_shift(vm: &mut Vm, a: Value, b: Value) -> JsResult<Value> {
    let x = to_uint32(to_numeric(vm, a)?);
    let y = to_uint32(to_numeric(vm, b)?);
    Ok(Value::number(f64::from(x >> (y & 31))))
}

/// `Number::remainder`: the sign of the dividend, exact (`fmod`).
pub fn js_remainder(x: f64, y: f64) -> f64 {
    if y.is_infinite() && x.is_finite() {
        return x;
    }
    x % y
}

/// `Number::exponentiate`: like `powf` except that `(±1) ** ±∞` and
/// `1 ** NaN` are NaN.
pub fn js_pow(x: f64, y: f64) -> f64 {
    if y.is_nan() || (x.abs() == 1.0 && y.is_infinite()) {
        return f64::NAN;
    }
    x.powf(y)
}

/// `a < b`.
pub fn less_than(vm: &mut Vm, a: Value, b: Value) -> JsResult<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(x < y);
    }
    Ok(is_less_than(vm, a, b, true)? == Some(true))
}

/// `a > b`.
pub fn greater_than(vm: &mut Vm, a: Value, b: Value) -> JsResult<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(x > y);
    }
    Ok(is_less_than(vm, b, a, false)? == Some(true))
}

/// `a <= b`.
pub fn less_or_equal(vm: &mut Vm, a: Value, b: Value) -> JsResult<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(x <= y);
    }
    Ok(is_less_than(vm, b, a, false)? == Some(false))
}

/// `a >= b`.
pub fn greater_or_equal(vm: &mut Vm, a: Value, b: Value) -> JsResult<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(x >= y);
    }
    Ok(is_less_than(vm, a, b, true)? == Some(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainder_and_power_edge_cases() {
        assert_eq!(js_remainder(-1.0, 3.0).to_bits(), (-1.0f64).to_bits());
        assert_eq!(js_remainder(5.0, f64::INFINITY), 5.0);
        assert!(js_pow(1.0, f64::INFINITY).is_nan());
        assert!(js_pow(1.0, f64::NAN).is_nan());
        assert_eq!(js_pow(2.0, 10.0), 1024.0);
    }
}
