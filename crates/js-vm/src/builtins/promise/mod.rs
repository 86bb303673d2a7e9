//! The Promise constructor, `Promise.prototype` and the combinators
//! (§27.2), over js-promise's state and algorithms.
//!
//! `then` on a native promise whose species is `%Promise%` takes the
//! crate's fast path (no resolving functions, an inline reaction);
//! subclasses and foreign constructors go through NewPromiseCapability.
//! The combinators are in [`combinators`].

use js_gc::{Gc, Trace, Tracer};
use js_promise::{PromiseCapability, create_resolving_functions, perform_promise_then, promise_then};

use super::{accessor_property, constructor, method, native_function_with_data};

mod combinators;

use crate::abstract_ops::is_callable;
use crate::interpreter::{CallInfo, is_constructor};
use crate::object::internal_methods::{call, construct, create_data_property_or_throw, define_builtin, get};
use crate::object::{Attributes, JsObject, PropertyKey};
use crate::promise::{as_promise, new_promise_with_proto};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};
pub(crate) use combinators::element_settled as combinator_element_settled;
use combinators::{all, all_keyed, all_settled, all_settled_keyed, any, race};

/// A PromiseCapability Record with its functions (§27.2.1.1).
#[derive(Clone, Copy)]
struct Capability {
    promise: Value,
    resolve: Value,
    reject: Value,
}

/// Values captured by a built-in closure (`finally`'s thunks, the
/// capabilities executor, combinator state).
pub(crate) struct Captured(Vec<Value>);

// SAFETY: the captured values are all the pointers.
unsafe impl Trace for Captured {
    fn trace(&self, tracer: &mut Tracer) {
        self.0.trace(tracer);
    }

    fn type_name() -> &'static str {
        "PromiseClosureData"
    }
}

/// Allocates a capture cell and returns it as a function's data value.
pub(crate) fn capture(vm: &mut Vm, values: Vec<Value>) -> Value {
    let cell = vm.heap.alloc(Captured(values));
    Value::internal(cell.as_any())
}

fn captured(vm: &Vm, info: &CallInfo) -> Option<Gc<Captured>> {
    info.data(vm).as_internal::<Captured>()
}

pub(crate) fn captured_value(vm: &Vm, info: &CallInfo, index: usize) -> Value {
    captured(vm, info).and_then(|c| c.borrow(&vm.heap).0.get(index).copied()).unwrap_or_default()
}

fn thrown(e: Exception) -> JsResult<Value> {
    Err(e)
}

/// `SpeciesConstructor(O, %Promise%)` (§7.3.22).
fn species_constructor(vm: &mut Vm, o: Gc<JsObject>) -> JsResult<Value> {
    let default = vm.realm.intrinsics.promise_constructor;
    crate::abstract_ops::species_constructor(vm, o, default).map(Value::object)
}

/// `GetCapabilitiesExecutor`: records the functions the constructor passes.
fn capabilities_executor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(record) = captured(vm, info) else { return Ok(Value::UNDEFINED) };
    let (resolve, reject) = {
        let r = &record.borrow(&vm.heap).0;
        (r[0], r[1])
    };
    if !resolve.is_undefined() || !reject.is_undefined() {
        return Err(vm.type_error("Promise executor has already been invoked with non-undefined arguments"));
    }
    let (new_resolve, new_reject) = (info.arg(vm, 0), info.arg(vm, 1));
    let values = &mut record.borrow_mut(&mut vm.heap).0;
    values[0] = new_resolve;
    values[1] = new_reject;
    Ok(Value::UNDEFINED)
}

/// `NewPromiseCapability(C)` (§27.2.1.5). `%Promise%` gets its promise and
/// resolving functions directly (nothing observable differs).
fn new_promise_capability(vm: &mut Vm, c: Value) -> JsResult<Capability> {
    let intrinsic = vm.realm.intrinsics.promise_constructor;
    if c == Value::object(intrinsic) {
        let proto = vm.realm.intrinsics.promise_prototype;
        let promise = new_promise_with_proto(vm, proto);
        vm.keep_alive(Value::object(promise));
        let (resolve, reject) = create_resolving_functions(&mut vm.host(), promise);
        vm.keep_alive(resolve);
        vm.keep_alive(reject);
        return Ok(Capability { promise: Value::object(promise), resolve, reject });
    }
    let Some(c) = c.as_object().filter(|c| is_constructor(vm, *c)) else {
        return Err(vm.type_error("Promise capability constructor is not a constructor"));
    };
    let data = capture(vm, vec![Value::UNDEFINED, Value::UNDEFINED]);
    let executor = native_function_with_data(vm, "", 2, capabilities_executor, data);
    vm.keep_alive(Value::object(executor));
    let promise = construct(vm, c, &[Value::object(executor)], None)?;
    vm.keep_alive(promise);
    let record = data.as_internal::<Captured>().map(|r| (r.borrow(&vm.heap).0[0], r.borrow(&vm.heap).0[1]));
    let (resolve, reject) = record.unwrap_or_default();
    if !is_callable(vm, resolve) {
        return Err(vm.type_error("Promise resolve function is not callable"));
    }
    if !is_callable(vm, reject) {
        return Err(vm.type_error("Promise reject function is not callable"));
    }
    Ok(Capability { promise, resolve, reject })
}

