//! `Gc<T>`, the pointer to a cell, and `GcAny`, the same pointer with its
//! type erased.

use std::any::TypeId;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ptr::NonNull;

use static_assertions::assert_eq_size;

use crate::cell::{GcBox, Header};
use crate::heap::Heap;
use crate::trace::{Trace, Tracer};

/// A pointer to a `T` in a [`Heap`]: `Copy`, one word, compared by identity.
///
/// Reading and writing the value go through the heap:
/// [`borrow`](Gc::borrow) takes `&Heap` and [`borrow_mut`](Gc::borrow_mut)
/// takes `&mut Heap`. The heap acts as the borrow token for every cell, so the
/// borrow checker rules out aliasing `&mut T`s and no value needs a `RefCell`.
/// A collection needs `&mut Heap` too, so no reference into a cell survives
/// one.
///
/// A `Gc` keeps its cell alive only while it is reachable at a collection
/// (see [`Heap::collect`] for the rooting rules). Using a `Gc` whose cell was
/// collected, or with a heap other than the one that allocated it, breaks the
/// embedder contract; debug builds detect the first (freed cells are marked
/// and poisoned) and panic instead of reading garbage.
pub struct Gc<T> {
    ptr: NonNull<GcBox<T>>,
    _marker: PhantomData<T>,
}

assert_eq_size!(Gc<u64>, u64);
assert_eq_size!(Option<Gc<u64>>, u64);

impl<T> Clone for Gc<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Gc<T> {}

impl<T: Trace + 'static> Gc<T> {
    /// Wraps a pointer to a freshly initialised cell.
    pub(crate) fn from_box(ptr: NonNull<GcBox<T>>) -> Self {
        Self { ptr, _marker: PhantomData }
    }

    #[inline]
    fn check_live(self) {
        #[cfg(debug_assertions)]
        {
            let cell = self.as_any();
            let header = cell.header();
            assert!(
                !header.is_free(),
                "js-gc: use of a collected {} cell at {:p}: a Gc outlived a collection without being rooted",
                T::type_name(),
                self.ptr
            );
            assert!(
                header.type_info().type_id == TypeId::of::<T>(),
                "js-gc: the cell at {:p} no longer holds a {}: a Gc outlived a collection without being rooted",
                self.ptr,
                T::type_name()
            );
        }
    }

    /// Borrows the value for as long as the heap is borrowed.
    #[inline]
    pub fn borrow(self, heap: &Heap) -> &T {
        let _ = heap;
        self.check_live();
        // SAFETY: the cell is live (embedder contract, checked in debug
        // builds). Mutable access to any cell needs `&mut Heap`, which the
        // returned borrow of `heap` excludes until it ends.
        unsafe { &self.ptr.as_ref().value }
    }

    /// Borrows the value mutably for as long as the heap is borrowed mutably.
    #[inline]
    pub fn borrow_mut(self, heap: &mut Heap) -> &mut T {
        let _ = heap;
        self.check_live();
        // SAFETY: the cell is live (embedder contract). Every other
        // reference into any cell borrows the heap, and `heap` is borrowed
        // exclusively for the returned lifetime, so this one is unique.
        unsafe { &mut (*self.ptr.as_ptr()).value }
    }

    /// The same pointer with its type erased.
    #[inline]
    pub fn as_any(self) -> GcAny {
        GcAny { ptr: self.ptr.cast() }
    }

    /// Whether `a` and `b` point to the same cell.
    #[inline]
    pub fn ptr_eq(a: Self, b: Self) -> bool {
        a.ptr == b.ptr
    }

    /// The cell's address, for embedders that pack pointers into tagged
    /// words (NaN-boxed values). Cells are at least 8-byte aligned, so the
    /// low three bits are zero.
    #[inline]
    pub fn into_raw(self) -> NonNull<()> {
        self.ptr.cast()
    }

    /// Rebuilds a pointer from [`Gc::into_raw`].
    ///
    /// # Safety
    /// `raw` must come from `Gc::<T>::into_raw` of a cell that has not been
    /// collected since.
    #[inline]
    pub unsafe fn from_raw(raw: NonNull<()>) -> Self {
        Self::from_box(raw.cast())
    }
}

impl<T> PartialEq for Gc<T> {
    fn eq(&self, other: &Self) -> bool {
        self.ptr == other.ptr
    }
}

impl<T> Eq for Gc<T> {}

impl<T> Hash for Gc<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.ptr.hash(state);
    }
}

impl<T: Trace> fmt::Debug for Gc<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gc<{}>({:p})", T::type_name(), self.ptr)
    }
}

// SAFETY: a `Gc` is one edge; `Tracer::mark` marks and queues its cell.
unsafe impl<T: Trace + 'static> Trace for Gc<T> {
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        tracer.mark(self.as_any());
    }
}

impl<T: Trace + 'static> From<Gc<T>> for GcAny {
    fn from(gc: Gc<T>) -> Self {
        gc.as_any()
    }
}

/// A pointer to a cell of any type: the key type of ephemeron tables,
/// finalization targets and reconciled caches. `Copy`, one word, compared and
/// hashed by identity.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct GcAny {
    ptr: NonNull<Header>,
}

assert_eq_size!(GcAny, u64);
assert_eq_size!(Option<GcAny>, u64);

impl GcAny {
    /// Wraps a pointer to a cell header.
    ///
    /// # Safety
    /// `ptr` must point to the header of a cell of some heap.
    pub(crate) unsafe fn from_header(ptr: NonNull<Header>) -> Self {
        Self { ptr }
    }

    pub(crate) fn header_ptr(self) -> NonNull<Header> {
        self.ptr
    }

    #[inline]
    pub(crate) fn header(&self) -> &Header {
        // SAFETY: a `GcAny` points to a cell header that stays allocated
        // while the cell may be used (embedder contract); the header is a
        // `Cell`, so shared access is sound even while the value is borrowed.
        unsafe { self.ptr.as_ref() }
    }

    pub(crate) fn as_ptr(self) -> *const Header {
        self.ptr.as_ptr()
    }

    /// The [`Trace::type_name`] of the cell's type.
    pub fn type_name(self) -> &'static str {
        (self.header().type_info().name)()
    }

    /// Whether the cell holds a `T`.
    #[inline]
    pub fn is<T: 'static>(self) -> bool {
        self.header().type_info().type_id == TypeId::of::<T>()
    }

    /// The typed pointer, if the cell holds a `T`.
    #[inline]
    pub fn downcast<T: Trace + 'static>(self) -> Option<Gc<T>> {
        self.is::<T>().then(|| Gc::from_box(self.ptr.cast()))
    }

    /// The cell's address, for hashing and debugging.
    pub fn addr(self) -> usize {
        self.ptr.as_ptr() as usize
    }

    /// The cell's address, as [`Gc::into_raw`] gives it.
    #[inline]
    pub fn into_raw(self) -> NonNull<()> {
        self.ptr.cast()
    }

    /// Rebuilds an erased pointer from [`Gc::into_raw`] of any type.
    ///
    /// # Safety
    /// `raw` must come from `Gc::into_raw` of a cell that has not been
    /// collected since.
    #[inline]
    pub unsafe fn from_raw(raw: NonNull<()>) -> Self {
        Self { ptr: raw.cast() }
    }
}

impl fmt::Debug for GcAny {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GcAny<{}>({:p})", self.type_name(), self.ptr)
    }
}

// SAFETY: one edge, as for `Gc<T>`.
unsafe impl Trace for GcAny {
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        tracer.mark(*self);
    }
}
