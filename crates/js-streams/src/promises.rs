//! The promise operations of the Streams spec ("a new promise", "a promise
//! resolved with", "upon fulfillment/rejection") over js-promise, with
//! continuations instead of closures.

use js_microtask::{Job, JobKind};

use crate::host::StreamHost;
use js_promise::{
    Continuation, PromiseHost, PromiseStatus, PromiseValue, RejectionOperation, SETTLED_REJECTED, await_value,
    perform_promise_then_continuation, promise_reject_function, promise_resolve_function, reject_promise,
};

/// A new pending promise.
pub(crate) fn new_promise<H: PromiseHost>(host: &mut H) -> H::Promise {
    host.new_promise()
}

/// "A promise resolved with `value`" (`PromiseResolve(%Promise%, value)`;
/// a throwing `constructor` getter gives a promise rejected with what it
/// threw).
pub(crate) fn promise_resolved_with<H: PromiseHost>(host: &mut H, value: H::Value) -> H::Promise {
    match js_promise::promise_resolve(host, value) {
        Ok(promise) => promise,
        Err(thrown) => promise_rejected_with(host, thrown),
    }
}

/// The promise WebIDL converts a user callback's result to: a new promise
/// resolved with `value` (a native promise is adopted through a thenable
/// job, two turns, where `PromiseResolve` would return it as is).
pub(crate) fn promise_converted_from<H: StreamHost>(host: &mut H, value: H::Value) -> H::Promise {
    if host.as_promise(value).is_none() {
        return promise_resolved_with(host, value);
    }
    let promise = host.new_promise();
    resolve(host, promise, value);
    promise
}

/// What resolving a promise with a fulfilled outcome reads first: the
/// value's `then` (observable through a getter, e.g. one patched onto
/// `Object.prototype`); a throw rejects instead. An adoption that settles
/// its promise later does this when the promise it stands for would have
/// been resolved.
pub(crate) fn look_up_then<H: StreamHost>(
    host: &mut H,
    outcome: Result<H::Value, H::Value>,
) -> Result<H::Value, H::Value> {
    let Ok(value) = outcome else { return outcome };
    if !host.is_object(value) {
        return Ok(value);
    }
    host.root(value);
    host.get(value, "then").map(|_| value)
}

/// "A promise rejected with `reason`".
pub(crate) fn promise_rejected_with<H: PromiseHost>(host: &mut H, reason: H::Value) -> H::Promise {
    let promise = host.new_promise();
    reject_promise(host, promise, reason);
    promise
}

/// "Resolve `promise` with `value`"; nothing if it is already resolved.
/// Both are rooted first: resolving with an object reads its `then`,
/// which can run user code.
pub(crate) fn resolve<H: StreamHost>(host: &mut H, promise: H::Promise, value: H::Value) {
    let promise_value = host.promise_value(promise);
    host.root(promise_value);
    host.root(value);
    promise_resolve_function(host, promise, value);
}

/// "Reject `promise` with `reason`"; nothing if it is already resolved.
pub(crate) fn reject<H: PromiseHost>(host: &mut H, promise: H::Promise, reason: H::Value) {
    promise_reject_function(host, promise, reason);
}

/// Sets `[[PromiseIsHandled]]` (no rejection is reported for it). A
/// promise already rejected was reported to the host's rejection tracker
/// when it was rejected, so the tracker is told it is handled now, as a
/// handler added to it would (else the host reports it at the checkpoint).
pub fn mark_handled<H: PromiseHost>(host: &mut H, promise: H::Promise) {
    let state = host.promise_state(promise);
    if state.status() == PromiseStatus::Rejected && !state.is_handled() {
        host.promise_rejection_tracker(promise, RejectionOperation::Handle);
    }
    host.promise_state(promise).mark_handled();
}

/// Whether `promise` is still pending.
pub(crate) fn is_pending<H: PromiseHost>(host: &mut H, promise: H::Promise) -> bool {
    host.promise_state(promise).status() == PromiseStatus::Pending
}

/// "Upon settlement of a promise resolved with `value`": `kind` runs with
/// `data` and the outcome, in exactly the turns the spec's reaction takes
/// (a non-object or a settled native promise: the next microtask, queued
/// now; no promise is made for them).
pub(crate) fn upon_value<H: PromiseHost>(host: &mut H, value: H::Value, kind: JobKind, data: H::Value) {
    if let Err(thrown) = await_value(host, value, Continuation { job: kind, data }) {
        queue_continuation(host, kind, data, Err(thrown));
    }
}

/// "Upon settlement of" the promise WebIDL converts a user callback's
/// result to (a new promise resolved with it): like [`upon_value`], except
/// that a native promise is adopted through a thenable job
/// ([`crate::jobs::adopt_kind`]), so `kind` runs three turns after it
/// settles, not one; no promise is made for it.
pub(crate) fn upon_result<H: PromiseHost>(host: &mut H, value: H::Value, kind: JobKind, data: H::Value) {
    if host.as_promise(value).is_some() {
        queue_continuation(host, crate::jobs::adopt_kind(kind), data, Ok(value));
    } else {
        upon_value(host, value, kind, data);
    }
}

/// "Upon settlement of `promise`" with a continuation.
pub(crate) fn upon_promise<H: PromiseHost>(host: &mut H, promise: H::Promise, kind: JobKind, data: H::Value) {
    perform_promise_then_continuation(host, promise, Continuation { job: kind, data });
}

/// Queues `kind` with `data` and `outcome` as a microtask now, laid out as a
/// settled reaction's continuation job: how a completion that the spec
/// turns into an already-settled promise reaches its reaction, without the
/// promise, and how a step the spec takes one turn later (a derived
/// promise's reaction) is scheduled.
pub(crate) fn queue_continuation<H: PromiseHost>(
    host: &mut H,
    kind: JobKind,
    data: H::Value,
    outcome: Result<H::Value, H::Value>,
) {
    let (argument, rejected) = match outcome {
        Ok(value) => (value, false),
        Err(reason) => (reason, true),
    };
    let context = host.capture_reaction_context();
    let mut job = context.store_in(Job::new(kind, [data, argument, H::Value::undefined(), H::Value::undefined()]));
    if rejected {
        job = job.with_flags(SETTLED_REJECTED);
    }
    host.enqueue_job(job);
}
