//! ArrayBuffer (§25.1) and SharedArrayBuffer (§25.2).
//!
//! Both are one object kind holding a [`BufferData`]: the bytes live in a
//! `Vec<u8>` owned by the buffer object, and views (typed arrays, data
//! views) reach them through their `Gc` pointer to the buffer, so resizing
//! or detaching the buffer is seen by every view at its next access.
//! A SharedArrayBuffer's bytes are instead a [`SharedBlock`], which other
//! VMs (agents on other threads) may hold too: it never moves, never
//! shrinks and is never detached.

use std::sync::Arc;

use js_gc::{Gc, GcAny, Trace, Tracer};

use super::shared_memory::{SharedArrayBufferBlock, SharedBlock};
use super::{accessor_property, constructor, method};
use crate::abstract_ops::{species_constructor, to_integer_or_infinity, to_number};
use crate::host::console::{InspectHook, Inspection, uint8_contents};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{construct, define_builtin, get};
use crate::object::{Attributes, DataClass, JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The largest buffer the engine makes. Typed array indices are `u32`
/// property keys, and refusing absurd sizes up front turns them into the
/// `RangeError` the spec allows instead of an allocation failure.
pub const MAX_BYTE_LENGTH: usize = (1 << 32) - 2;

/// The internal slots of an ArrayBuffer or SharedArrayBuffer.
pub struct BufferData {
    /// `[[ArrayBufferData]]` of an ArrayBuffer; `None` once detached (and
    /// for a SharedArrayBuffer).
    bytes: Option<Vec<u8>>,
    /// `[[ArrayBufferData]]` of a SharedArrayBuffer.
    block: Option<Arc<SharedBlock>>,
    /// `[[ArrayBufferMaxByteLength]]`: `Some` for resizable (growable)
    /// buffers.
    max_byte_length: Option<usize>,
    /// `[[ArrayBufferIsImmutable]]` (the Immutable ArrayBuffer proposal):
    /// the bytes can be read but never written, resized or detached.
    immutable: bool,
}

impl BufferData {
    /// The bytes, or `None` if detached.
    pub fn bytes(&self) -> Option<&[u8]> {
        if let Some(block) = &self.block {
            // SAFETY: the block is valid for its current length and lives
            // while `self` holds it. Other agents may write it meanwhile:
            // unordered accesses to shared memory may race (see
            // `shared_memory`).
            return Some(unsafe { std::slice::from_raw_parts(block.as_ptr(), block.len()) });
        }
        self.bytes.as_deref()
    }

    /// The bytes for writing, or `None` if detached.
    pub fn bytes_mut(&mut self) -> Option<&mut [u8]> {
        if let Some(block) = &self.block {
            // SAFETY: as in `bytes`; within this VM, `&mut self` makes the
            // borrow exclusive.
            return Some(unsafe { std::slice::from_raw_parts_mut(block.as_ptr(), block.len()) });
        }
        self.bytes.as_deref_mut()
    }

    /// The Shared Data Block of a SharedArrayBuffer.
    pub(crate) fn shared_block(&self) -> Option<&Arc<SharedBlock>> {
        self.block.as_ref()
    }

    /// `[[ArrayBufferMaxByteLength]]`: `Some` for a resizable (growable)
    /// buffer.
    pub fn max_byte_length(&self) -> Option<usize> {
        self.max_byte_length
    }

    /// `ArrayBufferByteLength` (0 once detached).
    pub fn byte_length(&self) -> usize {
        match &self.block {
            Some(block) => block.len(),
            None => self.bytes.as_ref().map_or(0, Vec::len),
        }
    }

    /// `IsDetachedBuffer`.
    pub fn is_detached(&self) -> bool {
        self.bytes.is_none() && self.block.is_none()
    }

    /// `IsFixedLengthArrayBuffer`.
    pub fn is_fixed_length(&self) -> bool {
        self.max_byte_length.is_none()
    }

    /// `IsSharedArrayBuffer`.
    pub fn is_shared(&self) -> bool {
        self.block.is_some()
    }

    /// `IsImmutableBuffer`.
    pub fn is_immutable(&self) -> bool {
        self.immutable
    }
}

/// A zeroed byte block, or a `RangeError` when it cannot be had
/// (`CreateByteDataBlock`).
fn create_byte_block(vm: &mut Vm, len: usize) -> JsResult<Vec<u8>> {
    if len > MAX_BYTE_LENGTH {
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    let mut bytes = Vec::new();
    if bytes.try_reserve_exact(len).is_err() {
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    bytes.resize(len, 0);
    Ok(bytes)
}

/// `ToIndex` (§7.1.22): a `RangeError` outside `0..=2^53 - 1`.
pub fn to_index(vm: &mut Vm, v: Value) -> JsResult<usize> {
    if v.is_undefined() {
        return Ok(0);
    }
    let n = to_integer_or_infinity(to_number(vm, v)?);
    if !(0.0..=9_007_199_254_740_991.0).contains(&n) {
        return Err(vm.range_error("Invalid index: out of range"));
    }
    // Values past usize on 32-bit hosts saturate, which every caller then
    // rejects as too large.
    Ok(n as usize)
}

// SAFETY: buffer data holds bytes only, no heap pointers.
unsafe impl Trace for BufferData {
    const NEEDS_TRACE: bool = false;

    fn trace(&self, _: &mut Tracer) {}

    fn type_name() -> &'static str {
        "ArrayBufferData"
    }
}

/// An ArrayBuffer or SharedArrayBuffer: its slots are a [`BufferData`]
/// cell.
pub(crate) static ARRAY_BUFFER: DataClass = DataClass {
    name: "ArrayBuffer",
    cell: DataClass::cell_type::<BufferData>(),
    exotic: None,
    inspect: Some(&(inspect_buffer as InspectHook)),
};

/// Node shows a buffer's bytes, then its `byteLength`.
fn inspect_buffer(vm: &Vm, cell: GcAny) -> Inspection {
    let bytes = cell.downcast::<BufferData>().and_then(|data| data.borrow(&vm.heap).bytes());
    Inspection::Binary { contents: Some(uint8_contents(bytes)), accessors: &["byteLength"] }
}

/// The buffer cell of `o`, if it is an ArrayBuffer or SharedArrayBuffer.
#[inline]
fn buffer_cell(heap: &js_gc::Heap, o: Gc<JsObject>) -> Option<Gc<BufferData>> {
    o.borrow(heap).data_of(&ARRAY_BUFFER)
}

/// The buffer data of `o`, if it is an ArrayBuffer or SharedArrayBuffer.
#[inline]
pub fn buffer_data(vm: &Vm, o: Gc<JsObject>) -> Option<&BufferData> {
    buffer_cell(&vm.heap, o).map(|cell| cell.borrow(&vm.heap))
}

/// Whether `o` is an ArrayBuffer or SharedArrayBuffer.
pub(crate) fn is_array_buffer(vm: &Vm, o: Gc<JsObject>) -> bool {
    o.borrow(&vm.heap).is_data(&ARRAY_BUFFER)
}

/// Runs `f` on the mutable buffer data of `o`.
#[inline]
pub fn with_buffer_mut<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut BufferData) -> R) -> Option<R> {
    let cell = buffer_cell(&vm.heap, o)?;
    Some(f(cell.borrow_mut(&mut vm.heap)))
}

