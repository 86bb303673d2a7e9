//! A collection: mark from the roots, settle ephemerons, process weak
//! references, finalization tables and reconcilers, then sweep.

use std::ptr::NonNull;

use super::Heap;
use super::large::LargeObjects;
use super::size_class::SizeClass;
use crate::cell::{HEADER_SIZE, Header, POISON_BYTE};
use crate::safepoint::{CollectionReport, Liveness, Roots};
use crate::trace::Tracer;

/// Aborts the process if a panic starts while it is alive: a collection or
/// the heap's teardown interrupted halfway leaves free lists pointing into
/// released blocks and mark bits that would hide live cells from the next
/// collection, so unwinding out of one is never safe to continue from.
pub(super) struct AbortOnUnwind {
    what: &'static str,
    /// Already unwinding when made (a heap dropped during a panic): a
    /// second panic aborts by itself.
    already_panicking: bool,
}

impl AbortOnUnwind {
    pub(super) fn new(what: &'static str) -> Self {
        Self { what, already_panicking: std::thread::panicking() }
    }
}

impl Drop for AbortOnUnwind {
    fn drop(&mut self) {
        if std::thread::panicking() && !self.already_panicking {
            eprintln!("js-gc: a panic during {} (a Roots implementation or a cell's Drop); aborting", self.what);
            std::process::abort();
        }
    }
}

impl Heap {
    /// Collects if one is due ([`should_collect`](Self::should_collect));
    /// the embedder calls this at its safepoints.
    ///
    /// # Safety
    /// As for [`collect`](Self::collect).
    pub unsafe fn safepoint(&mut self, roots: &mut dyn Roots) -> Option<CollectionReport> {
        // SAFETY: forwarded to the caller.
        self.should_collect().then(|| unsafe { self.collect(roots) })
    }

    /// Runs a full collection now.
    ///
    /// Reachable means: traced from `roots`, a live [`Root`](crate::Root), a
    /// handle of an open [`HandleScope`](crate::HandleScope), or a reachable
    /// cell; plus ephemeron values whose key is reachable. Everything else
    /// is dropped and its memory reused.
    ///
    /// # Safety
    /// This is the rooting rule of the whole heap. After this call the
    /// embedder may use only those `Gc`s and [`GcAny`](crate::GcAny)s that
    /// point to reachable cells (as defined above); any other pointer it
    /// still holds is dangling and must never be used again (debug builds
    /// catch most such uses: freed cells are marked and poisoned). Weak
    /// references that were traced are cleared, so upgrading them is always
    /// sound. The weak structures `roots` traces ([`Weak`](crate::Weak),
    /// [`EphemeronTable`](crate::EphemeronTable),
    /// [`FinalizationTable`](crate::FinalizationTable)) must stay where they
    /// were traced and unborrowed until this returns: the collector updates
    /// them in place through the addresses it was given.
    ///
    /// A panic inside the collection (from `roots`, or from a cell's `Drop`
    /// while sweeping) aborts the process: the heap would be left half swept.
    pub unsafe fn collect(&mut self, roots: &mut dyn Roots) -> CollectionReport {
        // Before anything changes, so that a write-after-free it finds is a
        // panic the embedder sees, not an abort.
        if self.config.poison {
            self.check_quarantined_poison();
        }
        let _abort_on_panic = AbortOnUnwind::new("a collection");
        let epoch = self.epoch + 1;
        let mut tracer = Tracer::new(epoch, std::mem::take(&mut self.mark_stack));
        roots.trace_roots(&mut tracer);
        self.roots.trace(&mut tracer);
        self.handles.trace(&mut tracer);
        mark_to_fixpoint(&mut tracer);

        // Marking is final: nothing below marks a cell.
        // SAFETY: called once, after marking, while the embedder holds no
        // reference into any cell or root (`&mut self` and `&mut roots`).
        let finalization_ready = unsafe { process_weak_structures(&tracer) };
        roots.reconcile(&Liveness::new(epoch));

        let totals = self.sweep();
        self.mark_stack = tracer.into_stack();
        self.epoch = epoch;
        self.live_bytes_after_collection = totals.live_bytes;
        self.allocated_at_last_collection = self.total_allocated;
        // Saturating float-to-int conversion: a negative or NaN factor means 0.
        #[allow(clippy::cast_sign_loss, reason = "the conversion saturates at 0")]
        let grown = (totals.live_bytes as f64 * self.config.growth_factor) as u64;
        self.collection_threshold = grown.max(self.config.min_collection_threshold);
        self.collect_at = super::due_mark(self.total_allocated, self.config.stress, self.collection_threshold);
        CollectionReport {
            epoch,
            freed_objects: totals.freed_objects,
            freed_bytes: totals.freed_bytes,
            live_objects: totals.live_objects,
            live_bytes: totals.live_bytes,
            finalization_ready,
        }
    }

