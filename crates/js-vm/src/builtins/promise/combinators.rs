//! `Promise.all`, `allSettled`, `any` and `race` (§27.2.4.1–5) and the
//! keyed `allKeyed` and `allSettledKeyed` (the await-dictionary proposal).
//!
//! Each element's reactions are registered as the spec says, element
//! functions handed to `Invoke(nextPromise, "then", …)`, unless nothing in
//! that step can be observed: `this` is %Promise%, its `resolve` is
//! %Promise.resolve%, and the element is a native promise on which `then`
//! finds %Promise.prototype.then% and the species %Promise%
//! ([`Vm::promise_then_is_intact_given_constructor`]). Then the element functions could
//! only ever be called by the reaction `then` registers, and the promise
//! `then` derives could never be seen: its handlers are the element
//! functions and %Promise%'s own resolving functions, which return
//! `undefined` and absorb every abrupt completion, so it is fulfilled with
//! `undefined` and has no reactions. Neither is made: the element's record
//! rides in a slim reaction whose job ([`PROMISE_COMBINATOR_ELEMENT`]) runs
//! the element function's steps. The job is queued where the full
//! reaction's would be, so the order of jobs does not change.

use js_gc::{Gc, Trace, Tracer};
use js_promise::{Continuation, PromiseHost, perform_promise_then_continuation, reject_promise};

use super::super::iteration::{get_iterator, iterator_close, iterator_step_value};
use super::super::native_function_with_data;
use super::{Capability, invoke_then, new_promise_capability, this_constructor};
use crate::abstract_ops::is_callable;
use crate::interpreter::{CallInfo, IteratorRecord};
use crate::object::internal_methods::{call, create_data_property_or_throw, define_builtin, get};
use crate::object::{Attributes, JsObject, PropertyKey};
use crate::promise::{PROMISE_COMBINATOR_ELEMENT, as_promise};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// Which combinator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combinator {
    All,
    AllSettled,
    Any,
    Race,
}

/// `C` and the `promiseResolve` GetPromiseResolve read from it: what
/// `Call(promiseResolve, C, « value »)` needs for each element.
#[derive(Clone, Copy)]
struct ElementResolve {
    c: Value,
    promise_resolve: Value,
    /// `C` is this realm's %Promise% and `promiseResolve` its
    /// %Promise.resolve%, so the capability's functions are %Promise%'s own
    /// resolving functions.
    intrinsic: bool,
}

impl ElementResolve {
    fn new(vm: &Vm, c: Value, promise_resolve: Value) -> Self {
        let intrinsics = &vm.realm.intrinsics;
        let intrinsic = c == Value::object(intrinsics.promise_constructor)
            && promise_resolve == Value::object(intrinsics.promise_resolve);
        Self { c, promise_resolve, intrinsic }
    }

    /// `Call(promiseResolve, C, « value »)`. %Promise.resolve% returns a
    /// native promise whose `constructor` is %Promise% as it is (PromiseResolve
    /// step 1), found here without the call.
    fn resolve(self, vm: &mut Vm, value: Value) -> JsResult<ResolvedElement> {
        if self.intrinsic
            && let Some(p) = as_promise(vm, value)
            && vm.host().promise_constructor_is_intact(p)
        {
            return Ok(ResolvedElement { promise: value, intact: Some(p) });
        }
        let promise = call(vm, self.promise_resolve, self.c, &[value])?;
        let intact = if self.intrinsic {
            as_promise(vm, promise).filter(|&p| vm.host().promise_constructor_is_intact(p))
        } else {
            None
        };
        Ok(ResolvedElement { promise, intact })
    }
}

