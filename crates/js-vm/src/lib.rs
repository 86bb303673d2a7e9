//! A JavaScript engine composed from the project's subsystem crates: NaN-boxed
//! values, Latin-1/UTF-16 strings with ropes and atoms, objects with shapes
//! and inline caches, an `oxc`-based compiler to register bytecode, one
//! interpreter loop, and the standard builtins, on the `js-gc` heap.
//!
//! ```
//! let mut vm = js_vm::Vm::new();
//! let v = vm.eval_script("example.js", "[1, 2, 3].map(x => x * 2).join('-')").unwrap();
//! assert_eq!(vm.display(v), "2-4-6");
//! ```
//!
//! # Layout
//!
//! * [`value`], [`string`], [`symbol`], [`bigint`], [`object`]: the value
//!   representation and the object model.
//! * [`compiler`] and [`bytecode`]: source to code cells.
//! * [`interpreter`]: frames, calls, exceptions, inline caches.
//! * [`builtins`] (ECMA-262) and [`host`] (Node conventions).
//! * [`module`]: ES modules — the module map, loading through a
//!   [`ModuleLoader`] (files by default, `node:` built-ins), linking,
//!   evaluation with top-level await, namespaces, `import()` and
//!   `import.meta` ([`Vm::import_module`], [`Vm::eval_module`]).
//! * [`vm`]: the embedder's entry point.
//!
//! # Garbage collection
//!
//! Collection happens at safepoints only: calls and loop back-edges in the
//! interpreter. The roots are the register file, the frames, the realm and
//! `Vm::keep_alive` values of running native functions. Inline caches and
//! the atom table are weak and reconciled at the end of every collection.

#![allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "ECMAScript's integer conversions (ToUint32, array indices, lengths) are spelled as casts after the spec's range checks"
)]
#![allow(clippy::float_cmp, reason = "the spec compares Number values exactly")]
#![allow(clippy::doc_markdown, reason = "docs name spec operations and errors (PrivateGet, TypeError) in prose")]
#![allow(
    clippy::missing_errors_doc,
    reason = "every fallible function returns JsResult: its error is the thrown JavaScript exception"
)]
#![allow(clippy::unnecessary_wraps, reason = "builtins share the NativeFn signature, whether or not they can throw")]
#![allow(
    clippy::many_single_char_names,
    clippy::similar_names,
    reason = "spec algorithms name their variables O, P, k, len; the code keeps those names"
)]

pub mod abstract_ops;
pub mod bigint;
pub mod builtins;
pub mod bytecode;
pub mod compiler;
pub mod environment;
pub mod function;
pub mod host;
pub mod interpreter;
pub mod memory;
pub mod module;
pub mod object;
mod persistent;
pub mod promise;
pub mod realm;
pub mod string;
pub mod symbol;
pub mod value;
pub mod vm;

pub use host::uncaught::Uncaught;
pub use memory::{CountingAllocator, TerminationReason};
pub use module::{FsLoader, ModuleLoadError, ModuleLoader};
pub use persistent::Persistent;
pub use realm::RealmId;
pub use value::Value;
pub use vm::{ConsoleSink, Exception, JsResult, Phase, StdConsole, Vm, VmOptions};
