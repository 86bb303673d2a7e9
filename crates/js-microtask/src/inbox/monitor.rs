//! `Monitor`: a mutex with a condition variable, from `parking_lot`, or
//! from loom when the crate is built for model checking (`--cfg loom`).

use std::ops::{Deref, DerefMut};
use std::time::Duration;

#[cfg(loom)]
use loom::sync::{Condvar, Mutex, MutexGuard};
#[cfg(not(loom))]
use parking_lot::{Condvar, Mutex, MutexGuard};

/// State guarded by a lock, plus a condition variable to wait for changes.
pub(crate) struct Monitor<T> {
    state: Mutex<T>,
    changed: Condvar,
}

/// The locked state; unlocks when dropped.
pub(crate) struct Locked<'a, T>(MutexGuard<'a, T>);

impl<T> Monitor<T> {
    pub(crate) fn new(state: T) -> Self {
        Self { state: Mutex::new(state), changed: Condvar::new() }
    }

    #[cfg(not(loom))]
    pub(crate) fn lock(&self) -> Locked<'_, T> {
        Locked(self.state.lock())
    }

    #[cfg(loom)]
    pub(crate) fn lock(&self) -> Locked<'_, T> {
        // A poisoned lock means a model thread panicked; the model fails.
        Locked(self.state.lock().expect("loom model thread panicked"))
    }

    /// Unlocks, waits for a notification (or `timeout`, or spuriously), and
    /// locks again. Returns whether the wait timed out.
    #[cfg(not(loom))]
    pub(crate) fn wait<'a>(&'a self, mut locked: Locked<'a, T>, timeout: Option<Duration>) -> (Locked<'a, T>, bool) {
        let timed_out = if let Some(timeout) = timeout {
            self.changed.wait_for(&mut locked.0, timeout).timed_out()
        } else {
            self.changed.wait(&mut locked.0);
            false
        };
        (locked, timed_out)
    }

    /// Unlocks, waits for a notification, and locks again. loom does not
    /// model time: a wait with a timeout waits for a notification, so a lost
    /// wake-up shows up as a deadlock the model reports.
    #[cfg(loom)]
    pub(crate) fn wait<'a>(&'a self, locked: Locked<'a, T>, timeout: Option<Duration>) -> (Locked<'a, T>, bool) {
        let guard = match timeout {
            Some(timeout) => self.changed.wait_timeout(locked.0, timeout).expect("loom model thread panicked").0,
            None => self.changed.wait(locked.0).expect("loom model thread panicked"),
        };
        (Locked(guard), false)
    }

    /// Wakes one waiter.
    pub(crate) fn notify_one(&self) {
        self.changed.notify_one();
    }

    /// Wakes every waiter.
    pub(crate) fn notify_all(&self) {
        self.changed.notify_all();
    }
}

impl<T> Deref for Locked<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Locked<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}
