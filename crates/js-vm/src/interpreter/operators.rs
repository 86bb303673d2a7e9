//! The slow paths of the arithmetic, bitwise and relational operators
//! (§13.15.3 `ApplyStringOrNumericBinaryOperator`, §13.10 relational), and
//! the numeric unary operators, for Numbers and BigInts alike.
//!
//! The interpreter tests for two Numbers inline before it calls in here, so
//! BigInt support costs the Number paths nothing.

use num_bigint::BigInt;

use crate::abstract_ops::{
    Numeric, PreferredType, is_less_than, to_int32, to_number, to_numeric, to_primitive, to_string,
};
use crate::bigint::ops::{self as bigint_ops, BigIntError};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

pub use crate::bytecode::NumericOp;

impl NumericOp {
    /// The operator on two Numbers (§6.1.6.1).
    #[allow(
        clippy::inline_always,
        reason = "every call site passes a constant operator: inlined, the match folds away on the Number fast path"
    )]
    #[inline(always)]
    pub fn on_numbers(self, x: f64, y: f64) -> f64 {
        match self {
            NumericOp::Add => x + y,
            NumericOp::Sub => x - y,
            NumericOp::Mul => x * y,
            NumericOp::Div => x / y,
            NumericOp::Rem => int32_remainder(x, y).unwrap_or_else(|| js_remainder(x, y)),
            NumericOp::Exp => js_pow(x, y),
            NumericOp::BitAnd => f64::from(int32(x) & int32(y)),
            NumericOp::BitOr => f64::from(int32(x) | int32(y)),
            NumericOp::BitXor => f64::from(int32(x) ^ int32(y)),
            NumericOp::Shl => f64::from(int32(x).wrapping_shl(shift_count(y))),
            NumericOp::Sar => f64::from(int32(x) >> shift_count(y)),
            NumericOp::Shr => f64::from(int32(x).cast_unsigned() >> shift_count(y)),
        }
    }

    /// The operator on two BigInts (§6.1.6.2); `None` for `>>>`, which
    /// BigInts do not have (a TypeError).
    fn on_bigints(self, x: &BigInt, y: &BigInt) -> Option<Result<BigInt, BigIntError>> {
        Some(match self {
            NumericOp::Add => Ok(x + y),
            NumericOp::Sub => Ok(x - y),
            NumericOp::Mul => bigint_ops::multiply(x, y),
            NumericOp::Div => bigint_ops::divide(x, y),
            NumericOp::Rem => bigint_ops::remainder(x, y),
            NumericOp::Exp => bigint_ops::exponentiate(x, y),
            NumericOp::BitAnd => Ok(x & y),
            NumericOp::BitOr => Ok(x | y),
            NumericOp::BitXor => Ok(x ^ y),
            NumericOp::Shl => bigint_ops::left_shift(x, y),
            NumericOp::Sar => bigint_ops::signed_right_shift(x, y),
            NumericOp::Shr => return None,
        })
    }
}

/// The TypeError of an operator given a BigInt and a Number.
fn mixed_types_error(vm: &mut Vm) -> Exception {
    vm.type_error("Cannot mix BigInt and other types, use explicit conversions")
}

/// The RangeError of a failed BigInt operation.
fn bigint_error(vm: &mut Vm, e: BigIntError) -> Exception {
    vm.range_error(e.message())
}

/// Steps 5–9 of `ApplyStringOrNumericBinaryOperator`: `op` on two numeric
/// values of the same type, a TypeError if their types differ.
pub fn apply_numeric(vm: &mut Vm, op: NumericOp, x: Numeric, y: Numeric) -> JsResult<Value> {
    match (x, y) {
        (Numeric::Number(x), Numeric::Number(y)) => Ok(Value::number(op.on_numbers(x, y))),
        (Numeric::BigInt(x), Numeric::BigInt(y)) => {
            let result = op.on_bigints(x.borrow(&vm.heap).value(), y.borrow(&vm.heap).value());
            match result {
                Some(Ok(n)) => Ok(vm.bigint(n)),
                Some(Err(e)) => Err(bigint_error(vm, e)),
                None => Err(vm.type_error("BigInts have no unsigned right shift, use >> instead")),
            }
        }
        _ => Err(mixed_types_error(vm)),
    }
}

