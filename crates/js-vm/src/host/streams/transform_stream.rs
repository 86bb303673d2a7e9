//! `TransformStream`: the constructor (transformer and both strategies'
//! conversion), `readable` and `writable`.

use js_streams::transform_stream::{
    TransformerInit, create_transform_stream, transform_stream_readable, transform_stream_writable,
};

use super::conversions::{callback_member, dictionary, extract_high_water_mark, member, strategy};
use super::{VmStreamSlots, branded, idl_attribute, require_new, set_prototype_from, thrown, to_string_tag};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_transform_stream(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::TransformStream(_))
}

/// `new TransformStream(transformer, writableStrategy, readableStrategy)`.
fn transform_stream_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let new_target = require_new(vm, info, "TransformStream")?;
    let transformer = info.arg(vm, 0);
    if transformer.is_null() {
        return Err(vm.type_error("The transformer must be an object"));
    }
    let transformer = if transformer.is_undefined() { Value::NULL } else { transformer };
    let writable_strategy = strategy(vm, info.arg(vm, 1))?;
    let readable_strategy = strategy(vm, info.arg(vm, 2))?;
    if !transformer.is_null() && !transformer.is_object() {
        return Err(vm.type_error("The transformer must be an object"));
    }
    let dict = dictionary(vm, transformer, "The transformer")?;
    let cancel = callback_member(vm, dict, "cancel", "transformer")?;
    let flush = callback_member(vm, dict, "flush", "transformer")?;
    let readable_type = member(vm, dict, "readableType")?;
    let start = callback_member(vm, dict, "start", "transformer")?;
    let transform = callback_member(vm, dict, "transform", "transformer")?;
    let writable_type = member(vm, dict, "writableType")?;
    if !readable_type.is_undefined() {
        return Err(vm.range_error("Invalid readableType specified"));
    }
    if !writable_type.is_undefined() {
        return Err(vm.range_error("Invalid writableType specified"));
    }
    let readable_high_water_mark = extract_high_water_mark(vm, readable_strategy, 0.0)?;
    let writable_high_water_mark = extract_high_water_mark(vm, writable_strategy, 1.0)?;
    let init = TransformerInit {
        transformer,
        start,
        transform,
        flush,
        cancel,
        writable_high_water_mark,
        writable_size: writable_strategy.size,
        readable_high_water_mark,
        readable_size: readable_strategy.size,
    };
    let stream = create_transform_stream(&mut vm.host(), init).map_err(|e| thrown(vm, e))?;
    vm.take_termination()?;
    set_prototype_from(vm, stream, new_target)?;
    Ok(Value::object(stream))
}

/// `get readable`.
fn readable_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_transform_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    Ok(Value::object(transform_stream_readable(&mut vm.host(), stream)))
}

/// `get writable`.
fn writable_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(stream) = branded(vm, info.this, is_transform_stream) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    Ok(Value::object(transform_stream_writable(&mut vm.host(), stream)))
}

/// Installs `TransformStream`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.transform_stream = Some(proto);
    constructor(vm, "TransformStream", 0, transform_stream_ctor, proto);
    idl_attribute(vm, proto, "readable", readable_getter);
    idl_attribute(vm, proto, "writable", writable_getter);
    to_string_tag(vm, proto, "TransformStream");
}