    fn sweep(&mut self) -> SweepTotals {
        let mode = SweepMode { quarantine: self.config.stress, poison: self.config.poison };
        let mut totals = SweepTotals::default();
        for class in &mut self.classes {
            sweep_class(class, mode, &mut totals);
        }
        sweep_large(&mut self.large, mode, &mut totals);
        totals
    }

    /// Marks everything reachable from `roots` and stops: the marking half
    /// of a collection, for the mark-throughput benchmark. Call
    /// [`bench_unmark`](Self::bench_unmark) before anything else.
    ///
    /// # Safety
    /// The heap must be unmarked (as it is between collections).
    #[cfg(feature = "bench")]
    #[doc(hidden)]
    pub unsafe fn bench_mark(&mut self, roots: &dyn Roots) {
        let mut tracer = Tracer::new(self.epoch + 1, std::mem::take(&mut self.mark_stack));
        roots.trace_roots(&mut tracer);
        mark_to_fixpoint(&mut tracer);
        self.mark_stack = tracer.into_stack();
    }

    /// Panics if a cell freed by the last collection (kept out of use in
    /// gc-stress mode) was written to since.
    fn check_quarantined_poison(&self) {
        for class in &self.classes {
            for cell in class.cells() {
                // SAFETY: carved cells of a live block are live or free.
                let header = unsafe { cell.as_ref() };
                if header.is_free() && header.is_quarantined() {
                    // SAFETY: a quarantined cell of this class.
                    unsafe { check_poison(cell, class.cell_size) };
                }
            }
        }
        for large in &self.large.cells {
            // SAFETY: every large cell is live or quarantined.
            if unsafe { large.cell.as_ref() }.is_free() {
                // SAFETY: a quarantined large cell.
                unsafe { check_poison(large.cell, large.layout.size()) };
            }
        }
    }

    /// Clears every mark bit after [`bench_mark`](Self::bench_mark).
    #[cfg(feature = "bench")]
    #[doc(hidden)]
    pub fn bench_unmark(&mut self) {
        for class in &self.classes {
            for cell in class.cells() {
                // SAFETY: carved cells of a live block are live or free.
                unsafe { cell.as_ref() }.clear_mark();
            }
        }
        for large in &self.large.cells {
            // SAFETY: large cells are live or free.
            unsafe { large.cell.as_ref() }.clear_mark();
        }
    }
}

/// Drains the mark stack, then traces ephemeron values whose keys are marked,
/// until neither finds anything new.
fn mark_to_fixpoint(tracer: &mut Tracer) {
    loop {
        tracer.drain();
        let mut traced_any = false;
        // Tables found while tracing values join the list; index so they
        // are visited too.
        let mut index = 0;
        while index < tracer.ephemeron_tables.len() {
            let table = tracer.ephemeron_tables[index];
            // SAFETY: registered tables live in marked cells or in the roots,
            // both untouched until the collection ends.
            traced_any |= unsafe { table.as_ref() }.trace_live_values(tracer);
            index += 1;
        }
        if !traced_any && !tracer.has_queued() {
            return;
        }
    }
}

/// Moves dead finalization targets to their tables' pending queues, clears
/// weak references to unmarked cells and removes ephemeron entries with
/// unmarked keys. Returns the cells whose finalization tables gained pending
/// values.
///
/// # Safety
/// Marking must be complete and the embedder must hold no reference into any
/// cell or root.
unsafe fn process_weak_structures(tracer: &Tracer) -> Vec<crate::GcAny> {
    let mut ready = Vec::new();
    for &(owner, table) in &tracer.finalization_tables {
        // SAFETY: the table lives in a marked cell or in the roots; the
        // caller guarantees exclusive access.
        if unsafe { table.as_ref().collect_dead_targets() }
            && let Some(owner) = owner
            && ready.last() != Some(&owner)
        {
            ready.push(owner);
        }
    }
    for slot in &tracer.weak_slots {
        // SAFETY: the slot lives in a marked cell or in the roots.
        let slot = unsafe { slot.as_ref() };
        if slot.get().is_some_and(|target| !target.header().is_marked()) {
            slot.set(None);
        }
    }
    for table in &tracer.ephemeron_tables {
        // SAFETY: as for finalization tables above.
        unsafe { table.as_ref().remove_dead() };
    }
    ready
}

#[derive(Default)]
struct SweepTotals {
    live_objects: u64,
    live_bytes: u64,
    freed_objects: u64,
    freed_bytes: u64,
}

#[derive(Clone, Copy)]
struct SweepMode {
    /// Keep freed cells out of the free list until the next collection
    /// (gc-stress mode), so stale pointers meet poison, not a new value.
    quarantine: bool,
    poison: bool,
}

/// A free list under construction, in address order.
#[derive(Default)]
struct FreeList {
    head: Option<NonNull<Header>>,
    tail: Option<NonNull<Header>>,
}

impl FreeList {
    fn push(&mut self, cell: NonNull<Header>) {
        // SAFETY: list cells are free cells of a live block.
        unsafe { cell.as_ref() }.set_free(None, false);
        match self.tail {
            // SAFETY: as above.
            Some(tail) => unsafe { tail.as_ref() }.set_free(Some(cell), false),
            None => self.head = Some(cell),
        }
        self.tail = Some(cell);
    }

