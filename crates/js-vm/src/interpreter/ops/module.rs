//! Module code's own instructions: `import.meta` and dynamic `import()`.

use super::FrameContext;
use crate::bytecode::Reg;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `ImportMeta`.
#[inline(always)]
pub(in crate::interpreter) fn import_meta(vm: &mut Vm, cx: &FrameContext, dst: Reg) -> JsResult<()> {
    let v = crate::module::import_meta::import_meta(vm, cx.code)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `ImportCall` (§13.3.10.1).
#[inline(always)]
pub(in crate::interpreter) fn import_call(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    specifier: Reg,
    options: Reg,
) -> JsResult<()> {
    let options = if options.0 == u16::MAX { Value::UNDEFINED } else { cx.get(vm, options) };
    let specifier = cx.get(vm, specifier);
    let v = crate::module::dynamic::import_call(vm, specifier, options)?;
    cx.set(vm, dst, v);
    Ok(())
}
