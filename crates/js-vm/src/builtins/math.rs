//! The Math object (§21.3).

use super::{method, value_property};
use crate::abstract_ops::{to_number, to_uint32};
use crate::interpreter::CallInfo;
use crate::object::{Attributes, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn number_arg(vm: &mut Vm, info: &CallInfo, i: usize) -> JsResult<f64> {
    let v = info.arg(vm, i);
    to_number(vm, v)
}

macro_rules! unary_math {
    ($($name:ident => $f:expr,)*) => {
        $(
            fn $name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
                let x = number_arg(vm, info, 0)?;
                let f: fn(f64) -> f64 = $f;
                Ok(Value::number(f(x)))
            }
        )*
    };
}

unary_math! {
    abs => f64::abs,
    acos => f64::acos,
    acosh => f64::acosh,
    asin => f64::asin,
    asinh => |x| if x == 0.0 { x } else { x.asinh() },
    atan => f64::atan,
    atanh => f64::atanh,
    cbrt => f64::cbrt,
    ceil => f64::ceil,
    cos => f64::cos,
    cosh => f64::cosh,
    exp => f64::exp,
    expm1 => f64::exp_m1,
    floor => f64::floor,
    fround => |x| f64::from(x as f32),
    f16round => crate::abstract_ops::f16_round,
    log => f64::ln,
    log1p => f64::ln_1p,
    log10 => f64::log10,
    log2 => f64::log2,
    sign => |x| if x.is_nan() || x == 0.0 { x } else { x.signum() },
    sin => f64::sin,
    sinh => f64::sinh,
    sqrt => f64::sqrt,
    tan => f64::tan,
    tanh => f64::tanh,
    trunc => f64::trunc,
    round => |x| {
        if !x.is_finite() || x == 0.0 {
            return x;
        }
        if x > 0.0 && x < 0.5 {
            return 0.0;
        }
        if (-0.5..0.0).contains(&x) {
            return -0.0;
        }
        // Not `(x + 0.5).floor()`: that addition rounds for |x| near 2^53.
        let floor = x.floor();
        if x - floor >= 0.5 { floor + 1.0 } else { floor }
    },
}

fn clz32(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = number_arg(vm, info, 0)?;
    Ok(Value::number(f64::from(to_uint32(x).leading_zeros())))
}

fn imul(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let a = to_uint32(number_arg(vm, info, 0)?);
    let b = to_uint32(number_arg(vm, info, 1)?);
    Ok(Value::number(f64::from(a.wrapping_mul(b) as i32)))
}

fn atan2(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let y = number_arg(vm, info, 0)?;
    let x = number_arg(vm, info, 1)?;
    Ok(Value::number(y.atan2(x)))
}

fn pow(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let x = number_arg(vm, info, 0)?;
    let y = number_arg(vm, info, 1)?;
    Ok(Value::number(crate::interpreter::js_pow(x, y)))
}

/// `Math.max` (`larger` = true) and `Math.min`: ToNumber on every argument
/// in order (the spec's first loop, whose conversions may be observable),
/// then the extreme, with NaN winning and -0 below +0. When every argument
/// is already a Number nothing observable can happen, so they are read
/// straight from the caller's argument registers without a copy.
#[inline]
fn extreme(vm: &mut Vm, info: &CallInfo, larger: bool) -> JsResult<Value> {
    if let Some(best) = number_extreme(info.arg_values(vm), larger) {
        return Ok(Value::number(best));
    }
    let mut best = if larger { f64::NEG_INFINITY } else { f64::INFINITY };
    for i in 0..info.argc {
        // Every argument is converted, even after a NaN has decided the
        // result: the conversions are observable.
        best = pick_extreme(best, number_arg(vm, info, i)?, larger);
    }
    Ok(Value::number(best))
}

/// The extreme of `args` when every one is already a Number (so nothing
/// observable happens), in one pass; `None` at the first that is not.
#[inline]
fn number_extreme(args: &[Value], larger: bool) -> Option<f64> {
    let mut best = if larger { f64::NEG_INFINITY } else { f64::INFINITY };
    for v in args {
        best = pick_extreme(best, v.as_number()?, larger);
    }
    Some(best)
}

