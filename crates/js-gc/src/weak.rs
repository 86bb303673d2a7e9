//! `Weak<T>`: a reference that does not keep its target alive.

use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::gc::{Gc, GcAny};
use crate::trace::{Trace, Tracer};

/// The erased storage of a weak reference, cleared in place by the collector.
pub(crate) type WeakSlot = Cell<Option<GcAny>>;

/// A weak reference to a `T` cell, for `WeakRef` and weak caches.
///
/// Tracing a `Weak` does not mark its target. When a collection finds the
/// target unreachable it clears every `Weak` it traced that points there,
/// before the cell is freed, so [`upgrade`](Weak::upgrade) returns `None`
/// from then on and never a pointer to a reused cell.
///
/// A `Weak` is cleared only if the collector traces it: keep it in a cell or
/// in the roots passed to the collection, like any other heap pointer.
pub struct Weak<T> {
    slot: WeakSlot,
    _marker: PhantomData<Gc<T>>,
}

impl<T: Trace + 'static> Weak<T> {
    /// A weak reference to `target`.
    pub fn new(target: Gc<T>) -> Self {
        Self { slot: Cell::new(Some(target.as_any())), _marker: PhantomData }
    }

    /// A weak reference that is already empty.
    pub fn empty() -> Self {
        Self { slot: Cell::new(None), _marker: PhantomData }
    }

    /// The target, if it has not been collected.
    pub fn upgrade(&self) -> Option<Gc<T>> {
        // The slot only ever holds a `Gc<T>`'s pointer, so the downcast is
        // a formality that debug builds verify.
        self.slot.get().map(|cell| {
            debug_assert!(cell.is::<T>());
            Gc::from_box(cell.header_ptr().cast())
        })
    }

    /// Whether the target has been collected (or there was none).
    pub fn is_empty(&self) -> bool {
        self.slot.get().is_none()
    }
}

impl<T: Trace + 'static> Clone for Weak<T> {
    fn clone(&self) -> Self {
        Self { slot: Cell::new(self.slot.get()), _marker: PhantomData }
    }
}

impl<T: Trace + 'static> fmt::Debug for Weak<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.upgrade() {
            Some(target) => write!(f, "Weak({target:?})"),
            None => f.write_str("Weak(<empty>)"),
        }
    }
}

// SAFETY: a weak reference is not an edge; it registers its slot so the
// collector can clear it, which is all rule 1 asks of a `Weak`.
unsafe impl<T: Trace + 'static> Trace for Weak<T> {
    fn trace(&self, tracer: &mut Tracer) {
        if self.slot.get().is_some() {
            tracer.weak_slots.push(NonNull::from(&self.slot));
        }
    }
}
