//! Register loads: constants and moves.

use super::FrameContext;
use crate::bytecode::Reg;
use crate::value::Value;
use crate::vm::Vm;

/// `LoadUndefined`, `LoadNull`, `LoadHole`, `LoadBool`: a fixed value.
#[inline(always)]
pub(in crate::interpreter) fn load(vm: &mut Vm, cx: &FrameContext, dst: Reg, v: Value) {
    cx.set(vm, dst, v);
}

/// `LoadInt`: a small integer.
#[inline(always)]
pub(in crate::interpreter) fn load_int(vm: &mut Vm, cx: &FrameContext, dst: Reg, value: i32) {
    cx.set(vm, dst, Value::number(f64::from(value)));
}

/// `LoadConst`: a constant-pool entry.
#[inline(always)]
pub(in crate::interpreter) fn load_const(vm: &mut Vm, cx: &FrameContext, dst: Reg, index: u32) {
    let v = cx.constant(vm, index);
    cx.set(vm, dst, v);
}

/// `Move`.
#[inline(always)]
pub(in crate::interpreter) fn move_register(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) {
    let v = cx.get(vm, src);
    cx.set(vm, dst, v);
}
