//! BigInt and BigInt.prototype (§21.2).

use js_gc::Gc;

use super::locale::number_format::NumberFormat;
use super::{constructor, method};
use crate::abstract_ops::{
    PreferredType, number_to_big_int, to_big_int, to_integer_or_infinity, to_number, to_primitive,
};
use crate::bigint::JsBigInt;
use crate::bigint::ops::{self, BigIntError};
use crate::interpreter::CallInfo;
use crate::object::{Attributes, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `BigInt(value)` (§21.2.1.1): a conversion function; `new BigInt` is a
/// TypeError.
fn bigint_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if info.new_target.is_some() {
        return Err(vm.type_error("BigInt is not a constructor"));
    }
    let v = info.arg(vm, 0);
    let prim = to_primitive(vm, v, PreferredType::Number)?;
    if let Some(n) = prim.as_number() {
        return Ok(Value::bigint(number_to_big_int(vm, n)?));
    }
    Ok(Value::bigint(to_big_int(vm, prim)?))
}

/// `ToIndex` (§7.1.22): an integer in 0..=2⁵³ − 1, a RangeError otherwise.
fn to_index(vm: &mut Vm, v: Value) -> JsResult<u64> {
    let n = to_integer_or_infinity(to_number(vm, v)?);
    if !(0.0..=9_007_199_254_740_991.0).contains(&n) {
        return Err(vm.range_error("Invalid value: not (convertible to) a safe integer"));
    }
    Ok(n as u64)
}

/// `BigInt.asIntN(bits, bigint)` (§21.2.2.1).
fn as_int_n(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (bits_arg, big_arg) = (info.arg(vm, 0), info.arg(vm, 1));
    let bits = to_index(vm, bits_arg)?;
    let x = to_big_int(vm, big_arg)?;
    let n = ops::as_int_n(bits, x.borrow(&vm.heap).value());
    Ok(vm.bigint(n))
}

/// `BigInt.asUintN(bits, bigint)` (§21.2.2.2).
fn as_uint_n(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (bits_arg, big_arg) = (info.arg(vm, 0), info.arg(vm, 1));
    let bits = to_index(vm, bits_arg)?;
    let x = to_big_int(vm, big_arg)?;
    match ops::as_uint_n(bits, x.borrow(&vm.heap).value()) {
        Ok(n) => Ok(vm.bigint(n)),
        Err(e) => Err(vm.range_error(BigIntError::message(e))),
    }
}

/// `ThisBigIntValue` (§21.2.3.4.1).
fn this_bigint_value(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Gc<JsBigInt>> {
    if let Some(b) = info.this.as_bigint() {
        return Ok(b);
    }
    if let Some(o) = info.this.as_object()
        && let ObjectKind::BigInt(b) = o.borrow(&vm.heap).kind
    {
        return Ok(b);
    }
    Err(vm.type_error(&format!("BigInt.prototype.{name} requires that 'this' be a BigInt")))
}

/// `BigInt.prototype.toString([radix])` (§21.2.3.3).
fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = this_bigint_value(vm, info, "toString")?;
    let radix_arg = info.arg(vm, 0);
    let radix = if radix_arg.is_undefined() { 10.0 } else { to_integer_or_infinity(to_number(vm, radix_arg)?) };
    if !(2.0..=36.0).contains(&radix) {
        return Err(vm.range_error("toString() radix must be between 2 and 36"));
    }
    let text = ops::to_radix_string(x.borrow(&vm.heap).value(), radix as u32);
    Ok(vm.string(&text))
}

/// `BigInt.prototype.toLocaleString([locales [, options]])` (ECMA-402
/// §21.1.1): formatted as `Intl.NumberFormat(locales, options)` would in en.
fn to_locale_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = this_bigint_value(vm, info, "toLocaleString")?;
    // Reading the options may run getters.
    vm.keep_alive(Value::bigint(x));
    let locales = info.arg(vm, 0);
    let options = info.arg(vm, 1);
    let format = NumberFormat::new(vm, locales, options, "BigInt.prototype.toLocaleString")?;
    let Some(text) = format.format_bigint(x.borrow(&vm.heap).value()) else {
        return Err(vm.range_error("BigInt has too many digits to format"));
    };
    Ok(vm.string(&text))
}

/// `BigInt.prototype.valueOf()` (§21.2.3.4).
fn value_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::bigint(this_bigint_value(vm, info, "valueOf")?))
}

/// Installs BigInt and BigInt.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.bigint_prototype;
    let ctor = constructor(vm, "BigInt", 1, bigint_ctor, proto);
    method(vm, ctor, "asIntN", 2, as_int_n);
    method(vm, ctor, "asUintN", 2, as_uint_n);
    method(vm, proto, "toString", 0, to_string_method);
    method(vm, proto, "toLocaleString", 0, to_locale_string);
    method(vm, proto, "valueOf", 0, value_of);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("BigInt");
    crate::object::internal_methods::define_builtin(vm, proto, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}

#[cfg(test)]
mod tests {
    use crate::vm::{Vm, VmOptions};

    /// Evaluates `source` and returns the completion value as `console.log`
    /// prints it (strings bare) (or the thrown value's description).
    fn eval_with(options: VmOptions, source: &str) -> String {
        let mut vm = Vm::with_options(options);
        match vm.eval_script("test.js", source) {
            Ok(v) => v.display(&mut vm),
            Err(crate::JsError::Throw(v)) => format!("threw {}", v.describe_uncaught(&mut vm)),
            Err(_) => "abrupt".to_owned(),
        }
    }

    fn eval(source: &str) -> String {
        eval_with(VmOptions::default(), source)
    }

    #[test]
    fn raw_json_from_to_json_prints_digits_exactly() {
        // Node 20 has no JSON.rawJSON, so this case lives here rather than
        // in the differential tests.
        let out = eval(
            "BigInt.prototype.toJSON = function () { return JSON.rawJSON(this.toString()); };
             JSON.stringify({ a: 12345678901234567890123n, b: [-1n] })",
        );
        assert_eq!(out, "{\"a\":12345678901234567890123,\"b\":[-1]}");
    }

    #[test]
    fn raw_json_does_not_accept_a_bigint_without_to_json() {
        let out = eval("try { JSON.stringify([JSON.rawJSON('1'), 2n]) } catch (e) { e.name }");
        assert_eq!(out, "TypeError");
    }

    #[test]
    fn values_made_by_value_of_survive_collections_at_every_safepoint() {
        let mut options = VmOptions::default();
        options.heap.stress = true;
        let out = eval_with(
            options,
            "let total = 0n;
             const big = { valueOf() { return 10n ** 30n; } };
             const other = { valueOf() { const junk = []; for (let i = 0; i < 50; i++) junk.push({ i }); return 3n; } };
             for (let i = 0; i < 20; i++) total += big * other - big / other;
             const m = new Map([[2n ** 80n, 'x']]);
             [total, m.get(2n ** 80n), big < other, `${big % other}`]",
        );
        assert_eq!(out, "[ 53333333333333333333333333333340n, 'x', false, '1' ]");
    }

    #[test]
    fn bigint_is_not_a_constructor_but_has_a_prototype() {
        assert_eq!(eval("try { new BigInt(1) } catch (e) { e.constructor === TypeError }"), "true");
        assert_eq!(eval("Object.getPrototypeOf(Object(1n)) === BigInt.prototype"), "true");
        assert_eq!(eval("class B extends BigInt {}; try { new B() } catch (e) { e.name }"), "TypeError");
    }
}
