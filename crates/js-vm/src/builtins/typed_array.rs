//! TypedArray objects (§23.2): `%TypedArray%`, its prototype, the twelve
//! constructors (with `Float16Array`, `BigInt64Array` and
//! `BigUint64Array`) and the integer-indexed exotic behaviour (§10.4.5)
//! that the internal methods delegate to.
//!
//! Values reach elements only through [`ElementType::coerce`] (to raw
//! bytes) and leave them only through [`ElementType::to_value`]. The two
//! BigInt element types have the BigInt `[[ContentType]]`: a BigInt array
//! and a Number array never copy into each other (`set`, the typed-array
//! constructor and `TypedArraySpeciesCreate` throw a `TypeError`), and
//! arrays of one content type copy raw bits rather than going through a
//! Number.
//! Elements are stored little-endian whatever the host, so buffers read
//! through a DataView give the same bytes everywhere.

use std::cmp::Ordering;

use js_gc::{Gc, GcAny, Trace, Tracer};

use super::array_buffer::{
    MAX_BYTE_LENGTH, buffer_data, is_immutable_buffer, new_array_buffer, relative_index, to_index, with_buffer_mut,
};
use super::{accessor_property, method, native_function, value_property};
use crate::abstract_ops::{
    big_int_from_i64, big_int_from_u64, f16_bits_to_f64, f64_to_f16_bits, is_callable, is_strictly_equal,
    number_to_string, same_value, same_value_zero, species_constructor, string_to_number, to_big_int64, to_big_uint64,
    to_boolean, to_int32, to_integer_or_infinity, to_number, to_object, to_string,
};
use crate::host::console::{InspectHook, Inspection};
use crate::interpreter::{CallInfo, IteratorRecord, is_constructor, prototype_from_constructor};
use crate::object::internal_methods::{
    call, construct, create_data_property, define_builtin, define_own_property, get, get_method, get_own_property,
    get_value, length_of_array_like, set,
};
use crate::object::{Attributes, DataClass, ExoticMethods, IterationKind, JsObject, PropertyDescriptor, PropertyKey};
use crate::realm::Intrinsics;
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The element type of a typed array (Table 71).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementType {
    /// `Int8Array`.
    Int8,
    /// `Uint8Array`.
    Uint8,
    /// `Uint8ClampedArray`.
    Uint8Clamped,
    /// `Int16Array`.
    Int16,
    /// `Uint16Array`.
    Uint16,
    /// `Int32Array`.
    Int32,
    /// `Uint32Array`.
    Uint32,
    /// `Float16Array`.
    Float16,
    /// `Float32Array`.
    Float32,
    /// `Float64Array`.
    Float64,
    /// `BigInt64Array`.
    BigInt64,
    /// `BigUint64Array`.
    BigUint64,
}

/// `ToUint8Clamp` (§7.1.10): clamps, then rounds half to even.
pub fn to_uint8_clamp(n: f64) -> u8 {
    if n.is_nan() || n <= 0.0 {
        return 0;
    }
    if n >= 255.0 {
        return 255;
    }
    let f = n.floor();
    let diff = n - f;
    let rounded = if diff > 0.5 || (diff == 0.5 && f % 2.0 != 0.0) { f + 1.0 } else { f };
    rounded as u8
}

/// The integer part of `n` modulo 2⁶⁴ (0 for NaN and the infinities).
fn wrap_u64(n: f64) -> u64 {
    if !n.is_finite() {
        return 0;
    }
    let t = n.trunc();
    let m = t.rem_euclid(18_446_744_073_709_551_616.0);
    m as u64
}

impl ElementType {
    /// Every element type, in the order of Table 71.
    pub const ALL: [Self; 12] = [
        Self::Int8,
        Self::Uint8,
        Self::Uint8Clamped,
        Self::Int16,
        Self::Uint16,
        Self::Int32,
        Self::Uint32,
        Self::Float16,
        Self::Float32,
        Self::Float64,
        Self::BigInt64,
        Self::BigUint64,
    ];

    /// The element size in bytes.
    pub const fn size(self) -> usize {
        match self {
            Self::Int8 | Self::Uint8 | Self::Uint8Clamped => 1,
            Self::Int16 | Self::Uint16 | Self::Float16 => 2,
            Self::Int32 | Self::Uint32 | Self::Float32 => 4,
            Self::Float64 | Self::BigInt64 | Self::BigUint64 => 8,
        }
    }

    /// The constructor name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Int8 => "Int8Array",
            Self::Uint8 => "Uint8Array",
            Self::Uint8Clamped => "Uint8ClampedArray",
            Self::Int16 => "Int16Array",
            Self::Uint16 => "Uint16Array",
            Self::Int32 => "Int32Array",
            Self::Uint32 => "Uint32Array",
            Self::Float16 => "Float16Array",
            Self::Float32 => "Float32Array",
            Self::Float64 => "Float64Array",
            Self::BigInt64 => "BigInt64Array",
            Self::BigUint64 => "BigUint64Array",
        }
    }

    /// Whether `[[ContentType]]` is BigInt (otherwise it is Number).
    pub const fn is_big_int(self) -> bool {
        matches!(self, Self::BigInt64 | Self::BigUint64)
    }

    /// The conversion a value goes through before it is stored in an
    /// element of this type, with `NumericToRawBytes` (little-endian):
    /// `ToBigInt64`/`ToBigUint64` for the BigInt types (a Number throws a
    /// `TypeError`), `ToNumber` for the others. It may run user code.
    pub fn coerce(self, vm: &mut Vm, v: Value) -> JsResult<RawElement> {
        match self {
            Self::BigInt64 => Ok(to_big_int64(vm, v)?.to_le_bytes()),
            Self::BigUint64 => Ok(to_big_uint64(vm, v)?.to_le_bytes()),
            _ => {
                let n = to_number(vm, v)?;
                Ok(self.encode(n, true))
            }
        }
    }

    /// `RawBytesToNumeric` as a value: `bytes` holds at least
    /// [`Self::size`] bytes in the given order. The BigInt element types
    /// allocate their result.
    pub fn to_value(self, vm: &mut Vm, bytes: &[u8], little: bool) -> Value {
        match self {
            Self::BigInt64 | Self::BigUint64 => {
                let mut raw = [0; 8];
                raw.copy_from_slice(&bytes[..8]);
                if !little {
                    raw.reverse();
                }
                let bits = u64::from_le_bytes(raw);
                if self == Self::BigInt64 {
                    big_int_from_i64(vm, bits.cast_signed())
                } else {
                    big_int_from_u64(vm, bits)
                }
            }
            _ => Value::number(self.decode(bytes, little)),
        }
    }

    /// A little-endian raw element in the requested byte order.
    pub fn ordered(self, mut raw: RawElement, little: bool) -> RawElement {
        if !little {
            raw[..self.size()].reverse();
        }
        raw
    }

    /// `RawBytesToNumeric` for the Number element types: `bytes` holds at
    /// least [`Self::size`] bytes. A BigInt element reads as the nearest
    /// Number (only the default sort's integer order relies on that being
    /// monotonic; BigInt values come from [`Self::to_value`]).
    pub fn decode(self, bytes: &[u8], little: bool) -> f64 {
        if little {
            return self.load(bytes);
        }
        let mut le = [0; 8];
        let size = self.size();
        le[..size].copy_from_slice(&bytes[..size]);
        le[..size].reverse();
        self.load(&le)
    }

    /// `NumericToRawBytes` for the Number element types: the first
    /// [`Self::size`] bytes of the result. A BigInt element type takes the
    /// Number's integer part modulo 2⁶⁴ (callers convert BigInts with
    /// [`Self::coerce`]; no Number ever reaches a BigInt element).
    pub fn encode(self, n: f64, little: bool) -> [u8; 8] {
        let mut out = [0; 8];
        self.store(&mut out, n);
        if !little {
            out[..self.size()].reverse();
        }
        out
    }

    /// [`Self::decode`] of little-endian bytes, the order elements are
    /// stored in: what an element read costs. Fewer than [`Self::size`]
    /// bytes read as 0 (callers check the index first).
    #[inline]
    fn load(self, bytes: &[u8]) -> f64 {
        fn le<const N: usize>(bytes: &[u8]) -> [u8; N] {
            bytes.first_chunk::<N>().copied().unwrap_or([0; N])
        }
        match self {
            Self::Int8 => f64::from(le::<1>(bytes)[0].cast_signed()),
            Self::Uint8 | Self::Uint8Clamped => f64::from(le::<1>(bytes)[0]),
            Self::Int16 => f64::from(i16::from_le_bytes(le(bytes))),
            Self::Uint16 => f64::from(u16::from_le_bytes(le(bytes))),
            Self::Int32 => f64::from(i32::from_le_bytes(le(bytes))),
            Self::Uint32 => f64::from(u32::from_le_bytes(le(bytes))),
            Self::Float16 => f16_bits_to_f64(u16::from_le_bytes(le(bytes))),
            Self::Float32 => f64::from(f32::from_le_bytes(le(bytes))),
            Self::Float64 => f64::from_le_bytes(le(bytes)),
            Self::BigInt64 => i64::from_le_bytes(le(bytes)) as f64,
            Self::BigUint64 => u64::from_le_bytes(le(bytes)) as f64,
        }
    }

    /// [`Self::encode`] written straight into the first [`Self::size`]
    /// bytes of `bytes`, little-endian: what an element write costs.
    /// Shorter `bytes` are left alone (callers check the index first).
    #[inline]
    fn store(self, bytes: &mut [u8], n: f64) {
        fn put<const N: usize>(bytes: &mut [u8], le: [u8; N]) {
            if let Some(chunk) = bytes.first_chunk_mut::<N>() {
                *chunk = le;
            }
        }
        // ToInt8, ToUint8, ToInt16 and ToUint16 (§7.1.6–9) keep the low
        // bits of ToInt32, which is what the truncating casts take.
        match self {
            Self::Int8 | Self::Uint8 => put(bytes, [to_int32(n) as u8]),
            Self::Uint8Clamped => put(bytes, [to_uint8_clamp(n)]),
            Self::Int16 | Self::Uint16 => put(bytes, (to_int32(n) as u16).to_le_bytes()),
            Self::Int32 | Self::Uint32 => put(bytes, to_int32(n).to_le_bytes()),
            Self::Float16 => put(bytes, f64_to_f16_bits(n).to_le_bytes()),
            // `as` rounds to nearest, ties to even, as §6.1.6.1 requires.
            Self::Float32 => put(bytes, (n as f32).to_le_bytes()),
            Self::Float64 => put(bytes, n.to_le_bytes()),
            Self::BigInt64 | Self::BigUint64 => put(bytes, wrap_u64(n).to_le_bytes()),
        }
    }
}

