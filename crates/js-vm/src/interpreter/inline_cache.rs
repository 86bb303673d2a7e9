//! Inline caches for named property reads and writes: per instruction, the
//! last shape seen and the slot the property had in it (for a read that
//! found the property on the receiver's prototype: that prototype and its
//! shape too). They hold shapes
//! weakly and are reconciled at the end of every collection: entries whose
//! shape died are cleared, and the tables of collected code are recycled.

use js_gc::{Gc, GcAny, Liveness, Reconciler};

use crate::object::{JsObject, Shape};

/// One cache entry.
#[derive(Clone, Copy, Debug)]
pub struct InlineCache {
    /// The shape last seen, if any.
    pub shape: Option<Gc<Shape>>,
    /// Where the property lives in objects of that shape (for a
    /// transition: the new slot).
    pub slot: u32,
    /// For a property add: the shape objects of `shape` move to. For a
    /// read found on the prototype: the prototype's shape.
    pub transition: Option<Gc<Shape>>,
    /// For a read found on the prototype: the prototype objects of `shape`
    /// had (objects of one shape can have different prototypes).
    pub prototype: Option<Gc<JsObject>>,
    /// For global reads and writes of a `var` (a property of the global
    /// object): the index of the binding in the global object's dictionary
    /// (`u32::MAX` when unknown). Valid while the realm has as many global
    /// lexical bindings as `lexical_count` says (a later script's `let` may
    /// shadow a configurable global property).
    pub dictionary_index: u32,
    /// For a global `let`/`const`/`class` binding: its index in the realm's
    /// global lexicals (`u32::MAX` when unknown). For a global `var`: the
    /// number of global lexical bindings when the entry was made.
    pub lexical_index: u32,
}

impl Default for InlineCache {
    fn default() -> Self {
        Self {
            shape: None,
            slot: 0,
            transition: None,
            prototype: None,
            dictionary_index: u32::MAX,
            lexical_index: u32::MAX,
        }
    }
}

// Entries are copied on every cached access; keep them five words.
const _: () = assert!(size_of::<InlineCache>() <= 40);

impl InlineCache {
    /// A cached own data property.
    pub fn property(shape: Gc<Shape>, slot: u32) -> Self {
        Self { shape: Some(shape), slot, ..Self::default() }
    }

    /// A data property that objects of `shape` whose prototype is
    /// `prototype` inherit from it, while it has `prototype_shape`.
    pub fn inherited(shape: Gc<Shape>, prototype: Gc<JsObject>, prototype_shape: Gc<Shape>, slot: u32) -> Self {
        Self {
            shape: Some(shape),
            slot,
            transition: Some(prototype_shape),
            prototype: Some(prototype),
            ..Self::default()
        }
    }
}

struct Table {
    owner: GcAny,
    entries: Box<[InlineCache]>,
}

/// Every code block's inline caches, owned by the VM so a collection can
/// reconcile them without reaching into the heap.
#[derive(Default)]
pub struct InlineCacheTables {
    tables: Vec<Option<Table>>,
    free: Vec<u32>,
}

impl InlineCacheTables {
    /// A table of `count` empty entries for the code cell `owner`.
    pub fn allocate(&mut self, owner: GcAny, count: u32) -> u32 {
        let table = Table { owner, entries: vec![InlineCache::default(); count as usize].into_boxed_slice() };
        if let Some(index) = self.free.pop() {
            self.tables[index as usize] = Some(table);
            index
        } else {
            self.tables.push(Some(table));
            (self.tables.len() - 1) as u32
        }
    }

    /// Reads an entry.
    #[inline]
    pub fn get(&self, table: u32, index: u32) -> InlineCache {
        self.tables
            .get(table as usize)
            .and_then(Option::as_ref)
            .and_then(|t| t.entries.get(index as usize))
            .copied()
            .unwrap_or_default()
    }

    /// Writes an entry.
    #[inline]
    pub fn set(&mut self, table: u32, index: u32, entry: InlineCache) {
        if let Some(slot) =
            self.tables.get_mut(table as usize).and_then(Option::as_mut).and_then(|t| t.entries.get_mut(index as usize))
        {
            *slot = entry;
        }
    }

    /// Whether table `table` belongs to code that is still loaded (tables
    /// of collected code are freed by reconciliation and handed out again
    /// later).
    pub fn is_allocated(&self, table: u32) -> bool {
        self.tables.get(table as usize).is_some_and(Option::is_some)
    }
}

impl Reconciler for InlineCacheTables {
    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        for (index, slot) in self.tables.iter_mut().enumerate() {
            let Some(table) = slot else { continue };
            if !liveness.is_live(table.owner) {
                *slot = None;
                self.free.push(index as u32);
                continue;
            }
            for entry in &mut table.entries {
                if entry.shape.is_some_and(|s| !liveness.is_live(s))
                    || entry.transition.is_some_and(|s| !liveness.is_live(s))
                    || entry.prototype.is_some_and(|p| !liveness.is_live(p))
                {
                    *entry = InlineCache::default();
                }
            }
        }
    }
}
