//! Async iteration (§27.1.4–6): `%AsyncIteratorPrototype%`,
//! GetIterator(obj, async) and the Async-from-Sync Iterator objects that
//! let `for await` walk a sync iterable, awaiting each value.
//!
//! The promises these methods return are made by `%Promise%` and settled
//! directly, without resolving function objects.

use js_gc::Gc;
use js_promise::{PromiseCapability, perform_promise_then, promise_reject_function, promise_resolve_function};

use super::iteration::{iter_result, iterator_close};
use super::promise::{capture, captured_value};
use super::{method, native_function_with_data, symbol_method};
use crate::abstract_ops::to_boolean;
use crate::interpreter::{CallInfo, IteratorRecord};
use crate::object::internal_methods::{call, get, get_method, get_value};
use crate::object::{Attributes, JsObject, ObjectKind, PropertyKey};
use crate::promise::new_promise_with_proto;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// GetIterator(obj, async) (§7.4.3): the async iterator, or an
/// Async-from-Sync Iterator over the sync one.
pub fn get_async_iterator(vm: &mut Vm, obj: Value) -> JsResult<Gc<IteratorRecord>> {
    let key = PropertyKey::Symbol(vm.symbols.async_iterator);
    let method = get_method(vm, obj, key)?;
    let Some(method) = method else {
        let sync = super::iteration::get_iterator(vm, obj)?;
        return create_async_from_sync_iterator(vm, sync);
    };
    async_iterator_from_method(vm, obj, method)
}

/// `GetIteratorFromMethod(obj, method)` for an `@@asyncIterator` method.
pub fn async_iterator_from_method(vm: &mut Vm, obj: Value, method: Value) -> JsResult<Gc<IteratorRecord>> {
    let iterator = call(vm, method, obj, &[])?;
    if !iterator.is_object() {
        return Err(vm.type_error("Result of the Symbol.asyncIterator method is not an object"));
    }
    vm.keep_alive(iterator);
    let next_key = PropertyKey::String(vm.names.next);
    let next = get_value(vm, iterator, next_key)?;
    Ok(vm.heap.alloc(IteratorRecord { iterator, next, done: false }))
}

/// `CreateAsyncFromSyncIterator(syncIteratorRecord)` (§27.1.6.1): the
/// record of an Async-from-Sync Iterator over `sync`.
pub fn create_async_from_sync_iterator(vm: &mut Vm, sync: Gc<IteratorRecord>) -> JsResult<Gc<IteratorRecord>> {
    vm.keep_alive(Value::internal(sync.into()));
    let proto = vm.realm.intrinsics.async_from_sync_iterator_prototype;
    let wrapper = vm.new_object_of_kind(Some(proto), ObjectKind::AsyncFromSyncIterator(sync));
    vm.keep_alive(Value::object(wrapper));
    let next_key = PropertyKey::String(vm.names.next);
    let next = get(vm, wrapper, next_key, Value::object(wrapper))?;
    Ok(vm.heap.alloc(IteratorRecord { iterator: Value::object(wrapper), next, done: false }))
}

fn async_iterator_self(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

/// A new `%Promise%` promise, kept alive for the running native function.
fn new_promise(vm: &mut Vm) -> Gc<JsObject> {
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = new_promise_with_proto(vm, proto);
    vm.keep_alive(Value::object(promise));
    promise
}

/// IfAbruptRejectPromise: a thrown value rejects `promise`, which is
/// returned; a termination propagates.
fn reject_with(vm: &mut Vm, promise: Gc<JsObject>, e: Exception) -> JsResult<Value> {
    let Exception::Throw(reason) = e else { return Err(e) };
    promise_reject_function(&mut vm.host(), promise, reason);
    vm.take_termination()?;
    Ok(Value::object(promise))
}

fn sync_record(vm: &mut Vm, this: Value) -> Option<Gc<IteratorRecord>> {
    match this.as_object().map(|o| &o.borrow(&vm.heap).kind) {
        Some(ObjectKind::AsyncFromSyncIterator(record)) => Some(*record),
        _ => None,
    }
}

/// `%AsyncFromSyncIteratorPrototype%.next` (§27.1.6.2.1).
fn from_sync_next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let promise = new_promise(vm);
    let Some(record) = sync_record(vm, info.this) else {
        let e = vm.type_error("not an Async-from-Sync Iterator");
        return reject_with(vm, promise, e);
    };
    let (iterator, next) = {
        let r = record.borrow(&vm.heap);
        (r.iterator, r.next)
    };
    let args: &[Value] = if info.argc > 0 { &[info.arg(vm, 0)] } else { &[] };
    let args = args.to_vec();
    let result = call(vm, next, iterator, &args)
        .and_then(|r| if r.is_object() { Ok(r) } else { Err(vm.type_error("Iterator result is not an object")) });
    match result {
        Ok(result) => continuation(vm, result, promise, record, true),
        Err(e) => reject_with(vm, promise, e),
    }
}

