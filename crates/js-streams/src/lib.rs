//! WHATWG Streams (<https://streams.spec.whatwg.org/>) state machines for a
//! JavaScript engine: `ReadableStream` with its default and byte
//! controllers, default and BYOB readers (and BYOB requests), async
//! iterator, `tee()` (default and byte) and `ReadableStream.from`;
//! `WritableStream` with its default controller and writer;
//! `TransformStream`; `pipeTo`. Generic over a [`StreamHost`].
//!
//! # The embedder's side
//!
//! The host implements [`StreamHost`] (over [`js_promise::PromiseHost`]):
//! its stream objects embed a [`StreamSlots`], it makes those objects with
//! the right prototypes, error objects and read results, and it converts
//! the JavaScript-facing arguments (underlying source and sink
//! dictionaries, strategies, options) before calling the algorithms here.
//! Its microtask loop hands jobs whose kind [`is_stream_job`] to
//! [`run_stream_job`]. Byte streams also ask it about `ArrayBuffer`s and
//! their views ([`ViewRecord`], transfer, clone, copy, view construction):
//! a transferred buffer is detached, as the spec requires.
//!
//! # Performance decisions
//!
//! * **No closure per pull or write.** Every "upon fulfilment / rejection"
//!   of the spec is a js-promise continuation: a slim (or inline) reaction
//!   whose job kind is one of this crate's ([`jobs`]) and whose payload is
//!   the controller, stream or pipe record. A pull or write whose result is
//!   not a promise is continued by a directly queued job, in the same turn
//!   the spec's resolved promise would take, with no promise made.
//! * **Buffered reads are settled at once.** `read()` and async iteration
//!   on a stream with queued chunks (or queued bytes, for a byte stream)
//!   take the chunk without a read request and return a promise already
//!   fulfilled with the result.
//! * **Pull-into descriptors are plain records** in the controller's
//!   slots, not objects; the `byobRequest` object and its view are made
//!   only when the source reads `controller.byobRequest`.
//! * **User algorithms are called with their exact arity** (`pull(c)`,
//!   `write(chunk, c)`, `close()`, `cancel(reason)`), and directly: no
//!   algorithm wrapper objects.
//! * **No size algorithm object.** A strategy without `size` stores
//!   `undefined` and every chunk has size 1.
//! * **`start()` results that are not objects** are continued by a plain
//!   microtask (thenables keep the promise path, which is observable; a
//!   native promise is adopted by two jobs, no promise).
//! * **`closed` and `ready` promises are made on first observation**
//!   ([`LazyPromise`]), with the identity the spec gives them from then on;
//!   so is the TypeError a released reader's `closed` is rejected with, so
//!   `releaseLock()` allocates nothing unless a read is pending.
//!
//! # Allocation
//!
//! Objects made, as measured by the engine's test
//! (`crates/js-vm/tests/streams_allocation.rs`, `$vm.heapStats()`):
//! `new ReadableStream()` 2 (stream, controller), with a `start` returning
//! a non-object still 2; `getReader()` 1; `new WritableStream()` 2;
//! `getWriter()` 1; `new TransformStream()` 8 (the transform stream, its
//! two sides, three controllers, the start promise and the
//! backpressure-change promise) and no reaction (its sides adopt the
//! start promise by jobs); `read()` or `next()` on a buffered chunk 2 (the
//! promise and the result); a pull answering a pending read 0 beyond the
//! read's own promise and result; a write 1 (its request promise);
//! `TextEncoderStream`'s chunk 2 beyond its transform stream's (the output
//! `Uint8Array` and its buffer), `TextDecoderStream`'s none (the output is
//! a string). Byte streams:
//! `new ReadableStream({ type: "bytes" })` 2; `getReader({ mode: "byob" })`
//! 1; `read(view)` of queued bytes 4 (the promise, the result, the buffer
//! the view's bytes are transferred to, the filled view: a second transfer
//! of a buffer nothing else has seen is skipped); a pull answering it
//! through `byobRequest.respond()` adds the request, its view and the
//! buffer `respond()` transfers to (7 in all), and no closure.
//!
//! # Limits
//!
//! AbortSignals (`pipeTo`'s `signal` option,
//! `WritableStreamDefaultController.signal`) are the host's, reached
//! through [`StreamHost`]; a controller's signal is made when script first
//! reads it (an abort before that only records the reason). Tick counts
//! are node 20's (`crates/js-vm/tests/js/streams-ordering.js` compares
//! them turn by turn): a user callback's promise result is adopted (two
//! turns, as WebIDL's conversion and node's async wrappers do); the async
//! iterator chains calls on node's ongoing promise; `pipeTo` follows
//! node's async step loop; a BYOB `read(view)` adopts its result as node's
//! async `read()` does; a `TransformStream`'s writable-side abort waits on
//! a promise adopting the finish promise, as node's async abort algorithm
//! returns. The adoptions are jobs ([`adoption`]), not
//! promises. Two places follow the spec where node does not: a `tee()`'s
//! branches close without node's `process.nextTick`, and
//! `ReadableStream.from` awaits a sync iterator through
//! `CreateAsyncFromSyncIterator`. The crate claims job kinds
//! `0xFE00..=0xFEFF` ([`JOB_KINDS`], for the host's
//! [`js_microtask::JobKindSpace`]).

#![allow(clippy::doc_markdown, reason = "spec names (ReadableStream, TypeError, WebIDL) are prose here, not code")]

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod adoption;
pub mod host;
pub mod jobs;
pub mod lazy_promise;
pub mod pipe_to;
mod promises;
pub mod pull_into_descriptor;
pub mod queue;
pub mod readable_byte_stream_controller;
pub mod readable_byte_stream_tee;
pub mod readable_stream;
pub mod readable_stream_async_iterator;
pub mod readable_stream_byob_reader;
pub mod readable_stream_byob_request;
pub mod readable_stream_default_controller;
pub mod readable_stream_default_reader;
pub mod readable_stream_from;
pub mod readable_stream_tee;
pub mod slots;
pub mod transform_stream;
pub mod writable_stream;
pub mod writable_stream_default_controller;
pub mod writable_stream_default_writer;

pub use host::{ErrorKind, Slots, StreamHost, ViewRecord};
pub use jobs::{JOB_KINDS, is_stream_job, run_stream_job};
pub use lazy_promise::LazyPromise;
pub use promises::mark_handled;
pub use slots::StreamSlots;
