//! Testing and comparison operations (§7.2) and the relational
//! comparison of §7.2.13.

use super::type_conversion::{PreferredType, to_number, to_primitive};
use crate::string::JsString;
use crate::value::{Value, ValueType};
use crate::vm::{JsResult, Vm};

fn strings_equal(vm: &mut Vm, a: Value, b: Value) -> bool {
    match (a.as_string(), b.as_string()) {
        (Some(x), Some(y)) => {
            if x == y {
                return true;
            }
            if x.borrow(&vm.heap).len() != y.borrow(&vm.heap).len() {
                return false;
            }
            let x = JsString::flatten(&mut vm.heap, x);
            let y = JsString::flatten(&mut vm.heap, y);
            let (x, y) = (x.borrow(&vm.heap).flat(), y.borrow(&vm.heap).flat());
            x.units().eq(y.units())
        }
        _ => false,
    }
}

/// `IsStrictlyEqual` (`===`).
pub fn is_strictly_equal(vm: &mut Vm, a: Value, b: Value) -> bool {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return x == y;
    }
    if a.is_string() && b.is_string() {
        return strings_equal(vm, a, b);
    }
    a == b
}

/// `SameValue` (`Object.is`).
pub fn same_value(vm: &mut Vm, a: Value, b: Value) -> bool {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits();
    }
    is_strictly_equal(vm, a, b)
}

/// `SameValueZero` (`includes`, Map keys).
pub fn same_value_zero(vm: &mut Vm, a: Value, b: Value) -> bool {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return (x.is_nan() && y.is_nan()) || x == y;
    }
    is_strictly_equal(vm, a, b)
}

/// `IsLooselyEqual` (`==`).
pub fn is_loosely_equal(vm: &mut Vm, a: Value, b: Value) -> JsResult<bool> {
    let (ta, tb) = (a.value_type(), b.value_type());
    if ta == tb {
        return Ok(is_strictly_equal(vm, a, b));
    }
    Ok(match (ta, tb) {
        (ValueType::Null | ValueType::Undefined, ValueType::Null | ValueType::Undefined) => true,
        (ValueType::Number, ValueType::String) | (ValueType::String, ValueType::Number) => {
            to_number(vm, a)? == to_number(vm, b)?
        }
        (ValueType::Boolean, _) => {
            let n = Value::number(to_number(vm, a)?);
            return is_loosely_equal(vm, n, b);
        }
        (_, ValueType::Boolean) => {
            let n = Value::number(to_number(vm, b)?);
            return is_loosely_equal(vm, a, n);
        }
        (ValueType::Number | ValueType::String | ValueType::Symbol, ValueType::Object) => {
            let p = to_primitive(vm, b, PreferredType::Default)?;
            return is_loosely_equal(vm, a, p);
        }
        (ValueType::Object, ValueType::Number | ValueType::String | ValueType::Symbol) => {
            let p = to_primitive(vm, a, PreferredType::Default)?;
            return is_loosely_equal(vm, p, b);
        }
        _ => false,
    })
}

/// `IsLessThan` (§7.2.13): `None` stands for *undefined* (a NaN operand).
/// `left_first` says which operand is converted first.
pub fn is_less_than(vm: &mut Vm, x: Value, y: Value, left_first: bool) -> JsResult<Option<bool>> {
    if let (Some(a), Some(b)) = (x.as_number(), y.as_number()) {
        return Ok(if a.is_nan() || b.is_nan() { None } else { Some(a < b) });
    }
    // The first primitive stays rooted while the second conversion runs
    // user code.
    let mark = vm.temp_roots.len();
    let converted = if left_first {
        to_primitive(vm, x, PreferredType::Number).and_then(|px| {
            vm.keep_alive(px);
            Ok((px, to_primitive(vm, y, PreferredType::Number)?))
        })
    } else {
        to_primitive(vm, y, PreferredType::Number).and_then(|py| {
            vm.keep_alive(py);
            Ok((to_primitive(vm, x, PreferredType::Number)?, py))
        })
    };
    vm.temp_roots.truncate(mark);
    let (px, py) = converted?;
    if let (Some(a), Some(b)) = (px.as_string(), py.as_string()) {
        let a = JsString::flatten(&mut vm.heap, a);
        let b = JsString::flatten(&mut vm.heap, b);
        let ord = JsString::cmp_units(a.borrow(&vm.heap).flat(), b.borrow(&vm.heap).flat());
        return Ok(Some(ord == std::cmp::Ordering::Less));
    }
    let a = to_number(vm, px)?;
    let b = to_number(vm, py)?;
    Ok(if a.is_nan() || b.is_nan() { None } else { Some(a < b) })
}
