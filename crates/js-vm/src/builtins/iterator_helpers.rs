//! The `Iterator` global and iterator helpers (§27.1.3, ES2025):
//! `Iterator.from`, the lazy `map`/`filter`/`take`/`drop`/`flatMap` (each
//! an Iterator Helper object stepping its underlying iterator on demand) and
//! the eager `reduce`/`toArray`/`forEach`/`some`/`every`/`find`.
//!
//! The helper objects of the later proposals (`Iterator.concat`,
//! `Iterator.zip`, `chunks`, `windows`) share `%IteratorHelperPrototype%`
//! and the run-state machine here; their stepping lives in their own
//! modules.

use js_gc::{Gc, Trace, Tracer};

use super::iteration::{iter_result, iterator_close, iterator_step_value};
use super::{accessor_property, method, native_function};
use crate::abstract_ops::{is_callable, to_boolean, to_integer_or_infinity, to_number};
use crate::interpreter::{CallInfo, IteratorRecord};
use crate::object::internal_methods::{
    call, create_data_property_or_throw, define_builtin, get_method, get_own_property, get_value,
    ordinary_has_instance, set,
};
use crate::object::{Attributes, DataClass, JsObject, KindData, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// An Iterator Helper (`map`, `filter`, `take`, `drop`, `flatMap`,
/// `chunks`, `windows`, `Iterator.concat`, `Iterator.zip`/`zipKeyed`): its
/// slots are a [`HelperState`] cell.
static ITERATOR_HELPER: DataClass = DataClass::plain::<HelperState>("IteratorHelper");

/// A `%WrapForValidIteratorPrototype%` object (`Iterator.from`): its slot
/// is `[[Iterated]]`, an iterator record cell.
static WRAP_FOR_VALID_ITERATOR: DataClass = DataClass::plain::<IteratorRecord>("WrapForValidIterator");

/// What an Iterator Helper does with each value of its underlying iterator.
#[derive(Clone, Copy)]
pub enum HelperKind {
    /// `map(mapper)`.
    Map(Value),
    /// `filter(predicate)`.
    Filter(Value),
    /// `take(limit)`: how many values remain.
    Take(f64),
    /// `drop(limit)`: how many values are still to be skipped.
    Drop(f64),
    /// `flatMap(mapper)`, with the inner iterator being flattened.
    FlatMap(Value, Option<Gc<IteratorRecord>>),
    /// `Iterator.concat(...items)`.
    Concat(Gc<super::iterator_sequencing::ConcatState>),
    /// `Iterator.zip` / `Iterator.zipKeyed`.
    Zip(Gc<super::iterator_zip::ZipState>),
    /// `chunks(chunkSize)`.
    Chunks(u32),
    /// `windows(windowSize, undersized)`.
    Windows(Gc<super::iterator_chunking::WindowsState>),
}

/// Where an Iterator Helper is in its run.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum HelperStatus {
    /// Not started.
    SuspendedStart,
    /// Yielded a value.
    SuspendedYield,
    /// In `next` now (re-entry is a TypeError, as for generators).
    Executing,
    /// Done.
    Completed,
}

/// An Iterator Helper object's slots.
pub struct HelperState {
    /// `[[UnderlyingIterator]]`; `None` for the helpers over several
    /// iterators (`concat`, `zip`), whose state keeps them.
    pub underlying: Option<Gc<IteratorRecord>>,
    /// The operation.
    pub kind: HelperKind,
    /// The counter passed to callbacks.
    pub counter: f64,
    /// The run state.
    pub status: HelperStatus,
}

// SAFETY: the underlying record, the callback and the inner record.
unsafe impl Trace for HelperState {
    fn trace(&self, tracer: &mut Tracer) {
        self.underlying.trace(tracer);
        match &self.kind {
            HelperKind::Map(f) | HelperKind::Filter(f) => f.trace(tracer),
            HelperKind::FlatMap(f, inner) => {
                f.trace(tracer);
                inner.trace(tracer);
            }
            HelperKind::Concat(state) => state.trace(tracer),
            HelperKind::Zip(state) => state.trace(tracer),
            HelperKind::Windows(state) => state.trace(tracer),
            HelperKind::Take(_) | HelperKind::Drop(_) | HelperKind::Chunks(_) => {}
        }
    }
}

