//! Date and Date.prototype (§21.4).
//!
//! A Date object holds one time value (`[[DateValue]]`): milliseconds since
//! the epoch in UTC, or NaN for an invalid date. The submodules are pure
//! Rust and unit-tested on their own: [`time_math`] (the spec's day and
//! year arithmetic), [`parse`] (`Date.parse`), [`format`] (the string
//! forms) and [`local_time`] (the `TZ` zone, read from the system tzdata).

pub mod format;
pub mod local_time;
pub mod parse;
pub mod time_math;

use self::local_time::local_zone;
use self::time_math::{Fields, MS_PER_MINUTE, fields, make_date, make_day, make_full_year, make_time, time_clip};
use super::{constructor, method, symbol_method};
use crate::abstract_ops::{PreferredType, is_callable, to_number, to_object, to_primitive};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{call, define_builtin, get};
use crate::object::{Attributes, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The current time value, in whole milliseconds.
fn now() -> f64 {
    let elapsed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    // A clock set before 1970 yields an error holding the distance back.
    let ms = match elapsed {
        Ok(d) => d.as_millis() as f64,
        Err(e) => -(e.duration().as_millis() as f64),
    };
    time_clip(ms)
}

/// [`LocalTime(t)`](https://tc39.es/ecma262/#sec-localtime).
pub fn local_time(t: f64) -> f64 {
    t + local_zone().offset_ms_at_utc(t)
}

/// [`UTC(t)`](https://tc39.es/ecma262/#sec-utc-t): a local time value to
/// UTC.
pub fn utc(t: f64) -> f64 {
    if !t.is_finite() {
        return f64::NAN;
    }
    t - local_zone().offset_ms_for_local(t)
}

/// How `console.log` shows a Date: its ISO string, as Node does.
pub fn console_text(t: f64) -> String {
    if t.is_nan() { "Invalid Date".to_owned() } else { format::iso_string(t) }
}

/// [`ToDateString(tv)`](https://tc39.es/ecma262/#sec-todatestring).
fn to_date_string(t: f64) -> String {
    if t.is_nan() { "Invalid Date".to_owned() } else { format::to_string(t, local_zone()) }
}

/// `thisTimeValue(value)`: the `[[DateValue]]` of a Date, else a TypeError.
fn this_time_value(vm: &mut Vm, this: Value) -> JsResult<f64> {
    if let Some(o) = this.as_object()
        && let ObjectKind::Date(t) = o.borrow(&vm.heap).kind
    {
        return Ok(t);
    }
    Err(vm.type_error("this is not a Date object."))
}

fn set_time_value(vm: &mut Vm, this: Value, t: f64) -> Value {
    if let Some(o) = this.as_object()
        && let ObjectKind::Date(slot) = &mut o.borrow_mut(&mut vm.heap).kind
    {
        *slot = t;
    }
    Value::number(t)
}

/// The Date constructor (§21.4.2.1).
fn date_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        let text = to_date_string(now());
        return Ok(vm.string(&text));
    };
    let tv = match info.argc {
        0 => now(),
        1 => {
            let value = info.arg(vm, 0);
            let existing = value.as_object().and_then(|o| match o.borrow(&vm.heap).kind {
                ObjectKind::Date(t) => Some(t),
                _ => None,
            });
            if let Some(t) = existing {
                t
            } else {
                let prim = to_primitive(vm, value, PreferredType::Default)?;
                if prim.is_string() { parse_value(vm, prim)? } else { time_clip(to_number(vm, prim)?) }
            }
        }
        _ => {
            let fields = number_args(vm, info, 7)?;
            let date = date_from_components(&fields);
            time_clip(utc(date))
        }
    };
    let proto = prototype_from_constructor(vm, nt, |i| i.date_prototype)?;
    Ok(Value::object(vm.new_object_of_kind(Some(proto), ObjectKind::Date(tv))))
}

/// `ToNumber` of the first `max` arguments that are present.
fn number_args(vm: &mut Vm, info: &CallInfo, max: usize) -> JsResult<Vec<f64>> {
    let mut out = Vec::with_capacity(max);
    for i in 0..info.argc.min(max) {
        let v = info.arg(vm, i);
        out.push(to_number(vm, v)?);
    }
    Ok(out)
}

