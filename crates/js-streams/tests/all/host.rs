//! The reference host: a small value model that is not js-vm. Streams,
//! promises, closures, plain objects, arrays, errors, abort signals and
//! array buffers are js-gc cells; jobs go through a js-microtask queue;
//! user callbacks are Rust closures that write to a log, so a test reads
//! the order in which the state machines called them.
//!
//! The host collects only when its owner calls [`TestHost::collect`]
//! between drains (the benchmarks do), so [`StreamHost::root`] only has to
//! count what it was asked to keep.

use std::fmt::Write as _;
use std::rc::Rc;

use js_async_context::{ContextHost, ContextState};
use js_gc::{Gc, GcAny, Heap, Trace, Tracer};
use js_microtask::{Job, JobQueue};
use js_promise::{
    PromiseError, PromiseHost, PromiseState, PromiseStatus, PromiseValue, RejectionOperation, ResolvingFunction,
    call_resolving_function, is_promise_job, run_promise_job,
};
use js_streams::pull_into_descriptor::ViewConstructor;
use js_streams::{ErrorKind, Slots, StreamHost, ViewRecord, is_stream_job, run_stream_job};

pub type Promise = Gc<PromiseObject>;
pub type Object = Gc<StreamObject>;

/// A value of the reference host.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Value {
    Undefined,
    Bool(bool),
    Num(f64),
    Str(&'static str),
    Promise(Promise),
    Function(Gc<FunctionObject>),
    Stream(Object),
    Record(Gc<RecordObject>),
    Error(Gc<ErrorObject>),
    Signal(Gc<SignalObject>),
    Buffer(Gc<BufferObject>),
    View(Gc<ViewObject>),
    /// A frame or reaction cell riding in a job slot.
    Cell(GcAny),
}

// SAFETY: every heap pointer a value can hold is traced.
unsafe impl Trace for Value {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Value::Promise(cell) => cell.trace(tracer),
            Value::Function(cell) => cell.trace(tracer),
            Value::Stream(cell) => cell.trace(tracer),
            Value::Record(cell) => cell.trace(tracer),
            Value::Error(cell) => cell.trace(tracer),
            Value::Signal(cell) => cell.trace(tracer),
            Value::Buffer(cell) => cell.trace(tracer),
            Value::View(cell) => cell.trace(tracer),
            Value::Cell(cell) => cell.trace(tracer),
            Value::Undefined | Value::Bool(_) | Value::Num(_) | Value::Str(_) => {}
        }
    }
}

impl PromiseValue for Value {
    fn undefined() -> Self {
        Value::Undefined
    }
    fn from_cell(cell: GcAny) -> Self {
        Value::Cell(cell)
    }
    fn as_cell(self) -> Option<GcAny> {
        if let Value::Cell(cell) = self { Some(cell) } else { None }
    }
}

/// A promise: the state js-promise runs on.
pub struct PromiseObject {
    pub state: PromiseState<Value, Promise>,
}

// SAFETY: the state holds all of the promise's pointers.
unsafe impl Trace for PromiseObject {
    fn trace(&self, tracer: &mut Tracer) {
        self.state.trace(tracer);
    }
}

/// A stream object: the slots js-streams runs on.
pub struct StreamObject {
    pub slots: Slots<TestHost>,
}

// SAFETY: the slots hold all of the object's pointers.
unsafe impl Trace for StreamObject {
    fn trace(&self, tracer: &mut Tracer) {
        self.slots.trace(tracer);
    }
}

/// A user function's body: the host, `this` and the arguments.
pub type Body = Rc<dyn Fn(&mut TestHost, Value, &[Value]) -> Result<Value, Value>>;

pub enum FunctionObject {
    /// A user callback. Bodies capture no heap values that the test did
    /// not keep (the host never collects anyway).
    Closure(Body),
    Resolving(ResolvingFunction<Promise>),
}

// SAFETY: a resolving function's promise is its only traced pointer.
unsafe impl Trace for FunctionObject {
    fn trace(&self, tracer: &mut Tracer) {
        if let FunctionObject::Resolving(function) = self {
            function.trace(tracer);
        }
    }
}

