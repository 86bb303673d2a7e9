//! The Set methods that take another set-like object (§24.2.4: `union`,
//! `intersection`, `difference`, `symmetricDifference`, `isSubsetOf`,
//! `isSupersetOf`, `isDisjointFrom`).
//!
//! The other operand is used through its `size`, `has` and `keys` only
//! (a "set record"), so any object with those works. Which side is walked
//! depends on the sizes, as the spec prescribes; the walk over `this` goes
//! by position, because the other side's `has` may change `this`.

use js_gc::Gc;

use super::collections::{entry_at, set_size_of, table_delete, table_get, table_set};
use super::iteration::{iterator_close, iterator_step_value};
use crate::abstract_ops::{is_callable, to_boolean, to_integer_or_infinity, to_number};
use crate::interpreter::{CallInfo, IteratorRecord};
use crate::object::JsObject;
use crate::object::internal_methods::{call, get};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A Set Record (§24.2.1.2).
struct SetRecord {
    set: Value,
    size: f64,
    has: Value,
    keys: Value,
}

/// GetSetRecord(obj) (§24.2.1.3).
fn get_set_record(vm: &mut Vm, obj: Value) -> JsResult<SetRecord> {
    let Some(o) = obj.as_object() else {
        return Err(vm.type_error("The argument must be a set-like object"));
    };
    let size_key = vm.key("size");
    let raw_size = get(vm, o, size_key, obj)?;
    let num_size = to_number(vm, raw_size)?;
    if num_size.is_nan() {
        return Err(vm.type_error("The set-like object's size is not a number"));
    }
    let size = to_integer_or_infinity(num_size);
    if size < 0.0 {
        return Err(vm.range_error("The set-like object's size is negative"));
    }
    let has_key = vm.key("has");
    let has = get(vm, o, has_key, obj)?;
    // Rooted before the `keys` getter can run JavaScript (and collect).
    vm.keep_alive(has);
    if !is_callable(vm, has) {
        return Err(vm.type_error("The set-like object's 'has' is not a function"));
    }
    let keys_key = vm.key("keys");
    let keys = get(vm, o, keys_key, obj)?;
    vm.keep_alive(keys);
    if !is_callable(vm, keys) {
        return Err(vm.type_error("The set-like object's 'keys' is not a function"));
    }
    Ok(SetRecord { set: obj, size, has, keys })
}

/// GetIteratorFromMethod(set, keys) over the other operand's keys.
fn keys_iterator(vm: &mut Vm, record: &SetRecord) -> JsResult<Gc<IteratorRecord>> {
    let iterator = call(vm, record.keys, record.set, &[])?;
    let Some(it) = iterator.as_object() else {
        return Err(vm.type_error("The set-like object's keys() result is not an object"));
    };
    let next_key = vm.key("next");
    let next = get(vm, it, next_key, iterator)?;
    let record = vm.heap.alloc(IteratorRecord { iterator, next, done: false });
    vm.keep_alive(Value::internal(record.into()));
    Ok(record)
}

