//! The Atomics namespace (§25.4).
//!
//! The engine runs one agent on one thread, so every operation is atomic
//! by construction: each reads and writes the buffer with no user code in
//! between. That agent cannot block (`[[CanBlock]]` is false, as on a
//! browser's main thread), so `Atomics.wait` throws; with no other agent
//! nothing can ever be waiting, so `Atomics.notify` wakes nobody.

use js_gc::Gc;

use super::array_buffer::{BufferData, buffer_data, is_immutable_buffer, to_index, with_buffer_mut};
use super::typed_array::{ElementType, RawElement, TypedArrayData, typed_array_length, validate};
use super::{method, value_property};
use crate::abstract_ops::{to_big_int, to_integer_or_infinity, to_number};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `ValidateIntegerTypedArray` (§25.4.3.1): the typed array and its
/// slots, when its elements are integers an atomic operation may touch.
fn validate_integer_typed_array(
    vm: &mut Vm,
    v: Value,
    waitable: bool,
    name: &str,
) -> JsResult<(Gc<JsObject>, TypedArrayData)> {
    let (o, ta, _) = validate(vm, v, name)?;
    let ok = if waitable {
        matches!(ta.element, ElementType::Int32 | ElementType::BigInt64)
    } else {
        matches!(
            ta.element,
            ElementType::Int8
                | ElementType::Uint8
                | ElementType::Int16
                | ElementType::Uint16
                | ElementType::Int32
                | ElementType::Uint32
                | ElementType::BigInt64
                | ElementType::BigUint64
        )
    };
    if !ok {
        return Err(vm.type_error(&format!("{name}: {} is not an integer typed array it can use", ta.element.name())));
    }
    Ok((o, ta))
}

/// `ValidateAtomicAccess` (§25.4.3.2): the byte index of element
/// `request` in the buffer.
fn validate_atomic_access(vm: &mut Vm, ta: &TypedArrayData, request: Value) -> JsResult<usize> {
    let length = typed_array_length(vm, ta).unwrap_or(0);
    let index = to_index(vm, request)?;
    if index >= length {
        return Err(vm.range_error("Invalid atomic access index"));
    }
    Ok(index * ta.element.size() + ta.byte_offset)
}

/// `RevalidateAtomicAccess` (§25.4.3.5): argument conversion ran user
/// code, which may have detached or shrunk the buffer.
fn revalidate_atomic_access(vm: &mut Vm, ta: &TypedArrayData, byte_index: usize) -> JsResult<()> {
    let Some(length) = typed_array_length(vm, ta) else {
        return Err(vm.type_error("Cannot perform an atomic operation on a detached or out-of-bounds typed array"));
    };
    if byte_index >= ta.byte_offset + length * ta.element.size() {
        return Err(vm.range_error("Invalid atomic access index"));
    }
    Ok(())
}

/// An atomic operation's numeric argument as a raw element, with the
/// value `Atomics.store` returns: `ToBigInt` for the BigInt element types,
/// `𝔽(ToIntegerOrInfinity(v))` for the others.
fn operand(vm: &mut Vm, t: ElementType, v: Value) -> JsResult<(RawElement, Value)> {
    if t.is_big_int() {
        let b = to_big_int(vm, v)?;
        let stored = Value::bigint(b);
        // Held until the operation returns it.
        vm.keep_alive(stored);
        let raw = t.coerce(vm, stored)?;
        return Ok((raw, stored));
    }
    let n = to_integer_or_infinity(to_number(vm, v)?);
    // `ToIntegerOrInfinity` yields -0 for inputs in (-1, 0]; the spec's
    // mathematical integer has no sign.
    let n = if n == 0.0 { 0.0 } else { n };
    Ok((t.encode(n, true), Value::number(n)))
}

/// The first `size` bytes of a little-endian raw element as an integer.
fn bits_of(raw: &[u8], size: usize) -> u64 {
    let mut b = [0; 8];
    b[..size].copy_from_slice(&raw[..size]);
    u64::from_le_bytes(b)
}

/// A `TypeError` for writes to an immutable buffer.
fn require_mutable(vm: &mut Vm, ta: &TypedArrayData, name: &str) -> JsResult<()> {
    if is_immutable_buffer(vm, ta.buffer) {
        return Err(vm.type_error(&format!("{name}: the typed array's buffer is immutable")));
    }
    Ok(())
}

/// Replaces the element at `byte_index` with `f(old)` and returns the old
/// element's value. Arithmetic on the zero-extended bits wraps, and only
/// the element's own low bytes are written back, which is the modulo
/// arithmetic of the element type for signed and unsigned alike.
fn modify(vm: &mut Vm, ta: &TypedArrayData, byte_index: usize, f: impl FnOnce(u64) -> u64) -> Value {
    let size = ta.element.size();
    let old = with_buffer_mut(vm, ta.buffer, |d| {
        let slot = d.bytes_mut()?.get_mut(byte_index..byte_index + size)?;
        let old = bits_of(slot, size);
        slot.copy_from_slice(&f(old).to_le_bytes()[..size]);
        Some(old.to_le_bytes())
    });
    old.flatten().map_or(Value::UNDEFINED, |raw| ta.element.to_value(vm, &raw, true))
}

