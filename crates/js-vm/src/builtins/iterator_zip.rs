//! Joint iteration (TC39 proposal-joint-iteration): `Iterator.zip` yields
//! arrays of the values at the same position of several iterables,
//! `Iterator.zipKeyed` objects keyed like its argument. The mode decides
//! what happens when one input runs out: `"shortest"` stops (closing the
//! others), `"longest"` pads with the `padding` values until all are done,
//! `"strict"` throws unless all end together.

use js_gc::{Gc, Trace, Tracer};

use super::array::array_create;
use super::iteration::{get_iterator, iterator_close, iterator_close_all, iterator_step_value};
use super::iterator_helpers::{HelperKind, create_iterator_helper, get_iterator_flattenable, is_string_value};
use super::method;
use crate::interpreter::{CallInfo, IteratorRecord};
use crate::object::internal_methods::{create_data_property_or_throw, get, get_own_property, own_property_keys};
use crate::object::{JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// How the zip ends when the inputs have different lengths.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ZipMode {
    /// Stop at the first exhausted input.
    Shortest,
    /// Pad exhausted inputs until every input is exhausted.
    Longest,
    /// Throw a TypeError unless every input ends at the same step.
    Strict,
}

/// The slots of a zip helper (the values `IteratorZip`'s closure captures).
pub struct ZipState {
    /// `iters`: one record per input; `None` once an input is exhausted in
    /// `"longest"` mode (its padding is used from then on).
    iters: Vec<Option<Gc<IteratorRecord>>>,
    /// `openIters` (the helper's `[[UnderlyingIterators]]`): the inputs not
    /// yet exhausted, in input order; these are closed on an early exit.
    open: Vec<Gc<IteratorRecord>>,
    mode: ZipMode,
    /// The padding value per input (`"longest"` only).
    padding: Vec<Value>,
    /// `zipKeyed`'s keys, one per input; `None` for `zip`, which yields
    /// arrays.
    keys: Option<Vec<PropertyKey>>,
}

