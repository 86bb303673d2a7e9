//! `$vm`: engine internals for tests and benchmarks (`--expose-internals`).

use crate::builtins::{method, value_property};
use crate::interpreter::CallInfo;
use crate::object::Attributes;
use crate::object::internal_methods::create_data_property_or_throw;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `$vm.gc()`: a full collection; returns the number of cells freed.
fn gc(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    let report = vm.collect_garbage();
    Ok(Value::number(report.freed_objects as f64))
}

/// `$vm.heapStats()`: `{ liveObjects, liveBytes, heapSize, collections,
/// objectTypeCounts: { [type]: count } }`.
fn heap_stats(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    let stats = vm.heap_stats();
    let result = vm.new_plain_object();
    vm.keep_alive(Value::object(result));
    let numbers = [
        ("liveObjects", stats.live_objects as f64),
        ("liveBytes", stats.live_bytes as f64),
        ("heapSize", stats.heap_size as f64),
        ("collections", stats.collections as f64),
    ];
    for (name, n) in numbers {
        let key = vm.key(name);
        create_data_property_or_throw(vm, result, key, Value::number(n))?;
    }
    let counts = vm.new_plain_object();
    let key = vm.key("objectTypeCounts");
    create_data_property_or_throw(vm, result, key, Value::object(counts))?;
    for t in &stats.types {
        let key = vm.key(t.name);
        create_data_property_or_throw(vm, counts, key, Value::number(t.objects as f64))?;
    }
    Ok(Value::object(result))
}

pub(super) fn install(vm: &mut Vm) {
    let internals = vm.new_plain_object();
    method(vm, internals, "gc", 0, gc);
    method(vm, internals, "heapStats", 0, heap_stats);
    let global = vm.realm.global;
    value_property(vm, global, "$vm", Value::object(internals), Attributes::METHOD);
}
