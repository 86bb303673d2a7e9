//! Why a task could not be posted.

use std::fmt;

use thiserror::Error;

/// A task could not be posted to a [`RemoteInbox`](crate::RemoteInbox); the
/// task is handed back.
#[derive(Error, PartialEq, Eq)]
pub enum PostError<T> {
    /// The event loop closed the inbox (it is shutting down).
    #[error("the event loop's inbox is closed")]
    Closed(T),
}

impl<T> PostError<T> {
    /// The task that was not posted.
    pub fn into_task(self) -> T {
        match self {
            Self::Closed(task) => task,
        }
    }
}

impl<T> fmt::Debug for PostError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Closed(_) => f.write_str("Closed(..)"),
        }
    }
}