/// `AllocateArrayBuffer` / `AllocateSharedArrayBuffer` with a prototype
/// already chosen.
pub fn allocate_buffer(
    vm: &mut Vm,
    proto: Gc<JsObject>,
    byte_length: usize,
    max_byte_length: Option<usize>,
    shared: bool,
) -> JsResult<Gc<JsObject>> {
    if max_byte_length.is_some_and(|max| max > MAX_BYTE_LENGTH) {
        return Err(vm.range_error("Invalid array buffer max length"));
    }
    if shared {
        // `CreateSharedByteDataBlock`, with room for the maximum length
        // so the bytes never move.
        let block = if byte_length > MAX_BYTE_LENGTH { None } else { SharedBlock::new(byte_length, max_byte_length) };
        let Some(block) = block else {
            return Err(vm.range_error("Array buffer allocation failed"));
        };
        return Ok(new_shared_array_buffer(vm, proto, Arc::new(block)));
    }
    let bytes = create_byte_block(vm, byte_length)?;
    let data = BufferData { bytes: Some(bytes), block: None, max_byte_length, immutable: false };
    Ok(vm.new_object_with_data(Some(proto), &ARRAY_BUFFER, data))
}

/// A SharedArrayBuffer object of this VM over `block`.
fn new_shared_array_buffer(vm: &mut Vm, proto: Gc<JsObject>, block: Arc<SharedBlock>) -> Gc<JsObject> {
    let max_byte_length = block.max_byte_length();
    let data = BufferData { bytes: None, block: Some(block), max_byte_length, immutable: false };
    vm.new_object_with_data(Some(proto), &ARRAY_BUFFER, data)
}

