//! `EphemeronTable<V>`: `WeakMap` storage, where a value is reachable only
//! while its key is.

use std::cell::{Cell, UnsafeCell};
use std::collections::HashMap;
use std::fmt;
use std::ptr::NonNull;

use crate::gc::GcAny;
use crate::trace::{Trace, Tracer};

/// A map from cells to values in which an entry keeps its value alive only
/// while something else keeps its key alive: the storage of `WeakMap` and
/// `WeakSet`.
///
/// Tracing a table does not mark its keys. Once ordinary marking is done,
/// the collector traces the value of every entry whose key is marked, and
/// repeats until no new entry qualifies, because a value may keep the key of
/// another entry alive. Entries whose key stayed unmarked are then removed,
/// before their key's cell is freed. Like a [`Weak`](crate::Weak), a table is
/// only maintained while the collector traces it.
pub struct EphemeronTable<V> {
    /// Mutated through `&self` only by the collector, while it holds the
    /// heap exclusively and the embedder therefore holds no borrow of any
    /// cell or root (see `Heap::collect`).
    entries: UnsafeCell<HashMap<GcAny, Entry<V>, ahash::RandomState>>,
}

struct Entry<V> {
    value: V,
    /// The collection in which `value` was last traced.
    traced_in: Cell<u64>,
}

/// The collector's view of an ephemeron table, with its value type erased.
pub(crate) trait EphemeronSweep {
    /// Traces the value of each entry whose key is marked and whose value
    /// has not been traced in collection `tracer.epoch`; returns whether it
    /// traced any.
    fn trace_live_values(&self, tracer: &mut Tracer) -> bool;

    /// Removes the entries whose key is unmarked.
    ///
    /// # Safety
    /// Only the collector may call this, after marking, while no reference
    /// into the table exists.
    unsafe fn remove_dead(&self);
}

impl<V> EphemeronTable<V> {
    /// An empty table.
    pub fn new() -> Self {
        Self { entries: UnsafeCell::new(HashMap::default()) }
    }

    fn map(&self) -> &HashMap<GcAny, Entry<V>, ahash::RandomState> {
        // SAFETY: the map is only mutated through `&mut self` or by the
        // collector while no `&self` borrow can exist (type invariant).
        unsafe { &*self.entries.get() }
    }

    /// The value stored for `key`.
    pub fn get(&self, key: impl Into<GcAny>) -> Option<&V> {
        self.map().get(&key.into()).map(|entry| &entry.value)
    }

    /// The value stored for `key`, mutably.
    pub fn get_mut(&mut self, key: impl Into<GcAny>) -> Option<&mut V> {
        self.entries.get_mut().get_mut(&key.into()).map(|entry| &mut entry.value)
    }

    /// Whether `key` has an entry.
    pub fn contains_key(&self, key: impl Into<GcAny>) -> bool {
        self.map().contains_key(&key.into())
    }

    /// Stores `value` for `key`, returning the value it replaces.
    pub fn insert(&mut self, key: impl Into<GcAny>, value: V) -> Option<V> {
        self.entries.get_mut().insert(key.into(), Entry { value, traced_in: Cell::new(0) }).map(|old| old.value)
    }

    /// Removes the entry for `key`, returning its value.
    pub fn remove(&mut self, key: impl Into<GcAny>) -> Option<V> {
        self.entries.get_mut().remove(&key.into()).map(|entry| entry.value)
    }

    /// The number of entries (dead keys are removed at each collection that
    /// traces the table).
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.map().is_empty()
    }

    /// The entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (GcAny, &V)> {
        self.map().iter().map(|(key, entry)| (*key, &entry.value))
    }
}

impl<V> Default for EphemeronTable<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: fmt::Debug> fmt::Debug for EphemeronTable<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Trace + 'static> EphemeronSweep for EphemeronTable<V> {
    fn trace_live_values(&self, tracer: &mut Tracer) -> bool {
        let mut traced_any = false;
        for (key, entry) in self.map() {
            if entry.traced_in.get() != tracer.epoch && key.header().is_marked() {
                entry.traced_in.set(tracer.epoch);
                entry.value.trace(tracer);
                traced_any = true;
            }
        }
        traced_any
    }

    unsafe fn remove_dead(&self) {
        // SAFETY: the caller guarantees no reference into the table exists.
        let map = unsafe { &mut *self.entries.get() };
        map.retain(|key, _| key.header().is_marked());
    }
}

