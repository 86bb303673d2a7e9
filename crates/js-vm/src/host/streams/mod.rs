//! The WHATWG Streams globals (`ReadableStream`, `WritableStream`,
//! `TransformStream`, their readers, writers and controllers — the
//! readable byte stream controller, BYOB reader and BYOB request included
//! — and the two queuing strategies) over the js-streams crate: [`Vm`] as
//! its [`StreamHost`] (with the ArrayBuffer operations of byte streams in
//! `array_buffer_view`), WebIDL argument conversion, brand checks and the
//! prototypes.
//!
//! Every stream object is an object of class [`STREAM`] whose slots cell
//! is the crate's [`StreamSlots`].

mod array_buffer_view;
mod conversions;
mod queuing_strategy;
mod readable_byte_stream_controller;
mod readable_stream;
mod readable_stream_async_iterator;
mod readable_stream_byob_reader;
mod readable_stream_byob_request;
mod readable_stream_default_controller;
mod readable_stream_default_reader;
mod transform_stream;
mod transform_stream_default_controller;
mod writable_stream;
mod writable_stream_default_controller;
mod writable_stream_default_writer;

use js_gc::{Gc, Trace, Tracer};
use js_streams::pull_into_descriptor::ViewConstructor;
use js_streams::{ErrorKind, StreamHost, StreamSlots, ViewRecord};

use crate::builtins::error::ErrorKind as VmErrorKind;
use crate::host::abort_signal;
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, DataClass, JsObject, PropertyKey};
use crate::subsystem_host::VmHost;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// A WHATWG streams object (a stream, reader, writer, controller, queuing
/// strategy or an internal pipe record): its slots are a [`VmStreamSlots`]
/// cell.
pub(crate) static STREAM: DataClass = DataClass::plain::<VmStreamSlots>("Stream");

/// The slots of a stream object in this engine.
pub type VmStreamSlots = StreamSlots<Value, Gc<JsObject>, Gc<JsObject>>;

/// The prototypes of the stream classes (one set per VM), and the
/// queuing strategies' shared `size` functions.
#[derive(Default)]
pub(crate) struct StreamPrototypes {
    readable_stream: Option<Gc<JsObject>>,
    readable_stream_default_reader: Option<Gc<JsObject>>,
    readable_stream_default_controller: Option<Gc<JsObject>>,
    readable_stream_async_iterator: Option<Gc<JsObject>>,
    readable_byte_stream_controller: Option<Gc<JsObject>>,
    readable_stream_byob_reader: Option<Gc<JsObject>>,
    readable_stream_byob_request: Option<Gc<JsObject>>,
    writable_stream: Option<Gc<JsObject>>,
    writable_stream_default_writer: Option<Gc<JsObject>>,
    writable_stream_default_controller: Option<Gc<JsObject>>,
    transform_stream: Option<Gc<JsObject>>,
    transform_stream_default_controller: Option<Gc<JsObject>>,
    byte_length_queuing_strategy: Option<Gc<JsObject>>,
    count_queuing_strategy: Option<Gc<JsObject>>,
    byte_length_size: Option<Gc<JsObject>>,
    count_size: Option<Gc<JsObject>>,
}

// SAFETY: every object is reported.
unsafe impl Trace for StreamPrototypes {
    fn trace(&self, tracer: &mut Tracer) {
        for o in [
            self.readable_stream,
            self.readable_stream_default_reader,
            self.readable_stream_default_controller,
            self.readable_stream_async_iterator,
            self.readable_byte_stream_controller,
            self.readable_stream_byob_reader,
            self.readable_stream_byob_request,
            self.writable_stream,
            self.writable_stream_default_writer,
            self.writable_stream_default_controller,
            self.transform_stream,
            self.transform_stream_default_controller,
            self.byte_length_queuing_strategy,
            self.count_queuing_strategy,
            self.byte_length_size,
            self.count_size,
        ]
        .into_iter()
        .flatten()
        {
            o.trace(tracer);
        }
    }
}

