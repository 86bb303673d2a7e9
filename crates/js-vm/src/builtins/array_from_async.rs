//! `Array.fromAsync(asyncItems [, mapfn [, thisArg]])` (ES2026 §23.1.2.2):
//! an array from an async iterable, a sync iterable (its values awaited) or
//! an array-like, each value (and each `mapfn` result) awaited in turn.
//!
//! The spec runs an abstract closure as an async function. Here the closure
//! is a state machine in a [`FromAsyncState`] cell: every `Await` hooks a
//! pair of native reaction functions onto the awaited promise and returns,
//! and the reaction resumes the machine, so nothing waits on the native
//! stack.

use js_gc::{Gc, Trace, Tracer};
use js_promise::{PromiseCapability, perform_promise_then, promise_reject_function, promise_resolve_function};

use super::function::index_key;
use super::native_function_with_data;
use crate::abstract_ops::{is_callable, to_object};
use crate::interpreter::{CallInfo, IteratorRecord, is_constructor};
use crate::object::internal_methods::{
    call, construct, create_data_property_or_throw, get, get_method, length_of_array_like, set,
};
use crate::object::{JsObject, PropertyKey};
use crate::promise::new_promise_with_proto;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// The largest index an array-like can have, 2⁵³ − 1.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Where the values come from.
#[derive(Clone, Copy)]
enum Source {
    /// An async iterator (or an Async-from-Sync Iterator over a sync one).
    Iterator(Gc<IteratorRecord>),
    /// An array-like object and its length.
    ArrayLike(Gc<JsObject>, f64),
}

/// What the machine is waiting for.
#[derive(Clone, Copy, PartialEq)]
enum Awaiting {
    /// The iterator's `next` result.
    NextResult,
    /// The array-like's value at index `k`.
    Element,
    /// The `mapfn` result for index `k`.
    MappedValue,
    /// The result of the iterator's `return` while closing after `error`;
    /// `error` rejects the promise whatever `return` does.
    CloseResult(Value),
}

/// The slots of one `Array.fromAsync` call.
pub struct FromAsyncState {
    /// The promise `Array.fromAsync` returned.
    promise: Gc<JsObject>,
    /// `A`, the array (or `this`-constructed object) being filled.
    target: Gc<JsObject>,
    /// `mapfn`, if given.
    mapfn: Option<Value>,
    /// `thisArg` for `mapfn`.
    this_arg: Value,
    source: Source,
    /// The index of the value in flight.
    k: f64,
    awaiting: Awaiting,
}

