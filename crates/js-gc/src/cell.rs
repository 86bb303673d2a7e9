//! The layout of one heap cell: an 8-byte header followed by the value.
//!
//! The header is a single machine word with two states:
//!
//! * **live**: the address of the cell type's `'static` [`TypeInfo`], with
//!   [`MARK_BIT`] set while a collection has found the cell reachable;
//! * **free**: [`FREE_BIT`] set, [`QUARANTINE_BIT`] possibly set, and the rest
//!   the address of the next free cell of the same size class (or zero).
//!
//! `TypeInfo` is 8-aligned, so its address leaves the three low bits for tags.

use std::any::TypeId;
use std::cell::Cell;
use std::ptr::NonNull;

use crate::trace::{Trace, Tracer};

/// Set in a live header while the cell is marked reachable.
pub(crate) const MARK_BIT: usize = 0b001;
/// Set in the header of a cell that holds no value.
pub(crate) const FREE_BIT: usize = 0b010;
/// Set with `FREE_BIT` on a cell freed by the latest gc-stress collection; it
/// is not reused until the next one, so stale pointers meet poison.
pub(crate) const QUARANTINE_BIT: usize = 0b100;
const TAG_MASK: usize = 0b111;

/// The byte written over the value of every freed cell when poisoning is on.
pub(crate) const POISON_BYTE: u8 = 0xDB;

/// Bytes of header in front of every cell's value.
pub const HEADER_SIZE: usize = size_of::<Header>();

/// The static record every cell type has: what the heap needs to trace, drop
/// and report a cell without knowing its Rust type.
pub(crate) struct TypeInfo {
    /// The name `HeapStats` reports (see [`Trace::type_name`]).
    pub(crate) name: fn() -> &'static str,
    /// The value's type, stored rather than computed: `GcAny::is` and
    /// `downcast` run on hot paths (an engine's typed object slots), where
    /// an indirect call per check showed up in profiles.
    pub(crate) type_id: TypeId,
    /// Size of the whole cell (header and value) before size-class rounding.
    pub(crate) size: usize,
    /// `None` for types whose `Trace::NEEDS_TRACE` is false: marking such a
    /// cell sets its bit and never queues it.
    pub(crate) trace: Option<unsafe fn(NonNull<Header>, &mut Tracer)>,
    /// `None` for types without drop glue.
    pub(crate) drop: Option<unsafe fn(NonNull<Header>)>,
}

/// The one-word header at the start of every cell.
#[repr(transparent)]
pub(crate) struct Header {
    word: Cell<usize>,
}

/// A cell holding a `T`: header first, so a pointer to the cell is a pointer
/// to its header.
#[repr(C)]
pub(crate) struct GcBox<T> {
    pub(crate) header: Header,
    pub(crate) value: T,
}

impl<T: Trace + 'static> GcBox<T> {
    /// The type record of `T`, one per monomorphization.
    pub(crate) const TYPE_INFO: &'static TypeInfo = &TypeInfo {
        name: T::type_name,
        type_id: TypeId::of::<T>(),
        size: size_of::<Self>(),
        trace: if T::NEEDS_TRACE { Some(trace_cell::<T>) } else { None },
        drop: if std::mem::needs_drop::<T>() { Some(drop_cell::<T>) } else { None },
    };
}

/// Traces the value of a `GcBox<T>`.
///
/// # Safety
/// `cell` must point to a live `GcBox<T>`.
unsafe fn trace_cell<T: Trace>(cell: NonNull<Header>, tracer: &mut Tracer) {
    // SAFETY: the caller guarantees `cell` is a live `GcBox<T>`; tracing only
    // reads it.
    let value = unsafe { &cell.cast::<GcBox<T>>().as_ref().value };
    value.trace(tracer);
}

/// Drops the value of a `GcBox<T>` in place.
///
/// # Safety
/// `cell` must point to a live `GcBox<T>` whose value is never used again.
unsafe fn drop_cell<T>(cell: NonNull<Header>) {
    // SAFETY: the caller guarantees the value is live and dead afterwards.
    unsafe { std::ptr::drop_in_place(&raw mut (*cell.cast::<GcBox<T>>().as_ptr()).value) }
}

impl Header {
    pub(crate) fn live(info: &'static TypeInfo) -> Self {
        Self { word: Cell::new(std::ptr::from_ref(info) as usize) }
    }

    #[inline]
    pub(crate) fn word(&self) -> usize {
        self.word.get()
    }

    #[inline]
    pub(crate) fn is_free(&self) -> bool {
        self.word.get() & FREE_BIT != 0
    }

    #[inline]
    pub(crate) fn is_marked(&self) -> bool {
        self.word.get() & (MARK_BIT | FREE_BIT) == MARK_BIT
    }

    #[inline]
    pub(crate) fn set_marked(&self) {
        self.word.set(self.word.get() | MARK_BIT);
    }

    #[inline]
    pub(crate) fn clear_mark(&self) {
        self.word.set(self.word.get() & !MARK_BIT);
    }

    /// The type record of a live cell.
    #[inline]
    pub(crate) fn type_info(&self) -> &'static TypeInfo {
        debug_assert!(!self.is_free(), "type record of a freed cell");
        let addr = self.word.get() & !TAG_MASK;
        // SAFETY: a live header holds the address of a `&'static TypeInfo`
        // (module invariant); the tag bits are masked off.
        unsafe { &*(addr as *const TypeInfo) }
    }

    /// Makes this a free-list entry pointing at `next`.
    #[inline]
    pub(crate) fn set_free(&self, next: Option<NonNull<Header>>, quarantined: bool) {
        let next = next.map_or(0, |p| p.as_ptr() as usize);
        let quarantine = if quarantined { QUARANTINE_BIT } else { 0 };
        self.word.set(next | FREE_BIT | quarantine);
    }

    #[inline]
    pub(crate) fn is_quarantined(&self) -> bool {
        self.word.get() & QUARANTINE_BIT != 0
    }

    /// The next cell on the free list, for a free header.
    #[inline]
    pub(crate) fn next_free(&self) -> Option<NonNull<Header>> {
        debug_assert!(self.is_free());
        NonNull::new((self.word.get() & !TAG_MASK) as *mut Header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_one_word() {
        assert_eq!(HEADER_SIZE, 8);
        assert!(align_of::<TypeInfo>() > TAG_MASK);
    }

    #[test]
    fn header_states() {
        let info = GcBox::<u64>::TYPE_INFO;
        let header = Header::live(info);
        assert!(!header.is_free() && !header.is_marked());
        header.set_marked();
        assert!(header.is_marked());
        assert_eq!((header.type_info().name)(), "u64");
        header.clear_mark();
        assert!(!header.is_marked());
        header.set_free(None, true);
        assert!(header.is_free() && header.is_quarantined() && !header.is_marked());
        assert_eq!(header.next_free(), None);
    }
}
