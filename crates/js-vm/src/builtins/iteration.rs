//! The iterator protocol (§7.4), for-in enumeration (§14.7.5.9), and the
//! Array and String iterator objects.
//!
//! Stepping an Array Iterator whose `next` is the intrinsic one skips the
//! `{ value, done }` result object: nothing can observe it, so `for-of`
//! over an array allocates nothing per element.

use js_gc::Gc;

use super::{method, symbol_method};
use crate::abstract_ops::{is_callable, to_boolean, to_object};
use crate::interpreter::{CallInfo, ForInIterator, IteratorRecord};
use crate::object::internal_methods::{call, get, get_value};
use crate::object::{Attributes, IterationKind, JsObject, ObjectKind, Properties, PropertyKey, PropertySlots};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// GetIterator(obj, sync) (§7.4.3).
pub fn get_iterator(vm: &mut Vm, v: Value) -> JsResult<Gc<IteratorRecord>> {
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let method = get_value(vm, v, key)?;
    if !is_callable(vm, method) {
        return Err(vm.type_error("object is not iterable (cannot read property Symbol(Symbol.iterator))"));
    }
    let iterator = call(vm, method, v, &[])?;
    if !iterator.is_object() {
        return Err(vm.type_error("Result of the Symbol.iterator method is not an object"));
    }
    let next_key = PropertyKey::String(vm.names.next);
    let next = get_value(vm, iterator, next_key)?;
    Ok(vm.heap.alloc(IteratorRecord { iterator, next, done: false }))
}

/// `GetIteratorFromMethod(obj, method)` (§7.4.2) for an `@@iterator`
/// method already read.
pub fn get_iterator_from_method(vm: &mut Vm, obj: Value, method: Value) -> JsResult<Gc<IteratorRecord>> {
    let iterator = call(vm, method, obj, &[])?;
    if !iterator.is_object() {
        return Err(vm.type_error("Result of the Symbol.iterator method is not an object"));
    }
    vm.keep_alive(iterator);
    let next_key = PropertyKey::String(vm.names.next);
    let next = get_value(vm, iterator, next_key)?;
    Ok(vm.heap.alloc(IteratorRecord { iterator, next, done: false }))
}

/// `IteratorStepValue` (§7.4.8): the next value, or `None` when done.
pub fn iterator_step_value(vm: &mut Vm, record: Gc<IteratorRecord>) -> JsResult<Option<Value>> {
    let r = record.borrow(&vm.heap);
    if r.done {
        return Ok(None);
    }
    let (iterator, next) = (r.iterator, r.next);
    if next == Value::object(vm.realm.intrinsics.array_iterator_next)
        && let Some(it) = iterator.as_object()
        && let Some(step) = array_iterator_step(vm, it)
    {
        let step = step?;
        if step.is_none() {
            record.borrow_mut(&mut vm.heap).done = true;
        }
        return Ok(step);
    }
    let result = match call(vm, next, iterator, &[]) {
        Ok(v) => v,
        Err(e) => {
            record.borrow_mut(&mut vm.heap).done = true;
            return Err(e);
        }
    };
    let Some(result_obj) = result.as_object() else {
        record.borrow_mut(&mut vm.heap).done = true;
        return Err(vm.type_error("Iterator result is not an object"));
    };
    // An error reading `done` or `value` also finishes the iterator: it is
    // not closed afterwards.
    let step = iter_result_step(vm, result_obj, result);
    if !matches!(step, Ok(Some(_))) {
        record.borrow_mut(&mut vm.heap).done = true;
    }
    step
}

/// `IteratorClose` (§7.4.11) for a normal completion: calls `return` unless
/// the iterator finished.
pub fn iterator_close(vm: &mut Vm, record: Gc<IteratorRecord>) -> JsResult<()> {
    let r = record.borrow(&vm.heap);
    if r.done {
        return Ok(());
    }
    let iterator = r.iterator;
    record.borrow_mut(&mut vm.heap).done = true;
    let return_key = PropertyKey::String(vm.names.return_);
    let method = get_value(vm, iterator, return_key)?;
    if method.is_nullish() {
        return Ok(());
    }
    let result = call(vm, method, iterator, &[])?;
    if !result.is_object() {
        return Err(vm.type_error("Iterator result is not an object"));
    }
    Ok(())
}

/// `IteratorClose` (§7.4.11) for a throw completion: calls `return` (even
/// on a finished record) and returns `error`; a failure while closing is
/// ignored, except an interrupt, which wins.
pub fn iterator_close_with_error(vm: &mut Vm, record: Gc<IteratorRecord>, error: Exception) -> Exception {
    // `return` is JavaScript: the thrown value, often a fresh error object
    // held only here, must survive a collection it triggers.
    if let Exception::Throw(value) = error {
        vm.keep_alive(value);
    }
    record.borrow_mut(&mut vm.heap).done = false;
    match iterator_close(vm, record) {
        Err(Exception::Terminated) => Exception::Terminated,
        _ => error,
    }
}

