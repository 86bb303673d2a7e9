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
/// when it is dropped. Drop them in reverse order of creation (as locals
/// are); debug builds check it.
pub struct HandleScope {
    stack: Rc<HandleStack>,
    base: usize,
}

impl HandleScope {
    /// Opens a scope on `heap`'s handle stack.
    pub fn new(heap: &Heap) -> Self {
        let stack = Rc::clone(heap.handle_stack());
        let base = stack.len();
        Self { stack, base }
    }

    /// Roots `gc` until this scope closes.
    pub fn root<T: Trace + 'static>(&self, gc: Gc<T>) -> Handle<'_, T> {
        self.stack.cells.borrow_mut().push(gc.as_any());
        Handle { gc, _scope: PhantomData }
    }
}

impl Drop for HandleScope {
    fn drop(&mut self) {
        let mut cells = self.stack.cells.borrow_mut();
        debug_assert!(cells.len() >= self.base, "js-gc: handle scopes closed out of order");
        cells.truncate(self.base);
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
