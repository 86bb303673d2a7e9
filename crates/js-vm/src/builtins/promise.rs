//! The Promise constructor, `Promise.prototype` and the combinators
//! (§27.2), over js-promise's state and algorithms.
//!
//! `then` on a native promise whose species is `%Promise%` takes the
//! crate's fast path (no resolving functions, an inline reaction);
//! subclasses and foreign constructors go through NewPromiseCapability.
//! Combinator element functions are function objects, since `then` (which
//! may be user code) receives them.

use js_gc::{Gc, Trace, Tracer};
use js_promise::{PromiseCapability, create_resolving_functions, perform_promise_then, promise_then};

use super::iteration::{get_iterator, iterator_close, iterator_step_value};
use super::{accessor_property, constructor, method, native_function_with_data};
use crate::abstract_ops::is_callable;
use crate::interpreter::{CallInfo, IteratorRecord, is_constructor};
use crate::object::internal_methods::{call, construct, create_data_property_or_throw, define_builtin, get};
use crate::object::{Attributes, JsObject, PropertyKey};
use crate::promise::{as_promise, new_promise_with_proto};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

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

/// Which combinator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combinator {
    All,
    AllSettled,
    Any,
    Race,
}

/// `Promise.allKeyed` and `Promise.allSettledKeyed` (the await-dictionary
/// proposal): like `all`/`allSettled` over an object's own enumerable
/// properties, resolving to a null-prototype object with the same keys.
fn keyed_combinator(vm: &mut Vm, info: &CallInfo, which: Combinator, name: &str) -> JsResult<Value> {
    let c = this_constructor(vm, info, name)?;
    let capability = new_promise_capability(vm, c)?;
    let key = vm.key("resolve");
    let promise_resolve = match c.as_object().map(|co| get(vm, co, key, c)) {
        Some(Ok(f)) if is_callable(vm, f) => Ok(f),
        Some(Err(e)) => Err(e),
        _ => Err(vm.type_error("Promise resolve or reject function is not callable")),
    };
    let promises = info.arg(vm, 0);
    let result = promise_resolve.and_then(|promise_resolve| {
        vm.keep_alive(promise_resolve);
        let Some(object) = promises.as_object() else {
            return Err(vm.type_error(&format!("Promise.{name} requires an object")));
        };
        perform_keyed(vm, which, object, c, capability, promise_resolve)
    });
    match result {
        Ok(v) => Ok(v),
        Err(Exception::Throw(reason)) => {
            call(vm, capability.reject, Value::UNDEFINED, &[reason])?;
            Ok(capability.promise)
        }
        Err(e) => Err(e),
    }
}

fn perform_keyed(
    vm: &mut Vm,
    which: Combinator,
    object: Gc<JsObject>,
    c: Value,
    capability: Capability,
    promise_resolve: Value,
) -> JsResult<Value> {
    let all_keys = crate::object::internal_methods::own_property_keys(vm, object)?;
    vm.keep_keys_alive(&all_keys);
    let state = vm.heap.alloc(CombinatorState { values: Vec::new(), remaining: 1, capability, keys: None });
    vm.keep_alive(Value::internal(state.as_any()));
    let mut keys = Vec::new();
    for key in all_keys {
        let Some(desc) = crate::object::internal_methods::get_own_property(vm, object, key)? else { continue };
        if desc.enumerable != Some(true) {
            continue;
        }
        let value = get(vm, object, key, Value::object(object))?;
        let key_value = super::object::key_to_value(vm, key);
        keys.push(key_value);
        vm.keep_alive(key_value);
        let index = keys.len() - 1;
        state.borrow_mut(&mut vm.heap).values.push(Value::UNDEFINED);
        let next_promise = call(vm, promise_resolve, c, &[value])?;
        vm.keep_alive(next_promise);
        let element = vm.heap.alloc(ElementRecord { state, index, already_called: false });
        let data = Value::internal(element.as_any());
        let (on_fulfilled, on_rejected) = if which == Combinator::All {
            (Value::object(native_function_with_data(vm, "", 1, all_resolve_element, data)), capability.reject)
        } else {
            (
                Value::object(native_function_with_data(vm, "", 1, all_settled_resolve_element, data)),
                Value::object(native_function_with_data(vm, "", 1, all_settled_reject_element, data)),
            )
        };
        vm.keep_alive(on_fulfilled);
        vm.keep_alive(on_rejected);
        state.borrow_mut(&mut vm.heap).remaining += 1;
        invoke_then(vm, next_promise, &[on_fulfilled, on_rejected])?;
    }
    // The keys ride with the values: the element functions only fill
    // `values`; the result object is made once all are in.
    let key_list = crate::builtins::array::array_create(vm, &keys);
    vm.keep_alive(Value::object(key_list));
    {
        let s = state.borrow_mut(&mut vm.heap);
        s.keys = Some(key_list);
        s.remaining -= 1;
    }
    if state.borrow(&vm.heap).remaining == 0 {
        finish_combinator(vm, which, state)?;
    }
    Ok(capability.promise)
}

