//! The Atomics namespace (§25.4).
//!
//! On a SharedArrayBuffer, which other agents (VMs on other threads) may
//! hold, every operation is one atomic instruction on the block (see
//! [`shared_memory`](super::shared_memory)); on an ArrayBuffer, which only
//! this VM can reach, a plain read and write with no user code in between
//! is atomic already. `Atomics.wait` blocks only in an agent that may
//! (`AgentOptions::can_block`, the agent's `[[CanBlock]]`); elsewhere it
//! throws, as on a browser's main thread. `Atomics.waitAsync` never
//! blocks: its promise settles from the VM's event loop.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use js_gc::Gc;

use super::array_buffer::{BufferData, buffer_data, is_immutable_buffer, to_index, with_buffer_mut};
use super::shared_memory::{SharedBlock, WaitOutcome};
use super::typed_array::{ElementType, RawElement, TypedArrayData, typed_array_length, validate};
use super::{method, value_property};
use crate::abstract_ops::{to_big_int, to_big_int64, to_int32, to_integer_or_infinity, to_number};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{create_data_property, define_builtin};
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

/// The Shared Data Block of the typed array's buffer, if it is shared.
fn shared_block(vm: &Vm, ta: &TypedArrayData) -> Option<Arc<SharedBlock>> {
    buffer_data(vm, ta.buffer).and_then(BufferData::shared_block).map(Arc::clone)
}

/// Replaces the element at `byte_index` with `f(old)` and returns the old
/// element's value. Arithmetic on the zero-extended bits wraps, and only
/// the element's own low bytes are written back, which is the modulo
/// arithmetic of the element type for signed and unsigned alike.
fn modify(vm: &mut Vm, ta: &TypedArrayData, byte_index: usize, f: impl Fn(u64) -> u64) -> Value {
    let size = ta.element.size();
    if let Some(block) = shared_block(vm, ta) {
        // `f` may run more than once: the compare-and-swap retries when
        // another agent wrote in between.
        let old = block.atomic_update(byte_index, size, f);
        return old.map_or(Value::UNDEFINED, |old| ta.element.to_value(vm, &old.to_le_bytes(), true));
    }
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
    if let Some(block) = shared_block(vm, &ta) {
        let v = block.atomic_load(byte_index, size);
        return Ok(v.map_or(Value::UNDEFINED, |v| ta.element.to_value(vm, &v.to_le_bytes(), true)));
    }
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

/// The arguments of `DoWait` (§25.4.3.14) checked and converted, up to
/// its critical section.
struct WaitRequest {
    block: Arc<SharedBlock>,
    byte_index: usize,
    size: usize,
    /// `v`, as the element's little-endian bits zero-extended.
    expected: u64,
    /// `t` in milliseconds (`+∞` for none).
    timeout_ms: f64,
}

/// Steps 1–9 of `DoWait`: an `Int32Array` or `BigInt64Array` on a
/// SharedArrayBuffer, the index, `ToInt32`/`ToBigInt64` of the value and
/// the timeout (`NaN` waits forever, negatives are zero).
fn wait_request(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<WaitRequest> {
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), true, name)?;
    let Some(block) = shared_block(vm, &ta) else {
        return Err(vm.type_error(&format!("{name}: the typed array is not backed by a SharedArrayBuffer")));
    };
    let byte_index = validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    let value = info.arg(vm, 2);
    let expected = if ta.element.is_big_int() {
        to_big_int64(vm, value)?.cast_unsigned()
    } else {
        u64::from(to_int32(to_number(vm, value)?).cast_unsigned())
    };
    let q = to_number(vm, info.arg(vm, 3))?;
    let timeout_ms = if q.is_nan() { f64::INFINITY } else { q.max(0.0) };
    Ok(WaitRequest { block, byte_index, size: ta.element.size(), expected, timeout_ms })
}

/// A timeout in milliseconds as a duration; `None` for one that never
/// passes (infinite, or past what the clock can count).
fn timeout_duration(ms: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(ms / 1000.0).ok()
}