/// `MakeDate(MakeDay(yr, m, dt), MakeTime(h, min, s, milli))` from
/// `Date`/`Date.UTC` arguments, with the spec's defaults for absent ones.
fn date_from_components(args: &[f64]) -> f64 {
    let at = |i: usize, default: f64| args.get(i).copied().unwrap_or(default);
    let year = make_full_year(at(0, f64::NAN));
    make_date(make_day(year, at(1, 0.0), at(2, 1.0)), make_time(at(3, 0.0), at(4, 0.0), at(5, 0.0), at(6, 0.0)))
}

fn parse_value(vm: &mut Vm, v: Value) -> JsResult<f64> {
    let s = crate::abstract_ops::to_string(vm, v)?;
    let s = crate::string::JsString::flatten(&mut vm.heap, s);
    let units: Vec<u16> = s.borrow(&vm.heap).flat().units().collect();
    Ok(parse::parse(&units, local_zone()))
}

fn date_now(_vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Ok(Value::number(now()))
}

fn date_parse(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    Ok(Value::number(parse_value(vm, v)?))
}

fn date_utc(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let mut args = number_args(vm, info, 7)?;
    if args.is_empty() {
        args.push(f64::NAN);
    }
    Ok(Value::number(time_clip(date_from_components(&args))))
}

/// The fields of `t` in local time or UTC; `None` for an invalid date.
fn fields_of(t: f64, local: bool) -> Option<Fields> {
    if t.is_nan() {
        return None;
    }
    Some(fields(if local { local_time(t) } else { t }))
}

macro_rules! getters {
    ($($name:ident, $local:expr, |$f:ident| $body:expr;)*) => {
        $(
            fn $name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
                let t = this_time_value(vm, info.this)?;
                Ok(Value::number(fields_of(t, $local).map_or(f64::NAN, |$f| ($body) as f64)))
            }
        )*
    };
}

getters! {
    get_date, true, |f| f.date;
    get_day, true, |f| f.week_day;
    get_full_year, true, |f| f.year;
    get_hours, true, |f| f.hour;
    get_milliseconds, true, |f| f.ms;
    get_minutes, true, |f| f.minute;
    get_month, true, |f| f.month;
    get_seconds, true, |f| f.second;
    get_year, true, |f| f.year - 1900;
    get_utc_date, false, |f| f.date;
    get_utc_day, false, |f| f.week_day;
    get_utc_full_year, false, |f| f.year;
    get_utc_hours, false, |f| f.hour;
    get_utc_milliseconds, false, |f| f.ms;
    get_utc_minutes, false, |f| f.minute;
    get_utc_month, false, |f| f.month;
    get_utc_seconds, false, |f| f.second;
}

fn get_time(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::number(this_time_value(vm, info.this)?))
}

fn get_timezone_offset(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let t = this_time_value(vm, info.this)?;
    if t.is_nan() {
        return Ok(Value::number(f64::NAN));
    }
    Ok(Value::number((t - local_time(t)) / MS_PER_MINUTE))
}

/// Field positions a setter can write, in `MakeDay`/`MakeTime` order.
const YEAR: usize = 0;
const MONTH: usize = 1;
const DATE: usize = 2;
const HOUR: usize = 3;
const MINUTE: usize = 4;
const SECOND: usize = 5;
const MS: usize = 6;

/// The shared body of the `set*` methods (§21.4.4.20–28 and the UTC
/// forms): converts up to `count` arguments (the first always, even when
/// absent, as the spec does), then replaces fields `first..` of the local
/// or UTC time. `setFullYear` starts from +0 when the date is invalid;
/// every other setter leaves an invalid date invalid.
fn set_fields(vm: &mut Vm, info: &CallInfo, first: usize, count: usize, local: bool) -> JsResult<Value> {
    let t = this_time_value(vm, info.this)?;
    let mut args = Vec::with_capacity(count);
    let first_arg = info.arg(vm, 0);
    args.push(to_number(vm, first_arg)?);
    for i in 1..info.argc.min(count) {
        let v = info.arg(vm, i);
        args.push(to_number(vm, v)?);
    }
    let base = if t.is_nan() {
        if first != YEAR {
            return Ok(Value::number(f64::NAN));
        }
        0.0
    } else if local {
        local_time(t)
    } else {
        t
    };
    let f = fields(base);
    let mut values = [f.year, f.month, f.date, f.hour, f.minute, f.second, f.ms].map(|n| n as f64);
    for (slot, value) in values[first..].iter_mut().zip(args) {
        *slot = value;
    }
    let date = make_date(
        make_day(values[YEAR], values[MONTH], values[DATE]),
        make_time(values[HOUR], values[MINUTE], values[SECOND], values[MS]),
    );
    let u = time_clip(if local { utc(date) } else { date });
    Ok(set_time_value(vm, info.this, u))
}