/// `IteratorCloseAll(iters, completion)`: closes `records` in reverse
/// order, each with the completion left by the ones after it (so the first
/// failure wins and later closes see a throw completion).
pub fn iterator_close_all(vm: &mut Vm, records: &[Gc<IteratorRecord>], completion: JsResult<()>) -> JsResult<()> {
    let mut completion = completion;
    for &record in records.iter().rev() {
        completion = match completion {
            Ok(()) => iterator_close(vm, record),
            Err(error) => Err(iterator_close_with_error(vm, record, error)),
        };
    }
    completion
}

/// Every value `v` iterates to (spread, `Array.from`, destructuring rest).
pub fn iterate_to_vec(vm: &mut Vm, v: Value) -> JsResult<Vec<Value>> {
    let record = get_iterator(vm, v)?;
    vm.keep_alive(Value::internal(record.into()));
    let mut out = Vec::new();
    while let Some(item) = iterator_step_value(vm, record)? {
        out.push(item);
        vm.keep_alive(item);
    }
    Ok(out)
}

/// One step of an Array Iterator without a result object. `None` if `it`
/// is not an Array Iterator.
fn array_iterator_step(vm: &mut Vm, it: Gc<JsObject>) -> Option<JsResult<Option<Value>>> {
    let ObjectKind::ArrayIterator { target, index, kind } = it.borrow(&vm.heap).kind else { return None };
    Some(array_iterator_advance(vm, it, target, index, kind))
}

fn array_iterator_advance(
    vm: &mut Vm,
    it: Gc<JsObject>,
    target: Value,
    index: u32,
    kind: IterationKind,
) -> JsResult<Option<Value>> {
    let Some(obj) = target.as_object() else { return Ok(None) };
    let len = super::typed_array::iteration_length(vm, obj)?;
    if f64::from(index) >= len {
        if let ObjectKind::ArrayIterator { target, .. } = &mut it.borrow_mut(&mut vm.heap).kind {
            *target = Value::UNDEFINED;
        }
        return Ok(None);
    }
    if let ObjectKind::ArrayIterator { index: i, .. } = &mut it.borrow_mut(&mut vm.heap).kind {
        *i = index + 1;
    }
    let key = Value::number(f64::from(index));
    Ok(Some(match kind {
        IterationKind::Keys => key,
        IterationKind::Values => get(vm, obj, PropertyKey::Index(index), target)?,
        IterationKind::Entries => {
            let v = get(vm, obj, PropertyKey::Index(index), target)?;
            Value::object(super::array::array_create(vm, &[key, v]))
        }
    }))
}

/// `IteratorComplete` and `IteratorValue` (§7.4.4, §7.4.5) of an iterator
/// result: `None` once done, else its `value`. A result with
/// `CreateIterResultObject`'s shape has both as own data properties in
/// known slots, so reading them runs no code and needs no lookup.
pub fn iter_result_step(vm: &mut Vm, result_obj: Gc<JsObject>, result: Value) -> JsResult<Option<Value>> {
    let object = result_obj.borrow(&vm.heap);
    if object.shape() == Some(vm.shapes.iter_result) {
        let (value, done) = (object.slot(0), object.slot(1));
        return Ok(if to_boolean(vm, done) { None } else { Some(value) });
    }
    let done_key = PropertyKey::String(vm.names.done);
    let done = get(vm, result_obj, done_key, result)?;
    if to_boolean(vm, done) {
        return Ok(None);
    }
    let value_key = PropertyKey::String(vm.names.value);
    get(vm, result_obj, value_key, result).map(Some)
}

/// `CreateIterResultObject`.
pub fn iter_result(vm: &mut Vm, value: Value, done: bool) -> Value {
    let proto = vm.realm.intrinsics.object_prototype;
    let mut object = JsObject::new(vm.shapes.iter_result, Some(proto), ObjectKind::Ordinary);
    object.properties =
        Properties::Shaped { shape: vm.shapes.iter_result, slots: PropertySlots::pair(value, Value::boolean(done)) };
    Value::object(vm.heap.alloc(object))
}

/// A new Array Iterator over `target`.
pub fn create_array_iterator(vm: &mut Vm, target: Value, kind: IterationKind) -> Value {
    let proto = vm.realm.intrinsics.array_iterator_prototype;
    Value::object(vm.new_object_of_kind(Some(proto), ObjectKind::ArrayIterator { target, index: 0, kind }))
}

/// `%ArrayIteratorPrototype%.next`.
fn array_iterator_next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(it) = info.this.as_object() else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    match array_iterator_step(vm, it) {
        Some(step) => {
            let step = step?;
            Ok(iter_result(vm, step.unwrap_or_default(), step.is_none()))
        }
        None => Err(vm.type_error("next method called on incompatible receiver")),
    }
}

