//! Array and Array.prototype (§23.1). The methods follow the spec's
//! generic algorithms (they work on any array-like `this`); reads of dense
//! arrays go through the element fast path inside `[[Get]]`.

use js_gc::Gc;

use super::function::index_key;
use super::iteration::create_array_iterator;
use super::{constructor, method};
use crate::abstract_ops::{
    is_callable, is_strictly_equal, same_value_zero, to_boolean, to_integer_or_infinity, to_number, to_object,
    to_string, to_uint32,
};
use crate::interpreter::{CallInfo, prototype_from_constructor, prototypes_have_no_elements};
use crate::object::internal_methods::{
    call, create_data_property_or_throw, delete, get, get_value, has_property, length_of_array_like, set,
};
use crate::object::{Attributes, Elements, IterationKind, JsObject, ObjectKind, PropertyKey};
use crate::string::{JsString, StringBuilder};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

pub use crate::object::internal_methods::array_create;

/// Appends to an array created by the engine (literals, rest arrays).
pub fn push_element(vm: &mut Vm, array: Gc<JsObject>, value: Value) {
    let a = array.borrow_mut(&mut vm.heap);
    let ObjectKind::Array { length, .. } = &mut a.kind else { return };
    let index = *length;
    *length += 1;
    a.write_element(index, value);
}

/// The elements of an engine-made dense array (spread arguments).
pub fn dense_values(vm: &Vm, array: Value) -> Vec<Value> {
    let Some(a) = array.as_object() else { return Vec::new() };
    let a = a.borrow(&vm.heap);
    let len = match a.kind {
        ObjectKind::Array { length, .. } => length as usize,
        _ => 0,
    };
    match &a.elements {
        Elements::Dense(v) => {
            let mut out: Vec<Value> =
                v.iter().take(len).map(|v| if v.is_hole() { Value::UNDEFINED } else { *v }).collect();
            out.resize(len, Value::UNDEFINED);
            out
        }
        Elements::Sparse(map) => (0..len as u32).map(|i| map.get(&i).map_or(Value::UNDEFINED, |e| e.0)).collect(),
    }
}

fn this_object(vm: &mut Vm, info: &CallInfo) -> JsResult<(Gc<JsObject>, f64)> {
    let o = to_object(vm, info.this)?;
    vm.keep_alive(Value::object(o));
    let len = length_of_array_like(vm, o)?;
    Ok((o, len))
}

fn get_index(vm: &mut Vm, o: Gc<JsObject>, i: f64) -> JsResult<Value> {
    vm.check_interrupt()?;
    let key = index_key(vm, i as u64);
    get(vm, o, key, Value::object(o))
}

/// HasProperty(`o`, `i`), then Get(`o`, `i`) when it is present: the
/// element a callback-taking method visits, or `None` for a missing one.
/// An element held densely is read directly ([`JsObject::dense_element`]).
fn present_index(vm: &mut Vm, o: Gc<JsObject>, i: f64) -> JsResult<Option<Value>> {
    let index = i as u32;
    if f64::from(index) == i
        && let Some(v) = o.borrow(&vm.heap).dense_element(index)
    {
        vm.check_interrupt()?;
        return Ok(Some(v));
    }
    if has_index(vm, o, i)? { get_index(vm, o, i).map(Some) } else { Ok(None) }
}

fn has_index(vm: &mut Vm, o: Gc<JsObject>, i: f64) -> JsResult<bool> {
    vm.check_interrupt()?;
    let key = index_key(vm, i as u64);
    has_property(vm, o, key)
}

fn set_index(vm: &mut Vm, o: Gc<JsObject>, i: f64, v: Value) -> JsResult<()> {
    vm.check_interrupt()?;
    let key = index_key(vm, i as u64);
    if !set(vm, o, key, v, Value::object(o))? {
        return Err(vm.type_error(&format!("Cannot assign to read only property '{}' of object", i as u64)));
    }
    Ok(())
}

fn delete_index(vm: &mut Vm, o: Gc<JsObject>, i: f64) -> JsResult<()> {
    let key = index_key(vm, i as u64);
    if !delete(vm, o, key)? {
        return Err(vm.type_error(&format!("Cannot delete property '{}' of object", i as u64)));
    }
    Ok(())
}

fn set_length(vm: &mut Vm, o: Gc<JsObject>, len: f64) -> JsResult<()> {
    let key = PropertyKey::String(vm.names.length);
    if !set(vm, o, key, Value::number(len), Value::object(o))? {
        return Err(vm.type_error("Cannot assign to read only property 'length' of object"));
    }
    Ok(())
}

/// A relative index argument resolved against `len` (slice, splice, at…).
fn relative_index(vm: &mut Vm, v: Value, len: f64, default: f64) -> JsResult<f64> {
    if v.is_undefined() {
        return Ok(default);
    }
    let rel = to_integer_or_infinity(to_number(vm, v)?);
    Ok(if rel < 0.0 { (len + rel).max(0.0) } else { rel.min(len) })
}

fn callback(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let f = info.arg(vm, 0);
    if !is_callable(vm, f) {
        return Err(vm.type_error("callback is not a function"));
    }
    Ok(f)
}

