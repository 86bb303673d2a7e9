//! A promise slot made on first observation (`reader.closed`,
//! `writer.closed`, `writer.ready`): until script or a pipe asks for it,
//! its outcome is recorded without a promise object.
//!
//! Every rejection these slots receive is marked handled by the spec, so a
//! promise made late from a recorded rejection is made handled and is
//! never reported; its identity is stable from the first observation on.

use js_gc::{Trace, Tracer};
use js_promise::{PromiseHost, PromiseValue, fulfill_promise, reject_promise};

use crate::promises::{is_pending, mark_handled, reject, resolve};

/// The state of a lazily made promise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LazyPromise<V, P> {
    /// Pending, not yet observed.
    Pending,
    /// Fulfilled with the value, not yet observed.
    Fulfilled(V),
    /// Rejected (and handled) with the reason, not yet observed.
    Rejected(V),
    /// Rejected (and handled) with a new TypeError because its reader was
    /// released, not yet observed: the error is made on first observation
    /// (a released reader's `closed` is rarely looked at, and making an
    /// error object is most of the cost of `releaseLock()`).
    RejectedReleased,
    /// Observed: the promise itself.
    Made(P),
}

impl<V: PromiseValue, P: Copy> LazyPromise<V, P> {
    /// The promise, made now from the recorded outcome if it was not yet
    /// observed.
    pub fn get<H: crate::host::StreamHost + PromiseHost<Value = V, Promise = P>>(&mut self, host: &mut H) -> P {
        let promise = match *self {
            Self::Made(promise) => return promise,
            Self::Pending => host.new_promise(),
            Self::Fulfilled(value) => {
                let promise = host.new_promise();
                fulfill_promise(host, promise, value);
                promise
            }
            Self::Rejected(reason) => {
                let promise = host.new_promise();
                mark_handled(host, promise);
                reject_promise(host, promise, reason);
                promise
            }
            Self::RejectedReleased => {
                let reason = host.new_error(crate::host::ErrorKind::Type, "Releasing reader");
                host.root(reason);
                let promise = host.new_promise();
                mark_handled(host, promise);
                reject_promise(host, promise, reason);
                promise
            }
        };
        *self = Self::Made(promise);
        promise
    }

    /// Whether the promise is (or would be) pending.
    pub fn is_pending<H: PromiseHost<Value = V, Promise = P>>(&self, host: &mut H) -> bool {
        match *self {
            Self::Pending => true,
            Self::Fulfilled(_) | Self::Rejected(_) | Self::RejectedReleased => false,
            Self::Made(promise) => is_pending(host, promise),
        }
    }

    /// "Resolve it with `value`" (nothing if already settled).
    pub fn resolve<H: crate::host::StreamHost + PromiseHost<Value = V, Promise = P>>(
        &mut self,
        host: &mut H,
        value: V,
    ) {
        match *self {
            Self::Pending => *self = Self::Fulfilled(value),
            Self::Made(promise) => resolve(host, promise, value),
            Self::Fulfilled(_) | Self::Rejected(_) | Self::RejectedReleased => {}
        }
    }

    /// "Reject it with `reason`" and mark it handled (nothing if already
    /// settled).
    pub fn reject_handled<H: PromiseHost<Value = V, Promise = P>>(&mut self, host: &mut H, reason: V) {
        match *self {
            Self::Pending => *self = Self::Rejected(reason),
            Self::Made(promise) => {
                if is_pending(host, promise) {
                    mark_handled(host, promise);
                    reject(host, promise, reason);
                }
            }
            Self::Fulfilled(_) | Self::Rejected(_) | Self::RejectedReleased => {}
        }
    }
}

// SAFETY: the recorded value or the promise is the only pointer.
unsafe impl<V: Trace, P: Trace> Trace for LazyPromise<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::Pending | Self::RejectedReleased => {}
            Self::Fulfilled(value) | Self::Rejected(value) => value.trace(tracer),
            Self::Made(promise) => promise.trace(tracer),
        }
    }
}
