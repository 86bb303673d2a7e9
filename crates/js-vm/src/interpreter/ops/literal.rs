//! Object, array and RegExp literals: property definitions with
//! CreateDataPropertyOrThrow and DefinePropertyOrThrow (methods,
//! accessors, spread, `__proto__`), object rest in destructuring, and
//! array literals' elements, holes and spreads. (A literal's static keys
//! go through `DefineNamed`, in [`super::property`] with the other shape
//! transitions.)

use super::FrameContext;
use crate::abstract_ops::to_property_key;
use crate::bytecode::Reg;
use crate::object::internal_methods::{self as im, create_data_property_or_throw};
use crate::object::{Attributes, ObjectKind, PropertyDescriptor};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `DefineField`: CreateDataPropertyOrThrow(obj, key, src).
#[inline(always)]
pub(in crate::interpreter) fn define_field(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    key: Reg,
    src: Reg,
) -> JsResult<()> {
    let (target, key_value, v) = (cx.get(vm, obj), cx.get(vm, key), cx.get(vm, src));
    if let Some(o) = target.as_object() {
        let k = to_property_key(vm, key_value)?;
        create_data_property_or_throw(vm, o, k, v)?;
    }
    Ok(())
}

/// `DefineMethod`: a method of an object literal or class.
#[inline(always)]
pub(in crate::interpreter) fn method(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    key: Reg,
    func: Reg,
    enumerable: bool,
) -> JsResult<()> {
    let (target, key_value, f) = (cx.get(vm, obj), cx.get(vm, key), cx.get(vm, func));
    if let Some(o) = target.as_object() {
        let k = to_property_key(vm, key_value)?;
        let attrs = Attributes::METHOD.with(Attributes::ENUMERABLE, enumerable);
        crate::builtins::object::define_property_or_throw(vm, o, k, PropertyDescriptor::data(f, attrs))?;
    }
    Ok(())
}

/// `DefineAccessor`: a getter or setter half.
#[inline(always)]
pub(in crate::interpreter) fn accessor(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    key: Reg,
    func: Reg,
    setter: bool,
    enumerable: bool,
) -> JsResult<()> {
    let (target, key_value, f) = (cx.get(vm, obj), cx.get(vm, key), cx.get(vm, func));
    if let Some(o) = target.as_object() {
        let k = to_property_key(vm, key_value)?;
        let mut desc = PropertyDescriptor {
            enumerable: Some(enumerable),
            configurable: Some(true),
            ..PropertyDescriptor::default()
        };
        if setter {
            desc.set = Some(f);
        } else {
            desc.get = Some(f);
        }
        crate::builtins::object::define_property_or_throw(vm, o, k, desc)?;
    }
    Ok(())
}

/// `CopyDataProperties`: `{...src}`.
#[inline(always)]
pub(in crate::interpreter) fn copy_data_properties(vm: &mut Vm, cx: &FrameContext, dst: Reg, src: Reg) -> JsResult<()> {
    let (target, source) = (cx.get(vm, dst), cx.get(vm, src));
    if let Some(t) = target.as_object() {
        crate::builtins::object::copy_data_properties(vm, t, source, &[])?;
    }
    Ok(())
}

/// `SetFunctionName` from a property key, with a `get`/`set` prefix.
#[inline(always)]
pub(in crate::interpreter) fn set_function_name(
    vm: &mut Vm,
    cx: &FrameContext,
    func: Reg,
    key: Reg,
    prefix: u8,
) -> JsResult<()> {
    let (f, key_value) = (cx.get(vm, func), cx.get(vm, key));
    if let Some(fobj) = f.as_object() {
        let k = to_property_key(vm, key_value)?;
        let prefix = match prefix {
            1 => Some("get"),
            2 => Some("set"),
            _ => None,
        };
        crate::builtins::function::set_function_name(vm, fobj, k, prefix);
    }
    Ok(())
}

/// `SetProtoLiteral`: `__proto__: proto` in an object literal.
#[inline(always)]
pub(in crate::interpreter) fn set_proto_literal(vm: &mut Vm, cx: &FrameContext, obj: Reg, proto: Reg) -> JsResult<()> {
    let (target, p) = (cx.get(vm, obj), cx.get(vm, proto));
    if let Some(o) = target.as_object() {
        // A fresh literal object: no trap runs.
        if p.is_null() {
            im::set_prototype_of(vm, o, None)?;
        } else if let Some(p) = p.as_object() {
            im::set_prototype_of(vm, o, Some(p))?;
        }
    }
    Ok(())
}

