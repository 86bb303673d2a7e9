//! DataView (§25.3): unaligned reads and writes of any element type, in
//! either byte order, over an ArrayBuffer or SharedArrayBuffer, BigInt64
//! and BigUint64 included.

use js_gc::{Gc, Trace, Tracer};

use super::array_buffer::{buffer_data, is_immutable_buffer, to_index, with_buffer_mut};
use super::typed_array::ElementType;
use super::{accessor_property, constructor, method};
use crate::abstract_ops::to_boolean;
use crate::host::console::{InspectHook, Inspection};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, DataClass, JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The internal slots of a DataView.
#[derive(Clone, Copy)]
pub struct DataViewData {
    /// `[[ViewedArrayBuffer]]`.
    pub buffer: Gc<JsObject>,
    /// `[[ByteOffset]]`.
    pub byte_offset: usize,
    /// `[[ByteLength]]`; `None` is `auto` (tracks a resizable buffer).
    pub byte_length: Option<usize>,
}

// SAFETY: the one edge, the viewed buffer, is reported.
unsafe impl Trace for DataViewData {
    fn trace(&self, tracer: &mut Tracer) {
        self.buffer.trace(tracer);
    }

    fn type_name() -> &'static str {
        "DataViewData"
    }
}

/// A DataView: its slots are a [`DataViewData`] cell.
pub(crate) static DATA_VIEW: DataClass = DataClass {
    name: "DataView",
    cell: DataClass::cell_type::<DataViewData>(),
    exotic: None,
    inspect: Some(
        &((|_, _| Inspection::Binary { contents: None, accessors: &["byteLength", "byteOffset", "buffer"] })
            as InspectHook),
    ),
};

/// The DataView slots of `o`, if it is one.
pub(crate) fn view_data(vm: &Vm, o: Gc<JsObject>) -> Option<DataViewData> {
    o.borrow(&vm.heap).data_of::<DataViewData>(&DATA_VIEW).map(|cell| *cell.borrow(&vm.heap))
}

/// Whether `o` is a DataView.
pub(crate) fn is_data_view(vm: &Vm, o: Gc<JsObject>) -> bool {
    o.borrow(&vm.heap).is_data(&DATA_VIEW)
}

/// A DataView object with prototype `proto` over `view`'s buffer.
pub(crate) fn new_data_view(vm: &mut Vm, proto: Gc<JsObject>, view: DataViewData) -> Gc<JsObject> {
    vm.new_object_with_data(Some(proto), &DATA_VIEW, view)
}

/// `GetViewByteLength` after `IsViewOutOfBounds`: `None` when out of
/// bounds or detached.
fn view_byte_length(vm: &Vm, view: &DataViewData) -> Option<usize> {
    let buffer_len = buffer_data(vm, view.buffer)?.bytes()?.len();
    if view.byte_offset > buffer_len {
        return None;
    }
    match view.byte_length {
        Some(len) => (view.byte_offset + len <= buffer_len).then_some(len),
        None => Some(buffer_len - view.byte_offset),
    }
}

/// The DataView constructor (§25.3.2.1).
fn data_view_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        return Err(vm.type_error("Constructor DataView requires 'new'"));
    };
    let buffer = info.arg(vm, 0);
    let Some(buffer) = buffer.as_object().filter(|b| buffer_data(vm, *b).is_some()) else {
        return Err(vm.type_error("First argument to DataView constructor must be an ArrayBuffer"));
    };
    let offset = to_index(vm, info.arg(vm, 1))?;
    let Some(data) = buffer_data(vm, buffer).filter(|d| !d.is_detached()) else {
        return Err(vm.type_error("Cannot construct a DataView on a detached ArrayBuffer"));
    };
    let buffer_len = data.byte_length();
    let fixed = data.is_fixed_length();
    if offset > buffer_len {
        return Err(vm.range_error(&format!("Start offset {offset} is outside the bounds of the buffer")));
    }
    let length_arg = info.arg(vm, 2);
    let byte_length = if length_arg.is_undefined() {
        if fixed { Some(buffer_len - offset) } else { None }
    } else {
        let len = to_index(vm, length_arg)?;
        if offset.checked_add(len).is_none_or(|end| end > buffer_len) {
            return Err(vm.range_error(&format!("Invalid DataView length {len}")));
        }
        Some(len)
    };
    let proto = prototype_from_constructor(vm, nt, |i| i.data_view_prototype)?;
    // Reading `prototype` ran user code, which may have detached or shrunk
    // the buffer.
    let Some(data) = buffer_data(vm, buffer).filter(|d| !d.is_detached()) else {
        return Err(vm.type_error("Cannot construct a DataView on a detached ArrayBuffer"));
    };
    let buffer_len = data.byte_length();
    if offset > buffer_len || byte_length.is_some_and(|len| offset + len > buffer_len) {
        return Err(vm.range_error("Invalid DataView length"));
    }
    let view = DataViewData { buffer, byte_offset: offset, byte_length };
    Ok(Value::object(new_data_view(vm, proto, view)))
}

fn this_view(vm: &mut Vm, this: Value, name: &str) -> JsResult<DataViewData> {
    let view = this.as_object().and_then(|o| view_data(vm, o));
    view.ok_or_else(|| vm.type_error(&format!("Method {name} called on incompatible receiver")))
}