/// `ArraySpeciesCreate` (§10.4.2.3), honouring `constructor[Symbol.species]`.
fn array_species_create(vm: &mut Vm, original: Gc<JsObject>, length: f64) -> JsResult<Gc<JsObject>> {
    if !crate::abstract_ops::is_array(vm, Value::object(original))? {
        return array_with_length(vm, length);
    }
    let key = PropertyKey::String(vm.names.constructor);
    let mut c = get(vm, original, key, Value::object(original))?;
    if let Some(co) = c.as_object().filter(|o| crate::interpreter::is_constructor(vm, *o)) {
        // Another realm's %Array% makes an Array of this realm instead
        // (arrays passed between realms keep working with `map` & co).
        let realm = crate::function::get_function_realm(vm, co)?;
        if realm != vm.realm_id && vm.realm_record(realm).is_some_and(|r| r.intrinsics.array_constructor == co) {
            c = Value::UNDEFINED;
        }
    }
    if let Some(co) = c.as_object() {
        let species = PropertyKey::Symbol(vm.symbols.species);
        c = get(vm, co, species, c)?;
        if c.is_null() {
            c = Value::UNDEFINED;
        }
    }
    if c.is_undefined() {
        return array_with_length(vm, length);
    }
    let Some(ctor) = c.as_object().filter(|o| crate::interpreter::is_constructor(vm, *o)) else {
        return Err(vm.type_error("object.constructor[Symbol.species] is not a constructor"));
    };
    let result = crate::object::internal_methods::construct(vm, ctor, &[Value::number(length)], None)?;
    result.as_object().ok_or_else(|| vm.type_error("species constructor did not return an object"))
}

/// `ArrayCreate(length)`: a RangeError beyond 2³² − 1.
pub(crate) fn array_with_length(vm: &mut Vm, length: f64) -> JsResult<Gc<JsObject>> {
    if length > f64::from(u32::MAX - 1) + 1.0 {
        return Err(vm.range_error("Invalid array length"));
    }
    let a = array_create(vm, &[]);
    if let ObjectKind::Array { length: l, .. } = &mut a.borrow_mut(&mut vm.heap).kind {
        *l = length as u32;
    }
    Ok(a)
}

fn array_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let new_target = info.new_target.unwrap_or(info.callee);
    let proto = prototype_from_constructor(vm, new_target, |i| i.array_prototype)?;
    let a = if info.argc == 1 {
        let len = info.arg(vm, 0);
        match len.as_number() {
            Some(n) => {
                if f64::from(to_uint32(n)) != n {
                    return Err(vm.range_error("Invalid array length"));
                }
                array_with_length(vm, n)?
            }
            None => array_create(vm, &[len]),
        }
    } else {
        let args = info.args(vm);
        array_create(vm, &args)
    };
    a.borrow_mut(&mut vm.heap).proto = Some(proto);
    Ok(Value::object(a))
}

fn is_array(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    Ok(Value::boolean(crate::abstract_ops::is_array(vm, v)?))
}

/// `push` on an extensible Array whose elements are dense up to a writable
/// `length` and whose prototypes have no elements: each Set appends an own
/// data element and nothing observable runs, so the arguments are appended
/// directly. `None` when the generic steps are needed.
fn push_dense(vm: &mut Vm, info: &CallInfo) -> Option<u32> {
    let o = info.this.as_object()?;
    let object = o.borrow(&vm.heap);
    let ObjectKind::Array { length, length_writable: true } = object.kind else { return None };
    let Elements::Dense(elements) = &object.elements else { return None };
    let new_length = u32::try_from(u64::from(length) + info.argc as u64).ok().filter(|&n| n < u32::MAX)?;
    if !object.extensible || elements.len() != length as usize || !prototypes_have_no_elements(vm, o) {
        return None;
    }
    let base = info.args_base;
    let object = o.borrow_mut(&mut vm.heap);
    if let Elements::Dense(elements) = &mut object.elements {
        // Element by element: for the usual one or two arguments this is
        // cheaper than extend_from_slice's call to memcpy.
        for &v in &vm.stack.registers[base..base + info.argc] {
            elements.push(v);
        }
    }
    if let ObjectKind::Array { length, .. } = &mut object.kind {
        *length = new_length;
    }
    Some(new_length)
}

/// `pop` on an Array whose elements are dense up to a writable `length`
/// with the last one present: the Get reads an own data element, the
/// delete and the length write always succeed and run nothing.
fn pop_dense(vm: &mut Vm, info: &CallInfo) -> Option<Value> {
    let o = info.this.as_object()?;
    let object = o.borrow_mut(&mut vm.heap);
    let ObjectKind::Array { length, length_writable: true } = &mut object.kind else { return None };
    let Elements::Dense(elements) = &mut object.elements else { return None };
    if *length == 0 || elements.len() != *length as usize || elements.last().is_none_or(|v| v.is_hole()) {
        return None;
    }
    *length -= 1;
    elements.pop()
}

fn push(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if let Some(new_length) = push_dense(vm, info) {
        return Ok(Value::number(f64::from(new_length)));
    }
    let (o, len) = this_object(vm, info)?;
    if len + info.argc as f64 > MAX_SAFE_INTEGER {
        return Err(vm.type_error("Pushing elements past 2^53-1 length"));
    }
    let mut n = len;
    for i in 0..info.argc {
        let v = info.arg(vm, i);
        set_index(vm, o, n, v)?;
        n += 1.0;
    }
    set_length(vm, o, n)?;
    Ok(Value::number(n))
}

fn pop(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if let Some(v) = pop_dense(vm, info) {
        return Ok(v);
    }
    let (o, len) = this_object(vm, info)?;
    if len == 0.0 {
        set_length(vm, o, 0.0)?;
        return Ok(Value::UNDEFINED);
    }
    let v = get_index(vm, o, len - 1.0)?;
    // The delete and the length write may run traps or setters.
    vm.keep_alive(v);
    delete_index(vm, o, len - 1.0)?;
    set_length(vm, o, len - 1.0)?;
    Ok(v)
}

