//! Integration tests of js-streams over its own reference host (not
//! js-vm): the state machines driven the way an engine drives them, with
//! user callbacks logging the order in which they ran.

#![allow(clippy::doc_markdown, reason = "spec names (ReadableStream, AbortSignal) are prose here, not code")]

mod byte_stream;
mod construct;
mod host;
mod iteration;
mod pipe;
mod readable;
mod tee;
mod traces;
mod transform;
mod writable;