/// Installs the stream globals.
pub(crate) fn install(vm: &mut Vm) {
    readable_stream::install(vm);
    readable_stream_default_reader::install(vm);
    readable_stream_default_controller::install(vm);
    readable_stream_async_iterator::install(vm);
    readable_byte_stream_controller::install(vm);
    readable_stream_byob_reader::install(vm);
    readable_stream_byob_request::install(vm);
    writable_stream::install(vm);
    writable_stream_default_writer::install(vm);
    writable_stream_default_controller::install(vm);
    transform_stream::install(vm);
    transform_stream_default_controller::install(vm);
    queuing_strategy::install(vm);
}

/// `stream_slots` given an object that is no stream object: a bug in the
/// caller, out of line since every stream step asks for slots.
#[cold]
#[inline(never)]
fn not_a_stream_object() -> ! {
    unreachable!("stream_slots called on an object that is not a stream object")
}

impl StreamHost for VmHost<'_> {
    type Object = Gc<JsObject>;

    fn stream_slots(&mut self, object: Gc<JsObject>) -> &mut VmStreamSlots {
        // The algorithms only receive objects that passed a brand check
        // or that they made.
        let Some(cell) = object.borrow(&self.heap).data_of::<VmStreamSlots>(&STREAM) else { not_a_stream_object() };
        cell.borrow_mut(&mut self.heap)
    }

    fn as_stream_object(&self, value: Value) -> Option<Gc<JsObject>> {
        value.as_object().filter(|o| o.borrow(&self.heap).is_data(&STREAM))
    }

    fn stream_object_value(&self, object: Gc<JsObject>) -> Value {
        Value::object(object)
    }

    fn new_stream_object(&mut self, slots: VmStreamSlots) -> Gc<JsObject> {
        let prototypes = &self.runtime.host_objects.streams;
        let proto = match &slots {
            StreamSlots::ReadableStream(_) => prototypes.readable_stream,
            StreamSlots::ReadableStreamDefaultController(_) => prototypes.readable_stream_default_controller,
            StreamSlots::ReadableStreamDefaultReader(_) => prototypes.readable_stream_default_reader,
            StreamSlots::ReadableStreamAsyncIterator(_) => prototypes.readable_stream_async_iterator,
            StreamSlots::ReadableByteStreamController(_) => prototypes.readable_byte_stream_controller,
            StreamSlots::ReadableStreamBYOBReader(_) => prototypes.readable_stream_byob_reader,
            StreamSlots::ReadableStreamBYOBRequest(_) => prototypes.readable_stream_byob_request,
            StreamSlots::WritableStream(_) => prototypes.writable_stream,
            StreamSlots::WritableStreamDefaultController(_) => prototypes.writable_stream_default_controller,
            StreamSlots::WritableStreamDefaultWriter(_) => prototypes.writable_stream_default_writer,
            StreamSlots::TransformStream(_) => prototypes.transform_stream,
            StreamSlots::TransformStreamDefaultController(_) => prototypes.transform_stream_default_controller,
            StreamSlots::QueuingStrategy { kind: js_streams::slots::StrategyKind::ByteLength, .. } => {
                prototypes.byte_length_queuing_strategy
            }
            StreamSlots::QueuingStrategy { kind: js_streams::slots::StrategyKind::Count, .. } => {
                prototypes.count_queuing_strategy
            }
            StreamSlots::Pipe(_) | StreamSlots::Tee(_) | StreamSlots::ByteTee(_) => None,
        };
        let object = self.new_object_with_data(proto, &STREAM, slots);
        self.keep_alive(Value::object(object));
        object
    }

    fn new_error(&mut self, kind: ErrorKind, message: &str) -> Value {
        let kind = match kind {
            ErrorKind::Type => VmErrorKind::Type,
            ErrorKind::Range => VmErrorKind::Range,
        };
        Value::object(self.make_error(kind, message))
    }

    fn iter_result(&mut self, value: Value, done: bool) -> Value {
        crate::builtins::iteration::iter_result(self, value, done)
    }

    fn get(&mut self, object: Value, key: &str) -> Result<Value, Value> {
        let Some(o) = object.as_object() else { return Ok(Value::UNDEFINED) };
        let key = self.key(key);
        let result = crate::object::internal_methods::get(self, o, key, object);
        self.thrown_value(result)
    }

    fn is_nullish(&self, value: Value) -> bool {
        value.is_undefined() || value.is_null()
    }

    fn to_boolean(&mut self, value: Value) -> bool {
        crate::abstract_ops::to_boolean(self, value)
    }

    fn new_array(&mut self, values: &[Value]) -> Value {
        Value::object(crate::builtins::array::array_create(self, values))
    }

    fn to_number(&mut self, value: Value) -> Result<f64, Value> {
        match crate::abstract_ops::to_number(self, value) {
            Ok(n) => Ok(n),
            Err(Exception::Throw(v)) => Err(v),
            Err(Exception::Terminated) => {
                self.jobs.terminating = true;
                Err(Value::UNDEFINED)
            }
        }
    }

    fn root(&mut self, value: Value) {
        self.keep_alive(value);
    }

    fn signal_abort_reason(&mut self, signal: Value) -> Option<Value> {
        let signal = signal.as_object()?;
        if abort_signal::aborted(self, signal) { Some(abort_signal::reason(self, signal)) } else { None }
    }

    fn add_pipe_abort_algorithm(&mut self, signal: Value, pipe: Gc<JsObject>) -> u64 {
        let Some(signal) = signal.as_object() else { return u64::MAX };
        abort_signal::add_algorithm(self, signal, pipe_abort_algorithm, Value::object(pipe))
            .map_or(u64::MAX, abort_signal::AlgorithmId::to_bits)
    }

    fn remove_abort_algorithm(&mut self, signal: Value, algorithm: u64) {
        if let Some(signal) = signal.as_object() {
            abort_signal::remove_algorithm(self, signal, abort_signal::AlgorithmId::from_bits(algorithm));
        }
    }

    fn new_abort_signal(&mut self) -> Value {
        Value::object(abort_signal::create_signal(self))
    }

    fn signal_abort(&mut self, signal: Value, reason: Value) {
        let Some(signal) = signal.as_object() else { return };
        // Listeners' exceptions are reported inside; only a termination
        // comes back, and is re-raised when the operation returns.
        if abort_signal::signal_abort(self, signal, reason).is_err() {
            self.jobs.terminating = true;
        }
    }

    fn view_record(&mut self, view: Value) -> ViewRecord<Value> {
        array_buffer_view::view_record(self, view)
    }

    fn array_buffer_byte_length(&mut self, buffer: Value) -> Option<usize> {
        if array_buffer_view::is_detached_buffer(self, buffer) {
            None
        } else {
            Some(array_buffer_view::array_buffer_byte_length(self, buffer))
        }
    }

    fn transfer_array_buffer(&mut self, buffer: Value) -> Result<Value, Value> {
        let result = array_buffer_view::transfer(self, buffer);
        self.thrown_value(result)
    }

    fn new_array_buffer(&mut self, byte_length: usize, source: Option<(Value, usize)>) -> Result<Value, Value> {
        let result = array_buffer_view::allocate(self, byte_length, source);
        self.thrown_value(result)
    }

    fn copy_buffer_bytes(&mut self, to: Value, to_index: usize, from: Value, from_index: usize, count: usize) {
        array_buffer_view::copy(self, to, to_index, from, from_index, count);
    }

    fn new_view(&mut self, constructor: ViewConstructor, buffer: Value, byte_offset: usize, length: usize) -> Value {
        array_buffer_view::new_view(self, constructor, buffer, byte_offset, length)
    }
}

