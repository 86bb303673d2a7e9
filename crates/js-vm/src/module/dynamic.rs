//! `import()`: §13.3.10 `EvaluateImportCall`, HostLoadImportedModule and
//! `ContinueDynamicImport`.
//!
//! `import()` returns its promise at once; the module graph is loaded,
//! linked and evaluated in a later job, as a host that loads
//! asynchronously would.

use js_gc::{Gc, Trace, Tracer};
use js_microtask::Job;
use js_promise::Continuation;

use crate::bytecode::ScriptOrModule;
use crate::object::internal_methods::{get, own_property_keys};
use crate::object::{JsObject, PropertyKey};
use crate::promise::{DYNAMIC_IMPORT, DYNAMIC_IMPORT_SETTLED};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

use super::ModuleId;
use super::evaluate::new_promise;

/// What the job continuing an `import()` needs once the module settles.
pub struct DynamicImportState {
    /// The promise `import()` returned.
    pub promise: Gc<JsObject>,
    /// The imported module.
    pub module: ModuleId,
}

// SAFETY: the promise is the only pointer.
unsafe impl Trace for DynamicImportState {
    fn trace(&self, tracer: &mut Tracer) {
        self.promise.trace(tracer);
    }

    fn type_name() -> &'static str {
        "DynamicImportState"
    }
}

/// `GetActiveScriptOrModule()`: the script or module of the running code.
fn active_script_or_module(vm: &Vm) -> Option<ScriptOrModule> {
    let frame = vm.stack.frames.last()?;
    Some(frame.code.borrow(&vm.heap).source.script_or_module())
}

/// Rejects `promise` with a thrown value (termination passes through).
fn reject_with(vm: &mut Vm, promise: Gc<JsObject>, e: Exception) -> JsResult<()> {
    match e {
        Exception::Throw(v) => {
            js_promise::promise_reject_function(&mut vm.host(), promise, v);
            vm.take_termination()
        }
        Exception::Terminated => Err(Exception::Terminated),
    }
}

/// Reads `import()`'s options argument (§13.3.10.2 steps 7–10): it must
/// be undefined or an object whose `with` is undefined or an object of
/// strings. Returns the `type` attribute.
fn check_options(vm: &mut Vm, options: Value) -> JsResult<Value> {
    if options.is_undefined() {
        return Ok(Value::UNDEFINED);
    }
    let Some(o) = options.as_object() else {
        return Err(vm.type_error("The second argument of import() must be an object"));
    };
    let with_key = vm.key("with");
    let attributes = get(vm, o, with_key, options)?;
    if attributes.is_undefined() {
        return Ok(Value::UNDEFINED);
    }
    let Some(a) = attributes.as_object() else {
        return Err(vm.type_error("The 'with' option of import() must be an object"));
    };
    let type_key = vm.key("type");
    let mut module_type = Value::UNDEFINED;
    for key in own_property_keys(vm, a)? {
        if matches!(key, PropertyKey::Symbol(_)) {
            continue;
        }
        let Some(desc) = crate::object::internal_methods::get_own_property(vm, a, key)? else { continue };
        if desc.enumerable != Some(true) {
            continue;
        }
        let value = get(vm, a, key, attributes)?;
        if !value.is_string() {
            return Err(vm.type_error("Import attribute values must be strings"));
        }
        if key == type_key {
            // Rooted while later attribute getters run.
            vm.stack.temp_roots.push(value);
            module_type = value;
        }
    }
    Ok(module_type)
}

/// `import(specifier, options)`: a promise for the namespace. The job it
/// queues holds the promise, the specifier, the referrer and the `type`
/// attribute.
pub(crate) fn import_call(vm: &mut Vm, specifier: Value, options: Value) -> JsResult<Value> {
    let referrer = active_script_or_module(vm);
    let promise = new_promise(vm);
    // The promise stays rooted while user code (toString, getters) runs.
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.push(Value::object(promise));
    let result = start_import(vm, promise, specifier, options, referrer);
    vm.stack.temp_roots.truncate(mark);
    result?;
    Ok(Value::object(promise))
}

fn start_import(
    vm: &mut Vm,
    promise: Gc<JsObject>,
    specifier: Value,
    options: Value,
    referrer: Option<ScriptOrModule>,
) -> JsResult<()> {
    let specifier = match crate::abstract_ops::to_string(vm, specifier) {
        Ok(s) => Value::string(s),
        Err(e) => return reject_with(vm, promise, e),
    };
    let specifier_root = vm.stack.temp_roots.len();
    vm.stack.temp_roots.push(specifier);
    let checked = check_options(vm, options);
    vm.stack.temp_roots.truncate(specifier_root);
    let module_type = match checked {
        Ok(t) => t,
        Err(e) => return reject_with(vm, promise, e),
    };
    let referrer = match referrer {
        Some(ScriptOrModule::Module(id)) => Value::number(f64::from(id)),
        Some(ScriptOrModule::Script(name)) => vm.string(&name),
        None => Value::UNDEFINED,
    };
    let job = Job::new(DYNAMIC_IMPORT, [Value::object(promise), specifier, referrer, module_type]);
    vm.jobs.microtasks.enqueue(job);
    Ok(())
}

/// The job loading, linking and evaluating an `import()`ed module
/// (`ContinueDynamicImport`).
pub(crate) fn continue_dynamic_import(vm: &mut Vm, job: &Job<Value>) -> JsResult<()> {
    let Some(promise) = job.arg(0).as_object() else { return Ok(()) };
    let specifier = vm.rust_string(job.arg(1))?;
    let referrer = job.arg(2);
    let referrer = if let Some(n) = referrer.as_number() {
        Some(ScriptOrModule::Module(n as ModuleId))
    } else if referrer.is_string() {
        Some(ScriptOrModule::Script(vm.rust_string(referrer)?))
    } else {
        None
    };
    let module_type = if job.arg(3).is_string() { Some(vm.rust_string(job.arg(3))?) } else { None };
    let request = crate::compiler::ModuleRequest { specifier, module_type };
    let module = match vm.load_module_graph(&request, referrer.as_ref()) {
        Ok(m) => m,
        Err((_, e)) => return reject_with(vm, promise, e),
    };
    if let Err(e) = super::link::link(vm, module) {
        return reject_with(vm, promise, e);
    }
    let evaluation = super::evaluate::evaluate(vm, module)?;
    let state = vm.heap.alloc(DynamicImportState { promise, module });
    let continuation = Continuation { job: DYNAMIC_IMPORT_SETTLED, data: Value::internal(state.into()) };
    js_promise::perform_promise_then_continuation(&mut vm.host(), evaluation, continuation);
    Ok(())
}

/// The job run when an imported module's evaluation settled: the
/// `import()` promise gets the namespace or the error.
pub(crate) fn dynamic_import_settled(vm: &mut Vm, data: Value, outcome: Result<Value, Value>) -> JsResult<()> {
    let Some(state) = data.as_internal::<DynamicImportState>() else { return Ok(()) };
    let (promise, module) = {
        let s = state.borrow(&vm.heap);
        (s.promise, s.module)
    };
    match outcome {
        Ok(_) => {
            let ns = super::namespace::get_module_namespace(vm, module);
            js_promise::promise_resolve_function(&mut vm.host(), promise, Value::object(ns));
        }
        Err(reason) => js_promise::promise_reject_function(&mut vm.host(), promise, reason),
    }
    vm.take_termination()
}
