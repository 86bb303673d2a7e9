//! A JavaScript engine composed from the project's subsystem crates: NaN-boxed
//! values, Latin-1/UTF-16 strings with ropes and atoms, objects with shapes
//! and inline caches, an `oxc`-based compiler to register bytecode, one
//! interpreter loop, and the standard builtins, on the `js-gc` heap.
//!
//! ```
//! let mut vm = js_vm::Vm::new();
//! let v = vm.eval_script("example.js", "[1, 2, 3].map(x => x * 2).join('-')").unwrap();
//! assert_eq!(v.display(&mut vm), "2-4-6");
//! ```
//!
//! # The embedder's API
//!
//! [`Vm`] runs scripts ([`Vm::eval_script`]) and modules
//! ([`Vm::import_module`], [`Vm::eval_module`] through a [`ModuleLoader`]),
//! drains microtasks and the Node-style event loop, and makes realms.
//! Values come back as [`Handle`]s, rooted until dropped; failures as
//! [`JsError`]s; Rust functions become callable with [`Handle::function`].
//! Nothing else leaves the crate: the collector runs at safepoints inside
//! every call into the VM and sees only the VM's roots and the handles, so
//! a raw value kept by the embedder across such a call could be freed
//! under it. With handles only, safe code cannot reach a freed cell.
//!
//! # Layout (crate-internal)
//!
//! * `value`, `string`, `symbol`, `bigint`, `object`: the value
//!   representation and the object model.
//! * `compiler` and `bytecode`: source to code cells.
//! * `interpreter`: frames, calls, exceptions, inline caches.
//! * `builtins` (ECMA-262) and `host` (Node conventions, WHATWG streams,
//!   encoding, events).
//! * `module`: ES modules — the module map, loading, linking, evaluation
//!   with top-level await, namespaces, `import()` and `import.meta`.
//! * `promise`: the js-promise host and the microtask checkpoint.
//! * `embedding`: handles, errors and host functions for the embedder.
//! * `vm`: the VM itself.
//!
//! # Garbage collection
//!
//! Collection happens at safepoints only: calls and loop back-edges in the
//! interpreter. The roots are the register file, the frames, the realms,
//! the embedder's handles and the temporary roots of running native
//! functions. Inline caches and the atom table are weak and reconciled at
//! the end of every collection.

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

mod abstract_ops;
mod bigint;
mod builtins;
mod bytecode;
mod compiler;
mod embedding;
mod environment;
mod function;
mod host;
mod interpreter;
mod jobs;
mod memory;
mod module;
mod object;
mod promise;
mod realm;
mod string;
mod subsystem_host;
mod symbol;
mod value;
mod vm;

pub use builtins::shared_memory::SharedArrayBufferBlock;
pub use embedding::{Handle, JsError, PropertyFlags};
pub use host::uncaught::Uncaught;
pub use memory::{CountingAllocator, TerminationReason};
pub use module::{FsLoader, ModuleLoadError, ModuleLoader, SourceKind, node_resolution};
pub use realm::RealmId;
pub use vm::{
    AgentOptions, CollectionSummary, ConsoleSink, Phase, SourceGoal, StdConsole, VM_GROWTH_FACTOR, Vm, VmOptions,
};