fn shift(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    if len == 0.0 {
        set_length(vm, o, 0.0)?;
        return Ok(Value::UNDEFINED);
    }
    let first = get_index(vm, o, 0.0)?;
    vm.keep_alive(first);
    let mut k = 1.0;
    while k < len {
        if let Some(v) = present_index(vm, o, k)? {
            set_index(vm, o, k - 1.0, v)?;
        } else {
            delete_index(vm, o, k - 1.0)?;
        }
        k += 1.0;
    }
    delete_index(vm, o, len - 1.0)?;
    set_length(vm, o, len - 1.0)?;
    Ok(first)
}

fn unshift(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let count = info.argc as f64;
    if count > 0.0 {
        if len + count > MAX_SAFE_INTEGER {
            return Err(vm.type_error("Unshift would exceed the maximum array length"));
        }
        let mut k = len;
        while k > 0.0 {
            if has_index(vm, o, k - 1.0)? {
                let v = get_index(vm, o, k - 1.0)?;
                set_index(vm, o, k + count - 1.0, v)?;
            } else {
                delete_index(vm, o, k + count - 1.0)?;
            }
            k -= 1.0;
        }
        for i in 0..info.argc {
            let v = info.arg(vm, i);
            set_index(vm, o, i as f64, v)?;
        }
    }
    set_length(vm, o, len + count)?;
    Ok(Value::number(len + count))
}

fn slice(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let (start, end) = (info.arg(vm, 0), info.arg(vm, 1));
    let k = relative_index(vm, start, len, 0.0)?;
    let fin = relative_index(vm, end, len, len)?;
    let count = (fin - k).max(0.0);
    let a = array_species_create(vm, o, count)?;
    vm.keep_alive(Value::object(a));
    let mut n = 0.0;
    let mut i = k;
    while i < fin {
        if let Some(v) = present_index(vm, o, i)? {
            let key = index_key(vm, n as u64);
            create_data_property_or_throw(vm, a, key, v)?;
        }
        i += 1.0;
        n += 1.0;
    }
    set_length(vm, a, n)?;
    Ok(Value::object(a))
}

/// The actual start and the count of elements to remove of `splice` and
/// `toSpliced(start, count, ...)` on a `len`-element object (the same steps
/// in §23.1.3.31 and §23.1.3.35): no count argument removes to the end.
fn splice_range(vm: &mut Vm, info: &CallInfo, len: f64) -> JsResult<(f64, f64)> {
    let start_arg = info.arg(vm, 0);
    let start = relative_index(vm, start_arg, len, 0.0)?;
    let count = if info.argc == 0 {
        0.0
    } else if info.argc == 1 {
        len - start
    } else {
        let count_arg = info.arg(vm, 1);
        to_integer_or_infinity(to_number(vm, count_arg)?).clamp(0.0, len - start)
    };
    Ok((start, count))
}

/// `splice` on an extensible Array whose elements are dense up to a
/// writable `length` (still `len` after the arguments' conversions and the
/// species lookup), whose prototypes have no elements, and whose `removed`
/// array is a fresh extensible Array of `delete_count` holes: then every
/// Get, Set, DeletePropertyOrThrow and CreateDataPropertyOrThrow of the
/// generic steps acts on own data elements and runs nothing, so one
/// `Vec::splice` does them all (holes move as holes). Gives the items back
/// when the generic steps are needed.
fn splice_dense(
    vm: &mut Vm,
    [o, removed]: [Gc<JsObject>; 2],
    len: f64,
    start: f64,
    delete_count: f64,
    items: Vec<Value>,
) -> Option<Vec<Value>> {
    let new_length = len - delete_count + items.len() as f64;
    let dense = |vm: &Vm, a: Gc<JsObject>, length: f64, elements: usize| {
        let object = a.borrow(&vm.heap);
        object.extensible
            && matches!(object.kind, ObjectKind::Array { length: l, length_writable: true } if f64::from(l) == length)
            && matches!(&object.elements, Elements::Dense(v) if v.len() == elements)
    };
    let fits = new_length < f64::from(u32::MAX);
    if !fits
        || !dense(vm, o, len, len as usize)
        || !dense(vm, removed, delete_count, 0)
        || !prototypes_have_no_elements(vm, o)
    {
        return Some(items);
    }
    let range = start as usize..(start + delete_count) as usize;
    let object = o.borrow_mut(&mut vm.heap);
    let Elements::Dense(elements) = &mut object.elements else { return Some(items) };
    let taken: Vec<Value> = elements.splice(range, items).collect();
    if let ObjectKind::Array { length, .. } = &mut object.kind {
        *length = new_length as u32;
    }
    removed.borrow_mut(&mut vm.heap).elements = Elements::Dense(taken);
    None
}

fn splice(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let (start, delete_count) = splice_range(vm, info, len)?;
    let items: Vec<Value> = info.args(vm).into_iter().skip(2).collect();
    let item_count = items.len() as f64;
    if len + item_count - delete_count > MAX_SAFE_INTEGER {
        return Err(vm.type_error("Array.prototype.splice: the new length would exceed 2^53 - 1"));
    }
    let removed = array_species_create(vm, o, delete_count)?;
    vm.keep_alive(Value::object(removed));
    let Some(items) = splice_dense(vm, [o, removed], len, start, delete_count, items) else {
        return Ok(Value::object(removed));
    };
    for k in 0..delete_count as u64 {
        let from = start + k as f64;
        if let Some(v) = present_index(vm, o, from)? {
            let key = index_key(vm, k);
            create_data_property_or_throw(vm, removed, key, v)?;
        }
    }
    set_length(vm, removed, delete_count)?;
    if item_count < delete_count {
        let mut k = start;
        while k < len - delete_count {
            let (from, to) = (k + delete_count, k + item_count);
            if let Some(v) = present_index(vm, o, from)? {
                set_index(vm, o, to, v)?;
            } else {
                delete_index(vm, o, to)?;
            }
            k += 1.0;
        }
        let mut k = len;
        while k > len - delete_count + item_count {
            delete_index(vm, o, k - 1.0)?;
            k -= 1.0;
        }
    } else if item_count > delete_count {
        let mut k = len - delete_count;
        while k > start {
            let (from, to) = (k + delete_count - 1.0, k + item_count - 1.0);
            if let Some(v) = present_index(vm, o, from)? {
                set_index(vm, o, to, v)?;
            } else {
                delete_index(vm, o, to)?;
            }
            k -= 1.0;
        }
    }
    for (i, v) in items.into_iter().enumerate() {
        set_index(vm, o, start + i as f64, v)?;
    }
    set_length(vm, o, len - delete_count + item_count)?;
    Ok(Value::object(removed))
}

