//! WebIDL conversions of the streams' dictionary arguments: members are
//! read in lexicographic order, callbacks must be callable, numbers go
//! through ToNumber.

use js_gc::Gc;

use crate::abstract_ops::{is_callable, to_number};
use crate::object::JsObject;
use crate::object::internal_methods::get;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A dictionary argument: `undefined` and `null` are empty, other
/// non-objects a TypeError.
pub(super) fn dictionary(vm: &mut Vm, value: Value, what: &str) -> JsResult<Option<Gc<JsObject>>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.as_object().map(Some).ok_or_else(|| vm.type_error(&format!("{what} must be an object")))
}

/// A member of a dictionary (`undefined` for an empty one), kept alive for
/// the rest of the native call.
pub(super) fn member(vm: &mut Vm, dict: Option<Gc<JsObject>>, name: &str) -> JsResult<Value> {
    let Some(dict) = dict else { return Ok(Value::UNDEFINED) };
    let key = vm.key(name);
    let value = get(vm, dict, key, Value::object(dict))?;
    vm.keep_alive(value);
    Ok(value)
}

/// A callback member: `undefined` or callable.
pub(super) fn callback_member(vm: &mut Vm, dict: Option<Gc<JsObject>>, name: &str, what: &str) -> JsResult<Value> {
    let value = member(vm, dict, name)?;
    if value.is_undefined() || is_callable(vm, value) {
        Ok(value)
    } else {
        Err(vm.type_error(&format!("{what}.{name} must be a function")))
    }
}

/// A `QueuingStrategy` dictionary, converted.
#[derive(Clone, Copy)]
pub(super) struct Strategy {
    /// `highWaterMark`, if present.
    pub(super) high_water_mark: Option<f64>,
    /// `size`, or `undefined`.
    pub(super) size: Value,
}

/// Converts a `QueuingStrategy` argument.
pub(super) fn strategy(vm: &mut Vm, value: Value) -> JsResult<Strategy> {
    let dict = dictionary(vm, value, "The queuing strategy")?;
    let hwm = member(vm, dict, "highWaterMark")?;
    let high_water_mark = if hwm.is_undefined() { None } else { Some(to_number(vm, hwm)?) };
    let size = callback_member(vm, dict, "size", "strategy")?;
    Ok(Strategy { high_water_mark, size })
}

/// `ExtractHighWaterMark(strategy, default)`.
pub(super) fn extract_high_water_mark(vm: &mut Vm, strategy: Strategy, default: f64) -> JsResult<f64> {
    match strategy.high_water_mark {
        None => Ok(default),
        Some(hwm) if hwm.is_nan() || hwm < 0.0 => Err(vm.range_error("Invalid highWaterMark")),
        Some(hwm) => Ok(hwm),
    }
}