/// GetIteratorDirect(obj).
pub(crate) fn get_iterator_direct(vm: &mut Vm, obj: Value) -> JsResult<Gc<IteratorRecord>> {
    let key = PropertyKey::String(vm.names.next);
    let next = get_value(vm, obj, key)?;
    let record = vm.heap.alloc(IteratorRecord { iterator: obj, next, done: false });
    vm.keep_alive(Value::internal(record.into()));
    Ok(record)
}

/// IteratorClose(iterated, throw completion `error`): returns `error`
/// (unless closing was terminated).
pub(crate) fn close_with_error(vm: &mut Vm, iterator: Value, error: Exception) -> Exception {
    let record = vm.heap.alloc(IteratorRecord { iterator, next: Value::UNDEFINED, done: false });
    match iterator_close(vm, record) {
        Err(Exception::Terminated) => Exception::Terminated,
        _ => error,
    }
}

/// The `this` of an `Iterator.prototype` method: an object, else a
/// TypeError.
pub(crate) fn this_object(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Value> {
    if info.this.is_object() {
        Ok(info.this)
    } else {
        Err(vm.type_error(&format!("Iterator.prototype.{name} called on non-object")))
    }
}

/// Whether `value` is a String equal to `text` (option values are compared
/// without coercion).
pub(crate) fn is_string_value(vm: &mut Vm, value: Value, text: &str) -> bool {
    let Some(s) = value.as_string() else { return false };
    let flat = crate::string::JsString::flatten(&mut vm.heap, s);
    flat.borrow(&vm.heap).flat().eq_str(text)
}

/// The callable argument of a helper; a non-callable one closes the
/// receiver and throws.
fn callable_arg(vm: &mut Vm, info: &CallInfo, this: Value, name: &str) -> JsResult<Value> {
    let f = info.arg(vm, 0);
    if is_callable(vm, f) {
        return Ok(f);
    }
    let error = vm.type_error(&format!("Iterator.prototype.{name}: argument is not a function"));
    Err(close_with_error(vm, this, error))
}

/// The limit of `take`/`drop`: a number that is not NaN and not negative.
fn limit_arg(vm: &mut Vm, info: &CallInfo, this: Value, name: &str) -> JsResult<f64> {
    let limit = info.arg(vm, 0);
    let number = match to_number(vm, limit) {
        Ok(n) => n,
        Err(e) => return Err(close_with_error(vm, this, e)),
    };
    if number.is_nan() {
        let error = vm.range_error(&format!("Iterator.prototype.{name}: limit is NaN"));
        return Err(close_with_error(vm, this, error));
    }
    let integer = to_integer_or_infinity(number);
    // Finite limits beyond 2^53 - 1 are as invalid as negative ones.
    if integer < 0.0 || (integer.is_finite() && integer > 9_007_199_254_740_991.0) {
        let error = vm.range_error(&format!("Iterator.prototype.{name}: limit is negative"));
        return Err(close_with_error(vm, this, error));
    }
    Ok(integer)
}

fn make_helper(vm: &mut Vm, this: Value, kind: HelperKind) -> JsResult<Value> {
    let underlying = get_iterator_direct(vm, this)?;
    Ok(create_iterator_helper(vm, Some(underlying), kind))
}

/// A new Iterator Helper object (suspended at its start) over
/// `underlying`.
pub(crate) fn create_iterator_helper(vm: &mut Vm, underlying: Option<Gc<IteratorRecord>>, kind: HelperKind) -> Value {
    let proto = vm.realm.intrinsics.iterator_helper_prototype;
    let state = HelperState { underlying, kind, counter: 0.0, status: HelperStatus::SuspendedStart };
    Value::object(vm.new_object_with_data(Some(proto), &ITERATOR_HELPER, state))
}

fn map(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "map")?;
    let f = callable_arg(vm, info, this, "map")?;
    make_helper(vm, this, HelperKind::Map(f))
}

fn filter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "filter")?;
    let f = callable_arg(vm, info, this, "filter")?;
    make_helper(vm, this, HelperKind::Filter(f))
}

fn take(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "take")?;
    let limit = limit_arg(vm, info, this, "take")?;
    make_helper(vm, this, HelperKind::Take(limit))
}

fn drop_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "drop")?;
    let limit = limit_arg(vm, info, this, "drop")?;
    make_helper(vm, this, HelperKind::Drop(limit))
}