/// An element's bytes between conversion and storage, little-endian; the
/// first [`ElementType::size`] bytes are meaningful.
pub type RawElement = [u8; 8];

/// The internal slots of a typed array.
#[derive(Clone, Copy)]
pub struct TypedArrayData {
    /// `[[TypedArrayName]]` / `[[ContentType]]`.
    pub element: ElementType,
    /// `[[ViewedArrayBuffer]]`.
    pub buffer: Gc<JsObject>,
    /// `[[ByteOffset]]`.
    pub byte_offset: usize,
    /// `[[ArrayLength]]`; `None` is `auto` (tracks a resizable buffer).
    pub array_length: Option<usize>,
}

// SAFETY: the one edge, the viewed buffer, is reported.
unsafe impl Trace for TypedArrayData {
    fn trace(&self, tracer: &mut Tracer) {
        self.buffer.trace(tracer);
    }

    fn type_name() -> &'static str {
        "TypedArrayData"
    }
}

/// A typed array: an integer-indexed exotic object (§10.4.5) whose slots
/// are a [`TypedArrayData`] cell.
pub(crate) static TYPED_ARRAY: DataClass = DataClass {
    name: "TypedArray",
    cell: DataClass::cell_type::<TypedArrayData>(),
    exotic: Some(&INTEGER_INDEXED),
    inspect: Some(&(inspect_typed_array as InspectHook)),
};

/// The integer-indexed exotic object's internal methods (§10.4.5.1–7) for
/// numeric keys; other keys take the ordinary ones.
static INTEGER_INDEXED: ExoticMethods = ExoticMethods {
    check_get_own_property: |_, _, _| Ok(()),
    get_own_property: |vm, obj, key| numeric_key(vm, key).map(|index| element_descriptor(vm, obj, index)),
    define_own_property: |vm, obj, key, desc| numeric_key(vm, key).map(|index| element_define(vm, obj, index, desc)),
    has_property: |vm, obj, key| numeric_key(vm, key).map(|index| is_valid_index(vm, obj, index)),
    get: |vm, obj, key| numeric_key(vm, key).map(|index| Ok(element_get(vm, obj, index))),
    set: |vm, obj, key, value, receiver| numeric_key(vm, key).map(|index| element_set(vm, obj, index, value, receiver)),
    delete: |vm, obj, key| numeric_key(vm, key).map(|index| !is_valid_index(vm, obj, index)),
    own_property_keys: |vm, obj, keys| with_element_keys(vm, obj, keys),
    can_prevent_extensions: is_fixed_length,
};

/// A typed array shows like an array tagged with its element type.
fn inspect_typed_array(vm: &Vm, cell: GcAny) -> Inspection {
    Inspection::Indexed(cell.downcast::<TypedArrayData>().map_or("", |ta| ta.borrow(&vm.heap).element.name()))
}

/// The typed array slots of `o`, if it is one.
#[inline]
pub fn typed_array_data(vm: &Vm, o: Gc<JsObject>) -> Option<TypedArrayData> {
    o.borrow(&vm.heap).data_of::<TypedArrayData>(&TYPED_ARRAY).map(|cell| *cell.borrow(&vm.heap))
}

/// Whether `o` is a typed array.
pub(crate) fn is_typed_array(vm: &Vm, o: Gc<JsObject>) -> bool {
    o.borrow(&vm.heap).is_data(&TYPED_ARRAY)
}

/// `TypedArrayLength` after `IsTypedArrayOutOfBounds`: `None` when the
/// view is out of bounds or its buffer detached.
pub fn typed_array_length(vm: &Vm, ta: &TypedArrayData) -> Option<usize> {
    ta.length_within(buffer_data(vm, ta.buffer)?.bytes()?.len())
}

impl TypedArrayData {
    /// [`typed_array_length`] over a buffer of `buffer_len` bytes.
    #[inline]
    fn length_within(&self, buffer_len: usize) -> Option<usize> {
        if self.byte_offset > buffer_len {
            return None;
        }
        let size = self.element.size();
        match self.array_length {
            Some(len) => (self.byte_offset + len * size <= buffer_len).then_some(len),
            None => Some((buffer_len - self.byte_offset) / size),
        }
    }

    /// The byte offset of element `index` in a buffer of `buffer_len`
    /// bytes, if `IsValidIntegerIndex` holds for it.
    #[inline]
    fn element_offset(&self, buffer_len: usize, index: usize) -> Option<usize> {
        (index < self.length_within(buffer_len)?).then(|| self.byte_offset + index * self.element.size())
    }
}

/// The element at `index`, or `None` if the index is not valid now. A
/// Number element is read straight from the buffer's bytes; a BigInt one
/// allocates its value.
fn read(vm: &mut Vm, ta: &TypedArrayData, index: usize) -> Option<Value> {
    if ta.element.is_big_int() {
        let raw = read_raw(vm, ta, index)?;
        return Some(ta.element.to_value(vm, &raw, true));
    }
    let bytes = buffer_data(vm, ta.buffer)?.bytes()?;
    Some(Value::number(ta.element.load(&bytes[ta.element_offset(bytes.len(), index)?..])))
}

/// The little-endian bytes of the element at `index`, if the index is
/// valid now.
fn read_raw(vm: &Vm, ta: &TypedArrayData, index: usize) -> Option<RawElement> {
    let bytes = buffer_data(vm, ta.buffer)?.bytes()?;
    let start = ta.element_offset(bytes.len(), index)?;
    let size = ta.element.size();
    let mut raw = [0; 8];
    raw[..size].copy_from_slice(bytes.get(start..start + size)?);
    Some(raw)
}

/// Runs `f` on the bytes from element `index` on, if the index is valid
/// now.
fn with_element_bytes(vm: &mut Vm, ta: &TypedArrayData, index: usize, f: impl FnOnce(&mut [u8])) {
    with_buffer_mut(vm, ta.buffer, |d| {
        if let Some(bytes) = d.bytes_mut()
            && let Some(start) = ta.element_offset(bytes.len(), index)
        {
            f(&mut bytes[start..]);
        }
    });
}

/// Writes a converted element at `index` if the index is valid now.
fn write(vm: &mut Vm, ta: &TypedArrayData, index: usize, raw: RawElement) {
    let size = ta.element.size();
    with_element_bytes(vm, ta, index, |bytes| bytes[..size].copy_from_slice(&raw[..size]));
}

/// Reads element `index` of the typed array `o` (`undefined` if invalid).
fn get_index(vm: &mut Vm, o: Gc<JsObject>, index: usize) -> Value {
    typed_array_data(vm, o).and_then(|ta| read(vm, &ta, index)).unwrap_or(Value::UNDEFINED)
}

/// The integer index a Number key names, if it is one (`-0` is `0`).
/// Every Number is the value of a CanonicalNumericIndexString (its
/// ToString reads back as itself), so a typed array answers any Number key
/// itself, without reading its prototypes: an element, or nothing.
#[inline]
fn number_index(n: f64) -> Option<usize> {
    // `as` saturates and maps NaN to 0; the round trip rejects those and
    // fractions without calling `trunc`.
    let index = n as u64;
    (index as f64 == n && index < 1 << 53).then_some(index as usize)
}

/// `o[n]` for a Number `n` when `o` is a typed array ([[Get]] of §10.4.5.4
/// without converting `n` to a key); `None` when `o` is not one. Out of
/// line: the interpreter asks after its dense-array path missed.
#[inline(never)]
pub(crate) fn get_number_key(vm: &mut Vm, o: Gc<JsObject>, n: f64) -> Option<Value> {
    let ta = typed_array_data(vm, o)?;
    Some(number_index(n).and_then(|index| read(vm, &ta, index)).unwrap_or(Value::UNDEFINED))
}

/// `o[n] = v` for a Number `n` with `o` as the receiver when `o` is a
/// typed array over a mutable buffer ([[Set]] of §10.4.5.5:
/// TypedArraySetElement, which succeeds for any index); `None` for any
/// other object, which takes the generic path.
#[inline(never)]
pub(crate) fn set_number_key(vm: &mut Vm, o: Gc<JsObject>, n: f64, v: Value) -> Option<JsResult<()>> {
    let ta = typed_array_data(vm, o)?;
    if is_immutable_buffer(vm, ta.buffer) {
        return None;
    }
    Some(set_element(vm, o, ta, number_index(n), v))
}

/// `TypedArraySetElement` (§10.4.5.16): converts first (which may run
/// user code and detach the buffer), then writes if still valid.
fn set_index(vm: &mut Vm, o: Gc<JsObject>, index: Option<usize>, v: Value) -> JsResult<()> {
    match typed_array_data(vm, o) {
        Some(ta) => set_element(vm, o, ta, index, v),
        None => Ok(()),
    }
}

