//! The crate's errors: the TypeErrors the promise algorithms throw.

use thiserror::Error;

/// A TypeError the promise algorithms raise. The host turns it into a
/// JavaScript `TypeError` object with
/// [`PromiseHost::type_error`](crate::PromiseHost::type_error); the message
/// is formatted only then.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PromiseError {
    /// A promise was resolved with itself (Promise Resolve Functions, step 7).
    #[error("Chaining cycle detected for promise: a promise cannot be resolved with itself")]
    SelfResolution,
}
