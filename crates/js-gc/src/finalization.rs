//! `FinalizationTable<H>`: the storage of a `FinalizationRegistry`.

use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::fmt;
use std::ptr::NonNull;

use crate::gc::GcAny;
use crate::trace::{Trace, Tracer};

/// The registrations of one `FinalizationRegistry`: each a weakly held
/// target, a strongly held value, and an optional weakly held unregister
/// token.
///
/// When a collection finds a registered target unreachable, the registration
/// moves to the table's pending queue and the collection's
/// [`CollectionReport::finalization_ready`](crate::CollectionReport) names
/// the cell holding the table, so the embedder can schedule the cleanup job.
/// [`pop_pending`](Self::pop_pending) then hands out each held value once.
/// Unregister tokens that die are forgotten, so a later cell at the same
/// address cannot unregister anything. Held values stay alive while the table
/// is, including once pending; if the table itself dies, its registrations
/// die with it and no held value is delivered, as the spec requires.
pub struct FinalizationTable<H> {
    /// Mutated through `&self` only by the collector, while the embedder
    /// holds no borrow of any cell or root (see `Heap::collect`).
    inner: UnsafeCell<Registrations<H>>,
}

struct Registrations<H> {
    live: Vec<Registration<H>>,
    /// Held values whose target died, with their token, oldest first.
    pending: VecDeque<(H, Option<GcAny>)>,
}

struct Registration<H> {
    target: GcAny,
    held: H,
    token: Option<GcAny>,
}

/// The collector's view of a finalization table.
pub(crate) trait FinalizationSweep {
    /// Moves registrations whose target is unmarked to the pending queue and
    /// forgets unmarked tokens; returns whether any registration moved.
    ///
    /// # Safety
    /// Only the collector may call this, after marking, while no reference
    /// into the table exists.
    unsafe fn collect_dead_targets(&self) -> bool;
}

impl<H> FinalizationTable<H> {
    /// A table with no registrations.
    pub fn new() -> Self {
        Self { inner: UnsafeCell::new(Registrations { live: Vec::new(), pending: VecDeque::new() }) }
    }

    fn registrations(&self) -> &Registrations<H> {
        // SAFETY: mutation happens only through `&mut self` or by the
        // collector while no `&self` borrow exists (type invariant).
        unsafe { &*self.inner.get() }
    }

    /// Registers `target`; `held` is delivered once `target` has been
    /// collected, unless `token` unregisters it first.
    pub fn register(&mut self, target: impl Into<GcAny>, held: H, token: Option<GcAny>) {
        self.inner.get_mut().live.push(Registration { target: target.into(), held, token });
    }

    /// Removes every registration (pending or not) made with `token`;
    /// returns whether there was any.
    pub fn unregister(&mut self, token: GcAny) -> bool {
        let inner = self.inner.get_mut();
        let before = inner.live.len() + inner.pending.len();
        inner.live.retain(|registration| registration.token != Some(token));
        inner.pending.retain(|(_, pending_token)| *pending_token != Some(token));
        inner.live.len() + inner.pending.len() != before
    }

    /// Takes the held value of the oldest registration whose target died.
    pub fn pop_pending(&mut self) -> Option<H> {
        self.inner.get_mut().pending.pop_front().map(|(held, _)| held)
    }

    /// Whether a held value is waiting to be delivered.
    pub fn has_pending(&self) -> bool {
        !self.registrations().pending.is_empty()
    }

    /// The number of registrations whose target is still alive (as of the
    /// last collection).
    pub fn len(&self) -> usize {
        self.registrations().live.len()
    }

    /// Whether no registration is waiting for its target to die.
    pub fn is_empty(&self) -> bool {
        self.registrations().live.is_empty()
    }
}

impl<H> Default for FinalizationTable<H> {
    fn default() -> Self {
        Self::new()
    }
}

impl<H> fmt::Debug for FinalizationTable<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = self.registrations();
        f.debug_struct("FinalizationTable")
            .field("registrations", &inner.live.len())
            .field("pending", &inner.pending.len())
            .finish()
    }
}

impl<H: Trace + 'static> FinalizationSweep for FinalizationTable<H> {
    unsafe fn collect_dead_targets(&self) -> bool {
        // SAFETY: the caller guarantees no reference into the table exists.
        let inner = unsafe { &mut *self.inner.get() };
        let forget_dead = |token: &mut Option<GcAny>| {
            if token.is_some_and(|t| !t.header().is_marked()) {
                *token = None;
            }
        };
        let mut moved = false;
        // `extract_if` keeps registration order for the survivors and the queue.
        for Registration { held, mut token, .. } in
            inner.live.extract_if(.., |registration| !registration.target.header().is_marked())
        {
            forget_dead(&mut token);
            inner.pending.push_back((held, token));
            moved = true;
        }
        for registration in &mut inner.live {
            forget_dead(&mut registration.token);
        }
        for (_, token) in &mut inner.pending {
            forget_dead(token);
        }
        moved
    }
}

