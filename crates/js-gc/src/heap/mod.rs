//! The heap: allocation, the collection trigger and the embedder's entry
//! points.

mod collect;
mod config;
mod large;
mod size_class;
mod stats;

use std::ptr::NonNull;
use std::rc::Rc;

use crate::cell::{GcBox, Header};
use crate::gc::Gc;
use crate::root::{HandleStack, Root, RootTable};
use crate::trace::Trace;

pub use config::{GC_STRESS_ENV, HeapConfig};
pub use stats::{HeapStats, TypeStats};

use large::LargeObjects;
use size_class::{CLASS_COUNT, SIZE_CLASSES, SizeClass, size_class_index};

/// A tracing heap: non-moving mark–sweep over size-class segregated blocks.
///
/// * [`alloc`](Self::alloc) never collects. Collection happens only in
///   [`collect`](Self::collect) / [`safepoint`](Self::safepoint), which the
///   embedder calls where every live pointer is reachable from the roots it
///   passes.
/// * Small cells (up to 2 KiB with header) come from 64 KiB blocks of one
///   size class each: bump allocation in a fresh block, a free list after
///   sweeping. Larger or over-aligned cells get an allocation of their own.
/// * Every cell has an 8-byte header: its type record and the mark bit.
pub struct Heap {
    classes: [SizeClass; CLASS_COUNT],
    large: LargeObjects,
    config: HeapConfig,
    roots: Rc<RootTable>,
    handles: Rc<HandleStack>,
    /// The mark stack, kept between collections to reuse its capacity.
    mark_stack: Vec<NonNull<Header>>,
    /// Bytes of every cell ever allocated (size-class sizes).
    total_allocated: u64,
    /// `total_allocated` when the last collection ended.
    allocated_at_last_collection: u64,
    /// Bytes in cells that survived the last collection.
    live_bytes_after_collection: u64,
    /// Allocation since the last collection that makes the next one due.
    collection_threshold: u64,
    /// The `total_allocated` at which a collection is due: the last
    /// collection's mark plus the threshold (plus one byte in gc-stress
    /// mode), kept so [`Heap::should_collect`], polled at every safepoint,
    /// is one comparison.
    collect_at: u64,
    /// Collections completed.
    epoch: u64,
}

impl Heap {
    /// A heap with the default configuration (gc-stress mode if
    /// [`GC_STRESS_ENV`] is set).
    ///
    /// # Safety
    ///
    /// As [`Heap::with_config`].
    pub unsafe fn new() -> Self {
        // SAFETY: the caller takes on `with_config`'s contract.
        unsafe { Self::with_config(HeapConfig::default()) }
    }

    /// A heap with `config`.
    ///
    /// # Safety
    ///
    /// Access to cells is checked by the borrow checker only relative to
    /// *a* heap: [`Gc::borrow`] and [`Gc::borrow_mut`] cannot tell whether
    /// the heap they are given is the one the cell lives in, nor whether that
    /// heap still exists. The caller promises that every pointer this heap
    /// hands out ([`Gc`], [`GcAny`](crate::GcAny), and those read back from
    /// [`Root`]s, handles and [`Weak`](crate::Weak)s) is used only with this
    /// heap, and none after the heap is dropped. (An engine
    /// meets this by keeping its heap and every pointer into it private, as
    /// js-vm does behind its handle API.)
    pub unsafe fn with_config(config: HeapConfig) -> Self {
        Self {
            classes: std::array::from_fn(|index| SizeClass::new(SIZE_CLASSES[index])),
            large: LargeObjects::default(),
            collection_threshold: config.min_collection_threshold,
            collect_at: due_mark(0, config.stress, config.min_collection_threshold),
            config,
            roots: Rc::default(),
            handles: Rc::default(),
            mark_stack: Vec::new(),
            total_allocated: 0,
            allocated_at_last_collection: 0,
            live_bytes_after_collection: 0,
            epoch: 0,
        }
    }

    /// The configuration the heap was made with.
    pub fn config(&self) -> &HeapConfig {
        &self.config
    }

