//! Async generators (§27.6): a queue of `next`/`throw`/`return` requests,
//! each with its promise, served one at a time by the generator's frame.
//! The frame is saved in the generator object while it waits at a `yield`
//! or an `await`, as for generators and async functions.

use std::collections::VecDeque;

use js_gc::{Gc, Trace, Tracer};
use js_promise::{Continuation, perform_promise_then_continuation, promise_reject_function, promise_resolve_function};

use super::generator::{ResumeMode, SavedFrame, push_saved_frame};
use super::run;
use crate::builtins::iteration::iter_result;
use crate::object::{JsObject, ObjectKind};
use crate::promise::ASYNC_GENERATOR_AWAIT_RETURN;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// `[[AsyncGeneratorState]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncGeneratorStatus {
    /// Created; the body has not started.
    SuspendedStart,
    /// Stopped at a `yield`.
    SuspendedYield,
    /// Running (or waiting at an `await`).
    Executing,
    /// Waiting for the value of a `return` request to settle.
    AwaitingReturn,
    /// Returned or threw.
    Completed,
}

/// An AsyncGeneratorRequest: the completion to resume with and the promise
/// the request returned.
#[derive(Clone, Copy)]
pub struct AsyncGeneratorRequest {
    /// How the generator is resumed.
    pub mode: ResumeMode,
    /// The sent value, thrown value or returned value.
    pub value: Value,
    /// The promise `next`/`throw`/`return` returned.
    pub promise: Gc<JsObject>,
}

/// An async generator object's internal slots.
pub struct AsyncGeneratorState {
    /// `[[AsyncGeneratorState]]`.
    pub status: AsyncGeneratorStatus,
    /// The frame while suspended at a `yield` or an `await`.
    pub frame: Option<SavedFrame>,
    /// `[[AsyncGeneratorQueue]]`.
    pub queue: VecDeque<AsyncGeneratorRequest>,
}

// SAFETY: the frame and every request's value and promise are reported.
unsafe impl Trace for AsyncGeneratorState {
    fn trace(&self, tracer: &mut Tracer) {
        if let Some(frame) = &self.frame {
            frame.trace(tracer);
        }
        for request in &self.queue {
            request.value.trace(tracer);
            request.promise.trace(tracer);
        }
    }
}

/// The state of `g`, if it is an async generator.
pub fn state_mut(vm: &mut Vm, g: Gc<JsObject>) -> Option<&mut AsyncGeneratorState> {
    match &mut g.borrow_mut(&mut vm.heap).kind {
        ObjectKind::AsyncGenerator(state) => Some(state),
        _ => None,
    }
}

/// Makes the async generator object for a frame that reached
/// `GeneratorStart`.
pub(super) fn create(vm: &mut Vm, saved: SavedFrame, proto: Gc<JsObject>) -> Gc<JsObject> {
    let state = AsyncGeneratorState {
        status: AsyncGeneratorStatus::SuspendedStart,
        frame: Some(saved),
        queue: VecDeque::new(),
    };
    vm.new_object_of_kind(Some(proto), ObjectKind::AsyncGenerator(Box::new(state)))
}

/// AsyncGeneratorCompleteStep: settles the oldest request's promise.
fn complete_step(vm: &mut Vm, g: Gc<JsObject>, outcome: Result<Value, Value>, done: bool) -> JsResult<()> {
    let Some(request) = state_mut(vm, g).and_then(|s| s.queue.pop_front()) else { return Ok(()) };
    vm.keep_alive(Value::object(request.promise));
    match outcome {
        Err(reason) => promise_reject_function(&mut vm.host(), request.promise, reason),
        Ok(value) => {
            let result = iter_result(vm, value, done);
            promise_resolve_function(&mut vm.host(), request.promise, result);
        }
    }
    vm.take_termination()
}

/// AsyncGeneratorDrainQueue: answers the requests that arrived after the
/// generator completed.
pub fn drain_queue(vm: &mut Vm, g: Gc<JsObject>) -> JsResult<()> {
    loop {
        let Some(next) = state_mut(vm, g).and_then(|s| s.queue.front().copied()) else { return Ok(()) };
        match next.mode {
            ResumeMode::Return => {
                if let Some(s) = state_mut(vm, g) {
                    s.status = AsyncGeneratorStatus::AwaitingReturn;
                }
                return await_return(vm, g);
            }
            ResumeMode::Throw => complete_step(vm, g, Err(next.value), true)?,
            ResumeMode::Next => complete_step(vm, g, Ok(Value::UNDEFINED), true)?,
        }
    }
}