/// The abort algorithm a pipe adds to its `signal` (its data is the pipe
/// record).
fn pipe_abort_algorithm(vm: &mut Vm, data: Value) -> JsResult<()> {
    if let Some(record) = data.as_object() {
        js_streams::pipe_to::pipe_signal_aborted(&mut vm.host(), record);
    }
    vm.take_termination()
}

/// The stream object `value` if its slots pass `test` (a brand check).
pub(crate) fn branded(vm: &Vm, value: Value, test: fn(&VmStreamSlots) -> bool) -> Option<Gc<JsObject>> {
    let object = value.as_object()?;
    let cell = object.borrow(&vm.heap).data_of::<VmStreamSlots>(&STREAM)?;
    test(cell.borrow(&vm.heap)).then_some(object)
}

/// A thrown value from the algorithms as an exception (a termination
/// recorded on the way stays a termination).
pub(crate) fn thrown(vm: &mut Vm, value: Value) -> Exception {
    if std::mem::take(&mut vm.jobs.terminating) { Exception::Terminated } else { Exception::Throw(value) }
}

/// A promise result, re-raising a termination that happened inside.
pub(super) fn promise_result(vm: &mut Vm, promise: Gc<JsObject>) -> JsResult<Value> {
    vm.take_termination()?;
    Ok(Value::object(promise))
}