/// `new Promise(executor)` (§27.2.3.1).
fn promise_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        return Err(vm.type_error("Promise constructor cannot be invoked without 'new'"));
    };
    let executor = info.arg(vm, 0);
    if !is_callable(vm, executor) {
        let shown = vm.display(executor);
        return Err(vm.type_error(&format!("Promise resolver {shown} is not a function")));
    }
    let proto = crate::interpreter::prototype_from_constructor(vm, nt, |i| i.promise_prototype)?;
    let promise = new_promise_with_proto(vm, proto);
    vm.keep_alive(Value::object(promise));
    let (resolve, reject) = create_resolving_functions(&mut vm.host(), promise);
    vm.keep_alive(resolve);
    vm.keep_alive(reject);
    if let Err(e) = call(vm, executor, Value::UNDEFINED, &[resolve, reject]) {
        let Exception::Throw(reason) = e else { return Err(e) };
        call(vm, reject, Value::UNDEFINED, &[reason])?;
    }
    Ok(Value::object(promise))
}

/// `Promise.prototype.then` (§27.2.5.4).
fn then(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(promise) = as_promise(vm, info.this) else {
        return Err(vm.type_error("Method Promise.prototype.then called on incompatible receiver"));
    };
    let c = species_constructor(vm, promise)?;
    let (on_fulfilled, on_rejected) = (info.arg(vm, 0), info.arg(vm, 1));
    if c == Value::object(vm.realm.intrinsics.promise_constructor) {
        let derived = promise_then(&mut vm.host(), promise, on_fulfilled, on_rejected);
        vm.take_termination()?;
        return Ok(Value::object(derived));
    }
    let capability = new_promise_capability(vm, c)?;
    let record = PromiseCapability::Functions {
        promise: capability.promise,
        resolve: capability.resolve,
        reject: capability.reject,
    };
    perform_promise_then(&mut vm.host(), promise, on_fulfilled, on_rejected, record);
    Ok(capability.promise)
}

/// `Invoke(v, "then", args)`.
fn invoke_then(vm: &mut Vm, v: Value, args: &[Value]) -> JsResult<Value> {
    let key = PropertyKey::String(vm.names.then);
    let f = crate::object::internal_methods::get_value(vm, v, key)?;
    call(vm, f, v, args)
}

/// `Promise.prototype.catch` (§27.2.5.1).
fn catch(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let on_rejected = info.arg(vm, 0);
    invoke_then(vm, info.this, &[Value::UNDEFINED, on_rejected])
}

/// `Promise.prototype.finally` (§27.2.5.3).
fn finally(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(promise) = info.this.as_object() else {
        return Err(vm.type_error("Method Promise.prototype.finally called on a non-object"));
    };
    let c = species_constructor(vm, promise)?;
    vm.keep_alive(c);
    let on_finally = info.arg(vm, 0);
    if !is_callable(vm, on_finally) {
        return invoke_then(vm, info.this, &[on_finally, on_finally]);
    }
    let data = capture(vm, vec![on_finally, c]);
    let then_finally = native_function_with_data(vm, "", 1, then_finally_call, data);
    vm.keep_alive(Value::object(then_finally));
    let catch_finally = native_function_with_data(vm, "", 1, catch_finally_call, data);
    vm.keep_alive(Value::object(catch_finally));
    invoke_then(vm, info.this, &[Value::object(then_finally), Value::object(catch_finally)])
}

/// Calls `onFinally` and waits for its result: the common part of
/// `thenFinally` and `catchFinally`.
fn finally_step(vm: &mut Vm, info: &CallInfo, settle: crate::function::NativeFn) -> JsResult<Value> {
    let (on_finally, c) = (captured_value(vm, info, 0), captured_value(vm, info, 1));
    let argument = info.arg(vm, 0);
    let result = call(vm, on_finally, Value::UNDEFINED, &[])?;
    let p = promise_resolve_with(vm, c, result)?;
    vm.keep_alive(p);
    let data = capture(vm, vec![argument]);
    let thunk = native_function_with_data(vm, "", 0, settle, data);
    invoke_then(vm, p, &[Value::object(thunk)])
}

fn then_finally_call(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    finally_step(vm, info, value_thunk)
}

fn catch_finally_call(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    finally_step(vm, info, thrower)
}

fn value_thunk(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(captured_value(vm, info, 0))
}

fn thrower(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    thrown(Exception::Throw(captured_value(vm, info, 0)))
}