/// `Atomics.wait` (§25.4.13): `DoWait(sync, ...)`. Blocks the thread
/// until notified or timed out, in an agent that can block; a `TypeError`
/// in one that cannot (after the arguments are checked, as the spec
/// orders it).
fn wait(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.wait";
    let request = wait_request(vm, info, name)?;
    if !vm.options.agent.can_block {
        return Err(vm.type_error(&format!("{name} cannot be called in this context: this agent cannot block")));
    }
    let interrupt = vm.interrupt_handle();
    let timeout = timeout_duration(request.timeout_ms);
    let outcome = request.block.wait(request.byte_index, request.size, request.expected, timeout, &interrupt);
    let text = match outcome {
        WaitOutcome::Ok => "ok",
        WaitOutcome::NotEqual => "not-equal",
        WaitOutcome::TimedOut => "timed-out",
        WaitOutcome::Interrupted => {
            vm.check_interrupt()?;
            // The embedder withdrew its request meanwhile: the wait ended
            // without a notification.
            "timed-out"
        }
    };
    Ok(vm.string(text))
}

/// Ids of `Atomics.waitAsync` waiters, unique across every VM of the
/// process (a notification names its waiter by id).
static NEXT_ASYNC_WAITER: AtomicU64 = AtomicU64::new(1);

/// The `{ async, value }` object `Atomics.waitAsync` returns.
fn wait_async_result(vm: &mut Vm, is_async: bool, value: Value) -> JsResult<Value> {
    let object = vm.new_plain_object();
    vm.keep_alive(Value::object(object));
    let key = vm.key("async");
    create_data_property(vm, object, key, Value::boolean(is_async))?;
    let key = vm.key("value");
    create_data_property(vm, object, key, value)?;
    Ok(Value::object(object))
}

/// `Atomics.waitAsync` (§25.4.14): `DoWait(async, ...)`. Settled at once
/// (`async: false`) when the value differs or the timeout is zero;
/// otherwise a promise the event loop resolves with `"ok"` when notified
/// or `"timed-out"`.
fn wait_async(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.waitAsync";
    let request = wait_request(vm, info, name)?;
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = crate::promise::new_promise_with_proto(vm, proto);
    vm.keep_alive(Value::object(promise));
    let id = NEXT_ASYNC_WAITER.fetch_add(1, Ordering::Relaxed);
    let inbox = vm.runtime.event_loop.inbox();
    let zero = request.timeout_ms == 0.0;
    if let Err(outcome) = request.block.wait_async(request.byte_index, request.size, request.expected, zero, id, &inbox)
    {
        let text = if outcome == WaitOutcome::NotEqual { "not-equal" } else { "timed-out" };
        let text = vm.string(text);
        return wait_async_result(vm, false, text);
    }
    let timeout = timeout_duration(request.timeout_ms);
    vm.runtime.event_loop.add_async_waiter(id, promise, request.block, timeout);
    wait_async_result(vm, true, Value::object(promise))
}

/// `Atomics.notify` (§25.4.15): wakes up to `count` waiters (all when
/// `undefined`) on the element, oldest first; 0 on an ArrayBuffer, where
/// nobody can wait.
fn notify(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let name = "Atomics.notify";
    let (_, ta) = validate_integer_typed_array(vm, info.arg(vm, 0), true, name)?;
    let byte_index = validate_atomic_access(vm, &ta, info.arg(vm, 1))?;
    let count = info.arg(vm, 2);
    let count = if count.is_undefined() {
        usize::MAX
    } else {
        // Saturating: counts past `usize` wake everyone.
        to_integer_or_infinity(to_number(vm, count)?).max(0.0) as usize
    };
    let Some(block) = shared_block(vm, &ta) else { return Ok(Value::number(0.0)) };
    Ok(Value::number(block.notify(byte_index, count) as f64))
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
    let functions: [(&str, u32, crate::function::NativeFn); 14] = [
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
        ("waitAsync", 4, wait_async),
        ("xor", 3, xor),
    ];
    for (name, length, f) in functions {
        method(vm, atomics, name, length, f);
    }
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("Atomics");
    define_builtin(vm, atomics, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}
