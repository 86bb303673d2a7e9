//! Capturing the context (an async-context frame or an embedder context)
//! into a reaction or job, and running a job under the context it captured.

use std::ops::{Deref, DerefMut};

use js_async_context::{ContextHost, Frame, SwapScope};
use js_gc::Trace;
use js_microtask::{CONTEXT_SLOT, Job};

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
///
/// `run` is called from one place whatever the job carries, so it is
/// instantiated once and inlined into the caller's job loop like a plain
/// [`SwapScope`] body; a job without an embedder context pays a compare on
/// entry and a test on exit.
#[inline]
pub fn with_job_context<H, R>(host: &mut H, job: &Job<H::Value>, run: impl FnOnce(&mut H) -> R) -> R
where
    H: PromiseHost + ?Sized,
{
    let slot = ContextSlot::of_job(job);
    let frame = if slot.is_frame { slot.value.as_cell().and_then(Frame::from_any) } else { None };
    let embedder = !slot.is_frame & (slot.value != H::Value::undefined());
    let mut scope = SwapScope::enter(host, frame);
    // Two scopes, not one holding the other, and the embedder scope holds
    // the job rather than a copy of its context: both stay in registers
    // around `run`, with drops small enough to inline on unwinding.
    let mut scope = EmbedderScope::enter(&mut *scope, job, embedder);
    run(&mut scope)
}

/// RAII: if `entered`, the host is inside the job's embedder context until
/// the scope drops (on unwinding too).
struct EmbedderScope<'a, 'j, H: PromiseHost + ?Sized> {
    host: &'a mut H,
    /// The running job.
    job: &'j Job<H::Value>,
    /// Whether the job's embedder context was entered.
    entered: bool,
}

impl<'a, 'j, H: PromiseHost + ?Sized> EmbedderScope<'a, 'j, H> {
    // Left to the inliner, the scope stays out of line at some of a host's
    // `with_job_context` sites (measured: with plain `#[inline]` here and on
    // the test host's `run_job`, the rows grow by 12 to 15 instructions/op).
    #[allow(clippy::inline_always, reason = "measured with the callgrind benchmark")]
    #[inline(always)]
    fn enter(host: &'a mut H, job: &'j Job<H::Value>, entered: bool) -> Self {
        if entered {
            enter_embedder_context(host, job);
        }
        Self { host, job, entered }
    }
}

impl<H: PromiseHost + ?Sized> Drop for EmbedderScope<'_, '_, H> {
    #[allow(clippy::inline_always, reason = "measured with the callgrind benchmark")]
    #[inline(always)]
    fn drop(&mut self) {
        if self.entered {
            leave_embedder_context(self.host, self.job);
        }
    }
}

/// [`PromiseHost::enter_embedder_context`] with `job`'s context, out of
/// line: a job without an embedder context does not carry the host's code
/// inline.
#[cold]
#[inline(never)]
fn enter_embedder_context<H: PromiseHost + ?Sized>(host: &mut H, job: &Job<H::Value>) {
    host.enter_embedder_context(job.arg(CONTEXT_SLOT));
}

/// [`PromiseHost::leave_embedder_context`] with `job`'s context, out of
/// line.
#[cold]
#[inline(never)]
fn leave_embedder_context<H: PromiseHost + ?Sized>(host: &mut H, job: &Job<H::Value>) {
    host.leave_embedder_context(job.arg(CONTEXT_SLOT));
}

impl<H: PromiseHost + ?Sized> Deref for EmbedderScope<'_, '_, H> {
    type Target = H;

    #[inline]
    fn deref(&self) -> &H {
        self.host
    }
}

impl<H: PromiseHost + ?Sized> DerefMut for EmbedderScope<'_, '_, H> {
    #[inline]
    fn deref_mut(&mut self) -> &mut H {
        self.host
    }
}