// SAFETY: keys are weak by design; values are traced by the collector's
// ephemeron pass, which the registration below enrolls the table in.
unsafe impl<V: Trace + 'static> Trace for EphemeronTable<V> {
    fn trace(&self, tracer: &mut Tracer) {
        if !self.is_empty() {
            let table: &dyn EphemeronSweep = self;
            tracer.ephemeron_tables.push(NonNull::from(table));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EphemeronTable;
    use crate::test_cells::{DropLog, Node, node};
    use crate::{Gc, Heap};

    #[test]
    fn values_live_exactly_while_their_keys_do() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let table = heap.alloc(EphemeronTable::<Gc<Node>>::new());
        let key_kept = node(&mut heap, &log, 1, vec![]);
        let key_lost = node(&mut heap, &log, 2, vec![]);
        let value_kept = node(&mut heap, &log, 10, vec![]);
        let value_lost = node(&mut heap, &log, 20, vec![]);
        table.borrow_mut(&mut heap).insert(key_kept, value_kept);
        table.borrow_mut(&mut heap).insert(key_lost, value_lost);
        let mut roots = vec![table.as_any(), key_kept.as_any()];
        // SAFETY: only the table, `key_kept` and its value are used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped(), vec![2, 20]);
        let table = table.borrow(&heap);
        assert_eq!(table.len(), 1);
        assert_eq!(table.get(key_kept), Some(&value_kept));
        assert_eq!(value_kept.borrow(&heap).id, 10);
    }

    #[test]
    fn chains_through_values_reach_a_fixpoint() {
        // k0 is rooted; table[k0] = k1, table[k1] = k2, ... The whole chain
        // lives, in as many rounds as it is long, and was inserted backwards
        // so that one pass in table order cannot settle it.
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let table = heap.alloc(EphemeronTable::<Gc<Node>>::new());
        let keys: Vec<Gc<Node>> = (0..50).map(|id| node(&mut heap, &log, id, vec![])).collect();
        for pair in keys.windows(2).rev() {
            table.borrow_mut(&mut heap).insert(pair[0], pair[1]);
        }
        // A second table whose only entry is keyed by the last of the chain.
        let other = heap.alloc(EphemeronTable::<Gc<Node>>::new());
        let tail_value = node(&mut heap, &log, 100, vec![]);
        other.borrow_mut(&mut heap).insert(keys[49], tail_value);
        let mut roots = vec![table.as_any(), other.as_any(), keys[0].as_any()];
        // SAFETY: only the roots and what they reach are used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert!(log.dropped().is_empty());
        assert_eq!(table.borrow(&heap).len(), 49);
        assert_eq!(other.borrow(&heap).get(keys[49]), Some(&tail_value));

        // Unroot k0: the whole chain dies, both tables empty out.
        roots.truncate(2);
        // SAFETY: only the two tables are used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped().len(), 51);
        assert!(table.borrow(&heap).is_empty() && other.borrow(&heap).is_empty());
    }

    #[test]
    fn a_value_referring_to_its_own_key_does_not_keep_it_alive() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let table = heap.alloc(EphemeronTable::<Gc<Node>>::new());
        let key = node(&mut heap, &log, 1, vec![]);
        let value = node(&mut heap, &log, 2, vec![key]);
        table.borrow_mut(&mut heap).insert(key, value);
        let mut roots = vec![table];
        // SAFETY: only the table is used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped(), vec![1, 2]);
        assert!(table.borrow(&heap).is_empty());
    }

    #[test]
    fn a_dead_table_keeps_nothing_alive() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let log = DropLog::default();
        let table = heap.alloc(EphemeronTable::<Gc<Node>>::new());
        let key = node(&mut heap, &log, 1, vec![]);
        let value = node(&mut heap, &log, 2, vec![]);
        table.borrow_mut(&mut heap).insert(key, value);
        let mut roots = vec![key];
        // SAFETY: only `key` is used afterwards.
        unsafe { heap.collect(&mut roots) };
        assert_eq!(log.dropped(), vec![2]);
    }

    #[test]
    fn map_operations() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let a = heap.alloc(1_u32);
        let b = heap.alloc(2_u32);
        let mut table = EphemeronTable::new();
        assert!(table.is_empty());
        assert_eq!(table.insert(a, "a"), None);
        assert_eq!(table.insert(a, "A"), Some("a"));
        table.insert(b, "b");
        *table.get_mut(b).unwrap() = "B";
        assert!(table.contains_key(a));
        assert_eq!(table.iter().count(), 2);
        assert_eq!(table.remove(a), Some("A"));
        assert_eq!(table.get(b), Some(&"B"));
        assert_eq!(table.len(), 1);
    }
}
