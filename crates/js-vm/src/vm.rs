//! The VM: the heap, the register file and call frames, the realm, the atom
//! table and inline caches, and the entry points embedders call.

use std::cell::Cell;
use std::fmt::Write as _;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use js_gc::{Gc, GcAny, Heap, HeapConfig, Liveness, Reconciler, Roots, Trace, Tracer};

use crate::bytecode::{Code, Source};
use crate::compiler::{self, CompileError};
use crate::embedding::{Handle, JsError};
use crate::interpreter::{Frame, InlineCacheTables};
use crate::object::{JsObject, ObjectKind, PropertyKey, Shape};
use crate::realm::{CommonAtoms, Realm, RealmId, WellKnownSymbols};
use crate::string::{AtomTable, JsString};
use crate::value::Value;

/// How a script stopped abnormally, inside the VM (the embedder sees a
/// [`JsError`], whose thrown value is rooted).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Exception {
    /// A JavaScript exception: catchable, carries the thrown value.
    Throw(Value),
    /// Execution stopped for a reason scripts cannot catch: the embedder's
    /// interrupt ([`Vm::interrupt_handle`]), a step or heap limit, or
    /// `process.exit()`; [`Vm::termination_reason`] says which.
    Terminated,
}

/// When a script failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Parsing or early errors: nothing ran.
    Parse,
    /// Loading a module's dependencies or linking (a missing module, a
    /// syntax error in a dependency, an import no module provides).
    Resolution,
    /// Evaluation.
    Runtime,
}

/// The result of anything that can throw.
pub(crate) type JsResult<T> = Result<T, Exception>;

/// What one collection did ([`Vm::collect_garbage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CollectionSummary {
    /// The collection's number (collections since the VM was made).
    pub epoch: u64,
    /// Cells found unreachable and freed.
    pub freed_objects: u64,
    /// Bytes of those cells.
    pub freed_bytes: u64,
    /// Cells that survived.
    pub live_objects: u64,
    /// Bytes of those cells.
    pub live_bytes: u64,
}

/// What source text is parsed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceGoal {
    /// A classic script.
    Script,
    /// An ES module (strict, top-level await, `import`/`export`).
    Module,
}

/// The heap growth factor a VM collects at: the next collection is due once
/// the cells allocated since the last one reach twice the bytes it kept
/// (js-gc's default, 1.0, collects when they equal them). A full
/// collection's cost follows the live heap, so fewer of them pay where a
/// program keeps a large heap and replaces it: Octane splay +25% and its
/// latency score +30% (each pause counts squared), for 3% more peak RSS
/// on a program of a million live records.
pub const VM_GROWTH_FACTOR: f64 = 2.0;

/// Options for a new VM.
#[derive(Debug, Clone)]
pub struct VmOptions {
    /// Heap configuration (gc-stress among it). The default is js-gc's
    /// with [`VM_GROWTH_FACTOR`].
    pub heap: HeapConfig,
    /// Maximum depth of JavaScript calls before a `RangeError`.
    pub max_call_depth: usize,
    /// Add `$vm.gc()` and `$vm.heapStats()`.
    pub expose_internals: bool,
    /// `process.argv`.
    pub argv: Vec<String>,
    /// Resume suspended async functions through the call cache (off only
    /// to measure what the cache saves).
    pub resume_cache: bool,
    /// Bytes the VM may hold before it terminates the script with
    /// [`TerminationReason::HeapLimit`](crate::TerminationReason::HeapLimit)
    /// (checked at safepoints, after a collection has had its chance).
    /// Measured by [`CountingAllocator`](crate::CountingAllocator) when it
    /// is the global allocator, otherwise as the collector's cell bytes.
    pub max_heap_size: Option<usize>,
    /// Steps (calls, loop back-edges, elements visited by builtins) a VM
    /// may take before it terminates the script with
    /// [`TerminationReason::StepLimit`](crate::TerminationReason::StepLimit).
    pub max_steps: Option<u64>,
    /// How the VM behaves as an agent among others sharing memory.
    pub agent: AgentOptions,
}

