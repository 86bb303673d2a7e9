//! Large objects: cells too big (or too aligned) for a size class, each in an
//! allocation of its own.

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ptr::NonNull;

use crate::cell::Header;

/// One large cell and the layout it was allocated with.
pub(crate) struct LargeCell {
    pub(crate) cell: NonNull<Header>,
    pub(crate) layout: Layout,
}

/// Every large cell of a heap, live, free-and-quarantined (stress mode) or
/// not yet initialised (only inside `Heap::alloc`).
#[derive(Default)]
pub(crate) struct LargeObjects {
    pub(crate) cells: Vec<LargeCell>,
}

impl LargeObjects {
    /// Allocates an uninitialised cell with `layout`.
    pub(crate) fn alloc(&mut self, layout: Layout) -> NonNull<Header> {
        // SAFETY: a cell layout includes its 8-byte header, so it is nonzero.
        let ptr = unsafe { alloc(layout) };
        let Some(cell) = NonNull::new(ptr) else { handle_alloc_error(layout) };
        let cell = cell.cast();
        self.cells.push(LargeCell { cell, layout });
        cell
    }

    /// Bytes reserved by large cells.
    pub(crate) fn reserved_bytes(&self) -> u64 {
        self.cells.iter().map(|large| large.layout.size() as u64).sum()
    }

    /// Drops every live value and frees every cell.
    pub(crate) fn release_all(&mut self) {
        for large in self.cells.drain(..) {
            // SAFETY: the cell is live or free; a live value is dropped once,
            // here, as the heap goes away.
            unsafe { super::collect::drop_value(large.cell) };
            // SAFETY: allocated in `alloc` with this layout; drained, so
            // freed once.
            unsafe { dealloc(large.cell.as_ptr().cast(), large.layout) };
        }
    }
}
