//! The byte streams' view of ArrayBuffers and their views: WebIDL's
//! `ArrayBufferView` conversion, `[EnforceRange] unsigned long long`, and
//! the buffer operations the js-streams byte controller asks of its host
//! (view facts, transfer, clone, copy, view construction).

use js_gc::Gc;
use js_streams::ViewRecord;
use js_streams::pull_into_descriptor::ViewConstructor;

use crate::abstract_ops::to_number;
use crate::builtins::array_buffer::{
    BufferData, buffer_data, copy_buffer_bytes, new_array_buffer, transfer_array_buffer,
};
use crate::builtins::data_view::{DataViewData, view_data};
use crate::builtins::typed_array::{
    ElementType, TypedArrayData, intrinsic_prototype, typed_array_data, typed_array_length,
};
use crate::object::JsObject;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Converts an argument to WebIDL's `ArrayBufferView` (neither
/// `[AllowShared]` nor `[AllowResizable]`): a typed array or DataView over
/// a fixed-length, non-shared buffer. A detached buffer passes (the
/// operations check it themselves).
pub(super) fn to_array_buffer_view(vm: &mut Vm, value: Value, what: &str) -> JsResult<Value> {
    let buffer = value.as_object().and_then(|o| {
        typed_array_data(vm, o).map(|data| data.buffer).or_else(|| view_data(vm, o).map(|data| data.buffer))
    });
    let Some(buffer) = buffer else {
        return Err(vm.type_error(&format!("{what} must be an ArrayBufferView")));
    };
    let data = buffer_data(vm, buffer);
    if data.is_some_and(BufferData::is_shared) {
        return Err(vm.type_error(&format!("{what} must not be backed by a SharedArrayBuffer")));
    }
    if data.is_some_and(|d| !d.is_fixed_length()) {
        return Err(vm.type_error(&format!("{what} must not be backed by a resizable ArrayBuffer")));
    }
    Ok(value)
}

/// Converts an argument to `[EnforceRange] unsigned long long`.
pub(super) fn to_enforced_u64(vm: &mut Vm, value: Value, what: &str) -> JsResult<u64> {
    let n = to_number(vm, value)?;
    let n = n.trunc();
    if !n.is_finite() || !(0.0..=9_007_199_254_740_991.0).contains(&n) {
        return Err(vm.type_error(&format!("{what} is outside the accepted range")));
    }
    // In 0..=2^53 - 1, so exact.
    Ok(n as u64)
}

fn view_constructor_of(element: ElementType) -> ViewConstructor {
    match element {
        ElementType::Int8 => ViewConstructor::Int8,
        ElementType::Uint8 => ViewConstructor::Uint8,
        ElementType::Uint8Clamped => ViewConstructor::Uint8Clamped,
        ElementType::Int16 => ViewConstructor::Int16,
        ElementType::Uint16 => ViewConstructor::Uint16,
        ElementType::Int32 => ViewConstructor::Int32,
        ElementType::Uint32 => ViewConstructor::Uint32,
        ElementType::Float16 => ViewConstructor::Float16,
        ElementType::Float32 => ViewConstructor::Float32,
        ElementType::Float64 => ViewConstructor::Float64,
        ElementType::BigInt64 => ViewConstructor::BigInt64,
        ElementType::BigUint64 => ViewConstructor::BigUint64,
    }
}

fn element_of(constructor: ViewConstructor) -> Option<ElementType> {
    Some(match constructor {
        ViewConstructor::Int8 => ElementType::Int8,
        ViewConstructor::Uint8 => ElementType::Uint8,
        ViewConstructor::Uint8Clamped => ElementType::Uint8Clamped,
        ViewConstructor::Int16 => ElementType::Int16,
        ViewConstructor::Uint16 => ElementType::Uint16,
        ViewConstructor::Int32 => ElementType::Int32,
        ViewConstructor::Uint32 => ElementType::Uint32,
        ViewConstructor::Float16 => ElementType::Float16,
        ViewConstructor::Float32 => ElementType::Float32,
        ViewConstructor::Float64 => ElementType::Float64,
        ViewConstructor::BigInt64 => ElementType::BigInt64,
        ViewConstructor::BigUint64 => ElementType::BigUint64,
        ViewConstructor::DataView => return None,
    })
}

/// The byte length of a DataView now (`GetViewByteLength`; 0 when out of
/// bounds or detached).
fn data_view_byte_length(vm: &Vm, view: &DataViewData) -> usize {
    let Some(buffer_len) = buffer_data(vm, view.buffer).and_then(|d| d.bytes()).map(<[u8]>::len) else { return 0 };
    match view.byte_length {
        Some(len) if view.byte_offset + len <= buffer_len => len,
        None if view.byte_offset <= buffer_len => buffer_len - view.byte_offset,
        _ => 0,
    }
}