    /// Moves `value` into a new cell. Never collects.
    #[inline]
    pub fn alloc<T: Trace + 'static>(&mut self, value: T) -> Gc<T> {
        let class = const { size_class_index(size_of::<GcBox<T>>(), align_of::<GcBox<T>>()) };
        let cell = if class < CLASS_COUNT {
            let size_class = &mut self.classes[class];
            let cell = match size_class.take() {
                Some(cell) => cell,
                None => size_class.take_from_new_block(),
            };
            self.total_allocated += SIZE_CLASSES[class] as u64;
            cell
        } else {
            let layout = std::alloc::Layout::new::<GcBox<T>>();
            self.total_allocated += layout.size() as u64;
            self.large.alloc(layout)
        };
        let cell = cell.cast::<GcBox<T>>();
        // SAFETY: `cell` is an unused cell at least as large and as aligned
        // as a `GcBox<T>` (size-class choice above, or its own allocation).
        unsafe { cell.as_ptr().write(GcBox { header: Header::live(GcBox::<T>::TYPE_INFO), value }) };
        Gc::from_box(cell)
    }

    /// Roots `gc` until the returned [`Root`] is dropped.
    pub fn root<T: Trace + 'static>(&self, gc: Gc<T>) -> Root<T> {
        Root::new(&self.roots, gc)
    }

    /// The number of live persistent roots.
    pub fn root_count(&self) -> usize {
        self.roots.len()
    }

    /// The number of handles held by open handle scopes.
    pub fn handle_count(&self) -> usize {
        self.handles.len()
    }

    pub(crate) fn handle_stack(&self) -> &Rc<HandleStack> {
        &self.handles
    }

    /// Whether enough has been allocated since the last collection that the
    /// next safepoint should collect (in gc-stress mode: anything at all).
    ///
    /// gc-stress skips a safepoint only when nothing was allocated since the
    /// last collection, and that loses nothing: a collection is due only
    /// once allocation crossed a threshold, so with any threshold the
    /// normal mode collects only at safepoints that some allocation
    /// precedes, and stress mode collects at every one of those. Skipping
    /// the others makes a non-allocating loop cost nothing per iteration
    /// instead of a full collection per back-edge.
    #[inline]
    pub fn should_collect(&self) -> bool {
        self.total_allocated >= self.collect_at
    }

    /// Bytes allocated since the last collection ended.
    pub fn allocated_since_collection(&self) -> u64 {
        self.total_allocated - self.allocated_at_last_collection
    }

    /// Bytes of cells that may be live: those the last collection kept plus
    /// everything allocated since. What a heap limit is measured against
    /// when nothing better is known (the cells' own allocations, such as a
    /// string's contents, are not included).
    pub fn bytes_in_use(&self) -> u64 {
        self.live_bytes_after_collection + self.allocated_since_collection()
    }

    /// The number of collections completed: a counter caches can compare
    /// against to notice that a collection happened.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        let _abort_on_panic = collect::AbortOnUnwind::new("the heap's teardown");
        for class in &mut self.classes {
            for cell in class.cells() {
                // SAFETY: every carved cell is live or free; live ones are
                // dropped exactly once, here, as the heap goes away.
                unsafe { collect::drop_value(cell) };
            }
            for block in class.blocks.drain(..) {
                block.release();
            }
        }
        self.large.release_all();
    }
}

impl std::fmt::Debug for Heap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Heap")
            .field("epoch", &self.epoch)
            .field("total_allocated", &self.total_allocated)
            .field("live_bytes_after_collection", &self.live_bytes_after_collection)
            .field("stress", &self.config.stress)
            .finish_non_exhaustive()
    }
}

/// The `total_allocated` at which a collection is due after one that ended
/// at `mark`: any allocation at all in gc-stress mode, else `threshold`
/// bytes of it.
fn due_mark(mark: u64, stress: bool, threshold: u64) -> u64 {
    mark.saturating_add(if stress { 1 } else { threshold })
}

#[cfg(test)]
mod tests;
