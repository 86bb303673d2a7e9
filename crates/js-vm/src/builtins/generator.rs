//! `%GeneratorFunction%`, `%GeneratorFunction.prototype%` and
//! `%GeneratorPrototype%` (§27.3, §27.5).

use super::dynamic_function::{DynamicFunctionKind, create_dynamic_function};
use super::{method, native_function};
use crate::interpreter::{CallInfo, ResumeMode, generator_resume};
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn this_generator(vm: &mut Vm, info: &CallInfo) -> JsResult<js_gc::Gc<crate::object::JsObject>> {
    match info.this.as_object() {
        Some(o) if matches!(o.borrow(&vm.heap).kind, crate::object::ObjectKind::Generator(_)) => Ok(o),
        _ => Err(vm.type_error("generator method called on incompatible receiver")),
    }
}

fn next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let g = this_generator(vm, info)?;
    let v = info.arg(vm, 0);
    generator_resume(vm, g, v, ResumeMode::Next)
}

fn return_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let g = this_generator(vm, info)?;
    let v = info.arg(vm, 0);
    generator_resume(vm, g, v, ResumeMode::Return)
}

fn throw(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let g = this_generator(vm, info)?;
    let v = info.arg(vm, 0);
    generator_resume(vm, g, v, ResumeMode::Throw)
}

/// `GeneratorFunction(...params, body)`.
fn generator_function_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    create_dynamic_function(vm, info, DynamicFunctionKind::Generator)
}

/// Installs the generator intrinsics.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.generator_prototype;
    let function_proto = vm.realm.intrinsics.generator_function_prototype;
    method(vm, proto, "next", 1, next);
    method(vm, proto, "return", 1, return_);
    method(vm, proto, "throw", 1, throw);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("Generator");
    define_builtin(vm, proto, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, proto, ctor_key, Value::object(function_proto), Attributes::CONFIGURABLE_ONLY);
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, function_proto, proto_key, Value::object(proto), Attributes::CONFIGURABLE_ONLY);
    let tag_value = vm.string("GeneratorFunction");
    define_builtin(vm, function_proto, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
    let ctor = native_function(vm, "GeneratorFunction", 1, generator_function_ctor, true);
    ctor.borrow_mut(&mut vm.heap).proto = Some(vm.realm.intrinsics.function_constructor);
    define_builtin(vm, ctor, proto_key, Value::object(function_proto), Attributes::NONE);
    define_builtin(vm, function_proto, ctor_key, Value::object(ctor), Attributes::CONFIGURABLE_ONLY);
}
