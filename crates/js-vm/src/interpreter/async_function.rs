//! Async functions (§27.7): a call runs in its caller's dispatch loop until
//! the first `await`, which saves the frame into the function's state
//! object (as a generator's) and hands the promise to the caller. The
//! continuation job resumes the frame as an entry frame; returning resolves
//! the promise and a throw leaving the frame rejects it.
//!
//! `await` goes through js-promise's `await_value`, so awaiting a
//! non-promise, a settled or a pending native promise allocates nothing.

use js_gc::{Gc, Trace, Tracer};
use js_promise::Continuation;

use super::generator::{SavedFrame, push_saved_frame, save_top_frame};
use super::{Frame, run};
use crate::object::{JsObject, ObjectKind};
use crate::promise::{RESUME_ASYNC_FUNCTION, new_promise_with_proto};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// An async function call's internal state.
pub struct AsyncFunctionState {
    /// The promise the call returned.
    pub promise: Gc<JsObject>,
    /// The frame, while it waits at an `await`.
    pub frame: Option<SavedFrame>,
}

// SAFETY: the promise and the saved frame are all the pointers.
unsafe impl Trace for AsyncFunctionState {
    fn trace(&self, tracer: &mut Tracer) {
        self.promise.trace(tracer);
        if let Some(frame) = &self.frame {
            frame.trace(tracer);
        }
    }
}

/// `AsyncStart`: makes the promise and the state object and ties the
/// running frame to it.
pub(super) fn start(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = new_promise_with_proto(vm, proto);
    let state = AsyncFunctionState { promise, frame: None };
    let object = vm.new_object_of_kind(None, ObjectKind::AsyncFunction(Box::new(state)));
    if let Some(frame) = vm.stack.frames.last_mut() {
        frame.generator = Some(object);
    }
}

/// The promise of an async function's state object, or `None` when
/// `owner` is a generator.
pub(super) fn promise_of(vm: &Vm, owner: Gc<JsObject>) -> Option<Gc<JsObject>> {
    match &owner.borrow(&vm.heap).kind {
        ObjectKind::AsyncFunction(state) => Some(state.promise),
        _ => None,
    }
}

/// `await value` in the top frame, whose state object is `owner`: arranges
/// the resumption, saves the frame and returns the promise the caller gets.
/// A throw from `PromiseResolve` (a `constructor` getter) is thrown at the
/// `await` with the frame still live.
pub(super) fn suspend(vm: &mut Vm, owner: Gc<JsObject>, value: Value, pc: u32) -> JsResult<(Frame, Value)> {
    let continuation = Continuation { job: RESUME_ASYNC_FUNCTION, data: Value::object(owner) };
    if let Err(thrown) = js_promise::await_value(&mut vm.host(), value, continuation) {
        vm.take_termination()?;
        return Err(Exception::Throw(thrown));
    }
    let Some((saved, frame)) = save_top_frame(vm, pc) else {
        return Err(vm.type_error("await outside a running function"));
    };
    let result = match &mut owner.borrow_mut(&mut vm.heap).kind {
        ObjectKind::AsyncFunction(state) => {
            state.frame = Some(saved);
            Value::object(state.promise)
        }
        // An async generator's frame is always resumed by a native call,
        // which ignores the result.
        ObjectKind::AsyncGenerator(state) => {
            state.frame = Some(saved);
            Value::UNDEFINED
        }
        _ => return Err(vm.type_error("await outside an async function")),
    };
    Ok((frame, result))
}

/// Settles the promise of a finished async function: resolved with the
/// returned value or rejected with the thrown one. Returns the promise
/// (`undefined` for an async generator, whose requests are settled
/// instead; `None` for a sync generator).
pub(super) fn settle(vm: &mut Vm, owner: Gc<JsObject>, outcome: Result<Value, Value>) -> JsResult<Option<Value>> {
    if matches!(owner.borrow(&vm.heap).kind, ObjectKind::AsyncGenerator(_)) {
        super::async_generator::finish(vm, owner, outcome)?;
        return Ok(Some(Value::UNDEFINED));
    }
    let Some(promise) = promise_of(vm, owner) else { return Ok(None) };
    match outcome {
        Ok(value) => js_promise::promise_resolve_function(&mut vm.host(), promise, value),
        Err(reason) => js_promise::promise_reject_function(&mut vm.host(), promise, reason),
    }
    if let ObjectKind::AsyncFunction(state) = &mut owner.borrow_mut(&mut vm.heap).kind {
        state.frame = None;
    }
    vm.take_termination()?;
    Ok(Some(Value::object(promise)))
}

/// The await continuation job: resumes the frame saved in `owner` with the
/// awaited outcome.
pub fn resume(vm: &mut Vm, owner: Value, outcome: Result<Value, Value>) -> JsResult<()> {
    let Some(owner) = owner.as_object() else { return Ok(()) };
    let saved = match &mut owner.borrow_mut(&mut vm.heap).kind {
        ObjectKind::AsyncFunction(state) => state.frame.take(),
        ObjectKind::AsyncGenerator(state) => state.frame.take(),
        _ => None,
    };
    let Some(saved) = saved else { return Ok(()) };
    let (value, mode) = match outcome {
        Ok(v) => (v, 0.0),
        Err(e) => (e, 1.0),
    };
    push_saved_frame(vm, saved, owner, Some((value, Value::number(mode))));
    vm.stack.native_depth += 1;
    let result = run(vm);
    vm.stack.native_depth -= 1;
    result.map(drop)
}