fn flat_map(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "flatMap")?;
    let f = callable_arg(vm, info, this, "flatMap")?;
    make_helper(vm, this, HelperKind::FlatMap(f, None))
}

fn helper_state(vm: &mut Vm, this: Value) -> JsResult<Gc<JsObject>> {
    let ok = this.as_object().filter(|o| o.borrow(&vm.heap).is_data(&ITERATOR_HELPER));
    ok.ok_or_else(|| vm.type_error("Iterator Helper method called on incompatible receiver"))
}

fn with_state<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut HelperState) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<HelperState>(&ITERATOR_HELPER)?;
    Some(f(cell.borrow_mut(&mut vm.heap)))
}

/// Calls `f` with `args`; a throw closes the underlying iterator.
fn call_closing(vm: &mut Vm, underlying: Gc<IteratorRecord>, f: Value, args: &[Value]) -> JsResult<Value> {
    call(vm, f, Value::UNDEFINED, args).map_err(|e| {
        let iterator = underlying.borrow(&vm.heap).iterator;
        close_with_error(vm, iterator, e)
    })
}

/// GetIteratorFlattenable(value, reject-primitives or iterate-strings).
pub(crate) fn get_iterator_flattenable(vm: &mut Vm, value: Value, allow_strings: bool) -> JsResult<Gc<IteratorRecord>> {
    if !(value.is_object() || allow_strings && value.is_string()) {
        return Err(vm.type_error("value is not an object"));
    }
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let iterator = match get_method(vm, value, key)? {
        None => value,
        Some(m) => call(vm, m, value, &[])?,
    };
    if !iterator.is_object() {
        return Err(vm.type_error("iterator is not an object"));
    }
    vm.keep_alive(iterator);
    get_iterator_direct(vm, iterator)
}

/// One step of a helper: `Some(value)` to yield, `None` when done.
fn helper_step(vm: &mut Vm, o: Gc<JsObject>) -> JsResult<Option<Value>> {
    let Some((underlying, kind, counter)) = with_state(vm, o, |s| (s.underlying, s.kind, s.counter)) else {
        return Ok(None);
    };
    // Only the multi-iterator helpers have no single underlying iterator.
    let underlying = match (kind, underlying) {
        (HelperKind::Concat(state), _) => return super::iterator_sequencing::concat_step(vm, state),
        (HelperKind::Zip(state), _) => return super::iterator_zip::zip_step(vm, state),
        (_, None) => return Ok(None),
        (_, Some(underlying)) => underlying,
    };
    match kind {
        HelperKind::Concat(_) | HelperKind::Zip(_) => Ok(None),
        HelperKind::Chunks(size) => super::iterator_chunking::chunks_step(vm, underlying, size),
        HelperKind::Windows(state) => super::iterator_chunking::windows_step(vm, underlying, state),
        HelperKind::Map(f) => {
            let Some(value) = iterator_step_value(vm, underlying)? else { return Ok(None) };
            let mapped = call_closing(vm, underlying, f, &[value, Value::number(counter)])?;
            with_state(vm, o, |s| s.counter += 1.0);
            Ok(Some(mapped))
        }
        HelperKind::Filter(f) => loop {
            let Some(value) = iterator_step_value(vm, underlying)? else { return Ok(None) };
            vm.keep_alive(value);
            let counter = with_state(vm, o, |s| s.counter).unwrap_or(0.0);
            let selected = call_closing(vm, underlying, f, &[value, Value::number(counter)])?;
            with_state(vm, o, |s| s.counter += 1.0);
            if to_boolean(vm, selected) {
                return Ok(Some(value));
            }
        },
        HelperKind::Take(remaining) => {
            if remaining == 0.0 {
                iterator_close(vm, underlying)?;
                return Ok(None);
            }
            if remaining != f64::INFINITY {
                with_state(vm, o, |s| s.kind = HelperKind::Take(remaining - 1.0));
            }
            iterator_step_value(vm, underlying)
        }
        HelperKind::Drop(mut remaining) => {
            while remaining > 0.0 {
                if remaining != f64::INFINITY {
                    remaining -= 1.0;
                    with_state(vm, o, |s| s.kind = HelperKind::Drop(remaining));
                }
                if iterator_step_value(vm, underlying)?.is_none() {
                    return Ok(None);
                }
            }
            iterator_step_value(vm, underlying)
        }
        HelperKind::FlatMap(f, mut inner) => loop {
            if let Some(inner_record) = inner {
                let step = iterator_step_value(vm, inner_record).map_err(|e| {
                    let iterator = underlying.borrow(&vm.heap).iterator;
                    close_with_error(vm, iterator, e)
                })?;
                if let Some(v) = step {
                    return Ok(Some(v));
                }
                inner = None;
                with_state(vm, o, |s| s.kind = HelperKind::FlatMap(f, None));
                continue;
            }
            let Some(value) = iterator_step_value(vm, underlying)? else { return Ok(None) };
            let counter = with_state(vm, o, |s| s.counter).unwrap_or(0.0);
            let mapped = call_closing(vm, underlying, f, &[value, Value::number(counter)])?;
            vm.keep_alive(mapped);
            let record = get_iterator_flattenable(vm, mapped, false).map_err(|e| {
                let iterator = underlying.borrow(&vm.heap).iterator;
                close_with_error(vm, iterator, e)
            })?;
            inner = Some(record);
            with_state(vm, o, |s| {
                s.kind = HelperKind::FlatMap(f, Some(record));
                s.counter += 1.0;
            });
        },
    }
}

