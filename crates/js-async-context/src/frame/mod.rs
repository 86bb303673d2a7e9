//! `Frame`: an immutable, persistent mapping from variables to values,
//! stored as a cell of the js-gc heap.

use std::fmt;

use js_gc::{Gc, GcAny, Heap, Trace, Tracer};
use static_assertions::assert_eq_size;

use crate::variable::VariableId;

/// The heap cell behind a [`Frame`]: its bindings, sorted by variable.
pub struct FrameCell<V> {
    bindings: Box<[(VariableId, V)]>,
}

impl<V> FrameCell<V> {
    /// The bindings, sorted by variable.
    pub fn bindings(&self) -> &[(VariableId, V)] {
        &self.bindings
    }
}

// SAFETY: every value a frame owns is in `bindings`, and all are traced;
// variable ids own nothing. Tracing has no other effect. Dropping the box
// does not touch other cells.
unsafe impl<V: Trace> Trace for FrameCell<V> {
    const NEEDS_TRACE: bool = V::NEEDS_TRACE;

    fn trace(&self, tracer: &mut Tracer) {
        for (_, value) in &*self.bindings {
            value.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "AsyncContextFrame"
    }
}

/// An async-context frame: which value each variable has in one logical
/// flow of execution (what `AsyncLocalStorage.getStore()` and
/// `AsyncContext.Variable.prototype.get` read).
///
/// Frames are immutable and persistent. [`with`](Self::with) makes a new
/// frame with one binding added or replaced, copying the small sorted
/// vector of bindings; the old frame is untouched, so a frame captured by a
/// promise reaction or a job keeps meaning what it meant.
///
/// A frame is a [`Gc`] cell: `Copy`, one word, compared by identity, and
/// traced like any cell. "No frame" is `None`: a frame always has at least
/// one binding. Reading goes through the heap (`&Heap`), making a frame
/// allocates in it (`&mut Heap`). Frames fit in a job's argument slot as a
/// [`GcAny`] ([`as_any`](Self::as_any), [`from_any`](Self::from_any)).
pub struct Frame<V> {
    cell: Gc<FrameCell<V>>,
}

assert_eq_size!(Frame<u64>, u64);
assert_eq_size!(Option<Frame<u64>>, u64);

impl<V> Clone for Frame<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for Frame<V> {}

impl<V> PartialEq for Frame<V> {
    fn eq(&self, other: &Self) -> bool {
        self.cell == other.cell
    }
}

impl<V> Eq for Frame<V> {}

impl<V: Trace + Copy + 'static> Frame<V> {
    /// A frame with the single binding `variable = value`.
    pub fn new(heap: &mut Heap, variable: VariableId, value: V) -> Self {
        Self::from_bindings(heap, Box::new([(variable, value)]))
    }

    /// `base` with `variable = value` added or replaced (`base = None` is
    /// the empty frame): what `AsyncLocalStorage.run(store, f)` installs.
    pub fn bind(base: Option<Self>, heap: &mut Heap, variable: VariableId, value: V) -> Self {
        match base {
            Some(frame) => frame.with(heap, variable, value),
            None => Self::new(heap, variable, value),
        }
    }

    /// A new frame equal to this one but with `variable = value`.
    #[must_use]
    pub fn with(self, heap: &mut Heap, variable: VariableId, value: V) -> Self {
        let old = self.bindings(heap);
        let bindings: Box<[(VariableId, V)]> = match old.binary_search_by_key(&variable, |&(v, _)| v) {
            Ok(index) => {
                let mut bindings: Box<[(VariableId, V)]> = old.into();
                bindings[index].1 = value;
                bindings
            }
            Err(index) => {
                let mut bindings = Vec::with_capacity(old.len() + 1);
                bindings.extend_from_slice(&old[..index]);
                bindings.push((variable, value));
                bindings.extend_from_slice(&old[index..]);
                bindings.into_boxed_slice()
            }
        };
        Self::from_bindings(heap, bindings)
    }

    /// A new frame equal to this one but without a binding for `variable`;
    /// `None` if that leaves no binding. Returns `Some(self)` when the
    /// variable was not bound.
    #[must_use]
    pub fn without(self, heap: &mut Heap, variable: VariableId) -> Option<Self> {
        let old = self.bindings(heap);
        let Ok(index) = old.binary_search_by_key(&variable, |&(v, _)| v) else { return Some(self) };
        if old.len() == 1 {
            return None;
        }
        let bindings: Box<[(VariableId, V)]> =
            old[..index].iter().chain(&old[index + 1..]).copied().collect::<Vec<_>>().into_boxed_slice();
        Some(Self::from_bindings(heap, bindings))
    }

    /// The value of `variable` in this frame.
    #[inline]
    pub fn get(self, heap: &Heap, variable: VariableId) -> Option<V> {
        let bindings = self.bindings(heap);
        // Frames are small (one binding per live variable): scan short
        // ones linearly, search long ones.
        if bindings.len() <= 8 {
            bindings.iter().find(|(v, _)| *v == variable).map(|&(_, value)| value)
        } else {
            bindings.binary_search_by_key(&variable, |&(v, _)| v).ok().map(|index| bindings[index].1)
        }
    }

    /// The bindings, sorted by variable.
    pub fn bindings(self, heap: &Heap) -> &[(VariableId, V)] {
        self.cell.borrow(heap).bindings()
    }

    /// The number of bindings (at least one).
    pub fn len(self, heap: &Heap) -> usize {
        self.bindings(heap).len()
    }

    /// The frame's cell.
    pub fn as_gc(self) -> Gc<FrameCell<V>> {
        self.cell
    }

    /// The frame's cell with its type erased, to store in a job slot or an
    /// engine value.
    pub fn as_any(self) -> GcAny {
        self.cell.as_any()
    }

    /// The frame whose cell `cell` is, if it is a frame cell of this `V`.
    pub fn from_any(cell: GcAny) -> Option<Self> {
        cell.downcast().map(Self::from_gc)
    }

    /// The frame whose cell `cell` is.
    pub fn from_gc(cell: Gc<FrameCell<V>>) -> Self {
        Self { cell }
    }

    fn from_bindings(heap: &mut Heap, bindings: Box<[(VariableId, V)]>) -> Self {
        debug_assert!(bindings.windows(2).all(|pair| pair[0].0 < pair[1].0), "frame bindings must stay sorted");
        Self { cell: heap.alloc(FrameCell { bindings }) }
    }
}

impl<V: Trace + 'static> fmt::Debug for Frame<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Frame({:#x})", self.cell.as_any().addr())
    }
}

// SAFETY: a frame is one edge, to its cell.
unsafe impl<V: Trace + 'static> Trace for Frame<V> {
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        self.cell.trace(tracer);
    }
}

#[cfg(test)]
mod tests;