/// A promise rejected with a new TypeError (promise-returning operations
/// reject instead of throwing).
pub(super) fn rejected_type_error(vm: &mut Vm, message: &str) -> JsResult<Value> {
    let error = Value::object(vm.make_error(VmErrorKind::Type, message));
    let promise = js_promise::PromiseHost::new_promise(&mut vm.host());
    js_promise::reject_promise(&mut vm.host(), promise, error);
    Ok(Value::object(promise))
}

/// Defines a WebIDL operation: a method that is writable, enumerable and
/// configurable.
pub(super) fn idl_method(
    vm: &mut Vm,
    object: Gc<JsObject>,
    name: &str,
    length: u32,
    f: crate::function::NativeFn,
) -> Gc<JsObject> {
    let function = crate::builtins::native_function(vm, name, length, f, false);
    let key = vm.key(name);
    define_builtin(vm, object, key, Value::object(function), Attributes::DEFAULT);
    function
}

/// Defines a WebIDL read-only attribute: an enumerable, configurable
/// accessor with a getter.
pub(super) fn idl_attribute(vm: &mut Vm, object: Gc<JsObject>, name: &str, getter: crate::function::NativeFn) {
    let getter = crate::builtins::native_function(vm, &format!("get {name}"), 0, getter, false);
    let desc = crate::object::PropertyDescriptor {
        get: Some(Value::object(getter)),
        set: Some(Value::UNDEFINED),
        enumerable: Some(true),
        configurable: Some(true),
        ..Default::default()
    };
    let key = vm.key(name);
    let _ = crate::object::internal_methods::define_own_property(vm, object, key, desc);
}

/// Defines `@@toStringTag` on a class prototype.
pub(super) fn to_string_tag(vm: &mut Vm, proto: Gc<JsObject>, name: &str) {
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let text = vm.string(name);
    define_builtin(vm, proto, tag, text, Attributes::CONFIGURABLE_ONLY);
}

/// The TypeError a constructor throws when called without `new`.
pub(super) fn require_new(vm: &mut Vm, info: &crate::interpreter::CallInfo, name: &str) -> JsResult<Gc<JsObject>> {
    info.new_target.ok_or_else(|| vm.type_error(&format!("Class constructor {name} cannot be invoked without 'new'")))
}

/// Gives a freshly made object the prototype `new.target` asks for.
pub(super) fn set_prototype_from(vm: &mut Vm, object: Gc<JsObject>, new_target: Gc<JsObject>) -> JsResult<()> {
    // GetPrototypeFromConstructor: `new.target.prototype` if it is an
    // object, else the class's own prototype, which the object already has.
    let key = PropertyKey::String(vm.names.prototype);
    let proto = crate::object::internal_methods::get(vm, new_target, key, Value::object(new_target))?;
    if let Some(proto) = proto.as_object() {
        object.borrow_mut(&mut vm.heap).proto = Some(proto);
    }
    Ok(())
}

/// An optional number as JavaScript sees it (`None` is null).
pub(super) fn number_or_null(value: Option<f64>) -> Value {
    value.map_or(Value::NULL, Value::number)
}

/// The TransformStream of a native transformer object `stream` (the
/// encoding streams): its `transform` and `flush`, no `start` or `cancel`,
/// the default strategies (writable high-water mark 1, readable 0).
pub(crate) fn create_native_transform_stream(
    vm: &mut Vm,
    stream: Gc<JsObject>,
    transform: Value,
    flush: Value,
) -> JsResult<Gc<JsObject>> {
    let init = js_streams::transform_stream::TransformerInit {
        transformer: Value::object(stream),
        start: Value::UNDEFINED,
        transform,
        flush,
        cancel: Value::UNDEFINED,
        writable_high_water_mark: 1.0,
        writable_size: Value::UNDEFINED,
        readable_high_water_mark: 0.0,
        readable_size: Value::UNDEFINED,
    };
    js_streams::transform_stream::create_transform_stream(&mut vm.host(), init).map_err(|e| thrown(vm, e))
}