/// `Promise.all`, `allSettled`, `any` and `race` (§27.2.4.1–5): the
/// common frame of GetPromiseResolve, GetIterator and the rejection of the
/// capability on an abrupt completion.
fn combinator(vm: &mut Vm, info: &CallInfo, which: Combinator, name: &str) -> JsResult<Value> {
    let c = this_constructor(vm, info, name)?;
    let capability = new_promise_capability(vm, c)?;
    let key = vm.key("resolve");
    let promise_resolve = match c.as_object().map(|co| get(vm, co, key, c)) {
        Some(Ok(f)) if is_callable(vm, f) => Ok(f),
        Some(Err(e)) => Err(e),
        _ => Err(vm.type_error("Promise resolve or reject function is not callable")),
    };
    let result = promise_resolve.and_then(|promise_resolve| {
        vm.keep_alive(promise_resolve);
        let iterable = info.arg(vm, 0);
        let record = get_iterator(vm, iterable)?;
        vm.keep_alive(Value::internal(record.into()));
        let result = perform_combinator(vm, which, record, c, capability, promise_resolve);
        if let Err(Exception::Throw(_)) = &result
            && !record.borrow(&vm.heap).done
        {
            // IteratorClose with a throw completion keeps the original one.
            let _ = iterator_close(vm, record);
        }
        result
    });
    match result {
        Ok(v) => Ok(v),
        Err(Exception::Throw(reason)) => {
            call(vm, capability.reject, Value::UNDEFINED, &[reason])?;
            Ok(capability.promise)
        }
        Err(e) => Err(e),
    }
}

/// The state shared by a combinator's element functions: the values (or
/// errors) list, the remaining count and the capability.
struct CombinatorState {
    values: Vec<Value>,
    remaining: u32,
    capability: Capability,
    /// For the keyed combinators: the keys, in order, as an array.
    keys: Option<Gc<JsObject>>,
}

// SAFETY: the values and the capability's values are all the pointers.
unsafe impl Trace for CombinatorState {
    fn trace(&self, tracer: &mut Tracer) {
        self.values.trace(tracer);
        self.keys.trace(tracer);
        self.capability.promise.trace(tracer);
        self.capability.resolve.trace(tracer);
        self.capability.reject.trace(tracer);
    }

    fn type_name() -> &'static str {
        "PromiseCombinatorState"
    }
}

/// One element's functions' record: `[[AlreadyCalled]]` and `[[Index]]`.
struct ElementRecord {
    state: Gc<CombinatorState>,
    index: usize,
    already_called: bool,
}

// SAFETY: the shared state is the only pointer.
unsafe impl Trace for ElementRecord {
    fn trace(&self, tracer: &mut Tracer) {
        self.state.trace(tracer);
    }

    fn type_name() -> &'static str {
        "PromiseElementRecord"
    }
}

fn perform_combinator(
    vm: &mut Vm,
    which: Combinator,
    record: Gc<IteratorRecord>,
    c: Value,
    capability: Capability,
    promise_resolve: Value,
) -> JsResult<Value> {
    let state = vm.heap.alloc(CombinatorState { values: Vec::new(), remaining: 1, capability, keys: None });
    vm.keep_alive(Value::internal(state.as_any()));
    let mut index = 0;
    loop {
        let Some(next) = iterator_step_value(vm, record)? else {
            if which == Combinator::Race {
                return Ok(capability.promise);
            }
            let remaining = {
                let s = state.borrow_mut(&mut vm.heap);
                s.remaining -= 1;
                s.remaining
            };
            if remaining == 0 {
                finish_combinator(vm, which, state)?;
            }
            return Ok(capability.promise);
        };
        let next_promise = call(vm, promise_resolve, c, &[next])?;
        vm.keep_alive(next_promise);
        if which == Combinator::Race {
            invoke_then(vm, next_promise, &[capability.resolve, capability.reject])?;
            continue;
        }
        state.borrow_mut(&mut vm.heap).values.push(Value::UNDEFINED);
        let element = vm.heap.alloc(ElementRecord { state, index, already_called: false });
        let data = Value::internal(element.as_any());
        let (on_fulfilled, on_rejected) = match which {
            Combinator::All => {
                (Value::object(native_function_with_data(vm, "", 1, all_resolve_element, data)), capability.reject)
            }
            Combinator::AllSettled => (
                Value::object(native_function_with_data(vm, "", 1, all_settled_resolve_element, data)),
                Value::object(native_function_with_data(vm, "", 1, all_settled_reject_element, data)),
            ),
            Combinator::Any | Combinator::Race => {
                (capability.resolve, Value::object(native_function_with_data(vm, "", 1, any_reject_element, data)))
            }
        };
        vm.keep_alive(on_fulfilled);
        vm.keep_alive(on_rejected);
        state.borrow_mut(&mut vm.heap).remaining += 1;
        invoke_then(vm, next_promise, &[on_fulfilled, on_rejected])?;
        index += 1;
    }
}

