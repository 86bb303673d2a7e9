//! Declarative environments and the captured bindings in them: scopes
//! entered and left, bindings read and written `depth` environments out,
//! and the temporal dead zone checks (§9.1.1.1).

use js_gc::Gc;

use super::FrameContext;
use crate::bytecode::Reg;
use crate::environment::{DeclarativeEnvironment, ImportBinding};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// The environment `depth` levels out from the running frame's.
#[inline(always)]
fn env_at(vm: &Vm, depth: u16) -> Option<Gc<DeclarativeEnvironment>> {
    let mut env = vm.stack.frames.last().and_then(|f| f.env);
    for _ in 0..depth {
        env = env.and_then(|e| e.borrow(&vm.heap).outer);
    }
    env
}

/// The `ReferenceError` of a binding read or written in its TDZ.
#[cold]
pub(in crate::interpreter) fn tdz_error(vm: &mut Vm, name: Value) -> Exception {
    let text = name.as_string().map(|s| s.borrow(&vm.heap).flat().to_rust_string()).unwrap_or_default();
    vm.reference_error(&format!("Cannot access '{text}' before initialization"))
}

/// `PushEnv`: a new innermost environment of `slots` uninitialised
/// bindings.
#[inline(always)]
pub(in crate::interpreter) fn push(vm: &mut Vm, slots: u32) {
    let outer = vm.stack.frames.last().and_then(|f| f.env);
    let env = vm.heap.alloc(DeclarativeEnvironment { outer, slots: vec![Value::HOLE; slots as usize] });
    if let Some(f) = vm.stack.frames.last_mut() {
        f.env = Some(env);
    }
}

/// `PopEnv`.
#[inline(always)]
pub(in crate::interpreter) fn pop(vm: &mut Vm) {
    let outer = vm.stack.frames.last().and_then(|f| f.env).and_then(|e| e.borrow(&vm.heap).outer);
    if let Some(f) = vm.stack.frames.last_mut() {
        f.env = outer;
    }
}

/// `CopyEnv`: the per-iteration copy of a `for (let …)` loop's
/// environment (§14.7.4.4 `CreatePerIterationEnvironment`).
#[inline(always)]
pub(in crate::interpreter) fn copy(vm: &mut Vm) {
    if let Some(env) = vm.stack.frames.last().and_then(|f| f.env) {
        let e = env.borrow(&vm.heap);
        let copy = DeclarativeEnvironment { outer: e.outer, slots: e.slots.clone() };
        let copy = vm.heap.alloc(copy);
        if let Some(f) = vm.stack.frames.last_mut() {
            f.env = Some(copy);
        }
    }
}

/// `SaveEnv`.
#[inline(always)]
pub(in crate::interpreter) fn save(vm: &mut Vm, cx: &FrameContext, dst: Reg) {
    let env = vm.stack.frames.last().and_then(|f| f.env);
    cx.set(vm, dst, env.map_or(Value::UNDEFINED, |e| Value::internal(e.into())));
}

/// `RestoreEnv`.
#[inline(always)]
pub(in crate::interpreter) fn restore(vm: &mut Vm, cx: &FrameContext, src: Reg) {
    let env = cx.get(vm, src).as_internal::<DeclarativeEnvironment>();
    if let Some(f) = vm.stack.frames.last_mut() {
        f.env = env;
    }
}

/// `GetEnv`.
#[inline(always)]
pub(in crate::interpreter) fn get(vm: &mut Vm, cx: &FrameContext, dst: Reg, depth: u16, slot: u32) {
    let env = env_at(vm, depth);
    let v = env.map_or(Value::UNDEFINED, |e| e.borrow(&vm.heap).slots[slot as usize]);
    cx.set(vm, dst, v);
}

/// `GetEnvChecked`: a read that throws in the binding's TDZ.
#[inline(always)]
pub(in crate::interpreter) fn get_checked(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    depth: u16,
    slot: u32,
    name: u32,
) -> JsResult<()> {
    let env = env_at(vm, depth);
    let v = env.map_or(Value::UNDEFINED, |e| e.borrow(&vm.heap).slots[slot as usize]);
    if v.is_hole() {
        return Err(tdz_error(vm, cx.constant(vm, name)));
    }
    cx.set(vm, dst, v);
    Ok(())
}

/// `GetImport`: a module's import binding, read through to the exporting
/// module's environment.
#[inline(always)]
pub(in crate::interpreter) fn get_import(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    depth: u16,
    slot: u32,
    name: u32,
) -> JsResult<()> {
    let env = env_at(vm, depth);
    let v = env.map_or(Value::HOLE, |e| e.borrow(&vm.heap).slots[slot as usize]);
    let v = match v.as_internal::<ImportBinding>() {
        Some(binding) => {
            let (target, target_slot) = {
                let b = binding.borrow(&vm.heap);
                (b.env, b.slot)
            };
            target.borrow(&vm.heap).slots[target_slot as usize]
        }
        None => v,
    };
    if v.is_hole() {
        return Err(tdz_error(vm, cx.constant(vm, name)));
    }
    cx.set(vm, dst, v);
    Ok(())
}

/// `SetEnv`.
#[inline(always)]
pub(in crate::interpreter) fn set(vm: &mut Vm, cx: &FrameContext, src: Reg, depth: u16, slot: u32) {
    let v = cx.get(vm, src);
    if let Some(env) = env_at(vm, depth) {
        env.borrow_mut(&mut vm.heap).slots[slot as usize] = v;
    }
}

/// `SetEnvChecked`: a write that throws in the binding's TDZ.
#[inline(always)]
pub(in crate::interpreter) fn set_checked(
    vm: &mut Vm,
    cx: &FrameContext,
    src: Reg,
    depth: u16,
    slot: u32,
    name: u32,
) -> JsResult<()> {
    let v = cx.get(vm, src);
    if let Some(env) = env_at(vm, depth) {
        if env.borrow(&vm.heap).slots[slot as usize].is_hole() {
            return Err(tdz_error(vm, cx.constant(vm, name)));
        }
        env.borrow_mut(&mut vm.heap).slots[slot as usize] = v;
    }
    Ok(())
}

/// `CheckTdz`: a register-allocated binding read in its TDZ.
#[inline(always)]
pub(in crate::interpreter) fn check_tdz(vm: &mut Vm, cx: &FrameContext, src: Reg, name: u32) -> JsResult<()> {
    if cx.get(vm, src).is_hole() {
        return Err(tdz_error(vm, cx.constant(vm, name)));
    }
    Ok(())
}
