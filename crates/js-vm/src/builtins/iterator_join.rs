//! `Iterator.prototype.join(separator)` (TC39 proposal-iterator-join): the
//! values' strings joined by `separator` (default `","`), with `null` and
//! `undefined` as empty strings, as `Array.prototype.join` does.

use js_gc::Gc;

use super::iteration::iterator_step_value;
use super::iterator_helpers::{close_with_error, get_iterator_direct, this_object};
use super::method;
use crate::abstract_ops::to_string;
use crate::interpreter::CallInfo;
use crate::object::JsObject;
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Appends the code units of `s` to `out`.
fn append_units(vm: &mut Vm, out: &mut Vec<u16>, s: Gc<JsString>) {
    let flat = JsString::flatten(&mut vm.heap, s);
    out.extend(flat.borrow(&vm.heap).flat().units());
}

/// `Iterator.prototype.join([separator])`: the separator is converted
/// before the receiver's `next` is read; a failing conversion (of the
/// separator or of a value) closes the receiver, a failing iterator does
/// not.
fn join(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "join")?;
    let separator = info.arg(vm, 0);
    let mut separator_units = Vec::new();
    if separator.is_undefined() {
        separator_units.push(u16::from(b','));
    } else {
        match to_string(vm, separator) {
            Ok(s) => append_units(vm, &mut separator_units, s),
            Err(e) => return Err(close_with_error(vm, this, e)),
        }
    }
    let record = get_iterator_direct(vm, this)?;
    let mut out = Vec::new();
    let mut first = true;
    while let Some(value) = iterator_step_value(vm, record)? {
        if !first {
            out.extend_from_slice(&separator_units);
        }
        first = false;
        if value.is_nullish() {
            continue;
        }
        match to_string(vm, value) {
            Ok(s) => append_units(vm, &mut out, s),
            Err(e) => {
                let iterator = record.borrow(&vm.heap).iterator;
                return Err(close_with_error(vm, iterator, e));
            }
        }
    }
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&out))))
}

/// Installs `join` on `%Iterator.prototype%`.
pub(crate) fn install(vm: &mut Vm, iterator_proto: Gc<JsObject>) {
    method(vm, iterator_proto, "join", 1, join);
}