/// The block of the SharedArrayBuffer `o`, to share with another VM.
pub(crate) fn shared_array_buffer_block(vm: &Vm, o: Gc<JsObject>) -> Option<SharedArrayBufferBlock> {
    buffer_data(vm, o).and_then(BufferData::shared_block).map(|b| SharedArrayBufferBlock(Arc::clone(b)))
}

/// A `%SharedArrayBuffer%` of the current realm over another VM's block.
pub(crate) fn shared_array_buffer_from(vm: &mut Vm, block: &SharedArrayBufferBlock) -> Gc<JsObject> {
    let proto = vm.realm.intrinsics.shared_array_buffer_prototype;
    new_shared_array_buffer(vm, proto, Arc::clone(&block.0))
}

/// A fixed-length `%ArrayBuffer%` of `byte_length` zero bytes.
pub fn new_array_buffer(vm: &mut Vm, byte_length: usize) -> JsResult<Gc<JsObject>> {
    let proto = vm.realm.intrinsics.array_buffer_prototype;
    allocate_buffer(vm, proto, byte_length, None, false)
}

/// A fixed-length `%ArrayBuffer%` holding `bytes` (taken, not copied), or
/// a `RangeError` past the engine's largest buffer.
pub fn new_array_buffer_from_bytes(vm: &mut Vm, bytes: Vec<u8>) -> JsResult<Gc<JsObject>> {
    if bytes.len() > MAX_BYTE_LENGTH {
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    let proto = vm.realm.intrinsics.array_buffer_prototype;
    let data = BufferData { bytes: Some(bytes), block: None, max_byte_length: None, immutable: false };
    Ok(vm.new_object_with_data(Some(proto), &ARRAY_BUFFER, data))
}

/// Runs `f` on the bytes of `buffer` for writing together with the heap
/// for reading (to copy from other cells, such as strings, straight into
/// the buffer). The bytes are moved out of the cell meanwhile; `f` cannot
/// run JavaScript, so nothing observes the buffer in between. `None` if
/// `buffer` is not a buffer or is detached.
pub fn with_bytes_and_heap<R>(
    vm: &mut Vm,
    buffer: Gc<JsObject>,
    f: impl FnOnce(&js_gc::Heap, &mut [u8]) -> R,
) -> Option<R> {
    if let Some(block) = buffer_data(vm, buffer)?.shared_block().map(Arc::clone) {
        // SAFETY: as in `BufferData::bytes_mut`; the clone of the `Arc`
        // keeps the block alive while `f` runs.
        let bytes = unsafe { std::slice::from_raw_parts_mut(block.as_ptr(), block.len()) };
        return Some(f(&vm.heap, bytes));
    }
    let mut bytes = with_buffer_mut(vm, buffer, |d| d.bytes.take())??;
    let result = f(&vm.heap, &mut bytes);
    with_buffer_mut(vm, buffer, |d| d.bytes = Some(bytes));
    Some(result)
}

/// `IsImmutableBuffer` of any object (false for non-buffers).
pub fn is_immutable_buffer(vm: &Vm, buffer: Gc<JsObject>) -> bool {
    buffer_data(vm, buffer).is_some_and(BufferData::is_immutable)
}

/// `DetachArrayBuffer` (§25.1.3.5). Shared and immutable buffers cannot
/// be detached.
pub fn detach(vm: &mut Vm, buffer: Gc<JsObject>) -> JsResult<()> {
    let ok = with_buffer_mut(vm, buffer, |d| {
        if d.is_shared() || d.immutable {
            return false;
        }
        d.bytes = None;
        true
    });
    if ok == Some(true) { Ok(()) } else { Err(vm.type_error("Cannot detach this buffer")) }
}

/// `ArrayBufferCopyAndDetach(buffer, undefined, preserve-resizability)`
/// for an embedder (the Streams spec's `TransferArrayBuffer`): a new
/// `%ArrayBuffer%` takes the bytes (moved, not copied) and `buffer` is
/// detached. A `TypeError` for a buffer that is detached, shared or
/// immutable.
pub fn transfer_array_buffer(vm: &mut Vm, buffer: Gc<JsObject>) -> JsResult<Gc<JsObject>> {
    let taken = with_buffer_mut(vm, buffer, |d| {
        if d.is_shared() || d.immutable {
            return None;
        }
        d.bytes.take().map(|bytes| (bytes, d.max_byte_length))
    });
    let Some(Some((bytes, max_byte_length))) = taken else {
        return Err(vm.type_error("Cannot transfer this ArrayBuffer"));
    };
    let proto = vm.realm.intrinsics.array_buffer_prototype;
    let data = BufferData { bytes: Some(bytes), block: None, max_byte_length, immutable: false };
    Ok(vm.new_object_with_data(Some(proto), &ARRAY_BUFFER, data))
}

/// `CopyDataBlockBytes` between two buffers (or within one): `count`
/// bytes from `from[from_index..]` to `to[to_index..]`. Ranges out of
/// bounds of either buffer (or a detached buffer) copy nothing.
pub fn copy_buffer_bytes(
    vm: &mut Vm,
    to: Gc<JsObject>,
    to_index: usize,
    from: Gc<JsObject>,
    from_index: usize,
    count: usize,
) {
    if to == from {
        with_buffer_mut(vm, to, |d| {
            if let Some(bytes) = d.bytes_mut()
                && from_index.checked_add(count).is_some_and(|end| end <= bytes.len())
                && to_index.checked_add(count).is_some_and(|end| end <= bytes.len())
            {
                bytes.copy_within(from_index..from_index + count, to_index);
            }
        });
        return;
    }
    with_bytes_and_heap(vm, to, |heap, dest| {
        let Some(source) = buffer_cell(heap, from) else { return };
        let Some(source) = source.borrow(heap).bytes() else { return };
        let (Some(from_end), Some(to_end)) = (from_index.checked_add(count), to_index.checked_add(count)) else {
            return;
        };
        if let (Some(src), Some(dst)) = (source.get(from_index..from_end), dest.get_mut(to_index..to_end)) {
            dst.copy_from_slice(src);
        }
    });
}

/// `GetArrayBufferMaxByteLengthOption` (§25.1.3.7).
fn max_byte_length_option(vm: &mut Vm, options: Value) -> JsResult<Option<usize>> {
    let Some(o) = options.as_object() else { return Ok(None) };
    let key = vm.key("maxByteLength");
    let max = get(vm, o, key, options)?;
    if max.is_undefined() {
        return Ok(None);
    }
    to_index(vm, max).map(Some)
}

/// The shared ArrayBuffer / SharedArrayBuffer constructor body.
fn construct_buffer(vm: &mut Vm, info: &CallInfo, shared: bool) -> JsResult<Value> {
    let name = if shared { "SharedArrayBuffer" } else { "ArrayBuffer" };
    let Some(nt) = info.new_target else {
        return Err(vm.type_error(&format!("Constructor {name} requires 'new'")));
    };
    let byte_length = to_index(vm, info.arg(vm, 0))?;
    let max = max_byte_length_option(vm, info.arg(vm, 1))?;
    if max.is_some_and(|max| byte_length > max) {
        return Err(vm.range_error("Invalid array buffer length: larger than maxByteLength"));
    }
    let proto = if shared {
        prototype_from_constructor(vm, nt, |i| i.shared_array_buffer_prototype)?
    } else {
        prototype_from_constructor(vm, nt, |i| i.array_buffer_prototype)?
    };
    allocate_buffer(vm, proto, byte_length, max, shared).map(Value::object)
}

fn array_buffer_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    construct_buffer(vm, info, false)
}

