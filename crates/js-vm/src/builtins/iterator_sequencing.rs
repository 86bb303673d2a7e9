//! Iterator sequencing (TC39 proposal-iterator-sequencing):
//! `Iterator.concat(...items)`, an Iterator Helper that yields every value
//! of each iterable in turn, opening each one only when the previous one is
//! exhausted.

use js_gc::{Gc, Trace, Tracer};

use super::iteration::{iterator_close, iterator_step_value};
use super::iterator_helpers::{HelperKind, create_iterator_helper, get_iterator_direct};
use super::method;
use crate::interpreter::{CallInfo, IteratorRecord};
use crate::object::internal_methods::{call, get_method};
use crate::object::{JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The slots of an `Iterator.concat` helper: the `(open method, iterable)`
/// pairs captured by the closure and where the run is.
pub struct ConcatState {
    /// Each item's `@@iterator` method (read once, up front) and the item.
    iterables: Vec<(Value, Value)>,
    /// The next iterable to open.
    next_index: usize,
    /// The iterator being drained, if one is open.
    current: Option<Gc<IteratorRecord>>,
}

// SAFETY: the captured methods and items and the open iterator.
unsafe impl Trace for ConcatState {
    fn trace(&self, tracer: &mut Tracer) {
        for (method, iterable) in &self.iterables {
            method.trace(tracer);
            iterable.trace(tracer);
        }
        self.current.trace(tracer);
    }

    fn type_name() -> &'static str {
        "ConcatState"
    }
}

/// `Iterator.concat(...items)`: every item must be an object with a
/// callable `@@iterator`, checked (in order) before anything is opened.
fn concat(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let items = info.args(vm);
    let mut iterables = Vec::with_capacity(items.len());
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    for item in items {
        if !item.is_object() {
            return Err(vm.type_error("Iterator.concat: argument is not an object"));
        }
        let Some(method) = get_method(vm, item, key)? else {
            return Err(vm.type_error("Iterator.concat: argument is not iterable"));
        };
        vm.keep_alive(method);
        iterables.push((method, item));
    }
    let state = vm.heap.alloc(ConcatState { iterables, next_index: 0, current: None });
    Ok(create_iterator_helper(vm, None, HelperKind::Concat(state)))
}

/// One step of the closure: the next value, opening the following
/// iterables as earlier ones finish; `None` when all are exhausted.
pub(crate) fn concat_step(vm: &mut Vm, state: Gc<ConcatState>) -> JsResult<Option<Value>> {
    loop {
        if let Some(current) = state.borrow(&vm.heap).current {
            if let Some(value) = iterator_step_value(vm, current)? {
                return Ok(Some(value));
            }
            state.borrow_mut(&mut vm.heap).current = None;
        }
        let s = state.borrow(&vm.heap);
        let Some(&(method, iterable)) = s.iterables.get(s.next_index) else { return Ok(None) };
        state.borrow_mut(&mut vm.heap).next_index += 1;
        let iterator = call(vm, method, iterable, &[])?;
        if !iterator.is_object() {
            return Err(vm.type_error("Iterator.concat: iterator is not an object"));
        }
        vm.keep_alive(iterator);
        let record = get_iterator_direct(vm, iterator)?;
        state.borrow_mut(&mut vm.heap).current = Some(record);
    }
}

/// The return completion reaching the closure: closes the open iterator
/// (none before the first step, so nothing is opened or closed then).
pub(crate) fn concat_return(vm: &mut Vm, state: Gc<ConcatState>) -> JsResult<()> {
    let current = state.borrow_mut(&mut vm.heap).current.take();
    match current {
        Some(record) => iterator_close(vm, record),
        None => Ok(()),
    }
}

/// Installs `Iterator.concat`.
pub(crate) fn install(vm: &mut Vm, iterator_ctor: Gc<JsObject>) {
    method(vm, iterator_ctor, "concat", 0, concat);
}