fn is_concat_spreadable(vm: &mut Vm, v: Value) -> JsResult<bool> {
    let Some(o) = v.as_object() else { return Ok(false) };
    let key = PropertyKey::Symbol(vm.symbols.is_concat_spreadable);
    let spreadable = get(vm, o, key, v)?;
    if !spreadable.is_undefined() {
        return Ok(to_boolean(vm, spreadable));
    }
    crate::abstract_ops::is_array(vm, v)
}

/// 2⁵³ − 1: the largest length an array-like may reach.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn concat(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    vm.keep_alive(Value::object(o));
    let a = array_species_create(vm, o, 0.0)?;
    vm.keep_alive(Value::object(a));
    let mut n = 0.0;
    let mut items = vec![Value::object(o)];
    items.extend(info.args(vm));
    for item in items {
        if is_concat_spreadable(vm, item)? {
            let Some(e) = item.as_object() else { continue };
            let len = length_of_array_like(vm, e)?;
            if n + len > MAX_SAFE_INTEGER {
                return Err(vm.type_error("Invalid array length"));
            }
            let mut k = 0.0;
            while k < len {
                if has_index(vm, e, k)? {
                    let v = get_index(vm, e, k)?;
                    let key = index_key(vm, n as u64);
                    create_data_property_or_throw(vm, a, key, v)?;
                }
                n += 1.0;
                k += 1.0;
            }
        } else {
            if n >= MAX_SAFE_INTEGER {
                return Err(vm.type_error("Invalid array length"));
            }
            let key = index_key(vm, n as u64);
            create_data_property_or_throw(vm, a, key, item)?;
            n += 1.0;
        }
    }
    set_length(vm, a, n)?;
    Ok(Value::object(a))
}

/// `Array.prototype.join`; cycles print as empty strings, as engines do.
fn join(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let sep_arg = info.arg(vm, 0);
    let sep =
        if sep_arg.is_undefined() { vm.heap.alloc(JsString::from_rust_str(",")) } else { to_string(vm, sep_arg)? };
    // The elements' getters and `toString`s run while the separator is held.
    vm.keep_alive(Value::string(sep));
    if vm.join_stack.contains(&o) {
        return Ok(Value::string(vm.atoms.intern_str(&mut vm.heap, "")));
    }
    vm.join_stack.push(o);
    let result = join_inner(vm, o, len, sep);
    vm.join_stack.pop();
    result
}

fn join_inner(vm: &mut Vm, o: Gc<JsObject>, len: f64, sep: Gc<JsString>) -> JsResult<Value> {
    let sep = JsString::flatten(&mut vm.heap, sep);
    vm.keep_alive(Value::string(sep));
    // The separators alone would pass the string length limit: fail before
    // visiting billions of holes.
    let sep_len = sep.borrow(&vm.heap).len() as f64;
    if (len - 1.0) * sep_len > crate::string::MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    let mut b = StringBuilder::new();
    let mut k = 0.0;
    while k < len {
        if k > 0.0 {
            b.push_str(sep.borrow(&vm.heap).flat());
        }
        let element = get_index(vm, o, k)?;
        if !element.is_nullish() {
            let s = to_string(vm, element)?;
            let s = JsString::flatten(&mut vm.heap, s);
            b.push_str(s.borrow(&vm.heap).flat());
        }
        if b.len() > crate::string::MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
        k += 1.0;
    }
    Ok(Value::string(b.finish(&mut vm.heap)))
}

/// `Array.prototype.toLocaleString()` (§23.1.3.32): each element's own
/// `toLocaleString()` (none for null and undefined), joined with ",". As
/// `join` does, an array met again inside its own elements reads as "".
fn to_locale_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    if vm.join_stack.contains(&o) {
        return Ok(Value::string(vm.atoms.intern_str(&mut vm.heap, "")));
    }
    vm.join_stack.push(o);
    let result = to_locale_string_inner(vm, o, len);
    vm.join_stack.pop();
    result
}

fn to_locale_string_inner(vm: &mut Vm, o: Gc<JsObject>, len: f64) -> JsResult<Value> {
    // As in join: the separators alone would pass the length limit.
    if len - 1.0 > crate::string::MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    let key = vm.key("toLocaleString");
    vm.keep_key_alive(key);
    let mut b = StringBuilder::new();
    let mut k = 0.0;
    while k < len {
        if k > 0.0 {
            b.push(u16::from(b','));
        }
        let element = get_index(vm, o, k)?;
        if !element.is_nullish() {
            // Invoke(element, "toLocaleString"): the lookup may run a getter.
            vm.keep_alive(element);
            let f = get_value(vm, element, key)?;
            let s = call(vm, f, element, &[])?;
            let s = to_string(vm, s)?;
            let s = JsString::flatten(&mut vm.heap, s);
            b.push_str(s.borrow(&vm.heap).flat());
        }
        if b.len() > crate::string::MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
        k += 1.0;
    }
    Ok(Value::string(b.finish(&mut vm.heap)))
}

fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    vm.keep_alive(Value::object(o));
    let key = vm.key("join");
    let f = get(vm, o, key, Value::object(o))?;
    if is_callable(vm, f) {
        return call(vm, f, Value::object(o), &[]);
    }
    let info2 = CallInfo { this: Value::object(o), ..*info };
    super::object::object_to_string(vm, &info2)
}

fn index_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    if len == 0.0 {
        return Ok(Value::number(-1.0));
    }
    let target = info.arg(vm, 0);
    let from = info.arg(vm, 1);
    let mut k = relative_index(vm, from, len, 0.0)?;
    while k < len {
        if let Some(v) = present_index(vm, o, k)?
            && is_strictly_equal(vm, v, target)
        {
            return Ok(Value::number(k));
        }
        k += 1.0;
    }
    Ok(Value::number(-1.0))
}

fn last_index_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    if len == 0.0 {
        return Ok(Value::number(-1.0));
    }
    let target = info.arg(vm, 0);
    let mut k = if info.argc > 1 {
        let from = info.arg(vm, 1);
        let n = to_integer_or_infinity(to_number(vm, from)?);
        if n == f64::NEG_INFINITY {
            return Ok(Value::number(-1.0));
        }
        if n >= 0.0 { n.min(len - 1.0) } else { len + n }
    } else {
        len - 1.0
    };
    while k >= 0.0 {
        if let Some(v) = present_index(vm, o, k)?
            && is_strictly_equal(vm, v, target)
        {
            return Ok(Value::number(k));
        }
        k -= 1.0;
    }
    Ok(Value::number(-1.0))
}

fn includes(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    if len == 0.0 {
        return Ok(Value::FALSE);
    }
    let target = info.arg(vm, 0);
    let from = info.arg(vm, 1);
    let mut k = relative_index(vm, from, len, 0.0)?;
    while k < len {
        let v = get_index(vm, o, k)?;
        if same_value_zero(vm, v, target) {
            return Ok(Value::TRUE);
        }
        k += 1.0;
    }
    Ok(Value::FALSE)
}

fn reverse(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let middle = (len / 2.0).floor();
    let mut lower = 0.0;
    while lower != middle {
        let upper = len - lower - 1.0;
        let lower_exists = has_index(vm, o, lower)?;
        let lower_value = if lower_exists { get_index(vm, o, lower)? } else { Value::UNDEFINED };
        // Held while the upper element's trap or getter runs.
        vm.keep_alive(lower_value);
        let upper_exists = has_index(vm, o, upper)?;
        let upper_value = if upper_exists { get_index(vm, o, upper)? } else { Value::UNDEFINED };
        match (lower_exists, upper_exists) {
            (true, true) => {
                set_index(vm, o, lower, upper_value)?;
                set_index(vm, o, upper, lower_value)?;
            }
            (false, true) => {
                set_index(vm, o, lower, upper_value)?;
                delete_index(vm, o, upper)?;
            }
            (true, false) => {
                delete_index(vm, o, lower)?;
                set_index(vm, o, upper, lower_value)?;
            }
            (false, false) => {}
        }
        lower += 1.0;
    }
    Ok(Value::object(o))
}

/// `SortCompare` (§23.1.3.30.2).
fn sort_compare(vm: &mut Vm, comparator: Value, x: Value, y: Value) -> JsResult<std::cmp::Ordering> {
    use std::cmp::Ordering;
    match (x.is_undefined(), y.is_undefined()) {
        (true, true) => return Ok(Ordering::Equal),
        (true, false) => return Ok(Ordering::Greater),
        (false, true) => return Ok(Ordering::Less),
        (false, false) => {}
    }
    if !comparator.is_undefined() {
        let r = call(vm, comparator, Value::UNDEFINED, &[x, y])?;
        let n = to_number(vm, r)?;
        return Ok(if n < 0.0 {
            Ordering::Less
        } else if n > 0.0 {
            Ordering::Greater
        } else {
            Ordering::Equal
        });
    }
    // `xs` is held while `y`'s `toString` runs; released after the
    // comparison, as a sort makes O(n log n) of them.
    let mark = vm.stack.temp_roots.len();
    let xs = to_string(vm, x)?;
    vm.keep_alive(Value::string(xs));
    let ys = to_string(vm, y);
    vm.stack.temp_roots.truncate(mark);
    let ys = ys?;
    let xs = JsString::flatten(&mut vm.heap, xs);
    let ys = JsString::flatten(&mut vm.heap, ys);
    Ok(JsString::cmp_units(xs.borrow(&vm.heap).flat(), ys.borrow(&vm.heap).flat()))
}

/// A stable merge sort whose comparator may throw.
pub(crate) fn merge_sort(vm: &mut Vm, items: &mut Vec<Value>, comparator: Value) -> JsResult<()> {
    let n = items.len();
    let mut buffer = items.clone();
    let mut width = 1;
    while width < n {
        let mut i = 0;
        while i < n {
            let mid = (i + width).min(n);
            let end = (i + 2 * width).min(n);
            let (mut a, mut b, mut k) = (i, mid, i);
            while a < mid && b < end {
                // Comparisons without a comparator never reach a safepoint:
                // a sort of millions of strings stays interruptible.
                vm.check_interrupt_every(k, 1024)?;
                if sort_compare(vm, comparator, items[b], items[a])? == std::cmp::Ordering::Less {
                    buffer[k] = items[b];
                    b += 1;
                } else {
                    buffer[k] = items[a];
                    a += 1;
                }
                k += 1;
            }
            buffer[k..k + (mid - a)].copy_from_slice(&items[a..mid]);
            k += mid - a;
            buffer[k..k + (end - b)].copy_from_slice(&items[b..end]);
            i += 2 * width;
        }
        std::mem::swap(items, &mut buffer);
        width *= 2;
    }
    Ok(())
}