/// A plain object with data properties (read results, arrays).
pub struct RecordObject {
    pub properties: Vec<(&'static str, Value)>,
    pub elements: Option<Vec<Value>>,
}

// SAFETY: every property value and element is traced.
unsafe impl Trace for RecordObject {
    fn trace(&self, tracer: &mut Tracer) {
        for (_, value) in &self.properties {
            value.trace(tracer);
        }
        self.elements.trace(tracer);
    }
}

pub struct ErrorObject {
    pub kind: ErrorKind,
    pub message: String,
}

// SAFETY: no heap pointers.
unsafe impl Trace for ErrorObject {
    const NEEDS_TRACE: bool = false;
    fn trace(&self, _tracer: &mut Tracer) {}
}

/// An AbortSignal: its reason once aborted, and the pipes to tell.
pub struct SignalObject {
    pub reason: Option<Value>,
    pub algorithms: Vec<(u64, Object)>,
}

// SAFETY: the reason and the pipe records are all the pointers.
unsafe impl Trace for SignalObject {
    fn trace(&self, tracer: &mut Tracer) {
        self.reason.trace(tracer);
        for (_, pipe) in &self.algorithms {
            pipe.trace(tracer);
        }
    }
}

/// An ArrayBuffer: `None` once detached.
pub struct BufferObject {
    pub bytes: Option<Vec<u8>>,
}

// SAFETY: no heap pointers.
unsafe impl Trace for BufferObject {
    const NEEDS_TRACE: bool = false;
    fn trace(&self, _tracer: &mut Tracer) {}
}

/// A typed array or DataView over a buffer.
pub struct ViewObject {
    pub buffer: Gc<BufferObject>,
    pub byte_offset: usize,
    pub length: usize,
    pub constructor: ViewConstructor,
}

// SAFETY: the buffer is the only pointer.
unsafe impl Trace for ViewObject {
    fn trace(&self, tracer: &mut Tracer) {
        self.buffer.trace(tracer);
    }
}

pub struct TestHost {
    pub heap: Heap,
    pub context: ContextState<Value>,
    pub jobs: JobQueue<Value>,
    /// What user callbacks and tests wrote, in order.
    pub log: Vec<String>,
    /// Rejections tracked by HostPromiseRejectionTracker, in order.
    pub rejections: Vec<(Promise, RejectionOperation)>,
    /// How many values the algorithms asked to keep alive.
    pub rooted: usize,
    next_algorithm: u64,
    promise_constructor: Value,
}

impl TestHost {
    pub fn new() -> Self {
        // SAFETY: this heap's cells are used only with it, while it lives
        // (the host owns it and is the only one handing out its cells).
        let mut heap = unsafe { Heap::new() };
        let promise_constructor = Value::Record(heap.alloc(RecordObject { properties: Vec::new(), elements: None }));
        Self {
            heap,
            context: ContextState::new(),
            jobs: JobQueue::new(),
            log: Vec::new(),
            rejections: Vec::new(),
            rooted: 0,
            next_algorithm: 1,
            promise_constructor,
        }
    }

    /// Runs jobs until the queue is empty; returns how many ran.
    pub fn run_jobs(&mut self) -> usize {
        let mut ran = 0;
        while let Some(job) = self.jobs.dequeue() {
            ran += 1;
            self.run_job(&job);
        }
        ran
    }

    /// Runs jobs one microtask turn at a time (a turn: the jobs queued
    /// when it began), logging `turn N` before each.
    #[allow(dead_code, reason = "the trace tests use it; the benchmarks do not")]
    pub fn run_turns(&mut self) {
        let mut turn = 0;
        while !self.jobs.is_empty() {
            turn += 1;
            self.log.push(format!("turn {turn}"));
            for _ in 0..self.jobs.len() {
                let job = self.jobs.dequeue().expect("counted");
                self.run_job(&job);
            }
        }
    }

