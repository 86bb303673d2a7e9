//! The test host: promises, closures and plain objects as js-gc cells, a
//! js-microtask queue, async-context state, and a log.

use std::fmt::Write as _;
use std::rc::Rc;

use js_async_context::{ContextHost, ContextState, Frame, SwapScope};
use js_gc::{Gc, GcAny, Heap, Roots, Trace, Tracer};
use js_microtask::{Job, JobKind, JobQueue};
use js_promise::{
    AwaitPath, ContextKind, ContextSlot, Continuation, ContinuationJob, PromiseError, PromiseHost, PromiseState,
    PromiseValue, RejectionOperation, ResolvingFunction, await_value, call_resolving_function, capture_context,
    create_resolving_functions, fulfill_promise, is_promise_job, job_context, promise_resolve, promise_then,
    reject_promise, run_promise_job, with_job_context,
};

/// Host job: resume an "async function" continuation (slot 0 is a function
/// called with `(value, rejected)`).
pub const RESUME: JobKind = JobKind::new(1);
/// Host job: a `queueMicrotask` callback (slot 0), run under its frame.
pub const CALLBACK: JobKind = JobKind::new(2);

pub type Promise = Gc<PromiseObject>;

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Value {
    Undefined,
    Int(i64),
    Str(&'static str),
    Promise(Promise),
    Function(Gc<FunctionObject>),
    Object(Gc<PlainObject>),
    /// A frame or reaction cell riding in a slot.
    Cell(GcAny),
}

// SAFETY: every heap pointer a value can hold is traced.
unsafe impl Trace for Value {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Value::Promise(p) => p.trace(tracer),
            Value::Function(f) => f.trace(tracer),
            Value::Object(o) => o.trace(tracer),
            Value::Cell(c) => c.trace(tracer),
            Value::Undefined | Value::Int(_) | Value::Str(_) => {}
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
        match self {
            Value::Cell(cell) => Some(cell),
            _ => None,
        }
    }
}

pub struct PromiseObject {
    pub state: PromiseState<Value, Promise>,
    /// An own `constructor` property (makes the constructor not intact).
    pub own_constructor: Option<Value>,
}

// SAFETY: the state and the own property are all the pointers.
unsafe impl Trace for PromiseObject {
    fn trace(&self, tracer: &mut Tracer) {
        self.state.trace(tracer);
        self.own_constructor.trace(tracer);
    }
    fn type_name() -> &'static str {
        "Promise"
    }
}

pub type Body = Rc<dyn Fn(&mut TestHost, &[Value], Value, &[Value]) -> Result<Value, Value>>;

pub enum FunctionObject {
    /// A closure: its body gets the captures, `this` and the arguments. Heap
    /// values a body uses must be in `captures` (or rooted by the test).
    Closure {
        body: Body,
        captures: Vec<Value>,
    },
    Resolving(ResolvingFunction<Promise>),
}

// SAFETY: captures and the resolving function's promise are all the pointers
// (bodies capture no heap values by the test host's rule).
unsafe impl Trace for FunctionObject {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            FunctionObject::Closure { captures, .. } => captures.trace(tracer),
            FunctionObject::Resolving(function) => function.trace(tracer),
        }
    }
    fn type_name() -> &'static str {
        "Function"
    }
}

pub struct PlainObject {
    pub then: Value,
    /// A getter for `then`, called with the object as `this`.
    pub then_getter: Option<Value>,
}

// SAFETY: both values are traced.
unsafe impl Trace for PlainObject {
    fn trace(&self, tracer: &mut Tracer) {
        self.then.trace(tracer);
        self.then_getter.trace(tracer);
    }
    fn type_name() -> &'static str {
        "Object"
    }
}

