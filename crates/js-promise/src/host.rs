//! `PromiseHost`: what the algorithms need from the engine.

use js_async_context::ContextHost;
use js_gc::{Heap, Trace};
use js_microtask::Job;

use crate::context::capture_context;
use crate::error::PromiseError;
use crate::reaction::ContextSlot;
use crate::resolving::ResolvingFunction;
use crate::state::PromiseState;
use crate::value::PromiseValue;

/// The `operation` argument of
/// [HostPromiseRejectionTracker](https://tc39.es/ecma262/#sec-host-promise-rejection-tracker).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectionOperation {
    /// A promise without handlers was rejected (Node: a candidate for
    /// `unhandledRejection`).
    Reject,
    /// A handler was added to a rejected promise that had none (Node:
    /// `rejectionHandled` if it was already reported).
    Handle,
}

/// The engine's side of the promise algorithms.
///
/// The host owns the heap, the promise cells (each embeds a
/// [`PromiseState`]), function objects and the job queue; the crate owns
/// the algorithms. Every method is one spec operation; the ones that can run
/// user code return `Err(thrown value)` for an abrupt completion.
///
/// # Rooting
///
/// The algorithms hold values across a callback that may run user code
/// ([`call`](Self::call), [`get_then`](Self::get_then),
/// [`get_constructor`](Self::get_constructor)) only if they are that
/// callback's arguments or slots of the job being run. A host that collects
/// inside those callbacks roots the callee's arguments and keeps the running
/// job's slots rooted until [`run_promise_job`](crate::run_promise_job)
/// returns. One exception: the spec path of
/// [`await_value`](crate::await_value) (and
/// [`promise_resolve`](crate::promise_resolve)) holds the promise it just
/// made across `get_then`; a host that collects there roots the promises
/// it makes in [`new_promise`](Self::new_promise) in a handle scope.
///
/// # Contexts
///
/// Every reaction and every promise job has one context slot. By default it
/// holds the async-context frame current at registration
/// ([`capture_context`]). A host with a context of its own (Node's
/// `AsyncResource`-style async ids, a browser's incumbent settings object)
/// overrides [`capture_reaction_context`](Self::capture_reaction_context)
/// to store it instead ([`ContextSlot::embedder`]), and is told when a job
/// carrying one runs ([`enter_embedder_context`](Self::enter_embedder_context),
/// [`leave_embedder_context`](Self::leave_embedder_context)). An embedder
/// context is a value in a slot the reaction or job already has: it
/// allocates nothing. The host roots the contexts it enters, as it roots
/// the running job's slots.
pub trait PromiseHost: ContextHost<Self::Value> {
    /// The engine's value type.
    type Value: PromiseValue;
    /// A reference to one of the host's promise cells.
    type Promise: Copy + PartialEq + Trace + 'static;

    /// The heap reaction cells are allocated in.
    fn heap(&mut self) -> &mut Heap;

    /// The state embedded in `promise`'s cell.
    fn promise_state(&mut self, promise: Self::Promise) -> &mut PromiseState<Self::Value, Self::Promise>;

    /// `promise` as a JavaScript value.
    fn promise_value(&self, promise: Self::Promise) -> Self::Value;

    /// `value` as a native promise, if it is one (`IsPromise`).
    fn as_promise(&self, value: Self::Value) -> Option<Self::Promise>;

    /// Whether `value` is an object.
    fn is_object(&self, value: Self::Value) -> bool;

    /// Whether `value` is callable (`IsCallable`).
    fn is_callable(&self, value: Self::Value) -> bool;

    /// A new pending promise with `%Promise.prototype%`
    /// (`OrdinaryCreateFromConstructor(%Promise%)`), its cell holding
    /// [`PromiseState::new`].
    fn new_promise(&mut self) -> Self::Promise;

    /// `Get(value, "then")`; `value` is an object.
    ///
    /// # Errors
    /// The thrown value of an abrupt completion (a throwing getter).
    fn get_then(&mut self, value: Self::Value) -> Result<Self::Value, Self::Value>;

    /// Whether `Get(promise, "constructor")` is `%Promise%` and observes
    /// nothing: no own `constructor`, the intrinsic prototype, whose
    /// `constructor` is the unmodified data property. The await fast paths
    /// use it; `false` sends them down the spec path.
    fn promise_constructor_is_intact(&mut self, promise: Self::Promise) -> bool;

    /// `Get(value, "constructor")`; `value` is a native promise.
    ///
    /// # Errors
    /// The thrown value of an abrupt completion.
    fn get_constructor(&mut self, value: Self::Value) -> Result<Self::Value, Self::Value>;

    /// `%Promise%` of the current realm.
    fn intrinsic_promise_constructor(&self) -> Self::Value;

    /// `Call(function, this, args)`.
    ///
    /// # Errors
    /// The thrown value of an abrupt completion.
    fn call(
        &mut self,
        function: Self::Value,
        this: Self::Value,
        args: &[Self::Value],
    ) -> Result<Self::Value, Self::Value>;

    /// A built-in function object that, when called with `argument`, runs
    /// [`call_resolving_function`](crate::call_resolving_function)`(host,
    /// function, argument)` and returns `undefined`. Its `length` is 1 and
    /// its `name` is empty.
    fn create_resolving_function(&mut self, function: ResolvingFunction<Self::Promise>) -> Self::Value;

    /// A new `TypeError` object for `error`.
    fn type_error(&mut self, error: PromiseError) -> Self::Value;

    /// `HostEnqueuePromiseJob`: appends `job` to the microtask queue.
    fn enqueue_job(&mut self, job: Job<Self::Value>);

    /// `HostPromiseRejectionTracker(promise, operation)`.
    fn promise_rejection_tracker(&mut self, promise: Self::Promise, operation: RejectionOperation);

    /// The context slot a reaction registered now, or a promise job queued
    /// now, carries (`HostMakeJobCallback`'s captured state). The default is
    /// [`capture_context`]: the current async-context frame, or nothing
    /// (one flag test while tracking is off). A host returns
    /// [`ContextSlot::embedder`] to carry its own context instead.
    #[inline]
    fn capture_reaction_context(&mut self) -> ContextSlot<Self::Value> {
        capture_context(self)
    }

    /// A job whose context slot holds the embedder context `context` is
    /// about to run (inside [`with_job_context`](crate::with_job_context),
    /// under a swap scope with no frame current, so a frame the host
    /// installs here ends with the job). The default does nothing.
    #[inline]
    fn enter_embedder_context(&mut self, context: Self::Value) {
        let _ = context;
    }

    /// The job entered with [`enter_embedder_context`](Self::enter_embedder_context)`(context)`
    /// has finished (returned or unwound). The default does nothing.
    #[inline]
    fn leave_embedder_context(&mut self, context: Self::Value) {
        let _ = context;
    }
}
