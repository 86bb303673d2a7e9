//! `Iterator.prototype.includes(searchElement, skippedElements)` (TC39
//! proposal-iterator-includes): whether the iterator yields a value that is
//! SameValueZero to `searchElement`, after skipping `skippedElements`
//! values. A match closes the iterator; exhaustion does not.

use js_gc::Gc;

use super::iteration::{iterator_close, iterator_step_value};
use super::iterator_helpers::{close_with_error, get_iterator_direct, this_object};
use super::method;
use crate::abstract_ops::same_value_zero;
use crate::interpreter::CallInfo;
use crate::object::JsObject;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The largest safe integer, 2⁵³ − 1.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// `skippedElements`: `undefined` (0), ±∞ or an integral Number, with no
/// coercion; a wrong type closes the receiver with a TypeError, a negative
/// or unsafe count with a RangeError.
fn skipped_elements_arg(vm: &mut Vm, this: Value, skipped: Value) -> JsResult<f64> {
    if skipped.is_undefined() {
        return Ok(0.0);
    }
    let count = match skipped.as_number() {
        Some(n) if n.is_infinite() || n.fract() == 0.0 => n,
        _ => {
            let error = vm.type_error("Iterator.prototype.includes: skippedElements must be an integer");
            return Err(close_with_error(vm, this, error));
        }
    };
    if count < 0.0 || (count.is_finite() && count > MAX_SAFE_INTEGER) {
        let error = vm.range_error("Iterator.prototype.includes: skippedElements is out of range");
        return Err(close_with_error(vm, this, error));
    }
    Ok(count)
}

/// `Iterator.prototype.includes(searchElement [, skippedElements])`.
fn includes(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "includes")?;
    let search = info.arg(vm, 0);
    let skipped = info.arg(vm, 1);
    let to_skip = skipped_elements_arg(vm, this, skipped)?;
    let record = get_iterator_direct(vm, this)?;
    let mut skipped = 0.0;
    while let Some(value) = iterator_step_value(vm, record)? {
        if skipped < to_skip {
            skipped += 1.0;
        } else if same_value_zero(vm, value, search) {
            iterator_close(vm, record)?;
            return Ok(Value::TRUE);
        }
    }
    Ok(Value::FALSE)
}

/// Installs `includes` on `%Iterator.prototype%`.
pub(crate) fn install(vm: &mut Vm, iterator_proto: Gc<JsObject>) {
    method(vm, iterator_proto, "includes", 1, includes);
}
