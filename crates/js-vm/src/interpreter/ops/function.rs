//! Function objects and what a function's prologue reads: closure
//! creation, the callee and `new.target`, the arguments object and rest
//! parameters.

use std::rc::Rc;

use super::FrameContext;
use crate::bytecode::{CodeKind, Reg};
use crate::function::Function;
use crate::object::ObjectKind;
use crate::value::Value;
use crate::vm::Vm;

/// `Closure`: a function object for `functions[index]` over the current
/// environment; arrows also capture `this`, `new.target` and the home
/// object.
#[inline(always)]
pub(in crate::interpreter) fn closure(vm: &mut Vm, cx: &FrameContext, dst: Reg, index: u32) {
    let child = cx.code.borrow(&vm.heap).functions[index as usize];
    let env = vm.stack.frames.last().and_then(|f| f.env);
    let (this, new_target) = match vm.stack.frames.last() {
        Some(f) => (vm.stack.registers[f.base], f.new_target),
        None => (Value::UNDEFINED, Value::UNDEFINED),
    };
    let is_arrow = child.borrow(&vm.heap).kind == CodeKind::Arrow;
    // Arrows inherit this/new.target; inside an arrow, the frame's own
    // values are already the inherited ones.
    let (this, new_target) = if is_arrow { (this, new_target) } else { (Value::UNDEFINED, Value::UNDEFINED) };
    let f = crate::builtins::function::make_closure(vm, child, env, this, new_target);
    if is_arrow {
        // `super` in an arrow is its enclosing method's (§10.2.1.1: arrows
        // have a lexical [[HomeObject]]).
        let home = vm.stack.frames.last().and_then(|f| f.callee).and_then(|c| match c.borrow(&vm.heap).as_function() {
            Some(Function::Closure(cl)) => cl.home_object,
            _ => None,
        });
        if let Some(home) = home
            && let ObjectKind::Function(Function::Closure(cl)) = &mut f.borrow_mut(&mut vm.heap).kind
        {
            cl.home_object = Some(home);
        }
    }
    cx.set(vm, dst, Value::object(f));
}

/// `LoadCallee`: the running function.
#[inline(always)]
pub(in crate::interpreter) fn load_callee(vm: &mut Vm, cx: &FrameContext, dst: Reg) {
    let callee = vm.stack.frames.last().and_then(|f| f.callee);
    cx.set(vm, dst, callee.map_or(Value::UNDEFINED, Value::object));
}

/// `LoadNewTarget`.
#[inline(always)]
pub(in crate::interpreter) fn load_new_target(vm: &mut Vm, cx: &FrameContext, dst: Reg) {
    let v = vm.stack.frames.last().map_or(Value::UNDEFINED, |f| f.new_target);
    cx.set(vm, dst, v);
}

/// `CreateArguments`: the arguments object, mapped to the parameters in
/// sloppy functions with simple parameter lists.
#[inline(always)]
pub(in crate::interpreter) fn create_arguments(vm: &mut Vm, cx: &FrameContext, dst: Reg, mapped: bool) {
    let map = if mapped { Some(Rc::clone(&cx.code.borrow(&vm.heap).mapped_parameters)) } else { None };
    let arguments = crate::builtins::function::create_arguments_object(vm, map.as_deref());
    cx.set(vm, dst, Value::object(arguments));
}

/// `CreateRestArray`: the rest parameter.
#[inline(always)]
pub(in crate::interpreter) fn create_rest_array(vm: &mut Vm, cx: &FrameContext, dst: Reg, from: u16) {
    let rest = crate::builtins::function::create_rest_array(vm, usize::from(from));
    cx.set(vm, dst, Value::object(rest));
}