/// How a VM behaves as an agent of an agent cluster (§9.7): other VMs, on
/// other threads, sharing SharedArrayBuffers with it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AgentOptions {
    /// The agent's `[[CanBlock]]`: whether `Atomics.wait` may block this
    /// thread (a `TypeError` otherwise, as on a browser's main thread).
    pub can_block: bool,
    /// Whether a pending `Atomics.waitAsync` keeps the event loop running.
    /// Node's loop does not wait for one; an embedder whose other threads
    /// (workers, test262's agents) may still notify it sets this.
    pub wait_async_keeps_alive: bool,
}

impl Default for VmOptions {
    fn default() -> Self {
        Self {
            heap: HeapConfig { growth_factor: VM_GROWTH_FACTOR, ..HeapConfig::default() },
            max_call_depth: 10_000,
            expose_internals: false,
            argv: Vec::new(),
            resume_cache: true,
            max_heap_size: None,
            max_steps: None,
            agent: AgentOptions::default(),
        }
    }
}

/// Where `console.log` and `console.error` write.
pub trait ConsoleSink {
    /// Writes one line to standard output.
    fn log(&mut self, line: &str);
    /// Writes one line to standard error.
    fn error(&mut self, line: &str);
}

/// A sink writing to the process's standard streams.
#[derive(Debug, Default)]
pub struct StdConsole;

impl ConsoleSink for StdConsole {
    fn log(&mut self, line: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
    }

    fn error(&mut self, line: &str) {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{line}");
    }
}

/// A JavaScript virtual machine: one heap, one thread.
pub struct Vm {
    /// The heap every value lives in.
    pub(crate) heap: Heap,
    /// Interned property-key strings.
    pub(crate) atoms: AtomTable,
    /// Registers, frames and what native code keeps alive.
    pub(crate) stack: crate::interpreter::ExecutionStack,
    /// The current realm (§9.4: the running execution context's Realm).
    /// It is boxed so that switching realms moves a pointer.
    pub(crate) realm: Box<Realm>,
    /// Which realm [`Vm::realm`] is.
    pub(crate) realm_id: RealmId,
    /// Every realm by [`RealmId`]; the current one's slot is empty while
    /// it sits in [`Vm::realm`].
    pub(crate) realms: Vec<Option<Box<Realm>>>,
    pub(crate) root_shape: Gc<Shape>,
    /// The shapes of iterator results and arguments objects, so each is
    /// built in one allocation instead of a transition per property.
    pub(crate) shapes: crate::object::WellKnownShapes,
    pub(crate) symbols: WellKnownSymbols,
    pub(crate) names: CommonAtoms,
    pub(crate) inline_caches: InlineCacheTables,
    /// Where `[[Get]]` found named properties, per receiver shape.
    pub(crate) lookup_cache: crate::object::LookupCache,
    pub(crate) options: VmOptions,
    /// Arrays being joined, so cyclic arrays print as empty strings.
    pub(crate) join_stack: Vec<Gc<JsObject>>,
    /// `Symbol.for`'s registry.
    pub(crate) symbol_registry: crate::builtins::symbol::SymbolRegistry,
    /// `Math.random`'s xorshift128+ state.
    pub(crate) random_state: [u64; 2],
    /// Whether an `[[IsHTMLDDA]]` object was ever made: until then
    /// ToBoolean and `typeof` on an object need not look at it.
    pub(crate) html_dda_exists: bool,
    interrupt: Arc<AtomicBool>,
    /// Steps left before [`VmOptions::max_steps`] stops the script
    /// (`u64::MAX` without a limit: it never runs out in practice).
    steps_left: Cell<u64>,
    /// Why the last termination happened.
    termination: Cell<Option<crate::TerminationReason>>,
    /// The heap epoch of the last collection forced by the heap limit, so
    /// a VM just under its limit does not collect at every safepoint.
    limit_collection_epoch: u64,
    /// Values the embedder holds through [`Handle`]s.
    pub(crate) handles: Rc<crate::embedding::HandleTable>,
    /// What resuming each executable needs, by executable (weak keys,
    /// pruned after every collection).
    pub(crate) resume_cache:
        js_microtask::CallCache<crate::interpreter::ExecutableKey, crate::interpreter::ResumeEntry>,
    /// The module map and the module loader.
    pub(crate) modules: crate::module::ModuleRegistry,
    /// The job queues and what runs with them.
    pub(crate) jobs: crate::jobs::JobQueues,
    /// The Node-like host's state (console, event loop, host objects).
    pub(crate) runtime: crate::host::RuntimeState,
}