/// Settles the combinator's promise once every element has reported.
fn finish_combinator(vm: &mut Vm, which: Combinator, state: Gc<CombinatorState>) -> JsResult<()> {
    let (values, capability, keys) = {
        let s = state.borrow(&vm.heap);
        (s.values.clone(), s.capability, s.keys)
    };
    for &v in &values {
        vm.keep_alive(v);
    }
    if let Some(keys) = keys {
        let result = vm.new_object(None);
        vm.keep_alive(Value::object(result));
        for (i, &value) in values.iter().enumerate() {
            let key_value = get(vm, keys, PropertyKey::Index(i as u32), Value::object(keys))?;
            let key = crate::abstract_ops::to_property_key(vm, key_value)?;
            create_data_property_or_throw(vm, result, key, value)?;
        }
        call(vm, capability.resolve, Value::UNDEFINED, &[Value::object(result)])?;
        return Ok(());
    }
    let array = super::array::array_create(vm, &values);
    vm.keep_alive(Value::object(array));
    if which == Combinator::Any {
        let error = vm.make_error(super::error::ErrorKind::Aggregate, "All promises were rejected");
        vm.keep_alive(Value::object(error));
        let key = PropertyKey::String(vm.names.errors);
        define_builtin(vm, error, key, Value::object(array), Attributes::METHOD);
        call(vm, capability.reject, Value::UNDEFINED, &[Value::object(error)])?;
    } else {
        call(vm, capability.resolve, Value::UNDEFINED, &[Value::object(array)])?;
    }
    Ok(())
}

/// Records `value` at the element's index unless already called; settles
/// when it was the last element.
fn element_step(vm: &mut Vm, info: &CallInfo, which: Combinator, value: Value) -> JsResult<Value> {
    let Some(element) = info.data(vm).as_internal::<ElementRecord>() else { return Ok(Value::UNDEFINED) };
    let (state, index) = {
        let e = element.borrow_mut(&mut vm.heap);
        if e.already_called {
            return Ok(Value::UNDEFINED);
        }
        e.already_called = true;
        (e.state, e.index)
    };
    let remaining = {
        let s = state.borrow_mut(&mut vm.heap);
        if let Some(slot) = s.values.get_mut(index) {
            *slot = value;
        }
        s.remaining -= 1;
        s.remaining
    };
    if remaining == 0 {
        finish_combinator(vm, which, state)?;
    }
    Ok(Value::UNDEFINED)
}

fn all_resolve_element(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = info.arg(vm, 0);
    element_step(vm, info, Combinator::All, x)
}

/// `{ status, value }` or `{ status, reason }`.
fn settled_record(vm: &mut Vm, status: &str, key: &str, x: Value) -> JsResult<Value> {
    let o = vm.new_plain_object();
    vm.keep_alive(Value::object(o));
    let status_key = vm.key("status");
    let status_value = vm.string(status);
    create_data_property_or_throw(vm, o, status_key, status_value)?;
    let value_key = vm.key(key);
    create_data_property_or_throw(vm, o, value_key, x)?;
    Ok(Value::object(o))
}

fn all_settled_resolve_element(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    all_settled_element(vm, info, "fulfilled", "value")
}

fn all_settled_reject_element(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    all_settled_element(vm, info, "rejected", "reason")
}

/// The shared body of allSettled's element functions: a `{ status, key }`
/// record, made only on the first call (the record is observable).
fn all_settled_element(vm: &mut Vm, info: &CallInfo, status: &str, key: &str) -> JsResult<Value> {
    let x = info.arg(vm, 0);
    if info.data(vm).as_internal::<ElementRecord>().is_some_and(|e| e.borrow(&vm.heap).already_called) {
        return Ok(Value::UNDEFINED);
    }
    let record = settled_record(vm, status, key, x)?;
    element_step(vm, info, Combinator::AllSettled, record)
}

fn any_reject_element(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = info.arg(vm, 0);
    element_step(vm, info, Combinator::Any, x)
}

fn all(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::All, "all")
}

fn all_settled(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::AllSettled, "allSettled")
}

fn any(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::Any, "any")
}

fn race(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::Race, "race")
}

fn all_keyed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    keyed_combinator(vm, info, Combinator::All, "allKeyed")
}

fn all_settled_keyed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    keyed_combinator(vm, info, Combinator::AllSettled, "allSettledKeyed")
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
        method(vm, ctor, name, length, f);
    }
    method(vm, proto, "then", 2, then);
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