/// `this`, which must be a Set, and the set record of the first argument.
fn operands(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<(Gc<JsObject>, SetRecord)> {
    let this = info.this.as_object().filter(|&o| super::collections::is_map_or_set(vm, o) == Some(false));
    let Some(this) = this else {
        return Err(vm.type_error(&format!("Method Set.prototype.{name} called on incompatible receiver")));
    };
    let other = info.arg(vm, 0);
    let record = get_set_record(vm, other)?;
    Ok((this, record))
}

/// A new Set holding `this`'s entries.
fn copy_of(vm: &mut Vm, this: Gc<JsObject>) -> Gc<JsObject> {
    let proto = vm.realm.intrinsics.set_prototype;
    let result = super::collections::new_table(vm, proto, false);
    vm.keep_alive(Value::object(result));
    let mut index = 0;
    while let Some((i, k, _)) = entry_at(vm, this, index) {
        table_set(vm, result, k, Value::UNDEFINED);
        index = i + 1;
    }
    result
}

fn has_in_other(vm: &mut Vm, record: &SetRecord, value: Value) -> JsResult<bool> {
    let result = call(vm, record.has, record.set, &[value])?;
    Ok(to_boolean(vm, result))
}

/// Canonicalises -0 to +0, as values coming from `keys()` may be either.
fn canonical(v: Value) -> Value {
    if v.as_number() == Some(0.0) { Value::number(0.0) } else { v }
}

fn union(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (this, other) = operands(vm, info, "union")?;
    let keys = keys_iterator(vm, &other)?;
    let result = copy_of(vm, this);
    while let Some(next) = iterator_step_value(vm, keys)? {
        table_set(vm, result, canonical(next), Value::UNDEFINED);
    }
    Ok(Value::object(result))
}

fn intersection(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (this, other) = operands(vm, info, "intersection")?;
    let proto = vm.realm.intrinsics.set_prototype;
    let result = super::collections::new_table(vm, proto, false);
    vm.keep_alive(Value::object(result));
    if set_size_of(vm, this) as f64 <= other.size {
        let mut index = 0;
        while let Some((i, e, _)) = entry_at(vm, this, index) {
            index = i + 1;
            vm.keep_alive(e);
            if has_in_other(vm, &other, e)? {
                table_set(vm, result, e, Value::UNDEFINED);
            }
        }
    } else {
        let keys = keys_iterator(vm, &other)?;
        while let Some(next) = iterator_step_value(vm, keys)? {
            let next = canonical(next);
            if table_get(vm, this, next).is_some() {
                table_set(vm, result, next, Value::UNDEFINED);
            }
        }
    }
    Ok(Value::object(result))
}

fn difference(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (this, other) = operands(vm, info, "difference")?;
    let result = copy_of(vm, this);
    if set_size_of(vm, this) as f64 <= other.size {
        let mut index = 0;
        while let Some((i, e, _)) = entry_at(vm, this, index) {
            index = i + 1;
            vm.keep_alive(e);
            if has_in_other(vm, &other, e)? {
                table_delete(vm, result, e);
            }
        }
    } else {
        let keys = keys_iterator(vm, &other)?;
        while let Some(next) = iterator_step_value(vm, keys)? {
            table_delete(vm, result, canonical(next));
        }
    }
    Ok(Value::object(result))
}

fn symmetric_difference(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (this, other) = operands(vm, info, "symmetricDifference")?;
    let keys = keys_iterator(vm, &other)?;
    let result = copy_of(vm, this);
    while let Some(next) = iterator_step_value(vm, keys)? {
        let next = canonical(next);
        let in_this = table_get(vm, this, next).is_some();
        let in_result = table_get(vm, result, next).is_some();
        if in_this && in_result {
            table_delete(vm, result, next);
        } else if !in_this && !in_result {
            table_set(vm, result, next, Value::UNDEFINED);
        }
    }
    Ok(Value::object(result))
}

fn is_subset_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (this, other) = operands(vm, info, "isSubsetOf")?;
    if set_size_of(vm, this) as f64 > other.size {
        return Ok(Value::FALSE);
    }
    let mut index = 0;
    while let Some((i, e, _)) = entry_at(vm, this, index) {
        index = i + 1;
        if !has_in_other(vm, &other, e)? {
            return Ok(Value::FALSE);
        }
    }
    Ok(Value::TRUE)
}

fn is_superset_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (this, other) = operands(vm, info, "isSupersetOf")?;
    if (set_size_of(vm, this) as f64) < other.size {
        return Ok(Value::FALSE);
    }
    let keys = keys_iterator(vm, &other)?;
    while let Some(next) = iterator_step_value(vm, keys)? {
        if table_get(vm, this, canonical(next)).is_none() {
            iterator_close(vm, keys)?;
            return Ok(Value::FALSE);
        }
    }
    Ok(Value::TRUE)
}

fn is_disjoint_from(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (this, other) = operands(vm, info, "isDisjointFrom")?;
    if set_size_of(vm, this) as f64 <= other.size {
        let mut index = 0;
        while let Some((i, e, _)) = entry_at(vm, this, index) {
            index = i + 1;
            if has_in_other(vm, &other, e)? {
                return Ok(Value::FALSE);
            }
        }
    } else {
        let keys = keys_iterator(vm, &other)?;
        while let Some(next) = iterator_step_value(vm, keys)? {
            if table_get(vm, this, canonical(next)).is_some() {
                iterator_close(vm, keys)?;
                return Ok(Value::FALSE);
            }
        }
    }
    Ok(Value::TRUE)
}

/// Installs the set-algebra methods on `%Set.prototype%`.
pub(crate) fn install(vm: &mut Vm) {
    let set_proto = vm.realm.intrinsics.set_prototype;
    for (name, f) in [
        ("union", union as crate::function::NativeFn),
        ("intersection", intersection),
        ("difference", difference),
        ("symmetricDifference", symmetric_difference),
        ("isSubsetOf", is_subset_of),
        ("isSupersetOf", is_superset_of),
        ("isDisjointFrom", is_disjoint_from),
    ] {
        super::method(vm, set_proto, name, 1, f);
    }
}

#[cfg(test)]
mod tests {
    use crate::vm::{Vm, VmOptions};

    #[test]
    fn a_has_method_made_by_a_getter_survives_the_keys_getter_collecting() {
        // Node 20 has no Set methods, so this case is not in the
        // differential `gc-rooting.js`. Under gc-stress the `keys` getter's
        // calls collect; `has` (a fresh closure) must still be callable.
        let mut options = VmOptions::default();
        options.heap.stress = true;
        let mut vm = Vm::with_options(options);
        let source = "function churn() { const g = []; for (let i = 0; i < 100; i++) g.push({ i }); return g.length; }
             const setLike = {
               size: 10,
               get has() { return (v) => v === 1 || v === 3; },
               get keys() { churn(); return () => [].values(); },
             };
             [...new Set([1, 2, 3]).intersection(setLike)].join()";
        let out = match vm.eval_script("test.js", source) {
            Ok(v) => v.display(&mut vm),
            Err(crate::JsError::Throw(v)) => format!("threw {}", v.describe_uncaught(&mut vm)),
            Err(_) => "abrupt".to_owned(),
        };
        assert_eq!(out, "1,3");
    }
}
