//! Roots the heap knows about by itself: persistent [`Root`]s for values the
//! host holds indefinitely, and [`HandleScope`]s for native code that holds
//! cells across a call back into the embedder.

mod handle_scope;

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use crate::gc::{Gc, GcAny};
use crate::trace::{Trace, Tracer};

pub(crate) use handle_scope::HandleStack;
pub use handle_scope::{Handle, HandleScope};

/// The slots of every live [`Root`] of one heap.
///
/// Shared between the heap and its roots so that dropping a root needs no
/// access to the heap. Borrows of the `RefCell` never escape a method, so
/// they cannot overlap.
#[derive(Default)]
pub(crate) struct RootTable {
    slots: RefCell<RootSlots>,
}

#[derive(Default)]
struct RootSlots {
    cells: Vec<Option<GcAny>>,
    vacant: Vec<u32>,
}

impl RootTable {
    fn add(&self, cell: GcAny) -> u32 {
        let mut slots = self.slots.borrow_mut();
        if let Some(index) = slots.vacant.pop() {
            slots.cells[index as usize] = Some(cell);
            index
        } else {
            let index = u32::try_from(slots.cells.len()).expect("more than 2^32 persistent roots");
            slots.cells.push(Some(cell));
            index
        }
    }

    fn remove(&self, index: u32) {
        let mut slots = self.slots.borrow_mut();
        slots.cells[index as usize] = None;
        slots.vacant.push(index);
    }

    pub(crate) fn len(&self) -> usize {
        let slots = self.slots.borrow();
        slots.cells.len() - slots.vacant.len()
    }

    pub(crate) fn trace(&self, tracer: &mut Tracer) {
        for cell in self.slots.borrow().cells.iter().flatten() {
            cell.trace(tracer);
        }
    }
}

/// A persistent root: keeps its cell alive until the `Root` is dropped.
///
/// For values the host holds outside the heap for an unbounded time (a
/// pending timer's callback, a module map entry). Values inside cells should
/// be plain [`Gc`]s instead: a `Root` inside a cell keeps that cell's whole
/// cycle alive forever.
pub struct Root<T: Trace + 'static> {
    gc: Gc<T>,
    index: u32,
    table: Rc<RootTable>,
}

impl<T: Trace + 'static> Root<T> {
    pub(crate) fn new(table: &Rc<RootTable>, gc: Gc<T>) -> Self {
        let index = table.add(gc.as_any());
        Self { gc, index, table: Rc::clone(table) }
    }

    /// The rooted pointer.
    pub fn get(&self) -> Gc<T> {
        self.gc
    }
}

impl<T: Trace + 'static> Clone for Root<T> {
    fn clone(&self) -> Self {
        Self::new(&self.table, self.gc)
    }
}

impl<T: Trace + 'static> Drop for Root<T> {
    fn drop(&mut self) {
        self.table.remove(self.index);
    }
}

impl<T: Trace + 'static> fmt::Debug for Root<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Root({:?})", self.gc)
    }
}