/// An element's `nextPromise`, and what is known of it for the fast `then`.
#[derive(Clone, Copy)]
struct ResolvedElement {
    promise: Value,
    /// The promise, when it is native with %Promise% as its `constructor`
    /// and [`ElementResolve::intrinsic`] holds (found once, by `resolve`).
    intact: Option<Gc<JsObject>>,
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
        perform_keyed(vm, which, object, capability, ElementResolve::new(vm, c, promise_resolve))
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
    capability: Capability,
    resolve: ElementResolve,
) -> JsResult<Value> {
    let all_keys = crate::object::internal_methods::own_property_keys(vm, object)?;
    vm.keep_keys_alive(&all_keys);
    let state = vm.heap.alloc(CombinatorState { values: Vec::new(), remaining: 1, capability, keys: None, which });
    vm.keep_alive(Value::internal(state.as_any()));
    let mut keys = Vec::new();
    for key in all_keys {
        let Some(desc) = crate::object::internal_methods::get_own_property(vm, object, key)? else { continue };
        if desc.enumerable != Some(true) {
            continue;
        }
        let value = get(vm, object, key, Value::object(object))?;
        let key_value = super::super::object::key_to_value(vm, key);
        keys.push(key_value);
        vm.keep_alive(key_value);
        let index = keys.len() - 1;
        state.borrow_mut(&mut vm.heap).values.push(Value::UNDEFINED);
        let next = resolve.resolve(vm, value)?;
        vm.keep_alive(next.promise);
        then_element(vm, state, index, next)?;
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
        finish_combinator(vm, state)?;
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
        let result = perform_combinator(vm, which, record, capability, ElementResolve::new(vm, c, promise_resolve));
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
    which: Combinator,
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
    capability: Capability,
    resolve: ElementResolve,
) -> JsResult<Value> {
    let state = vm.heap.alloc(CombinatorState { values: Vec::new(), remaining: 1, capability, keys: None, which });
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
                finish_combinator(vm, state)?;
            }
            return Ok(capability.promise);
        };
        let next = resolve.resolve(vm, next)?;
        vm.keep_alive(next.promise);
        if which != Combinator::Race {
            state.borrow_mut(&mut vm.heap).values.push(Value::UNDEFINED);
        }
        then_element(vm, state, index, next)?;
        index += 1;
    }
}

/// Registers the reactions of element `index` on its `nextPromise`: the
/// element functions through `Invoke(nextPromise, "then", …)`, or, when
/// the promise is [`ResolvedElement::intact`] and its `then` is the
/// intrinsic one, a slim reaction carrying the element's record (see the module
/// documentation). `race` has no element functions: its reactions are the
/// capability's own functions.
fn then_element(vm: &mut Vm, state: Gc<CombinatorState>, index: usize, next: ResolvedElement) -> JsResult<()> {
    let next_promise = next.promise;
    let (which, capability) = {
        let s = state.borrow(&vm.heap);
        (s.which, s.capability)
    };
    if which != Combinator::Race {
        state.borrow_mut(&mut vm.heap).remaining += 1;
    }
    if let Some(p) = next.intact
        && vm.promise_then_is_intact_given_constructor(p)
    {
        // The record is reachable from the reaction, and the reaction from
        // the promise, which the caller keeps alive.
        let element = vm.heap.alloc(ElementRecord { state, index, already_called: false });
        let continuation = Continuation { job: PROMISE_COMBINATOR_ELEMENT, data: Value::internal(element.as_any()) };
        perform_promise_then_continuation(&mut vm.host(), p, continuation);
        return vm.take_termination();
    }
    if which == Combinator::Race {
        invoke_then(vm, next_promise, &[capability.resolve, capability.reject])?;
        return Ok(());
    }
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
    invoke_then(vm, next_promise, &[on_fulfilled, on_rejected])?;
    Ok(())
}

