//! Testing and comparison operations (§7.2) and the relational
//! comparison of §7.2.13.

use std::cmp::Ordering;

use super::type_conversion::{Numeric, PreferredType, to_number, to_numeric, to_primitive};
use crate::bigint::ops;
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

/// `BigInt::equal`: BigInts compare by value, not by cell.
fn bigints_equal(vm: &Vm, a: Value, b: Value) -> bool {
    match (a.as_bigint(), b.as_bigint()) {
        (Some(x), Some(y)) => x.borrow(&vm.heap).value() == y.borrow(&vm.heap).value(),
        _ => false,
    }
}

/// `IsStrictlyEqual` (`===`).
#[inline]
pub fn is_strictly_equal(vm: &mut Vm, a: Value, b: Value) -> bool {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return x == y;
    }
    // Identical bits are the same constant, object, symbol, string cell
    // or BigInt cell; only strings and BigInts can be equal apart.
    a == b || contents_equal(vm, a, b)
}

/// Whether two distinct strings or two distinct BigInt cells hold the same
/// contents.
fn contents_equal(vm: &mut Vm, a: Value, b: Value) -> bool {
    if a.is_string() {
        return b.is_string() && strings_equal(vm, a, b);
    }
    a.is_bigint() && b.is_bigint() && bigints_equal(vm, a, b)
}

/// Whether the string `s` denotes the same integer as the BigInt `b`
/// (`StringToBigInt`, false when it is not an integer literal).
fn string_equals_bigint(vm: &mut Vm, s: Value, b: Value) -> bool {
    let (Some(s), Some(b)) = (s.as_string(), b.as_bigint()) else { return false };
    let s = JsString::flatten(&mut vm.heap, s);
    ops::string_to_big_int(s.borrow(&vm.heap).flat()).is_some_and(|n| &n == b.borrow(&vm.heap).value())
}

/// Whether the Number `n` and the BigInt `b` are the same mathematical
/// value.
fn number_equals_bigint(vm: &Vm, n: Value, b: Value) -> bool {
    match (n.as_number(), b.as_bigint()) {
        (Some(n), Some(b)) => ops::equals_number(b.borrow(&vm.heap).value(), n),
        _ => false,
    }
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
        // Annex B.3.6.2: an [[IsHTMLDDA]] object is loosely equal to both.
        (ValueType::Null | ValueType::Undefined, ValueType::Object) => super::is_html_dda(vm, b),
        (ValueType::Object, ValueType::Null | ValueType::Undefined) => super::is_html_dda(vm, a),
        (ValueType::Number, ValueType::String) | (ValueType::String, ValueType::Number) => {
            to_number(vm, a)? == to_number(vm, b)?
        }
        (ValueType::BigInt, ValueType::String) => string_equals_bigint(vm, b, a),
        (ValueType::String, ValueType::BigInt) => string_equals_bigint(vm, a, b),
        (ValueType::BigInt, ValueType::Number) => number_equals_bigint(vm, b, a),
        (ValueType::Number, ValueType::BigInt) => number_equals_bigint(vm, a, b),
        (ValueType::Boolean, _) => {
            let n = Value::number(to_number(vm, a)?);
            return is_loosely_equal(vm, n, b);
        }
        (_, ValueType::Boolean) => {
            let n = Value::number(to_number(vm, b)?);
            return is_loosely_equal(vm, a, n);
        }
        (ValueType::Number | ValueType::String | ValueType::Symbol | ValueType::BigInt, ValueType::Object) => {
            let p = to_primitive(vm, b, PreferredType::Default)?;
            return is_loosely_equal(vm, a, p);
        }
        (ValueType::Object, ValueType::Number | ValueType::String | ValueType::Symbol | ValueType::BigInt) => {
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
    let mark = vm.stack.temp_roots.len();
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
    vm.stack.temp_roots.truncate(mark);
    let (px, py) = converted?;
    if let (Some(a), Some(b)) = (px.as_string(), py.as_string()) {
        let a = JsString::flatten(&mut vm.heap, a);
        let b = JsString::flatten(&mut vm.heap, b);
        let ord = JsString::cmp_units(a.borrow(&vm.heap).flat(), b.borrow(&vm.heap).flat());
        return Ok(Some(ord == std::cmp::Ordering::Less));
    }
    // A string against a BigInt is read as an integer literal.
    if let (Some(s), Some(b)) = (px.as_string(), py.as_bigint()) {
        let s = JsString::flatten(&mut vm.heap, s);
        let n = ops::string_to_big_int(s.borrow(&vm.heap).flat());
        return Ok(n.map(|n| &n < b.borrow(&vm.heap).value()));
    }
    if let (Some(b), Some(s)) = (px.as_bigint(), py.as_string()) {
        let s = JsString::flatten(&mut vm.heap, s);
        let n = ops::string_to_big_int(s.borrow(&vm.heap).flat());
        return Ok(n.map(|n| b.borrow(&vm.heap).value() < &n));
    }
    // Both primitives now: `ToNumeric` runs no user code, so the first
    // result needs no rooting.
    let a = to_numeric(vm, px)?;
    let b = to_numeric(vm, py)?;
    Ok(match (a, b) {
        (Numeric::Number(a), Numeric::Number(b)) => (!a.is_nan() && !b.is_nan()).then_some(a < b),
        (Numeric::BigInt(a), Numeric::BigInt(b)) => Some(a.borrow(&vm.heap).value() < b.borrow(&vm.heap).value()),
        (Numeric::BigInt(a), Numeric::Number(b)) => {
            ops::compare_with_number(a.borrow(&vm.heap).value(), b).map(|o| o == Ordering::Less)
        }
        (Numeric::Number(a), Numeric::BigInt(b)) => {
            ops::compare_with_number(b.borrow(&vm.heap).value(), a).map(|o| o == Ordering::Greater)
        }
    })
}