/// `a + b`: string concatenation if either primitive is a string.
pub fn add(vm: &mut Vm, a: Value, b: Value) -> JsResult<Value> {
    // Converting `b` can run user code (and a collection): the primitive
    // made from `a` stays rooted meanwhile.
    let mark = vm.stack.temp_roots.len();
    let result = add_rooted(vm, a, b);
    vm.stack.temp_roots.truncate(mark);
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
        return match JsString::concat_within_limit(&mut vm.heap, sa, sb) {
            Some(s) => Ok(Value::string(s)),
            None => Err(vm.range_error("Invalid string length")),
        };
    }
    let x = to_numeric(vm, pa)?;
    let y = to_numeric(vm, pb)?;
    apply_numeric(vm, NumericOp::Add, x, y)
}

/// A numeric binary operator after `ToNumeric` on both sides.
#[inline]
pub fn numeric(vm: &mut Vm, a: Value, b: Value, op: NumericOp) -> JsResult<Value> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(Value::number(op.on_numbers(x, y)));
    }
    numeric_slow(vm, a, b, op)
}

#[inline(never)]
fn numeric_slow(vm: &mut Vm, a: Value, b: Value, op: NumericOp) -> JsResult<Value> {
    let mark = vm.stack.temp_roots.len();
    let result = to_numeric(vm, a).and_then(|x| {
        // `ToNumeric(b)` can run user code: a BigInt made by `a`'s
        // `valueOf` stays rooted meanwhile.
        if let Numeric::BigInt(big) = x {
            vm.keep_alive(Value::bigint(big));
        }
        let y = to_numeric(vm, b)?;
        apply_numeric(vm, op, x, y)
    });
    vm.stack.temp_roots.truncate(mark);
    result
}

/// Unary `-` (`Number::unaryMinus`, `BigInt::unaryMinus`).
pub fn negate(vm: &mut Vm, v: Value) -> JsResult<Value> {
    match to_numeric(vm, v)? {
        Numeric::Number(n) => Ok(Value::number(-n)),
        Numeric::BigInt(b) => {
            let n = -b.borrow(&vm.heap).value();
            Ok(vm.bigint(n))
        }
    }
}

/// Unary `~` (`Number::bitwiseNOT`, `BigInt::bitwiseNOT`).
pub fn bitwise_not(vm: &mut Vm, v: Value) -> JsResult<Value> {
    match to_numeric(vm, v)? {
        Numeric::Number(n) => Ok(Value::number(f64::from(!to_int32(n)))),
        Numeric::BigInt(b) => {
            let n = bigint_ops::bitwise_not(b.borrow(&vm.heap).value());
            Ok(vm.bigint(n))
        }
    }
}

/// `++`/`--` on a value that is not a Number: adds `delta` (±1) to its
/// numeric value.
pub fn increment(vm: &mut Vm, v: Value, delta: i8) -> JsResult<Value> {
    match to_numeric(vm, v)? {
        Numeric::Number(n) => Ok(Value::number(n + f64::from(delta))),
        Numeric::BigInt(b) => {
            let n = b.borrow(&vm.heap).value() + delta;
            Ok(vm.bigint(n))
        }
    }
}

/// Unary `+`: `ToNumber`, so a BigInt operand is a TypeError.
pub fn unary_plus(vm: &mut Vm, v: Value) -> JsResult<Value> {
    Ok(Value::number(to_number(vm, v)?))
}

/// `x` as an int32 when it is exactly one (−0 gives 0): the test of the
/// int32 fast paths. Numbers are doubles here, so this is a conversion
/// and a compare, no tag check.
#[allow(clippy::inline_always, reason = "part of the int32 fast paths inlined into the dispatch loop")]
#[inline(always)]
pub fn exact_int32(x: f64) -> Option<i32> {
    // `as` saturates and maps NaN to 0; the round trip rejects all three.
    let i = x as i32;
    (f64::from(i) == x).then_some(i)
}

