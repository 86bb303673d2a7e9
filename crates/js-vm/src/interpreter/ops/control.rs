//! Control flow: jumps (conditional ones test truthiness, nullishness or a
//! fused comparison), the back-edge interrupt check and safepoint, and
//! the throws the compiler emits.

use super::compare::holds;
use super::{FrameContext, Next};
use crate::abstract_ops::to_boolean;
use crate::bytecode::{CompareOp, Reg, Target};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// ToBoolean with the two boolean values tested first.
#[inline(always)]
fn truthy(vm: &Vm, v: Value) -> bool {
    if v == Value::TRUE {
        true
    } else if v == Value::FALSE {
        false
    } else {
        to_boolean(vm, v)
    }
}

/// `Jump`: a backward jump (a loop's back edge) polls for interrupts and
/// is a safepoint.
#[inline(always)]
pub(in crate::interpreter) fn jump(vm: &mut Vm, pc: usize, target: Target) -> JsResult<Next> {
    if (target as usize) <= pc {
        vm.check_interrupt()?;
        vm.safepoint()?;
    }
    Ok(Next::Jump(target))
}

/// `JumpIfTrue`, or `JumpIfFalse` when `when` is false.
#[inline(always)]
pub(in crate::interpreter) fn jump_if(vm: &mut Vm, cx: &FrameContext, cond: Reg, when: bool, target: Target) -> Next {
    let v = cx.get(vm, cond);
    if truthy(vm, v) == when { Next::Jump(target) } else { Next::Fall }
}

/// `JumpUnless`: the branch of a fused comparison.
#[inline(always)]
pub(in crate::interpreter) fn jump_unless(
    vm: &mut Vm,
    cx: &FrameContext,
    op: CompareOp,
    lhs: Reg,
    rhs: Reg,
    target: Target,
) -> JsResult<Next> {
    let (a, b) = (cx.get(vm, lhs), cx.get(vm, rhs));
    Ok(if holds(vm, op, a, b)? { Next::Fall } else { Next::Jump(target) })
}

/// `JumpUnlessInt`: `JumpUnless` against an int32 literal.
#[inline(always)]
pub(in crate::interpreter) fn jump_unless_int(
    vm: &mut Vm,
    cx: &FrameContext,
    op: CompareOp,
    lhs: Reg,
    value: i32,
    target: Target,
) -> JsResult<Next> {
    let a = cx.get(vm, lhs);
    Ok(if holds(vm, op, a, Value::number(f64::from(value)))? { Next::Fall } else { Next::Jump(target) })
}

/// `JumpIfNullish`, or `JumpIfNotNullish` when `when` is false.
#[inline(always)]
pub(in crate::interpreter) fn jump_if_nullish(
    vm: &Vm,
    cx: &FrameContext,
    src: Reg,
    when: bool,
    target: Target,
) -> Next {
    if cx.get(vm, src).is_nullish() == when { Next::Jump(target) } else { Next::Fall }
}

/// `JumpIfNotUndefined`.
#[inline(always)]
pub(in crate::interpreter) fn jump_if_defined(vm: &Vm, cx: &FrameContext, src: Reg, target: Target) -> Next {
    if cx.get(vm, src).is_undefined() { Next::Fall } else { Next::Jump(target) }
}

/// `JumpIfInt`: the completion dispatch at the end of a `finally` block.
#[inline(always)]
pub(in crate::interpreter) fn jump_if_int(vm: &Vm, cx: &FrameContext, src: Reg, value: i32, target: Target) -> Next {
    if cx.get(vm, src).as_number() == Some(f64::from(value)) { Next::Jump(target) } else { Next::Fall }
}

/// `Throw`.
#[inline(always)]
pub(in crate::interpreter) fn throw(vm: &Vm, cx: &FrameContext, src: Reg) -> Exception {
    Exception::Throw(cx.get(vm, src))
}

/// `ThrowConstAssign`: an assignment to a `const` binding.
#[cold]
pub(in crate::interpreter) fn throw_const_assign(vm: &mut Vm) -> Exception {
    vm.type_error("Assignment to constant variable.")
}

/// `ThrowReferenceError` with the message constant `message`.
#[cold]
pub(in crate::interpreter) fn throw_reference_error(vm: &mut Vm, cx: &FrameContext, message: u32) -> Exception {
    let m = cx.constant(vm, message);
    let text = m.as_string().map(|s| s.borrow(&vm.heap).flat().to_rust_string()).unwrap_or_default();
    vm.reference_error(&text)
}
