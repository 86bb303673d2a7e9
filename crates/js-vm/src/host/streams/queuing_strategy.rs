//! `ByteLengthQueuingStrategy` and `CountQueuingStrategy`: a
//! `highWaterMark` getter and a `size` getter returning one function per
//! VM (so every instance shares it, as the spec requires).

use js_streams::slots::StrategyKind;

use super::conversions::{dictionary, member};
use super::{VmStreamSlots, branded, idl_attribute, require_new, set_prototype_from, to_string_tag};
use crate::abstract_ops::to_number;
use crate::builtins::{constructor, native_function};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::get;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn strategy_ctor(vm: &mut Vm, info: &CallInfo, kind: StrategyKind, name: &str) -> JsResult<Value> {
    let new_target = require_new(vm, info, name)?;
    let init = dictionary(vm, info.arg(vm, 0), "The strategy init")?;
    let hwm = member(vm, init, "highWaterMark")?;
    if hwm.is_undefined() {
        return Err(vm.type_error(&format!(
            "Failed to construct '{name}': Failed to read the 'highWaterMark' property from 'QueuingStrategyInit': Required member is undefined."
        )));
    }
    let high_water_mark = to_number(vm, hwm)?;
    let object = js_streams::StreamHost::new_stream_object(
        &mut vm.host(),
        VmStreamSlots::QueuingStrategy { high_water_mark, kind },
    );
    set_prototype_from(vm, object, new_target)?;
    Ok(Value::object(object))
}

fn byte_length_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    strategy_ctor(vm, info, StrategyKind::ByteLength, "ByteLengthQueuingStrategy")
}

fn count_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    strategy_ctor(vm, info, StrategyKind::Count, "CountQueuingStrategy")
}

fn is_kind(slots: &VmStreamSlots, wanted: StrategyKind) -> bool {
    matches!(slots, VmStreamSlots::QueuingStrategy { kind, .. } if *kind == wanted)
}

fn high_water_mark(vm: &mut Vm, info: &CallInfo, kind: StrategyKind) -> JsResult<Value> {
    let test = match kind {
        StrategyKind::ByteLength => |s: &VmStreamSlots| is_kind(s, StrategyKind::ByteLength),
        StrategyKind::Count => |s: &VmStreamSlots| is_kind(s, StrategyKind::Count),
    };
    let Some(object) = branded(vm, info.this, test) else { return Err(vm.type_error("Illegal invocation")) };
    match js_streams::StreamHost::stream_slots(&mut vm.host(), object) {
        VmStreamSlots::QueuingStrategy { high_water_mark, .. } => Ok(Value::number(*high_water_mark)),
        _ => Err(vm.type_error("Illegal invocation")),
    }
}

fn byte_length_hwm(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    high_water_mark(vm, info, StrategyKind::ByteLength)
}

fn count_hwm(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    high_water_mark(vm, info, StrategyKind::Count)
}

fn byte_length_size_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if branded(vm, info.this, |s| is_kind(s, StrategyKind::ByteLength)).is_none() {
        return Err(vm.type_error("Illegal invocation"));
    }
    Ok(vm.runtime.host_objects.streams.byte_length_size.map_or(Value::UNDEFINED, Value::object))
}

fn count_size_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if branded(vm, info.this, |s| is_kind(s, StrategyKind::Count)).is_none() {
        return Err(vm.type_error("Illegal invocation"));
    }
    Ok(vm.runtime.host_objects.streams.count_size.map_or(Value::UNDEFINED, Value::object))
}

/// The byte-length size function: `chunk.byteLength`.
fn byte_length_size(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let chunk = info.arg(vm, 0);
    let object = crate::abstract_ops::to_object(vm, chunk)?;
    let key = vm.key("byteLength");
    get(vm, object, key, chunk)
}

/// The count size function: always 1.
fn count_size(_vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Ok(Value::number(1.0))
}

/// Installs both strategies.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let size = native_function(vm, "size", 1, byte_length_size, false);
    vm.runtime.host_objects.streams.byte_length_size = Some(size);
    let size = native_function(vm, "size", 0, count_size, false);
    vm.runtime.host_objects.streams.count_size = Some(size);

    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.byte_length_queuing_strategy = Some(proto);
    constructor(vm, "ByteLengthQueuingStrategy", 1, byte_length_ctor, proto);
    idl_attribute(vm, proto, "highWaterMark", byte_length_hwm);
    idl_attribute(vm, proto, "size", byte_length_size_getter);
    to_string_tag(vm, proto, "ByteLengthQueuingStrategy");

    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.count_queuing_strategy = Some(proto);
    constructor(vm, "CountQueuingStrategy", 1, count_ctor, proto);
    idl_attribute(vm, proto, "highWaterMark", count_hwm);
    idl_attribute(vm, proto, "size", count_size_getter);
    to_string_tag(vm, proto, "CountQueuingStrategy");
}