pub struct TestHost {
    pub heap: Heap,
    pub context: ContextState<Value>,
    pub queue: JobQueue<Value>,
    pub log: Vec<String>,
    pub rejections: Vec<(Value, RejectionOperation)>,
    /// `[[PromiseIsHandled]]` as each tracker call saw it.
    pub handled_when_tracked: Vec<bool>,
    /// Values the test holds.
    pub roots: Vec<Value>,
    running: Vec<Job<Value>>,
    pub promise_constructor: Value,
    /// `%Promise.prototype.then%`.
    pub promise_then: Value,
    /// The embedder context reactions and jobs capture while set (instead
    /// of the async-context frame), as an `AsyncResource` or an incumbent
    /// settings object would be. Not a root of its own (the root set is
    /// built at every safepoint and the benchmarks share this host):
    /// [`with_embedder_context`](Self::with_embedder_context) keeps it in
    /// `roots` while set; a test setting it directly roots it itself.
    pub embedder_context: Option<Value>,
    /// The embedder contexts of the running jobs, innermost last (each is
    /// also the context slot of a job in `running`, which roots it).
    pub entered: Vec<Value>,
}

struct RootSet<'a> {
    context: &'a ContextState<Value>,
    queue: &'a JobQueue<Value>,
    rejections: &'a [(Value, RejectionOperation)],
    roots: &'a [Value],
    running: &'a [Job<Value>],
    promise_constructor: Value,
    promise_then: Value,
}

impl Roots for RootSet<'_> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.context.trace(tracer);
        self.queue.trace(tracer);
        for (value, _) in self.rejections {
            value.trace(tracer);
        }
        self.roots.trace(tracer);
        self.running.trace(tracer);
        self.promise_constructor.trace(tracer);
        self.promise_then.trace(tracer);
    }
}

impl TestHost {
    pub fn new() -> Self {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let body: Body = Rc::new(|_, _, _, _| Err(Value::Str("Promise constructor is not called in tests")));
        let promise_constructor = Value::Function(heap.alloc(FunctionObject::Closure { body, captures: Vec::new() }));
        let then_body: Body = Rc::new(|host, _, this, args| {
            let Value::Promise(promise) = this else { return Err(Value::Str("TypeError: not a promise")) };
            let arg = |i: usize| args.get(i).copied().unwrap_or(Value::Undefined);
            Ok(Value::Promise(promise_then(host, promise, arg(0), arg(1))))
        });
        let promise_then =
            Value::Function(heap.alloc(FunctionObject::Closure { body: then_body, captures: Vec::new() }));
        Self {
            promise_then,
            heap,
            context: ContextState::new(),
            queue: JobQueue::new(),
            log: Vec::new(),
            rejections: Vec::new(),
            handled_when_tracked: Vec::new(),
            roots: Vec::new(),
            running: Vec::new(),
            promise_constructor,
            embedder_context: None,
            entered: Vec::new(),
        }
    }

    /// A collection if one is due (every time under `JS_GC_STRESS`).
    pub fn safepoint(&mut self) {
        let mut roots = RootSet {
            context: &self.context,
            queue: &self.queue,
            rejections: &self.rejections,
            roots: &self.roots,
            running: &self.running,
            promise_constructor: self.promise_constructor,
            promise_then: self.promise_then,
        };
        // SAFETY: the test host holds heap values only in the root set and
        // in cells reachable from it.
        unsafe { self.heap.safepoint(&mut roots) };
    }

    /// A full collection now; returns the number of cells freed.
    pub fn collect(&mut self) -> u64 {
        let mut roots = RootSet {
            context: &self.context,
            queue: &self.queue,
            rejections: &self.rejections,
            roots: &self.roots,
            running: &self.running,
            promise_constructor: self.promise_constructor,
            promise_then: self.promise_then,
        };
        // SAFETY: as for `safepoint`.
        unsafe { self.heap.collect(&mut roots) }.freed_objects
    }

    /// Runs microtasks until the queue is empty, with a safepoint after each.
    pub fn run_microtasks(&mut self) {
        self.safepoint();
        while let Some(job) = self.queue.dequeue() {
            self.run_job(job);
        }
    }

    /// [`run_microtasks`](Self::run_microtasks), returning the context each
    /// job ran under, in order (a loop of its own, so the benchmarks do not
    /// pay for recording).
    pub fn run_microtasks_recording(&mut self) -> Vec<ContextKind<Value>> {
        let mut ran_under = Vec::new();
        self.safepoint();
        while let Some(job) = self.queue.dequeue() {
            ran_under.push(job_context(&job));
            self.run_job(job);
        }
        ran_under
    }

