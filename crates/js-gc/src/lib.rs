//! A tracing heap for JavaScript engines: non-moving mark–sweep with
//! size-class segregated blocks, weak references, ephemerons, finalization
//! and end-of-collection reconciliation of embedder caches.
//!
//! ```
//! use js_gc::{Gc, Heap, Trace, Tracer};
//!
//! struct Node {
//!     next: Option<Gc<Node>>,
//! }
//!
//! // SAFETY: `trace` reports the node's only heap pointer.
//! unsafe impl Trace for Node {
//!     fn trace(&self, tracer: &mut Tracer) {
//!         self.next.trace(tracer);
//!     }
//! }
//!
//! // `Heap::new`'s contract: this heap's cells are used only with it, while it lives.
//! let mut heap = unsafe { Heap::new() };
//! let tail = heap.alloc(Node { next: None });
//! let head = heap.alloc(Node { next: Some(tail) });
//! heap.alloc(Node { next: None }); // garbage
//!
//! let mut roots = vec![head];
//! // SAFETY: afterwards only `head` and what it reaches are used.
//! let report = unsafe { heap.collect(&mut roots) };
//! assert_eq!((report.live_objects, report.freed_objects), (2, 1));
//! assert!(head.borrow(&heap).next == Some(tail));
//! ```
//!
//! # The embedder's side
//!
//! * **Cells** are values of types that implement the `unsafe` trait
//!   [`Trace`], moved into the heap by [`Heap::alloc`], which returns a
//!   [`Gc<T>`]: `Copy`, 8 bytes, compared by identity. Each cell type has a
//!   static type record (name, size, trace and drop functions) reached from
//!   the cell's 8-byte header.
//! * **Access** goes through the heap: [`Gc::borrow`] takes `&Heap`,
//!   [`Gc::borrow_mut`] takes `&mut Heap`. The heap is the borrow token of
//!   all its cells, so there are no `RefCell`s and no borrow panics.
//! * **Collection happens only at safepoints the embedder chooses**:
//!   [`Heap::collect`], or [`Heap::safepoint`], which collects when
//!   [`Heap::should_collect`] says the allocation debt (bytes allocated since
//!   the last collection against the live bytes it left, times
//!   [`HeapConfig::growth_factor`]) is due. Allocation never collects.
//! * **Roots** are what the embedder's [`Roots`] implementation traces, plus
//!   persistent [`Root`]s (host-held values) and the handles of open
//!   [`HandleScope`]s (native code holding cells across a call back into the
//!   engine).
//! * **Weak structures**: [`Weak`] (cleared when its target dies),
//!   [`EphemeronTable`] (`WeakMap`: a value lives only while its key does,
//!   iterated to a fixpoint) and [`FinalizationTable`]
//!   (`FinalizationRegistry`: held values of dead targets are delivered exactly
//!   once; unregister tokens are weak).
//! * **Reconciliation**: after marking and before sweeping,
//!   [`Roots::reconcile`] receives a [`Liveness`] query, so caches keyed by
//!   cells (a [`Reconciler`]) drop entries whose keys died. [`Heap::epoch`]
//!   counts collections, for caches that check staleness cheaply.
//! * **Statistics**: [`Heap::stats`] counts live cells and bytes per type
//!   name, exactly, by walking the heap.
//!
//! # Rules the type system does not enforce
//!
//! 1. `collect` and `safepoint` are `unsafe`: afterwards the embedder may use
//!    only pointers to cells that were reachable. Debug builds detect most
//!    violations: a freed cell's header is marked free and its bytes are
//!    poisoned, and `Gc::borrow` checks both the header and the cell's type.
//! 2. A `Gc` is only used with the heap that allocated it, while that heap
//!    exists: [`Heap::new`] and [`Heap::with_config`] are `unsafe`, and the
//!    caller of either takes this rule on.
//! 3. `Trace` implementations report every owned pointer (see its safety
//!    section); a missed edge is a use after free waiting to happen, which
//!    gc-stress mode exposes quickly.
//!
//! # gc-stress mode
//!
//! [`HeapConfig::stress`] (or the environment variable [`GC_STRESS_ENV`])
//! makes every safepoint collect (every one preceded by an allocation: no
//! allocation threshold can make the others due), poisons freed cells and
//! keeps them out of
//! circulation for one collection; a cell written through a stale pointer in
//! that time fails an assertion when it is recycled. CI runs every test suite
//! a second time in this mode.
//!
//! # Performance decisions
//!
//! * Bump allocation in fresh blocks and free lists after sweeping, per size
//!   class; the size class of a type is a compile-time constant, so the fast
//!   path is a pointer pop or bump and a header store.
//! * Mark bits live in the header word beside the type record pointer: one
//!   word of overhead per cell, no side tables.
//! * Marking uses an explicit stack (deep structures never recurse on the
//!   native stack), and types without pointers (`Trace::NEEDS_TRACE =
//!   false`) are marked without being queued.
//! * Entirely empty blocks are returned to the allocator after sweeping.
//!
//! # Limits
//!
//! Not concurrent, not incremental, not generational: a collection stops the
//! embedder and visits every live cell. The heap and its pointers are
//! `!Send`: one heap per thread, used by that thread.

#![deny(clippy::undocumented_unsafe_blocks)]

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[allow(
    clippy::unnecessary_safety_comment,
    reason = "clippy attributes the `SAFETY:` comments of the crate docs' example to the first item"
)]
mod cell;
mod ephemeron;
mod finalization;
mod gc;
mod heap;
mod root;
mod safepoint;
mod trace;
mod weak;

pub use cell::HEADER_SIZE;
pub use ephemeron::EphemeronTable;
pub use finalization::FinalizationTable;
pub use gc::{Gc, GcAny};
pub use heap::{GC_STRESS_ENV, Heap, HeapConfig, HeapStats, TypeStats};
pub use root::{Handle, HandleScope, Root};
pub use safepoint::{CollectionReport, Liveness, Reconciler, Roots};
pub use trace::{Trace, Tracer};
pub use weak::Weak;

#[cfg(test)]
mod test_cells;