/// `%StringIteratorPrototype%.next`: code points.
fn string_iterator_next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(it) = info.this.as_object() else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let ObjectKind::StringIterator { string, position } = it.borrow(&vm.heap).kind else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let Some(s) = string else { return Ok(iter_result(vm, Value::UNDEFINED, true)) };
    let s = JsString::flatten(&mut vm.heap, s);
    let flat = s.borrow(&vm.heap).flat();
    let pos = position as usize;
    if pos >= flat.len() {
        if let ObjectKind::StringIterator { string, .. } = &mut it.borrow_mut(&mut vm.heap).kind {
            *string = None;
        }
        return Ok(iter_result(vm, Value::UNDEFINED, true));
    }
    let first = flat.at(pos);
    let units: Vec<u16> =
        if (0xD800..0xDC00).contains(&first) && pos + 1 < flat.len() && (0xDC00..0xE000).contains(&flat.at(pos + 1)) {
            vec![first, flat.at(pos + 1)]
        } else {
            vec![first]
        };
    let advance = units.len() as u32;
    if let ObjectKind::StringIterator { position, .. } = &mut it.borrow_mut(&mut vm.heap).kind {
        *position += advance;
    }
    let value = Value::string(vm.heap.alloc(JsString::from_utf16(&units)));
    Ok(iter_result(vm, value, false))
}

/// A new String Iterator.
pub fn create_string_iterator(vm: &mut Vm, s: Gc<JsString>) -> Value {
    let proto = vm.realm.intrinsics.string_iterator_prototype;
    Value::object(vm.new_object_of_kind(Some(proto), ObjectKind::StringIterator { string: Some(s), position: 0 }))
}

/// `%IteratorPrototype%[Symbol.iterator]`: returns `this`.
fn iterator_self(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

/// Starts a for-in loop: `None` for `null`/`undefined` (no iterations).
pub fn for_in_start(vm: &mut Vm, v: Value) -> JsResult<Option<Gc<ForInIterator>>> {
    if v.is_nullish() {
        return Ok(None);
    }
    let object = to_object(vm, v)?;
    // Proxies on the chain run traps while the keys are gathered: the
    // objects and keys are rooted until the iterator holds them. The loop
    // runs in the interpreter itself, so the roots are released here.
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.push(Value::object(object));
    let keys = enumerate_object_properties(vm, object);
    vm.stack.temp_roots.truncate(mark);
    Ok(Some(vm.heap.alloc(ForInIterator { object, keys: keys?, index: 0 })))
}

/// The keys `EnumerateObjectProperties` (§14.7.5.9) visits, each with the
/// object on the prototype chain it belongs to: string keys, own before
/// inherited, a key shadowed by an earlier object skipped.
fn enumerate_object_properties(vm: &mut Vm, object: Gc<JsObject>) -> JsResult<Vec<(Gc<JsObject>, PropertyKey)>> {
    let mut keys = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut current = Some(object);
    while let Some(o) = current {
        vm.stack.temp_roots.push(Value::object(o));
        for key in crate::object::internal_methods::own_property_keys(vm, o)? {
            if key.is_symbol() || !seen.insert(key) {
                continue;
            }
            keys.push((o, key));
        }
        current = crate::object::internal_methods::get_prototype_of(vm, o)?;
    }
    Ok(keys)
}

/// The next key of a for-in loop: still present and enumerable when
/// reached.
pub fn for_in_next(vm: &mut Vm, it: Gc<ForInIterator>) -> JsResult<Option<Value>> {
    loop {
        let state = it.borrow(&vm.heap);
        let Some(&(owner, key)) = state.keys.get(state.index) else { return Ok(None) };
        it.borrow_mut(&mut vm.heap).index += 1;
        let Some(desc) = crate::object::internal_methods::get_own_property(vm, owner, key)? else { continue };
        if desc.enumerable != Some(true) {
            continue;
        }
        return Ok(Some(super::object::key_to_value(vm, key)));
    }
}

/// Installs the iterator prototypes.
pub(crate) fn install(vm: &mut Vm) {
    let iterator_proto = vm.realm.intrinsics.iterator_prototype;
    let iterator_symbol = vm.symbols.iterator;
    symbol_method(vm, iterator_proto, iterator_symbol, "[Symbol.iterator]", 0, iterator_self, Attributes::METHOD);
    let array_iter = vm.realm.intrinsics.array_iterator_prototype;
    let next = method(vm, array_iter, "next", 0, array_iterator_next);
    vm.realm.intrinsics.array_iterator_next = next;
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("Array Iterator");
    crate::object::internal_methods::define_builtin(vm, array_iter, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
    let string_iter = vm.realm.intrinsics.string_iterator_prototype;
    method(vm, string_iter, "next", 0, string_iterator_next);
    let tag_value = vm.string("String Iterator");
    crate::object::internal_methods::define_builtin(vm, string_iter, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}