// SAFETY: the input records, the padding values and the keys.
unsafe impl Trace for ZipState {
    fn trace(&self, tracer: &mut Tracer) {
        for record in self.iters.iter().flatten() {
            record.trace(tracer);
        }
        for record in &self.open {
            record.trace(tracer);
        }
        for value in &self.padding {
            value.trace(tracer);
        }
        for key in self.keys.iter().flatten() {
            key.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "ZipState"
    }
}

/// Keeps an iterator record alive until the running native returns.
fn root_record(vm: &mut Vm, record: Gc<IteratorRecord>) {
    vm.keep_alive(Value::internal(record.into()));
}

/// `IfAbruptCloseIterators(result, iters)`: on a throw, closes `iters`
/// (in reverse order) and rethrows.
fn close_on_error<T>(vm: &mut Vm, result: JsResult<T>, iters: &[Gc<IteratorRecord>]) -> JsResult<T> {
    match result {
        Ok(v) => Ok(v),
        Err(e) => Err(iterator_close_all(vm, iters, Err(e)).err().unwrap_or(Exception::Terminated)),
    }
}

/// Steps 2–7 of both methods: `GetOptionsObject(options)`, then the
/// `mode` and, for `"longest"`, the `padding` option (an object or
/// `undefined`).
fn read_options(vm: &mut Vm, options: Value, name: &str) -> JsResult<(ZipMode, Value)> {
    let options = if options.is_undefined() {
        None
    } else if let Some(o) = options.as_object() {
        Some(o)
    } else {
        return Err(vm.type_error(&format!("Iterator.{name}: options must be an object")));
    };
    let Some(options) = options else { return Ok((ZipMode::Shortest, Value::UNDEFINED)) };
    let key = vm.key("mode");
    let mode_value = get(vm, options, key, Value::object(options))?;
    let mode = if mode_value.is_undefined() || is_string_value(vm, mode_value, "shortest") {
        ZipMode::Shortest
    } else if is_string_value(vm, mode_value, "longest") {
        ZipMode::Longest
    } else if is_string_value(vm, mode_value, "strict") {
        ZipMode::Strict
    } else {
        return Err(vm.type_error(&format!("Iterator.{name}: mode must be \"shortest\", \"longest\" or \"strict\"")));
    };
    if mode != ZipMode::Longest {
        return Ok((mode, Value::UNDEFINED));
    }
    let key = vm.key("padding");
    let padding = get(vm, options, key, Value::object(options))?;
    if !padding.is_undefined() && !padding.is_object() {
        return Err(vm.type_error(&format!("Iterator.{name}: padding must be an object")));
    }
    vm.keep_alive(padding);
    Ok((mode, padding))
}

/// `Iterator.zip(iterables [, options])`.
fn zip(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let iterables = info.arg(vm, 0);
    if !iterables.is_object() {
        return Err(vm.type_error("Iterator.zip: iterables must be an object"));
    }
    let options = info.arg(vm, 1);
    let (mode, padding_option) = read_options(vm, options, "zip")?;
    let input = get_iterator(vm, iterables)?;
    root_record(vm, input);
    let mut iters: Vec<Gc<IteratorRecord>> = Vec::new();
    loop {
        let next = iterator_step_value(vm, input);
        let Some(next) = close_on_error(vm, next, &iters)? else { break };
        let iter = get_iterator_flattenable(vm, next, false);
        let iter = match iter {
            Ok(iter) => iter,
            Err(e) => {
                let mut all = vec![input];
                all.extend_from_slice(&iters);
                return Err(iterator_close_all(vm, &all, Err(e)).err().unwrap_or(Exception::Terminated));
            }
        };
        root_record(vm, iter);
        iters.push(iter);
    }
    let padding = if mode == ZipMode::Longest { zip_padding(vm, padding_option, &iters)? } else { Vec::new() };
    Ok(iterator_zip(vm, iters, mode, padding, None))
}

/// The padding of `Iterator.zip` in `"longest"` mode: the first values of
/// the `padding` iterable, `undefined` for inputs beyond its end; it is
/// closed if it has more values than there are inputs.
fn zip_padding(vm: &mut Vm, padding_option: Value, iters: &[Gc<IteratorRecord>]) -> JsResult<Vec<Value>> {
    if padding_option.is_undefined() {
        return Ok(vec![Value::UNDEFINED; iters.len()]);
    }
    let padding_iter = get_iterator(vm, padding_option);
    let padding_iter = close_on_error(vm, padding_iter, iters)?;
    root_record(vm, padding_iter);
    let mut padding = Vec::with_capacity(iters.len());
    let mut using_iterator = true;
    for _ in 0..iters.len() {
        if using_iterator {
            let next = iterator_step_value(vm, padding_iter);
            match close_on_error(vm, next, iters)? {
                Some(value) => {
                    vm.keep_alive(value);
                    padding.push(value);
                }
                None => using_iterator = false,
            }
        }
        if !using_iterator {
            padding.push(Value::UNDEFINED);
        }
    }
    if using_iterator {
        let closed = iterator_close(vm, padding_iter);
        close_on_error(vm, closed, iters)?;
    }
    Ok(padding)
}

/// `Iterator.zipKeyed(iterables [, options])`: the inputs are the own
/// enumerable properties of `iterables` whose value is not `undefined`,
/// in `[[OwnPropertyKeys]]` order (symbols included).
fn zip_keyed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let iterables = info.arg(vm, 0);
    let Some(object) = iterables.as_object() else {
        return Err(vm.type_error("Iterator.zipKeyed: iterables must be an object"));
    };
    let options = info.arg(vm, 1);
    let (mode, padding_option) = read_options(vm, options, "zipKeyed")?;
    let all_keys = own_property_keys(vm, object)?;
    for &key in &all_keys {
        // A getter may delete a later key; its atom must outlive that.
        let key_value = super::object::key_to_value(vm, key);
        vm.keep_alive(key_value);
    }
    let mut keys = Vec::new();
    let mut iters: Vec<Gc<IteratorRecord>> = Vec::new();
    for key in all_keys {
        let desc = get_own_property(vm, object, key);
        let Some(desc) = close_on_error(vm, desc, &iters)? else { continue };
        if desc.enumerable != Some(true) {
            continue;
        }
        let value = get(vm, object, key, iterables);
        let value = close_on_error(vm, value, &iters)?;
        if value.is_undefined() {
            continue;
        }
        keys.push(key);
        let iter = get_iterator_flattenable(vm, value, false);
        let iter = close_on_error(vm, iter, &iters)?;
        root_record(vm, iter);
        iters.push(iter);
    }
    let mut padding = Vec::new();
    if mode == ZipMode::Longest {
        if let Some(padding_object) = padding_option.as_object() {
            for &key in &keys {
                let value = get(vm, padding_object, key, padding_option);
                let value = close_on_error(vm, value, &iters)?;
                vm.keep_alive(value);
                padding.push(value);
            }
        } else {
            padding = vec![Value::UNDEFINED; iters.len()];
        }
    }
    Ok(iterator_zip(vm, iters, mode, padding, Some(keys)))
}

/// `IteratorZip(iters, mode, padding, finishResults)`: the helper object;
/// every input starts open.
fn iterator_zip(
    vm: &mut Vm,
    iters: Vec<Gc<IteratorRecord>>,
    mode: ZipMode,
    padding: Vec<Value>,
    keys: Option<Vec<PropertyKey>>,
) -> Value {
    let open = iters.clone();
    let iters = iters.into_iter().map(Some).collect();
    let state = vm.heap.alloc(ZipState { iters, open, mode, padding, keys });
    create_iterator_helper(vm, None, HelperKind::Zip(state))
}

