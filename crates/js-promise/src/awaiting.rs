//! The steps of [Await](https://tc39.es/ecma262/#await) with its fast
//! paths, and [PromiseResolve](https://tc39.es/ecma262/#sec-promise-resolve)
//! with `%Promise%`.

use crate::host::{PromiseHost, RejectionOperation};
use crate::jobs::ContinuationJob;
use crate::reaction::Continuation;
use crate::resolving::promise_resolve_function;
use crate::state::Slots;
use crate::then::perform_promise_then_continuation;

/// Which way an [`await_value`] went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AwaitPath {
    /// A non-object: the continuation was queued with it directly; no
    /// promise was made.
    NonObject,
    /// A settled native promise with the intrinsic constructor: the
    /// continuation was queued with its result directly.
    SettledPromise,
    /// A pending native promise with the intrinsic constructor: an inline or
    /// slim reaction was added.
    PendingPromise,
    /// Anything else: `PromiseResolve(%Promise%, value)` and a slim reaction
    /// on its result.
    Spec,
}

/// `Await(value)`: arranges for `continuation` to run with the outcome of
/// `value` as a microtask ([`ContinuationJob`] reads it), under the frame
/// current now.
///
/// Every path takes exactly the turns the spec's `PerformPromiseThen` on
/// `PromiseResolve(%Promise%, value)` takes: one for a non-object or a
/// settled promise (its job is queued now, as the spec's reaction job would
/// be), the promise's settlement plus one for a pending promise.
///
/// # Errors
/// The thrown value if `PromiseResolve` threw (a `constructor` getter on a
/// native promise): the await throws at once.
pub fn await_value<H: PromiseHost>(
    host: &mut H,
    value: H::Value,
    continuation: Continuation<H::Value>,
) -> Result<AwaitPath, H::Value> {
    if !host.is_object(value) {
        let context = host.capture_reaction_context();
        host.enqueue_job(ContinuationJob::build(continuation, value, false, context));
        return Ok(AwaitPath::NonObject);
    }
    if let Some(promise) = host.as_promise(value)
        && host.promise_constructor_is_intact(promise)
    {
        let state = host.promise_state(promise);
        let settled = match state.slots {
            Slots::Pending(_) => None,
            Slots::Fulfilled(value) => Some((value, false)),
            Slots::Rejected(reason) => Some((reason, true)),
        };
        let Some((argument, rejected)) = settled else {
            perform_promise_then_continuation(host, promise, continuation);
            return Ok(AwaitPath::PendingPromise);
        };
        // PerformPromiseThen on a settled promise, without the reaction.
        if rejected && !state.is_handled() {
            host.promise_rejection_tracker(promise, RejectionOperation::Handle);
        }
        host.promise_state(promise).mark_handled();
        let context = host.capture_reaction_context();
        host.enqueue_job(ContinuationJob::build(continuation, argument, rejected, context));
        return Ok(AwaitPath::SettledPromise);
    }
    let promise = promise_resolve(host, value)?;
    perform_promise_then_continuation(host, promise, continuation);
    Ok(AwaitPath::Spec)
}

/// `PromiseResolve(%Promise%, value)`: `value` itself if it is a native
/// promise whose `constructor` is `%Promise%`, else a new promise resolved
/// with `value` (which reads `value.then` once).
///
/// # Errors
/// The thrown value if reading `constructor` threw.
pub fn promise_resolve<H: PromiseHost>(host: &mut H, value: H::Value) -> Result<H::Promise, H::Value> {
    if let Some(promise) = host.as_promise(value) {
        let constructor = host.get_constructor(value)?;
        if constructor == host.intrinsic_promise_constructor() {
            return Ok(promise);
        }
    }
    let promise = host.new_promise();
    promise_resolve_function(host, promise, value);
    Ok(promise)
}