    /// Collects garbage, keeping what `keep` reaches; the job queue must be
    /// empty (a drain just ended).
    ///
    /// # Safety
    /// Afterwards the caller uses only cells `keep` reaches: every other
    /// `Gc` it holds may have been freed.
    #[allow(dead_code, reason = "the benchmarks collect; the tests never do")]
    pub unsafe fn collect(&mut self, keep: &[Value]) {
        assert!(self.jobs.is_empty(), "collect between drains only");
        let mut roots = keep.to_vec();
        roots.push(self.promise_constructor);
        // SAFETY: the roots are `keep` and the host's own constructor value;
        // the queue is empty and no frame is tracked, so nothing else the
        // host holds points into the heap; the caller's contract covers the
        // rest.
        unsafe { self.heap.collect(&mut roots) };
    }

    fn run_job(&mut self, job: &Job<Value>) {
        let kind = job.kind();
        if is_promise_job(kind) {
            run_promise_job(self, job).expect("well-formed promise job");
        } else if is_stream_job(kind) {
            run_stream_job(self, job);
        } else {
            panic!("job of an unknown kind {kind:?}");
        }
    }

    /// A user function.
    pub fn function(
        &mut self,
        body: impl Fn(&mut TestHost, Value, &[Value]) -> Result<Value, Value> + 'static,
    ) -> Value {
        Value::Function(self.heap.alloc(FunctionObject::Closure(Rc::new(body))))
    }

    /// A user function that logs `name(args)` and returns `result`.
    pub fn logging(&mut self, name: &'static str, result: Value) -> Value {
        self.function(move |host, _this, args| {
            let line = format!("{name}({})", host.describe_all(args));
            host.log.push(line);
            Ok(result)
        })
    }

    /// A user function that logs `name(args)` and throws `error`.
    pub fn throwing(&mut self, name: &'static str, error: Value) -> Value {
        self.function(move |host, _this, args| {
            let line = format!("{name}({})", host.describe_all(args));
            host.log.push(line);
            Err(error)
        })
    }

