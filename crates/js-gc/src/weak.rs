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

#[cfg(test)]
mod tests {
    use super::Weak;
    use crate::test_cells::{DropLog, Node, node};
    use crate::{Gc, Heap, Trace, Tracer};

    /// A cell holding weak references, as a `WeakRef` object does.
    struct WeakHolder {
        targets: Vec<Weak<Node>>,
    }

    // SAFETY: the weak references are its only heap pointers.
    unsafe impl Trace for WeakHolder {
        fn trace(&self, tracer: &mut Tracer) {
            for weak in &self.targets {
                weak.trace(tracer);
            }
        }
    }

    #[test]
    fn weak_references_are_cleared_when_their_target_dies() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let kept = node(&mut heap, &log, 1, vec![]);
        let lost = node(&mut heap, &log, 2, vec![]);
        let holder = heap.alloc(WeakHolder { targets: vec![Weak::new(kept), Weak::new(lost), Weak::empty()] });
        let root = heap.root(holder);
        let mut roots = vec![kept];
        // SAFETY: only `kept` and the holder are used afterwards.
        unsafe { heap.collect(&mut roots) };
        let targets = &root.get().borrow(&heap).targets;
        assert_eq!(targets[0].upgrade(), Some(kept));
        assert!(targets[1].is_empty() && targets[1].upgrade().is_none());
        assert!(targets[2].is_empty());
        assert_eq!(log.dropped(), vec![2]);
    }

    #[test]
    fn a_weak_reference_does_not_keep_its_target_alive() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let target = node(&mut heap, &log, 7, vec![]);
        // The weak reference sits in the roots themselves.
        let mut roots = vec![Weak::new(target)];
        // SAFETY: nothing but the weak reference is used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert!(roots[0].upgrade().is_none());
        assert_eq!(log.dropped(), vec![7]);
    }

    #[test]
    fn weak_and_strong_to_the_same_target() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let target = node(&mut heap, &log, 1, vec![]);
        let holder = heap.alloc(WeakHolder { targets: vec![Weak::new(target)] });
        let mut roots: Vec<Gc<WeakHolder>> = vec![holder];
        let strong = heap.root(target);
        // SAFETY: the holder and the rooted target are used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(holder.borrow(&heap).targets[0].upgrade(), Some(strong.get()));
        drop(strong);
        // SAFETY: only the holder is used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert!(holder.borrow(&heap).targets[0].upgrade().is_none());
    }
}
