//! How much native stack a re-entry into the dispatch loop may still use.
//!
//! Every call from native code into a script (a builtin's callback, a
//! job, a getter) asks whether the thread's stack has room for one more
//! nested loop. Asking `stacker` reads a thread-local and calls out for the
//! stack pointer, about twenty instructions; the pipe of a WHATWG stream
//! asks six times a chunk. This cache answers with one subtraction and one
//! comparison while the stack pointer stays inside the stretch of the
//! thread's own stack that an earlier answer proved safe, and asks
//! `stacker` again anywhere else (a stack segment `stacker::maybe_grow`
//! switched to, a caller above the first one seen).

use std::cell::Cell;

/// Native stack a re-entry into the loop must leave free. The depth bound
/// of [`super::MAX_NATIVE_DEPTH`] fits the engine's own big-stack thread
/// in an optimised build; an embedder's thread (or an unoptimised build,
/// whose frames are several times larger) may run out first, and this
/// turns that into a RangeError rather than an abort.
pub(crate) const NATIVE_STACK_RED_ZONE: usize = 256 * 1024;

/// The cached safe stretch of the thread's stack: stack addresses `sp` with
/// `safe_low <= sp < safe_low + safe_span` have more than
/// [`NATIVE_STACK_RED_ZONE`] bytes below them. Empty until the first slow
/// answer. A `Vm` is not `Send` (it holds `Rc`s), so the thread, and with
/// it the stack this describes, never changes under it.
#[derive(Default)]
pub(crate) struct NativeStack {
    safe_low: Cell<usize>,
    safe_span: Cell<usize>,
}

impl NativeStack {
    /// Whether fewer than [`NATIVE_STACK_RED_ZONE`] bytes of stack are left
    /// below the caller's frame.
    #[inline]
    pub(crate) fn exhausted(&self) -> bool {
        let marker = 0u8;
        let sp = std::ptr::addr_of!(marker) as usize;
        if sp.wrapping_sub(self.safe_low.get()) < self.safe_span.get() {
            return false;
        }
        self.exhausted_slow(sp)
    }

    /// Asks `stacker`, and widens the safe stretch when `sp` is on the same
    /// stack as the one cached (or when none is).
    #[cold]
    #[inline(never)]
    fn exhausted_slow(&self, sp: usize) -> bool {
        // `stacker` measures from its own frame, a little below `sp`, so the
        // same stack's end comes out a few frames apart from one caller to
        // the next: within `SAME_STACK` of the cached one is the same stack,
        // and the higher of the two ends is kept.
        const SAME_STACK: usize = 64 * 1024;
        let Some(left) = stacker::remaining_stack() else { return false };
        if left < NATIVE_STACK_RED_ZONE {
            return true;
        }
        // The stack's end, as `stacker` sees it from this frame; every
        // address between `end + RED_ZONE` and `sp` leaves enough below it.
        let Some(end) = sp.checked_sub(left) else { return false };
        let low = end + NATIVE_STACK_RED_ZONE;
        let (cached_low, cached_span) = (self.safe_low.get(), self.safe_span.get());
        if cached_span == 0 {
            self.safe_low.set(low);
            self.safe_span.set(sp - low);
        } else if cached_low.abs_diff(low) < SAME_STACK {
            let low = low.max(cached_low);
            let high = (cached_low + cached_span).max(sp);
            self.safe_low.set(low);
            self.safe_span.set(high.saturating_sub(low));
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_answer_is_cached_for_deeper_frames() {
        fn deeper(stack: &NativeStack, n: u32) -> bool {
            let pad = [n; 64];
            if n == 0 { stack.exhausted() } else { deeper(stack, std::hint::black_box(pad)[0] - 1) }
        }
        let stack = NativeStack::default();
        assert!(!stack.exhausted());
        assert!(stack.safe_span.get() > 0, "a thread with room left caches a safe stretch");
        assert!(!deeper(&stack, 16));
    }

    #[test]
    fn a_thread_near_its_end_is_exhausted() {
        // A thread with a stack smaller than the red zone has no safe
        // stretch at all.
        let handle = std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(|| {
                let stack = NativeStack::default();
                (stack.exhausted(), stack.exhausted())
            })
            .expect("spawn");
        assert_eq!(handle.join().expect("join"), (true, true));
    }
}