/// One step of Math.max / Math.min: NaN sticks, and -0 counts as below +0.
#[inline]
fn pick_extreme(best: f64, x: f64, larger: bool) -> f64 {
    if best.is_nan() || x.is_nan() {
        return f64::NAN;
    }
    let replaces = if larger {
        x > best || (x == 0.0 && best == 0.0 && best.is_sign_negative())
    } else {
        x < best || (x == 0.0 && best == 0.0 && x.is_sign_negative())
    };
    if replaces { x } else { best }
}

fn max(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    extreme(vm, info, true)
}

fn min(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    extreme(vm, info, false)
}

fn hypot(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let mut values = Vec::with_capacity(info.argc);
    for i in 0..info.argc {
        values.push(number_arg(vm, info, i)?);
    }
    if values.iter().any(|x| x.is_infinite()) {
        return Ok(Value::number(f64::INFINITY));
    }
    if values.iter().any(|x| x.is_nan()) {
        return Ok(Value::number(f64::NAN));
    }
    let largest = values.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if largest == 0.0 {
        return Ok(Value::number(0.0));
    }
    let sum: f64 = values.iter().map(|x| (x / largest) * (x / largest)).sum();
    Ok(Value::number(sum.sqrt() * largest))
}

/// `Math.random`: xorshift128+ seeded per VM.
fn random(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    let [mut s1, s0] = vm.random_state;
    vm.random_state[0] = s0;
    s1 ^= s1 << 23;
    s1 ^= s1 >> 17;
    s1 ^= s0;
    s1 ^= s0 >> 26;
    vm.random_state[1] = s1;
    let bits = (s0.wrapping_add(s1) >> 12) | 0x3FF0_0000_0000_0000;
    Ok(Value::number(f64::from_bits(bits) - 1.0))
}

/// Installs Math.
pub(crate) fn install(vm: &mut Vm) {
    let math = vm.new_plain_object();
    let global = vm.realm.global;
    value_property(vm, global, "Math", Value::object(math), Attributes::METHOD);
    let constants = [
        ("E", std::f64::consts::E),
        ("LN10", std::f64::consts::LN_10),
        ("LN2", std::f64::consts::LN_2),
        ("LOG10E", std::f64::consts::LOG10_E),
        ("LOG2E", std::f64::consts::LOG2_E),
        ("PI", std::f64::consts::PI),
        ("SQRT1_2", std::f64::consts::FRAC_1_SQRT_2),
        ("SQRT2", std::f64::consts::SQRT_2),
    ];
    for (name, value) in constants {
        value_property(vm, math, name, Value::number(value), Attributes::NONE);
    }
    let functions: [(&str, u32, crate::function::NativeFn); 36] = [
        ("abs", 1, abs),
        ("acos", 1, acos),
        ("acosh", 1, acosh),
        ("asin", 1, asin),
        ("asinh", 1, asinh),
        ("atan", 1, atan),
        ("atanh", 1, atanh),
        ("atan2", 2, atan2),
        ("cbrt", 1, cbrt),
        ("ceil", 1, ceil),
        ("clz32", 1, clz32),
        ("cos", 1, cos),
        ("cosh", 1, cosh),
        ("exp", 1, exp),
        ("expm1", 1, expm1),
        ("floor", 1, floor),
        ("fround", 1, fround),
        ("f16round", 1, f16round),
        ("hypot", 2, hypot),
        ("imul", 2, imul),
        ("log", 1, log),
        ("log1p", 1, log1p),
        ("log10", 1, log10),
        ("log2", 1, log2),
        ("max", 2, max),
        ("min", 2, min),
        ("pow", 2, pow),
        ("random", 0, random),
        ("round", 1, round),
        ("sign", 1, sign),
        ("sin", 1, sin),
        ("sinh", 1, sinh),
        ("sqrt", 1, sqrt),
        ("tan", 1, tan),
        ("tanh", 1, tanh),
        ("trunc", 1, trunc),
    ];
    for (name, length, f) in functions {
        method(vm, math, name, length, f);
    }
    super::math_sum_precise::install(vm, math);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("Math");
    crate::object::internal_methods::define_builtin(vm, math, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}