/// Settles the combinator's promise once every element has reported.
fn finish_combinator(vm: &mut Vm, state: Gc<CombinatorState>) -> JsResult<()> {
    let (values, capability, keys, which) = {
        let s = state.borrow(&vm.heap);
        (s.values.clone(), s.capability, s.keys, s.which)
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
    let array = super::super::array::array_create(vm, &values);
    vm.keep_alive(Value::object(array));
    if which == Combinator::Any {
        let error = vm.make_error(super::super::error::ErrorKind::Aggregate, "All promises were rejected");
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
fn element_step(vm: &mut Vm, element: Gc<ElementRecord>, value: Value) -> JsResult<()> {
    let (state, index) = {
        let e = element.borrow_mut(&mut vm.heap);
        if e.already_called {
            return Ok(());
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
        finish_combinator(vm, state)?;
    }
    Ok(())
}

/// The element of an element function's `[[Data]]`.
fn element_of(vm: &Vm, info: &CallInfo) -> Option<Gc<ElementRecord>> {
    info.data(vm).as_internal::<ElementRecord>()
}

fn all_resolve_element(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = info.arg(vm, 0);
    if let Some(element) = element_of(vm, info) {
        element_step(vm, element, x)?;
    }
    Ok(Value::UNDEFINED)
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
    let x = info.arg(vm, 0);
    if let Some(element) = element_of(vm, info) {
        all_settled_element(vm, element, "fulfilled", "value", x)?;
    }
    Ok(Value::UNDEFINED)
}

fn all_settled_reject_element(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = info.arg(vm, 0);
    if let Some(element) = element_of(vm, info) {
        all_settled_element(vm, element, "rejected", "reason", x)?;
    }
    Ok(Value::UNDEFINED)
}

/// The shared body of allSettled's element functions: a `{ status, key }`
/// record, made only on the first call (the record is observable).
fn all_settled_element(vm: &mut Vm, element: Gc<ElementRecord>, status: &str, key: &str, x: Value) -> JsResult<()> {
    if element.borrow(&vm.heap).already_called {
        return Ok(());
    }
    let record = settled_record(vm, status, key, x)?;
    element_step(vm, element, record)
}

fn any_reject_element(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = info.arg(vm, 0);
    if let Some(element) = element_of(vm, info) {
        element_step(vm, element, x)?;
    }
    Ok(Value::UNDEFINED)
}

/// The job of an element's slim reaction ([`PROMISE_COMBINATOR_ELEMENT`]):
/// what the handler the spec's `then` would have been given does with the
/// element promise's `outcome`. The handler's result went to the derived
/// promise nobody could see, so it is dropped.
pub(crate) fn element_settled(vm: &mut Vm, data: Value, outcome: Result<Value, Value>) -> JsResult<()> {
    let Some(element) = data.as_internal::<ElementRecord>() else { return Ok(()) };
    let state = element.borrow(&vm.heap).state;
    let (which, capability) = {
        let s = state.borrow(&vm.heap);
        (s.which, s.capability)
    };
    let result = match (which, outcome) {
        (Combinator::All, Ok(value)) | (Combinator::Any, Err(value)) => element_step(vm, element, value),
        (Combinator::AllSettled, Ok(value)) => all_settled_element(vm, element, "fulfilled", "value", value),
        (Combinator::AllSettled, Err(reason)) => all_settled_element(vm, element, "rejected", "reason", reason),
        (Combinator::All | Combinator::Race, Err(reason)) => {
            call(vm, capability.reject, Value::UNDEFINED, &[reason]).map(drop)
        }
        (Combinator::Any | Combinator::Race, Ok(value)) => {
            call(vm, capability.resolve, Value::UNDEFINED, &[value]).map(drop)
        }
    };
    match result {
        Ok(()) => Ok(()),
        // Only the engine's own errors (a full stack, the heap limit): the
        // spec's derived promise would have been rejected with it, which
        // the rejection tracker reports as unhandled.
        Err(Exception::Throw(reason)) => {
            let derived = vm.host().new_promise();
            reject_promise(&mut vm.host(), derived, reason);
            vm.take_termination()
        }
        Err(Exception::Terminated) => Err(Exception::Terminated),
    }
}

/// `Promise.all` (§27.2.4.1).
pub(super) fn all(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::All, "all")
}

/// `Promise.allSettled` (§27.2.4.2).
pub(super) fn all_settled(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::AllSettled, "allSettled")
}

/// `Promise.any` (§27.2.4.3).
pub(super) fn any(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::Any, "any")
}

/// `Promise.race` (§27.2.4.5).
pub(super) fn race(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    combinator(vm, info, Combinator::Race, "race")
}

/// `Promise.allKeyed` (the await-dictionary proposal).
pub(super) fn all_keyed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    keyed_combinator(vm, info, Combinator::All, "allKeyed")
}

/// `Promise.allSettledKeyed` (the await-dictionary proposal).
pub(super) fn all_settled_keyed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    keyed_combinator(vm, info, Combinator::AllSettled, "allSettledKeyed")
}