fn shared_array_buffer_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    construct_buffer(vm, info, true)
}

/// The receiver as a buffer of the wanted sharedness, or a `TypeError`.
fn this_buffer(vm: &mut Vm, this: Value, shared: bool, name: &str) -> JsResult<Gc<JsObject>> {
    let ok = this.as_object().filter(|o| buffer_data(vm, *o).is_some_and(|d| d.is_shared() == shared));
    ok.ok_or_else(|| vm.type_error(&format!("Method {name} called on incompatible receiver")))
}

fn is_view(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let arg = info.arg(vm, 0);
    let view = arg
        .as_object()
        .is_some_and(|o| super::typed_array::is_typed_array(vm, o) || super::data_view::is_data_view(vm, o));
    Ok(Value::boolean(view))
}

fn species_getter(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

fn byte_length(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, false, "ArrayBuffer.prototype.byteLength")?;
    Ok(Value::number(buffer_data(vm, o).map_or(0, BufferData::byte_length) as f64))
}

fn shared_byte_length(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, true, "SharedArrayBuffer.prototype.byteLength")?;
    Ok(Value::number(buffer_data(vm, o).map_or(0, BufferData::byte_length) as f64))
}

fn max_byte_length_of(vm: &Vm, o: Gc<JsObject>) -> Value {
    let n = buffer_data(vm, o).map_or(0, |d| match (d.is_detached(), d.max_byte_length) {
        (true, _) => 0,
        (false, Some(max)) => max,
        (false, None) => d.byte_length(),
    });
    Value::number(n as f64)
}

