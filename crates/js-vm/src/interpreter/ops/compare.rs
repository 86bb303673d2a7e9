//! Equality (§7.2.13 `IsLooselyEqual`, §7.2.14 `IsStrictlyEqual`), the
//! relational operators (§13.10), `instanceof` and `in`; also the test of
//! a fused compare-and-branch.

use super::FrameContext;
use crate::abstract_ops::{is_loosely_equal, is_strictly_equal, to_property_key};
use crate::bytecode::{CompareOp, Reg};
use crate::interpreter::{instance_of, operators};
use crate::object::internal_methods::has_property;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `Eq`/`Ne`: `dst = (lhs == rhs) != negate`.
#[inline(always)]
pub(in crate::interpreter) fn loosely_equal(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    lhs: Reg,
    rhs: Reg,
    negate: bool,
) -> JsResult<()> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let equal = loosely_equal_values(vm, a, b)?;
    cx.set(vm, dst, Value::boolean(equal != negate));
    Ok(())
}

/// `IsLooselyEqual` with two Numbers and identical bits inline.
#[inline(always)]
fn loosely_equal_values(vm: &mut Vm, a: Value, b: Value) -> JsResult<bool> {
    Ok(match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => x == y,
        // The same bits that are not a Number are the same constant or
        // cell: equal without IsLooselyEqual's type dispatch.
        _ if a == b => true,
        _ => is_loosely_equal(vm, a, b)?,
    })
}

/// `StrictEq`/`StrictNe`: `dst = (lhs === rhs) != negate`.
#[inline(always)]
pub(in crate::interpreter) fn strictly_equal(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    lhs: Reg,
    rhs: Reg,
    negate: bool,
) {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let equal = strictly_equal_values(vm, a, b);
    cx.set(vm, dst, Value::boolean(equal != negate));
}

/// `lhs op rhs` for a relational or strict-equality `op`.
#[inline(always)]
pub(in crate::interpreter) fn holds(vm: &mut Vm, op: CompareOp, a: Value, b: Value) -> JsResult<bool> {
    Ok(match (op, a.as_number(), b.as_number()) {
        (CompareOp::Lt, Some(x), Some(y)) => x < y,
        (CompareOp::Le, Some(x), Some(y)) => x <= y,
        (CompareOp::Gt, Some(x), Some(y)) => x > y,
        (CompareOp::Ge, Some(x), Some(y)) => x >= y,
        (CompareOp::Lt, ..) => operators::less_than(vm, a, b)?,
        (CompareOp::Le, ..) => operators::less_or_equal(vm, a, b)?,
        (CompareOp::Gt, ..) => operators::greater_than(vm, a, b)?,
        (CompareOp::Ge, ..) => operators::greater_or_equal(vm, a, b)?,
        (CompareOp::StrictEq, ..) => strictly_equal_values(vm, a, b),
        (CompareOp::StrictNe, ..) => !strictly_equal_values(vm, a, b),
        (CompareOp::Eq, ..) => loosely_equal_values(vm, a, b)?,
        (CompareOp::Ne, ..) => !loosely_equal_values(vm, a, b)?,
    })
}

/// `IsStrictlyEqual` with the cases that need no cell read inline: two
/// Numbers, identical bits, and two values of which neither is a string
/// or a BigInt (the only types whose distinct cells can be equal).
#[inline(always)]
fn strictly_equal_values(vm: &mut Vm, a: Value, b: Value) -> bool {
    match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => x == y,
        _ if a == b => true,
        _ if !(a.is_string() || a.is_bigint()) => false,
        _ => is_strictly_equal(vm, a, b),
    }
}

/// `Lt`, `Le`, `Gt`, `Ge`: `dst = lhs op rhs`.
#[inline(always)]
pub(in crate::interpreter) fn relational(
    vm: &mut Vm,
    cx: &FrameContext,
    op: CompareOp,
    dst: Reg,
    lhs: Reg,
    rhs: Reg,
) -> JsResult<()> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let result = holds(vm, op, a, b)?;
    cx.set(vm, dst, Value::boolean(result));
    Ok(())
}

/// `InstanceOf`: `dst = lhs instanceof rhs`.
#[inline(always)]
pub(in crate::interpreter) fn instance_of_operator(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    lhs: Reg,
    rhs: Reg,
) -> JsResult<()> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let result = instance_of(vm, a, b)?;
    cx.set(vm, dst, Value::boolean(result));
    Ok(())
}

/// `In`: `dst = lhs in rhs`.
#[inline(always)]
pub(in crate::interpreter) fn has_property_operator(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    lhs: Reg,
    rhs: Reg,
) -> JsResult<()> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    let Some(o) = b.as_object() else {
        return Err(vm.type_error("Cannot use 'in' operator to search for a key in a non-object"));
    };
    let k = to_property_key(vm, a)?;
    let result = has_property(vm, o, k)?;
    cx.set(vm, dst, Value::boolean(result));
    Ok(())
}