// SAFETY: the promise, the target, the callback, the source and a pending
// error.
unsafe impl Trace for FromAsyncState {
    fn trace(&self, tracer: &mut Tracer) {
        self.promise.trace(tracer);
        self.target.trace(tracer);
        self.mapfn.trace(tracer);
        self.this_arg.trace(tracer);
        match self.source {
            Source::Iterator(record) => record.trace(tracer),
            Source::ArrayLike(object, _) => object.trace(tracer),
        }
        if let Awaiting::CloseResult(error) = self.awaiting {
            error.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "FromAsyncState"
    }
}

/// What one run of the machine ended with.
#[derive(Clone, Copy)]
enum Step {
    /// It awaits a promise; a reaction resumes it.
    Suspended,
    /// The closure returned `A`.
    Done(Value),
}

/// `Array.fromAsync(asyncItems [, mapfn [, thisArg]])`.
fn from_async(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = new_promise_with_proto(vm, proto);
    vm.keep_alive(Value::object(promise));
    let items = info.arg(vm, 0);
    let mapfn = info.arg(vm, 1);
    let this_arg = info.arg(vm, 2);
    let started = start(vm, info.this, items, mapfn, this_arg, promise);
    settle(vm, promise, started)?;
    Ok(Value::object(promise))
}

/// Settles the promise when the closure finished (returned or threw)
/// before awaiting again.
fn settle(vm: &mut Vm, promise: Gc<JsObject>, step: JsResult<Step>) -> JsResult<()> {
    match step {
        Ok(Step::Suspended) => return Ok(()),
        Ok(Step::Done(value)) => promise_resolve_function(&mut vm.host(), promise, value),
        Err(Exception::Throw(reason)) => promise_reject_function(&mut vm.host(), promise, reason),
        Err(Exception::Terminated) => return Err(Exception::Terminated),
    }
    vm.take_termination()
}

/// The closure up to its first `Await`: validates `mapfn`, picks the
/// source (async iterator, then sync iterator, then array-like) and makes
/// `A` with `this` as constructor when it is one.
fn start(
    vm: &mut Vm,
    constructor: Value,
    items: Value,
    mapfn: Value,
    this_arg: Value,
    promise: Gc<JsObject>,
) -> JsResult<Step> {
    let mapfn = if mapfn.is_undefined() {
        None
    } else if is_callable(vm, mapfn) {
        Some(mapfn)
    } else {
        return Err(vm.type_error("Array.fromAsync: when provided, the second argument must be a function"));
    };
    let async_key = PropertyKey::Symbol(vm.symbols.async_iterator);
    let using_async = get_method(vm, items, async_key)?;
    let using_sync = if using_async.is_none() {
        let key = PropertyKey::Symbol(vm.symbols.iterator);
        get_method(vm, items, key)?
    } else {
        None
    };
    let constructor = constructor.as_object().filter(|&c| is_constructor(vm, c));
    let (source, target) = if using_async.is_some() || using_sync.is_some() {
        let record = match (using_async, using_sync) {
            (Some(method), _) => super::async_iteration::async_iterator_from_method(vm, items, method)?,
            (None, Some(method)) => {
                let sync = super::iteration::get_iterator_from_method(vm, items, method)?;
                super::async_iteration::create_async_from_sync_iterator(vm, sync)?
            }
            (None, None) => return Err(vm.type_error("Array.fromAsync: no iterator")),
        };
        vm.keep_alive(Value::internal(record.into()));
        let target = match constructor {
            Some(c) => construct_target(vm, c, &[])?,
            None => super::array::array_create(vm, &[]),
        };
        (Source::Iterator(record), target)
    } else {
        let array_like = to_object(vm, items)?;
        vm.keep_alive(Value::object(array_like));
        let len = length_of_array_like(vm, array_like)?;
        let target = match constructor {
            Some(c) => construct_target(vm, c, &[Value::number(len)])?,
            None => super::array::array_with_length(vm, len)?,
        };
        (Source::ArrayLike(array_like, len), target)
    };
    vm.keep_alive(Value::object(target));
    let state = FromAsyncState { promise, target, mapfn, this_arg, source, k: 0.0, awaiting: Awaiting::NextResult };
    let state = vm.heap.alloc(state);
    vm.keep_alive(Value::internal(state.into()));
    next_value(vm, state)
}

/// `Construct(C, args)`, which must give an object.
fn construct_target(vm: &mut Vm, c: Gc<JsObject>, args: &[Value]) -> JsResult<Gc<JsObject>> {
    let a = construct(vm, c, args, None)?;
    a.as_object().ok_or_else(|| vm.type_error("Array.fromAsync: constructor did not return an object"))
}

/// Asks the source for its next value (or finishes): calls the iterator's
/// `next`, or reads the array-like's element, and awaits it.
fn next_value(vm: &mut Vm, state: Gc<FromAsyncState>) -> JsResult<Step> {
    let (source, k, target) = {
        let s = state.borrow(&vm.heap);
        (s.source, s.k, s.target)
    };
    match source {
        Source::Iterator(record) => {
            if k >= MAX_SAFE_INTEGER {
                let error = vm.type_error("Array.fromAsync: too many values");
                return async_iterator_close(vm, state, record, error);
            }
            let (iterator, next) = {
                let r = record.borrow(&vm.heap);
                (r.iterator, r.next)
            };
            let result = call(vm, next, iterator, &[])?;
            await_value(vm, state, Awaiting::NextResult, result)
        }
        Source::ArrayLike(array_like, len) => {
            if k >= len {
                set_length(vm, target, len)?;
                return Ok(Step::Done(Value::object(target)));
            }
            let key = index_key(vm, k as u64);
            let value = get(vm, array_like, key, Value::object(array_like))?;
            await_value(vm, state, Awaiting::Element, value)
        }
    }
}

/// `? Set(A, "length", len, true)`.
fn set_length(vm: &mut Vm, target: Gc<JsObject>, len: f64) -> JsResult<()> {
    let key = PropertyKey::String(vm.names.length);
    if !set(vm, target, key, Value::number(len), Value::object(target))? {
        return Err(vm.type_error("Cannot assign to read only property 'length' of object"));
    }
    Ok(())
}

/// `Await(value)`: resolves `value` to a `%Promise%` and resumes the
/// machine from its reactions. A throw from `PromiseResolve` (a promise
/// whose `constructor` getter throws) is the await's throw completion.
fn await_value(vm: &mut Vm, state: Gc<FromAsyncState>, awaiting: Awaiting, value: Value) -> JsResult<Step> {
    state.borrow_mut(&mut vm.heap).awaiting = awaiting;
    let promise = match js_promise::promise_resolve(&mut vm.host(), value) {
        Ok(p) => p,
        Err(thrown) => {
            vm.take_termination()?;
            return resume(vm, state, Err(thrown));
        }
    };
    vm.keep_alive(Value::object(promise));
    let data = Value::internal(state.into());
    let on_fulfilled = Value::object(native_function_with_data(vm, "", 1, on_fulfilled, data));
    vm.keep_alive(on_fulfilled);
    let on_rejected = Value::object(native_function_with_data(vm, "", 1, on_rejected, data));
    vm.keep_alive(on_rejected);
    perform_promise_then(&mut vm.host(), promise, on_fulfilled, on_rejected, PromiseCapability::Undefined);
    Ok(Step::Suspended)
}

/// The await's fulfilment reaction.
fn on_fulfilled(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let value = info.arg(vm, 0);
    reaction(vm, info, Ok(value))
}

/// The await's rejection reaction.
fn on_rejected(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let reason = info.arg(vm, 0);
    reaction(vm, info, Err(reason))
}

/// Resumes the machine with the awaited outcome and settles the promise if
/// the closure ends before its next await.
fn reaction(vm: &mut Vm, info: &CallInfo, outcome: Result<Value, Value>) -> JsResult<Value> {
    let Some(state) = info.data(vm).as_internal::<FromAsyncState>() else { return Ok(Value::UNDEFINED) };
    let promise = state.borrow(&vm.heap).promise;
    let step = resume(vm, state, outcome);
    settle(vm, promise, step)?;
    Ok(Value::UNDEFINED)
}

/// Continues the closure after an await with its outcome.
fn resume(vm: &mut Vm, state: Gc<FromAsyncState>, outcome: Result<Value, Value>) -> JsResult<Step> {
    let (awaiting, source, mapfn, this_arg, k, target) = {
        let s = state.borrow(&vm.heap);
        (s.awaiting, s.source, s.mapfn, s.this_arg, s.k, s.target)
    };
    match awaiting {
        Awaiting::CloseResult(error) => Err(Exception::Throw(error)),
        Awaiting::NextResult => {
            let Source::Iterator(record) = source else { return Err(vm.type_error("Array.fromAsync: bad state")) };
            let result = outcome.map_err(Exception::Throw)?;
            let Some(result_obj) = result.as_object() else {
                return Err(vm.type_error("Iterator result is not an object"));
            };
            let Some(value) = super::iteration::iter_result_step(vm, result_obj, result)? else {
                set_length(vm, target, k)?;
                return Ok(Step::Done(Value::object(target)));
            };
            let Some(mapfn) = mapfn else { return define_and_continue(vm, state, value) };
            match call(vm, mapfn, this_arg, &[value, Value::number(k)]) {
                Ok(mapped) => await_value(vm, state, Awaiting::MappedValue, mapped),
                Err(e) => async_iterator_close(vm, state, record, e),
            }
        }
        Awaiting::Element => {
            let value = outcome.map_err(Exception::Throw)?;
            let Some(mapfn) = mapfn else { return define_and_continue(vm, state, value) };
            let mapped = call(vm, mapfn, this_arg, &[value, Value::number(k)])?;
            await_value(vm, state, Awaiting::MappedValue, mapped)
        }
        Awaiting::MappedValue => match (outcome, source) {
            (Ok(value), _) => define_and_continue(vm, state, value),
            (Err(reason), Source::Iterator(record)) => {
                async_iterator_close(vm, state, record, Exception::Throw(reason))
            }
            (Err(reason), Source::ArrayLike(..)) => Err(Exception::Throw(reason)),
        },
    }
}

/// `CreateDataPropertyOrThrow(A, k, value)` (a failure closes an iterator
/// source), then on to the next index.
fn define_and_continue(vm: &mut Vm, state: Gc<FromAsyncState>, value: Value) -> JsResult<Step> {
    let (target, k, source) = {
        let s = state.borrow(&vm.heap);
        (s.target, s.k, s.source)
    };
    let key = index_key(vm, k as u64);
    if let Err(e) = create_data_property_or_throw(vm, target, key, value) {
        return match source {
            Source::Iterator(record) => async_iterator_close(vm, state, record, e),
            Source::ArrayLike(..) => Err(e),
        };
    }
    state.borrow_mut(&mut vm.heap).k = k + 1.0;
    next_value(vm, state)
}

/// `AsyncIteratorClose(iteratorRecord, throw completion error)`: calls
/// `return` and awaits its result before rethrowing `error`; a missing
/// `return` or a failure to call it rethrows at once.
fn async_iterator_close(
    vm: &mut Vm,
    state: Gc<FromAsyncState>,
    record: Gc<IteratorRecord>,
    error: Exception,
) -> JsResult<Step> {
    let Exception::Throw(error_value) = error else { return Err(error) };
    vm.keep_alive(error_value);
    let iterator = record.borrow(&vm.heap).iterator;
    let key = PropertyKey::String(vm.names.return_);
    let method = match get_method(vm, iterator, key) {
        Ok(Some(method)) => method,
        Ok(None) | Err(Exception::Throw(_)) => return Err(Exception::Throw(error_value)),
        Err(Exception::Terminated) => return Err(Exception::Terminated),
    };
    match call(vm, method, iterator, &[]) {
        Ok(result) => await_value(vm, state, Awaiting::CloseResult(error_value), result),
        Err(Exception::Throw(_)) => Err(Exception::Throw(error_value)),
        Err(Exception::Terminated) => Err(Exception::Terminated),
    }
}

/// Installs `Array.fromAsync` on the `Array` constructor.
pub(crate) fn install(vm: &mut Vm, array_ctor: Gc<JsObject>) {
    super::method(vm, array_ctor, "fromAsync", 1, from_async);
}