/// `return` and `throw` of `%AsyncFromSyncIteratorPrototype%`
/// (§27.1.6.2.2–3).
fn from_sync_abrupt(vm: &mut Vm, info: &CallInfo, is_throw: bool) -> JsResult<Value> {
    let promise = new_promise(vm);
    let Some(record) = sync_record(vm, info.this) else {
        let e = vm.type_error("not an Async-from-Sync Iterator");
        return reject_with(vm, promise, e);
    };
    let iterator = record.borrow(&vm.heap).iterator;
    let key = if is_throw { PropertyKey::String(vm.names.throw) } else { PropertyKey::String(vm.names.return_) };
    let method = match get_method(vm, iterator, key) {
        Ok(m) => m,
        Err(e) => return reject_with(vm, promise, e),
    };
    let value = info.arg(vm, 0);
    let Some(method) = method else {
        if is_throw {
            // The sync iterator cannot take the throw: close it and report
            // the protocol violation.
            if let Err(e) = iterator_close(vm, record) {
                return reject_with(vm, promise, e);
            }
            let e = vm.type_error("The iterator does not provide a 'throw' method");
            return reject_with(vm, promise, e);
        }
        let result = iter_result(vm, value, true);
        promise_resolve_function(&mut vm.host(), promise, result);
        vm.take_termination()?;
        return Ok(Value::object(promise));
    };
    let args: Vec<Value> = if info.argc > 0 || is_throw { vec![value] } else { Vec::new() };
    let result = call(vm, method, iterator, &args)
        .and_then(|r| if r.is_object() { Ok(r) } else { Err(vm.type_error("Iterator result is not an object")) });
    match result {
        Ok(result) => continuation(vm, result, promise, record, is_throw),
        Err(e) => reject_with(vm, promise, e),
    }
}

fn from_sync_return(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    from_sync_abrupt(vm, info, false)
}

fn from_sync_throw(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    from_sync_abrupt(vm, info, true)
}

/// AsyncFromSyncIteratorContinuation (§27.1.6.4): awaits the value and
/// settles `promise` with `{ value, done }`; a rejected value closes the
/// sync iterator when `close_on_rejection`.
fn continuation(
    vm: &mut Vm,
    result: Value,
    promise: Gc<JsObject>,
    record: Gc<IteratorRecord>,
    close_on_rejection: bool,
) -> JsResult<Value> {
    vm.keep_alive(result);
    let Some(result_obj) = result.as_object() else { return Ok(Value::object(promise)) };
    let done_key = PropertyKey::String(vm.names.done);
    let done = match get(vm, result_obj, done_key, result) {
        Ok(d) => to_boolean(vm, d),
        Err(e) => return reject_with(vm, promise, e),
    };
    let value_key = PropertyKey::String(vm.names.value);
    let value = match get(vm, result_obj, value_key, result) {
        Ok(v) => v,
        Err(e) => return reject_with(vm, promise, e),
    };
    let wrapper = match js_promise::promise_resolve(&mut vm.host(), value) {
        Ok(w) => w,
        Err(thrown) => {
            vm.take_termination()?;
            if !done && close_on_rejection {
                let _ = iterator_close(vm, record);
            }
            return reject_with(vm, promise, Exception::Throw(thrown));
        }
    };
    vm.keep_alive(Value::object(wrapper));
    let data = capture(vm, vec![Value::boolean(done), Value::internal(record.into())]);
    let on_fulfilled = Value::object(native_function_with_data(vm, "", 1, unwrap_value, data));
    vm.keep_alive(on_fulfilled);
    let on_rejected = if done || !close_on_rejection {
        Value::UNDEFINED
    } else {
        Value::object(native_function_with_data(vm, "", 1, close_and_rethrow, data))
    };
    vm.keep_alive(on_rejected);
    perform_promise_then(&mut vm.host(), wrapper, on_fulfilled, on_rejected, PromiseCapability::Intrinsic(promise));
    Ok(Value::object(promise))
}

/// `{ value, done }` for the awaited value.
fn unwrap_value(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let done = captured_value(vm, info, 0) == Value::TRUE;
    let v = info.arg(vm, 0);
    Ok(iter_result(vm, v, done))
}

/// Closes the sync iterator after its value was rejected, then rethrows.
fn close_and_rethrow(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let reason = info.arg(vm, 0);
    if let Some(record) = captured_value(vm, info, 1).as_internal::<IteratorRecord>()
        && let Err(Exception::Terminated) = iterator_close(vm, record)
    {
        return Err(Exception::Terminated);
    }
    Err(Exception::Throw(reason))
}

/// Steps an async iterator after its `next` result was awaited: a
/// non-object result is a TypeError; `Some(value)` unless done.
pub fn async_iterator_result(vm: &mut Vm, record: Gc<IteratorRecord>, result: Value) -> JsResult<Option<Value>> {
    let Some(result_obj) = result.as_object() else {
        return Err(vm.type_error("Iterator result is not an object"));
    };
    let step = super::iteration::iter_result_step(vm, result_obj, result)?;
    if step.is_none() {
        record.borrow_mut(&mut vm.heap).done = true;
    }
    Ok(step)
}

/// Installs `%AsyncIteratorPrototype%` and `%AsyncFromSyncIteratorPrototype%`.
pub(crate) fn install(vm: &mut Vm) {
    let async_iterator_proto = vm.realm.intrinsics.async_iterator_prototype;
    let symbol = vm.symbols.async_iterator;
    symbol_method(
        vm,
        async_iterator_proto,
        symbol,
        "[Symbol.asyncIterator]",
        0,
        async_iterator_self,
        Attributes::METHOD,
    );
    let from_sync = vm.realm.intrinsics.async_from_sync_iterator_prototype;
    method(vm, from_sync, "next", 1, from_sync_next);
    method(vm, from_sync, "return", 1, from_sync_return);
    method(vm, from_sync, "throw", 1, from_sync_throw);
}
