//! Async-context frames for a JavaScript engine: what Node's
//! `AsyncLocalStorage` and TC39's `AsyncContext.Variable` /
//! `AsyncContext.Snapshot` are built on.
//!
//! ```
//! use js_async_context::{ContextState, Frame, SwapScope};
//! use js_gc::Heap;
//!
//! // `Heap::new`'s contract: this heap's cells are used only with it, while it lives.
//! let mut heap = unsafe { Heap::new() };
//! let mut state: ContextState<u64> = ContextState::new();
//! assert_eq!(state.capture(), None); // tracking is off: one flag test
//!
//! // `const als = new AsyncLocalStorage()` turns tracking on.
//! let als = state.create_variable()?;
//! // `als.run(42, f)`: install `current.with(als, 42)` around `f` ...
//! let frame = Frame::bind(state.current(), &mut heap, als, 42);
//! let captured = {
//!     let mut scope = SwapScope::enter(&mut state, Some(frame));
//!     // ... where a promise reaction or job captures the frame.
//!     scope.capture()
//! };
//! assert_eq!(state.current(), None);
//!
//! // Later the job runs under what it captured.
//! let scope = SwapScope::enter(&mut state, captured);
//! assert_eq!(scope.get(&heap, als), Some(42));
//! # Ok::<(), js_async_context::ContextError>(())
//! ```
//!
//! # What it owns
//!
//! * [`Frame`]: an immutable, persistent mapping from [`VariableId`] to the
//!   embedder's value `V`; adding a binding copies a small sorted vector.
//!   Frames are cells of the [`js_gc`] heap (one word, `Copy`, compared by
//!   identity, traced), so a frame fits in a job's or reaction's context
//!   slot as a [`js_gc::GcAny`].
//! * [`ContextState`]: the VM's `tracking_enabled` flag (set when the first
//!   variable is created, never per global object) and `current` frame.
//!   [`ContextState::capture`] is one flag test while tracking is off.
//! * [`SwapScope`]: RAII; installs a captured frame for a job and always
//!   restores the previous one, on unwinding too. A job that captured no
//!   frame runs with none; `enterWith()` inside a job ends with the job.
//!
//! # The embedder's side
//!
//! The host implements [`ContextHost`] on its VM (or uses the state
//! directly), traces its [`ContextState`] from its [`js_gc::Roots`], stores
//! `capture()` with every job and reaction it creates (the microtask job's
//! fourth slot, with its context-frame flag), and runs each under a
//! [`SwapScope`]. Node's `AsyncLocalStorage` and TC39 `AsyncContext` differ
//! on generators (the proposal keeps a generator's creation frame across
//! `yield`; Node does nothing special): that is the VM's choice of what to
//! capture, made with the same two operations.
//!
//! # Performance decisions
//!
//! * No frame, no cost: with tracking off, `capture()` and entering and
//!   leaving a scope are a flag test each, and no job stores a frame.
//! * Frames are shared, never copied per job: capturing is copying a
//!   pointer; only `run`/`enterWith` with a new store allocate a frame.
//! * The frames saved by open scopes live in the state (a stack that stops
//!   allocating once warm), so a collection during a job sees them.
//!
//! # Limits
//!
//! A frame is copied on every `with`: O(variables) per `run`, which is the
//! right trade for the handful of variables real programs have.

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod error;
mod frame;
mod state;
mod swap_scope;
mod variable;

pub use error::ContextError;
pub use frame::{Frame, FrameCell};
pub use state::{ContextHost, ContextState};
pub use swap_scope::SwapScope;
pub use variable::VariableId;
