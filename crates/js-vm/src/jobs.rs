//! The agent's job state, one part of [`Vm`](crate::Vm): the microtask
//! queue and the jobs it is running, the async-context frame they run
//! under, promise rejections waiting to be reported
//! (HostPromiseRejectionTracker), the WeakRef targets kept alive until the
//! current job ends (§9.10 AddToKeptObjects / ClearKeptObjects), and the
//! FinalizationRegistries whose cleanup is due.

use js_gc::{GcAny, Trace, Tracer};

use crate::object::JsObject;
use crate::value::Value;

/// See the module documentation.
pub(crate) struct JobQueues {
    /// The microtask queue (promise jobs and await continuations).
    pub microtasks: js_microtask::JobQueue<Value>,
    /// The jobs being run (their slots stay rooted while they run).
    pub running: Vec<js_microtask::Job<Value>>,
    /// The async-context state (the current frame, tracking).
    pub async_context: js_async_context::ContextState<Value>,
    /// Promises rejected without a handler, in order, and handlers added
    /// to them later (HostPromiseRejectionTracker).
    pub rejections: Vec<(js_gc::Gc<JsObject>, js_promise::RejectionOperation)>,
    /// An uncatchable termination seen inside a callback that can only
    /// report a thrown value (a promise handler).
    pub terminating: bool,
    /// WeakRef targets kept alive until the current job ends
    /// (AddToKeptObjects / ClearKeptObjects).
    pub kept_alive: Vec<Value>,
    /// FinalizationRegistries with targets found dead, whose cleanup
    /// callbacks are due.
    pub finalization_ready: Vec<GcAny>,
}

impl Default for JobQueues {
    fn default() -> Self {
        Self {
            microtasks: js_microtask::JobQueue::new(),
            running: Vec::new(),
            async_context: js_async_context::ContextState::new(),
            rejections: Vec::new(),
            terminating: false,
            kept_alive: Vec::new(),
            finalization_ready: Vec::new(),
        }
    }
}

// SAFETY: the queued and running jobs' slots, the context frames, the
// rejected promises, the kept targets and the due registries are every
// cell the job state holds.
unsafe impl Trace for JobQueues {
    fn trace(&self, tracer: &mut Tracer) {
        self.microtasks.trace(tracer);
        self.running.trace(tracer);
        self.async_context.trace(tracer);
        for (promise, _) in &self.rejections {
            promise.trace(tracer);
        }
        self.kept_alive.trace(tracer);
        self.finalization_ready.trace(tracer);
    }
}