impl Vm {
    /// A VM with default options.
    pub fn new() -> Self {
        Self::with_options(VmOptions::default())
    }

    /// A VM with `options`.
    pub fn with_options(options: VmOptions) -> Self {
        // SAFETY: no pointer into this heap leaves the VM (the embedder gets
        // `Handle`s, which are checked against the VM that made them and
        // read only through it), and the VM uses its own cells only, so
        // every cell is borrowed through this heap while the VM owns it.
        let mut heap = unsafe { Heap::with_config(options.heap.clone()) };
        let mut atoms = AtomTable::new();
        let root_shape = heap.alloc(Shape::root());
        let names = CommonAtoms::new(&mut heap, &mut atoms);
        let symbols = WellKnownSymbols::new(&mut heap, &mut atoms);
        let realm = Box::new(Realm::new(&mut heap, root_shape, RealmId::MAIN));
        let shape_keys = crate::object::WellKnownShapeKeys {
            value: PropertyKey::String(names.value),
            done: PropertyKey::String(names.done),
            length: PropertyKey::String(names.length),
            iterator: PropertyKey::Symbol(symbols.iterator),
            callee: PropertyKey::String(names.callee),
            name: PropertyKey::String(names.name),
        };
        let shapes = crate::object::WellKnownShapes::new(&mut heap, root_shape, &shape_keys);
        let mut vm = Self {
            heap,
            atoms,
            stack: crate::interpreter::ExecutionStack::default(),
            realm,
            realm_id: RealmId::MAIN,
            realms: vec![None],
            root_shape,
            shapes,
            symbols,
            names,
            inline_caches: InlineCacheTables::default(),
            lookup_cache: crate::object::LookupCache::default(),
            join_stack: Vec::new(),
            symbol_registry: crate::builtins::symbol::SymbolRegistry::default(),
            random_state: random_seed(),
            html_dda_exists: false,
            interrupt: Arc::new(AtomicBool::new(false)),
            steps_left: Cell::new(options.max_steps.unwrap_or(u64::MAX)),
            termination: Cell::new(None),
            limit_collection_epoch: u64::MAX,
            resume_cache: js_microtask::CallCache::new(),
            handles: Rc::default(),
            modules: crate::module::ModuleRegistry::default(),
            jobs: crate::jobs::JobQueues::default(),
            runtime: crate::host::RuntimeState::default(),
            options,
        };
        crate::builtins::install(&mut vm);
        vm
    }

    /// Creates a new realm with its own intrinsics and global object (as
    /// `$262.createRealm()` needs) and returns it. Well-known symbols and
    /// the `Symbol.for` registry are shared, as the spec says. Builtins made
    /// while it is set up belong to it.
    pub fn create_realm(&mut self) -> RealmId {
        let id = RealmId(u32::try_from(self.realms.len()).unwrap_or(u32::MAX));
        let fresh = Box::new(Realm::new(&mut self.heap, self.root_shape, id));
        self.realms.push(Some(fresh));
        // The host's objects (prototypes of timers, `process`...) stay the
        // ones the VM's first realm made: the new realm's globals get their
        // own, but the VM-wide records keep pointing at the first realm's.
        let host_objects = std::mem::take(&mut self.runtime.host_objects);
        let mark = self.stack.temp_roots.len();
        self.stack.temp_roots.extend(host_objects.objects().map(Value::object));
        self.run_in_realm(id, crate::builtins::install);
        self.stack.temp_roots.truncate(mark);
        self.runtime.host_objects = host_objects;
        id
    }

    /// The realm code runs in now.
    pub fn current_realm(&self) -> RealmId {
        self.realm_id
    }

    /// The realm record `id`, wherever it is kept.
    pub(crate) fn realm_record(&self, id: RealmId) -> Option<&Realm> {
        if id == self.realm_id {
            Some(&self.realm)
        } else {
            self.realms.get(id.index()).and_then(|slot| slot.as_deref())
        }
    }

    /// The global object of realm `id`.
    pub fn realm_global(&self, id: RealmId) -> Option<Handle> {
        self.realm_record(id).map(|r| self.handle(Value::object(r.global)))
    }