/// `ObjectRest`: `{ a, ...rest } = src`, without the `count` keys from
/// register `excluded` on.
#[inline(always)]
pub(in crate::interpreter) fn object_rest(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    src: Reg,
    excluded: Reg,
    count: u16,
) -> JsResult<()> {
    let source = cx.get(vm, src);
    if source.is_nullish() {
        return Err(vm.type_error("Cannot destructure 'undefined' or 'null'"));
    }
    let mut keys = Vec::with_capacity(usize::from(count));
    for i in 0..usize::from(count) {
        let k = vm.stack.registers[cx.index(excluded) + i];
        keys.push(to_property_key(vm, k)?);
    }
    let target = vm.new_plain_object();
    cx.set(vm, dst, Value::object(target));
    crate::builtins::object::copy_data_properties(vm, target, source, &keys)
}

/// `NewRegExp`: a RegExp literal's evaluation.
#[inline(always)]
pub(in crate::interpreter) fn new_regexp(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    pattern: u32,
    flags: u32,
) -> JsResult<()> {
    let (p, f) = (cx.constant(vm, pattern).as_string(), cx.constant(vm, flags).as_string());
    if let (Some(p), Some(f)) = (p, f) {
        let v = crate::builtins::regexp::regexp_create(vm, p, f, None)?;
        cx.set(vm, dst, v);
    }
    Ok(())
}

/// `NewObject`: `{}`.
#[inline(always)]
pub(in crate::interpreter) fn new_object(vm: &mut Vm, cx: &FrameContext, dst: Reg) {
    let o = vm.new_plain_object();
    cx.set(vm, dst, Value::object(o));
}

/// `NewArray`: `[]`, its element storage sized for the literal.
#[inline(always)]
pub(in crate::interpreter) fn new_array(vm: &mut Vm, cx: &FrameContext, dst: Reg, capacity: u16) {
    let a = crate::object::internal_methods::array_from_elements(vm, Vec::with_capacity(usize::from(capacity)));
    cx.set(vm, dst, Value::object(a));
}

/// `NewArrayOfConstants`: an array literal of primitive literals.
#[inline(always)]
pub(in crate::interpreter) fn new_array_of_constants(vm: &mut Vm, cx: &FrameContext, dst: Reg, first: u32, count: u16) {
    let start = first as usize;
    let elements = cx.constants(vm).get(start..start + usize::from(count)).map_or_else(Vec::new, <[Value]>::to_vec);
    let a = crate::object::internal_methods::array_from_elements(vm, elements);
    cx.set(vm, dst, Value::object(a));
}

/// `ArrayPush`: an array literal's element.
#[inline(always)]
pub(in crate::interpreter) fn array_push(vm: &mut Vm, cx: &FrameContext, array: Reg, src: Reg) {
    let (a, v) = (cx.get(vm, array), cx.get(vm, src));
    if let Some(a) = a.as_object() {
        crate::builtins::array::push_element(vm, a, v);
    }
}

/// `ArrayPushHole`: an elision.
#[inline(always)]
pub(in crate::interpreter) fn array_push_hole(vm: &mut Vm, cx: &FrameContext, array: Reg) {
    if let Some(a) = cx.get(vm, array).as_object()
        && let ObjectKind::Array { length, .. } = &mut a.borrow_mut(&mut vm.heap).kind
    {
        *length += 1;
    }
}

/// `ArraySpread`: `[...src]`.
#[inline(always)]
pub(in crate::interpreter) fn array_spread(vm: &mut Vm, cx: &FrameContext, array: Reg, src: Reg) -> JsResult<()> {
    let (a, iterable) = (cx.get(vm, array), cx.get(vm, src));
    if let Some(a) = a.as_object() {
        let values = crate::builtins::iteration::iterate_to_vec(vm, iterable)?;
        for v in values {
            crate::builtins::array::push_element(vm, a, v);
        }
    }
    Ok(())
}
