//! The crate's errors.

use thiserror::Error;

/// What can go wrong with async-context state.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContextError {
    /// Every variable number has been used (2^32 - 1 variables were made).
    #[error("too many async-context variables: all {limit} identifiers are in use")]
    TooManyVariables {
        /// The number of variables that can exist.
        limit: u32,
    },
}