/// `SortIndexedProperties`: the present elements, sorted.
fn sorted_values(vm: &mut Vm, o: Gc<JsObject>, len: f64, comparator: Value, skip_holes: bool) -> JsResult<Vec<Value>> {
    let mut items = Vec::new();
    let mut k = 0.0;
    while k < len {
        if !skip_holes || has_index(vm, o, k)? {
            let v = get_index(vm, o, k)?;
            items.push(v);
            vm.keep_alive(v);
        }
        k += 1.0;
    }
    merge_sort(vm, &mut items, comparator)?;
    Ok(items)
}

fn sort(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let comparator = info.arg(vm, 0);
    if !comparator.is_undefined() && !is_callable(vm, comparator) {
        return Err(vm.type_error("The comparison function must be either a function or undefined"));
    }
    let (o, len) = this_object(vm, info)?;
    let items = sorted_values(vm, o, len, comparator, true)?;
    let count = items.len() as f64;
    for (i, v) in items.into_iter().enumerate() {
        set_index(vm, o, i as f64, v)?;
    }
    let mut k = count;
    while k < len {
        delete_index(vm, o, k)?;
        k += 1.0;
    }
    Ok(Value::object(o))
}

fn to_sorted(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let comparator = info.arg(vm, 0);
    if !comparator.is_undefined() && !is_callable(vm, comparator) {
        return Err(vm.type_error("The comparison function must be either a function or undefined"));
    }
    let (o, len) = this_object(vm, info)?;
    if len > f64::from(u32::MAX - 1) {
        return Err(vm.range_error("Invalid array length"));
    }
    let items = sorted_values(vm, o, len, comparator, false)?;
    Ok(Value::object(array_create(vm, &items)))
}

fn to_reversed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    if len > f64::from(u32::MAX - 1) {
        return Err(vm.range_error("Invalid array length"));
    }
    let mut items = Vec::new();
    let mut k = len;
    while k > 0.0 {
        k -= 1.0;
        let v = get_index(vm, o, k)?;
        // The next getters run while `items` holds this one.
        vm.keep_alive(v);
        items.push(v);
    }
    Ok(Value::object(array_create(vm, &items)))
}

fn with(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let index = info.arg(vm, 0);
    let rel = to_integer_or_infinity(to_number(vm, index)?);
    let actual = if rel >= 0.0 { rel } else { len + rel };
    if actual >= len || actual < 0.0 {
        return Err(vm.range_error("Invalid index"));
    }
    // ArrayCreate(len) comes before any element is read.
    if len > f64::from(u32::MAX) {
        return Err(vm.range_error("Invalid array length"));
    }
    let value = info.arg(vm, 1);
    let mut items = Vec::new();
    let mut k = 0.0;
    while k < len {
        let v = if k == actual { value } else { get_index(vm, o, k)? };
        // The next getters run while `items` holds this one.
        vm.keep_alive(v);
        items.push(v);
        k += 1.0;
    }
    Ok(Value::object(array_create(vm, &items)))
}

/// `Array.prototype.toSpliced(start, skipCount, ...items)` (§23.1.3.35):
/// `splice` on a copy, holes read as undefined, no species.
fn to_spliced(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let (start, skip_count) = splice_range(vm, info, len)?;
    let inserted: Vec<Value> = info.args(vm).into_iter().skip(2).collect();
    let new_len = len + inserted.len() as f64 - skip_count;
    if new_len > MAX_SAFE_INTEGER {
        return Err(vm.type_error("Array.prototype.toSpliced: the new length would exceed 2^53 - 1"));
    }
    // ArrayCreate(newLen) comes before any element is read.
    if new_len > f64::from(u32::MAX) {
        return Err(vm.range_error("Invalid array length"));
    }
    let mut items = Vec::new();
    let mut k = 0.0;
    while k < start {
        let v = get_index(vm, o, k)?;
        // The next getters run while `items` holds this one.
        vm.keep_alive(v);
        items.push(v);
        k += 1.0;
    }
    items.extend_from_slice(&inserted);
    let mut from = start + skip_count;
    while from < len {
        let v = get_index(vm, o, from)?;
        vm.keep_alive(v);
        items.push(v);
        from += 1.0;
    }
    Ok(Value::object(array_create(vm, &items)))
}

/// The kinds of callback iteration over elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Iteration {
    ForEach,
    Map,
    Filter,
    Some,
    Every,
}

fn iterate(vm: &mut Vm, info: &CallInfo, kind: Iteration) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let f = callback(vm, info)?;
    let this_arg = info.arg(vm, 1);
    let result = match kind {
        Iteration::Map => Some(array_species_create(vm, o, len)?),
        Iteration::Filter => Some(array_species_create(vm, o, 0.0)?),
        _ => None,
    };
    if let Some(r) = result {
        vm.keep_alive(Value::object(r));
    }
    let mut to = 0.0;
    let mut k = 0.0;
    while k < len {
        if let Some(v) = present_index(vm, o, k)? {
            let r = call(vm, f, this_arg, &[v, Value::number(k), Value::object(o)])?;
            match kind {
                Iteration::ForEach => {}
                Iteration::Map => {
                    if let Some(a) = result {
                        let key = index_key(vm, k as u64);
                        create_data_property_or_throw(vm, a, key, r)?;
                    }
                }
                Iteration::Filter => {
                    if to_boolean(vm, r) {
                        if let Some(a) = result {
                            let key = index_key(vm, to as u64);
                            create_data_property_or_throw(vm, a, key, v)?;
                        }
                        to += 1.0;
                    }
                }
                Iteration::Some => {
                    if to_boolean(vm, r) {
                        return Ok(Value::TRUE);
                    }
                }
                Iteration::Every => {
                    if !to_boolean(vm, r) {
                        return Ok(Value::FALSE);
                    }
                }
            }
        }
        k += 1.0;
    }
    Ok(match kind {
        Iteration::ForEach => Value::UNDEFINED,
        Iteration::Map | Iteration::Filter => result.map_or(Value::UNDEFINED, Value::object),
        Iteration::Some => Value::FALSE,
        Iteration::Every => Value::TRUE,
    })
}