fn buffer_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let view = this_view(vm, info.this, "DataView.prototype.buffer")?;
    Ok(Value::object(view.buffer))
}

fn byte_length_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "DataView.prototype.byteLength";
    let view = this_view(vm, info.this, name)?;
    match view_byte_length(vm, &view) {
        Some(len) => Ok(Value::number(len as f64)),
        None => Err(vm.type_error(&format!("Cannot perform {name} on a detached or out-of-bounds view"))),
    }
}

fn byte_offset_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "DataView.prototype.byteOffset";
    let view = this_view(vm, info.this, name)?;
    match view_byte_length(vm, &view) {
        Some(_) => Ok(Value::number(view.byte_offset as f64)),
        None => Err(vm.type_error(&format!("Cannot perform {name} on a detached or out-of-bounds view"))),
    }
}

/// `GetViewValue` (§25.3.1.5).
fn get_view_value(vm: &mut Vm, info: &CallInfo, t: ElementType, name: &str) -> JsResult<Value> {
    let view = this_view(vm, info.this, name)?;
    let index = to_index(vm, info.arg(vm, 0))?;
    let little = to_boolean(vm, info.arg(vm, 1));
    let Some(len) = view_byte_length(vm, &view) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached or out-of-bounds view")));
    };
    if index.checked_add(t.size()).is_none_or(|end| end > len) {
        return Err(vm.range_error("Offset is outside the bounds of the DataView"));
    }
    let start = view.byte_offset + index;
    let mut raw = [0; 8];
    let Some(bytes) = buffer_data(vm, view.buffer).and_then(|d| d.bytes()).and_then(|b| b.get(start..start + t.size()))
    else {
        return Ok(Value::UNDEFINED);
    };
    raw[..t.size()].copy_from_slice(bytes);
    Ok(t.to_value(vm, &raw, little))
}

/// `SetViewValue` (§25.3.1.6).
fn set_view_value(vm: &mut Vm, info: &CallInfo, t: ElementType, name: &str) -> JsResult<Value> {
    let view = this_view(vm, info.this, name)?;
    if is_immutable_buffer(vm, view.buffer) {
        return Err(vm.type_error(&format!("Cannot perform {name} on a DataView of an immutable buffer")));
    }
    let index = to_index(vm, info.arg(vm, 0))?;
    let raw = t.coerce(vm, info.arg(vm, 1))?;
    let little = to_boolean(vm, info.arg(vm, 2));
    let Some(len) = view_byte_length(vm, &view) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached or out-of-bounds view")));
    };
    if index.checked_add(t.size()).is_none_or(|end| end > len) {
        return Err(vm.range_error("Offset is outside the bounds of the DataView"));
    }
    let start = view.byte_offset + index;
    let raw = t.ordered(raw, little);
    with_buffer_mut(vm, view.buffer, |d| {
        if let Some(bytes) = d.bytes_mut() {
            bytes[start..start + t.size()].copy_from_slice(&raw[..t.size()]);
        }
    });
    Ok(Value::UNDEFINED)
}

macro_rules! accessors {
    ($($get:ident / $set:ident => $t:ident, $getname:literal, $setname:literal;)*) => {
        $(
            fn $get(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
                get_view_value(vm, info, ElementType::$t, concat!("DataView.prototype.", $getname))
            }

            fn $set(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
                set_view_value(vm, info, ElementType::$t, concat!("DataView.prototype.", $setname))
            }
        )*

        /// `(getter name, getter, setter name, setter)` per element type.
        const ACCESSORS: &[(&str, crate::function::NativeFn, &str, crate::function::NativeFn)] =
            &[$(($getname, $get, $setname, $set),)*];
    };
}

accessors! {
    get_int8 / set_int8 => Int8, "getInt8", "setInt8";
    get_uint8 / set_uint8 => Uint8, "getUint8", "setUint8";
    get_int16 / set_int16 => Int16, "getInt16", "setInt16";
    get_uint16 / set_uint16 => Uint16, "getUint16", "setUint16";
    get_int32 / set_int32 => Int32, "getInt32", "setInt32";
    get_uint32 / set_uint32 => Uint32, "getUint32", "setUint32";
    get_float16 / set_float16 => Float16, "getFloat16", "setFloat16";
    get_float32 / set_float32 => Float32, "getFloat32", "setFloat32";
    get_float64 / set_float64 => Float64, "getFloat64", "setFloat64";
    get_big_int64 / set_big_int64 => BigInt64, "getBigInt64", "setBigInt64";
    get_big_uint64 / set_big_uint64 => BigUint64, "getBigUint64", "setBigUint64";
}

/// Installs DataView.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.realm.intrinsics.data_view_prototype = proto;
    constructor(vm, "DataView", 1, data_view_ctor, proto);
    let getters: [(&str, crate::function::NativeFn); 3] =
        [("buffer", buffer_getter), ("byteLength", byte_length_getter), ("byteOffset", byte_offset_getter)];
    for (name, f) in getters {
        let key = vm.key(name);
        accessor_property(vm, proto, key, name, Some(f), None);
    }
    for &(get_name, get, set_name, set) in ACCESSORS {
        method(vm, proto, get_name, 1, get);
        method(vm, proto, set_name, 2, set);
    }
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let name = vm.string("DataView");
    define_builtin(vm, proto, tag, name, Attributes::CONFIGURABLE_ONLY);
}