/// [`set_index`] with the slots `ta` of `o` already read. A Number stored
/// in a Number element converts without running code, so it is written at
/// once into the buffer seen now, with no raw element between.
fn set_element(vm: &mut Vm, o: Gc<JsObject>, ta: TypedArrayData, index: Option<usize>, v: Value) -> JsResult<()> {
    if let Some(x) = v.as_number()
        && !ta.element.is_big_int()
    {
        if let Some(index) = index {
            with_element_bytes(vm, &ta, index, |bytes| ta.element.store(bytes, x));
        }
        return Ok(());
    }
    let raw = ta.element.coerce(vm, v)?;
    if let (Some(ta), Some(index)) = (typed_array_data(vm, o), index) {
        write(vm, &ta, index, raw);
    }
    Ok(())
}

/// Whether `s` is a `CanonicalNumericIndexString` (§7.1.21). Index keys
/// never reach here, so any such string is an invalid integer index.
fn is_canonical_numeric(vm: &mut Vm, s: Gc<JsString>) -> bool {
    let s = JsString::flatten(&mut vm.heap, s);
    let flat = s.borrow(&vm.heap).flat();
    let first = flat.units().next();
    if !first.is_some_and(|u| {
        u == u16::from(b'-') || u == u16::from(b'I') || u == u16::from(b'N') || (0x30..=0x39).contains(&u)
    }) {
        return false;
    }
    let text = flat.to_rust_string();
    text == "-0" || number_to_string(string_to_number(flat)) == text
}

/// The integer-indexed exotic object's view of `key`: `None` when `key`
/// is not numeric; `Some(None)` for a numeric key that can never be an
/// element (negative, fractional, `-0`, ...).
#[inline]
#[allow(clippy::option_option, reason = "outer: handled as numeric at all; inner: an index that may be valid")]
fn numeric_key(vm: &mut Vm, key: PropertyKey) -> Option<Option<usize>> {
    match key {
        PropertyKey::Index(i) => Some(Some(i as usize)),
        PropertyKey::String(s) => is_canonical_numeric(vm, s).then_some(None),
        PropertyKey::Symbol(_) => None,
    }
}

/// `IsTypedArrayFixedLength` (§10.4.5.10); true for every other object.
fn is_fixed_length(vm: &Vm, obj: Gc<JsObject>) -> bool {
    let Some(ta) = typed_array_data(vm, obj) else { return true };
    if ta.array_length.is_none() {
        return false;
    }
    buffer_data(vm, ta.buffer).is_none_or(|d| d.is_fixed_length() || d.is_shared())
}

/// `IsValidIntegerIndex` (§10.4.5.14).
fn is_valid_index(vm: &Vm, obj: Gc<JsObject>, index: Option<usize>) -> bool {
    let (Some(ta), Some(index)) = (typed_array_data(vm, obj), index) else { return false };
    typed_array_length(vm, &ta).is_some_and(|len| index < len)
}

/// `[[GetOwnProperty]]` for a numeric key (§10.4.5.1): elements of an
/// immutable buffer are non-writable and non-configurable.
fn element_descriptor(vm: &mut Vm, obj: Gc<JsObject>, index: Option<usize>) -> Option<PropertyDescriptor> {
    let ta = typed_array_data(vm, obj)?;
    let v = read(vm, &ta, index?)?;
    let attributes = if is_immutable_buffer(vm, ta.buffer) { Attributes::ENUMERABLE_ONLY } else { Attributes::DEFAULT };
    Some(PropertyDescriptor::data(v, attributes))
}

/// `[[Get]]` for a numeric key (§10.4.5.4).
fn element_get(vm: &mut Vm, obj: Gc<JsObject>, index: Option<usize>) -> Value {
    index.map_or(Value::UNDEFINED, |i| get_index(vm, obj, i))
}

/// `[[DefineOwnProperty]]` for a numeric key (§10.4.5.3).
fn element_define(vm: &mut Vm, obj: Gc<JsObject>, index: Option<usize>, desc: &PropertyDescriptor) -> JsResult<bool> {
    if !is_valid_index(vm, obj, index) || desc.enumerable == Some(false) || desc.is_accessor() {
        return Ok(false);
    }
    if let Some(ta) = typed_array_data(vm, obj)
        && is_immutable_buffer(vm, ta.buffer)
    {
        // The element is a frozen data property: only a descriptor that
        // changes nothing succeeds.
        if desc.configurable == Some(true) || desc.writable == Some(true) {
            return Ok(false);
        }
        let current = element_get(vm, obj, index);
        return Ok(desc.value.is_none_or(|v| same_value(vm, v, current)));
    }
    if desc.configurable == Some(false) || desc.writable == Some(false) {
        return Ok(false);
    }
    if let Some(v) = desc.value {
        set_index(vm, obj, index, v)?;
    }
    Ok(true)
}

/// `[[Set]]` for a numeric key (§10.4.5.5); `receiver` differing from the
/// typed array gets the ordinary treatment of a writable data property.
fn element_set(vm: &mut Vm, obj: Gc<JsObject>, index: Option<usize>, value: Value, receiver: Value) -> JsResult<bool> {
    if receiver == Value::object(obj) {
        if let Some(ta) = typed_array_data(vm, obj)
            && is_immutable_buffer(vm, ta.buffer)
        {
            // A non-writable element refuses; indices past the end are
            // ignored as for any typed array.
            return Ok(!is_valid_index(vm, obj, index));
        }
        set_index(vm, obj, index, value)?;
        return Ok(true);
    }
    if !is_valid_index(vm, obj, index) {
        return Ok(true);
    }
    let (Some(r), Some(index)) = (receiver.as_object(), index) else { return Ok(false) };
    let Ok(i) = u32::try_from(index) else { return Ok(false) };
    let key = PropertyKey::Index(i);
    match get_own_property(vm, r, key)? {
        Some(existing) => {
            if existing.is_accessor() || existing.writable != Some(true) {
                return Ok(false);
            }
            define_own_property(vm, r, key, PropertyDescriptor { value: Some(value), ..PropertyDescriptor::default() })
        }
        None => create_data_property(vm, r, key, value),
    }
}

/// `[[OwnPropertyKeys]]` (§10.4.5.7): the element indices, then `keys`
/// (the ordinary named keys; a typed array stores no other elements).
fn with_element_keys(vm: &Vm, obj: Gc<JsObject>, keys: Vec<PropertyKey>) -> Vec<PropertyKey> {
    let Some(len) = typed_array_data(vm, obj).and_then(|ta| typed_array_length(vm, &ta)) else { return keys };
    let mut all: Vec<PropertyKey> = (0..len).filter_map(|i| u32::try_from(i).ok()).map(PropertyKey::Index).collect();
    all.extend(keys);
    all
}

/// The length an Array Iterator sees (§23.1.5.1): a typed array's own
/// length, with a `TypeError` once it is out of bounds.
pub(crate) fn iteration_length(vm: &mut Vm, obj: Gc<JsObject>) -> JsResult<f64> {
    match typed_array_data(vm, obj) {
        Some(ta) => match typed_array_length(vm, &ta) {
            Some(len) => Ok(len as f64),
            None => Err(vm.type_error("Cannot perform %ArrayIteratorPrototype%.next on a detached ArrayBuffer")),
        },
        None => length_of_array_like(vm, obj),
    }
}

/// The `%XArray%` intrinsic for an element type.
fn intrinsic_constructor(vm: &Vm, t: ElementType) -> Gc<JsObject> {
    let i = &vm.realm.intrinsics;
    match t {
        ElementType::Int8 => i.int8_array,
        ElementType::Uint8 => i.uint8_array,
        ElementType::Uint8Clamped => i.uint8_clamped_array,
        ElementType::Int16 => i.int16_array,
        ElementType::Uint16 => i.uint16_array,
        ElementType::Int32 => i.int32_array,
        ElementType::Uint32 => i.uint32_array,
        ElementType::Float16 => i.float16_array,
        ElementType::Float32 => i.float32_array,
        ElementType::Float64 => i.float64_array,
        ElementType::BigInt64 => i.big_int64_array,
        ElementType::BigUint64 => i.big_uint64_array,
    }
}

/// `%XArray.prototype%` among the intrinsics `i`.
pub(crate) fn intrinsic_prototype_of(i: &Intrinsics, t: ElementType) -> Gc<JsObject> {
    match t {
        ElementType::Int8 => i.int8_array_prototype,
        ElementType::Uint8 => i.uint8_array_prototype,
        ElementType::Uint8Clamped => i.uint8_clamped_array_prototype,
        ElementType::Int16 => i.int16_array_prototype,
        ElementType::Uint16 => i.uint16_array_prototype,
        ElementType::Int32 => i.int32_array_prototype,
        ElementType::Uint32 => i.uint32_array_prototype,
        ElementType::Float16 => i.float16_array_prototype,
        ElementType::Float32 => i.float32_array_prototype,
        ElementType::Float64 => i.float64_array_prototype,
        ElementType::BigInt64 => i.big_int64_array_prototype,
        ElementType::BigUint64 => i.big_uint64_array_prototype,
    }
}

/// `%XArray.prototype%` of the current realm.
pub(crate) fn intrinsic_prototype(vm: &Vm, t: ElementType) -> Gc<JsObject> {
    intrinsic_prototype_of(&vm.realm.intrinsics, t)
}

/// A typed array object over `buffer`.
pub(crate) fn make_view(vm: &mut Vm, proto: Gc<JsObject>, data: TypedArrayData) -> Gc<JsObject> {
    vm.new_object_with_data(Some(proto), &TYPED_ARRAY, data)
}

/// A new `Uint8Array` over a new buffer holding `bytes` (taken, not
/// copied).
pub fn new_uint8_array_from_bytes(vm: &mut Vm, bytes: Vec<u8>) -> JsResult<Gc<JsObject>> {
    let len = bytes.len();
    let buffer = crate::builtins::array_buffer::new_array_buffer_from_bytes(vm, bytes)?;
    let proto = intrinsic_prototype(vm, ElementType::Uint8);
    Ok(make_view(
        vm,
        proto,
        TypedArrayData { element: ElementType::Uint8, buffer, byte_offset: 0, array_length: Some(len) },
    ))
}

