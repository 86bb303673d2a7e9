//! Suspension: generator creation, `yield` and `yield*` in generators and
//! async generators, and `await` in async functions. A suspended frame is
//! saved on the heap ([`crate::interpreter::generator`]), so the loop
//! leaves (or goes on in the caller) rather than recursing.

use js_gc::Gc;

use super::{FrameContext, Next};
use crate::bytecode::Reg;
use crate::interpreter::{IteratorRecord, async_function, async_generator, deliver_result, generator};
use crate::object::PropertyKey;
use crate::object::internal_methods as im;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// `GeneratorStart`: saves the frame, its parameters bound, into a new
/// generator object, which the call returns.
#[inline(always)]
pub(in crate::interpreter) fn generator_start(vm: &mut Vm, cx: &FrameContext, pc: usize) -> JsResult<Next> {
    let callee = vm.stack.frames.last().and_then(|f| f.callee);
    let is_async = cx.code.borrow(&vm.heap).is_async;
    let default =
        if is_async { vm.realm.intrinsics.async_generator_prototype } else { vm.realm.intrinsics.generator_prototype };
    let proto = generator::generator_prototype(vm, callee, default)?;
    let Some((saved, frame)) = generator::save_top_frame(vm, pc as u32 + 1) else {
        return Ok(Next::Exit(Value::UNDEFINED));
    };
    let g = if is_async {
        async_generator::create(vm, saved, proto)
    } else {
        generator::create_generator(vm, saved, proto)
    };
    if frame.entry {
        return Ok(Next::Exit(Value::object(g)));
    }
    if let Some(caller) = vm.stack.frames.last() {
        let dst = caller.base + usize::from(frame.return_dst.0);
        vm.stack.pc += 1;
        vm.stack.registers[dst] = Value::object(g);
    }
    Ok(Next::Frame)
}

/// `Await`: suspends the async function and hands its promise to the
/// caller.
#[inline(always)]
pub(in crate::interpreter) fn await_value(vm: &mut Vm, cx: &FrameContext, pc: usize, value: Reg) -> JsResult<Next> {
    let v = cx.get(vm, value);
    let Some(owner) = vm.stack.frames.last().and_then(|f| f.generator) else {
        return Err(vm.type_error("await outside an async function"));
    };
    let (frame, promise) = async_function::suspend(vm, owner, v, pc as u32)?;
    Ok(match deliver_result(vm, &frame, promise) {
        Some(result) => Next::Exit(result),
        None => Next::Frame,
    })
}

/// `AsyncYield` (AsyncGeneratorYield): goes on with the next queued
/// request, or suspends.
#[inline(always)]
pub(in crate::interpreter) fn async_yield(
    vm: &mut Vm,
    cx: &FrameContext,
    pc: usize,
    value: Reg,
    mode: Reg,
) -> JsResult<Next> {
    let v = cx.get(vm, value);
    let Some(g) = vm.stack.frames.last().and_then(|f| f.generator) else {
        return Err(vm.type_error("yield outside a generator"));
    };
    match async_generator::yield_value(vm, g, v)? {
        async_generator::YieldOutcome::Continue(m, sent) => {
            cx.set(vm, value, sent);
            cx.set(vm, mode, Value::number(f64::from(m as u8)));
            Ok(Next::Fall)
        }
        async_generator::YieldOutcome::Suspend => {
            if let Some((saved, _)) = generator::save_top_frame(vm, pc as u32) {
                async_generator::suspend_at_yield(vm, g, saved);
            }
            Ok(Next::Exit(Value::UNDEFINED))
        }
    }
}

/// `Yield`: suspends the generator; the loop leaves with the yielded
/// value.
#[inline(always)]
pub(in crate::interpreter) fn yield_value(vm: &mut Vm, cx: &FrameContext, pc: usize, value: Reg, raw: bool) -> Next {
    let v = cx.get(vm, value);
    if let Some((saved, frame)) = generator::save_top_frame(vm, pc as u32)
        && let Some(g) = frame.generator
    {
        generator::suspend(vm, g, saved, raw);
    }
    Next::Exit(v)
}

/// The inner iterator record of a `yield*`.
fn delegate_record(vm: &mut Vm, cx: &FrameContext, iter: Reg) -> JsResult<(Value, Value, Gc<IteratorRecord>)> {
    let Some(record) = cx.get(vm, iter).as_internal::<IteratorRecord>() else {
        return Err(vm.type_error("yield* on a non-iterator"));
    };
    let rec = record.borrow(&vm.heap);
    Ok((rec.iterator, rec.next, record))
}

/// `AsyncDelegateStep`: one step of `yield*` in an async generator.
#[inline(always)]
pub(in crate::interpreter) fn async_delegate(
    vm: &mut Vm,
    cx: &FrameContext,
    result: Reg,
    iter: Reg,
    value: Reg,
    mode: Reg,
) -> JsResult<()> {
    let v = cx.get(vm, value);
    let m = cx.get(vm, mode).as_number().unwrap_or(0.0);
    let (iterator, next, _) = delegate_record(vm, cx, iter)?;
    if m == 0.0 {
        let r = im::call(vm, next, iterator, &[v])?;
        cx.set(vm, result, r);
    } else {
        let (name, missing) = if m == 1.0 { (vm.names.throw, 4.0) } else { (vm.names.return_, 3.0) };
        match im::get_method(vm, iterator, PropertyKey::String(name))? {
            Some(f) => {
                let r = im::call(vm, f, iterator, &[v])?;
                cx.set(vm, result, r);
            }
            None => cx.set(vm, mode, Value::number(missing)),
        }
    }
    Ok(())
}

/// `YieldDelegateStep`: one step of `yield*`.
#[inline(always)]
pub(in crate::interpreter) fn delegate(
    vm: &mut Vm,
    cx: &FrameContext,
    result: Reg,
    iter: Reg,
    value: Reg,
    mode: Reg,
) -> JsResult<()> {
    let v = cx.get(vm, value);
    let m = cx.get(vm, mode).as_number().unwrap_or(0.0);
    let (iterator, next, record) = delegate_record(vm, cx, iter)?;
    let inner = if m == 0.0 {
        im::call(vm, next, iterator, &[v])?
    } else if m == 1.0 {
        let key = PropertyKey::String(vm.names.throw);
        if let Some(t) = im::get_method(vm, iterator, key)? {
            im::call(vm, t, iterator, &[v])?
        } else {
            crate::builtins::iteration::iterator_close(vm, record)?;
            return Err(throw_missing_throw_method(vm));
        }
    } else {
        let key = PropertyKey::String(vm.names.return_);
        if let Some(ret) = im::get_method(vm, iterator, key)? {
            im::call(vm, ret, iterator, &[v])?
        } else {
            cx.set(vm, mode, Value::number(3.0));
            return Ok(());
        }
    };
    if !inner.is_object() {
        return Err(vm.type_error("Iterator result is not an object"));
    }
    cx.set(vm, result, inner);
    Ok(())
}

/// `ThrowMissingThrowMethod`: `yield*` over an iterator without `throw`.
#[cold]
pub(in crate::interpreter) fn throw_missing_throw_method(vm: &mut Vm) -> Exception {
    vm.type_error("The iterator does not provide a 'throw' method")
}
