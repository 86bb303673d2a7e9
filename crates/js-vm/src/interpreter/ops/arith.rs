//! Arithmetic and bitwise operators (§13.15.3
//! `ApplyStringOrNumericBinaryOperator`) and the numeric unary operators:
//! two Numbers are handled here, everything else (strings, BigInts,
//! objects) in [`crate::interpreter::operators`].

use super::FrameContext;
use crate::abstract_ops::{to_int32, to_numeric};
use crate::bytecode::Reg;
use crate::interpreter::operators::{self, NumericOp};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `Add`: `dst = lhs + rhs`.
#[inline(always)]
pub(in crate::interpreter) fn add(vm: &mut Vm, cx: &FrameContext, dst: Reg, lhs: Reg, rhs: Reg) -> JsResult<()> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let v = match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => Value::number(x + y),
        _ => operators::add(vm, a, b)?,
    };
    cx.set(vm, dst, v);
    Ok(())
}

/// `Sub`: `dst = lhs - rhs`.
#[inline(always)]
pub(in crate::interpreter) fn sub(vm: &mut Vm, cx: &FrameContext, dst: Reg, lhs: Reg, rhs: Reg) -> JsResult<()> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let v = match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => Value::number(x - y),
        _ => operators::numeric(vm, a, b, NumericOp::Sub)?,
    };
    cx.set(vm, dst, v);
    Ok(())
}

/// The other binary numeric operators (`*`, `/`, `%`, `**`, the bitwise
/// operators and shifts): `dst = lhs op rhs`.
#[inline(always)]
pub(in crate::interpreter) fn binary(
    vm: &mut Vm,
    cx: &FrameContext,
    op: NumericOp,
    dst: Reg,
    lhs: Reg,
    rhs: Reg,
) -> JsResult<()> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let v = operators::numeric(vm, a, b, op)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// The `…Int` forms of the binary numeric operators: `dst = lhs op value`
/// with the right operand an int32 literal, so no register holds it and
/// only the left one is tested for a Number. (`Add` of a string and the
/// literal still concatenates, through the general path.)
#[inline(always)]
pub(in crate::interpreter) fn binary_int(
    vm: &mut Vm,
    cx: &FrameContext,
    op: NumericOp,
    dst: Reg,
    lhs: Reg,
    value: i32,
) -> JsResult<()> {
    let a = cx.get(vm, lhs);
    let y = f64::from(value);
    let v = match a.as_number() {
        Some(x) => Value::number(op.on_numbers(x, y)),
        None if op == NumericOp::Add => operators::add(vm, a, Value::number(y))?,
        None => operators::numeric(vm, a, Value::number(y), op)?,
    };
    cx.set(vm, dst, v);
    Ok(())
}

/// `Neg`: `dst = -src`.
#[inline(always)]
pub(in crate::interpreter) fn neg(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let v = match v.as_number() {
        Some(n) => Value::number(-n),
        None => operators::negate(vm, v)?,
    };
    cx.set(vm, dst, v);
    Ok(())
}

/// `ToNumber`: `dst = +src`.
#[inline(always)]
pub(in crate::interpreter) fn to_number(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let v = if v.as_number().is_some() { v } else { operators::unary_plus(vm, v)? };
    cx.set(vm, dst, v);
    Ok(())
}

/// `ToNumeric`: the old value of a postfix update.
#[inline(always)]
pub(in crate::interpreter) fn to_numeric_value(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let v = if v.as_number().is_some() { v } else { to_numeric(vm, v)?.into_value() };
    cx.set(vm, dst, v);
    Ok(())
}

/// `BitNot`: `dst = ~src`.
#[inline(always)]
pub(in crate::interpreter) fn bit_not(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let v = match v.as_number() {
        Some(n) => Value::number(f64::from(!to_int32(n))),
        None => operators::bitwise_not(vm, v)?,
    };
    cx.set(vm, dst, v);
    Ok(())
}

/// `Inc`/`Dec`: `dst = src + delta` (±1) on a numeric.
#[inline(always)]
pub(in crate::interpreter) fn increment(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg, delta: i8) -> JsResult<()> {
    let v = cx.get(vm, src);
    let v = match v.as_number() {
        Some(n) => Value::number(n + f64::from(delta)),
        None => operators::increment(vm, v, delta)?,
    };
    cx.set(vm, dst, v);
    Ok(())
}