/// AsyncGeneratorAwaitReturn: awaits the value of the oldest request (a
/// `return`), then completes it.
pub fn await_return(vm: &mut Vm, g: Gc<JsObject>) -> JsResult<()> {
    let Some(next) = state_mut(vm, g).and_then(|s| s.queue.front().copied()) else { return Ok(()) };
    match js_promise::promise_resolve(&mut vm.host(), next.value) {
        Ok(promise) => {
            let continuation = Continuation { job: ASYNC_GENERATOR_AWAIT_RETURN, data: Value::object(g) };
            perform_promise_then_continuation(&mut vm.host(), promise, continuation);
            Ok(())
        }
        Err(thrown) => {
            vm.take_termination()?;
            if let Some(s) = state_mut(vm, g) {
                s.status = AsyncGeneratorStatus::Completed;
            }
            complete_step(vm, g, Err(thrown), true)?;
            drain_queue(vm, g)
        }
    }
}

/// The continuation of [`await_return`].
pub fn await_return_settled(vm: &mut Vm, g: Value, outcome: Result<Value, Value>) -> JsResult<()> {
    let Some(g) = g.as_object() else { return Ok(()) };
    if let Some(s) = state_mut(vm, g) {
        s.status = AsyncGeneratorStatus::Completed;
    }
    complete_step(vm, g, outcome, true)?;
    drain_queue(vm, g)
}

/// AsyncGeneratorResume: runs the frame with the oldest request's
/// completion until it yields, awaits or completes.
pub fn resume(vm: &mut Vm, g: Gc<JsObject>, mode: ResumeMode, value: Value) -> JsResult<()> {
    let Some(state) = state_mut(vm, g) else { return Ok(()) };
    let started = state.status == AsyncGeneratorStatus::SuspendedYield;
    state.status = AsyncGeneratorStatus::Executing;
    let Some(saved) = state.frame.take() else { return Ok(()) };
    if vm.stack.frames.len() >= vm.options.max_call_depth || super::native_stack_exhausted(vm) {
        let e = vm.range_error("Maximum call stack size exceeded");
        let Exception::Throw(reason) = e else { return Err(e) };
        if let Some(s) = state_mut(vm, g) {
            s.status = AsyncGeneratorStatus::Completed;
        }
        complete_step(vm, g, Err(reason), true)?;
        return drain_queue(vm, g);
    }
    let resumption = started.then_some((value, Value::number(f64::from(mode as u8))));
    push_saved_frame(vm, saved, g, resumption);
    vm.stack.native_depth += 1;
    let result = run(vm);
    vm.stack.native_depth -= 1;
    result.map(drop)
}

/// What `AsyncYield` does after settling the current request.
pub(super) enum YieldOutcome {
    /// Another request is queued: continue at once with it.
    Continue(ResumeMode, Value),
    /// Nothing queued: the frame is to be saved.
    Suspend,
}

/// AsyncGeneratorYield's first steps: completes the running request with
/// `{ value, done: false }` and looks at the queue.
pub(super) fn yield_value(vm: &mut Vm, g: Gc<JsObject>, value: Value) -> JsResult<YieldOutcome> {
    complete_step(vm, g, Ok(value), false)?;
    let next = state_mut(vm, g).and_then(|s| s.queue.front().copied());
    Ok(match next {
        Some(request) => YieldOutcome::Continue(request.mode, request.value),
        None => YieldOutcome::Suspend,
    })
}

/// Saves the frame of a generator that yielded with an empty queue.
pub(super) fn suspend_at_yield(vm: &mut Vm, g: Gc<JsObject>, saved: SavedFrame) {
    if let Some(s) = state_mut(vm, g) {
        s.status = AsyncGeneratorStatus::SuspendedYield;
        s.frame = Some(saved);
    }
}

/// The body finished (returned `Ok` or threw `Err`): completes the running
/// request with `done: true` and answers the rest.
pub(super) fn finish(vm: &mut Vm, g: Gc<JsObject>, outcome: Result<Value, Value>) -> JsResult<()> {
    if let Some(s) = state_mut(vm, g) {
        s.status = AsyncGeneratorStatus::Completed;
        s.frame = None;
    }
    complete_step(vm, g, outcome, true)?;
    drain_queue(vm, g)
}
