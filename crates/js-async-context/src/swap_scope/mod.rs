//! `SwapScope`: runs a job or reaction under the frame it captured.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use crate::frame::Frame;
use crate::state::{ContextHost, ContextState};

/// An RAII scope that installs a captured frame for the duration of a job
/// (or a reaction, or an `AsyncLocalStorage.run` callback) and restores the
/// previous frame when dropped, on unwinding too.
///
/// * Tracking off: entering and leaving cost one flag test each; there is
///   no frame before, during or after.
/// * Tracking on: entering saves the current frame in the state and makes
///   the captured one current (storing it unconditionally: when it already
///   is current, the store changes nothing). Leaving **always** restores
///   the saved frame, so a job that captured nothing runs with nothing and
///   `enterWith()` inside a job ends with the job.
/// * Tracking switched on inside the scope (the job made the first
///   variable): there was no frame before, so leaving makes "no frame"
///   current again.
///
/// The scope borrows its host mutably and derefs to it, so the job runs
/// through the scope; a nested scope is entered on the outer one.
///
/// ```
/// use js_async_context::{ContextState, Frame, SwapScope};
/// use js_gc::Heap;
///
/// // `Heap::new`'s contract: this heap's cells are used only with it, while it lives.
/// let mut heap = unsafe { Heap::new() };
/// let mut state: ContextState<u64> = ContextState::new();
/// let request_id = state.create_variable()?;
/// let frame = Frame::new(&mut heap, request_id, 7);
/// {
///     let scope = SwapScope::enter(&mut state, Some(frame));
///     assert_eq!(scope.get(&heap, request_id), Some(7));
/// }
/// assert_eq!(state.current(), None);
/// # Ok::<(), js_async_context::ContextError>(())
/// ```
pub struct SwapScope<'a, H: ContextHost<V> + ?Sized, V> {
    host: &'a mut H,
    /// The saved frame's index in `ContextState::saved`, if one was saved.
    saved_at: Option<usize>,
    _value: PhantomData<fn() -> V>,
}

impl<'a, H: ContextHost<V> + ?Sized, V> SwapScope<'a, H, V> {
    /// Makes `captured` current until the scope is dropped.
    #[inline]
    pub fn enter(host: &'a mut H, captured: Option<Frame<V>>) -> Self {
        let state = host.context_state();
        let saved_at = if state.tracking_enabled() {
            let index = state.saved.len();
            state.saved.push(state.current());
            state.set_current(captured);
            Some(index)
        } else {
            debug_assert!(captured.is_none(), "a frame was captured before any variable existed");
            None
        };
        Self { host, saved_at, _value: PhantomData }
    }

    /// The async-context state (also reachable through the host).
    pub fn state(&mut self) -> &mut ContextState<V> {
        self.host.context_state()
    }
}

impl<H: ContextHost<V> + ?Sized, V> Drop for SwapScope<'_, H, V> {
    #[inline]
    fn drop(&mut self) {
        let state = self.host.context_state();
        let previous = match self.saved_at {
            Some(index) => {
                // Truncating (not popping) also discards the entries of
                // inner scopes that were leaked with `mem::forget`.
                let previous = state.saved.get(index).copied().flatten();
                state.saved.truncate(index);
                previous
            }
            // Tracking was off on entry, so there was no frame.
            None => None,
        };
        state.set_current(previous);
    }
}

impl<H: ContextHost<V> + ?Sized, V> Deref for SwapScope<'_, H, V> {
    type Target = H;

    fn deref(&self) -> &H {
        self.host
    }
}

impl<H: ContextHost<V> + ?Sized, V> DerefMut for SwapScope<'_, H, V> {
    fn deref_mut(&mut self) -> &mut H {
        self.host
    }
}

impl<H: ContextHost<V> + ?Sized, V> ContextHost<V> for SwapScope<'_, H, V> {
    #[inline]
    fn context_state(&mut self) -> &mut ContextState<V> {
        self.host.context_state()
    }
}

#[cfg(test)]
mod tests;
