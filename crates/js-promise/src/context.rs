//! Capturing the async-context frame into a reaction or job, and running a
//! job under the frame it captured.

use js_async_context::{ContextHost, Frame, SwapScope};
use js_gc::Trace;
use js_microtask::Job;

use crate::reaction::ContextSlot;
use crate::value::PromiseValue;

/// The context slot for a reaction or job registered now: the current frame
/// when tracking is on and a frame is current, else `undefined` (one flag
/// test when tracking is off).
#[inline]
pub fn capture_context<H: ContextHost<V> + ?Sized, V: PromiseValue>(host: &mut H) -> ContextSlot<V> {
    match host.context_state().capture() {
        Some(frame) => ContextSlot { value: V::from_cell(frame.as_any()), is_frame: true },
        None => ContextSlot::none(),
    }
}

/// The frame a job carries in its fourth slot, if its context-frame flag is
/// set.
#[inline]
pub fn job_frame<V: PromiseValue + Trace>(job: &Job<V>) -> Option<Frame<V>> {
    job.context_frame().and_then(PromiseValue::as_cell).and_then(Frame::from_any)
}

/// Runs `run` under the frame `job` captured, in a
/// [`SwapScope`]: a job that captured no frame runs with none, and
/// `enterWith()` inside the job ends with it.
#[inline]
pub fn with_job_context<H, V, R>(host: &mut H, job: &Job<V>, run: impl FnOnce(&mut H) -> R) -> R
where
    H: ContextHost<V> + ?Sized,
    V: PromiseValue,
{
    let mut scope = SwapScope::enter(host, job_frame(job));
    run(&mut scope)
}