/// `AtomicReadModifyWrite` (§25.4.3.17) with the operation on the bits.
fn read_modify_write(vm: &mut Vm, info: &CallInfo, name: &str, op: fn(u64, u64) -> u64) -> JsResult<Value> {
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), false, name)?;
    require_mutable(vm, &ta, name)?;
    let byte_index = validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    let (raw, _) = operand(vm, ta.element, info.arg(vm, 2))?;
    revalidate_atomic_access(vm, &ta, byte_index)?;
    let operand = bits_of(&raw, ta.element.size());
    Ok(modify(vm, &ta, byte_index, |old| op(old, operand)))
}

fn add(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_modify_write(vm, info, "Atomics.add", u64::wrapping_add)
}

fn sub(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_modify_write(vm, info, "Atomics.sub", u64::wrapping_sub)
}

fn and(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_modify_write(vm, info, "Atomics.and", |a, b| a & b)
}

fn or(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_modify_write(vm, info, "Atomics.or", |a, b| a | b)
}

fn xor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_modify_write(vm, info, "Atomics.xor", |a, b| a ^ b)
}

fn exchange(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_modify_write(vm, info, "Atomics.exchange", |_, b| b)
}

/// `Atomics.compareExchange` (§25.4.6): the old value; the replacement
/// is written only when the old bytes equal the expected value's bytes.
fn compare_exchange(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.compareExchange";
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), false, name)?;
    require_mutable(vm, &ta, name)?;
    let byte_index = validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    let (expected, _) = operand(vm, ta.element, info.arg(vm, 2))?;
    let (replacement, _) = operand(vm, ta.element, info.arg(vm, 3))?;
    revalidate_atomic_access(vm, &ta, byte_index)?;
    let size = ta.element.size();
    let (expected, replacement) = (bits_of(&expected, size), bits_of(&replacement, size));
    Ok(modify(vm, &ta, byte_index, |old| if old == expected { replacement } else { old }))
}

/// `Atomics.load` (§25.4.9).
fn load(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.load";
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), false, name)?;
    let byte_index = validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    revalidate_atomic_access(vm, &ta, byte_index)?;
    let size = ta.element.size();
    let mut raw = [0; 8];
    let Some(bytes) =
        buffer_data(vm, ta.buffer).and_then(|d| d.bytes()).and_then(|b| b.get(byte_index..byte_index + size))
    else {
        return Ok(Value::UNDEFINED);
    };
    raw[..size].copy_from_slice(bytes);
    Ok(ta.element.to_value(vm, &raw, true))
}

/// `Atomics.store` (§25.4.12): returns the stored integer, not the
/// element's wrapped value.
fn store(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.store";
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), false, name)?;
    require_mutable(vm, &ta, name)?;
    let byte_index = validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    let (raw, n) = operand(vm, ta.element, info.arg(vm, 2))?;
    revalidate_atomic_access(vm, &ta, byte_index)?;
    let size = ta.element.size();
    let bits = bits_of(&raw, size);
    modify(vm, &ta, byte_index, |_| bits);
    Ok(n)
}

/// `Atomics.isLockFree` (§25.4.8): every size the engine has elements of.
fn is_lock_free(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let n = to_integer_or_infinity(to_number(vm, info.arg(vm, 0))?);
    Ok(Value::boolean(n == 1.0 || n == 2.0 || n == 4.0 || n == 8.0))
}

/// `Atomics.wait` (§25.4.13, `DoWait`): checks its arguments as the spec
/// orders them, then throws because this agent cannot block.
fn wait(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.wait";
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), true, name)?;
    if !buffer_data(vm, ta.buffer).is_some_and(BufferData::is_shared) {
        return Err(vm.type_error(&format!("{name}: the typed array is not backed by a SharedArrayBuffer")));
    }
    validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    let value = info.arg(vm, 2);
    if ta.element.is_big_int() {
        to_big_int(vm, value)?;
    } else {
        to_number(vm, value)?;
    }
    let timeout = info.arg(vm, 3);
    to_number(vm, timeout)?;
    Err(vm.type_error(&format!("{name} cannot be called in this context")))
}

/// `Atomics.notify` (§25.4.11): no agent can be waiting, so none wakes.
fn notify(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.notify";
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), true, name)?;
    validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    let count = info.arg(vm, 2);
    if !count.is_undefined() {
        to_integer_or_infinity(to_number(vm, count)?);
    }
    Ok(Value::number(0.0))
}

/// `Atomics.pause` (§25.4.10): a spin-wait hint.
fn pause(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let n = info.arg(vm, 0);
    if !n.is_undefined() && !n.as_number().is_some_and(|n| n.is_finite() && n.trunc() == n) {
        return Err(vm.type_error("Atomics.pause: the argument must be an integral Number"));
    }
    std::hint::spin_loop();
    Ok(Value::UNDEFINED)
}

/// Installs the Atomics namespace.
pub(crate) fn install(vm: &mut Vm) {
    let atomics = vm.new_plain_object();
    let global = vm.realm.global;
    value_property(vm, global, "Atomics", Value::object(atomics), Attributes::METHOD);
    let functions: [(&str, u32, crate::function::NativeFn); 13] = [
        ("add", 3, add),
        ("and", 3, and),
        ("compareExchange", 4, compare_exchange),
        ("exchange", 3, exchange),
        ("isLockFree", 1, is_lock_free),
        ("load", 2, load),
        ("notify", 3, notify),
        ("or", 3, or),
        ("pause", 0, pause),
        ("store", 3, store),
        ("sub", 3, sub),
        ("wait", 4, wait),
        ("xor", 3, xor),
    ];
    for (name, length, f) in functions {
        method(vm, atomics, name, length, f);
    }
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("Atomics");
    define_builtin(vm, atomics, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}