    /// Runs one dequeued job, then a safepoint. Always inlined: both job
    /// loops call it, and the benchmarks measure `run_microtasks` with the
    /// loop as it was written before the recording one existed.
    #[allow(clippy::inline_always, reason = "measured with the callgrind benchmark")]
    #[inline(always)]
    fn run_job(&mut self, job: Job<Value>) {
        self.running.push(job);
        if is_promise_job(job.kind()) {
            run_promise_job(self, &job).expect("well-formed promise job");
        } else if job.kind() == RESUME {
            with_job_context(self, &job, |host| {
                let resume = ContinuationJob::read(&job);
                let (value, rejected) = match resume.outcome {
                    Ok(value) => (value, 0),
                    Err(reason) => (reason, 1),
                };
                let _ = host.call(resume.data, Value::Undefined, &[value, Value::Int(rejected)]);
            });
        } else if job.kind() == CALLBACK {
            with_job_context(self, &job, |host| {
                let _ = host.call(job.arg(0), Value::Undefined, &[]);
            });
        } else {
            panic!("unknown job kind {:?}", job.kind());
        }
        self.running.pop();
        self.safepoint();
    }

    pub fn root(&mut self, value: Value) -> Value {
        self.roots.push(value);
        value
    }

    pub fn log(&mut self, line: impl Into<String>) {
        self.log.push(line.into());
    }

    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    pub fn show(value: Value) -> String {
        match value {
            Value::Undefined => "undefined".into(),
            Value::Int(n) => n.to_string(),
            Value::Str(s) => s.into(),
            Value::Promise(_) => "[promise]".into(),
            Value::Function(_) => "[function]".into(),
            Value::Object(_) => "[object]".into(),
            Value::Cell(_) => "[cell]".into(),
        }
    }

    /// A rooted closure with captures.
    pub fn func_with(
        &mut self,
        captures: Vec<Value>,
        body: impl Fn(&mut TestHost, &[Value], Value, &[Value]) -> Result<Value, Value> + 'static,
    ) -> Value {
        let function = Value::Function(self.heap.alloc(FunctionObject::Closure { body: Rc::new(body), captures }));
        self.root(function)
    }

    /// A rooted closure of its arguments.
    pub fn func(&mut self, body: impl Fn(&mut TestHost, &[Value]) -> Result<Value, Value> + 'static) -> Value {
        self.func_with(Vec::new(), move |host, _, _, args| body(host, args))
    }

    /// A handler that logs `label: value` and returns `ret`.
    pub fn logger(&mut self, label: &'static str, ret: Result<Value, Value>) -> Value {
        self.func(move |host, args| {
            let line = format!("{label}: {}", TestHost::show(args.first().copied().unwrap_or(Value::Undefined)));
            host.log(line);
            ret
        })
    }

    /// A rooted pending promise.
    pub fn pending(&mut self) -> Promise {
        let promise = self.new_promise();
        self.root(Value::Promise(promise));
        promise
    }

    pub fn fulfilled(&mut self, value: Value) -> Promise {
        let promise = self.pending();
        js_promise::promise_resolve_function(self, promise, value);
        promise
    }

    pub fn rejected(&mut self, reason: Value) -> Promise {
        let promise = self.pending();
        js_promise::promise_reject_function(self, promise, reason);
        promise
    }

    /// `new Promise(executor)`.
    pub fn construct(&mut self, executor: Value) -> Promise {
        let promise = self.pending();
        let (resolve, reject) = create_resolving_functions(self, promise);
        if let Err(thrown) = self.call(executor, Value::Undefined, &[resolve, reject]) {
            let _ = self.call(reject, Value::Undefined, &[thrown]);
        }
        promise
    }

    /// `promise.then(f, g)`, rooted.
    pub fn then(&mut self, promise: Promise, on_fulfilled: Value, on_rejected: Value) -> Promise {
        let derived = promise_then(self, promise, on_fulfilled, on_rejected);
        self.root(Value::Promise(derived));
        derived
    }

