//! Type conversions as operators: `!` (ToBoolean), `typeof`, ToString for
//! template literals, ToPropertyKey for computed keys, ToObject for `with`.

use super::FrameContext;
use crate::abstract_ops::{to_boolean, to_object, to_property_key, to_string, type_of};
use crate::bytecode::Reg;
use crate::object::PropertyKey;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `Not`: `dst = !src`.
#[inline(always)]
pub(in crate::interpreter) fn not(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) {
    let v = cx.get(vm, src);
    let result = !to_boolean(vm, v);
    cx.set(vm, dst, Value::boolean(result));
}

/// `TypeOf`: `dst = typeof src`.
#[inline(always)]
pub(in crate::interpreter) fn type_of_operator(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) {
    let v = cx.get(vm, src);
    let t = type_of(vm, v);
    let s = Value::string(vm.atoms.intern_str(&mut vm.heap, t));
    cx.set(vm, dst, s);
}

/// `ToString`: `dst = ToString(src)`.
#[inline(always)]
pub(in crate::interpreter) fn to_string_value(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let s = to_string(vm, v)?;
    cx.set(vm, dst, Value::string(s));
    Ok(())
}

/// `ToPropertyKey`: `dst = ToPropertyKey(src)` as a value.
#[inline(always)]
pub(in crate::interpreter) fn to_property_key_value(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    src: Reg,
) -> JsResult<()> {
    let v = cx.get(vm, src);
    let key = match to_property_key(vm, v)? {
        PropertyKey::Index(i) => Value::number(f64::from(i)),
        PropertyKey::String(s) => Value::string(s),
        PropertyKey::Symbol(s) => Value::symbol(s),
    };
    cx.set(vm, dst, key);
    Ok(())
}

/// `ToObject`: `dst = ToObject(src)`.
#[inline(always)]
pub(in crate::interpreter) fn to_object_value(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let v = cx.get(vm, src);
    let o = to_object(vm, v)?;
    cx.set(vm, dst, Value::object(o));
    Ok(())
}