fn max_byte_length(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, false, "ArrayBuffer.prototype.maxByteLength")?;
    Ok(max_byte_length_of(vm, o))
}

fn shared_max_byte_length(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, true, "SharedArrayBuffer.prototype.maxByteLength")?;
    Ok(max_byte_length_of(vm, o))
}

fn resizable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, false, "ArrayBuffer.prototype.resizable")?;
    Ok(Value::boolean(buffer_data(vm, o).is_some_and(|d| !d.is_fixed_length())))
}

fn growable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, true, "SharedArrayBuffer.prototype.growable")?;
    Ok(Value::boolean(buffer_data(vm, o).is_some_and(|d| !d.is_fixed_length())))
}

fn detached(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, false, "ArrayBuffer.prototype.detached")?;
    Ok(Value::boolean(buffer_data(vm, o).is_some_and(BufferData::is_detached)))
}

/// `ArrayBuffer.prototype.resize` (§25.1.6.6).
fn resize(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "ArrayBuffer.prototype.resize";
    let o = this_buffer(vm, info.this, false, name)?;
    if buffer_data(vm, o).is_some_and(BufferData::is_fixed_length) {
        return Err(vm.type_error(&format!("Method {name} called on a fixed-length buffer")));
    }
    let new_length = to_index(vm, info.arg(vm, 0))?;
    let data = buffer_data(vm, o);
    if data.is_some_and(BufferData::is_detached) {
        return Err(vm.type_error("Cannot resize a detached ArrayBuffer"));
    }
    if data.and_then(|d| d.max_byte_length).is_some_and(|max| new_length > max) {
        return Err(vm.range_error("ArrayBuffer.prototype.resize: Invalid length parameter"));
    }
    with_buffer_mut(vm, o, |d| {
        if let Some(bytes) = &mut d.bytes {
            bytes.resize(new_length, 0);
        }
    });
    Ok(Value::UNDEFINED)
}

/// `SharedArrayBuffer.prototype.grow` (§25.2.5.3).
fn grow(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "SharedArrayBuffer.prototype.grow";
    let o = this_buffer(vm, info.this, true, name)?;
    if buffer_data(vm, o).is_some_and(BufferData::is_fixed_length) {
        return Err(vm.type_error(&format!("Method {name} called on a non-growable buffer")));
    }
    let new_length = to_index(vm, info.arg(vm, 0))?;
    let grown = buffer_data(vm, o).and_then(BufferData::shared_block).is_some_and(|b| b.grow(new_length));
    if !grown {
        return Err(vm.range_error("SharedArrayBuffer.prototype.grow: Invalid length parameter"));
    }
    Ok(Value::UNDEFINED)
}

/// `RelativeIndex` clamping of §23.1.3 / §25.1.6: `ToIntegerOrInfinity`,
/// negative counts from `len`, clamped to `0..=len`.
pub(crate) fn relative_index(vm: &mut Vm, v: Value, len: usize, default: usize) -> JsResult<usize> {
    if v.is_undefined() {
        return Ok(default);
    }
    let n = to_integer_or_infinity(to_number(vm, v)?);
    let len_f = len as f64;
    Ok(if n < 0.0 { (len_f + n).max(0.0) as usize } else { n.min(len_f) as usize })
}

