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
