//! Classes: class creation, instance fields and home objects, `super(...)`
//! in derived constructors and the `this` check that guards it, and
//! private names (`#x`: PrivateGet, PrivateSet, PrivateFieldAdd,
//! PrivateMethodOrAccessorAdd, `#x in obj`).

use js_gc::Gc;

use super::FrameContext;
use crate::bytecode::Reg;
use crate::function::Function;
use crate::interpreter::{call_function, construct_function, is_constructor, private};
use crate::object::{Elements, JsObject, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `super(...args)` (§13.3.7.1): constructs the parent with the current
/// `new.target` and binds `this`.
fn super_call(vm: &mut Vm, args: &[Value]) -> JsResult<Value> {
    let Some(frame) = vm.stack.frames.last() else { return Ok(Value::UNDEFINED) };
    let (callee, base) = (frame.callee, frame.base);
    let Some(active) = callee else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    let result = construct_parent(vm, active, args)?;
    if !vm.stack.registers[base].is_hole() {
        return Err(vm.reference_error("Super constructor may only be called once"));
    }
    vm.stack.registers[base] = result;
    run_field_initializers(vm, active, result)?;
    Ok(result)
}

/// Steps 2-6 of `super(...)`: `Construct(active.[[Prototype]], args,
/// new.target)` (GetSuperConstructor of the constructor `active`).
fn construct_parent(vm: &mut Vm, active: Gc<JsObject>, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.stack.frames.last().map_or(Value::UNDEFINED, |f| f.new_target);
    let parent = active.borrow(&vm.heap).proto;
    let Some(parent) = parent.filter(|p| is_constructor(vm, *p)) else {
        return Err(vm.type_error("Super constructor is not a constructor"));
    };
    let Some(nt) = new_target.as_object() else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    construct_function(vm, parent, args, nt)
}

/// InitializeInstanceElements (§7.3.34) for the derived constructor
/// `active` on the object `super()` returned.
fn run_field_initializers(vm: &mut Vm, active: Gc<JsObject>, result: Value) -> JsResult<()> {
    let fields = match active.borrow(&vm.heap).as_function() {
        Some(Function::Closure(c)) => c.fields,
        _ => None,
    };
    if let Some(init) = fields {
        call_function(vm, init, result, &[])?;
    }
    Ok(())
}

/// The constructor a `SuperConstruct` names (a register loaded from the
/// environment).
fn super_constructor_operand(vm: &mut Vm, cx: &FrameContext, func: Reg) -> JsResult<Gc<JsObject>> {
    match cx.get(vm, func).as_object() {
        Some(f) => Ok(f),
        None => Err(vm.syntax_error("'super' keyword unexpected here")),
    }
}

/// `SuperConstruct`: the parent construction of `super(...)` with the
/// arguments in registers.
#[inline(always)]
pub(in crate::interpreter) fn super_construct(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    func: Reg,
    args: Reg,
    argc: u16,
) -> JsResult<()> {
    let active = super_constructor_operand(vm, cx, func)?;
    let list: Vec<Value> = (0..usize::from(argc)).map(|i| vm.stack.registers[cx.index(args) + i]).collect();
    let v = construct_parent(vm, active, &list)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `SuperConstructSpread`: the same with the arguments in an array.
#[inline(always)]
pub(in crate::interpreter) fn super_construct_spread(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    func: Reg,
    args: Reg,
) -> JsResult<()> {
    let active = super_constructor_operand(vm, cx, func)?;
    let arr = cx.get(vm, args);
    let list = crate::builtins::array::dense_values(vm, arr);
    let v = construct_parent(vm, active, &list)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `BindThis`: BindThisValue (§9.1.1.3.1) on `this`, which the compiler
/// reloaded from the environment just before.
#[inline(always)]
pub(in crate::interpreter) fn bind_this(vm: &mut Vm, cx: &FrameContext, src: Reg) -> JsResult<()> {
    if !vm.stack.registers[cx.base].is_hole() {
        return Err(vm.reference_error("Super constructor may only be called once"));
    }
    vm.stack.registers[cx.base] = cx.get(vm, src);
    Ok(())
}

/// `InitializeInstanceElements`.
#[inline(always)]
pub(in crate::interpreter) fn initialize_instance_elements(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    func: Reg,
) -> JsResult<()> {
    let active = super_constructor_operand(vm, cx, func)?;
    let result = cx.get(vm, obj);
    run_field_initializers(vm, active, result)
}

/// `CreateClass` (§15.7.14 `ClassDefinitionEvaluation`'s objects).
#[inline(always)]
pub(in crate::interpreter) fn create_class(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    proto_dst: Reg,
    index: u32,
    heritage: Reg,
) -> JsResult<()> {
    let heritage_value = cx.get(vm, heritage);
    let (ctor, proto) = crate::builtins::function::create_class(vm, cx.code, index, heritage_value)?;
    cx.set(vm, dst, Value::object(ctor));
    cx.set(vm, proto_dst, Value::object(proto));
    Ok(())
}

/// `SetClassFields`: the constructor's instance field initialiser.
#[inline(always)]
pub(in crate::interpreter) fn set_class_fields(vm: &mut Vm, cx: &FrameContext, ctor: Reg, fields: Reg) {
    let (c, f) = (cx.get(vm, ctor), cx.get(vm, fields));
    if let (Some(c), Some(f)) = (c.as_object(), f.as_object())
        && let ObjectKind::Function(Function::Closure(cl)) = &mut c.borrow_mut(&mut vm.heap).kind
    {
        cl.fields = Some(f);
    }
}

/// `LoadFieldKey`: a computed field key, evaluated when the class was
/// defined.
#[inline(always)]
pub(in crate::interpreter) fn load_field_key(vm: &mut Vm, cx: &FrameContext, dst: Reg, index: u32) {
    let keys = vm.stack.frames.last().and_then(|f| f.callee).and_then(|c| match c.borrow(&vm.heap).as_function() {
        Some(Function::Closure(cl)) => cl.fields,
        _ => None,
    });
    let v = keys.map_or(Value::UNDEFINED, |k| match &k.borrow(&vm.heap).elements {
        Elements::Dense(v) => v.get(index as usize).copied().unwrap_or_default(),
        Elements::Sparse(_) => Value::UNDEFINED,
    });
    cx.set(vm, dst, v);
}

/// `SetHomeObject`: a method's `[[HomeObject]]`.
#[inline(always)]
pub(in crate::interpreter) fn set_home_object(vm: &mut Vm, cx: &FrameContext, func: Reg, home: Reg) {
    let (f, h) = (cx.get(vm, func), cx.get(vm, home));
    if let (Some(f), Some(h)) = (f.as_object(), h.as_object())
        && let ObjectKind::Function(Function::Closure(c)) = &mut f.borrow_mut(&mut vm.heap).kind
    {
        c.home_object = Some(h);
    }
}

/// `SuperCall`: `super(...)` with the arguments in registers.
#[inline(always)]
pub(in crate::interpreter) fn super_call_registers(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    args: Reg,
    argc: u16,
) -> JsResult<()> {
    let list: Vec<Value> = (0..usize::from(argc)).map(|i| vm.stack.registers[cx.index(args) + i]).collect();
    let v = super_call(vm, &list)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `SuperCallSpread`: `super(...array)`.
#[inline(always)]
pub(in crate::interpreter) fn super_call_spread(vm: &mut Vm, cx: &FrameContext, dst: Reg, args: Reg) -> JsResult<()> {
    let arr = cx.get(vm, args);
    let list = crate::builtins::array::dense_values(vm, arr);
    let v = super_call(vm, &list)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `CheckThis`: a derived constructor's `this` before `super()` is a
/// ReferenceError.
#[inline(always)]
pub(in crate::interpreter) fn check_this(vm: &mut Vm, cx: &FrameContext, dst: Reg) -> JsResult<()> {
    let this = vm.stack.registers[cx.base];
    if this.is_hole() {
        return Err(vm.reference_error(
            "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
        ));
    }
    cx.set(vm, dst, this);
    Ok(())
}

/// `NewPrivateName`: a fresh Private Name described as `#name`.
#[inline(always)]
pub(in crate::interpreter) fn new_private_name(vm: &mut Vm, cx: &FrameContext, dst: Reg, description: u32) {
    let d = cx.constant(vm, description).as_string();
    let symbol = crate::symbol::Symbol { description: d, registered: false, private: true };
    let s = vm.heap.alloc(symbol);
    cx.set(vm, dst, Value::symbol(s));
}

/// `GetPrivate`: `dst = obj.#key`.
#[inline(always)]
pub(in crate::interpreter) fn get_private(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    key: Reg,
) -> JsResult<()> {
    let (o, k) = (cx.get(vm, obj), cx.get(vm, key));
    let v = private::get(vm, o, k)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `SetPrivate`: `obj.#key = src`.
#[inline(always)]
pub(in crate::interpreter) fn set_private(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    key: Reg,
    src: Reg,
) -> JsResult<()> {
    let (o, k, v) = (cx.get(vm, obj), cx.get(vm, key), cx.get(vm, src));
    private::set(vm, o, k, v)
}

/// `DefinePrivate`: a private field or method.
#[inline(always)]
pub(in crate::interpreter) fn private_field(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    key: Reg,
    src: Reg,
    method: bool,
) -> JsResult<()> {
    let (o, k, v) = (cx.get(vm, obj), cx.get(vm, key), cx.get(vm, src));
    private::define(vm, o, k, v, method)
}

/// `DefinePrivateAccessor`: a private getter and/or setter.
#[inline(always)]
pub(in crate::interpreter) fn private_accessor(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    key: Reg,
    getter: Reg,
    setter: Reg,
) -> JsResult<()> {
    let (o, k, g, s) = (cx.get(vm, obj), cx.get(vm, key), cx.get(vm, getter), cx.get(vm, setter));
    private::define_accessor(vm, o, k, g, s)
}

/// `HasPrivate`: `#key in obj`.
#[inline(always)]
pub(in crate::interpreter) fn has_private(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    key: Reg,
) -> JsResult<()> {
    let (o, k) = (cx.get(vm, obj), cx.get(vm, key));
    let Some(o) = o.as_object() else {
        return Err(vm.type_error("Cannot use 'in' operator to search for a private field in a non-object"));
    };
    let found = k.as_symbol().is_some_and(|s| o.borrow(&vm.heap).get_own(&vm.heap, PropertyKey::Symbol(s)).is_some());
    cx.set(vm, dst, Value::boolean(found));
    Ok(())
}