/// Removes `record` from the open inputs.
fn remove_open(vm: &mut Vm, state: Gc<ZipState>, record: Gc<IteratorRecord>) {
    state.borrow_mut(&mut vm.heap).open.retain(|&r| r != record);
}

/// `IteratorCloseAll(openIters, completion)` with the current open inputs.
fn close_open(vm: &mut Vm, state: Gc<ZipState>, completion: JsResult<()>) -> JsResult<()> {
    let open = std::mem::take(&mut state.borrow_mut(&mut vm.heap).open);
    for &record in &open {
        root_record(vm, record);
    }
    iterator_close_all(vm, &open, completion)
}

/// One step of the zip closure: the next results (an array or a keyed
/// object), or `None` when the zip is over. An input that throws is not
/// closed; the other open inputs are.
pub(crate) fn zip_step(vm: &mut Vm, state: Gc<ZipState>) -> JsResult<Option<Value>> {
    let (count, mode) = {
        let s = state.borrow(&vm.heap);
        (s.iters.len(), s.mode)
    };
    if count == 0 {
        return Ok(None);
    }
    let mark = vm.stack.temp_roots.len();
    let mut results = Vec::with_capacity(count);
    for i in 0..count {
        let Some(record) = state.borrow(&vm.heap).iters[i] else {
            results.push(state.borrow(&vm.heap).padding[i]);
            continue;
        };
        let step = iterator_step_value(vm, record);
        let value = match step {
            Err(e) => {
                remove_open(vm, state, record);
                return close_open(vm, state, Err(e)).map(|()| None);
            }
            Ok(Some(value)) => value,
            Ok(None) => {
                remove_open(vm, state, record);
                match mode {
                    ZipMode::Shortest => return close_open(vm, state, Ok(())).map(|()| None),
                    ZipMode::Strict => return strict_finish(vm, state, i).map(|()| None),
                    ZipMode::Longest => {
                        if state.borrow(&vm.heap).open.is_empty() {
                            return Ok(None);
                        }
                        let s = state.borrow_mut(&mut vm.heap);
                        s.iters[i] = None;
                        s.padding[i]
                    }
                }
            }
        };
        vm.keep_alive(value);
        results.push(value);
    }
    let result = finish_results(vm, state, &results);
    vm.stack.temp_roots.truncate(mark);
    result.map(Some)
}

/// `"strict"` mode after input `i` ran out: unless it is the first input,
/// that is already a mismatch; otherwise every other input must be done
/// at this step too.
fn strict_finish(vm: &mut Vm, state: Gc<ZipState>, i: usize) -> JsResult<()> {
    if i != 0 {
        let error = vm.type_error("Iterator.zip: inputs have different lengths (strict mode)");
        return close_open(vm, state, Err(error));
    }
    let count = state.borrow(&vm.heap).iters.len();
    for k in 1..count {
        let Some(record) = state.borrow(&vm.heap).iters[k] else { continue };
        match iterator_step_value(vm, record) {
            Err(e) => {
                remove_open(vm, state, record);
                return close_open(vm, state, Err(e));
            }
            Ok(None) => remove_open(vm, state, record),
            Ok(Some(_)) => {
                let error = vm.type_error("Iterator.zip: inputs have different lengths (strict mode)");
                return close_open(vm, state, Err(error));
            }
        }
    }
    Ok(())
}

/// `finishResults`: a new array for `zip`; for `zipKeyed` a new object
/// with a null prototype holding each key's value.
fn finish_results(vm: &mut Vm, state: Gc<ZipState>, results: &[Value]) -> JsResult<Value> {
    let Some(keys) = state.borrow(&vm.heap).keys.clone() else {
        return Ok(Value::object(array_create(vm, results)));
    };
    let object = vm.new_object(None);
    for (&key, &value) in keys.iter().zip(results) {
        create_data_property_or_throw(vm, object, key, value)?;
    }
    Ok(Value::object(object))
}

/// The return completion reaching the closure (or `return` before the
/// first step): closes every open input.
pub(crate) fn zip_return(vm: &mut Vm, state: Gc<ZipState>) -> JsResult<()> {
    close_open(vm, state, Ok(()))
}

/// Installs `Iterator.zip` and `Iterator.zipKeyed`.
pub(crate) fn install(vm: &mut Vm, iterator_ctor: Gc<JsObject>) {
    method(vm, iterator_ctor, "zip", 1, zip);
    method(vm, iterator_ctor, "zipKeyed", 1, zip_keyed);
}