    /// Makes `id` the current realm and returns the one it replaces, which
    /// the caller re-enters when the code that belongs to `id` is done. An
    /// unknown realm leaves the current one in place.
    #[inline]
    pub(crate) fn enter_realm(&mut self, id: RealmId) -> RealmId {
        let previous = self.realm_id;
        if id != previous {
            self.switch_realm(id);
        }
        previous
    }

    /// Parks the current realm in its slot and takes `id` out of its own.
    #[cold]
    fn switch_realm(&mut self, id: RealmId) {
        let Some(next) = self.realms.get_mut(id.index()).and_then(Option::take) else { return };
        let previous = std::mem::replace(&mut self.realm, next);
        if let Some(slot) = self.realms.get_mut(self.realm_id.index()) {
            *slot = Some(previous);
        }
        self.realm_id = id;
    }

    /// Runs `f` with `id` as the current realm, then returns to the realm
    /// current before.
    pub fn run_in_realm<R>(&mut self, id: RealmId, f: impl FnOnce(&mut Vm) -> R) -> R {
        let previous = self.enter_realm(id);
        let result = f(self);
        self.enter_realm(previous);
        result
    }

    /// Runs a script in realm `id` (its global object and bindings; the
    /// functions it makes belong to that realm).
    pub fn eval_script_in_realm(&mut self, id: RealmId, file_name: &str, text: &str) -> Result<Handle, JsError> {
        if self.realm_record(id).is_none() {
            return Err(JsError::range_error(self, "no such realm"));
        }
        self.run_in_realm(id, |vm| vm.eval_script(file_name, text))
    }

    /// Replaces where `console` output goes.
    pub fn set_console(&mut self, sink: Box<dyn ConsoleSink>) {
        self.runtime.console = sink;
    }