macro_rules! setters {
    ($($name:ident, $first:expr, $count:expr, $local:expr;)*) => {
        $(
            fn $name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
                set_fields(vm, info, $first, $count, $local)
            }
        )*
    };
}

setters! {
    set_date, DATE, 1, true;
    set_full_year, YEAR, 3, true;
    set_hours, HOUR, 4, true;
    set_milliseconds, MS, 1, true;
    set_minutes, MINUTE, 3, true;
    set_month, MONTH, 2, true;
    set_seconds, SECOND, 2, true;
    set_utc_date, DATE, 1, false;
    set_utc_full_year, YEAR, 3, false;
    set_utc_hours, HOUR, 4, false;
    set_utc_milliseconds, MS, 1, false;
    set_utc_minutes, MINUTE, 3, false;
    set_utc_month, MONTH, 2, false;
    set_utc_seconds, SECOND, 2, false;
}

fn set_time(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_time_value(vm, info.this)?;
    let v = info.arg(vm, 0);
    let t = time_clip(to_number(vm, v)?);
    Ok(set_time_value(vm, info.this, t))
}

/// `Date.prototype.setYear` (Annex B.2.3.2): two-digit years mean 19xx.
fn set_year(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let t = this_time_value(vm, info.this)?;
    let v = info.arg(vm, 0);
    let y = to_number(vm, v)?;
    let base = if t.is_nan() { 0.0 } else { local_time(t) };
    let f = fields(base);
    let year = make_full_year(y);
    let day = make_day(year, f.month as f64, f.date as f64);
    let date = make_date(day, time_math::time_within_day(base));
    let u = time_clip(utc(date));
    Ok(set_time_value(vm, info.this, u))
}

macro_rules! string_methods {
    ($($name:ident, |$t:ident| $body:expr;)*) => {
        $(
            fn $name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
                let $t = this_time_value(vm, info.this)?;
                let text = if $t.is_nan() { "Invalid Date".to_owned() } else { $body };
                Ok(vm.string(&text))
            }
        )*
    };
}

string_methods! {
    to_string_method, |t| format::to_string(t, local_zone());
    to_date_string_method, |t| format::date_string(t, local_zone());
    to_time_string_method, |t| format::time_string(t, local_zone());
    to_utc_string, |t| format::utc_string(t);
}

/// `toLocaleString`, `toLocaleDateString`, `toLocaleTimeString([locales [,
/// options]])` (ECMA-402 §21.3): "Invalid Date" for NaN, else the locales
/// are checked as CanonicalizeLocaleList does and the en-US form written
/// (every locale formats as en here; the options are not read).
fn locale_text(vm: &mut Vm, info: &CallInfo, form: fn(f64, &local_time::TimeZone) -> String) -> JsResult<Value> {
    let t = this_time_value(vm, info.this)?;
    if t.is_nan() {
        return Ok(vm.string("Invalid Date"));
    }
    let locales = info.arg(vm, 0);
    super::locale::canonicalize_locale_list(vm, locales)?;
    Ok(vm.string(&form(t, local_zone())))
}

fn to_locale_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    locale_text(vm, info, format::locale_string)
}

fn to_locale_date_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    locale_text(vm, info, format::locale_date_string)
}

fn to_locale_time_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    locale_text(vm, info, format::locale_time_string)
}

fn to_iso_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let t = this_time_value(vm, info.this)?;
    if !t.is_finite() {
        return Err(vm.range_error("Invalid time value"));
    }
    let text = format::iso_string(t);
    Ok(vm.string(&text))
}

/// `Date.prototype.toJSON` (§21.4.4.37): generic, through `toISOString`.
fn to_json(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    let tv = to_primitive(vm, Value::object(o), PreferredType::Number)?;
    if let Some(n) = tv.as_number()
        && !n.is_finite()
    {
        return Ok(Value::NULL);
    }
    let key = vm.key("toISOString");
    let f = get(vm, o, key, Value::object(o))?;
    if !is_callable(vm, f) {
        return Err(vm.type_error("toISOString is not a function"));
    }
    call(vm, f, Value::object(o), &[])
}