/// `ArrayBuffer.prototype.slice` and `SharedArrayBuffer.prototype.slice`
/// (§25.1.6.7, §25.2.5.6).
fn slice_buffer(vm: &mut Vm, info: &CallInfo, shared: bool) -> JsResult<Value> {
    let name = if shared { "SharedArrayBuffer.prototype.slice" } else { "ArrayBuffer.prototype.slice" };
    let o = this_buffer(vm, info.this, shared, name)?;
    if buffer_data(vm, o).is_some_and(BufferData::is_detached) {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    }
    let len = buffer_data(vm, o).map_or(0, BufferData::byte_length);
    let first = relative_index(vm, info.arg(vm, 0), len, 0)?;
    let end = relative_index(vm, info.arg(vm, 1), len, len)?;
    let new_len = end.saturating_sub(first);
    let default = if shared {
        vm.realm.intrinsics.shared_array_buffer_constructor
    } else {
        vm.realm.intrinsics.array_buffer_constructor
    };
    let ctor = species_constructor(vm, o, default)?;
    let new = construct(vm, ctor, &[Value::number(new_len as f64)], None)?;
    let Some(new_obj) = new.as_object().filter(|n| buffer_data(vm, *n).is_some_and(|d| d.is_shared() == shared)) else {
        return Err(vm.type_error(&format!("{name}: species constructor did not return a buffer")));
    };
    if buffer_data(vm, new_obj).is_some_and(BufferData::is_detached) {
        return Err(vm.type_error(&format!("{name}: species constructor returned a detached buffer")));
    }
    if is_immutable_buffer(vm, new_obj) {
        return Err(vm.type_error(&format!("{name}: species constructor returned an immutable buffer")));
    }
    if new_obj == o {
        return Err(vm.type_error(&format!("{name}: species constructor returned the same buffer")));
    }
    if buffer_data(vm, new_obj).map_or(0, BufferData::byte_length) < new_len {
        return Err(vm.type_error(&format!("{name}: species constructor returned a buffer too small")));
    }
    // The species constructor ran user code, which may have detached or
    // shrunk the source.
    let Some(source) = buffer_data(vm, o).and_then(BufferData::bytes) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    };
    let count = if first < source.len() { new_len.min(source.len() - first) } else { 0 };
    let chunk = source[first..first + count].to_vec();
    with_buffer_mut(vm, new_obj, |d| {
        if let Some(bytes) = d.bytes_mut() {
            bytes[..count].copy_from_slice(&chunk);
        }
    });
    Ok(new)
}

fn slice(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    slice_buffer(vm, info, false)
}

fn shared_slice(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    slice_buffer(vm, info, true)
}

/// What `ArrayBufferCopyAndDetach` makes of the new buffer's resizability.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Preserve {
    /// `preserve-resizability` (`transfer`).
    Resizability,
    /// `fixed-length` (`transferToFixedLength`).
    FixedLength,
    /// `immutable` (`transferToImmutable`).
    Immutable,
}

/// `ArrayBufferCopyAndDetach` (§25.1.3.3): the bytes move to a new buffer
/// rather than being copied.
fn copy_and_detach(vm: &mut Vm, info: &CallInfo, preserve: Preserve, name: &str) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, false, name)?;
    let new_length = info.arg(vm, 0);
    let new_byte_length = if new_length.is_undefined() {
        buffer_data(vm, o).map_or(0, BufferData::byte_length)
    } else {
        to_index(vm, new_length)?
    };
    let Some(data) = buffer_data(vm, o).filter(|d| !d.is_detached()) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    };
    if data.is_immutable() {
        return Err(vm.type_error(&format!("Cannot perform {name} on an immutable ArrayBuffer")));
    }
    let max = if preserve == Preserve::Resizability { data.max_byte_length } else { None };
    if max.is_some_and(|max| new_byte_length > max) {
        return Err(vm.range_error(&format!("{name}: Invalid length parameter")));
    }
    if new_byte_length > MAX_BYTE_LENGTH {
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    let mut bytes = with_buffer_mut(vm, o, |d| d.bytes.take()).flatten().unwrap_or_default();
    if new_byte_length > bytes.len() && bytes.try_reserve_exact(new_byte_length - bytes.len()).is_err() {
        with_buffer_mut(vm, o, |d| d.bytes = Some(bytes));
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    bytes.resize(new_byte_length, 0);
    if max.is_none() {
        bytes.shrink_to_fit();
    }
    let proto = vm.realm.intrinsics.array_buffer_prototype;
    let immutable = preserve == Preserve::Immutable;
    let data = BufferData { bytes: Some(bytes), block: None, max_byte_length: max, immutable };
    Ok(Value::object(vm.new_object_with_data(Some(proto), &ARRAY_BUFFER, data)))
}

fn transfer(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    copy_and_detach(vm, info, Preserve::Resizability, "ArrayBuffer.prototype.transfer")
}

fn transfer_to_fixed_length(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    copy_and_detach(vm, info, Preserve::FixedLength, "ArrayBuffer.prototype.transferToFixedLength")
}

fn transfer_to_immutable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    copy_and_detach(vm, info, Preserve::Immutable, "ArrayBuffer.prototype.transferToImmutable")
}

