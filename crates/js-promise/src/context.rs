//! Capturing the context (an async-context frame or an embedder context)
//! into a reaction or job, and running a job under the context it captured.

use std::ops::{Deref, DerefMut};

use js_async_context::{ContextHost, Frame, SwapScope};
use js_gc::Trace;
use js_microtask::Job;

use crate::host::PromiseHost;
use crate::reaction::{ContextKind, ContextSlot};
use crate::value::PromiseValue;

/// The async-context part of a context slot for a reaction or job
/// registered now: the current frame when tracking is on and a frame is
/// current, else no context (one flag test when tracking is off). This is
/// what [`PromiseHost::capture_reaction_context`] returns unless the host
/// overrides it.
#[inline]
pub fn capture_context<H: ContextHost<V> + ?Sized, V: PromiseValue>(host: &mut H) -> ContextSlot<V> {
    match host.context_state().capture() {
        Some(frame) => ContextSlot::frame(frame),
        None => ContextSlot::none(),
    }
}

/// The frame a job carries in its fourth slot, if its context-frame flag is
/// set.
#[inline]
pub fn job_frame<V: PromiseValue + Trace>(job: &Job<V>) -> Option<Frame<V>> {
    job.context_frame().and_then(PromiseValue::as_cell).and_then(Frame::from_any)
}

/// What a job's fourth slot holds, unpacked: a frame (context-frame flag
/// set), an embedder context (flag clear, not `undefined`) or nothing.
#[inline]
pub fn job_context<V: PromiseValue>(job: &Job<V>) -> ContextKind<V> {
    ContextSlot::of_job(job).kind()
}

/// Runs `run` under the context `job` captured:
///
/// * a frame: in a [`SwapScope`] with the frame current;
/// * an embedder context: in a [`SwapScope`] with no frame, between
///   [`PromiseHost::enter_embedder_context`] and
///   [`PromiseHost::leave_embedder_context`] (called on unwinding too);
/// * nothing: in a [`SwapScope`] with no frame.
///
/// So a job that captured no frame runs with none, and `enterWith()` inside
/// the job ends with it.
#[inline]
pub fn with_job_context<H, R>(host: &mut H, job: &Job<H::Value>, run: impl FnOnce(&mut H) -> R) -> R
where
    H: PromiseHost + ?Sized,
{
    let slot = ContextSlot::of_job(job);
    let mut scope = SwapScope::enter(host, job_frame(job));
    // A job without an embedder context pays a flag test and a compare.
    if slot.is_frame || slot.value == H::Value::undefined() {
        return run(&mut scope);
    }
    let mut embedder = EmbedderScope::enter(&mut *scope, slot.value);
    run(&mut embedder)
}

/// RAII: the host is inside an embedder context until the scope drops.
struct EmbedderScope<'a, H: PromiseHost + ?Sized> {
    host: &'a mut H,
    context: H::Value,
}

impl<'a, H: PromiseHost + ?Sized> EmbedderScope<'a, H> {
    fn enter(host: &'a mut H, context: H::Value) -> Self {
        host.enter_embedder_context(context);
        Self { host, context }
    }
}

impl<H: PromiseHost + ?Sized> Drop for EmbedderScope<'_, H> {
    fn drop(&mut self) {
        self.host.leave_embedder_context(self.context);
    }
}

impl<H: PromiseHost + ?Sized> Deref for EmbedderScope<'_, H> {
    type Target = H;

    fn deref(&self) -> &H {
        self.host
    }
}

impl<H: PromiseHost + ?Sized> DerefMut for EmbedderScope<'_, H> {
    fn deref_mut(&mut self) -> &mut H {
        self.host
    }
}
