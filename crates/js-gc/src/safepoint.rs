//! What the embedder hands the heap at a safepoint, and what it gets back.

use std::marker::PhantomData;

use crate::gc::GcAny;
use crate::heap::Heap;
use crate::trace::{Trace, Tracer};

/// The embedder's side of a collection: its roots, and its caches to
/// reconcile.
///
/// An engine implements this on the structure that owns its stacks,
/// registers and caches, and passes it to [`Heap::collect`] or
/// [`Heap::safepoint`].
pub trait Roots {
    /// Traces every heap pointer the embedder holds outside the heap (apart
    /// from [`Root`](crate::Root)s and [`HandleScope`](crate::HandleScope)s,
    /// which the heap traces itself).
    fn trace_roots(&self, tracer: &mut Tracer);

    /// Called after marking and before sweeping, with the collection's
    /// liveness answers: drop every cache entry whose key died. The cells of
    /// dead keys are freed right after this returns.
    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        let _ = liveness;
    }
}

/// No roots beyond the heap's own.
impl Roots for () {
    fn trace_roots(&self, _tracer: &mut Tracer) {}
}

impl<T: Trace> Roots for [T] {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.trace(tracer);
    }
}

impl<T: Trace> Roots for Vec<T> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.trace(tracer);
    }
}

/// A cache keyed by cells (inline caches, the microtask call cache, weak
/// atom tables): the piece an embedder's [`Roots::reconcile`] forwards to.
pub trait Reconciler {
    /// Drops every entry whose key `liveness` reports dead.
    fn reconcile(&mut self, liveness: &Liveness<'_>);
}

/// Which cells survive the collection in progress.
pub struct Liveness<'heap> {
    epoch: u64,
    _heap: PhantomData<&'heap Heap>,
}

impl Liveness<'_> {
    pub(crate) fn new(epoch: u64) -> Self {
        Self { epoch, _heap: PhantomData }
    }

    /// Whether `cell` survives this collection. `cell` must be a cell of this
    /// heap that was live when the collection started.
    #[inline]
    pub fn is_live(&self, cell: impl Into<GcAny>) -> bool {
        cell.into().header().is_marked()
    }

    /// The number of the collection in progress (see [`Heap::epoch`]).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
}

/// What one collection did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollectionReport {
    /// The collection's number: [`Heap::epoch`] after it.
    pub epoch: u64,
    /// Cells found unreachable and freed.
    pub freed_objects: u64,
    /// Bytes of those cells (size-class sizes).
    pub freed_bytes: u64,
    /// Cells that survived.
    pub live_objects: u64,
    /// Bytes of those cells.
    pub live_bytes: u64,
    /// Cells holding a [`FinalizationTable`](crate::FinalizationTable) that
    /// gained pending held values in this collection, once each, in the order
    /// they were traced. (A table held directly in the roots is updated too
    /// but, having no cell, is not listed.)
    pub finalization_ready: Vec<GcAny>,
}