    fn append(&mut self, other: &Self) {
        let Some(other_head) = other.head else { return };
        match self.tail {
            // SAFETY: `tail` is a free cell of a live block.
            Some(tail) => unsafe { tail.as_ref() }.set_free(Some(other_head), false),
            None => self.head = Some(other_head),
        }
        self.tail = other.tail;
    }
}

/// Drops the value of a live cell; does nothing to a free one.
///
/// # Safety
/// `cell` must be a live or free cell; a live value must not be used again.
pub(super) unsafe fn drop_value(cell: NonNull<Header>) {
    // SAFETY: the caller guarantees `cell` is a cell.
    let header = unsafe { cell.as_ref() };
    if !header.is_free()
        && let Some(drop) = header.type_info().drop
    {
        // SAFETY: `drop` belongs to the cell's own type; the value is dead.
        unsafe { drop(cell) };
    }
}

/// Drops a dead cell's value and poisons its bytes if asked to.
///
/// # Safety
/// `cell` must be a live, unreachable cell of `size` bytes.
unsafe fn free_value(cell: NonNull<Header>, size: usize, poison: bool) {
    // SAFETY: forwarded.
    unsafe { drop_value(cell) };
    if poison {
        // SAFETY: the cell spans `size` bytes, the first `HEADER_SIZE` of
        // which are the header.
        unsafe { cell.cast::<u8>().add(HEADER_SIZE).write_bytes(POISON_BYTE, size - HEADER_SIZE) };
    }
}

/// Panics if a quarantined cell's poison was overwritten: something wrote
/// through a pointer to it after it was freed.
///
/// # Safety
/// `cell` must be a quarantined cell of `size` bytes.
unsafe fn check_poison(cell: NonNull<Header>, size: usize) {
    // SAFETY: the value bytes of the cell.
    let value = unsafe { std::slice::from_raw_parts(cell.cast::<u8>().add(HEADER_SIZE).as_ptr(), size - HEADER_SIZE) };
    assert!(
        value.iter().all(|&byte| byte == POISON_BYTE),
        "js-gc: the freed cell at {cell:p} was written to after its collection: a Gc outlived a collection without being rooted"
    );
}

fn sweep_class(class: &mut SizeClass, mode: SweepMode, totals: &mut SweepTotals) {
    class.sync_bump_block();
    let cell_size = class.cell_size;
    let blocks = std::mem::take(&mut class.blocks);
    // The bump block is the newest one; it is kept even when empty.
    let bump_index = if class.has_bump_region() { blocks.len().checked_sub(1) } else { None };
    let mut free = FreeList::default();
    for (index, block) in blocks.into_iter().enumerate() {
        let mut block_free = FreeList::default();
        let (mut live, mut quarantined) = (0u64, 0u64);
        for cell in block.cells(cell_size) {
            // SAFETY: carved cells of a live block are live or free.
            let header = unsafe { cell.as_ref() };
            if header.is_free() {
                // A quarantined cell's poison was checked before marking.
                block_free.push(cell);
            } else if header.is_marked() {
                header.clear_mark();
                live += 1;
            } else {
                // SAFETY: live and unmarked, so unreachable.
                unsafe { free_value(cell, cell_size, mode.poison) };
                totals.freed_objects += 1;
                totals.freed_bytes += cell_size as u64;
                if mode.quarantine {
                    header.set_free(None, true);
                    quarantined += 1;
                } else {
                    block_free.push(cell);
                }
            }
        }
        totals.live_objects += live;
        totals.live_bytes += live * cell_size as u64;
        if live == 0 && quarantined == 0 && Some(index) != bump_index {
            block.release();
        } else {
            free.append(&block_free);
            class.blocks.push(block);
        }
    }
    class.free = free.head;
}

fn sweep_large(large: &mut LargeObjects, mode: SweepMode, totals: &mut SweepTotals) {
    large.cells.retain(|large| {
        let size = large.layout.size();
        // SAFETY: every large cell is live or quarantined.
        let header = unsafe { large.cell.as_ref() };
        // A quarantined large cell's poison was checked before marking.
        let keep = if header.is_free() {
            false
        } else if header.is_marked() {
            header.clear_mark();
            totals.live_objects += 1;
            totals.live_bytes += size as u64;
            true
        } else {
            // SAFETY: live and unmarked, so unreachable.
            unsafe { free_value(large.cell, size, mode.poison) };
            totals.freed_objects += 1;
            totals.freed_bytes += size as u64;
            header.set_free(None, true);
            mode.quarantine
        };
        if !keep {
            // SAFETY: allocated by `LargeObjects::alloc` with this layout and
            // dropped from the list by `retain`, so freed once.
            unsafe { std::alloc::dealloc(large.cell.as_ptr().cast(), large.layout) };
        }
        keep
    });
}