// SAFETY: held values are traced (they are strong); targets and tokens are
// weak and handled by the finalization pass the table registers for.
unsafe impl<H: Trace + 'static> Trace for FinalizationTable<H> {
    fn trace(&self, tracer: &mut Tracer) {
        let inner = self.registrations();
        if inner.live.is_empty() && inner.pending.is_empty() {
            return;
        }
        for registration in &inner.live {
            registration.held.trace(tracer);
        }
        for (held, _) in &inner.pending {
            held.trace(tracer);
        }
        let table: &(dyn FinalizationSweep + 'static) = self;
        tracer.finalization_tables.push((tracer.current_cell(), NonNull::from(table)));
    }
}

#[cfg(test)]
mod tests {
    use super::FinalizationTable;
    use crate::test_cells::{DropLog, Node, node};
    use crate::{Gc, Heap};

    fn drain(heap: &mut Heap, table: Gc<FinalizationTable<u32>>) -> Vec<u32> {
        std::iter::from_fn(|| table.borrow_mut(heap).pop_pending()).collect()
    }

    #[test]
    fn held_values_of_dead_targets_are_delivered_exactly_once() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let registry = heap.alloc(FinalizationTable::<u32>::new());
        let kept = node(&mut heap, &log, 1, vec![]);
        let lost_a = node(&mut heap, &log, 2, vec![]);
        let lost_b = node(&mut heap, &log, 3, vec![]);
        for (target, held) in [(kept, 100), (lost_a, 200), (lost_b, 300)] {
            registry.borrow_mut(&mut heap).register(target, held, None);
        }
        let mut roots = vec![registry.as_any(), kept.as_any()];
        // SAFETY: only the registry and `kept` are used afterwards.
        let report = unsafe { heap.collect(&mut roots) };
        assert_eq!(report.finalization_ready, vec![registry.as_any()]);
        assert!(registry.borrow(&heap).has_pending());
        assert_eq!(drain(&mut heap, registry), vec![200, 300]);
        assert_eq!(registry.borrow(&heap).len(), 1);

        // SAFETY: as above.
        let report = unsafe { heap.collect(&mut roots) };
        assert!(report.finalization_ready.is_empty());
        assert!(drain(&mut heap, registry).is_empty());
    }

    #[test]
    fn held_values_stay_alive_until_delivered() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let registry = heap.alloc(FinalizationTable::<Gc<Node>>::new());
        let target = node(&mut heap, &log, 1, vec![]);
        let held = node(&mut heap, &log, 2, vec![]);
        registry.borrow_mut(&mut heap).register(target, held, None);
        let mut roots = vec![registry];
        // SAFETY: only the registry is used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped(), vec![1]);
        // SAFETY: as above; the pending held value is kept by the registry.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped(), vec![1]);
        let delivered = registry.borrow_mut(&mut heap).pop_pending().unwrap();
        assert_eq!(delivered.borrow(&heap).id, 2);
        // SAFETY: only the registry is used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped(), vec![1, 2]);
    }

    #[test]
    fn unregister_removes_live_and_pending_registrations() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let registry = heap.alloc(FinalizationTable::<u32>::new());
        let token = node(&mut heap, &log, 9, vec![]);
        let target_a = node(&mut heap, &log, 1, vec![]);
        let target_b = node(&mut heap, &log, 2, vec![]);
        registry.borrow_mut(&mut heap).register(target_a, 1, Some(token.as_any()));
        registry.borrow_mut(&mut heap).register(target_b, 2, Some(token.as_any()));
        let mut roots = vec![registry.as_any(), token.as_any(), target_a.as_any()];
        // SAFETY: only the roots are used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert!(registry.borrow(&heap).has_pending());
        assert!(registry.borrow_mut(&mut heap).unregister(token.as_any()));
        assert!(!registry.borrow(&heap).has_pending());
        assert!(registry.borrow(&heap).is_empty());
        assert!(!registry.borrow_mut(&mut heap).unregister(token.as_any()));
    }

    #[test]
    fn dead_tokens_are_forgotten() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let registry = heap.alloc(FinalizationTable::<u32>::new());
        let token = node(&mut heap, &log, 9, vec![]);
        let target = node(&mut heap, &log, 1, vec![]);
        registry.borrow_mut(&mut heap).register(target, 1, Some(token.as_any()));
        let mut roots = vec![registry.as_any(), target.as_any()];
        // SAFETY: only the registry and target are used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped(), vec![9]);
        // A new cell may reuse the token's address; it must not unregister.
        let mut hits = 0;
        for id in 0..64 {
            let newcomer = node(&mut heap, &log, 100 + id, vec![]);
            if registry.borrow_mut(&mut heap).unregister(newcomer.as_any()) {
                hits += 1;
            }
        }
        assert_eq!(hits, 0);
        assert_eq!(registry.borrow(&heap).len(), 1);
    }

    #[test]
    fn a_dead_registry_delivers_nothing() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let registry = heap.alloc(FinalizationTable::<Gc<Node>>::new());
        let target = node(&mut heap, &log, 1, vec![]);
        let held = node(&mut heap, &log, 2, vec![]);
        registry.borrow_mut(&mut heap).register(target, held, None);
        // SAFETY: nothing is used afterwards.
        let report = unsafe { heap.collect(&mut ()) };
        assert!(report.finalization_ready.is_empty());
        assert_eq!(log.dropped(), vec![1, 2]);
    }
}
