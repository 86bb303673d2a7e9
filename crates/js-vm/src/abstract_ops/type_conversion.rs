//! Type conversion (§7.1).

use js_gc::Gc;

use super::number_conversion::{number_to_string, string_to_number};
use crate::bigint::JsBigInt;
use crate::object::internal_methods::{call, get};
use crate::object::{JsObject, ObjectKind, PropertyKey};
use crate::string::{JsStr, JsString};
use crate::value::{Value, ValueType};
use crate::vm::{JsResult, Vm};

/// The hint of `ToPrimitive`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreferredType {
    /// No hint (`"default"`).
    Default,
    /// `"string"`.
    String,
    /// `"number"`.
    Number,
}

/// `ToBoolean`.
pub fn to_boolean(vm: &Vm, v: Value) -> bool {
    match v.value_type() {
        ValueType::Undefined | ValueType::Null => false,
        ValueType::Boolean => v == Value::TRUE,
        ValueType::Number => v.as_number().is_some_and(|n| n != 0.0 && !n.is_nan()),
        ValueType::String => v.as_string().is_some_and(|s| !s.borrow(&vm.heap).is_empty()),
        ValueType::BigInt => v.as_bigint().is_some_and(|b| !num_traits::Zero::is_zero(b.borrow(&vm.heap).value())),
        ValueType::Symbol => true,
        ValueType::Object => !is_html_dda(vm, v),
    }
}

/// Whether `v` is an object with `[[IsHTMLDDA]]` (Annex B.3.6). The VM
/// flag keeps the object's header out of the common case.
#[inline]
pub fn is_html_dda(vm: &Vm, v: Value) -> bool {
    vm.html_dda_exists && v.as_object().is_some_and(|o| o.borrow(&vm.heap).is_html_dda)
}

/// `typeof v`.
pub fn type_of(vm: &Vm, v: Value) -> &'static str {
    match v.value_type() {
        ValueType::Undefined => "undefined",
        ValueType::Null => "object",
        ValueType::Boolean => "boolean",
        ValueType::Number => "number",
        ValueType::String => "string",
        ValueType::Symbol => "symbol",
        ValueType::BigInt => "bigint",
        ValueType::Object => match v.as_object() {
            _ if is_html_dda(vm, v) => "undefined",
            Some(o) if o.borrow(&vm.heap).is_callable() => "function",
            _ => "object",
        },
    }
}

/// `ToPrimitive` (§7.1.1).
pub fn to_primitive(vm: &mut Vm, v: Value, hint: PreferredType) -> JsResult<Value> {
    let Some(obj) = v.as_object() else { return Ok(v) };
    let key = PropertyKey::Symbol(vm.symbols.to_primitive);
    let exotic = get(vm, obj, key, v)?;
    if !exotic.is_nullish() {
        if !is_callable(vm, exotic) {
            return Err(vm.type_error("Symbol.toPrimitive is not a function"));
        }
        let hint_str = match hint {
            PreferredType::Default => "default",
            PreferredType::String => "string",
            PreferredType::Number => "number",
        };
        let hint_value = vm.string(hint_str);
        let result = call(vm, exotic, v, &[hint_value])?;
        if result.is_object() {
            return Err(vm.type_error("Cannot convert object to primitive value"));
        }
        return Ok(result);
    }
    let order = if hint == PreferredType::String {
        [vm.names.to_string, vm.names.value_of]
    } else {
        [vm.names.value_of, vm.names.to_string]
    };
    for name in order {
        let method = get(vm, obj, PropertyKey::String(name), v)?;
        if is_callable(vm, method) {
            let result = call(vm, method, v, &[])?;
            if !result.is_object() {
                return Ok(result);
            }
        }
    }
    Err(vm.type_error("Cannot convert object to primitive value"))
}

/// `IsCallable`.
pub fn is_callable(vm: &Vm, v: Value) -> bool {
    v.as_object().is_some_and(|o| o.borrow(&vm.heap).is_callable())
}

/// `ToNumber` (§7.1.4).
pub fn to_number(vm: &mut Vm, v: Value) -> JsResult<f64> {
    if let Some(n) = v.as_number() {
        return Ok(n);
    }
    match v.value_type() {
        ValueType::Undefined => Ok(f64::NAN),
        ValueType::Null => Ok(0.0),
        ValueType::Boolean => Ok(if v == Value::TRUE { 1.0 } else { 0.0 }),
        ValueType::String => {
            let s = v.as_string().map(|s| JsString::flatten(&mut vm.heap, s));
            Ok(s.map_or(f64::NAN, |s| string_to_number(s.borrow(&vm.heap).flat())))
        }
        ValueType::Symbol => Err(vm.type_error("Cannot convert a Symbol value to a number")),
        ValueType::BigInt => Err(vm.type_error("Cannot convert a BigInt value to a number")),
        ValueType::Number | ValueType::Object => {
            let prim = to_primitive(vm, v, PreferredType::Number)?;
            to_number(vm, prim)
        }
    }
}

/// A numeric value: what `ToNumeric` returns.
#[derive(Clone, Copy)]
pub enum Numeric {
    /// A Number.
    Number(f64),
    /// A BigInt.
    BigInt(Gc<JsBigInt>),
}