    /// `promise.finally(on_finally)`, as ECMA-262 builds it from `then`.
    pub fn finally(&mut self, promise: Promise, on_finally: Value) -> Promise {
        let then_finally = self.func_with(vec![on_finally], |host, captures, _, args| {
            let result = host.call(captures[0], Value::Undefined, &[])?;
            let inner = promise_resolve(host, result)?;
            let value = args.first().copied().unwrap_or(Value::Undefined);
            let thunk = host.func_with(vec![value], |_, captures, _, _| Ok(captures[0]));
            Ok(Value::Promise(promise_then(host, inner, thunk, Value::Undefined)))
        });
        let catch_finally = self.func_with(vec![on_finally], |host, captures, _, args| {
            let result = host.call(captures[0], Value::Undefined, &[])?;
            let inner = promise_resolve(host, result)?;
            let reason = args.first().copied().unwrap_or(Value::Undefined);
            let thrower = host.func_with(vec![reason], |_, captures, _, _| Err(captures[0]));
            Ok(Value::Promise(promise_then(host, inner, thrower, Value::Undefined)))
        });
        self.then(promise, then_finally, catch_finally)
    }

    /// `await value` in an async function whose rest is `rest`.
    pub fn await_value(
        &mut self,
        value: Value,
        rest: impl Fn(&mut TestHost, Result<Value, Value>) + 'static,
    ) -> Result<AwaitPath, Value> {
        let resume = self.func(move |host, args| {
            let outcome = if args[1] == Value::Int(1) { Err(args[0]) } else { Ok(args[0]) };
            rest(host, outcome);
            Ok(Value::Undefined)
        });
        self.await_with(value, resume)
    }

    /// `await value`, resuming `resume` (a function of `(value, rejected)`).
    pub fn await_with(&mut self, value: Value, resume: Value) -> Result<AwaitPath, Value> {
        await_value(self, value, Continuation { job: RESUME, data: resume })
    }

    /// `queueMicrotask(callback)`.
    pub fn queue_microtask(&mut self, callback: Value) {
        let context = self.capture_reaction_context();
        let job = Job::new(CALLBACK, [callback, Value::Undefined, Value::Undefined, Value::Undefined]);
        self.queue.enqueue(context.store_in(job));
    }

    /// Runs `body` with `context` as the embedder context new reactions and
    /// jobs capture (`asyncResource.runInAsyncScope`-like).
    pub fn with_embedder_context<R>(&mut self, context: Value, body: impl FnOnce(&mut TestHost) -> R) -> R {
        let rooted_at = self.roots.len();
        self.roots.push(context);
        let outer = self.embedder_context.replace(context);
        let result = body(self);
        self.embedder_context = outer;
        self.roots.remove(rooted_at);
        result
    }

    /// The embedder context of the running job, if it has one.
    pub fn current_embedder_context(&self) -> Option<Value> {
        self.entered.last().copied()
    }

    /// A plain object with a `then` data property.
    pub fn thenable(&mut self, then: Value) -> Value {
        let object = Value::Object(self.heap.alloc(PlainObject { then, then_getter: None }));
        self.root(object)
    }

    /// A plain object whose `then` is an accessor.
    pub fn thenable_with_getter(&mut self, getter: Value) -> Value {
        let object = Value::Object(self.heap.alloc(PlainObject { then: Value::Undefined, then_getter: Some(getter) }));
        self.root(object)
    }

    /// Runs `body` with `frame` current (`AsyncLocalStorage.run`).
    pub fn run_in<R>(&mut self, frame: Option<Frame<Value>>, body: impl FnOnce(&mut TestHost) -> R) -> R {
        let mut scope = SwapScope::enter(self, frame);
        body(&mut scope)
    }

    pub fn state(&self, promise: Promise) -> &PromiseState<Value, Promise> {
        &promise.borrow(&self.heap).state
    }