    /// A flag another thread can set to stop the running script with an
    /// uncatchable termination: at its next call or loop back-edge, or
    /// within a bounded amount of work inside a builtin (element loops,
    /// string building, sorting, JSON, regular expressions). The flag stays
    /// set until [`Vm::set_interrupt`]`(false)`.
    pub fn interrupt_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.interrupt)
    }

    /// Requests (or withdraws a request for) termination.
    pub fn set_interrupt(&self, on: bool) {
        self.interrupt.store(on, Ordering::Relaxed);
    }

    /// Gives the script `steps` more steps before [`VmOptions::max_steps`]
    /// stops it (`None`: no limit).
    pub fn set_step_limit(&mut self, steps: Option<u64>) {
        self.steps_left.set(steps.unwrap_or(u64::MAX));
    }

    /// Why the last [`JsError::Terminated`] happened (`None` before any).
    pub fn termination_reason(&self) -> Option<crate::TerminationReason> {
        self.termination.get()
    }

    pub(crate) fn set_termination_reason(&self, reason: crate::TerminationReason) {
        self.termination.set(Some(reason));
    }

    /// One step of work: fails if the embedder asked to stop or the step
    /// budget ran out. Called at calls, loop back-edges and in every loop a
    /// builtin runs over user-sized data.
    #[inline]
    pub(crate) fn check_interrupt(&self) -> JsResult<()> {
        let left = self.steps_left.get();
        if left == 0 {
            self.termination.set(Some(crate::TerminationReason::StepLimit));
            return Err(Exception::Terminated);
        }
        self.steps_left.set(left - 1);
        if self.interrupt.load(Ordering::Relaxed) {
            self.termination.set(Some(crate::TerminationReason::Interrupted));
            return Err(Exception::Terminated);
        }
        if left.is_multiple_of(4096)
            && let Some(limit) = self.options.max_heap_size
        {
            // Inside a builtin no collection can run; a builtin filling
            // memory is stopped at twice the limit (the exact limit, after a
            // collection, is enforced at the next safepoint).
            let used = self.memory_in_use();
            if used / 2 > limit {
                self.termination.set(Some(crate::TerminationReason::HeapLimit { used, limit }));
                return Err(Exception::Terminated);
            }
        }
        Ok(())
    }

    /// [`Vm::check_interrupt`] for `steps` steps of work done at once (a
    /// regular-expression match polls once per `regress::POLL_INTERVAL`
    /// backtracks).
    pub(crate) fn check_interrupt_for(&self, steps: u64) -> JsResult<()> {
        let left = self.steps_left.get();
        self.steps_left.set(left.saturating_sub(steps.saturating_sub(1)));
        self.check_interrupt()
    }

    /// [`Vm::check_interrupt`] once per `stride` iterations of a builtin's
    /// inner loop (`i` counts them), for loops whose single iteration is
    /// too cheap to pay for a check each.
    #[inline]
    pub(crate) fn check_interrupt_every(&self, i: usize, stride: usize) -> JsResult<()> {
        if i.is_multiple_of(stride) { self.check_interrupt() } else { Ok(()) }
    }

    /// Bytes held as [`VmOptions::max_heap_size`] measures them.
    pub fn memory_in_use(&self) -> usize {
        crate::memory::thread_allocated_bytes()
            .unwrap_or_else(|| usize::try_from(self.heap.bytes_in_use()).unwrap_or(usize::MAX))
    }

    /// Fails with a termination if the VM holds more than its heap limit
    /// even after a collection.
    fn check_heap_limit(&mut self) -> JsResult<()> {
        let Some(limit) = self.options.max_heap_size else { return Ok(()) };
        if self.memory_in_use() <= limit {
            return Ok(());
        }
        // A collection may bring it back under; once per epoch, so a VM
        // holding just its limit in live data is not collected at every
        // safepoint.
        if self.limit_collection_epoch != self.heap.epoch() {
            self.collect_garbage();
            self.limit_collection_epoch = self.heap.epoch();
        }
        let used = self.memory_in_use();
        if used <= limit {
            return Ok(());
        }
        self.termination.set(Some(crate::TerminationReason::HeapLimit { used, limit }));
        Err(Exception::Terminated)
    }

    /// The current realm's global object.
    pub fn global_object(&self) -> Handle {
        self.handle(Value::object(self.realm.global))
    }

    /// Compiles and runs a script; its completion value, or what it threw
    /// (a `SyntaxError` for text that does not parse).
    pub fn eval_script(&mut self, file_name: &str, text: &str) -> Result<Handle, JsError> {
        self.eval_script_phased(file_name, text).map_err(|(_, e)| e)
    }

    /// Like [`Vm::eval_script`], but says whether the failure happened
    /// while parsing (early errors) or while running.
    pub fn eval_script_phased(&mut self, file_name: &str, text: &str) -> Result<Handle, (Phase, JsError)> {
        match self.run_script_text(file_name, text) {
            Ok(value) => Ok(self.handle(value)),
            Err((phase, e)) => Err((phase, self.js_error(e))),
        }
    }

    /// Parses and compiles a script or a module without running it (as
    /// `node --check` does): the `SyntaxError` (or, for nesting too deep to
    /// compile, `RangeError`) it would throw.
    pub fn check_syntax(&mut self, file_name: &str, text: &str, goal: SourceGoal) -> Result<(), JsError> {
        self.compile_for_inspection(file_name, text, goal).map(drop)
    }

    /// The bytecode a script or module compiles to, as text: each code
    /// unit (the top level, then every function, depth first) with its
    /// instructions, one per line, and its exception handlers. What
    /// `jsvm --print-bytecode` prints.
    pub fn disassemble(&mut self, file_name: &str, text: &str, goal: SourceGoal) -> Result<String, JsError> {
        let roots = self.compile_for_inspection(file_name, text, goal)?;
        let mut out = String::new();
        let mut pending: Vec<(Gc<Code>, bool)> = roots.into_iter().rev().map(|code| (code, true)).collect();
        // Nothing here reaches a safepoint: the code units need no roots.
        while let Some((code, top_level)) = pending.pop() {
            let name_cell = code.borrow(&self.heap).name;
            let name = crate::interpreter::string_text(self, name_cell);
            let code = code.borrow(&self.heap);
            let name = match (top_level, name.is_empty()) {
                (true, _) => "(top level)",
                (false, true) => "(anonymous)",
                (false, false) => name.as_str(),
            };
            let _ = write!(out, "== {name} ==\n{}", code.disassemble());
            pending.extend(code.functions.iter().rev().map(|&f| (f, false)));
        }
        Ok(out)
    }

    /// Compiles without running: the code units made (a module's
    /// initialisation and body), or the compile error as a [`JsError`].
    fn compile_for_inspection(
        &mut self,
        file_name: &str,
        text: &str,
        goal: SourceGoal,
    ) -> Result<Vec<Gc<Code>>, JsError> {
        let source = Rc::new(Source::new(file_name, text));
        let compiled = match goal {
            SourceGoal::Script => compiler::compile_script(self, &source).map(|code| vec![code]),
            SourceGoal::Module => compiler::compile_module(self, &source).map(|m| vec![m.init, m.body]),
        };
        compiled.map_err(|err| {
            let exception = self.compile_error_in(&err, &source);
            self.js_error(exception)
        })
    }

    /// Compiles and runs a script, saying in which phase it failed.
    pub(crate) fn run_script_text(&mut self, file_name: &str, text: &str) -> Result<Value, (Phase, Exception)> {
        let source = Rc::new(Source::new(file_name, text));
        let code = match compiler::compile_script(self, &source) {
            Ok(code) => code,
            Err(err) => return Err((Phase::Parse, self.compile_error_in(&err, &source))),
        };
        self.run_script(code).map_err(|e| (Phase::Runtime, e))
    }

    /// The `name` of a value's constructor (`"TypeError"`).
    pub(crate) fn constructor_name(&mut self, value: Value) -> Option<String> {
        let ctor_key = PropertyKey::String(self.names.constructor);
        let ctor = crate::object::internal_methods::get_value(self, value, ctor_key).ok()?;
        let name_key = PropertyKey::String(self.names.name);
        let name = crate::object::internal_methods::get_value(self, ctor, name_key).ok()?;
        name.as_string().map(|s| crate::interpreter::string_text(self, s))
    }

    /// The exception a compile error throws, reported where the running
    /// code is (eval code, `Function` bodies).
    pub(crate) fn compile_error(&mut self, err: &CompileError) -> Exception {
        match err {
            CompileError::Syntax { message, .. } => self.syntax_error(message),
            CompileError::Range(message) => self.range_error(message),
            CompileError::Type(message) => self.type_error(message),
        }
    }

    /// The exception a script's or module's compile error throws: a
    /// SyntaxError made at the position in `source` the parser pointed at,
    /// so an uncaught one is reported with that line, as Node does.
    pub(crate) fn compile_error_in(&mut self, err: &CompileError, source: &Rc<Source>) -> Exception {
        let CompileError::Syntax { message, at: Some(offset) } = err else { return self.compile_error(err) };
        let error = self.make_error(crate::builtins::error::ErrorKind::Syntax, message);
        if let ObjectKind::Error { site, .. } = &mut error.borrow_mut(&mut self.heap).kind {
            *site = Some(crate::bytecode::SourceSite { source: Rc::clone(source), offset: *offset });
        }
        Exception::Throw(Value::object(error))
    }

    /// Allocates a string value from Rust text.
    pub(crate) fn string(&mut self, s: &str) -> Value {
        Value::string(self.heap.alloc(JsString::from_rust_str(s)))
    }

    /// Allocates a BigInt value.
    pub(crate) fn bigint(&mut self, n: num_bigint::BigInt) -> Value {
        Value::bigint(self.heap.alloc(crate::bigint::JsBigInt::new(n)))
    }

    /// The atom property key for Rust text (array indices become index keys).
    pub(crate) fn key(&mut self, s: &str) -> PropertyKey {
        if let Some(i) = crate::abstract_ops::array_index_of_str(s) {
            return PropertyKey::Index(i);
        }
        PropertyKey::String(self.atoms.intern_str(&mut self.heap, s))
    }

    /// A new ordinary object with `proto`.
    pub(crate) fn new_object(&mut self, proto: Option<Gc<JsObject>>) -> Gc<JsObject> {
        self.heap.alloc(JsObject::new(self.root_shape, proto, ObjectKind::Ordinary))
    }

    /// A new plain object (`{}`).
    pub(crate) fn new_plain_object(&mut self) -> Gc<JsObject> {
        let proto = self.realm.intrinsics.object_prototype;
        self.new_object(Some(proto))
    }

    /// A new object of `kind` with `proto`.
    pub(crate) fn new_object_of_kind(&mut self, proto: Option<Gc<JsObject>>, kind: ObjectKind) -> Gc<JsObject> {
        self.heap.alloc(JsObject::new(self.root_shape, proto, kind))
    }

    /// A new object of a kind another module owns: `slots` in a cell of
    /// their own, reached through the object.
    pub(crate) fn new_object_with_data<T: js_gc::Trace + 'static>(
        &mut self,
        proto: Option<Gc<JsObject>>,
        class: &'static crate::object::DataClass,
        slots: T,
    ) -> Gc<JsObject> {
        // No collection runs inside an allocation, so the fresh cell needs
        // no root before the object that traces it exists.
        let cell = self.heap.alloc(slots);
        self.new_object_of_kind(proto, ObjectKind::Data(crate::object::KindData::new(cell, class)))
    }

    /// Heap statistics.
    pub fn heap_stats(&self) -> js_gc::HeapStats {
        self.heap.stats()
    }

    /// Collects garbage now, with the VM's registers, frames and realm and
    /// the embedder's handles as roots.
    pub fn collect_garbage(&mut self) -> CollectionSummary {
        self.handles.reclaim_released();
        let mut roots = VmRoots {
            stack: &self.stack.registers,
            frames: &self.stack.frames,
            realm: &self.realm,
            realms: &self.realms,
            root_shape: self.root_shape,
            shapes: self.shapes,
            symbols: &self.symbols,
            names: &self.names,
            temp_roots: &self.stack.temp_roots,
            registry: &self.symbol_registry,
            jobs: &self.jobs,
            runtime: &self.runtime,
            resume_cache: &mut self.resume_cache,
            handles: &self.handles,
            modules: &self.modules,
            atoms: &mut self.atoms,
            inline_caches: &mut self.inline_caches,
            lookup_cache: &mut self.lookup_cache,
        };
        // SAFETY: every cell the VM can reach afterwards is traced by
        // `VmRoots` (registers, frames, realm, temporary roots); native code
        // keeps its other values in `temp_roots`.
        let report = unsafe { self.heap.collect(&mut roots) };
        // The registries with dead targets run their cleanups from the
        // event loop; the cells stay inside the VM.
        for cell in report.finalization_ready {
            if !self.jobs.finalization_ready.contains(&cell) {
                self.jobs.finalization_ready.push(cell);
            }
        }
        CollectionSummary {
            epoch: report.epoch,
            freed_objects: report.freed_objects,
            freed_bytes: report.freed_bytes,
            live_objects: report.live_objects,
            live_bytes: report.live_bytes,
        }
    }

    /// A collection if the allocation debt (or gc-stress) asks for one;
    /// fails if the heap limit is exceeded.
    #[inline]
    pub(crate) fn safepoint(&mut self) -> JsResult<()> {
        if self.heap.should_collect() {
            self.collect_garbage();
        }
        if self.options.max_heap_size.is_some() { self.check_heap_limit() } else { Ok(()) }
    }

    /// How an uncaught exception is reported: an error's `stack`, or
    /// `Uncaught <value>` for other values, as Node prints them.
    pub(crate) fn describe_uncaught(&mut self, value: Value) -> String {
        if let Some(o) = value.as_object()
            && matches!(o.borrow(&self.heap).kind, ObjectKind::Error { .. })
            && let Ok(text) = crate::host::console::inspect(self, value)
        {
            return text;
        }
        match crate::host::console::inspect(self, value) {
            Ok(text) => format!("Uncaught {text}"),
            Err(_) => "Uncaught exception".to_owned(),
        }
    }

    /// `ToString` of a value, as Rust text (lone surrogates become U+FFFD).
    pub(crate) fn rust_string(&mut self, value: Value) -> JsResult<String> {
        let s = crate::abstract_ops::to_string(self, value)?;
        Ok(crate::interpreter::string_text(self, s))
    }

    /// Writes a line through the console sink (`print` in test harnesses).
    pub fn console_log(&mut self, line: &str) {
        self.runtime.console.log(line);
    }

    /// A value as `console.log` prints it.
    pub(crate) fn display(&mut self, value: Value) -> String {
        crate::host::console::format_log_arguments(self, &[value]).unwrap_or_default()
    }

    /// Keeps `value` alive until the running native function returns.
    pub(crate) fn keep_alive(&mut self, value: Value) {
        self.stack.temp_roots.push(value);
    }

    /// Keeps a property key alive until the running native function
    /// returns: a key made by `ToPropertyKey` may be an atom nothing else
    /// holds (atoms are weak), and it is often used after more user code.
    pub(crate) fn keep_key_alive(&mut self, key: PropertyKey) {
        match key {
            PropertyKey::String(s) => self.stack.temp_roots.push(Value::string(s)),
            PropertyKey::Symbol(s) => self.stack.temp_roots.push(Value::symbol(s)),
            PropertyKey::Index(_) => {}
        }
    }

    /// [`Vm::keep_key_alive`] for a list of keys, as `[[OwnPropertyKeys]]`
    /// gave them: a getter run for one key may delete a later one, whose
    /// atom then only the list holds.
    pub(crate) fn keep_keys_alive(&mut self, keys: &[PropertyKey]) {
        for &key in keys {
            self.keep_key_alive(key);
        }
    }
}