/// `AllocateTypedArray` with a length: a new zeroed buffer.
fn allocate(vm: &mut Vm, proto: Gc<JsObject>, t: ElementType, len: usize) -> JsResult<Gc<JsObject>> {
    let Some(byte_length) = len.checked_mul(t.size()).filter(|&n| n <= MAX_BYTE_LENGTH) else {
        return Err(vm.range_error(&format!("Invalid typed array length: {len}")));
    };
    let buffer = new_array_buffer(vm, byte_length)?;
    Ok(make_view(vm, proto, TypedArrayData { element: t, buffer, byte_offset: 0, array_length: Some(len) }))
}

/// `TypedArrayCreateSameType` with a length.
fn create_same_type(vm: &mut Vm, exemplar: &TypedArrayData, len: usize) -> JsResult<Gc<JsObject>> {
    let proto = intrinsic_prototype(vm, exemplar.element);
    let a = allocate(vm, proto, exemplar.element, len)?;
    vm.keep_alive(Value::object(a));
    Ok(a)
}

/// `ValidateTypedArray` (§23.2.4.4): the typed array and its length.
pub(crate) fn validate(vm: &mut Vm, v: Value, name: &str) -> JsResult<(Gc<JsObject>, TypedArrayData, usize)> {
    let Some((o, ta)) = v.as_object().and_then(|o| typed_array_data(vm, o).map(|ta| (o, ta))) else {
        return Err(vm.type_error(&format!("{name}: this is not a typed array.")));
    };
    match typed_array_length(vm, &ta) {
        Some(len) => Ok((o, ta, len)),
        None => Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer"))),
    }
}

/// Whether an operation will write to the typed array it validates
/// (`ValidateTypedArray`'s access mode in the Immutable ArrayBuffer
/// proposal): writing needs a mutable buffer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

/// [`validate`] for methods that write: also a `TypeError` when the
/// buffer is immutable.
fn validate_writable(vm: &mut Vm, v: Value, name: &str) -> JsResult<(Gc<JsObject>, TypedArrayData, usize)> {
    let (o, ta, len) = validate(vm, v, name)?;
    require_mutable(vm, &ta, name)?;
    Ok((o, ta, len))
}

/// A `TypeError` when the typed array's buffer is immutable.
fn require_mutable(vm: &mut Vm, ta: &TypedArrayData, name: &str) -> JsResult<()> {
    if is_immutable_buffer(vm, ta.buffer) {
        return Err(vm.type_error(&format!("Cannot perform {name} on a typed array backed by an immutable buffer")));
    }
    Ok(())
}

/// `TypedArrayCreateFromConstructor` (§23.2.4.2).
fn create_from_constructor(vm: &mut Vm, ctor: Gc<JsObject>, args: &[Value], access: Access) -> JsResult<Gc<JsObject>> {
    let new = construct(vm, ctor, args, None)?;
    vm.keep_alive(new);
    let name = "TypedArray constructor";
    let (o, _, len) =
        if access == Access::Write { validate_writable(vm, new, name)? } else { validate(vm, new, name)? };
    if let [n] = args
        && let Some(n) = n.as_number()
        && (len as f64) < n
    {
        return Err(vm.type_error("Derived TypedArray constructor created an array which was too small"));
    }
    Ok(o)
}

/// `TypedArraySpeciesCreate` (§23.2.4.1).
fn species_create(
    vm: &mut Vm,
    exemplar: Gc<JsObject>,
    ta: &TypedArrayData,
    args: &[Value],
    access: Access,
) -> JsResult<Gc<JsObject>> {
    let default = intrinsic_constructor(vm, ta.element);
    let ctor = species_constructor(vm, exemplar, default)?;
    let result = create_from_constructor(vm, ctor, args, access)?;
    if typed_array_data(vm, result).is_some_and(|r| r.element.is_big_int() != ta.element.is_big_int()) {
        return Err(vm.type_error("TypedArray species constructor created an array of the other content type"));
    }
    Ok(result)
}

/// The TypeError for copying between a BigInt and a Number typed array.
fn content_type_error(vm: &mut Vm, from: ElementType, to: ElementType) -> crate::vm::Exception {
    vm.type_error(&format!("Cannot mix BigInt and other types: {} into {}", from.name(), to.name()))
}

/// `src_bytes` (elements of `from`, little-endian) converted to elements
/// of `to`. Arrays of one content type copy bits: BigInt64 and BigUint64
/// hold the same 64 bits, and converting through a Number would lose
/// precision.
fn convert_elements(src_bytes: Vec<u8>, from: ElementType, to: ElementType) -> Vec<u8> {
    if from == to || (from.is_big_int() && to.is_big_int()) {
        return src_bytes;
    }
    let mut out = Vec::with_capacity(src_bytes.len() / from.size() * to.size());
    for chunk in src_bytes.chunks_exact(from.size()) {
        out.extend_from_slice(&to.encode(from.decode(chunk, true), true)[..to.size()]);
    }
    out
}

/// `GetIteratorFromMethod` + `IteratorToList`.
fn iterate_with(vm: &mut Vm, v: Value, method: Value) -> JsResult<Vec<Value>> {
    let iterator = call(vm, method, v, &[])?;
    if !iterator.is_object() {
        return Err(vm.type_error("Result of the Symbol.iterator method is not an object"));
    }
    vm.keep_alive(iterator);
    let next_key = PropertyKey::String(vm.names.next);
    let next = get_value(vm, iterator, next_key)?;
    let record = vm.heap.alloc(IteratorRecord { iterator, next, done: false });
    vm.keep_alive(Value::internal(record.into()));
    let mut out = Vec::new();
    while let Some(item) = super::iteration::iterator_step_value(vm, record)? {
        vm.keep_alive(item);
        out.push(item);
    }
    Ok(out)
}

fn construct_typed_array(vm: &mut Vm, info: &CallInfo, t: ElementType) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        return Err(vm.type_error(&format!("Constructor {} requires 'new'", t.name())));
    };
    let first = info.arg(vm, 0);
    let Some(source) = first.as_object() else {
        let len = to_index(vm, first)?;
        let proto = prototype_from_constructor(vm, nt, |i| intrinsic_prototype_of(i, t))?;
        return allocate(vm, proto, t, len).map(Value::object);
    };
    let proto = prototype_from_constructor(vm, nt, |i| intrinsic_prototype_of(i, t))?;
    // A `prototype` getter may return a fresh object that nothing else
    // holds while more user code runs below.
    vm.keep_alive(Value::object(proto));
    if let Some(src) = typed_array_data(vm, source) {
        return from_typed_array(vm, proto, t, &src).map(Value::object);
    }
    if buffer_data(vm, source).is_some() {
        let (offset, length) = (info.arg(vm, 1), info.arg(vm, 2));
        return from_buffer(vm, proto, t, source, offset, length).map(Value::object);
    }
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let Some(iterator_method) = get_method(vm, first, key)? else {
        let len = length_of_array_like(vm, source)?;
        let o = allocate(vm, proto, t, len as usize)?;
        vm.keep_alive(Value::object(o));
        for k in 0..len as usize {
            let v = get(vm, source, PropertyKey::Index(k as u32), first)?;
            set_index(vm, o, Some(k), v)?;
        }
        return Ok(Value::object(o));
    };
    let values = iterate_with(vm, first, iterator_method)?;
    let o = allocate(vm, proto, t, values.len())?;
    vm.keep_alive(Value::object(o));
    for (k, v) in values.into_iter().enumerate() {
        set_index(vm, o, Some(k), v)?;
    }
    Ok(Value::object(o))
}

/// `InitializeTypedArrayFromTypedArray` (§23.2.5.1.2).
fn from_typed_array(vm: &mut Vm, proto: Gc<JsObject>, t: ElementType, src: &TypedArrayData) -> JsResult<Gc<JsObject>> {
    let Some(len) = typed_array_length(vm, src) else {
        return Err(vm.type_error("Cannot construct a typed array from a detached ArrayBuffer"));
    };
    if src.element.is_big_int() != t.is_big_int() {
        return Err(content_type_error(vm, src.element, t));
    }
    let o = allocate(vm, proto, t, len)?;
    let dst = typed_array_data(vm, o).ok_or_else(|| vm.type_error("typed array expected"))?;
    let source_bytes = buffer_data(vm, src.buffer).and_then(|d| d.bytes()).map(|b| {
        let start = src.byte_offset;
        b[start..start + len * src.element.size()].to_vec()
    });
    let Some(source_bytes) = source_bytes else { return Ok(o) };
    let out = convert_elements(source_bytes, src.element, t);
    with_buffer_mut(vm, dst.buffer, |d| {
        if let Some(bytes) = d.bytes_mut() {
            bytes[..out.len()].copy_from_slice(&out);
        }
    });
    Ok(o)
}

/// `InitializeTypedArrayFromArrayBuffer` (§23.2.5.1.3).
fn from_buffer(
    vm: &mut Vm,
    proto: Gc<JsObject>,
    t: ElementType,
    buffer: Gc<JsObject>,
    byte_offset: Value,
    length: Value,
) -> JsResult<Gc<JsObject>> {
    let size = t.size();
    let offset = to_index(vm, byte_offset)?;
    if offset % size != 0 {
        return Err(vm.range_error(&format!("start offset of {} should be a multiple of {size}", t.name())));
    }
    let new_length = if length.is_undefined() { None } else { Some(to_index(vm, length)?) };
    let Some(data) = buffer_data(vm, buffer).filter(|d| !d.is_detached()) else {
        return Err(vm.type_error("Cannot construct a typed array on a detached ArrayBuffer"));
    };
    let buffer_len = data.byte_length();
    let array_length = match new_length {
        None if !data.is_fixed_length() => {
            if offset > buffer_len {
                return Err(vm.range_error(&format!("Start offset {offset} is outside the bounds of the buffer")));
            }
            None
        }
        None => {
            if buffer_len % size != 0 {
                return Err(vm.range_error(&format!("byte length of {} should be a multiple of {size}", t.name())));
            }
            if offset > buffer_len {
                return Err(vm.range_error(&format!("Start offset {offset} is outside the bounds of the buffer")));
            }
            Some((buffer_len - offset) / size)
        }
        Some(len) => {
            if len.checked_mul(size).and_then(|b| b.checked_add(offset)).is_none_or(|end| end > buffer_len) {
                return Err(vm.range_error(&format!("Invalid typed array length: {len}")));
            }
            Some(len)
        }
    };
    Ok(make_view(vm, proto, TypedArrayData { element: t, buffer, byte_offset: offset, array_length }))
}