/// `ArrayBuffer.prototype.sliceToImmutable` (Immutable ArrayBuffer
/// proposal): a copy of a byte range as a new immutable buffer. The bounds
/// resolve against the length before argument coercion, which may shrink
/// the buffer; a range that no longer fits is a `RangeError`.
fn slice_to_immutable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "ArrayBuffer.prototype.sliceToImmutable";
    let o = this_buffer(vm, info.this, false, name)?;
    if buffer_data(vm, o).is_some_and(BufferData::is_detached) {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    }
    let len = buffer_data(vm, o).map_or(0, BufferData::byte_length);
    let first = relative_index(vm, info.arg(vm, 0), len, 0)?;
    let end = relative_index(vm, info.arg(vm, 1), len, len)?;
    let new_len = end.saturating_sub(first);
    let Some(source) = buffer_data(vm, o).and_then(BufferData::bytes) else {
        return Err(vm.type_error(&format!("Cannot perform {name} on a detached ArrayBuffer")));
    };
    if first + new_len > source.len() {
        return Err(vm.range_error(&format!("{name}: the buffer shrank below the requested range")));
    }
    let bytes = source[first..first + new_len].to_vec();
    let proto = vm.realm.intrinsics.array_buffer_prototype;
    let data = BufferData { bytes: Some(bytes), block: None, max_byte_length: None, immutable: true };
    Ok(Value::object(vm.new_object_with_data(Some(proto), &ARRAY_BUFFER, data)))
}

fn immutable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_buffer(vm, info.this, false, "ArrayBuffer.prototype.immutable")?;
    Ok(Value::boolean(is_immutable_buffer(vm, o)))
}

/// Installs ArrayBuffer and SharedArrayBuffer.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let species = PropertyKey::Symbol(vm.symbols.species);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);

    let proto = vm.new_object(Some(object_prototype));
    vm.realm.intrinsics.array_buffer_prototype = proto;
    let ctor = constructor(vm, "ArrayBuffer", 1, array_buffer_ctor, proto);
    vm.realm.intrinsics.array_buffer_constructor = ctor;
    method(vm, ctor, "isView", 1, is_view);
    accessor_property(vm, ctor, species, "[Symbol.species]", Some(species_getter), None);
    let getters: [(&str, crate::function::NativeFn); 5] = [
        ("byteLength", byte_length),
        ("maxByteLength", max_byte_length),
        ("resizable", resizable),
        ("detached", detached),
        ("immutable", immutable),
    ];
    for (name, f) in getters {
        let key = vm.key(name);
        accessor_property(vm, proto, key, name, Some(f), None);
    }
    method(vm, proto, "resize", 1, resize);
    method(vm, proto, "slice", 2, slice);
    method(vm, proto, "transfer", 0, transfer);
    method(vm, proto, "transferToFixedLength", 0, transfer_to_fixed_length);
    method(vm, proto, "transferToImmutable", 0, transfer_to_immutable);
    method(vm, proto, "sliceToImmutable", 2, slice_to_immutable);
    let name = vm.string("ArrayBuffer");
    define_builtin(vm, proto, tag, name, Attributes::CONFIGURABLE_ONLY);

    let proto = vm.new_object(Some(object_prototype));
    vm.realm.intrinsics.shared_array_buffer_prototype = proto;
    let ctor = constructor(vm, "SharedArrayBuffer", 1, shared_array_buffer_ctor, proto);
    vm.realm.intrinsics.shared_array_buffer_constructor = ctor;
    accessor_property(vm, ctor, species, "[Symbol.species]", Some(species_getter), None);
    let getters: [(&str, crate::function::NativeFn); 3] =
        [("byteLength", shared_byte_length), ("growable", growable), ("maxByteLength", shared_max_byte_length)];
    for (name, f) in getters {
        let key = vm.key(name);
        accessor_property(vm, proto, key, name, Some(f), None);
    }
    method(vm, proto, "grow", 1, grow);
    method(vm, proto, "slice", 2, shared_slice);
    let name = vm.string("SharedArrayBuffer");
    define_builtin(vm, proto, tag, name, Attributes::CONFIGURABLE_ONLY);
}
