//! Async-context frames (in progress).