/// `Date.prototype[@@toPrimitive](hint)` (§21.4.4.45).
fn to_primitive_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(o) = info.this.as_object() else {
        return Err(vm.type_error("Date.prototype[Symbol.toPrimitive] called on non-object"));
    };
    let hint = info.arg(vm, 0);
    let hint_text = if hint.is_string() { Some(vm.rust_string(hint)?) } else { None };
    let string_first = match hint_text.as_deref() {
        Some("string" | "default") => true,
        Some("number") => false,
        _ => return Err(vm.type_error("Invalid hint")),
    };
    // OrdinaryToPrimitive (§7.1.1.1).
    let order =
        if string_first { [vm.names.to_string, vm.names.value_of] } else { [vm.names.value_of, vm.names.to_string] };
    for name in order {
        let f = get(vm, o, PropertyKey::String(name), info.this)?;
        if is_callable(vm, f) {
            let result = call(vm, f, info.this, &[])?;
            if !result.is_object() {
                return Ok(result);
            }
        }
    }
    Err(vm.type_error("Cannot convert object to primitive value"))
}

/// Installs Date and Date.prototype.
pub(crate) fn install(vm: &mut Vm) {
    // Date.prototype is an ordinary object, not a Date (§21.4.4).
    let proto = vm.realm.intrinsics.date_prototype;
    let ctor = constructor(vm, "Date", 7, date_ctor, proto);
    method(vm, ctor, "now", 0, date_now);
    method(vm, ctor, "parse", 1, date_parse);
    method(vm, ctor, "UTC", 7, date_utc);
    let methods: [(&str, u32, crate::function::NativeFn); 45] = [
        ("toString", 0, to_string_method),
        ("toDateString", 0, to_date_string_method),
        ("toTimeString", 0, to_time_string_method),
        ("toISOString", 0, to_iso_string),
        ("toUTCString", 0, to_utc_string),
        ("getDate", 0, get_date),
        ("setDate", 1, set_date),
        ("getDay", 0, get_day),
        ("getFullYear", 0, get_full_year),
        ("setFullYear", 3, set_full_year),
        ("getHours", 0, get_hours),
        ("setHours", 4, set_hours),
        ("getMilliseconds", 0, get_milliseconds),
        ("setMilliseconds", 1, set_milliseconds),
        ("getMinutes", 0, get_minutes),
        ("setMinutes", 3, set_minutes),
        ("getMonth", 0, get_month),
        ("setMonth", 2, set_month),
        ("getSeconds", 0, get_seconds),
        ("setSeconds", 2, set_seconds),
        ("getTime", 0, get_time),
        ("setTime", 1, set_time),
        ("getTimezoneOffset", 0, get_timezone_offset),
        ("getUTCDate", 0, get_utc_date),
        ("setUTCDate", 1, set_utc_date),
        ("getUTCDay", 0, get_utc_day),
        ("getUTCFullYear", 0, get_utc_full_year),
        ("setUTCFullYear", 3, set_utc_full_year),
        ("getUTCHours", 0, get_utc_hours),
        ("setUTCHours", 4, set_utc_hours),
        ("getUTCMilliseconds", 0, get_utc_milliseconds),
        ("setUTCMilliseconds", 1, set_utc_milliseconds),
        ("getUTCMinutes", 0, get_utc_minutes),
        ("setUTCMinutes", 3, set_utc_minutes),
        ("getUTCMonth", 0, get_utc_month),
        ("setUTCMonth", 2, set_utc_month),
        ("getUTCSeconds", 0, get_utc_seconds),
        ("setUTCSeconds", 2, set_utc_seconds),
        ("valueOf", 0, get_time),
        ("getYear", 0, get_year),
        ("setYear", 1, set_year),
        ("toJSON", 1, to_json),
        ("toLocaleString", 0, to_locale_string),
        ("toLocaleDateString", 0, to_locale_date_string),
        ("toLocaleTimeString", 0, to_locale_time_string),
    ];
    for (name, length, f) in methods {
        method(vm, proto, name, length, f);
    }
    // Annex B.2.3.3: toGMTString is the same function object as toUTCString.
    let utc_key = vm.key("toUTCString");
    let to_utc = get(vm, proto, utc_key, Value::object(proto)).unwrap_or_default();
    let gmt_key = vm.key("toGMTString");
    define_builtin(vm, proto, gmt_key, to_utc, Attributes::METHOD);
    let to_prim = vm.symbols.to_primitive;
    symbol_method(vm, proto, to_prim, "[Symbol.toPrimitive]", 1, to_primitive_method, Attributes::CONFIGURABLE_ONLY);
}
