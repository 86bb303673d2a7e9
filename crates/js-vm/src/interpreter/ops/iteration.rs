//! Iteration: sync iterators (`for-of`, destructuring, spread; §7.4),
//! async iterators (`for await`), and `for-in` enumeration. Iterator
//! records live in registers as internal cells.

use super::{FrameContext, Next};
use crate::bytecode::{AsyncIterationOp, Reg, Target};
use crate::interpreter::{ForInIterator, IteratorRecord};
use crate::object::PropertyKey;
use crate::object::internal_methods as im;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// `GetIterator`: `dst = GetIterator(src, sync)`.
#[inline(always)]
pub(in crate::interpreter) fn get_iterator(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let record = crate::builtins::iteration::get_iterator(vm, v)?;
    cx.set(vm, dst, Value::internal(record.into()));
    Ok(())
}

/// `IteratorNext`: `dst = IteratorStepValue(iter)`, or a jump to `done`.
#[inline(always)]
pub(in crate::interpreter) fn iterator_next(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    iter: Reg,
    done: Target,
) -> JsResult<Next> {
    let Some(record) = cx.get(vm, iter).as_internal::<IteratorRecord>() else { return Ok(Next::Jump(done)) };
    match crate::builtins::iteration::iterator_step_value(vm, record)? {
        Some(v) => {
            cx.set(vm, dst, v);
            Ok(Next::Fall)
        }
        None => Ok(Next::Jump(done)),
    }
}

/// `IteratorClose` on a normal early exit.
#[inline(always)]
pub(in crate::interpreter) fn iterator_close(vm: &mut Vm, cx: &FrameContext, iter: Reg) -> JsResult<()> {
    if let Some(record) = cx.get(vm, iter).as_internal::<IteratorRecord>() {
        crate::builtins::iteration::iterator_close(vm, record)?;
    }
    Ok(())
}

/// `IteratorCloseOnThrow`: the pending throw wins over anything `return`
/// does, except termination.
#[inline(always)]
pub(in crate::interpreter) fn iterator_close_on_throw(vm: &mut Vm, cx: &FrameContext, iter: Reg) -> JsResult<()> {
    if let Some(record) = cx.get(vm, iter).as_internal::<IteratorRecord>()
        && let Err(Exception::Terminated) = crate::builtins::iteration::iterator_close(vm, record)
    {
        return Err(Exception::Terminated);
    }
    Ok(())
}

/// `GetAsyncIterator`: `dst = GetIterator(src, async)`.
#[inline(always)]
pub(in crate::interpreter) fn get_async_iterator(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let record = crate::builtins::async_iteration::get_async_iterator(vm, v)?;
    cx.set(vm, dst, Value::internal(record.into()));
    Ok(())
}

/// Runs one of the [`AsyncIterationOp`] instructions.
pub(in crate::interpreter) fn async_iteration(vm: &mut Vm, cx: &FrameContext, op: AsyncIterationOp) -> JsResult<Next> {
    match op {
        AsyncIterationOp::Next { dst, iter } => async_next(vm, cx, dst, iter).map(|()| Next::Fall),
        AsyncIterationOp::Step { dst, result, iter, done } => async_step(vm, cx, dst, result, iter, done),
        AsyncIterationOp::Return { dst, iter, skip, quiet } => async_return(vm, cx, dst, iter, skip, quiet),
    }
}

/// `Next`: calls `next`; the result is awaited next.
#[inline(always)]
fn async_next(vm: &mut Vm, cx: &FrameContext, dst: Reg, iter: Reg) -> JsResult<()> {
    let Some(record) = cx.get(vm, iter).as_internal::<IteratorRecord>() else {
        return Err(vm.type_error("for await over a non-iterator"));
    };
    let (iterator, next) = {
        let rec = record.borrow(&vm.heap);
        (rec.iterator, rec.next)
    };
    let v = im::call(vm, next, iterator, &[])?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `Step`: the awaited result of `next`.
#[inline(always)]
fn async_step(vm: &mut Vm, cx: &FrameContext, dst: Reg, result: Reg, iter: Reg, done: Target) -> JsResult<Next> {
    let Some(record) = cx.get(vm, iter).as_internal::<IteratorRecord>() else {
        return Err(vm.type_error("for await over a non-iterator"));
    };
    let res = cx.get(vm, result);
    match crate::builtins::async_iteration::async_iterator_result(vm, record, res)? {
        Some(v) => {
            cx.set(vm, dst, v);
            Ok(Next::Fall)
        }
        None => Ok(Next::Jump(done)),
    }
}

/// `Return`: starts AsyncIteratorClose.
#[inline(always)]
fn async_return(vm: &mut Vm, cx: &FrameContext, dst: Reg, iter: Reg, skip: Target, quiet: bool) -> JsResult<Next> {
    let record = cx.get(vm, iter).as_internal::<IteratorRecord>();
    let Some(record) = record.filter(|r| !r.borrow(&vm.heap).done) else { return Ok(Next::Jump(skip)) };
    let iterator = record.borrow(&vm.heap).iterator;
    record.borrow_mut(&mut vm.heap).done = true;
    let key = PropertyKey::String(vm.names.return_);
    let result = im::get_method(vm, iterator, key).and_then(|method| match method {
        Some(m) => im::call(vm, m, iterator, &[]).map(Some),
        None => Ok(None),
    });
    match result {
        Ok(Some(v)) => {
            cx.set(vm, dst, v);
            Ok(Next::Fall)
        }
        Ok(None) => Ok(Next::Jump(skip)),
        Err(Exception::Throw(_)) if quiet => Ok(Next::Jump(skip)),
        Err(e) => Err(e),
    }
}

/// `ThrowIfNotObject`: an async iterator's awaited `return` result.
#[inline(always)]
pub(in crate::interpreter) fn throw_if_not_object(vm: &mut Vm, cx: &FrameContext, src: Reg) -> JsResult<()> {
    if !cx.get(vm, src).is_object() {
        return Err(vm.type_error("Iterator result is not an object"));
    }
    Ok(())
}

/// `ForInStart`: the `for-in` enumerator of `obj` (`undefined` for a
/// nullish one).
#[inline(always)]
pub(in crate::interpreter) fn for_in_start(vm: &mut Vm, cx: &FrameContext, dst: Reg, obj: Reg) -> JsResult<()> {
    let v = cx.get(vm, obj);
    let it = match crate::builtins::iteration::for_in_start(vm, v)? {
        Some(it) => Value::internal(it.into()),
        None => Value::UNDEFINED,
    };
    cx.set(vm, dst, it);
    Ok(())
}

/// `ForInNext`: `dst = next key`, or a jump to `done`.
#[inline(always)]
pub(in crate::interpreter) fn for_in_next(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    iter: Reg,
    done: Target,
) -> JsResult<Next> {
    let Some(it) = cx.get(vm, iter).as_internal::<ForInIterator>() else { return Ok(Next::Jump(done)) };
    match crate::builtins::iteration::for_in_next(vm, it)? {
        Some(key) => {
            cx.set(vm, dst, key);
            Ok(Next::Fall)
        }
        None => Ok(Next::Jump(done)),
    }
}
