//! Iterator chunking (TC39 proposal-iterator-chunking):
//! `Iterator.prototype.chunks(chunkSize)` yields non-overlapping arrays of
//! `chunkSize` values (the last one possibly shorter) and
//! `Iterator.prototype.windows(windowSize, undersized)` yields the sliding
//! windows of `windowSize` consecutive values.
//!
//! Both sizes must already be integral Numbers in 1..=2³²−1: there is no
//! coercion, so a wrong argument closes the receiver before its `next` is
//! even read.

use js_gc::{Gc, Trace, Tracer};

use super::array::array_create;
use super::iteration::iterator_step_value;
use super::iterator_helpers::{
    HelperKind, close_with_error, create_iterator_helper, get_iterator_direct, is_string_value, this_object,
};
use super::method;
use crate::interpreter::{CallInfo, IteratorRecord};
use crate::object::JsObject;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The state a `windows` helper keeps between steps.
pub struct WindowsState {
    /// `windowSize`.
    size: u32,
    /// `undersized` is `"allow-partial"`: a source shorter than one window
    /// still yields its values once.
    allow_partial: bool,
    /// The current window (at most `size` values).
    buffer: Vec<Value>,
}

// SAFETY: the buffered values.
unsafe impl Trace for WindowsState {
    fn trace(&self, tracer: &mut Tracer) {
        for value in &self.buffer {
            value.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "WindowsState"
    }
}

/// The size argument: an integral Number in 1..=2³²−1 (no coercion), else
/// the receiver is closed and a TypeError (not an integral Number) or
/// RangeError (out of range) thrown.
fn size_arg(vm: &mut Vm, this: Value, size: Value, name: &str) -> JsResult<u32> {
    if let Some(n) = size.as_number()
        && n.fract() == 0.0
        && (1.0..=4_294_967_295.0).contains(&n)
    {
        // In range and integral, so the conversion is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        return Ok(n as u32);
    }
    let integral = size.as_number().is_some_and(|n| n.is_finite() && n.fract() == 0.0);
    let error = if integral {
        vm.range_error(&format!("Iterator.prototype.{name}: size must be an integer in [1, 2^32 - 1]"))
    } else {
        vm.type_error(&format!("Iterator.prototype.{name}: size must be an integral number"))
    };
    Err(close_with_error(vm, this, error))
}

/// `Iterator.prototype.chunks(chunkSize)`.
fn chunks(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "chunks")?;
    let size = info.arg(vm, 0);
    let size = size_arg(vm, this, size, "chunks")?;
    let underlying = get_iterator_direct(vm, this)?;
    Ok(create_iterator_helper(vm, Some(underlying), HelperKind::Chunks(size)))
}

/// `Iterator.prototype.windows(windowSize, undersized)`.
fn windows(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = this_object(vm, info, "windows")?;
    let size = info.arg(vm, 0);
    let size = size_arg(vm, this, size, "windows")?;
    let undersized = info.arg(vm, 1);
    let allow_partial = if undersized.is_undefined() || is_string_value(vm, undersized, "only-full") {
        false
    } else if is_string_value(vm, undersized, "allow-partial") {
        true
    } else {
        let error = vm.type_error("Iterator.prototype.windows: undersized must be \"only-full\" or \"allow-partial\"");
        return Err(close_with_error(vm, this, error));
    };
    let underlying = get_iterator_direct(vm, this)?;
    vm.keep_alive(Value::internal(underlying.into()));
    let state = vm.heap.alloc(WindowsState { size, allow_partial, buffer: Vec::new() });
    Ok(create_iterator_helper(vm, Some(underlying), HelperKind::Windows(state)))
}

/// One step of a `chunks` helper: the next chunk (a final short one when
/// the source runs out mid-chunk), `None` when exhausted.
pub(crate) fn chunks_step(vm: &mut Vm, underlying: Gc<IteratorRecord>, size: u32) -> JsResult<Option<Value>> {
    let mark = vm.stack.temp_roots.len();
    let mut buffer = Vec::new();
    while buffer.len() < size as usize {
        let Some(value) = iterator_step_value(vm, underlying)? else { break };
        vm.keep_alive(value);
        buffer.push(value);
    }
    let chunk = if buffer.is_empty() { None } else { Some(Value::object(array_create(vm, &buffer))) };
    vm.stack.temp_roots.truncate(mark);
    Ok(chunk)
}

/// One step of a `windows` helper: slide by one value and yield a fresh
/// array of the window once it is full; at the end, an undersized window
/// is yielded once when `"allow-partial"` asked for it.
pub(crate) fn windows_step(
    vm: &mut Vm,
    underlying: Gc<IteratorRecord>,
    state: Gc<WindowsState>,
) -> JsResult<Option<Value>> {
    loop {
        let Some(value) = iterator_step_value(vm, underlying)? else {
            let s = state.borrow_mut(&mut vm.heap);
            let partial = s.allow_partial && !s.buffer.is_empty() && s.buffer.len() < s.size as usize;
            // The buffer is dropped either way: after a partial window the
            // closure returns, and the exhausted source yields nothing more.
            let buffer = std::mem::take(&mut s.buffer);
            return Ok(partial.then(|| Value::object(array_create(vm, &buffer))));
        };
        let s = state.borrow_mut(&mut vm.heap);
        if s.buffer.len() == s.size as usize {
            s.buffer.remove(0);
        }
        s.buffer.push(value);
        if s.buffer.len() == s.size as usize {
            let window = s.buffer.clone();
            return Ok(Some(Value::object(array_create(vm, &window))));
        }
    }
}

/// Installs `chunks` and `windows` on `%Iterator.prototype%`.
pub(crate) fn install(vm: &mut Vm, iterator_proto: Gc<JsObject>) {
    method(vm, iterator_proto, "chunks", 1, chunks);
    method(vm, iterator_proto, "windows", 1, windows);
}
