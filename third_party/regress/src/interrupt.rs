//! Interrupting a match (added by js-subsystems; not in upstream regress).
//!
//! A backtracking match can run for an exponential time. An engine must be
//! able to stop it: [`with_interrupt_check`] installs, for the duration of
//! one call on this thread, a check the backtracking matcher polls every
//! [`POLL_INTERVAL`] steps (a backtrack or a new start position). When the
//! check answers `true` the match gives up and reports no match; the caller,
//! whose check said stop, knows the answer means "stopped", not "no match".

#[cfg(feature = "std")]
mod imp {
    use core::cell::Cell;
    use core::ptr::NonNull;

    type Check = dyn Fn() -> bool;

    std::thread_local! {
        /// The check of the innermost `with_interrupt_check` on this thread.
        static CHECK: Cell<Option<NonNull<Check>>> = const { Cell::new(None) };
    }

    /// Puts the previous check back, also when `f` unwinds.
    struct Restore(Option<NonNull<Check>>);

    impl Drop for Restore {
        fn drop(&mut self) {
            CHECK.with(|c| c.set(self.0));
        }
    }

    pub fn with_interrupt_check<R>(check: &dyn Fn() -> bool, f: impl FnOnce() -> R) -> R {
        let erased: NonNull<dyn Fn() -> bool + '_> = NonNull::from(check);
        // SAFETY: only the lifetime is erased. The pointer is read (by
        // `should_stop`) only while it is installed, and `Restore` removes it
        // before this function returns or unwinds, while `check` is still
        // borrowed.
        let erased: NonNull<Check> = unsafe { core::mem::transmute(erased) };
        let _restore = Restore(CHECK.with(|c| c.replace(Some(erased))));
        f()
    }

    pub fn should_stop() -> bool {
        match CHECK.with(Cell::get) {
            // SAFETY: an installed pointer is live (see `with_interrupt_check`).
            Some(check) => unsafe { (check.as_ref())() },
            None => false,
        }
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    pub fn with_interrupt_check<R>(_check: &dyn Fn() -> bool, f: impl FnOnce() -> R) -> R {
        f()
    }

    pub fn should_stop() -> bool {
        false
    }
}

/// How many matcher steps pass between two polls of the check.
pub const POLL_INTERVAL: u32 = 4096;

/// Runs `f` with `check` polled by every backtracking match `f` makes on
/// this thread (nested calls: the innermost check applies). A match whose
/// poll answered `true` returns no match, and so does every later match
/// within `f` that polls it again.
pub fn with_interrupt_check<R>(check: &dyn Fn() -> bool, f: impl FnOnce() -> R) -> R {
    imp::with_interrupt_check(check, f)
}

/// Whether the installed check asks matching to stop.
pub(crate) fn should_stop() -> bool {
    imp::should_stop()
}
