//! Handle scopes: stack-like rooting for native code.

use std::cell::RefCell;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;

use crate::gc::{Gc, GcAny};
use crate::heap::Heap;
use crate::trace::{Trace, Tracer};

/// The cells rooted by the open handle scopes of one heap, innermost last.
#[derive(Default)]
pub(crate) struct HandleStack {
    cells: RefCell<Vec<GcAny>>,
    /// How many scopes are open: the innermost one's depth.
    open: std::cell::Cell<usize>,
}

impl HandleStack {
    pub(crate) fn len(&self) -> usize {
        self.cells.borrow().len()
    }

    pub(crate) fn trace(&self, tracer: &mut Tracer) {
        for cell in self.cells.borrow().iter() {
            cell.trace(tracer);
        }
    }
}

/// Roots cells for as long as the scope lives: native code that must hold a
/// `Gc` across a call that may reach a safepoint opens a scope and roots the
/// value in it.
///
/// ```
/// # use js_gc::{Heap, HandleScope};
/// // `Heap::new`'s contract: this heap's cells are used only with it, while it lives.
/// let mut heap = unsafe { Heap::new() };
/// let scope = HandleScope::new(&heap);
/// let name = scope.root(heap.alloc(String::from("kept")));
/// // SAFETY: every cell used afterwards is rooted by `scope`.
/// unsafe { heap.collect(&mut ()) };
/// assert_eq!(name.get().borrow(&heap), "kept");
/// ```
///
/// Scopes nest; each releases exactly the handles created since it opened,
/// when it is dropped. Only the innermost open scope may root (an outer
/// scope's handle would be released by the inner scope's drop): `root` on
/// another one panics. A scope dropped out of order releases nothing (its
/// handles stay rooted, a leak rather than a dangling pointer).
pub struct HandleScope {
    stack: Rc<HandleStack>,
    base: usize,
    /// This scope's nesting depth (1 for the outermost).
    depth: usize,
}

impl HandleScope {
    /// Opens a scope on `heap`'s handle stack.
    pub fn new(heap: &Heap) -> Self {
        let stack = Rc::clone(heap.handle_stack());
        let base = stack.len();
        let depth = stack.open.get() + 1;
        stack.open.set(depth);
        Self { stack, base, depth }
    }

    /// Roots `gc` until this scope closes.
    ///
    /// # Panics
    /// If a scope opened after this one is still open.
    pub fn root<T: Trace + 'static>(&self, gc: Gc<T>) -> Handle<'_, T> {
        assert!(self.stack.open.get() == self.depth, "js-gc: only the innermost open HandleScope may root");
        self.stack.cells.borrow_mut().push(gc.as_any());
        Handle { gc, _scope: PhantomData }
    }
}

impl Drop for HandleScope {
    fn drop(&mut self) {
        let innermost = self.stack.open.get() == self.depth;
        debug_assert!(innermost, "js-gc: handle scopes closed out of order");
        if innermost {
            self.stack.cells.borrow_mut().truncate(self.base);
        }
        self.stack.open.set(self.stack.open.get() - 1);
    }
}

impl fmt::Debug for HandleScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HandleScope(from {})", self.base)
    }
}

/// A `Gc` rooted by a [`HandleScope`]; it cannot outlive the scope.
pub struct Handle<'scope, T> {
    gc: Gc<T>,
    _scope: PhantomData<&'scope HandleScope>,
}

impl<T> Clone for Handle<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Handle<'_, T> {}

impl<T: Trace + 'static> Handle<'_, T> {
    /// The rooted pointer.
    pub fn get(self) -> Gc<T> {
        self.gc
    }
}

impl<T: Trace + 'static> fmt::Debug for Handle<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Handle({:?})", self.gc)
    }
}

#[cfg(test)]
mod tests {
    use crate::{HandleScope, Heap};

    fn heap() -> Heap {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        unsafe { Heap::new() }
    }

    #[test]
    #[should_panic(expected = "only the innermost open HandleScope may root")]
    fn an_outer_scope_cannot_root_while_an_inner_one_is_open() {
        let mut heap = heap();
        let outer = HandleScope::new(&heap);
        let _inner = HandleScope::new(&heap);
        let cell = heap.alloc(1_u64);
        // The inner scope's drop would release this handle with its own.
        let _ = outer.root(cell);
    }

    #[test]
    fn scopes_dropped_in_order_release_their_handles_and_out_of_order_ones_keep_them() {
        let mut heap = heap();
        let outer = HandleScope::new(&heap);
        let kept = outer.root(heap.alloc(1_u64)).get();
        {
            let inner = HandleScope::new(&heap);
            let _ = inner.root(heap.alloc(2_u64));
            assert_eq!(heap.handle_count(), 2);
        }
        assert_eq!(heap.handle_count(), 1);
        drop(outer);
        assert_eq!(heap.handle_count(), 0);
        // Out of order (release builds only: debug builds assert): nothing
        // is released, so no handle dangles.
        if !cfg!(debug_assertions) {
            let first = HandleScope::new(&heap);
            let second = HandleScope::new(&heap);
            let _ = second.root(heap.alloc(3_u64));
            drop(first);
            drop(second);
            assert_eq!(heap.handle_count(), 1);
        }
        let _ = kept;
    }
}
