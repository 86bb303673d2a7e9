//! Resource limits: how much memory a VM's thread holds and how many steps
//! a script may take, and why a VM terminated a script.
//!
//! The garbage-collected heap only sees its cells; string contents, array
//! elements and buffers live in ordinary allocations the cells own. To limit
//! *all* of a VM's memory, an embedder installs [`CountingAllocator`] as the
//! process's global allocator (the `jsvm` binary does): it keeps a count of
//! the bytes each thread holds, which [`VmOptions::max_heap_size`] is then
//! measured against. Without it the limit applies to the collector's own
//! cell bytes only.
//!
//! [`VmOptions::max_heap_size`]: crate::VmOptions::max_heap_size

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a script ended with [`JsError::Terminated`](crate::JsError::Terminated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TerminationReason {
    /// The embedder raised the interrupt flag ([`Vm::interrupt_handle`](crate::Vm::interrupt_handle)).
    Interrupted,
    /// The script took more steps (calls, loop iterations, elements visited
    /// by builtins) than [`VmOptions::max_steps`](crate::VmOptions::max_steps) allows.
    StepLimit,
    /// The memory held exceeded [`VmOptions::max_heap_size`](crate::VmOptions::max_heap_size)
    /// even after a full collection.
    HeapLimit {
        /// Bytes held when the limit was found exceeded.
        used: usize,
        /// The limit.
        limit: usize,
    },
    /// `process.exit()` was called.
    Exit,
}

impl std::fmt::Display for TerminationReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Interrupted => f.write_str("execution interrupted"),
            Self::StepLimit => f.write_str("step limit exceeded"),
            Self::HeapLimit { used, limit } => {
                write!(f, "heap limit exceeded: {used} bytes in use, the limit is {limit} bytes")
            }
            Self::Exit => f.write_str("process.exit() called"),
        }
    }
}

/// A global allocator that forwards to another (the system allocator by
/// default) and counts, per thread, the bytes that thread has allocated and
/// not yet freed.
///
/// Install it with `#[global_allocator] static A: CountingAllocator =
/// CountingAllocator(std::alloc::System);` so that
/// [`VmOptions::max_heap_size`](crate::VmOptions::max_heap_size) covers
/// every allocation a VM makes; the `jsvm` binary counts over mimalloc (the
/// `mimalloc` feature), whose small allocations cost a fraction of glibc's.
/// Memory freed by another thread than the one that allocated it is
/// credited to the freeing thread; a VM and its values stay on one thread,
/// so its count is exact.
#[derive(Debug, Default, Clone, Copy)]
pub struct CountingAllocator<A = System>(pub A);

thread_local! {
    /// Bytes this thread allocated minus bytes it freed. A `const`
    /// initialiser: reading it never allocates, as an allocator must not.
    static THREAD_BYTES: Cell<isize> = const { Cell::new(0) };
}

/// Set once the counting allocator served its first allocation.
static COUNTING: AtomicBool = AtomicBool::new(false);

fn adjust(delta: isize) {
    // `try_with`: during thread teardown the slot may be gone; the count
    // of a finishing thread no longer matters.
    let _ = THREAD_BYTES.try_with(|bytes| bytes.set(bytes.get().wrapping_add(delta)));
}

fn signed(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

// SAFETY: every method forwards to the inner allocator `A` with the
// caller's arguments unchanged, so `A`'s guarantees are
// `CountingAllocator`'s; the counting touches only a `const`-initialised
// thread-local cell, which neither allocates nor unwinds.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded; the caller upholds `GlobalAlloc::alloc`'s contract.
        let ptr = unsafe { self.0.alloc(layout) };
        if !ptr.is_null() {
            COUNTING.store(true, Ordering::Relaxed);
            adjust(signed(layout.size()));
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded, as for `alloc`.
        let ptr = unsafe { self.0.alloc_zeroed(layout) };
        if !ptr.is_null() {
            COUNTING.store(true, Ordering::Relaxed);
            adjust(signed(layout.size()));
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded; `ptr` came from this allocator, i.e. from `A`.
        unsafe { self.0.dealloc(ptr, layout) };
        adjust(-signed(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded; `ptr` came from `A` with `layout`.
        let new = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            adjust(signed(new_size) - signed(layout.size()));
        }
        new
    }
}

/// Bytes the current thread holds, if [`CountingAllocator`] is the global
/// allocator (and has served an allocation); `None` otherwise.
pub fn thread_allocated_bytes() -> Option<usize> {
    if !COUNTING.load(Ordering::Relaxed) {
        return None;
    }
    let bytes = THREAD_BYTES.try_with(Cell::get).unwrap_or(0);
    Some(usize::try_from(bytes).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::TerminationReason;

    #[test]
    fn reasons_read_as_sentences() {
        assert_eq!(TerminationReason::StepLimit.to_string(), "step limit exceeded");
        assert_eq!(
            TerminationReason::HeapLimit { used: 10, limit: 8 }.to_string(),
            "heap limit exceeded: 10 bytes in use, the limit is 8 bytes"
        );
    }
}
