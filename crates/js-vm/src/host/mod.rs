//! Host-defined globals in Node's conventions: `console`, the event loop
//! (timers, `setImmediate`, `process.nextTick`), `process`, `performance`,
//! `AsyncLocalStorage` (through `require('node:async_hooks')`),
//! `AsyncContext`, `DOMException`, `structuredClone`, the WHATWG streams, and the `$vm`
//! internals object of `--expose-internals`.

pub mod async_local_storage;
pub mod console;
pub mod dom_exception;
pub mod event_loop;
mod internals;
pub mod process;
pub mod streams;
pub mod structured_clone;
pub mod uncaught;

use js_gc::{Gc, Trace, Tracer};

use crate::object::JsObject;

use crate::vm::Vm;

/// Installs the host globals.
pub(crate) fn install(vm: &mut Vm) {
    console::install(vm);
    event_loop::install(vm);
    process::install(vm);
    async_local_storage::install(vm);
    dom_exception::install(vm);
    structured_clone::install(vm);
    streams::install(vm);
    if vm.options.expose_internals {
        internals::install(vm);
    }
}

/// Host objects the VM keeps (made once, reachable from the roots).
#[derive(Default)]
pub(crate) struct HostObjects {
    pub(crate) process: Option<Gc<JsObject>>,
    pub(crate) async_hooks: Option<Gc<JsObject>>,
    pub(crate) async_local_storage_prototype: Option<Gc<JsObject>>,
    pub(crate) variable_prototype: Option<Gc<JsObject>>,
    pub(crate) snapshot_prototype: Option<Gc<JsObject>>,
    pub(crate) timeout_prototype: Option<Gc<JsObject>>,
    pub(crate) immediate_prototype: Option<Gc<JsObject>>,
    pub(crate) dom_exception_prototype: Option<Gc<JsObject>>,
    pub(crate) streams: streams::StreamPrototypes,
}

impl HostObjects {
    /// Every object made so far.
    pub(crate) fn objects(&self) -> impl Iterator<Item = Gc<JsObject>> {
        [
            self.process,
            self.async_hooks,
            self.async_local_storage_prototype,
            self.variable_prototype,
            self.snapshot_prototype,
            self.timeout_prototype,
            self.immediate_prototype,
            self.dom_exception_prototype,
        ]
        .into_iter()
        .flatten()
    }
}

// SAFETY: every object is reported.
unsafe impl Trace for HostObjects {
    fn trace(&self, tracer: &mut Tracer) {
        for o in self.objects() {
            o.trace(tracer);
        }
        self.streams.trace(tracer);
    }
}