impl Default for Vm {
    fn default() -> Self {
        Self::new()
    }
}

/// The VM's roots and caches, borrowed apart from its heap for a collection.
struct VmRoots<'a> {
    stack: &'a [Value],
    frames: &'a [Frame],
    realm: &'a Realm,
    realms: &'a [Option<Box<Realm>>],
    root_shape: Gc<Shape>,
    shapes: crate::object::WellKnownShapes,
    symbols: &'a WellKnownSymbols,
    names: &'a CommonAtoms,
    temp_roots: &'a [Value],
    registry: &'a crate::builtins::symbol::SymbolRegistry,
    jobs: &'a crate::jobs::JobQueues,
    runtime: &'a crate::host::RuntimeState,
    handles: &'a crate::embedding::HandleTable,
    modules: &'a crate::module::ModuleRegistry,
    resume_cache: &'a mut js_microtask::CallCache<crate::interpreter::ExecutableKey, crate::interpreter::ResumeEntry>,
    atoms: &'a mut AtomTable,
    inline_caches: &'a mut InlineCacheTables,
    lookup_cache: &'a mut crate::object::LookupCache,
}

impl Roots for VmRoots<'_> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.stack.trace(tracer);
        for frame in self.frames {
            frame.trace(tracer);
        }
        self.realm.trace(tracer);
        for realm in self.realms.iter().flatten() {
            realm.trace(tracer);
        }
        self.root_shape.trace(tracer);
        self.shapes.trace(tracer);
        self.symbols.trace(tracer);
        self.names.trace(tracer);
        self.temp_roots.trace(tracer);
        for symbol in self.registry.symbols() {
            symbol.trace(tracer);
        }
        self.jobs.trace(tracer);
        self.runtime.trace(tracer);
        self.handles.trace(tracer);
        self.modules.trace(tracer);
        self.atoms.trace(tracer);
    }

    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        self.atoms.reconcile(liveness);
        self.inline_caches.reconcile(liveness);
        self.lookup_cache.clear();
        // The resume cache is keyed by inline-cache table: the tables just
        // freed are those of the executables that died.
        let tables = &self.inline_caches;
        self.resume_cache.prune(|key| !tables.is_allocated(key.table()));
    }
}

/// Records `code`'s inline caches with the VM and ties it to the current
/// realm (done when code is loaded).
pub(crate) fn register_code(vm: &mut Vm, code: Gc<Code>) {
    let count = code.borrow(&vm.heap).ic_count;
    let table = vm.inline_caches.allocate(GcAny::from(code), count);
    let realm = vm.realm_id;
    let c = code.borrow_mut(&mut vm.heap);
    c.ic_table = table;
    c.realm = realm;
    let children: Vec<Gc<Code>> = code.borrow(&vm.heap).functions.to_vec();
    for child in children {
        register_code(vm, child);
    }
}

/// A seed for `Math.random` from the clock and an address.
fn random_seed() -> [u64; 2] {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let local = 0u8;
    let addr = std::ptr::addr_of!(local) as u64;
    [nanos ^ 0x9E37_79B9_7F4A_7C15, addr.rotate_left(17) | 1]
}