fn for_each(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterate(vm, info, Iteration::ForEach)
}
fn map(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterate(vm, info, Iteration::Map)
}
fn filter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterate(vm, info, Iteration::Filter)
}
fn some(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterate(vm, info, Iteration::Some)
}
fn every(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterate(vm, info, Iteration::Every)
}

fn reduce_impl(vm: &mut Vm, info: &CallInfo, right: bool) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let f = callback(vm, info)?;
    let mut k: f64 = if right { len - 1.0 } else { 0.0 };
    let step = if right { -1.0 } else { 1.0 };
    let in_range = |k: f64| if right { k >= 0.0 } else { k < len };
    let mut acc = if info.argc >= 2 {
        info.arg(vm, 1)
    } else {
        let mut found = None;
        while in_range(k) {
            let present = has_index(vm, o, k)?;
            let here = k;
            k += step;
            if present {
                let v = get_index(vm, o, here)?;
                // The accumulator is held across the next `has`/`get`.
                vm.keep_alive(v);
                found = Some(v);
                break;
            }
        }
        match found {
            Some(v) => v,
            None => return Err(vm.type_error("Reduce of empty array with no initial value")),
        }
    };
    while in_range(k) {
        if let Some(v) = present_index(vm, o, k)? {
            acc = call(vm, f, Value::UNDEFINED, &[acc, v, Value::number(k), Value::object(o)])?;
            vm.keep_alive(acc);
        }
        k += step;
    }
    Ok(acc)
}

fn reduce(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    reduce_impl(vm, info, false)
}
fn reduce_right(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    reduce_impl(vm, info, true)
}

/// find / findIndex / findLast / findLastIndex.
fn find_impl(vm: &mut Vm, info: &CallInfo, last: bool, want_index: bool) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let f = callback(vm, info)?;
    let this_arg = info.arg(vm, 1);
    let mut k = if last { len - 1.0 } else { 0.0 };
    while if last { k >= 0.0 } else { k < len } {
        let v = get_index(vm, o, k)?;
        let r = call(vm, f, this_arg, &[v, Value::number(k), Value::object(o)])?;
        if to_boolean(vm, r) {
            return Ok(if want_index { Value::number(k) } else { v });
        }
        k += if last { -1.0 } else { 1.0 };
    }
    Ok(if want_index { Value::number(-1.0) } else { Value::UNDEFINED })
}

fn find(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    find_impl(vm, info, false, false)
}
fn find_index(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    find_impl(vm, info, false, true)
}
fn find_last(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    find_impl(vm, info, true, false)
}
fn find_last_index(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    find_impl(vm, info, true, true)
}

fn fill(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let value = info.arg(vm, 0);
    let (start, end) = (info.arg(vm, 1), info.arg(vm, 2));
    let mut k = relative_index(vm, start, len, 0.0)?;
    let fin = relative_index(vm, end, len, len)?;
    while k < fin {
        set_index(vm, o, k, value)?;
        k += 1.0;
    }
    Ok(Value::object(o))
}

fn copy_within(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let (target, start, end) = (info.arg(vm, 0), info.arg(vm, 1), info.arg(vm, 2));
    let mut to = relative_index(vm, target, len, 0.0)?;
    let mut from = relative_index(vm, start, len, 0.0)?;
    let fin = relative_index(vm, end, len, len)?;
    let mut count = (fin - from).min(len - to);
    let direction = if from < to && to < from + count {
        from += count - 1.0;
        to += count - 1.0;
        -1.0
    } else {
        1.0
    };
    while count > 0.0 {
        if let Some(v) = present_index(vm, o, from)? {
            set_index(vm, o, to, v)?;
        } else {
            delete_index(vm, o, to)?;
        }
        from += direction;
        to += direction;
        count -= 1.0;
    }
    Ok(Value::object(o))
}

fn at(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let index = info.arg(vm, 0);
    let rel = to_integer_or_infinity(to_number(vm, index)?);
    let k = if rel >= 0.0 { rel } else { len + rel };
    if k < 0.0 || k >= len {
        return Ok(Value::UNDEFINED);
    }
    get_index(vm, o, k)
}

/// `FlattenIntoArray` (§23.1.3.13.1).
fn flatten_into(
    vm: &mut Vm,
    target: Gc<JsObject>,
    source: Gc<JsObject>,
    len: f64,
    start: f64,
    depth: f64,
    mapper: Option<(Value, Value)>,
) -> JsResult<f64> {
    let mut index = start;
    let mut k = 0.0;
    while k < len {
        if has_index(vm, source, k)? {
            let mut element = get_index(vm, source, k)?;
            if let Some((f, this_arg)) = mapper {
                element = call(vm, f, this_arg, &[element, Value::number(k), Value::object(source)])?;
            }
            // A nested array is read (getters, proxy traps) while only this
            // local holds it.
            vm.keep_alive(element);
            let flatten = depth > 0.0 && crate::abstract_ops::is_array(vm, element)?;
            if let (true, Some(e)) = (flatten, element.as_object()) {
                let elen = length_of_array_like(vm, e)?;
                index = flatten_into(vm, target, e, elen, index, depth - 1.0, None)?;
            } else {
                let key = index_key(vm, index as u64);
                create_data_property_or_throw(vm, target, key, element)?;
                index += 1.0;
            }
        }
        k += 1.0;
    }
    Ok(index)
}