    pub fn record(&mut self, properties: Vec<(&'static str, Value)>) -> Value {
        Value::Record(self.heap.alloc(RecordObject { properties, elements: None }))
    }

    pub fn error_value(&mut self, message: &str) -> Value {
        Value::Error(self.heap.alloc(ErrorObject { kind: ErrorKind::Type, message: message.to_owned() }))
    }

    /// A new unresolved promise and its value.
    pub fn pending_promise(&mut self) -> Promise {
        self.heap.alloc(PromiseObject { state: PromiseState::new() })
    }

    pub fn fulfill(&mut self, promise: Promise, value: Value) {
        js_promise::fulfill_promise(self, promise, value);
    }

    pub fn reject(&mut self, promise: Promise, reason: Value) {
        js_promise::reject_promise(self, promise, reason);
    }

    /// Where `promise` stands: `pending`, `fulfilled <value>` or
    /// `rejected <reason>`.
    pub fn outcome(&mut self, promise: Promise) -> String {
        let state = &promise.borrow(&self.heap).state;
        let (status, result) = (state.status(), state.result());
        match (status, result) {
            (PromiseStatus::Pending, _) => "pending".to_owned(),
            (PromiseStatus::Fulfilled, Some(value)) => format!("fulfilled {}", self.describe(value)),
            (PromiseStatus::Rejected, Some(reason)) => format!("rejected {}", self.describe(reason)),
            (_, None) => unreachable!("a settled promise has a result"),
        }
    }

    /// Marks `promise` handled and logs its outcome when it settles, as
    /// `label: fulfilled …` / `label: rejected …`.
    pub fn observe(&mut self, promise: Promise, label: &'static str) {
        let on_fulfilled = self.function(move |host, _this, args| {
            let line = format!("{label}: fulfilled {}", host.describe(args[0]));
            host.log.push(line);
            Ok(Value::Undefined)
        });
        let on_rejected = self.function(move |host, _this, args| {
            let line = format!("{label}: rejected {}", host.describe(args[0]));
            host.log.push(line);
            Ok(Value::Undefined)
        });
        js_promise::promise_then(self, promise, on_fulfilled, on_rejected);
    }

    pub fn property(&self, object: Value, key: &str) -> Value {
        match object {
            Value::Record(record) => record
                .borrow(&self.heap)
                .properties
                .iter()
                .find(|(name, _)| *name == key)
                .map_or(Value::Undefined, |&(_, value)| value),
            _ => Value::Undefined,
        }
    }

    pub fn new_buffer(&mut self, bytes: Vec<u8>) -> Value {
        Value::Buffer(self.heap.alloc(BufferObject { bytes: Some(bytes) }))
    }

    /// A `Uint8Array` over a new buffer holding `bytes`.
    pub fn new_bytes(&mut self, bytes: &[u8]) -> Value {
        let length = bytes.len();
        let buffer = self.heap.alloc(BufferObject { bytes: Some(bytes.to_vec()) });
        Value::View(self.heap.alloc(ViewObject { buffer, byte_offset: 0, length, constructor: ViewConstructor::Uint8 }))
    }

    /// The bytes a view shows (empty once detached).
    pub fn view_bytes(&self, view: Value) -> Vec<u8> {
        let Value::View(view) = view else { return Vec::new() };
        let view = view.borrow(&self.heap);
        let size = view.constructor.element_size();
        view.buffer
            .borrow(&self.heap)
            .bytes
            .as_ref()
            .map_or_else(Vec::new, |bytes| bytes[view.byte_offset..view.byte_offset + view.length * size].to_vec())
    }

    pub fn describe_all(&self, values: &[Value]) -> String {
        values.iter().map(|&value| self.describe(value)).collect::<Vec<_>>().join(", ")
    }

    /// A short, stable text for a value (for logs and snapshots).
    pub fn describe(&self, value: Value) -> String {
        match value {
            Value::Undefined => "undefined".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Num(n) => n.to_string(),
            Value::Str(s) => format!("{s:?}"),
            Value::Promise(_) => "[promise]".to_owned(),
            Value::Function(_) => "[function]".to_owned(),
            Value::Stream(_) => "[stream object]".to_owned(),
            Value::Error(error) => {
                let error = error.borrow(&self.heap);
                format!("{:?}Error: {}", error.kind, error.message)
            }
            Value::Signal(_) => "[signal]".to_owned(),
            Value::Buffer(buffer) => {
                format!("[buffer {:?}]", buffer.borrow(&self.heap).bytes.as_ref().map(Vec::len))
            }
            Value::View(_) => format!("[view {:?}]", self.view_bytes(value)),
            Value::Record(record) => {
                let record = record.borrow(&self.heap);
                let mut text = String::from("{");
                if let Some(elements) = &record.elements {
                    text = format!("[{}]", self.describe_all(elements));
                    return text;
                }
                for (index, (name, value)) in record.properties.iter().enumerate() {
                    if index > 0 {
                        text.push_str(", ");
                    }
                    let _ = write!(text, "{name}: {}", self.describe(*value));
                }
                text.push('}');
                text
            }
            Value::Cell(_) => "[internal cell]".to_owned(),
        }
    }
}

impl ContextHost<Value> for TestHost {
    fn context_state(&mut self) -> &mut ContextState<Value> {
        &mut self.context
    }
}

impl PromiseHost for TestHost {
    type Value = Value;
    type Promise = Promise;

    fn heap(&mut self) -> &mut Heap {
        &mut self.heap
    }

    fn promise_state(&mut self, promise: Promise) -> &mut PromiseState<Value, Promise> {
        &mut promise.borrow_mut(&mut self.heap).state
    }

    fn promise_value(&self, promise: Promise) -> Value {
        Value::Promise(promise)
    }

    fn as_promise(&self, value: Value) -> Option<Promise> {
        if let Value::Promise(promise) = value { Some(promise) } else { None }
    }

    fn is_object(&self, value: Value) -> bool {
        !matches!(value, Value::Undefined | Value::Bool(_) | Value::Num(_) | Value::Str(_))
    }

    fn is_callable(&self, value: Value) -> bool {
        matches!(value, Value::Function(_))
    }

    fn new_promise(&mut self) -> Promise {
        self.pending_promise()
    }

    fn get_then(&mut self, value: Value) -> Result<Value, Value> {
        // Native promises' `then` is the intrinsic one; records may carry
        // a `then` property (thenables).
        Ok(match value {
            Value::Record(_) => self.property(value, "then"),
            _ => Value::Undefined,
        })
    }

    fn promise_constructor_is_intact(&mut self, _promise: Promise) -> bool {
        true
    }

