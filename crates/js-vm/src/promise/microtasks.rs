//! The microtask drain: promise jobs run by js-promise, await continuations
//! and `queueMicrotask` callbacks run here, each under the async-context
//! frame it captured.

use js_microtask::{Job, JobKind, JobKindRange, JobKindSpace};
use js_promise::{ContinuationJob, capture_context, is_promise_job, run_promise_job, with_job_context};

use crate::embedding::JsError;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The job kinds the engine itself owns, `0x0000..=0x00FF`.
pub const ENGINE_JOB_KINDS: JobKindRange = JobKindRange::new("js-vm", 0x0000, 0x00FF);

/// Every job kind the engine queues, one range per crate: the place where
/// the ranges are registered, so two crates taking the same tag is a
/// compile error here.
pub const JOB_KINDS: JobKindSpace<3> =
    JobKindSpace::new([ENGINE_JOB_KINDS, js_promise::JOB_KINDS, js_streams::JOB_KINDS]);

/// Resumes a suspended async function (slot 0: its state object).
pub const RESUME_ASYNC_FUNCTION: JobKind = ENGINE_JOB_KINDS.kind(1);
/// Calls a `queueMicrotask` callback (slot 0).
pub const MICROTASK_CALLBACK: JobKind = ENGINE_JOB_KINDS.kind(2);
/// Completes an async generator's `return` request once its value settled
/// (slot 0: the generator).
pub const ASYNC_GENERATOR_AWAIT_RETURN: JobKind = ENGINE_JOB_KINDS.kind(3);
/// Continues an async module once its body settled (continuation data:
/// the module's index).
pub const MODULE_ASYNC_SETTLED: JobKind = ENGINE_JOB_KINDS.kind(4);
/// Loads, links and evaluates an `import()`ed module (slots: the promise,
/// the specifier, the referrer).
pub const DYNAMIC_IMPORT: JobKind = ENGINE_JOB_KINDS.kind(5);
/// Settles an `import()` promise once the module evaluated (continuation
/// data: a `DynamicImportState`).
pub const DYNAMIC_IMPORT_SETTLED: JobKind = ENGINE_JOB_KINDS.kind(6);
/// Runs a promise combinator's element steps once the element's promise
/// settled (continuation data: the element's record), in place of the
/// element functions no script could see.
pub const PROMISE_COMBINATOR_ELEMENT: JobKind = ENGINE_JOB_KINDS.kind(7);

impl Vm {
    /// Runs microtasks until the queue is empty. A callback that throws
    /// (`queueMicrotask`) stops the drain with its exception, as an
    /// uncaught exception stops Node; promise handlers never throw out.
    pub fn run_microtasks(&mut self) -> Result<(), JsError> {
        self.perform_microtask_checkpoint().map_err(|e| self.js_error(e))
    }

    /// [`Vm::run_microtasks`] inside the VM (HTML's "perform a microtask
    /// checkpoint").
    pub(crate) fn perform_microtask_checkpoint(&mut self) -> JsResult<()> {
        while let Some(job) = self.jobs.microtasks.dequeue() {
            self.jobs.running.push(job);
            let result = self.run_job(&job);
            self.jobs.running.pop();
            result?;
            self.safepoint()?;
        }
        // ClearKeptObjects: a checkpoint ends the synchronous run.
        self.jobs.kept_alive.clear();
        Ok(())
    }

    fn run_job(&mut self, job: &Job<Value>) -> JsResult<()> {
        let kind = job.kind();
        debug_assert!(JOB_KINDS.owner_of(kind).is_some(), "{kind:?} is in no declared job-kind range");
        if is_promise_job(kind) {
            // Slots hold what this crate's promise code put there.
            let _ = run_promise_job(&mut self.host(), job);
            return self.take_termination();
        }
        if js_streams::is_stream_job(kind) {
            // Values the stream algorithms root live until the job ends.
            let mark = self.stack.temp_roots.len();
            js_streams::run_stream_job(&mut self.host(), job);
            self.stack.temp_roots.truncate(mark);
            return self.take_termination();
        }
        if kind == RESUME_ASYNC_FUNCTION {
            let resume = ContinuationJob::read(job);
            return with_job_context(&mut self.host(), job, |vm| {
                crate::interpreter::async_function::resume(vm, resume.data, resume.outcome)
            });
        }
        if kind == ASYNC_GENERATOR_AWAIT_RETURN {
            let settled = ContinuationJob::read(job);
            return with_job_context(&mut self.host(), job, |vm| {
                crate::interpreter::async_generator::await_return_settled(vm, settled.data, settled.outcome)
            });
        }
        if kind == MODULE_ASYNC_SETTLED {
            let settled = ContinuationJob::read(job);
            return with_job_context(&mut self.host(), job, |vm| {
                crate::module::evaluate::async_module_settled(vm, settled.data, settled.outcome)
            });
        }
        if kind == DYNAMIC_IMPORT {
            return crate::module::dynamic::continue_dynamic_import(self, job);
        }
        if kind == DYNAMIC_IMPORT_SETTLED {
            let settled = ContinuationJob::read(job);
            return with_job_context(&mut self.host(), job, |vm| {
                crate::module::dynamic::dynamic_import_settled(vm, settled.data, settled.outcome)
            });
        }
        if kind == PROMISE_COMBINATOR_ELEMENT {
            let settled = ContinuationJob::read(job);
            return with_job_context(&mut self.host(), job, |vm| {
                crate::builtins::promise::combinator_element_settled(vm, settled.data, settled.outcome)
            });
        }
        if kind == MICROTASK_CALLBACK {
            return with_job_context(&mut self.host(), job, |vm| {
                crate::object::internal_methods::call(vm, job.arg(0), Value::UNDEFINED, &[]).map(drop)
            });
        }
        Ok(())
    }

    /// The reason of the first promise rejected without a handler that
    /// still has none (what Node reports as an unhandled rejection), and
    /// forgets the rejections tracked so far.
    pub(crate) fn take_unhandled_rejection(&mut self) -> Option<Value> {
        let tracked = std::mem::take(&mut self.jobs.rejections);
        tracked.iter().enumerate().find_map(|(i, &(promise, operation))| {
            let handled_later =
                tracked[i + 1..].iter().any(|&(p, op)| p == promise && op == js_promise::RejectionOperation::Handle);
            if operation == js_promise::RejectionOperation::Reject && !handled_later {
                match &promise.borrow(&self.heap).kind {
                    crate::object::ObjectKind::Promise(state) => state.result(),
                    _ => None,
                }
            } else {
                None
            }
        })
    }

    /// `queueMicrotask(callback)`: queued under the current async-context
    /// frame.
    pub(crate) fn queue_microtask(&mut self, callback: Value) {
        let context = capture_context(&mut self.host());
        let mut job = Job::new(MICROTASK_CALLBACK, [callback, Value::UNDEFINED, Value::UNDEFINED, context.value]);
        if context.is_frame {
            job = job.with_context_frame(context.value);
        }
        self.jobs.microtasks.enqueue(job);
    }
}