impl Numeric {
    /// The value itself.
    pub fn into_value(self) -> Value {
        match self {
            Numeric::Number(n) => Value::number(n),
            Numeric::BigInt(b) => Value::bigint(b),
        }
    }
}

/// `ToNumeric` (§7.1.3): a Number, or the BigInt a value converts to.
pub fn to_numeric(vm: &mut Vm, v: Value) -> JsResult<Numeric> {
    if let Some(n) = v.as_number() {
        return Ok(Numeric::Number(n));
    }
    let prim = to_primitive(vm, v, PreferredType::Number)?;
    if let Some(b) = prim.as_bigint() {
        return Ok(Numeric::BigInt(b));
    }
    Ok(Numeric::Number(to_number(vm, prim)?))
}

/// `ToString` (§7.1.17). A string, the common argument, is itself without
/// a call; the conversions are out of line.
#[inline]
pub fn to_string(vm: &mut Vm, v: Value) -> JsResult<Gc<JsString>> {
    match v.as_string() {
        Some(s) => Ok(s),
        None => non_string_to_string(vm, v),
    }
}

/// [`to_string`] of a value that is not a string.
fn non_string_to_string(vm: &mut Vm, v: Value) -> JsResult<Gc<JsString>> {
    let text: &str = match v.value_type() {
        ValueType::Undefined => "undefined",
        ValueType::Null => "null",
        ValueType::Boolean => {
            if v == Value::TRUE {
                "true"
            } else {
                "false"
            }
        }
        ValueType::Number => {
            let n = v.as_number().unwrap_or(f64::NAN);
            let s = number_to_string(n);
            return Ok(vm.heap.alloc(JsString::from_rust_str(&s)));
        }
        ValueType::Symbol => return Err(vm.type_error("Cannot convert a Symbol value to a string")),
        ValueType::BigInt => {
            let text = v.as_bigint().map(|b| b.borrow(&vm.heap).value().to_string()).unwrap_or_default();
            return Ok(vm.heap.alloc(JsString::from_rust_str(&text)));
        }
        ValueType::String | ValueType::Object => {
            let prim = to_primitive(vm, v, PreferredType::String)?;
            return to_string(vm, prim);
        }
    };
    Ok(vm.atoms.intern_str(&mut vm.heap, text))
}

/// `ToObject` (§7.1.18).
pub fn to_object(vm: &mut Vm, v: Value) -> JsResult<Gc<JsObject>> {
    if let Some(o) = v.as_object() {
        return Ok(o);
    }
    let intrinsics = &vm.realm.intrinsics;
    let (proto, kind) = match v.value_type() {
        ValueType::Undefined | ValueType::Null => {
            return Err(vm.type_error("Cannot convert undefined or null to object"));
        }
        ValueType::Boolean => (intrinsics.boolean_prototype, ObjectKind::Boolean(v == Value::TRUE)),
        ValueType::Number => (intrinsics.number_prototype, ObjectKind::Number(v.as_number().unwrap_or(0.0))),
        ValueType::String => match v.as_string() {
            Some(s) => (intrinsics.string_prototype, ObjectKind::String(s)),
            None => return Err(vm.type_error("invalid string")),
        },
        ValueType::Symbol => match v.as_symbol() {
            Some(s) => (intrinsics.symbol_prototype, ObjectKind::Symbol(s)),
            None => return Err(vm.type_error("invalid symbol")),
        },
        ValueType::BigInt => match v.as_bigint() {
            Some(b) => (intrinsics.bigint_prototype, ObjectKind::BigInt(b)),
            None => return Err(vm.type_error("invalid bigint")),
        },
        ValueType::Object => return Err(vm.type_error("invalid object value")),
    };
    Ok(vm.new_object_of_kind(Some(proto), kind))
}

/// `ToPropertyKey` (§7.1.19).
pub fn to_property_key(vm: &mut Vm, v: Value) -> JsResult<PropertyKey> {
    if let Some(n) = v.as_number()
        && (0.0..4_294_967_295.0).contains(&n)
        && n.fract() == 0.0
    {
        return Ok(PropertyKey::Index(n as u32));
    }
    let prim = to_primitive(vm, v, PreferredType::String)?;
    if let Some(sym) = prim.as_symbol() {
        return Ok(PropertyKey::Symbol(sym));
    }
    let s = to_string(vm, prim)?;
    Ok(string_key(vm, s))
}

/// The property key for a string: an index key for canonical array
/// indices, the atom otherwise.
pub fn string_key(vm: &mut Vm, s: Gc<JsString>) -> PropertyKey {
    let s = JsString::flatten(&mut vm.heap, s);
    let flat = s.borrow(&vm.heap).flat();
    let index = match flat {
        JsStr::Latin1(b) => super::array_index_of_units(b.iter().map(|&c| u16::from(c))),
        JsStr::Utf16(u) => super::array_index_of_units(u.iter().copied()),
    };
    match index {
        Some(i) => PropertyKey::Index(i),
        None => PropertyKey::String(vm.atoms.intern(&mut vm.heap, s)),
    }
}

/// `ToLength` (§7.1.20).
pub fn to_length(vm: &mut Vm, v: Value) -> JsResult<f64> {
    let n = super::to_integer_or_infinity(to_number(vm, v)?);
    Ok(n.clamp(0.0, 9_007_199_254_740_991.0))
}