    fn get_constructor(&mut self, _value: Value) -> Result<Value, Value> {
        Ok(self.promise_constructor)
    }

    fn intrinsic_promise_constructor(&self) -> Value {
        self.promise_constructor
    }

    fn call(&mut self, function: Value, this: Value, args: &[Value]) -> Result<Value, Value> {
        let Value::Function(cell) = function else {
            return Err(self.new_error(ErrorKind::Type, "not a function"));
        };
        match cell.borrow(&self.heap) {
            FunctionObject::Closure(body) => {
                let body = Rc::clone(body);
                body(self, this, args)
            }
            &FunctionObject::Resolving(resolving) => {
                call_resolving_function(self, resolving, args.first().copied().unwrap_or(Value::Undefined));
                Ok(Value::Undefined)
            }
        }
    }

    fn create_resolving_function(&mut self, function: ResolvingFunction<Promise>) -> Value {
        Value::Function(self.heap.alloc(FunctionObject::Resolving(function)))
    }

    fn type_error(&mut self, error: PromiseError) -> Value {
        self.new_error(ErrorKind::Type, &error.to_string())
    }

    fn enqueue_job(&mut self, job: Job<Value>) {
        self.jobs.enqueue(job);
    }

    fn promise_rejection_tracker(&mut self, promise: Promise, operation: RejectionOperation) {
        self.rejections.push((promise, operation));
    }
}

impl StreamHost for TestHost {
    type Object = Object;

    fn stream_slots(&mut self, object: Object) -> &mut Slots<Self> {
        &mut object.borrow_mut(&mut self.heap).slots
    }

    fn as_stream_object(&self, value: Value) -> Option<Object> {
        if let Value::Stream(object) = value { Some(object) } else { None }
    }

    fn stream_object_value(&self, object: Object) -> Value {
        Value::Stream(object)
    }

    fn new_stream_object(&mut self, slots: Slots<Self>) -> Object {
        self.rooted += 1;
        self.heap.alloc(StreamObject { slots })
    }

    fn new_error(&mut self, kind: ErrorKind, message: &str) -> Value {
        Value::Error(self.heap.alloc(ErrorObject { kind, message: message.to_owned() }))
    }

    fn iter_result(&mut self, value: Value, done: bool) -> Value {
        self.record(vec![("value", value), ("done", Value::Bool(done))])
    }

    fn new_array(&mut self, values: &[Value]) -> Value {
        Value::Record(self.heap.alloc(RecordObject { properties: Vec::new(), elements: Some(values.to_vec()) }))
    }

    fn get(&mut self, object: Value, key: &str) -> Result<Value, Value> {
        // A `getter_<key>` property is a function called as the getter of
        // `key` (how the tests make a getter observable, or throw).
        let getter_key = format!("getter_{key}");
        if let Value::Record(record) = object
            && let Some(&(_, getter)) =
                record.borrow(&self.heap).properties.iter().find(|(name, _)| *name == getter_key.as_str())
        {
            return self.call(getter, object, &[]);
        }
        Ok(self.property(object, key))
    }

    fn is_nullish(&self, value: Value) -> bool {
        value == Value::Undefined
    }

    fn to_boolean(&mut self, value: Value) -> bool {
        match value {
            Value::Undefined => false,
            Value::Bool(b) => b,
            Value::Num(n) => n != 0.0 && !n.is_nan(),
            Value::Str(s) => !s.is_empty(),
            _ => true,
        }
    }

    fn to_number(&mut self, value: Value) -> Result<f64, Value> {
        match value {
            Value::Num(n) => Ok(n),
            Value::Undefined => Ok(f64::NAN),
            Value::Bool(false) => Ok(0.0),
            Value::Bool(true) => Ok(1.0),
            Value::Str(s) => Ok(s.trim().parse().unwrap_or(f64::NAN)),
            _ => Err(self.new_error(ErrorKind::Type, "cannot convert an object to a number")),
        }
    }

    fn root(&mut self, _value: Value) {
        self.rooted += 1;
    }

    fn signal_abort_reason(&mut self, signal: Value) -> Option<Value> {
        let Value::Signal(signal) = signal else { return None };
        signal.borrow(&self.heap).reason
    }