/// `%IteratorHelperPrototype%.next`.
fn helper_next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = helper_state(vm, info.this)?;
    match with_state(vm, o, |s| s.status) {
        Some(HelperStatus::Executing) => return Err(vm.type_error("Iterator Helper is already running")),
        Some(HelperStatus::Completed) | None => return Ok(iter_result(vm, Value::UNDEFINED, true)),
        _ => {}
    }
    with_state(vm, o, |s| s.status = HelperStatus::Executing);
    let step = helper_step(vm, o);
    let status = if matches!(step, Ok(Some(_))) { HelperStatus::SuspendedYield } else { HelperStatus::Completed };
    with_state(vm, o, |s| s.status = status);
    match step? {
        Some(v) => Ok(iter_result(vm, v, false)),
        None => Ok(iter_result(vm, Value::UNDEFINED, true)),
    }
}

/// `%IteratorHelperPrototype%.return`.
fn helper_return(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = helper_state(vm, info.this)?;
    let Some((status, underlying, kind)) = with_state(vm, o, |s| (s.status, s.underlying, s.kind)) else {
        return Ok(iter_result(vm, Value::UNDEFINED, true));
    };
    match status {
        HelperStatus::Executing => return Err(vm.type_error("Iterator Helper is already running")),
        HelperStatus::Completed => return Ok(iter_result(vm, Value::UNDEFINED, true)),
        HelperStatus::SuspendedStart | HelperStatus::SuspendedYield => {}
    }
    // From suspended-start the helper completes before closing; resuming a
    // suspended-yield closure with a return completion runs it, so it is
    // executing (a re-entrant `return` throws) until the closing is over.
    let running =
        if status == HelperStatus::SuspendedStart { HelperStatus::Completed } else { HelperStatus::Executing };
    with_state(vm, o, |s| s.status = running);
    let closed = close_on_return(vm, underlying, kind);
    with_state(vm, o, |s| s.status = HelperStatus::Completed);
    closed?;
    Ok(iter_result(vm, Value::UNDEFINED, true))
}

/// The closing done by `return`: the underlying iterators (with the inner
/// one of `flatMap` first).
fn close_on_return(vm: &mut Vm, underlying: Option<Gc<IteratorRecord>>, kind: HelperKind) -> JsResult<()> {
    match kind {
        HelperKind::Concat(state) => super::iterator_sequencing::concat_return(vm, state)?,
        HelperKind::Zip(state) => super::iterator_zip::zip_return(vm, state)?,
        _ => {
            let Some(underlying) = underlying else { return Ok(()) };
            if let HelperKind::FlatMap(_, Some(inner)) = kind
                && let Err(e) = iterator_close(vm, inner)
            {
                let iterator = underlying.borrow(&vm.heap).iterator;
                return Err(close_with_error(vm, iterator, e));
            }
            iterator_close(vm, underlying)?;
        }
    }
    Ok(())
}

