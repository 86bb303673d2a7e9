//! Host-defined globals in Node's conventions: `console`, the event loop
//! (timers, `setImmediate`, `process.nextTick`), `process`, `performance`,
//! `AsyncLocalStorage` (through `require('node:async_hooks')`),
//! `AsyncContext`, `DOMException`, `structuredClone`, the WHATWG streams,
//! `TextEncoder`, `TextDecoder`, `TextEncoderStream`, `TextDecoderStream`,
//! `Event`, `EventTarget`, `AbortController`,
//! `AbortSignal`, and the `$vm` internals object of `--expose-internals`.

pub mod abort_controller;
pub mod abort_signal;
pub mod async_local_storage;
pub mod commonjs;
pub mod console;
pub mod dom_exception;
pub mod event;
pub mod event_loop;
pub mod event_target;
mod internals;
pub mod process;
pub mod streams;
pub mod structured_clone;
pub mod text_decoder;
pub mod text_decoder_stream;
pub mod text_encoder;
pub mod text_encoder_stream;
pub mod uncaught;

use js_gc::{Gc, Trace, Tracer};

use crate::builtins::native_function;
use crate::function::NativeFn;
use crate::object::internal_methods::{define_builtin, define_own_property};
use crate::object::{Attributes, JsObject, PropertyDescriptor, PropertyKey};
use crate::value::Value;

use crate::vm::Vm;

/// The Node-like host's state, one part of [`Vm`]: where console output
/// goes, the event loop (timers, immediates, the nextTick queue), the host
/// objects made once, and the CommonJS loader's state.
pub(crate) struct RuntimeState {
    /// Where `console.log` and `console.error` write.
    pub console: Box<dyn crate::vm::ConsoleSink>,
    /// Timers, immediates and the nextTick queue.
    pub event_loop: event_loop::EventLoop,
    /// Host objects made once (process, module objects, prototypes).
    pub host_objects: HostObjects,
    /// The CommonJS loader's Rust state.
    pub commonjs: commonjs::CommonJsState,
}

impl Default for RuntimeState {
    fn default() -> Self {
        Self {
            console: Box::new(crate::vm::StdConsole),
            event_loop: event_loop::EventLoop::default(),
            host_objects: HostObjects::default(),
            commonjs: commonjs::CommonJsState::default(),
        }
    }
}

// SAFETY: the event loop's callbacks and the host objects are every cell
// the host state holds (the console and the CommonJS state hold none).
unsafe impl Trace for RuntimeState {
    fn trace(&self, tracer: &mut Tracer) {
        self.event_loop.trace(tracer);
        self.host_objects.trace(tracer);
    }
}

/// Installs the host globals.
pub(crate) fn install(vm: &mut Vm) {
    console::install(vm);
    event_loop::install(vm);
    process::install(vm);
    async_local_storage::install(vm);
    commonjs::install(vm);
    dom_exception::install(vm);
    structured_clone::install(vm);
    streams::install(vm);
    text_encoder::install(vm);
    text_decoder::install(vm);
    text_encoder_stream::install(vm);
    text_decoder_stream::install(vm);
    event::install(vm);
    let event_target_ctor = event_target::install(vm);
    abort_signal::install(vm, event_target_ctor);
    abort_controller::install(vm);
    if vm.options.expose_internals {
        internals::install(vm);
    }
}

/// The constructor of a WebIDL interface that declares none (stream
/// controllers, `AbortSignal`): its objects come from other operations, and
/// calling it is always a TypeError.
pub(crate) fn illegal_constructor(vm: &mut Vm, _info: &crate::interpreter::CallInfo) -> crate::vm::JsResult<Value> {
    Err(vm.type_error("Illegal constructor"))
}

/// Defines a WebIDL regular operation on an interface prototype: a method
/// that is writable, enumerable and configurable (WebIDL §3.7.6), unlike
/// ECMAScript builtins.
pub(crate) fn webidl_operation(vm: &mut Vm, proto: Gc<JsObject>, name: &str, length: u32, f: NativeFn) {
    let function = native_function(vm, name, length, f, false);
    let key = vm.key(name);
    define_builtin(vm, proto, key, Value::object(function), Attributes::DEFAULT);
}

/// Defines a WebIDL attribute on an interface prototype: an enumerable,
/// configurable accessor (WebIDL §3.7.7); without a setter it is readonly.
pub(crate) fn webidl_attribute(vm: &mut Vm, proto: Gc<JsObject>, name: &str, get: NativeFn, set: Option<NativeFn>) {
    let getter = native_function(vm, &format!("get {name}"), 0, get, false);
    let setter = set.map(|f| Value::object(native_function(vm, &format!("set {name}"), 1, f, false)));
    let desc = PropertyDescriptor {
        get: Some(Value::object(getter)),
        set: Some(setter.unwrap_or_default()),
        enumerable: Some(true),
        configurable: Some(true),
        ..Default::default()
    };
    let key = vm.key(name);
    let _ = define_own_property(vm, proto, key, desc);
}

/// Gives an interface prototype its `Symbol.toStringTag`.
pub(crate) fn webidl_to_string_tag(vm: &mut Vm, proto: Gc<JsObject>, name: &str) {
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let text = vm.string(name);
    define_builtin(vm, proto, tag, text, Attributes::CONFIGURABLE_ONLY);
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
    pub(crate) text_encoder_prototype: Option<Gc<JsObject>>,
    pub(crate) text_decoder_prototype: Option<Gc<JsObject>>,
    pub(crate) event_prototype: Option<Gc<JsObject>>,
    pub(crate) event_is_trusted_getter: Option<Gc<JsObject>>,
    pub(crate) event_target_prototype: Option<Gc<JsObject>>,
    pub(crate) abort_signal_prototype: Option<Gc<JsObject>>,
    pub(crate) abort_controller_prototype: Option<Gc<JsObject>>,
    pub(crate) text_encoder_stream_prototype: Option<Gc<JsObject>>,
    pub(crate) text_decoder_stream_prototype: Option<Gc<JsObject>>,
    /// The shared `transform` and `flush` of every TextEncoderStream.
    pub(crate) text_encoder_stream_algorithms: Option<(Gc<JsObject>, Gc<JsObject>)>,
    /// The shared `transform` and `flush` of every TextDecoderStream.
    pub(crate) text_decoder_stream_algorithms: Option<(Gc<JsObject>, Gc<JsObject>)>,
    /// `require('module')`, the `Module` constructor.
    pub(crate) module_constructor: Option<Gc<JsObject>>,
    /// `Module.prototype`.
    pub(crate) module_prototype: Option<Gc<JsObject>>,
    /// `require.cache`.
    pub(crate) module_cache: Option<Gc<JsObject>>,
    /// `require.extensions`.
    pub(crate) module_extensions: Option<Gc<JsObject>>,
    /// `require.main`: the CommonJS main module.
    pub(crate) main_module: Option<Gc<JsObject>>,
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
            self.text_encoder_prototype,
            self.text_decoder_prototype,
            self.event_prototype,
            self.event_is_trusted_getter,
            self.event_target_prototype,
            self.abort_signal_prototype,
            self.abort_controller_prototype,
            self.text_encoder_stream_prototype,
            self.text_decoder_stream_prototype,
            self.module_constructor,
            self.module_prototype,
            self.module_cache,
            self.module_extensions,
            self.main_module,
        ]
        .into_iter()
        .flatten()
        .chain(self.text_encoder_stream_algorithms.into_iter().flat_map(|(t, f)| [t, f]))
        .chain(self.text_decoder_stream_algorithms.into_iter().flat_map(|(t, f)| [t, f]))
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
