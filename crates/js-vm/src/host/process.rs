//! `process` (argv, env, exit, exitCode, nextTick, hrtime, hrtime.bigint,
//! platform, pid)
//! and `performance.now()`, in Node's shapes.

use crate::abstract_ops::{is_callable, to_number};
use crate::builtins::{method, value_property};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{create_data_property_or_throw, get};
use crate::object::{Attributes, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn next_tick(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let callback = info.arg(vm, 0);
    if !is_callable(vm, callback) {
        let shown = vm.display(callback);
        return Err(vm.type_error(&format!("The \"callback\" argument must be of type function. Received {shown}")));
    }
    let args: Vec<Value> = info.args(vm).iter().skip(1).copied().collect();
    vm.queue_next_tick(callback, &args);
    Ok(Value::UNDEFINED)
}

/// `process.exit([code])`: the code, else `process.exitCode`, else 0.
fn exit(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let code = info.arg(vm, 0);
    let code = if code.is_undefined() { exit_code_property(vm)? } else { to_number(vm, code)? as i32 };
    Err(vm.request_exit(code))
}

/// `process.exitCode` as an integer (0 when unset).
fn exit_code_property(vm: &mut Vm) -> JsResult<i32> {
    let Some(process) = vm.runtime.host_objects.process else { return Ok(0) };
    let key = vm.key("exitCode");
    let v = get(vm, process, key, Value::object(process))?;
    if v.is_undefined() { Ok(0) } else { Ok(to_number(vm, v)? as i32) }
}

/// `process.hrtime([previous])`: `[seconds, nanoseconds]`.
fn hrtime(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let elapsed = vm.runtime.event_loop.elapsed_ms() * 1e6;
    let mut nanos = elapsed.trunc();
    let previous = info.arg(vm, 0);
    if let Some(p) = previous.as_object() {
        // Each is held while the other's getter or `valueOf` runs.
        let s = get(vm, p, PropertyKey::Index(0), previous)?;
        vm.keep_alive(s);
        let ns = get(vm, p, PropertyKey::Index(1), previous)?;
        vm.keep_alive(ns);
        nanos -= to_number(vm, s)? * 1e9 + to_number(vm, ns)?;
    }
    let seconds = (nanos / 1e9).trunc();
    let rest = nanos - seconds * 1e9;
    let array = crate::builtins::array::array_create(vm, &[Value::number(seconds), Value::number(rest)]);
    Ok(Value::object(array))
}

/// `process.hrtime.bigint()`: nanoseconds from an arbitrary origin (the
/// event loop's start), as a BigInt.
fn hrtime_bigint(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    let nanos = vm.runtime.event_loop.elapsed_ns();
    Ok(vm.bigint(num_bigint::BigInt::from(nanos)))
}

fn performance_now(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Ok(Value::number(vm.runtime.event_loop.elapsed_ms()))
}

impl Vm {
    /// The exit status a program ends with when its event loop runs dry:
    /// `process.exitCode`, or 0.
    pub fn process_exit_code(&mut self) -> i32 {
        exit_code_property(self).unwrap_or(0)
    }
}

/// Installs `process` and `performance`.
pub(crate) fn install(vm: &mut Vm) {
    let process = vm.new_plain_object();
    vm.runtime.host_objects.process = Some(process);
    let global = vm.realm.global;
    value_property(vm, global, "process", Value::object(process), Attributes::METHOD);
    method(vm, process, "nextTick", 1, next_tick);
    method(vm, process, "exit", 1, exit);
    let hrtime = method(vm, process, "hrtime", 1, hrtime);
    method(vm, hrtime, "bigint", 0, hrtime_bigint);
    let args = vm.options.argv.clone();
    let argv: Vec<Value> = args.iter().map(|a| vm.string(a)).collect();
    let argv = crate::builtins::array::array_create(vm, &argv);
    let env = vm.new_plain_object();
    for (k, v) in std::env::vars() {
        let key = vm.key(&k);
        let value = vm.string(&v);
        let _ = create_data_property_or_throw(vm, env, key, value);
    }
    let platform = vm.string(std::env::consts::OS);
    let values = [
        ("argv", Value::object(argv)),
        ("env", Value::object(env)),
        ("platform", platform),
        ("pid", Value::number(f64::from(std::process::id()))),
        ("exitCode", Value::UNDEFINED),
    ];
    for (name, value) in values {
        let key = vm.key(name);
        let _ = create_data_property_or_throw(vm, process, key, value);
    }
    let performance = vm.new_plain_object();
    value_property(vm, global, "performance", Value::object(performance), Attributes::METHOD);
    method(vm, performance, "now", 0, performance_now);
}
