//! The embedder's API: values held as [`Handle`]s, failures as
//! [`JsError`]s, Rust functions scripts can call.
//!
//! # Why no raw value leaves the crate
//!
//! The collector runs at safepoints inside calls into the VM
//! ([`Vm::eval_script`], [`Vm::run_microtasks`], [`Vm::run_event_loop`],
//! [`Vm::collect_garbage`], a handle's `get` that runs a getter...), and its
//! roots are what the VM can see. A value the embedder kept in a local
//! variable across such a call would be freed under it. So every value
//! handed out is a [`Handle`], rooted until dropped, and every value taken
//! in is a handle too; the internal modules that work on raw values are
//! private to the crate. Safe code using this API cannot reach a freed
//! cell.
//!
//! ```
//! use js_vm::{Handle, PropertyFlags, Vm};
//!
//! let mut vm = Vm::new();
//! let log = Handle::function(&mut vm, "log", 1, |vm, _this, args| {
//!     let text = args.first().cloned().unwrap_or_default().to_rust_string(vm)?;
//!     Ok(Handle::string(vm, &format!("<{text}>")))
//! });
//! let global = vm.global_object();
//! global.define_property(&mut vm, "wrap", &log, PropertyFlags::METHOD).unwrap();
//! let result = vm.eval_script("main.js", "wrap([1, 2].map((x) => x * 3))").unwrap();
//! assert_eq!(result.to_rust_string(&mut vm).unwrap(), "<3,6>");
//! ```
//!
//! [`Vm::eval_script`]: crate::Vm::eval_script
//! [`Vm::run_microtasks`]: crate::Vm::run_microtasks
//! [`Vm::run_event_loop`]: crate::Vm::run_event_loop
//! [`Vm::collect_garbage`]: crate::Vm::collect_garbage

mod handle;
mod host_function;
mod js_error;
mod value_ops;

pub use handle::Handle;
pub(crate) use handle::HandleTable;
pub(crate) use host_function::HostFunctionBody;
pub use js_error::JsError;
pub use value_ops::PropertyFlags;