fn flat(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let depth_arg = info.arg(vm, 0);
    let depth = if depth_arg.is_undefined() { 1.0 } else { to_integer_or_infinity(to_number(vm, depth_arg)?).max(0.0) };
    let a = array_species_create(vm, o, 0.0)?;
    vm.keep_alive(Value::object(a));
    flatten_into(vm, a, o, len, 0.0, depth, None)?;
    Ok(Value::object(a))
}

fn flat_map(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, len) = this_object(vm, info)?;
    let f = callback(vm, info)?;
    let this_arg = info.arg(vm, 1);
    let a = array_species_create(vm, o, 0.0)?;
    vm.keep_alive(Value::object(a));
    flatten_into(vm, a, o, len, 0.0, 1.0, Some((f, this_arg)))?;
    Ok(Value::object(a))
}

fn keys(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    Ok(create_array_iterator(vm, Value::object(o), IterationKind::Keys))
}

fn values(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    Ok(create_array_iterator(vm, Value::object(o), IterationKind::Values))
}

fn entries(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    Ok(create_array_iterator(vm, Value::object(o), IterationKind::Entries))
}

fn species_getter(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

/// Installs Array and Array.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.array_prototype;
    let ctor = constructor(vm, "Array", 1, array_ctor, proto);
    vm.realm.intrinsics.array_constructor = ctor;
    method(vm, ctor, "isArray", 1, is_array);
    method(vm, ctor, "of", 0, super::array_from::of);
    method(vm, ctor, "from", 1, super::array_from::from);
    super::array_from_async::install(vm, ctor);
    let species = PropertyKey::Symbol(vm.symbols.species);
    super::accessor_property(vm, ctor, species, "[Symbol.species]", Some(species_getter), None);
    let methods: [(&str, u32, crate::function::NativeFn); 38] = [
        ("push", 1, push),
        ("pop", 0, pop),
        ("shift", 0, shift),
        ("unshift", 1, unshift),
        ("slice", 2, slice),
        ("splice", 2, splice),
        ("concat", 1, concat),
        ("join", 1, join),
        ("toString", 0, to_string_method),
        ("indexOf", 1, index_of),
        ("lastIndexOf", 1, last_index_of),
        ("includes", 1, includes),
        ("reverse", 0, reverse),
        ("sort", 1, sort),
        ("toSorted", 1, to_sorted),
        ("toReversed", 0, to_reversed),
        ("with", 2, with),
        ("toSpliced", 2, to_spliced),
        ("forEach", 1, for_each),
        ("map", 1, map),
        ("filter", 1, filter),
        ("some", 1, some),
        ("every", 1, every),
        ("reduce", 1, reduce),
        ("reduceRight", 1, reduce_right),
        ("find", 1, find),
        ("findIndex", 1, find_index),
        ("findLast", 1, find_last),
        ("findLastIndex", 1, find_last_index),
        ("fill", 1, fill),
        ("copyWithin", 2, copy_within),
        ("at", 1, at),
        ("flat", 0, flat),
        ("flatMap", 1, flat_map),
        ("keys", 0, keys),
        ("entries", 0, entries),
        ("toLocaleString", 0, to_locale_string),
        ("values", 0, values),
    ];
    let mut values_fn = None;
    for (name, length, f) in methods {
        let function = method(vm, proto, name, length, f);
        if name == "values" {
            values_fn = Some(function);
        }
    }
    // Array.prototype[@@unscopables] (§23.1.3.41).
    let unscopables = vm.new_object(None);
    for name in [
        "at",
        "copyWithin",
        "entries",
        "fill",
        "find",
        "findIndex",
        "findLast",
        "findLastIndex",
        "flat",
        "flatMap",
        "includes",
        "keys",
        "toReversed",
        "toSorted",
        "toSpliced",
        "values",
    ] {
        super::value_property(vm, unscopables, name, Value::TRUE, Attributes::DEFAULT);
    }
    let unscopables_key = PropertyKey::Symbol(vm.symbols.unscopables);
    crate::object::internal_methods::define_builtin(
        vm,
        proto,
        unscopables_key,
        Value::object(unscopables),
        Attributes::CONFIGURABLE_ONLY,
    );
    if let Some(values_fn) = values_fn {
        vm.realm.intrinsics.array_values = values_fn;
        let iterator = PropertyKey::Symbol(vm.symbols.iterator);
        crate::object::internal_methods::define_builtin(
            vm,
            proto,
            iterator,
            Value::object(values_fn),
            Attributes::METHOD,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::vm::Vm;

    /// The completion value as `console.log` prints it, or the thrown
    /// value's description.
    fn eval(source: &str) -> String {
        let mut vm = Vm::new();
        match vm.eval_script("test.js", source) {
            Ok(v) => v.display(&mut vm),
            Err(crate::JsError::Throw(v)) => format!("threw {}", v.describe_uncaught(&mut vm)),
            Err(_) => "abrupt".to_owned(),
        }
    }

    #[test]
    fn to_locale_string_fails_fast_when_the_separators_alone_are_too_long() {
        // Node 20 throws a TypeError ("Invalid array length") here; the
        // result would pass the string length limit, so a RangeError, at
        // once rather than after four billion element reads.
        let text = eval("Array.prototype.toLocaleString.call({ length: 2 ** 32 })");
        assert!(text.contains("RangeError"), "{text}");
        assert_eq!(eval("[1234.5, null, 'x'].toLocaleString()"), "1,234.5,,x");
    }
}