/// Steps a receiver directly (the eager methods).
fn each_value(
    vm: &mut Vm,
    info: &CallInfo,
    name: &str,
    mut visit: impl FnMut(&mut Vm, Gc<IteratorRecord>, Value, f64) -> JsResult<Option<Value>>,
) -> JsResult<Option<Value>> {
    let this = this_object(vm, info, name)?;
    let record = get_iterator_direct(vm, this)?;
    let mut counter = 0.0;
    while let Some(value) = iterator_step_value(vm, record)? {
        vm.keep_alive(value);
        if let Some(result) = visit(vm, record, value, counter)? {
            return Ok(Some(result));
        }
        counter += 1.0;
    }
    Ok(None)
}

fn reduce(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "reduce")?;
    let reducer = callable_arg(vm, info, this, "reduce")?;
    let record = get_iterator_direct(vm, this)?;
    let (mut accumulator, mut counter) = if info.argc >= 2 {
        (info.arg(vm, 1), 0.0)
    } else {
        let Some(first) = iterator_step_value(vm, record)? else {
            return Err(vm.type_error("Reduce of empty iterator with no initial value"));
        };
        (first, 1.0)
    };
    while let Some(value) = iterator_step_value(vm, record)? {
        vm.keep_alive(accumulator);
        vm.keep_alive(value);
        accumulator = call_closing(vm, record, reducer, &[accumulator, value, Value::number(counter)])?;
        counter += 1.0;
    }
    Ok(accumulator)
}

fn to_array(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let array = super::array::array_create(vm, &[]);
    vm.keep_alive(Value::object(array));
    each_value(vm, info, "toArray", |vm, _, value, _| {
        super::array::push_element(vm, array, value);
        Ok(None)
    })?;
    Ok(Value::object(array))
}

fn for_each(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "forEach")?;
    let f = callable_arg(vm, info, this, "forEach")?;
    each_value(vm, info, "forEach", |vm, record, value, counter| {
        call_closing(vm, record, f, &[value, Value::number(counter)]).map(|_| None)
    })?;
    Ok(Value::UNDEFINED)
}

/// `some`, `every` and `find`: stop (closing the iterator) at the first
/// value whose predicate result is `stop_when`.
fn search(vm: &mut Vm, info: &CallInfo, name: &str, stop_when: bool) -> JsResult<Option<Value>> {
    let this = this_object(vm, info, name)?;
    let f = callable_arg(vm, info, this, name)?;
    each_value(vm, info, name, |vm, record, value, counter| {
        let result = call_closing(vm, record, f, &[value, Value::number(counter)])?;
        if to_boolean(vm, result) == stop_when {
            iterator_close(vm, record)?;
            return Ok(Some(value));
        }
        Ok(None)
    })
}

fn some(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::boolean(search(vm, info, "some", true)?.is_some()))
}

fn every(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::boolean(search(vm, info, "every", false)?.is_none()))
}

fn find(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(search(vm, info, "find", true)?.unwrap_or_default())
}

/// `Iterator.from(O)`.
fn from(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = info.arg(vm, 0);
    let record = get_iterator_flattenable(vm, o, true)?;
    let iterator = record.borrow(&vm.heap).iterator;
    let iterator_ctor = Value::object(vm.realm.intrinsics.iterator_constructor);
    if ordinary_has_instance(vm, iterator_ctor, iterator)? {
        return Ok(iterator);
    }
    let proto = vm.realm.intrinsics.wrap_for_valid_iterator_prototype;
    // The record cell itself is the object's slots.
    let o = vm.new_object_of_kind(Some(proto), ObjectKind::Data(KindData::new(record, &WRAP_FOR_VALID_ITERATOR)));
    Ok(Value::object(o))
}

fn wrapped(vm: &mut Vm, this: Value) -> JsResult<Gc<IteratorRecord>> {
    match this.as_object().and_then(|o| o.borrow(&vm.heap).data_of::<IteratorRecord>(&WRAP_FOR_VALID_ITERATOR)) {
        Some(record) => Ok(record),
        None => Err(vm.type_error("not a wrapped iterator")),
    }
}

/// `%WrapForValidIteratorPrototype%.next`.
fn wrap_next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let record = wrapped(vm, info.this)?;
    let (iterator, next) = {
        let r = record.borrow(&vm.heap);
        (r.iterator, r.next)
    };
    call(vm, next, iterator, &[])
}

