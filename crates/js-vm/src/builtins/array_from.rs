//! `Array.from` (§23.1.2.1) and what it shares with `Array.of`: filling an
//! array made by the `this` constructor (`Construct(C, ...)`), or by
//! `ArrayCreate` when `this` is not a constructor.

use js_gc::Gc;

use super::array::{array_create, array_with_length};
use super::function::index_key;
use super::iteration::{get_iterator_from_method, iterator_close_with_error, iterator_step_value};
use crate::abstract_ops::{is_callable, to_object};
use crate::interpreter::{CallInfo, is_constructor};
use crate::object::internal_methods::{
    call, construct, create_data_property_or_throw, get, get_method, length_of_array_like, set,
};
use crate::object::{JsObject, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// 2⁵³ − 1: no array-like index reaches it.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The array `Array.from` or `Array.of` fills.
#[derive(Clone, Copy)]
pub(crate) enum ArrayTarget {
    /// An Array of the current realm that no script has seen yet: elements
    /// are written directly, which is what `CreateDataPropertyOrThrow`
    /// and `Set(A, "length")` would do to it.
    Fresh(Gc<JsObject>),
    /// Whatever `Construct(C, ...)` returned: every step goes through its
    /// internal methods.
    Constructed(Gc<JsObject>),
}

impl ArrayTarget {
    /// `IsConstructor(C) ? Construct(C, «len») : ArrayCreate(len)`, with no
    /// argument when `length` is `None` (the iterable case). The current
    /// realm's own %Array% gives a fresh array: constructing it runs no
    /// script.
    pub(crate) fn create(vm: &mut Vm, c: Value, length: Option<f64>) -> JsResult<ArrayTarget> {
        let constructor = c.as_object().filter(|o| is_constructor(vm, *o));
        let Some(ctor) = constructor.filter(|o| *o != vm.realm.intrinsics.array_constructor) else {
            let a = array_with_length(vm, length.unwrap_or(0.0))?;
            vm.keep_alive(Value::object(a));
            return Ok(ArrayTarget::Fresh(a));
        };
        let args: &[Value] = match length {
            Some(len) => &[Value::number(len)],
            None => &[],
        };
        let a = construct(vm, ctor, args, None)?;
        vm.keep_alive(a);
        let a = a.as_object().ok_or_else(|| vm.type_error("Array constructor did not return an object"))?;
        Ok(ArrayTarget::Constructed(a))
    }

    /// The array as a value.
    pub(crate) fn value(self) -> Value {
        match self {
            ArrayTarget::Fresh(a) | ArrayTarget::Constructed(a) => Value::object(a),
        }
    }

    /// `CreateDataPropertyOrThrow(A, ToString(k), value)`.
    pub(crate) fn define(self, vm: &mut Vm, k: u64, value: Value) -> JsResult<()> {
        match self {
            ArrayTarget::Fresh(a) if k < u64::from(u32::MAX) => {
                let index = k as u32;
                let array = a.borrow_mut(&mut vm.heap);
                if let ObjectKind::Array { length, .. } = &mut array.kind {
                    *length = (*length).max(index + 1);
                }
                array.write_element(index, value);
                Ok(())
            }
            ArrayTarget::Fresh(a) | ArrayTarget::Constructed(a) => {
                let key = index_key(vm, k);
                create_data_property_or_throw(vm, a, key, value)
            }
        }
    }

    /// `Set(A, "length", len, true)`.
    pub(crate) fn set_length(self, vm: &mut Vm, len: u64) -> JsResult<()> {
        if let ArrayTarget::Fresh(a) = self
            && let Ok(len) = u32::try_from(len)
        {
            if let ObjectKind::Array { length, .. } = &mut a.borrow_mut(&mut vm.heap).kind {
                *length = len;
            }
            return Ok(());
        }
        let (ArrayTarget::Fresh(a) | ArrayTarget::Constructed(a)) = self;
        let key = PropertyKey::String(vm.names.length);
        if set(vm, a, key, Value::number(len as f64), Value::object(a))? {
            Ok(())
        } else {
            Err(vm.type_error("Cannot assign to read only property 'length' of object"))
        }
    }
}

/// `Array.from(items [, mapfn [, thisArg]])`.
pub(crate) fn from(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (items, mapfn, this_arg) = (info.arg(vm, 0), info.arg(vm, 1), info.arg(vm, 2));
    let mapping = !mapfn.is_undefined();
    if mapping && !is_callable(vm, mapfn) {
        return Err(vm.type_error("Array.from: when provided, the second argument must be a function"));
    }
    let iterator_key = PropertyKey::Symbol(vm.symbols.iterator);
    if let Some(method) = get_method(vm, items, iterator_key)? {
        // Held while the `this` constructor runs.
        vm.keep_alive(method);
        let target = ArrayTarget::create(vm, info.this, None)?;
        let record = get_iterator_from_method(vm, items, method)?;
        vm.keep_alive(Value::internal(record.into()));
        let mut k: u64 = 0;
        loop {
            if k >= MAX_SAFE_INTEGER {
                let error = vm.type_error("Array.from: too many elements");
                return Err(iterator_close_with_error(vm, record, error));
            }
            let Some(next) = iterator_step_value(vm, record)? else {
                target.set_length(vm, k)?;
                return Ok(target.value());
            };
            let mapped = if mapping {
                match call(vm, mapfn, this_arg, &[next, Value::number(k as f64)]) {
                    Ok(v) => v,
                    Err(error) => return Err(iterator_close_with_error(vm, record, error)),
                }
            } else {
                next
            };
            if let Err(error) = target.define(vm, k, mapped) {
                return Err(iterator_close_with_error(vm, record, error));
            }
            k += 1;
        }
    }
    // Not iterable: an array-like.
    let array_like = to_object(vm, items)?;
    vm.keep_alive(Value::object(array_like));
    let len = length_of_array_like(vm, array_like)?;
    let target = ArrayTarget::create(vm, info.this, Some(len))?;
    for k in 0..len as u64 {
        let key = index_key(vm, k);
        let value = get(vm, array_like, key, Value::object(array_like))?;
        let mapped = if mapping { call(vm, mapfn, this_arg, &[value, Value::number(k as f64)])? } else { value };
        target.define(vm, k, mapped)?;
    }
    target.set_length(vm, len as u64)?;
    Ok(target.value())
}

/// `Array.of(...items)` (§23.1.2.3).
pub(crate) fn of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let args = info.args(vm);
    if !info.this.as_object().is_some_and(|c| is_constructor(vm, c))
        || info.this == Value::object(vm.realm.intrinsics.array_constructor)
    {
        return Ok(Value::object(array_create(vm, &args)));
    }
    let target = ArrayTarget::create(vm, info.this, Some(args.len() as f64))?;
    for (k, &value) in args.iter().enumerate() {
        target.define(vm, k as u64, value)?;
    }
    target.set_length(vm, args.len() as u64)?;
    Ok(target.value())
}