    pub fn rejection_log(&self) -> String {
        let mut out = String::new();
        for (value, operation) in &self.rejections {
            let Value::Promise(promise) = value else { unreachable!("the tracker gets promises") };
            let index = self.roots.iter().position(|root| *root == Value::Promise(*promise));
            let _ = write!(out, "{operation:?}:{} ", index.map_or("?".into(), |i| i.to_string()));
        }
        out.trim_end().to_string()
    }

    pub fn settle(&mut self, promise: Promise, outcome: Result<Value, Value>) {
        match outcome {
            Ok(value) => fulfill_promise(self, promise, value),
            Err(reason) => reject_promise(self, promise, reason),
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
        match value {
            Value::Promise(promise) => Some(promise),
            _ => None,
        }
    }

    fn is_object(&self, value: Value) -> bool {
        matches!(value, Value::Promise(_) | Value::Function(_) | Value::Object(_))
    }

    fn is_callable(&self, value: Value) -> bool {
        matches!(value, Value::Function(_))
    }

    fn new_promise(&mut self) -> Promise {
        self.heap.alloc(PromiseObject { state: PromiseState::new(), own_constructor: None })
    }

    fn get_then(&mut self, value: Value) -> Result<Value, Value> {
        match value {
            Value::Object(object) => {
                let object_ref = object.borrow(&self.heap);
                match object_ref.then_getter {
                    Some(getter) => self.call(getter, value, &[]),
                    None => Ok(object_ref.then),
                }
            }
            // `%Promise.prototype.then%`, unless a test overrides it.
            Value::Promise(_) => Ok(self.promise_then),
            _ => Ok(Value::Undefined),
        }
    }

    fn promise_constructor_is_intact(&mut self, promise: Promise) -> bool {
        promise.borrow(&self.heap).own_constructor.is_none()
    }

    fn get_constructor(&mut self, value: Value) -> Result<Value, Value> {
        let Value::Promise(promise) = value else { return Ok(Value::Undefined) };
        match promise.borrow(&self.heap).own_constructor {
            // A function-valued own property stands for a getter.
            Some(getter @ Value::Function(_)) => self.call(getter, value, &[]),
            Some(other) => Ok(other),
            None => Ok(self.promise_constructor),
        }
    }

    fn intrinsic_promise_constructor(&self) -> Value {
        self.promise_constructor
    }

    fn call(&mut self, function: Value, this: Value, args: &[Value]) -> Result<Value, Value> {
        let Value::Function(function) = function else { return Err(Value::Str("TypeError: not a function")) };
        match function.borrow(&self.heap) {
            FunctionObject::Closure { body, captures } => {
                let (body, captures) = (Rc::clone(body), captures.clone());
                body(self, &captures, this, args)
            }
            FunctionObject::Resolving(resolving) => {
                let resolving = *resolving;
                call_resolving_function(self, resolving, args.first().copied().unwrap_or(Value::Undefined));
                Ok(Value::Undefined)
            }
        }
    }

    fn create_resolving_function(&mut self, function: ResolvingFunction<Promise>) -> Value {
        Value::Function(self.heap.alloc(FunctionObject::Resolving(function)))
    }

    fn type_error(&mut self, error: PromiseError) -> Value {
        match error {
            PromiseError::SelfResolution => Value::Str("TypeError: self-resolution"),
            _ => Value::Str("TypeError"),
        }
    }

    fn enqueue_job(&mut self, job: Job<Value>) {
        self.queue.enqueue(job);
    }

    fn promise_rejection_tracker(&mut self, promise: Promise, operation: RejectionOperation) {
        let handled = promise.borrow(&self.heap).state.is_handled();
        self.handled_when_tracked.push(handled);
        self.rejections.push((Value::Promise(promise), operation));
    }

    fn capture_reaction_context(&mut self) -> ContextSlot<Value> {
        match self.embedder_context {
            Some(context) => ContextSlot::embedder(context),
            None => capture_context(self),
        }
    }

    fn enter_embedder_context(&mut self, context: Value) {
        assert_eq!(self.context.current(), None, "an embedder context is entered with no frame current");
        self.entered.push(context);
    }

    fn leave_embedder_context(&mut self, context: Value) {
        assert_eq!(self.entered.pop(), Some(context), "embedder contexts are left in the order entered");
    }
}
