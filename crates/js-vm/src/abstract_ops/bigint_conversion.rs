//! Conversions to BigInt: `ToBigInt` (§7.1.13), `NumberToBigInt`
//! (§21.2.1.1.1), `ToBigInt64` / `ToBigUint64` (§7.1.15, §7.1.16) and
//! their inverses for 64-bit integers (what BigInt64Array elements need).

use js_gc::Gc;
use num_bigint::{BigInt, Sign};

use super::type_conversion::{PreferredType, to_primitive};
use crate::bigint::{JsBigInt, ops};
use crate::value::{Value, ValueType};
use crate::vm::{JsResult, Vm};

/// `ToBigInt` (§7.1.13): booleans, BigInts and integer strings convert;
/// Numbers, `undefined`, `null` and symbols throw a TypeError, malformed
/// strings a SyntaxError.
pub fn to_big_int(vm: &mut Vm, v: Value) -> JsResult<Gc<JsBigInt>> {
    let prim = to_primitive(vm, v, PreferredType::Number)?;
    if let Some(b) = prim.as_bigint() {
        return Ok(b);
    }
    match prim.value_type() {
        ValueType::Boolean => {
            let n = BigInt::from(u8::from(prim == Value::TRUE));
            Ok(vm.heap.alloc(JsBigInt::new(n)))
        }
        ValueType::String => {
            let s = prim.as_string().map(|s| crate::string::JsString::flatten(&mut vm.heap, s));
            let parsed = s.and_then(|s| ops::string_to_big_int(s.borrow(&vm.heap).flat()));
            if let Some(n) = parsed {
                let n = ops::within_bounds(n).map_err(|e| vm.range_error(e.message()))?;
                return Ok(vm.heap.alloc(JsBigInt::new(n)));
            }
            let text = s.map(|s| s.borrow(&vm.heap).flat().to_rust_string()).unwrap_or_default();
            Err(vm.syntax_error(&format!("Cannot convert {text} to a BigInt")))
        }
        ValueType::Number => {
            let text = super::number_to_string(prim.as_number().unwrap_or(f64::NAN));
            Err(vm.type_error(&format!("Cannot convert {text} to a BigInt")))
        }
        ValueType::Undefined => Err(vm.type_error("Cannot convert undefined to a BigInt")),
        ValueType::Null => Err(vm.type_error("Cannot convert null to a BigInt")),
        ValueType::Symbol | ValueType::BigInt | ValueType::Object => {
            Err(vm.type_error("Cannot convert a Symbol value to a BigInt"))
        }
    }
}

/// `NumberToBigInt` (§21.2.1.1.1): a RangeError unless n is an integer.
pub fn number_to_big_int(vm: &mut Vm, n: f64) -> JsResult<Gc<JsBigInt>> {
    if let Some(b) = ops::from_number(n) {
        return Ok(vm.heap.alloc(JsBigInt::new(b)));
    }
    let text = super::number_to_string(n);
    Err(vm.range_error(&format!("The number {text} cannot be converted to a BigInt because it is not an integer")))
}

/// The low 64 bits of x in two's complement.
fn low_u64(x: &BigInt) -> u64 {
    let low = x.magnitude().iter_u64_digits().next().unwrap_or(0);
    if x.sign() == Sign::Minus { low.wrapping_neg() } else { low }
}

/// `ToBigInt64` (§7.1.15): `ToBigInt`, then modulo 2⁶⁴ as a signed integer.
pub fn to_big_int64(vm: &mut Vm, v: Value) -> JsResult<i64> {
    let b = to_big_int(vm, v)?;
    Ok(low_u64(b.borrow(&vm.heap).value()) as i64)
}

/// `ToBigUint64` (§7.1.16): `ToBigInt`, then modulo 2⁶⁴.
pub fn to_big_uint64(vm: &mut Vm, v: Value) -> JsResult<u64> {
    let b = to_big_int(vm, v)?;
    Ok(low_u64(b.borrow(&vm.heap).value()))
}

/// The BigInt value of a signed 64-bit integer (a BigInt64Array element).
pub fn big_int_from_i64(vm: &mut Vm, n: i64) -> Value {
    vm.bigint(BigInt::from(n))
}

/// The BigInt value of an unsigned 64-bit integer (a BigUint64Array
/// element).
pub fn big_int_from_u64(vm: &mut Vm, n: u64) -> Value {
    vm.bigint(BigInt::from(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_64_bits_wrap_in_twos_complement() {
        assert_eq!(low_u64(&BigInt::from(-1)), u64::MAX);
        assert_eq!(low_u64(&(BigInt::from(1) << 64u32)), 0);
        assert_eq!(low_u64(&((BigInt::from(1) << 64u32) + 5)), 5);
        assert_eq!(low_u64(&-(BigInt::from(1) << 63u32)) as i64, i64::MIN);
        assert_eq!(low_u64(&BigInt::from(0)), 0);
    }
}