/// `ToInt32`, with the int32 case first: the general one truncates and
/// reduces modulo 2^32 (`fmod`).
#[allow(clippy::inline_always, reason = "part of the int32 fast paths inlined into the dispatch loop")]
#[inline(always)]
fn int32(x: f64) -> i32 {
    match exact_int32(x) {
        Some(i) => i,
        None => to_int32(x),
    }
}

/// A shift's count: `ToUint32(y) & 31`. ToInt32 and ToUint32 agree on the
/// low five bits.
#[allow(clippy::inline_always, reason = "part of the int32 fast paths inlined into the dispatch loop")]
#[inline(always)]
fn shift_count(y: f64) -> u32 {
    int32(y).cast_unsigned() & 31
}

/// `Number::remainder` on two int32s without `fmod`: `None` for a zero
/// divisor (NaN) and for operands that are not both int32s.
#[allow(clippy::inline_always, reason = "part of the int32 fast paths inlined into the dispatch loop")]
#[inline(always)]
fn int32_remainder(x: f64, y: f64) -> Option<f64> {
    let (a, b) = (exact_int32(x)?, exact_int32(y)?);
    if b == 0 {
        return None;
    }
    // `wrapping_rem`: i32::MIN % -1 is 0 (and -0 below), not an overflow.
    let r = a.wrapping_rem(b);
    // The sign of the dividend, a zero result included: `-4 % 2` and
    // `-0 % 5` are -0.
    Some(if r == 0 && x.is_sign_negative() { -0.0 } else { f64::from(r) })
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
    use crate::abstract_ops::to_uint32;

    #[test]
    fn remainder_and_power_edge_cases() {
        assert_eq!(js_remainder(-1.0, 3.0).to_bits(), (-1.0f64).to_bits());
        assert_eq!(js_remainder(5.0, f64::INFINITY), 5.0);
        assert!(js_pow(1.0, f64::INFINITY).is_nan());
        assert!(js_pow(1.0, f64::NAN).is_nan());
        assert_eq!(js_pow(2.0, 10.0), 1024.0);
    }

    /// The int32 remainder agrees with `fmod` bit for bit, signed zeros
    /// included, and leaves zero divisors and non-integers to it.
    #[test]
    fn int32_remainder_matches_fmod() {
        let values = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -4.0, 7.0, 13.0, -13.0, 2_147_483_647.0, -2_147_483_648.0];
        for &x in &values {
            for &y in &values {
                let fast = int32_remainder(x, y);
                if y == 0.0 {
                    assert_eq!(fast, None);
                    continue;
                }
                assert_eq!(fast.map(f64::to_bits), Some(js_remainder(x, y).to_bits()), "{x} % {y}");
            }
        }
        assert_eq!(int32_remainder(7.5, 2.0), None);
        assert_eq!(int32_remainder(f64::NAN, 2.0), None);
        assert_eq!(int32_remainder(4_294_967_296.0, 3.0), None);
        assert_eq!(NumericOp::Rem.on_numbers(-4.0, 2.0).to_bits(), (-0.0f64).to_bits());
        assert!(NumericOp::Rem.on_numbers(5.0, 0.0).is_nan());
    }

    /// The bitwise operators' int32 path and the general ToInt32 agree.
    #[test]
    fn bitwise_fast_path_matches_to_int32() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            5.5,
            -5.5,
            31.0,
            32.0,
            33.0,
            2_147_483_647.0,
            -2_147_483_648.0,
            4_294_967_295.0,
            4_294_967_296.0,
            1e20,
            f64::NAN,
            f64::INFINITY,
        ];
        for &x in &values {
            assert_eq!(int32(x), to_int32(x), "ToInt32({x})");
            assert_eq!(shift_count(x), to_uint32(x) & 31, "ToUint32({x}) & 31");
        }
        assert_eq!(NumericOp::Shr.on_numbers(-1.0, 0.0), 4_294_967_295.0);
        assert_eq!(NumericOp::Shl.on_numbers(1.0, 33.0), 2.0);
        assert_eq!(NumericOp::Sar.on_numbers(-8.0, 1.0), -4.0);
    }
}
