//! `%AsyncGeneratorPrototype%` (§27.6.1), `%AsyncGeneratorFunction%` and
//! `%AsyncFunction%`: the request side of async generators. Each call
//! returns a promise; the request waits in the generator's queue until the
//! frame serves it.

use js_gc::Gc;
use js_promise::{promise_reject_function, promise_resolve_function};

use super::dynamic_function::{DynamicFunctionKind, create_dynamic_function};
use super::iteration::iter_result;
use super::{method, native_function};
use crate::interpreter::async_generator::{
    AsyncGeneratorRequest, AsyncGeneratorStatus, await_return, resume, state_mut,
};
use crate::interpreter::{CallInfo, ResumeMode};
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, JsObject, ObjectKind, PropertyKey};
use crate::promise::new_promise_with_proto;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// `next`, `return` and `throw`: validate, enqueue, and resume or await as
/// the generator's state allows (§27.6.1.2–4).
fn enqueue(vm: &mut Vm, info: &CallInfo, mode: ResumeMode) -> JsResult<Value> {
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = new_promise_with_proto(vm, proto);
    vm.keep_alive(Value::object(promise));
    let value = info.arg(vm, 0);
    let generator = info.this.as_object().filter(|g| matches!(g.borrow(&vm.heap).kind, ObjectKind::AsyncGenerator(_)));
    let Some(g) = generator else {
        let e = vm.type_error("AsyncGenerator method called on incompatible receiver");
        let Exception::Throw(reason) = e else { return Err(e) };
        promise_reject_function(&mut vm.host(), promise, reason);
        vm.take_termination()?;
        return Ok(Value::object(promise));
    };
    let Some(state) = state_mut(vm, g) else { return Ok(Value::object(promise)) };
    let mut status = state.status;
    if mode == ResumeMode::Throw && status == AsyncGeneratorStatus::SuspendedStart {
        state.status = AsyncGeneratorStatus::Completed;
        status = AsyncGeneratorStatus::Completed;
    }
    if status == AsyncGeneratorStatus::Completed && mode != ResumeMode::Return {
        if mode == ResumeMode::Next {
            let result = iter_result(vm, Value::UNDEFINED, true);
            promise_resolve_function(&mut vm.host(), promise, result);
        } else {
            promise_reject_function(&mut vm.host(), promise, value);
        }
        vm.take_termination()?;
        return Ok(Value::object(promise));
    }
    if let Some(state) = state_mut(vm, g) {
        state.queue.push_back(AsyncGeneratorRequest { mode, value, promise });
    }
    match (mode, status) {
        (ResumeMode::Return, AsyncGeneratorStatus::SuspendedStart | AsyncGeneratorStatus::Completed) => {
            if let Some(state) = state_mut(vm, g) {
                state.status = AsyncGeneratorStatus::AwaitingReturn;
            }
            await_return(vm, g)?;
        }
        (_, AsyncGeneratorStatus::SuspendedStart | AsyncGeneratorStatus::SuspendedYield) => {
            resume(vm, g, mode, value)?;
        }
        _ => {}
    }
    Ok(Value::object(promise))
}

fn next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    enqueue(vm, info, ResumeMode::Next)
}

fn return_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    enqueue(vm, info, ResumeMode::Return)
}

fn throw(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    enqueue(vm, info, ResumeMode::Throw)
}

fn async_function_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    create_dynamic_function(vm, info, DynamicFunctionKind::Async)
}

fn async_generator_function_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    create_dynamic_function(vm, info, DynamicFunctionKind::AsyncGenerator)
}

/// The hidden constructor `name` whose `prototype` is `function_proto`,
/// linked both ways, with `[[Prototype]]` `%Function%`.
fn hidden_constructor(
    vm: &mut Vm,
    name: &str,
    f: crate::function::NativeFn,
    function_proto: Gc<JsObject>,
) -> Gc<JsObject> {
    let ctor = native_function(vm, name, 1, f, true);
    ctor.borrow_mut(&mut vm.heap).proto = Some(vm.realm.intrinsics.function_constructor);
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, ctor, proto_key, Value::object(function_proto), Attributes::NONE);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, function_proto, ctor_key, Value::object(ctor), Attributes::CONFIGURABLE_ONLY);
    ctor
}

/// Installs `%AsyncGeneratorPrototype%`, `%AsyncGeneratorFunction%` and
/// `%AsyncFunction%`.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.async_generator_prototype;
    let function_proto = vm.realm.intrinsics.async_generator_function_prototype;
    method(vm, proto, "next", 1, next);
    method(vm, proto, "return", 1, return_);
    method(vm, proto, "throw", 1, throw);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("AsyncGenerator");
    define_builtin(vm, proto, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, proto, ctor_key, Value::object(function_proto), Attributes::CONFIGURABLE_ONLY);
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, function_proto, proto_key, Value::object(proto), Attributes::CONFIGURABLE_ONLY);
    let tag_value = vm.string("AsyncGeneratorFunction");
    define_builtin(vm, function_proto, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
    hidden_constructor(vm, "AsyncGeneratorFunction", async_generator_function_ctor, function_proto);
    let async_function_proto = vm.realm.intrinsics.async_function_prototype;
    hidden_constructor(vm, "AsyncFunction", async_function_ctor, async_function_proto);
}
