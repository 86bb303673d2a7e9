//! Calls: `f(...)` and `new f(...)` with their arguments in consecutive
//! registers (compiled callees get a frame in the same loop), the spread
//! forms, direct `eval`, and `return`.

use js_gc::Gc;

use super::{FrameContext, Next};
use crate::bytecode::{Code, Reg};
use crate::function::Function;
use crate::interpreter::CallInfo;
use crate::interpreter::{
    Entered, call_function, construct_function, enter_function, is_constructor, return_from_frame, run_native,
};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// The callee's source text, for "x is not a function" messages.
fn callee_text(vm: &Vm, code: Gc<Code>, pc: usize) -> String {
    let c = code.borrow(&vm.heap);
    let start = c.position(pc as u32) as usize;
    let text = &c.source.text;
    let end = text[start.min(text.len())..].find('(').map_or(start, |i| start + i);
    text.get(start..end).map_or_else(|| "expression".to_owned(), |s| s.trim().to_owned())
}

/// The TypeError of calling a value that is not callable.
#[cold]
fn not_callable(vm: &mut Vm, code: Gc<Code>, pc: usize) -> Exception {
    let text = callee_text(vm, code, pc);
    vm.type_error(&format!("{text} is not a function"))
}

/// The TypeError of `new` on a value that is not a constructor.
#[cold]
fn not_constructor(vm: &mut Vm, code: Gc<Code>, pc: usize) -> Exception {
    let text = callee_text(vm, code, pc);
    let text = text.strip_prefix("new ").unwrap_or(&text).trim().to_owned();
    vm.type_error(&format!("{text} is not a constructor"))
}

/// `Call`: a native callee runs at once; a compiled one gets a frame and
/// the loop continues in it.
#[inline(always)]
pub(in crate::interpreter) fn call(
    vm: &mut Vm,
    cx: &FrameContext,
    pc: usize,
    (dst, callee, this, args, argc): (Reg, Reg, Reg, Reg, u16),
) -> JsResult<Next> {
    let (f, this_value) = (cx.get(vm, callee), cx.get(vm, this));
    let Some(fobj) = f.as_object().filter(|o| o.borrow(&vm.heap).is_callable()) else {
        return Err(not_callable(vm, cx.code, pc));
    };
    vm.check_interrupt()?;
    vm.safepoint()?;
    // A builtin of the current realm (most calls of natives) needs none of
    // enter_function's cases: no realm switch, no frame.
    if let Some(Function::Native(native)) = fobj.borrow(&vm.heap).as_function()
        && native.realm == vm.realm_id
    {
        let body = native.call;
        let info = CallInfo {
            callee: fobj,
            this: this_value,
            new_target: None,
            args_base: cx.index(args),
            argc: usize::from(argc),
        };
        let result = run_native(vm, body, &info)?;
        cx.set(vm, dst, result);
        return Ok(Next::Fall);
    }
    match enter_function(vm, fobj, this_value, cx.index(args), usize::from(argc), None, dst, false)? {
        Entered::Native(v) => {
            cx.set(vm, dst, v);
            Ok(Next::Fall)
        }
        Entered::Frame => Ok(Next::Frame),
    }
}

/// `CallSpread`: a call with the arguments in an array.
#[inline(always)]
pub(in crate::interpreter) fn call_spread(
    vm: &mut Vm,
    cx: &FrameContext,
    pc: usize,
    (dst, callee, this, args): (Reg, Reg, Reg, Reg),
) -> JsResult<()> {
    let (f, this_value, arr) = (cx.get(vm, callee), cx.get(vm, this), cx.get(vm, args));
    let Some(fobj) = f.as_object().filter(|o| o.borrow(&vm.heap).is_callable()) else {
        return Err(not_callable(vm, cx.code, pc));
    };
    let list = crate::builtins::array::dense_values(vm, arr);
    let v = call_function(vm, fobj, this_value, &list)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `New`: `[[Construct]]`, a compiled constructor in a frame of this loop.
#[inline(always)]
pub(in crate::interpreter) fn new(
    vm: &mut Vm,
    cx: &FrameContext,
    pc: usize,
    (dst, callee, args, argc): (Reg, Reg, Reg, u16),
) -> JsResult<Next> {
    let f = cx.get(vm, callee);
    let Some(fobj) = f.as_object().filter(|o| is_constructor(vm, *o)) else {
        return Err(not_constructor(vm, cx.code, pc));
    };
    vm.check_interrupt()?;
    vm.safepoint()?;
    match enter_function(vm, fobj, Value::UNDEFINED, cx.index(args), usize::from(argc), Some(fobj), dst, false)? {
        Entered::Native(v) => {
            cx.set(vm, dst, v);
            Ok(Next::Fall)
        }
        Entered::Frame => Ok(Next::Frame),
    }
}

/// `NewSpread`: `new` with the arguments in an array.
#[inline(always)]
pub(in crate::interpreter) fn new_spread(
    vm: &mut Vm,
    cx: &FrameContext,
    pc: usize,
    (dst, callee, args): (Reg, Reg, Reg),
) -> JsResult<()> {
    let (f, arr) = (cx.get(vm, callee), cx.get(vm, args));
    let Some(fobj) = f.as_object().filter(|o| is_constructor(vm, *o)) else {
        return Err(not_constructor(vm, cx.code, pc));
    };
    let list = crate::builtins::array::dense_values(vm, arr);
    let v = construct_function(vm, fobj, &list, fobj)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `CallEval`: a direct eval when the callee is the realm's `eval`
/// (§19.2.1.1 `PerformEval` with the caller's scope), else an ordinary
/// call.
#[inline(always)]
pub(in crate::interpreter) fn call_eval(
    vm: &mut Vm,
    cx: &FrameContext,
    pc: usize,
    (dst, callee, args, argc, scope): (Reg, Reg, Reg, u16, u32),
) -> JsResult<()> {
    let f = cx.get(vm, callee);
    let Some(fobj) = f.as_object().filter(|o| o.borrow(&vm.heap).is_callable()) else {
        return Err(not_callable(vm, cx.code, pc));
    };
    let list: Vec<Value> = (0..usize::from(argc)).map(|i| vm.stack.registers[cx.index(args) + i]).collect();
    let v = if fobj == vm.realm.intrinsics.eval {
        let x = list.first().copied().unwrap_or_default();
        let direct = crate::builtins::global::DirectEval {
            scope: std::rc::Rc::clone(&cx.code.borrow(&vm.heap).eval_scopes[scope as usize]),
            env: vm.stack.frames.last().and_then(|f| f.env),
            this: vm.stack.registers[cx.base],
        };
        crate::builtins::global::perform_eval(vm, x, Some(direct))?
    } else {
        call_function(vm, fobj, Value::UNDEFINED, &list)?
    };
    cx.set(vm, dst, v);
    Ok(())
}

/// `Return`: pops the frame; the loop goes on in the caller's, or leaves
/// when it was the entry frame.
#[inline(always)]
pub(in crate::interpreter) fn return_value(vm: &mut Vm, cx: &FrameContext, src: Reg) -> JsResult<Next> {
    let v = cx.get(vm, src);
    Ok(match return_from_frame(vm, v)? {
        Some(result) => Next::Exit(result),
        None => Next::Frame,
    })
}