/// `%WrapForValidIteratorPrototype%.return`.
fn wrap_return(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let record = wrapped(vm, info.this)?;
    let iterator = record.borrow(&vm.heap).iterator;
    let key = PropertyKey::String(vm.names.return_);
    match get_method(vm, iterator, key)? {
        None => Ok(iter_result(vm, Value::UNDEFINED, true)),
        Some(m) => call(vm, m, iterator, &[]),
    }
}

/// `Iterator()`: abstract; only subclasses construct it.
fn iterator_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    match info.new_target {
        Some(nt) if nt != info.callee => {
            let proto = crate::interpreter::prototype_from_constructor(vm, nt, |i| i.iterator_prototype)?;
            Ok(Value::object(vm.new_object(Some(proto))))
        }
        _ => Err(vm.type_error("Abstract class Iterator not directly constructable")),
    }
}

fn to_string_tag_get(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Ok(vm.string("Iterator"))
}

fn constructor_get(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Ok(Value::object(vm.realm.intrinsics.iterator_constructor))
}

/// SetterThatIgnoresPrototypeProperties(this, %Iterator.prototype%, key, v).
fn setter_ignoring_prototype(vm: &mut Vm, info: &CallInfo, key: PropertyKey) -> JsResult<Value> {
    let Some(this) = info.this.as_object() else {
        return Err(vm.type_error("setter called on non-object"));
    };
    if this == vm.realm.intrinsics.iterator_prototype {
        return Err(vm.type_error("Cannot assign to this property of Iterator.prototype"));
    }
    let v = info.arg(vm, 0);
    if get_own_property(vm, this, key)?.is_none() {
        create_data_property_or_throw(vm, this, key, v)?;
    } else if !set(vm, this, key, v, info.this)? {
        return Err(vm.type_error("Cannot assign to read only property"));
    }
    Ok(Value::UNDEFINED)
}

fn to_string_tag_set(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let key = PropertyKey::Symbol(vm.symbols.to_string_tag);
    setter_ignoring_prototype(vm, info, key)
}

fn constructor_set(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let key = PropertyKey::String(vm.names.constructor);
    setter_ignoring_prototype(vm, info, key)
}

/// Installs `Iterator`, the helper methods and their prototypes.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.iterator_prototype;
    let ctor = native_function(vm, "Iterator", 0, iterator_ctor, true);
    vm.realm.intrinsics.iterator_constructor = ctor;
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, ctor, proto_key, Value::object(proto), Attributes::NONE);
    let global = vm.realm.global;
    super::value_property(vm, global, "Iterator", Value::object(ctor), Attributes::METHOD);
    method(vm, ctor, "from", 1, from);
    super::iterator_sequencing::install(vm, ctor);
    super::iterator_zip::install(vm, ctor);
    for (name, length, f) in [
        ("map", 1, map as crate::function::NativeFn),
        ("filter", 1, filter),
        ("take", 1, take),
        ("drop", 1, drop_),
        ("flatMap", 1, flat_map),
        ("reduce", 1, reduce),
        ("toArray", 0, to_array),
        ("forEach", 1, for_each),
        ("some", 1, some),
        ("every", 1, every),
        ("find", 1, find),
    ] {
        method(vm, proto, name, length, f);
    }
    super::iterator_chunking::install(vm, proto);
    super::iterator_includes::install(vm, proto);
    super::iterator_join::install(vm, proto);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    accessor_property(vm, proto, tag, "[Symbol.toStringTag]", Some(to_string_tag_get), Some(to_string_tag_set));
    let ctor_key = PropertyKey::String(vm.names.constructor);
    accessor_property(vm, proto, ctor_key, "constructor", Some(constructor_get), Some(constructor_set));

    let helper_proto = vm.realm.intrinsics.iterator_helper_prototype;
    method(vm, helper_proto, "next", 0, helper_next);
    method(vm, helper_proto, "return", 0, helper_return);
    let text = vm.string("Iterator Helper");
    define_builtin(vm, helper_proto, tag, text, Attributes::CONFIGURABLE_ONLY);
    let wrap_proto = vm.realm.intrinsics.wrap_for_valid_iterator_prototype;
    method(vm, wrap_proto, "next", 0, wrap_next);
    method(vm, wrap_proto, "return", 0, wrap_return);
}
