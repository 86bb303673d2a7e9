//! `RemoteInbox`: how other threads post tasks to a VM's event loop.

mod error;
mod monitor;

use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};

pub use error::PostError;
use monitor::{Locked, Monitor};

/// What [`RemoteInbox::wait`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitStatus {
    /// Tasks are waiting to be taken.
    Ready,
    /// The timeout passed with nothing posted.
    TimedOut,
    /// The inbox is closed and every task posted before has been taken.
    Closed,
}

/// The state behind the inbox's lock.
struct InboxState<T> {
    tasks: VecDeque<T>,
    closed: bool,
    /// Threads blocked in `wait`; `post` notifies only when there are any.
    waiters: usize,
    /// Tasks ever posted.
    posted: u64,
}

/// A multi-producer, single-consumer task inbox for an event loop: timer,
/// I/O and worker threads [`post`](Self::post) tasks; the loop takes them
/// with [`take_all`](Self::take_all) between turns and blocks in
/// [`wait`](Self::wait) when it has nothing else to do.
///
/// Guarantees:
/// * **No task is lost or duplicated**: every successful `post` is taken
///   exactly once; a failed one hands the task back in [`PostError`].
/// * **FIFO per producer**: tasks posted by one thread are taken in the
///   order it posted them (all posts are ordered by one lock).
/// * **No lost wake-up**: the consumer decides to sleep while holding the
///   lock that every `post` takes, and a post that finds a waiter notifies
///   it; `wait` returns as soon as a task is there.
/// * **Close**: after [`close`](Self::close), posts fail; tasks posted before
///   are still delivered; `wait` reports [`WaitStatus::Closed`] once they are
///   all taken, and a blocked `wait` is woken.
///
/// These are checked with loom with two and three producers (the crate's
/// `loom_*` tests, run by `cargo xtask ci`).
///
/// `RemoteInbox` is `Send + Sync` when `T: Send`; share it with an `Arc`.
/// It tolerates several consumers (every waiter is counted), but is built
/// for one: the event loop.
pub struct RemoteInbox<T> {
    monitor: Monitor<InboxState<T>>,
}

impl<T> RemoteInbox<T> {
    /// An open, empty inbox.
    pub fn new() -> Self {
        Self { monitor: Monitor::new(InboxState { tasks: VecDeque::new(), closed: false, waiters: 0, posted: 0 }) }
    }

    /// Posts `task` to the event loop, waking it if it is waiting.
    ///
    /// # Errors
    /// [`PostError::Closed`], with the task, if the inbox is closed.
    pub fn post(&self, task: T) -> Result<(), PostError<T>> {
        let mut state = self.monitor.lock();
        if state.closed {
            return Err(PostError::Closed(task));
        }
        state.tasks.push_back(task);
        state.posted += 1;
        let wake = state.waiters > 0;
        drop(state);
        // Notifying after unlocking spares the woken thread a bounce off the
        // lock. The waiter registered itself and released the lock
        // atomically inside its wait, so it cannot miss this notification.
        if wake {
            self.monitor.notify_one();
        }
        Ok(())
    }

    /// Moves every posted task into `into` (behind what it holds), oldest
    /// first; returns how many. When `into` is empty the two buffers are
    /// swapped, so a loop that reuses one buffer allocates nothing once warm.
    pub fn take_all(&self, into: &mut VecDeque<T>) -> usize {
        let mut state = self.monitor.lock();
        let count = state.tasks.len();
        if into.is_empty() {
            std::mem::swap(&mut state.tasks, into);
        } else {
            into.append(&mut state.tasks);
        }
        count
    }

    /// Takes the oldest posted task.
    pub fn try_take(&self) -> Option<T> {
        self.monitor.lock().tasks.pop_front()
    }

    /// Blocks until a task is posted, the inbox is closed, or `timeout`
    /// passes (`None`: no limit). Returns at once if tasks are waiting.
    pub fn wait(&self, timeout: Option<Duration>) -> WaitStatus {
        let deadline = timeout.map(|timeout| Instant::now() + timeout);
        let mut state = self.monitor.lock();
        loop {
            if let Some(status) = Self::status(&state) {
                return status;
            }
            let remaining = match deadline {
                Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                    Some(remaining) if !remaining.is_zero() => Some(remaining),
                    _ => return WaitStatus::TimedOut,
                },
                None => None,
            };
            state.waiters += 1;
            let (relocked, timed_out) = self.monitor.wait(state, remaining);
            state = relocked;
            state.waiters -= 1;
            if timed_out {
                // A post may have raced the timeout: report it if so.
                return Self::status(&state).unwrap_or(WaitStatus::TimedOut);
            }
        }
    }

    /// `Ready` or `Closed` if `wait` can return without blocking.
    fn status(state: &Locked<'_, InboxState<T>>) -> Option<WaitStatus> {
        if !state.tasks.is_empty() {
            Some(WaitStatus::Ready)
        } else if state.closed {
            Some(WaitStatus::Closed)
        } else {
            None
        }
    }

    /// Closes the inbox: later posts fail, waiting consumers wake. Tasks
    /// already posted stay to be taken. Closing twice is harmless.
    pub fn close(&self) {
        let mut state = self.monitor.lock();
        state.closed = true;
        let wake = state.waiters > 0;
        drop(state);
        if wake {
            self.monitor.notify_all();
        }
    }

    /// Whether the inbox is closed.
    pub fn is_closed(&self) -> bool {
        self.monitor.lock().closed
    }

    /// The number of tasks waiting to be taken.
    pub fn len(&self) -> usize {
        self.monitor.lock().tasks.len()
    }

    /// Whether no task is waiting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tasks ever posted successfully.
    pub fn posted(&self) -> u64 {
        self.monitor.lock().posted
    }
}

impl<T> Default for RemoteInbox<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> fmt::Debug for RemoteInbox<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.monitor.lock();
        f.debug_struct("RemoteInbox")
            .field("waiting_tasks", &state.tasks.len())
            .field("closed", &state.closed)
            .field("posted", &state.posted)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;

#[cfg(all(test, loom))]
mod loom_tests;

static_assertions::assert_impl_all!(RemoteInbox<Box<dyn FnOnce() + Send>>: Send, Sync);