/// `PromiseResolve(C, x)` (§27.2.4.7.1).
fn promise_resolve_with(vm: &mut Vm, c: Value, x: Value) -> JsResult<Value> {
    if let Some(p) = as_promise(vm, x) {
        let key = PropertyKey::String(vm.names.constructor);
        let x_constructor = get(vm, p, key, x)?;
        if x_constructor == c {
            return Ok(x);
        }
    }
    let capability = new_promise_capability(vm, c)?;
    call(vm, capability.resolve, Value::UNDEFINED, &[x])?;
    Ok(capability.promise)
}

fn this_constructor(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Value> {
    if info.this.is_object() {
        Ok(info.this)
    } else {
        Err(vm.type_error(&format!("Promise.{name} called on a non-object")))
    }
}

/// `Promise.resolve` (§27.2.4.7).
fn resolve(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let c = this_constructor(vm, info, "resolve")?;
    let x = info.arg(vm, 0);
    promise_resolve_with(vm, c, x)
}

/// `Promise.reject` (§27.2.4.6).
fn reject(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let c = this_constructor(vm, info, "reject")?;
    let capability = new_promise_capability(vm, c)?;
    let r = info.arg(vm, 0);
    call(vm, capability.reject, Value::UNDEFINED, &[r])?;
    Ok(capability.promise)
}

/// `Promise.withResolvers` (§27.2.4.8).
fn with_resolvers(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let c = this_constructor(vm, info, "withResolvers")?;
    let capability = new_promise_capability(vm, c)?;
    let o = vm.new_plain_object();
    vm.keep_alive(Value::object(o));
    for (name, value) in
        [("promise", capability.promise), ("resolve", capability.resolve), ("reject", capability.reject)]
    {
        let key = vm.key(name);
        create_data_property_or_throw(vm, o, key, value)?;
    }
    Ok(Value::object(o))
}

/// `Promise.try(callback, ...args)` (§27.2.4.8).
fn try_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let c = this_constructor(vm, info, "try")?;
    let capability = new_promise_capability(vm, c)?;
    let callback = info.arg(vm, 0);
    let args: Vec<Value> = info.args(vm).iter().skip(1).copied().collect();
    match call(vm, callback, Value::UNDEFINED, &args) {
        Ok(v) => call(vm, capability.resolve, Value::UNDEFINED, &[v])?,
        Err(Exception::Throw(e)) => call(vm, capability.reject, Value::UNDEFINED, &[e])?,
        Err(e) => return Err(e),
    };
    Ok(capability.promise)
}

fn species_getter(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

fn queue_microtask(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let callback = info.arg(vm, 0);
    if !is_callable(vm, callback) {
        return Err(vm.type_error("The \"callback\" argument must be of type function."));
    }
    vm.queue_microtask(callback);
    Ok(Value::UNDEFINED)
}

/// Installs `Promise`, `%AsyncFunction.prototype%` and `queueMicrotask`.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.promise_prototype;
    let ctor = constructor(vm, "Promise", 1, promise_ctor, proto);
    vm.realm.intrinsics.promise_constructor = ctor;
    let species = PropertyKey::Symbol(vm.symbols.species);
    accessor_property(vm, ctor, species, "[Symbol.species]", Some(species_getter), None);
    let getter = ctor.borrow(&vm.heap).get_own(&vm.heap, species).and_then(|(accessor, _)| {
        accessor.as_internal::<crate::object::Accessor>().and_then(|a| a.borrow(&vm.heap).get.as_object())
    });
    if let Some(getter) = getter {
        vm.realm.intrinsics.promise_species_getter = getter;
    }
    for (name, length, f) in [
        ("all", 1, all as crate::function::NativeFn),
        ("allSettled", 1, all_settled),
        ("allKeyed", 1, all_keyed),
        ("allSettledKeyed", 1, all_settled_keyed),
        ("any", 1, any),
        ("race", 1, race),
        ("reject", 1, reject),
        ("resolve", 1, resolve),
        ("try", 1, try_),
        ("withResolvers", 0, with_resolvers),
    ] {
        let function = method(vm, ctor, name, length, f);
        if name == "resolve" {
            vm.realm.intrinsics.promise_resolve = function;
        }
    }
    vm.realm.intrinsics.promise_then = method(vm, proto, "then", 2, then);
    method(vm, proto, "catch", 1, catch);
    method(vm, proto, "finally", 1, finally);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let text = vm.string("Promise");
    define_builtin(vm, proto, tag, text, Attributes::CONFIGURABLE_ONLY);

    let async_proto = vm.realm.intrinsics.async_function_prototype;
    let text = vm.string("AsyncFunction");
    define_builtin(vm, async_proto, tag, text, Attributes::CONFIGURABLE_ONLY);

    let global = vm.realm.global;
    method(vm, global, "queueMicrotask", 1, queue_microtask);
}