    fn add_pipe_abort_algorithm(&mut self, signal: Value, pipe: Object) -> u64 {
        let name = self.next_algorithm;
        self.next_algorithm += 1;
        if let Value::Signal(signal) = signal {
            signal.borrow_mut(&mut self.heap).algorithms.push((name, pipe));
        }
        name
    }

    fn remove_abort_algorithm(&mut self, signal: Value, algorithm: u64) {
        if let Value::Signal(signal) = signal {
            signal.borrow_mut(&mut self.heap).algorithms.retain(|&(name, _)| name != algorithm);
        }
    }

    fn new_abort_signal(&mut self) -> Value {
        Value::Signal(self.heap.alloc(SignalObject { reason: None, algorithms: Vec::new() }))
    }

    fn signal_abort(&mut self, signal: Value, reason: Value) {
        let Value::Signal(cell) = signal else { return };
        if cell.borrow(&self.heap).reason.is_some() {
            return;
        }
        let reason = if reason == Value::Undefined { self.new_error(ErrorKind::Type, "AbortError") } else { reason };
        cell.borrow_mut(&mut self.heap).reason = Some(reason);
        let algorithms = std::mem::take(&mut cell.borrow_mut(&mut self.heap).algorithms);
        for (_, pipe) in algorithms {
            js_streams::pipe_to::pipe_signal_aborted(self, pipe);
        }
    }

    fn view_record(&mut self, view: Value) -> ViewRecord<Value> {
        let Value::View(cell) = view else { panic!("the algorithms only pass views here") };
        let view = cell.borrow(&self.heap);
        let attached = view.buffer.borrow(&self.heap).bytes.is_some();
        ViewRecord {
            buffer: Value::Buffer(view.buffer),
            byte_offset: view.byte_offset,
            byte_length: if attached { view.length * view.constructor.element_size() } else { 0 },
            constructor: view.constructor,
        }
    }

    fn array_buffer_byte_length(&mut self, buffer: Value) -> Option<usize> {
        let Value::Buffer(buffer) = buffer else { return None };
        buffer.borrow(&self.heap).bytes.as_ref().map(Vec::len)
    }

    fn transfer_array_buffer(&mut self, buffer: Value) -> Result<Value, Value> {
        let Value::Buffer(cell) = buffer else { return Err(self.new_error(ErrorKind::Type, "not a buffer")) };
        match cell.borrow_mut(&mut self.heap).bytes.take() {
            Some(bytes) => Ok(self.new_buffer(bytes)),
            None => Err(self.new_error(ErrorKind::Type, "the buffer is detached")),
        }
    }

    fn new_array_buffer(&mut self, byte_length: usize, source: Option<(Value, usize)>) -> Result<Value, Value> {
        let bytes = match source {
            None => vec![0; byte_length],
            Some((Value::Buffer(from), offset)) => from
                .borrow(&self.heap)
                .bytes
                .as_ref()
                .map(|b| b[offset..offset + byte_length].to_vec())
                .unwrap_or_default(),
            Some(_) => return Err(self.new_error(ErrorKind::Type, "not a buffer")),
        };
        Ok(self.new_buffer(bytes))
    }

    fn copy_buffer_bytes(&mut self, to: Value, to_index: usize, from: Value, from_index: usize, count: usize) {
        let (Value::Buffer(to), Value::Buffer(from)) = (to, from) else { return };
        let source: Vec<u8> = from
            .borrow(&self.heap)
            .bytes
            .as_ref()
            .map(|b| b[from_index..from_index + count].to_vec())
            .unwrap_or_default();
        if let Some(target) = to.borrow_mut(&mut self.heap).bytes.as_mut() {
            target[to_index..to_index + source.len()].copy_from_slice(&source);
        }
    }

    fn new_view(&mut self, constructor: ViewConstructor, buffer: Value, byte_offset: usize, length: usize) -> Value {
        let Value::Buffer(buffer) = buffer else { panic!("the algorithms only make views of buffers") };
        Value::View(self.heap.alloc(ViewObject { buffer, byte_offset, length, constructor }))
    }
}