macro_rules! constructors {
    ($($f:ident => $t:ident,)*) => {
        $(fn $f(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
            construct_typed_array(vm, info, ElementType::$t)
        })*

        /// The native constructor function of each element type.
        fn constructor_fn(t: ElementType) -> crate::function::NativeFn {
            match t {
                $(ElementType::$t => $f,)*
            }
        }
    };
}

constructors! {
    int8_ctor => Int8,
    uint8_ctor => Uint8,
    uint8_clamped_ctor => Uint8Clamped,
    int16_ctor => Int16,
    uint16_ctor => Uint16,
    int32_ctor => Int32,
    uint32_ctor => Uint32,
    float16_ctor => Float16,
    float32_ctor => Float32,
    float64_ctor => Float64,
    big_int64_ctor => BigInt64,
    big_uint64_ctor => BigUint64,
}

/// `%TypedArray%` itself is abstract.
fn abstract_ctor(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Err(vm.type_error("Abstract class TypedArray not directly constructable"))
}

fn species_getter(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

/// `%TypedArray%.from` (§23.2.2.1).
fn from(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let c = info.this;
    let Some(ctor) = c.as_object().filter(|o| is_constructor(vm, *o)) else {
        return Err(vm.type_error("TypedArray.from: this is not a constructor"));
    };
    let (source, mapfn, this_arg) = (info.arg(vm, 0), info.arg(vm, 1), info.arg(vm, 2));
    let mapping = !mapfn.is_undefined();
    if mapping && !is_callable(vm, mapfn) {
        return Err(vm.type_error("TypedArray.from: mapper is not a function"));
    }
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let using_iterator = get_method(vm, source, key)?;
    let (values, array_like) = if let Some(m) = using_iterator {
        (iterate_with(vm, source, m)?, None)
    } else {
        let a = to_object(vm, source)?;
        // A primitive source's wrapper is held by nothing else.
        vm.keep_alive(Value::object(a));
        (Vec::new(), Some(a))
    };
    let len = match array_like {
        Some(a) => length_of_array_like(vm, a)? as usize,
        None => values.len(),
    };
    let target = create_from_constructor(vm, ctor, &[Value::number(len as f64)], Access::Write)?;
    for k in 0..len {
        let v = match array_like {
            Some(a) => get(vm, a, PropertyKey::Index(k as u32), Value::object(a))?,
            None => values.get(k).copied().unwrap_or(Value::UNDEFINED),
        };
        let v = if mapping { call(vm, mapfn, this_arg, &[v, Value::number(k as f64)])? } else { v };
        set(vm, target, PropertyKey::Index(k as u32), v, Value::object(target))?;
    }
    Ok(Value::object(target))
}

/// `%TypedArray%.of` (§23.2.2.2).
fn of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(ctor) = info.this.as_object().filter(|o| is_constructor(vm, *o)) else {
        return Err(vm.type_error("TypedArray.of: this is not a constructor"));
    };
    let items = info.args(vm);
    let target = create_from_constructor(vm, ctor, &[Value::number(items.len() as f64)], Access::Write)?;
    for (k, v) in items.into_iter().enumerate() {
        set(vm, target, PropertyKey::Index(k as u32), v, Value::object(target))?;
    }
    Ok(Value::object(target))
}

/// The receiver's typed array slots, without the bounds check (for the
/// accessors, which report 0 when out of bounds).
fn this_typed_array(vm: &mut Vm, this: Value, name: &str) -> JsResult<TypedArrayData> {
    let ta = this.as_object().and_then(|o| typed_array_data(vm, o));
    ta.ok_or_else(|| vm.type_error(&format!("{name}: this is not a typed array.")))
}

fn buffer_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let ta = this_typed_array(vm, info.this, "get TypedArray.prototype.buffer")?;
    Ok(Value::object(ta.buffer))
}

fn byte_length_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let ta = this_typed_array(vm, info.this, "get TypedArray.prototype.byteLength")?;
    let len = typed_array_length(vm, &ta).unwrap_or(0);
    Ok(Value::number((len * ta.element.size()) as f64))
}

fn byte_offset_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let ta = this_typed_array(vm, info.this, "get TypedArray.prototype.byteOffset")?;
    let offset = if typed_array_length(vm, &ta).is_some() { ta.byte_offset } else { 0 };
    Ok(Value::number(offset as f64))
}

fn length_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let ta = this_typed_array(vm, info.this, "get TypedArray.prototype.length")?;
    Ok(Value::number(typed_array_length(vm, &ta).unwrap_or(0) as f64))
}

fn to_string_tag_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    match info.this.as_object().and_then(|o| typed_array_data(vm, o)) {
        Some(ta) => Ok(vm.string(ta.element.name())),
        None => Ok(Value::UNDEFINED),
    }
}

fn callback(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Value> {
    let f = info.arg(vm, 0);
    if is_callable(vm, f) { Ok(f) } else { Err(vm.type_error(&format!("{name}: callback is not a function"))) }
}

fn at(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, _, len) = validate(vm, info.this, "%TypedArray%.prototype.at")?;
    let rel = to_integer_or_infinity(to_number(vm, info.arg(vm, 0))?);
    let k = if rel >= 0.0 { rel } else { len as f64 + rel };
    if k < 0.0 || k >= len as f64 {
        return Ok(Value::UNDEFINED);
    }
    Ok(get_index(vm, o, k as usize))
}

/// `%TypedArray%.prototype.copyWithin` (§23.2.3.6), byte by byte as the
/// spec describes so overlapping ranges and shrunk buffers behave.
fn copy_within(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.copyWithin";
    let (o, ta, len) = validate_writable(vm, info.this, name)?;
    let to = relative_index(vm, info.arg(vm, 0), len, 0)?;
    let from = relative_index(vm, info.arg(vm, 1), len, 0)?;
    let end = relative_index(vm, info.arg(vm, 2), len, len)?;
    let count = end.saturating_sub(from).min(len - to);
    if count == 0 {
        return Ok(Value::object(o));
    }
    let Some(len) = typed_array_length(vm, &ta) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    };
    // The argument conversions may have shrunk a length-tracking array:
    // copy only what still fits at both ends.
    let count = count.min(len.saturating_sub(from)).min(len.saturating_sub(to));
    if count == 0 {
        return Ok(Value::object(o));
    }
    let size = ta.element.size();
    let limit = len * size + ta.byte_offset;
    let mut to_byte = to * size + ta.byte_offset;
    let mut from_byte = from * size + ta.byte_offset;
    let mut count_bytes = count * size;
    with_buffer_mut(vm, ta.buffer, |d| {
        let Some(bytes) = d.bytes_mut() else { return };
        if from_byte < to_byte && to_byte < from_byte + count_bytes {
            from_byte += count_bytes - 1;
            to_byte += count_bytes - 1;
            while count_bytes > 0 && from_byte < limit && to_byte < limit {
                bytes[to_byte] = bytes[from_byte];
                from_byte = from_byte.wrapping_sub(1);
                to_byte = to_byte.wrapping_sub(1);
                count_bytes -= 1;
            }
        } else {
            while count_bytes > 0 && from_byte < limit && to_byte < limit {
                bytes[to_byte] = bytes[from_byte];
                from_byte += 1;
                to_byte += 1;
                count_bytes -= 1;
            }
        }
    });
    Ok(Value::object(o))
}

fn iterator_method(vm: &mut Vm, info: &CallInfo, kind: IterationKind, name: &str) -> JsResult<Value> {
    let (o, _, _) = validate(vm, info.this, name)?;
    Ok(super::iteration::create_array_iterator(vm, Value::object(o), kind))
}

fn entries(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator_method(vm, info, IterationKind::Entries, "%TypedArray%.prototype.entries")
}

fn keys(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator_method(vm, info, IterationKind::Keys, "%TypedArray%.prototype.keys")
}

fn values(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator_method(vm, info, IterationKind::Values, "%TypedArray%.prototype.values")
}

/// What a callback loop does with each result.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Search {
    Every,
    Some,
    Find,
    FindIndex,
    FindLast,
    FindLastIndex,
    ForEach,
}

fn search(vm: &mut Vm, info: &CallInfo, mode: Search, name: &str) -> JsResult<Value> {
    let (o, _, len) = validate(vm, info.this, name)?;
    let f = callback(vm, info, name)?;
    let this_arg = info.arg(vm, 1);
    let backwards = matches!(mode, Search::FindLast | Search::FindLastIndex);
    for i in 0..len {
        let k = if backwards { len - 1 - i } else { i };
        let v = get_index(vm, o, k);
        let index = Value::number(k as f64);
        if mode == Search::Find || mode == Search::FindLast {
            // `find` returns the (possibly BigInt, heap-allocated) element
            // after the callback ran.
            vm.keep_alive(v);
        }
        let result = call(vm, f, this_arg, &[v, index, Value::object(o)])?;
        let truthy = to_boolean(vm, result);
        match mode {
            Search::Every if !truthy => return Ok(Value::FALSE),
            Search::Some if truthy => return Ok(Value::TRUE),
            Search::Find | Search::FindLast if truthy => return Ok(v),
            Search::FindIndex | Search::FindLastIndex if truthy => return Ok(index),
            _ => {}
        }
    }
    Ok(match mode {
        Search::Every => Value::TRUE,
        Search::Some => Value::FALSE,
        Search::FindIndex | Search::FindLastIndex => Value::number(-1.0),
        Search::Find | Search::FindLast | Search::ForEach => Value::UNDEFINED,
    })
}

