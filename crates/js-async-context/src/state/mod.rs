//! `ContextState`: the VM's async-context state, the tracking flag and the
//! current frame.

use std::fmt;
use std::num::NonZeroU32;

use js_gc::{Heap, Trace, Tracer};

use crate::error::ContextError;
use crate::frame::Frame;
use crate::variable::VariableId;

/// A VM's async-context state: whether any variable exists
/// (`tracking_enabled`), the frame the running code sees (`current`), and
/// the frames [`SwapScope`](crate::SwapScope)s will restore.
///
/// * Tracking is off until the first variable is created
///   ([`create_variable`](Self::create_variable)) and then stays on; it is
///   per VM, never per global object. While it is off there is no frame,
///   [`capture`](Self::capture) is one flag test, and swap scopes do
///   nothing but that test.
/// * [`enter_with`](Self::enter_with) replaces the current frame
///   (`AsyncLocalStorage.prototype.enterWith`, restoring an
///   `AsyncContext.Snapshot`); the enclosing swap scope undoes it on exit.
///
/// The state holds frames, which are heap cells: the embedder traces it from
/// its [`Roots`](js_gc::Roots) (it implements [`Trace`]). The frames saved
/// by open swap scopes live here too, not on the native stack, so a
/// collection during a job sees them.
pub struct ContextState<V> {
    tracking_enabled: bool,
    current: Option<Frame<V>>,
    /// The frame each open swap scope restores, innermost last.
    pub(crate) saved: Vec<Option<Frame<V>>>,
    /// Variables created so far.
    variables: u32,
}

impl<V> ContextState<V> {
    /// Tracking off, no frame.
    pub const fn new() -> Self {
        Self { tracking_enabled: false, current: None, saved: Vec::new(), variables: 0 }
    }

    /// Whether any variable has been created in this VM.
    #[inline]
    pub fn tracking_enabled(&self) -> bool {
        self.tracking_enabled
    }

    /// The frame the running code sees.
    #[inline]
    pub fn current(&self) -> Option<Frame<V>> {
        self.current
    }

    /// The frame to store with a job or reaction being created: `None`
    /// after one flag test when tracking is off, else the current frame.
    #[inline]
    pub fn capture(&self) -> Option<Frame<V>> {
        if !self.tracking_enabled {
            return None;
        }
        self.current
    }

    /// Creates a variable (`new AsyncLocalStorage()`,
    /// `new AsyncContext.Variable()`), turning tracking on.
    ///
    /// # Errors
    /// [`ContextError::TooManyVariables`] once 2^32 - 1 variables exist.
    pub fn create_variable(&mut self) -> Result<VariableId, ContextError> {
        let next = self.variables.checked_add(1).ok_or(ContextError::TooManyVariables { limit: u32::MAX })?;
        self.variables = next;
        self.tracking_enabled = true;
        Ok(VariableId::new(NonZeroU32::MIN.saturating_add(next - 1)))
    }

    /// The number of variables created.
    pub fn variable_count(&self) -> u32 {
        self.variables
    }

    /// Makes `frame` current until the enclosing swap scope exits
    /// (`AsyncLocalStorage.prototype.enterWith`).
    ///
    /// # Panics
    /// In debug builds, if `frame` is `Some` while tracking is off: frames
    /// bind variables, so one cannot exist before the first variable.
    pub fn enter_with(&mut self, frame: Option<Frame<V>>) {
        debug_assert!(self.tracking_enabled || frame.is_none(), "a frame exists before any variable");
        self.current = frame;
    }

    /// The number of open swap scopes that saved a frame.
    pub fn scope_depth(&self) -> usize {
        self.saved.len()
    }

    pub(crate) fn set_current(&mut self, frame: Option<Frame<V>>) {
        self.current = frame;
    }
}

impl<V: Trace + Copy + 'static> ContextState<V> {
    /// The current value of `variable` (`AsyncLocalStorage.getStore()`).
    #[inline]
    pub fn get(&self, heap: &Heap, variable: VariableId) -> Option<V> {
        self.current.and_then(|frame| frame.get(heap, variable))
    }
}

impl<V> Default for ContextState<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Trace + 'static> fmt::Debug for ContextState<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContextState")
            .field("tracking_enabled", &self.tracking_enabled)
            .field("current", &self.current)
            .field("scope_depth", &self.saved.len())
            .field("variables", &self.variables)
            .finish()
    }
}

// SAFETY: the current frame and every saved frame are traced: these are all
// the heap pointers the state owns. Tracing has no other effect.
unsafe impl<V: Trace + 'static> Trace for ContextState<V> {
    fn trace(&self, tracer: &mut Tracer) {
        self.current.trace(tracer);
        for frame in &self.saved {
            frame.trace(tracer);
        }
    }
}

/// Whatever owns a VM's [`ContextState`]: the VM itself, the state, or an
/// open [`SwapScope`](crate::SwapScope) (so scopes nest).
pub trait ContextHost<V> {
    /// The async-context state.
    fn context_state(&mut self) -> &mut ContextState<V>;
}

impl<V> ContextHost<V> for ContextState<V> {
    #[inline]
    fn context_state(&mut self) -> &mut ContextState<V> {
        self
    }
}

#[cfg(test)]
mod tests;
