//! Explicit resource management (`using`, `await using`): a block's
//! DisposeCapability, its resources, and DisposeResources stepped so an
//! async disposal can `Await` between resources.

use super::{FrameContext, Next};
use crate::builtins::dispose_capability::{self as capability, DisposeCapability, DisposeStep, Hint};
use crate::bytecode::{DisposeOp, Reg, Target};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Runs one of the [`DisposeOp`] instructions.
pub(in crate::interpreter) fn execute(vm: &mut Vm, cx: &FrameContext, op: DisposeOp) -> JsResult<Next> {
    match op {
        DisposeOp::NewCapability { dst } => new_dispose_capability(vm, cx, dst),
        DisposeOp::Add { cap, value, asynchronous } => add(vm, cx, cap, value, asynchronous)?,
        DisposeOp::Begin { cap, error } => dispose_begin(vm, cx, cap, error),
        DisposeOp::Step { cap, dst, done } => return dispose_step(vm, cx, cap, dst, done),
        DisposeOp::Awaited { cap, value, mode } => dispose_awaited(vm, cx, cap, value, mode),
        DisposeOp::End { cap } => dispose_end(vm, cx, cap)?,
    }
    Ok(Next::Fall)
}

/// `NewCapability`.
#[inline(always)]
fn new_dispose_capability(vm: &mut Vm, cx: &FrameContext, dst: Reg) {
    let cap = capability::new_dispose_capability(vm);
    cx.set(vm, dst, Value::internal(cap.into()));
}

/// `Add`: AddDisposableResource for a `using` declaration.
#[inline(always)]
fn add(vm: &mut Vm, cx: &FrameContext, cap: Reg, value: Reg, asynchronous: bool) -> JsResult<()> {
    if let Some(c) = cx.get(vm, cap).as_internal::<DisposeCapability>() {
        let hint = if asynchronous { Hint::Async } else { Hint::Sync };
        let v = cx.get(vm, value);
        capability::add_disposable_resource(vm, c, v, hint)?;
    }
    Ok(())
}

/// `Begin`: starts DisposeResources with the block's completion.
#[inline(always)]
fn dispose_begin(vm: &mut Vm, cx: &FrameContext, cap: Reg, error: Reg) {
    if let Some(c) = cx.get(vm, cap).as_internal::<DisposeCapability>() {
        let error = (error.0 != u16::MAX).then(|| cx.get(vm, error));
        capability::begin_disposal(vm, c, error);
    }
}

/// `Step`: disposes until a resource needs an `Await`.
#[inline(always)]
fn dispose_step(vm: &mut Vm, cx: &FrameContext, cap: Reg, dst: Reg, done: Target) -> JsResult<Next> {
    let Some(c) = cx.get(vm, cap).as_internal::<DisposeCapability>() else { return Ok(Next::Jump(done)) };
    match capability::dispose_step(vm, c)? {
        DisposeStep::Await(v) => {
            cx.set(vm, dst, v);
            Ok(Next::Fall)
        }
        DisposeStep::Done => Ok(Next::Jump(done)),
    }
}

/// `Awaited`: the outcome of a disposal's `Await`.
#[inline(always)]
fn dispose_awaited(vm: &mut Vm, cx: &FrameContext, cap: Reg, value: Reg, mode: Reg) {
    if let Some(c) = cx.get(vm, cap).as_internal::<DisposeCapability>() {
        let v = cx.get(vm, value);
        let outcome = if cx.get(vm, mode).as_number() == Some(1.0) { Err(v) } else { Ok(v) };
        capability::record_awaited(vm, c, outcome);
    }
}

/// `End`: rethrows the completion DisposeResources carried.
#[inline(always)]
fn dispose_end(vm: &mut Vm, cx: &FrameContext, cap: Reg) -> JsResult<()> {
    if let Some(c) = cx.get(vm, cap).as_internal::<DisposeCapability>() {
        capability::finish_disposal(vm, c)?;
    }
    Ok(())
}