fn every(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    search(vm, info, Search::Every, "%TypedArray%.prototype.every")
}

fn some(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    search(vm, info, Search::Some, "%TypedArray%.prototype.some")
}

fn find(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    search(vm, info, Search::Find, "%TypedArray%.prototype.find")
}

fn find_index(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    search(vm, info, Search::FindIndex, "%TypedArray%.prototype.findIndex")
}

fn find_last(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    search(vm, info, Search::FindLast, "%TypedArray%.prototype.findLast")
}

fn find_last_index(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    search(vm, info, Search::FindLastIndex, "%TypedArray%.prototype.findLastIndex")
}

fn for_each(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    search(vm, info, Search::ForEach, "%TypedArray%.prototype.forEach")
}

/// `%TypedArray%.prototype.fill` (§23.2.3.10).
fn fill(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.fill";
    let (o, ta, len) = validate_writable(vm, info.this, name)?;
    let raw = ta.element.coerce(vm, info.arg(vm, 0))?;
    let start = relative_index(vm, info.arg(vm, 1), len, 0)?;
    let end = relative_index(vm, info.arg(vm, 2), len, len)?;
    let Some(len) = typed_array_length(vm, &ta) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    };
    let end = end.min(len);
    if start < end {
        let size = ta.element.size();
        with_buffer_mut(vm, ta.buffer, |d| {
            if let Some(bytes) = d.bytes_mut() {
                let region = &mut bytes[ta.byte_offset + start * size..ta.byte_offset + end * size];
                for chunk in region.chunks_exact_mut(size) {
                    chunk.copy_from_slice(&raw[..size]);
                }
            }
        });
    }
    Ok(Value::object(o))
}

fn filter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.filter";
    let (o, ta, len) = validate(vm, info.this, name)?;
    let f = callback(vm, info, name)?;
    let this_arg = info.arg(vm, 1);
    let mut kept = Vec::new();
    for k in 0..len {
        let v = get_index(vm, o, k);
        // Kept BigInt elements are heap cells held across the callbacks.
        vm.keep_alive(v);
        let result = call(vm, f, this_arg, &[v, Value::number(k as f64), Value::object(o)])?;
        if to_boolean(vm, result) {
            kept.push(v);
        }
    }
    let a = species_create(vm, o, &ta, &[Value::number(kept.len() as f64)], Access::Write)?;
    for (n, v) in kept.into_iter().enumerate() {
        set(vm, a, PropertyKey::Index(n as u32), v, Value::object(a))?;
    }
    Ok(Value::object(a))
}

/// `includes`, `indexOf` and `lastIndexOf`, which differ in direction,
/// equality and whether they skip indices no longer present.
fn index_search(vm: &mut Vm, info: &CallInfo, name: &str, last: bool, includes: bool) -> JsResult<Value> {
    let (o, _, len) = validate(vm, info.this, name)?;
    let not_found = if includes { Value::FALSE } else { Value::number(-1.0) };
    if len == 0 {
        return Ok(not_found);
    }
    let target = info.arg(vm, 0);
    let len_f = len as f64;
    let start = if last {
        let n = if info.argc > 1 { to_integer_or_infinity(to_number(vm, info.arg(vm, 1))?) } else { len_f - 1.0 };
        if n == f64::NEG_INFINITY {
            return Ok(not_found);
        }
        if n >= 0.0 { n.min(len_f - 1.0) } else { len_f + n }
    } else {
        let n = to_integer_or_infinity(to_number(vm, info.arg(vm, 1))?);
        if n == f64::INFINITY {
            return Ok(not_found);
        }
        if n >= 0.0 { n } else { (len_f + n).max(0.0) }
    };
    if start < 0.0 {
        return Ok(not_found);
    }
    let start = start as usize;
    let indices: Box<dyn Iterator<Item = usize>> =
        if last { Box::new((0..=start).rev()) } else { Box::new(start..len) };
    for k in indices {
        let element = typed_array_data(vm, o).and_then(|ta| read(vm, &ta, k));
        let found = match element {
            Some(e) if includes => same_value_zero(vm, e, target),
            Some(e) => is_strictly_equal(vm, e, target),
            None => includes && target.is_undefined(),
        };
        if found {
            return Ok(if includes { Value::TRUE } else { Value::number(k as f64) });
        }
    }
    Ok(not_found)
}

fn includes(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    index_search(vm, info, "%TypedArray%.prototype.includes", false, true)
}

fn index_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    index_search(vm, info, "%TypedArray%.prototype.indexOf", false, false)
}

fn last_index_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    index_search(vm, info, "%TypedArray%.prototype.lastIndexOf", true, false)
}

/// The UTF-16 code units of a string value.
fn units_of(vm: &mut Vm, s: Gc<JsString>) -> Vec<u16> {
    let s = JsString::flatten(&mut vm.heap, s);
    s.borrow(&vm.heap).flat().units().collect()
}

fn join(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, _, len) = validate(vm, info.this, "%TypedArray%.prototype.join")?;
    let sep = info.arg(vm, 0);
    let sep = if sep.is_undefined() {
        vec![u16::from(b',')]
    } else {
        let s = to_string(vm, sep)?;
        units_of(vm, s)
    };
    let mut out: Vec<u16> = Vec::new();
    for k in 0..len {
        if k > 0 {
            out.extend_from_slice(&sep);
        }
        let v = get_index(vm, o, k);
        if let Some(n) = v.as_number() {
            out.extend(number_to_string(n).encode_utf16());
        } else if !v.is_undefined() {
            // A BigInt element: its decimal digits, no `n`.
            let s = to_string(vm, v)?;
            out.extend(units_of(vm, s));
        }
    }
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&out))))
}

fn to_locale_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, _, len) = validate(vm, info.this, "%TypedArray%.prototype.toLocaleString")?;
    let mut out: Vec<u16> = Vec::new();
    let key = vm.key("toLocaleString");
    for k in 0..len {
        if k > 0 {
            out.push(u16::from(b','));
        }
        let v = get_index(vm, o, k);
        if v.is_nullish() {
            continue;
        }
        // A BigInt element is a heap cell; looking up its method may run
        // a getter.
        vm.keep_alive(v);
        let f = get_value(vm, v, key)?;
        let r = call(vm, f, v, &[])?;
        vm.keep_alive(r);
        let s = to_string(vm, r)?;
        out.extend(units_of(vm, s));
    }
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&out))))
}

fn map(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.map";
    let (o, ta, len) = validate(vm, info.this, name)?;
    let f = callback(vm, info, name)?;
    let this_arg = info.arg(vm, 1);
    let a = species_create(vm, o, &ta, &[Value::number(len as f64)], Access::Write)?;
    for k in 0..len {
        let v = get_index(vm, o, k);
        let mapped = call(vm, f, this_arg, &[v, Value::number(k as f64), Value::object(o)])?;
        set(vm, a, PropertyKey::Index(k as u32), mapped, Value::object(a))?;
    }
    Ok(Value::object(a))
}

fn reduce_impl(vm: &mut Vm, info: &CallInfo, right: bool, name: &str) -> JsResult<Value> {
    let (o, _, len) = validate(vm, info.this, name)?;
    let f = callback(vm, info, name)?;
    let mut indices: Box<dyn Iterator<Item = usize>> = if right { Box::new((0..len).rev()) } else { Box::new(0..len) };
    let mut acc = if info.argc > 1 {
        info.arg(vm, 1)
    } else {
        match indices.next() {
            Some(k) => get_index(vm, o, k),
            None => return Err(vm.type_error("Reduce of empty array with no initial value")),
        }
    };
    for k in indices {
        vm.keep_alive(acc);
        let v = get_index(vm, o, k);
        acc = call(vm, f, Value::UNDEFINED, &[acc, v, Value::number(k as f64), Value::object(o)])?;
    }
    Ok(acc)
}

fn reduce(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    reduce_impl(vm, info, false, "%TypedArray%.prototype.reduce")
}

fn reduce_right(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    reduce_impl(vm, info, true, "%TypedArray%.prototype.reduceRight")
}

fn reverse(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, ta, len) = validate_writable(vm, info.this, "%TypedArray%.prototype.reverse")?;
    let size = ta.element.size();
    with_buffer_mut(vm, ta.buffer, |d| {
        if let Some(bytes) = d.bytes_mut() {
            let region = &mut bytes[ta.byte_offset..ta.byte_offset + len * size];
            region.reverse();
            // Reversing the bytes also reversed each element's bytes.
            for chunk in region.chunks_exact_mut(size) {
                chunk.reverse();
            }
        }
    });
    Ok(Value::object(o))
}