/// [`js_streams::StreamHost::view_record`].
pub(super) fn view_record(vm: &Vm, view: Value) -> ViewRecord<Value> {
    let object = view.as_object();
    let kind = object.map(|o| typed_array_data(vm, o).ok_or_else(|| view_data(vm, o)));
    match kind {
        Some(Ok(ta)) => ViewRecord {
            buffer: Value::object(ta.buffer),
            byte_offset: ta.byte_offset,
            byte_length: typed_array_length(vm, &ta).map_or(0, |len| len * ta.element.size()),
            constructor: view_constructor_of(ta.element),
        },
        Some(Err(Some(dv))) => ViewRecord {
            buffer: Value::object(dv.buffer),
            byte_offset: dv.byte_offset,
            byte_length: data_view_byte_length(vm, &dv),
            constructor: ViewConstructor::DataView,
        },
        // The algorithms only ask about converted views.
        _ => {
            ViewRecord { buffer: Value::UNDEFINED, byte_offset: 0, byte_length: 0, constructor: ViewConstructor::Uint8 }
        }
    }
}

fn as_buffer(vm: &Vm, value: Value) -> Option<Gc<JsObject>> {
    value.as_object().filter(|&o| buffer_data(vm, o).is_some())
}

/// `IsDetachedBuffer`, the `None` of
/// [`js_streams::StreamHost::array_buffer_byte_length`] (a non-buffer counts
/// as detached: nothing can be read from it).
pub(super) fn is_detached_buffer(vm: &Vm, buffer: Value) -> bool {
    as_buffer(vm, buffer).and_then(|b| buffer_data(vm, b)).is_none_or(BufferData::is_detached)
}

/// `[[ArrayBufferByteLength]]`, the `Some` of
/// [`js_streams::StreamHost::array_buffer_byte_length`].
pub(super) fn array_buffer_byte_length(vm: &Vm, buffer: Value) -> usize {
    as_buffer(vm, buffer).and_then(|b| buffer_data(vm, b)).map_or(0, BufferData::byte_length)
}

/// [`js_streams::StreamHost::transfer_array_buffer`].
pub(super) fn transfer(vm: &mut Vm, buffer: Value) -> JsResult<Value> {
    let Some(buffer) = as_buffer(vm, buffer) else { return Err(vm.type_error("Cannot transfer this ArrayBuffer")) };
    let transferred = transfer_array_buffer(vm, buffer)?;
    vm.keep_alive(Value::object(transferred));
    Ok(Value::object(transferred))
}

/// [`js_streams::StreamHost::new_array_buffer`].
pub(super) fn allocate(vm: &mut Vm, byte_length: usize, source: Option<(Value, usize)>) -> JsResult<Value> {
    let buffer = new_array_buffer(vm, byte_length)?;
    vm.keep_alive(Value::object(buffer));
    if let Some((from, offset)) = source
        && let Some(from) = as_buffer(vm, from)
    {
        copy_buffer_bytes(vm, buffer, 0, from, offset, byte_length);
    }
    Ok(Value::object(buffer))
}

/// [`js_streams::StreamHost::copy_buffer_bytes`].
pub(super) fn copy(vm: &mut Vm, to: Value, to_index: usize, from: Value, from_index: usize, count: usize) {
    if let (Some(to), Some(from)) = (as_buffer(vm, to), as_buffer(vm, from)) {
        copy_buffer_bytes(vm, to, to_index, from, from_index, count);
    }
}

/// [`js_streams::StreamHost::new_view`]: the view object made directly
/// (the range is valid, so `Construct` of the intrinsic constructor could
/// not throw or run user code).
pub(super) fn new_view(
    vm: &mut Vm,
    constructor: ViewConstructor,
    buffer: Value,
    byte_offset: usize,
    length: usize,
) -> Value {
    let Some(buffer) = as_buffer(vm, buffer) else { return Value::UNDEFINED };
    let view = if let Some(element) = element_of(constructor) {
        let proto = intrinsic_prototype(vm, element);
        let data = TypedArrayData { element, buffer, byte_offset, array_length: Some(length) };
        crate::builtins::typed_array::make_view(vm, proto, data)
    } else {
        let proto = vm.realm.intrinsics.data_view_prototype;
        let data = DataViewData { buffer, byte_offset, byte_length: Some(length) };
        crate::builtins::data_view::new_data_view(vm, proto, data)
    };
    vm.keep_alive(Value::object(view));
    Value::object(view)
}
