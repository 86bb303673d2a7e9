//! Bindings resolved through a `with` statement's object environment
//! record (§9.1.1.2): HasBinding with `@@unscopables`, GetBindingValue,
//! SetMutableBinding and DeleteBinding. Each instruction jumps to `found`
//! when the object has the name and falls through to the next scope's
//! lookup otherwise.

use js_gc::Gc;

use super::{FrameContext, Next};
use crate::abstract_ops::{string_key, to_boolean};
use crate::bytecode::{Reg, Target};
use crate::object::internal_methods::{self as im, has_property};
use crate::object::{JsObject, PropertyKey};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// GetBindingValue of an object environment record (§9.1.1.2.6): asks
/// again whether the object has the name (the unscopables lookup or a
/// proxy may have removed it).
fn object_binding_value(vm: &mut Vm, o: Gc<JsObject>, atom: Gc<JsString>, strict: bool) -> JsResult<Value> {
    let key = string_key(vm, atom);
    if has_property(vm, o, key)? {
        im::get(vm, o, key, Value::object(o))
    } else if strict {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        Err(vm.reference_error(&format!("{text} is not defined")))
    } else {
        Ok(Value::UNDEFINED)
    }
}

/// SetMutableBinding of an object environment record (§9.1.1.2.5): in
/// strict code the binding must still exist.
fn set_object_binding(vm: &mut Vm, o: Gc<JsObject>, atom: Gc<JsString>, v: Value, strict: bool) -> JsResult<()> {
    let key = string_key(vm, atom);
    if !has_property(vm, o, key)? && strict {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.reference_error(&format!("{text} is not defined")));
    }
    let ok = im::set(vm, o, key, v, Value::object(o))?;
    if !ok && strict {
        return Err(vm.type_error("Cannot assign to read only property"));
    }
    Ok(())
}

/// HasBinding of an object environment record (§9.1.1.2.1): the object has
/// the name and `@@unscopables` does not block it.
fn with_has(vm: &mut Vm, o: Gc<JsObject>, atom: Gc<JsString>) -> JsResult<bool> {
    let key = string_key(vm, atom);
    if !has_property(vm, o, key)? {
        return Ok(false);
    }
    let unscopables_key = PropertyKey::Symbol(vm.symbols.unscopables);
    let unscopables = im::get(vm, o, unscopables_key, Value::object(o))?;
    if let Some(u) = unscopables.as_object() {
        let blocked = im::get(vm, u, key, unscopables)?;
        if to_boolean(vm, blocked) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The `with` object in `obj` and the name `name`, when the object has a
/// binding for it.
fn binding_object(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    name: u32,
) -> JsResult<Option<(Gc<JsObject>, Gc<JsString>)>> {
    let (o, n) = (cx.get(vm, obj), cx.constant(vm, name));
    if let (Some(o), Some(atom)) = (o.as_object(), n.as_string())
        && with_has(vm, o, atom)?
    {
        return Ok(Some((o, atom)));
    }
    Ok(None)
}

/// `WithGet`: `dst = obj.name` (and `this_dst = obj` for a call).
#[inline(always)]
pub(in crate::interpreter) fn get(
    vm: &mut Vm,
    cx: &FrameContext,
    (dst, obj, name, this_dst, found): (Reg, Reg, u32, Reg, Target),
) -> JsResult<Next> {
    let Some((o, atom)) = binding_object(vm, cx, obj, name)? else { return Ok(Next::Fall) };
    let v = object_binding_value(vm, o, atom, cx.strict)?;
    cx.set(vm, dst, v);
    if this_dst.0 != u16::MAX {
        cx.set(vm, this_dst, Value::object(o));
    }
    Ok(Next::Jump(found))
}

/// `WithSet`: `obj.name = src`.
#[inline(always)]
pub(in crate::interpreter) fn set(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    name: u32,
    src: Reg,
    found: Target,
) -> JsResult<Next> {
    let v = cx.get(vm, src);
    let Some((o, atom)) = binding_object(vm, cx, obj, name)? else { return Ok(Next::Fall) };
    set_object_binding(vm, o, atom, v, cx.strict)?;
    Ok(Next::Jump(found))
}

/// `WithResolve`: `dst = obj` for a read-modify-write.
#[inline(always)]
pub(in crate::interpreter) fn resolve(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    name: u32,
    found: Target,
) -> JsResult<Next> {
    let Some((o, _)) = binding_object(vm, cx, obj, name)? else { return Ok(Next::Fall) };
    cx.set(vm, dst, Value::object(o));
    Ok(Next::Jump(found))
}

/// `WithRefGet`: reads `name` from the object `WithResolve` found.
#[inline(always)]
pub(in crate::interpreter) fn ref_get(vm: &mut Vm, cx: &FrameContext, dst: Reg, base: Reg, name: u32) -> JsResult<()> {
    if let (Some(o), Some(atom)) = (cx.get(vm, base).as_object(), cx.constant(vm, name).as_string()) {
        let v = object_binding_value(vm, o, atom, cx.strict)?;
        cx.set(vm, dst, v);
    }
    Ok(())
}

/// `WithRefSet`: writes `name` of the object `WithResolve` found.
#[inline(always)]
pub(in crate::interpreter) fn ref_set(vm: &mut Vm, cx: &FrameContext, base: Reg, name: u32, src: Reg) -> JsResult<()> {
    if let (Some(o), Some(atom)) = (cx.get(vm, base).as_object(), cx.constant(vm, name).as_string()) {
        let v = cx.get(vm, src);
        set_object_binding(vm, o, atom, v, cx.strict)?;
    }
    Ok(())
}

/// `WithDelete`: `dst = delete name` through the `with` object
/// (DeleteBinding, §9.1.1.2.7).
#[inline(always)]
pub(in crate::interpreter) fn delete(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    name: u32,
    found: Target,
) -> JsResult<Next> {
    let Some((o, atom)) = binding_object(vm, cx, obj, name)? else { return Ok(Next::Fall) };
    let key = string_key(vm, atom);
    let deleted = im::delete(vm, o, key)?;
    cx.set(vm, dst, Value::boolean(deleted));
    Ok(Next::Jump(found))
}