/// `%TypedArray%.prototype.set` (§23.2.3.26).
fn set_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.set";
    let target = this_typed_array(vm, info.this, name)?;
    require_mutable(vm, &target, name)?;
    let Some(target_obj) = info.this.as_object() else { return Err(vm.type_error(name)) };
    let source = info.arg(vm, 0);
    let offset = to_integer_or_infinity(to_number(vm, info.arg(vm, 1))?);
    if offset < 0.0 {
        return Err(vm.range_error("offset is out of bounds"));
    }
    let Some(target_len) = typed_array_length(vm, &target) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    };
    if let Some(src) = source.as_object().and_then(|s| typed_array_data(vm, s)) {
        let Some(src_len) = typed_array_length(vm, &src) else {
            return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
        };
        if src.element.is_big_int() != target.element.is_big_int() {
            return Err(content_type_error(vm, src.element, target.element));
        }
        if offset == f64::INFINITY || src_len as f64 + offset > target_len as f64 {
            return Err(vm.range_error("offset is out of bounds"));
        }
        let offset = offset as usize;
        let src_bytes = buffer_data(vm, src.buffer)
            .and_then(|d| d.bytes())
            .map(|b| b[src.byte_offset..src.byte_offset + src_len * src.element.size()].to_vec())
            .unwrap_or_default();
        let t = target.element;
        let out = convert_elements(src_bytes, src.element, t);
        let start = target.byte_offset + offset * t.size();
        with_buffer_mut(vm, target.buffer, |d| {
            if let Some(bytes) = d.bytes_mut() {
                bytes[start..start + out.len()].copy_from_slice(&out);
            }
        });
        return Ok(Value::UNDEFINED);
    }
    let src = to_object(vm, source)?;
    vm.keep_alive(Value::object(src));
    let src_len = length_of_array_like(vm, src)?;
    if offset == f64::INFINITY || src_len + offset > target_len as f64 {
        return Err(vm.range_error("offset is out of bounds"));
    }
    let offset = offset as usize;
    for k in 0..src_len as usize {
        let v = get(vm, src, PropertyKey::Index(k as u32), Value::object(src))?;
        set_index(vm, target_obj, Some(offset + k), v)?;
    }
    Ok(Value::UNDEFINED)
}

/// `%TypedArray%.prototype.slice` (§23.2.3.27).
fn slice(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.slice";
    let (o, ta, len) = validate(vm, info.this, name)?;
    let start = relative_index(vm, info.arg(vm, 0), len, 0)?;
    let end = relative_index(vm, info.arg(vm, 1), len, len)?;
    let count = end.saturating_sub(start);
    let a = species_create(vm, o, &ta, &[Value::number(count as f64)], Access::Write)?;
    if count == 0 {
        return Ok(Value::object(a));
    }
    let Some(len) = typed_array_length(vm, &ta) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    };
    let end = end.min(len);
    let count = end.saturating_sub(start);
    let dst = typed_array_data(vm, a).ok_or_else(|| vm.type_error("typed array expected"))?;
    if dst.element == ta.element {
        // Byte by byte and forwards, as the spec copies: a species
        // constructor may hand back a view on the very same buffer.
        let size = ta.element.size();
        let (src_start, dst_start, n) = (ta.byte_offset + start * size, dst.byte_offset, count * size);
        if dst.buffer == ta.buffer {
            with_buffer_mut(vm, ta.buffer, |d| {
                let Some(bytes) = d.bytes_mut() else { return };
                for i in 0..n {
                    if let Some(&b) = bytes.get(src_start + i)
                        && let Some(slot) = bytes.get_mut(dst_start + i)
                    {
                        *slot = b;
                    }
                }
            });
        } else {
            let chunk = buffer_data(vm, ta.buffer)
                .and_then(|d| d.bytes())
                .and_then(|b| b.get(src_start..src_start + n))
                .map(<[u8]>::to_vec)
                .unwrap_or_default();
            with_buffer_mut(vm, dst.buffer, |d| {
                if let Some(target) = d.bytes_mut().and_then(|b| b.get_mut(dst_start..dst_start + chunk.len())) {
                    target.copy_from_slice(&chunk);
                }
            });
        }
    } else {
        for (n, k) in (start..end).enumerate() {
            let v = get_index(vm, o, k);
            set(vm, a, PropertyKey::Index(n as u32), v, Value::object(a))?;
        }
    }
    Ok(Value::object(a))
}

/// The default typed array order: numeric, `-0` before `+0`, `NaN` last.
fn numeric_order(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(&b).unwrap_or(Ordering::Equal).then_with(|| {
            // Equal numbers differ only for zeros of opposite sign.
            b.is_sign_negative().cmp(&a.is_sign_negative())
        }),
    }
}

/// The order of two little-endian raw elements of type `t` under the
/// default comparison: numeric for Numbers, integer order for BigInts.
fn raw_order(t: ElementType, a: RawElement, b: RawElement) -> Ordering {
    match t {
        ElementType::BigInt64 => i64::from_le_bytes(a).cmp(&i64::from_le_bytes(b)),
        ElementType::BigUint64 => u64::from_le_bytes(a).cmp(&u64::from_le_bytes(b)),
        _ => numeric_order(t.decode(&a, true), t.decode(&b, true)),
    }
}

/// The elements of `o` in sorted order: raw elements under the default
/// comparison (no user code runs, and BigInts need no allocation), or
/// values sorted by a user `comparator`.
enum Sorted {
    Raw(Vec<RawElement>),
    Values(Vec<Value>),
}

/// The elements of `o` sorted by `comparator` (`undefined`: numerically).
fn sorted(vm: &mut Vm, o: Gc<JsObject>, len: usize, comparator: Value) -> JsResult<Sorted> {
    let Some(ta) = typed_array_data(vm, o) else { return Ok(Sorted::Values(Vec::new())) };
    if comparator.is_undefined() {
        let mut raw: Vec<RawElement> = (0..len).filter_map(|k| read_raw(vm, &ta, k)).collect();
        raw.sort_by(|a, b| raw_order(ta.element, *a, *b));
        return Ok(Sorted::Raw(raw));
    }
    let mut items = Vec::with_capacity(len);
    for k in 0..len {
        // A BigInt element is a heap cell the comparator could collect.
        let v = get_index(vm, o, k);
        vm.keep_alive(v);
        items.push(v);
    }
    super::array::merge_sort(vm, &mut items, comparator)?;
    Ok(Sorted::Values(items))
}

/// Stores sorted elements into the typed array `o` from index 0.
fn store_sorted(vm: &mut Vm, o: Gc<JsObject>, items: Sorted) -> JsResult<()> {
    match items {
        Sorted::Raw(raw) => {
            if let Some(ta) = typed_array_data(vm, o) {
                for (k, r) in raw.into_iter().enumerate() {
                    write(vm, &ta, k, r);
                }
            }
        }
        Sorted::Values(values) => {
            for (k, v) in values.into_iter().enumerate() {
                set_index(vm, o, Some(k), v)?;
            }
        }
    }
    Ok(())
}

fn comparator(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Value> {
    let c = info.arg(vm, 0);
    if c.is_undefined() || is_callable(vm, c) {
        Ok(c)
    } else {
        Err(vm.type_error(&format!("{name}: The comparison function must be either a function or undefined")))
    }
}

fn sort(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.sort";
    let c = comparator(vm, info, name)?;
    let (o, _, len) = validate_writable(vm, info.this, name)?;
    let items = sorted(vm, o, len, c)?;
    store_sorted(vm, o, items)?;
    Ok(Value::object(o))
}

fn to_sorted(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.toSorted";
    let c = comparator(vm, info, name)?;
    let (o, ta, len) = validate(vm, info.this, name)?;
    let a = create_same_type(vm, &ta, len)?;
    let items = sorted(vm, o, len, c)?;
    store_sorted(vm, a, items)?;
    Ok(Value::object(a))
}

fn to_reversed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, ta, len) = validate(vm, info.this, "%TypedArray%.prototype.toReversed")?;
    let a = create_same_type(vm, &ta, len)?;
    for k in 0..len {
        let v = get_index(vm, o, len - 1 - k);
        set_index(vm, a, Some(k), v)?;
    }
    Ok(Value::object(a))
}

/// `%TypedArray%.prototype.with` (§23.2.3.36).
fn with(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (o, ta, len) = validate(vm, info.this, "%TypedArray%.prototype.with")?;
    let rel = to_integer_or_infinity(to_number(vm, info.arg(vm, 0))?);
    let actual = if rel >= 0.0 { rel } else { len as f64 + rel };
    let raw = ta.element.coerce(vm, info.arg(vm, 1))?;
    let valid = actual >= 0.0 && typed_array_length(vm, &ta).is_some_and(|l| actual < l as f64);
    if !valid {
        return Err(vm.range_error("Invalid typed array index"));
    }
    let actual = actual as usize;
    let a = create_same_type(vm, &ta, len)?;
    let Some(a_data) = typed_array_data(vm, a) else { return Err(vm.type_error("typed array expected")) };
    for k in 0..len {
        if k == actual {
            write(vm, &a_data, k, raw);
        } else {
            let v = get_index(vm, o, k);
            set_index(vm, a, Some(k), v)?;
        }
    }
    Ok(Value::object(a))
}

/// `%TypedArray%.prototype.subarray` (§23.2.3.30).
fn subarray(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "%TypedArray%.prototype.subarray";
    let ta = this_typed_array(vm, info.this, name)?;
    let Some(o) = info.this.as_object() else { return Err(vm.type_error(name)) };
    let src_len = typed_array_length(vm, &ta).unwrap_or(0);
    let start = relative_index(vm, info.arg(vm, 0), src_len, 0)?;
    let end_arg = info.arg(vm, 1);
    let begin_byte_offset = ta.byte_offset + start * ta.element.size();
    let buffer = Value::object(ta.buffer);
    let offset = Value::number(begin_byte_offset as f64);
    let args = if ta.array_length.is_none() && end_arg.is_undefined() {
        vec![buffer, offset]
    } else {
        let end = relative_index(vm, end_arg, src_len, src_len)?;
        vec![buffer, offset, Value::number(end.saturating_sub(start) as f64)]
    };
    species_create(vm, o, &ta, &args, Access::Read).map(Value::object)
}

/// Installs `%TypedArray%` and the twelve constructors.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.realm.intrinsics.typed_array_prototype = proto;
    let ctor = native_function(vm, "TypedArray", 0, abstract_ctor, true);
    vm.realm.intrinsics.typed_array_constructor = ctor;
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, ctor, proto_key, Value::object(proto), Attributes::NONE);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, proto, ctor_key, Value::object(ctor), Attributes::METHOD);
    method(vm, ctor, "from", 1, from);
    method(vm, ctor, "of", 0, of);
    let species = PropertyKey::Symbol(vm.symbols.species);
    accessor_property(vm, ctor, species, "[Symbol.species]", Some(species_getter), None);

    let getters: [(&str, crate::function::NativeFn); 4] = [
        ("buffer", buffer_getter),
        ("byteLength", byte_length_getter),
        ("byteOffset", byte_offset_getter),
        ("length", length_getter),
    ];
    for (name, f) in getters {
        let key = vm.key(name);
        accessor_property(vm, proto, key, name, Some(f), None);
    }
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    accessor_property(vm, proto, tag, "[Symbol.toStringTag]", Some(to_string_tag_getter), None);
    let methods: [(&str, u32, crate::function::NativeFn); 30] = [
        ("at", 1, at),
        ("copyWithin", 2, copy_within),
        ("entries", 0, entries),
        ("every", 1, every),
        ("fill", 1, fill),
        ("filter", 1, filter),
        ("find", 1, find),
        ("findIndex", 1, find_index),
        ("findLast", 1, find_last),
        ("findLastIndex", 1, find_last_index),
        ("forEach", 1, for_each),
        ("includes", 1, includes),
        ("indexOf", 1, index_of),
        ("join", 1, join),
        ("keys", 0, keys),
        ("lastIndexOf", 1, last_index_of),
        ("map", 1, map),
        ("reduce", 1, reduce),
        ("reduceRight", 1, reduce_right),
        ("reverse", 0, reverse),
        ("set", 1, set_method),
        ("slice", 2, slice),
        ("some", 1, some),
        ("sort", 1, sort),
        ("subarray", 2, subarray),
        ("toLocaleString", 0, to_locale_string),
        ("toReversed", 0, to_reversed),
        ("toSorted", 1, to_sorted),
        ("with", 2, with),
        ("values", 0, values),
    ];
    for (name, length, f) in methods {
        let function = method(vm, proto, name, length, f);
        if name == "values" {
            let iterator = PropertyKey::Symbol(vm.symbols.iterator);
            define_builtin(vm, proto, iterator, Value::object(function), Attributes::METHOD);
        }
    }
    // `toString` is the very function object of `Array.prototype`.
    let to_string_key = PropertyKey::String(vm.names.to_string);
    let array_prototype = vm.realm.intrinsics.array_prototype;
    let array_to_string = array_prototype.borrow(&vm.heap).get_own(&vm.heap, to_string_key).map(|(v, _)| v);
    if let Some(f) = array_to_string {
        define_builtin(vm, proto, to_string_key, f, Attributes::METHOD);
    }

    for t in ElementType::ALL {
        let element_proto = vm.new_object(Some(proto));
        let c = super::constructor(vm, t.name(), 3, constructor_fn(t), element_proto);
        c.borrow_mut(&mut vm.heap).proto = Some(ctor);
        let size = Value::number(t.size() as f64);
        value_property(vm, c, "BYTES_PER_ELEMENT", size, Attributes::NONE);
        value_property(vm, element_proto, "BYTES_PER_ELEMENT", size, Attributes::NONE);
        let i = &mut vm.realm.intrinsics;
        let (ctor_slot, proto_slot) = match t {
            ElementType::Int8 => (&mut i.int8_array, &mut i.int8_array_prototype),
            ElementType::Uint8 => (&mut i.uint8_array, &mut i.uint8_array_prototype),
            ElementType::Uint8Clamped => (&mut i.uint8_clamped_array, &mut i.uint8_clamped_array_prototype),
            ElementType::Int16 => (&mut i.int16_array, &mut i.int16_array_prototype),
            ElementType::Uint16 => (&mut i.uint16_array, &mut i.uint16_array_prototype),
            ElementType::Int32 => (&mut i.int32_array, &mut i.int32_array_prototype),
            ElementType::Uint32 => (&mut i.uint32_array, &mut i.uint32_array_prototype),
            ElementType::Float16 => (&mut i.float16_array, &mut i.float16_array_prototype),
            ElementType::Float32 => (&mut i.float32_array, &mut i.float32_array_prototype),
            ElementType::Float64 => (&mut i.float64_array, &mut i.float64_array_prototype),
            ElementType::BigInt64 => (&mut i.big_int64_array, &mut i.big_int64_array_prototype),
            ElementType::BigUint64 => (&mut i.big_uint64_array, &mut i.big_uint64_array_prototype),
        };
        *ctor_slot = c;
        *proto_slot = element_proto;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored Number wraps modulo 2^bits (ToInt8 … ToUint32, §7.1.6–9).
    #[test]
    fn integer_elements_wrap_modulo() {
        let round_trip = |t: ElementType, n: f64| t.decode(&t.encode(n, true), true);
        assert_eq!(round_trip(ElementType::Int8, 128.0), -128.0);
        assert_eq!(round_trip(ElementType::Int8, -129.0), 127.0);
        assert_eq!(round_trip(ElementType::Int8, 255.9), -1.0);
        assert_eq!(round_trip(ElementType::Uint8, 256.0), 0.0);
        assert_eq!(round_trip(ElementType::Uint8, -1.0), 255.0);
        assert_eq!(round_trip(ElementType::Uint8, f64::NAN), 0.0);
        assert_eq!(round_trip(ElementType::Uint8, f64::INFINITY), 0.0);
        assert_eq!(round_trip(ElementType::Int16, 32768.0), -32768.0);
        assert_eq!(round_trip(ElementType::Uint16, -1.5), 65535.0);
        assert_eq!(round_trip(ElementType::Uint16, 65536.0 + 7.0), 7.0);
        assert_eq!(round_trip(ElementType::Int32, 4_294_967_296.0 + 5.0), 5.0);
        assert_eq!(round_trip(ElementType::Uint32, -1.0), 4_294_967_295.0);
        assert_eq!(round_trip(ElementType::Uint32, 2_147_483_648.5), 2_147_483_648.0);
        assert_eq!(ElementType::Int32.decode(&[1, 2], true), 0.0, "a short slice reads as 0");
    }

    #[test]
    fn uint8_clamp_rounds_half_to_even() {
        assert_eq!(to_uint8_clamp(-5.0), 0);
        assert_eq!(to_uint8_clamp(300.0), 255);
        assert_eq!(to_uint8_clamp(f64::NAN), 0);
        assert_eq!(to_uint8_clamp(0.5), 0);
        assert_eq!(to_uint8_clamp(1.5), 2);
        assert_eq!(to_uint8_clamp(2.5), 2);
        assert_eq!(to_uint8_clamp(2.500_001), 3);
        assert_eq!(to_uint8_clamp(254.5), 254);
        assert_eq!(to_uint8_clamp(f64::INFINITY), 255);
    }

    #[test]
    fn float32_rounds_to_nearest_even() {
        let raw = ElementType::Float32.encode(1.1, true);
        assert_eq!(ElementType::Float32.decode(&raw, true), f64::from(1.1_f32));
        // 1 + 2^-24 is exactly halfway between 1 and the next float32: ties to even.
        let halfway = 1.0 + f64::powi(2.0, -24);
        let raw = ElementType::Float32.encode(halfway, true);
        assert_eq!(ElementType::Float32.decode(&raw, true), 1.0);
        let raw = ElementType::Float32.encode(1e40, true);
        assert_eq!(ElementType::Float32.decode(&raw, true), f64::INFINITY);
        let raw = ElementType::Float32.encode(f64::NAN, true);
        assert!(ElementType::Float32.decode(&raw, true).is_nan());
    }

    #[test]
    fn endianness() {
        let le = ElementType::Uint32.encode(f64::from(0x0102_0304), true);
        assert_eq!(&le[..4], &[4, 3, 2, 1]);
        let be = ElementType::Uint32.encode(f64::from(0x0102_0304), false);
        assert_eq!(&be[..4], &[1, 2, 3, 4]);
        assert_eq!(ElementType::Int16.decode(&[0xff, 0x7f], true), 32767.0);
        assert_eq!(ElementType::Int16.decode(&[0xff, 0x7f], false), -129.0);
        let be = ElementType::Float64.encode(1.0, false);
        assert_eq!(&be[..8], &[0x3f, 0xf0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(ElementType::Float64.decode(&be, false), 1.0);
    }

    #[test]
    fn big_int_elements_order_as_integers() {
        let (neg, big) = ((-3_i64).to_le_bytes(), (1_i64 << 62).to_le_bytes());
        assert_eq!(raw_order(ElementType::BigInt64, neg, big), Ordering::Less);
        // The same bits read unsigned: 2^64 - 3 is the larger.
        assert_eq!(raw_order(ElementType::BigUint64, neg, big), Ordering::Greater);
        assert_eq!(raw_order(ElementType::BigUint64, big, big), Ordering::Equal);
        assert!(ElementType::BigInt64.is_big_int() && !ElementType::Float64.is_big_int());
        assert_eq!(ElementType::BigUint64.size(), 8);
    }

    #[test]
    fn bits_copy_between_big_int_types() {
        let bytes = (-1_i64).to_le_bytes().to_vec();
        assert_eq!(convert_elements(bytes.clone(), ElementType::BigInt64, ElementType::BigUint64), bytes);
        assert_eq!(wrap_u64(-1.0), u64::MAX);
        assert_eq!(wrap_u64(f64::NAN), 0);
        assert_eq!(wrap_u64(18_446_744_073_709_551_616.0 + 4096.0), 4096);
    }

    #[test]
    fn default_sort_order() {
        let mut v = [3.0, f64::NAN, -0.0, 0.0, -1.0, f64::INFINITY];
        v.sort_by(|a, b| numeric_order(*a, *b));
        assert_eq!(v[0], -1.0);
        assert!(v[1] == 0.0 && v[1].is_sign_negative());
        assert!(v[2] == 0.0 && v[2].is_sign_positive());
        assert_eq!(v[3], 3.0);
        assert_eq!(v[4], f64::INFINITY);
        assert!(v[5].is_nan());
    }
}
