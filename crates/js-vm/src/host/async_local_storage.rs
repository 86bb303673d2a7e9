//! `AsyncLocalStorage` (Node's `node:async_hooks`) and TC39's
//! `AsyncContext.Variable` / `AsyncContext.Snapshot`, on js-async-context:
//! each storage or variable is a context variable; `run` installs a frame
//! binding it for the callback; promise reactions, jobs, timers and ticks
//! carry the frame that was current when they were created.

use js_async_context::{Frame, SwapScope, VariableId};
use js_gc::{Trace, Tracer};

use crate::builtins::promise::{capture, captured_value};
use crate::builtins::{method, native_function_with_data};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{call, get};
use crate::object::{DataClass, JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// An `AsyncLocalStorage` or `AsyncContext.Variable`: its slots are a
/// [`ContextVariable`] cell.
static CONTEXT_VARIABLE: DataClass = DataClass::plain::<ContextVariable>("ContextVariable");

/// An `AsyncContext.Snapshot`: its slots are a [`ContextSnapshot`] cell.
static CONTEXT_SNAPSHOT: DataClass = DataClass::plain::<ContextSnapshot>("AsyncContext.Snapshot");

/// The slots of an `AsyncContext.Snapshot`: the frame it captured.
struct ContextSnapshot(Option<Frame<Value>>);

// SAFETY: the captured frame is the one edge.
unsafe impl Trace for ContextSnapshot {
    fn trace(&self, tracer: &mut Tracer) {
        if let Some(frame) = &self.0 {
            frame.as_any().trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "ContextSnapshot"
    }
}

/// A new `AsyncContext.Snapshot` of `frame`.
pub(crate) fn new_snapshot(
    vm: &mut Vm,
    proto: Option<js_gc::Gc<JsObject>>,
    frame: Option<Frame<Value>>,
) -> js_gc::Gc<JsObject> {
    vm.new_object_with_data(proto, &CONTEXT_SNAPSHOT, ContextSnapshot(frame))
}

/// The frame of the snapshot `v`, if it is one (`Some(None)`: it captured
/// no frame).
#[allow(clippy::option_option, reason = "outer: a snapshot at all; inner: the frame it captured, if any")]
pub(crate) fn snapshot_frame(vm: &Vm, v: Value) -> Option<Option<Frame<Value>>> {
    let cell = v.as_object()?.borrow(&vm.heap).data_of::<ContextSnapshot>(&CONTEXT_SNAPSHOT)?;
    Some(cell.borrow(&vm.heap).0)
}

fn variable_cell(vm: &Vm, o: js_gc::Gc<JsObject>) -> Option<js_gc::Gc<ContextVariable>> {
    o.borrow(&vm.heap).data_of(&CONTEXT_VARIABLE)
}

// SAFETY: the default value and the name are the edges.
unsafe impl Trace for ContextVariable {
    fn trace(&self, tracer: &mut Tracer) {
        self.default.trace(tracer);
        self.name.trace(tracer);
    }

    fn type_name() -> &'static str {
        "ContextVariable"
    }
}

/// The context variable behind an `AsyncLocalStorage` or
/// `AsyncContext.Variable`, with the variable's default value.
pub struct ContextVariable {
    /// The js-async-context variable.
    pub id: VariableId,
    /// `getStore()` answers `undefined` after `disable()` until the next
    /// `run`/`enterWith`.
    pub enabled: bool,
    /// `AsyncContext.Variable`'s `defaultValue`.
    pub default: Value,
    /// `AsyncContext.Variable`'s `name`.
    pub name: Value,
}

fn variable_of(vm: &Vm, this: Value) -> Option<(js_gc::Gc<JsObject>, VariableId)> {
    let o = this.as_object()?;
    Some((o, variable_cell(vm, o)?.borrow(&vm.heap).id))
}

fn new_variable(vm: &mut Vm, info: &CallInfo, default_proto: js_gc::Gc<JsObject>, name: &str) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        return Err(vm.type_error(&format!("Class constructor {name} cannot be invoked without 'new'")));
    };
    let key = PropertyKey::String(vm.names.prototype);
    let proto = get(vm, nt, key, Value::object(nt))?.as_object().unwrap_or(default_proto);
    // A proxy `new.target` may give a fresh object; the option getters run next.
    vm.keep_alive(Value::object(proto));
    let Ok(id) = vm.jobs.async_context.create_variable() else {
        return Err(vm.range_error("Too many async context variables"));
    };
    let (mut default, mut var_name) = (Value::UNDEFINED, Value::UNDEFINED);
    let options = info.arg(vm, 0);
    if let Some(o) = options.as_object() {
        let k = vm.key("defaultValue");
        default = get(vm, o, k, options)?;
        // Held while the `name` getter runs.
        vm.keep_alive(default);
        let k = vm.key("name");
        var_name = get(vm, o, k, options)?;
    }
    let state = ContextVariable { id, enabled: true, default, name: var_name };
    let o = vm.new_object_with_data(Some(proto), &CONTEXT_VARIABLE, state);
    Ok(Value::object(o))
}

/// Calls `callback(...args)` with `frame` current, restoring the previous
/// frame afterwards (on a throw too).
fn run_in(vm: &mut Vm, frame: Option<Frame<Value>>, callback: Value, args: &[Value]) -> JsResult<Value> {
    let mut host = vm.host();
    let mut scope = SwapScope::enter(&mut host, frame);
    call(&mut scope, callback, Value::UNDEFINED, args)
}

fn set_enabled(vm: &mut Vm, o: js_gc::Gc<JsObject>, enabled: bool) {
    if let Some(v) = variable_cell(vm, o) {
        v.borrow_mut(&mut vm.heap).enabled = enabled;
    }
}

/// `als.run(store, callback, ...args)` / `variable.run(value, fn, ...args)`.
fn run(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some((o, id)) = variable_of(vm, info.this) else {
        return Err(vm.type_error("run called on incompatible receiver"));
    };
    set_enabled(vm, o, true);
    let store = info.arg(vm, 0);
    let callback = info.arg(vm, 1);
    let args: Vec<Value> = info.args(vm).iter().skip(2).copied().collect();
    let frame = Frame::bind(vm.jobs.async_context.current(), &mut vm.heap, id, store);
    run_in(vm, Some(frame), callback, &args)
}

/// `als.exit(callback, ...args)`: runs without this storage's value.
fn exit(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some((_, id)) = variable_of(vm, info.this) else {
        return Err(vm.type_error("exit called on incompatible receiver"));
    };
    let callback = info.arg(vm, 0);
    let args: Vec<Value> = info.args(vm).iter().skip(1).copied().collect();
    let frame = vm.jobs.async_context.current().and_then(|f| f.without(&mut vm.heap, id));
    run_in(vm, frame, callback, &args)
}

/// `als.getStore()` / `variable.get()`.
fn get_store(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some((o, id)) = variable_of(vm, info.this) else {
        return Err(vm.type_error("getStore called on incompatible receiver"));
    };
    let (enabled, default) = variable_cell(vm, o).map_or((false, Value::UNDEFINED), |v| {
        let v = v.borrow(&vm.heap);
        (v.enabled, v.default)
    });
    if !enabled {
        return Ok(Value::UNDEFINED);
    }
    Ok(vm.jobs.async_context.get(&vm.heap, id).unwrap_or(default))
}

/// `als.enterWith(store)`: the rest of the current synchronous execution
/// (and what it schedules) sees `store`.
fn enter_with(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some((o, id)) = variable_of(vm, info.this) else {
        return Err(vm.type_error("enterWith called on incompatible receiver"));
    };
    set_enabled(vm, o, true);
    let store = info.arg(vm, 0);
    let frame = Frame::bind(vm.jobs.async_context.current(), &mut vm.heap, id, store);
    vm.jobs.async_context.enter_with(Some(frame));
    Ok(Value::UNDEFINED)
}

fn disable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if let Some((o, _)) = variable_of(vm, info.this) {
        set_enabled(vm, o, false);
    }
    Ok(Value::UNDEFINED)
}

fn variable_name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some((o, _)) = variable_of(vm, info.this) else {
        return Err(vm.type_error("name called on incompatible receiver"));
    };
    Ok(variable_cell(vm, o).map_or(Value::UNDEFINED, |v| v.borrow(&vm.heap).name))
}

/// The frame a snapshot captured, kept in a function's data.
fn captured_frame(data: Value) -> Option<Frame<Value>> {
    data.as_cell().and_then(Frame::from_any)
}

/// A function that runs `fn(...args)` in the frame current now
/// (`AsyncLocalStorage.snapshot()`).
fn snapshot(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    let frame = vm.jobs.async_context.current().map_or(Value::UNDEFINED, |f| Value::internal(f.as_any()));
    let data = capture(vm, vec![frame]);
    Ok(Value::object(native_function_with_data(vm, "runInAsyncScope", 1, run_snapshot, data)))
}

fn run_snapshot(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let frame = captured_frame(captured_value(vm, info, 0));
    let callback = info.arg(vm, 0);
    let args: Vec<Value> = info.args(vm).iter().skip(1).copied().collect();
    run_in(vm, frame, callback, &args)
}

/// `AsyncLocalStorage.bind(fn)` / `AsyncContext.Snapshot.wrap(fn)`.
fn bind(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let frame = vm.jobs.async_context.current().map_or(Value::UNDEFINED, |f| Value::internal(f.as_any()));
    let callback = info.arg(vm, 0);
    if !crate::abstract_ops::is_callable(vm, callback) {
        return Err(vm.type_error("The \"fn\" argument must be of type function"));
    }
    let data = capture(vm, vec![frame, callback]);
    Ok(Value::object(native_function_with_data(vm, "bound", 0, run_bound, data)))
}

fn run_bound(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let frame = captured_frame(captured_value(vm, info, 0));
    let callback = captured_value(vm, info, 1);
    let args = info.args(vm);
    let mut host = vm.host();
    let mut scope = SwapScope::enter(&mut host, frame);
    call(&mut scope, callback, info.this, &args)
}

fn als_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let proto = vm.runtime.host_objects.async_local_storage_prototype.unwrap_or(vm.realm.intrinsics.object_prototype);
    new_variable(vm, info, proto, "AsyncLocalStorage")
}

fn variable_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let proto = vm.runtime.host_objects.variable_prototype.unwrap_or(vm.realm.intrinsics.object_prototype);
    new_variable(vm, info, proto, "Variable")
}

/// `new AsyncContext.Snapshot()`: captures the current frame.
fn snapshot_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        return Err(vm.type_error("Class constructor Snapshot cannot be invoked without 'new'"));
    };
    let key = PropertyKey::String(vm.names.prototype);
    let default = vm.runtime.host_objects.snapshot_prototype.unwrap_or(vm.realm.intrinsics.object_prototype);
    let proto = get(vm, nt, key, Value::object(nt))?.as_object().unwrap_or(default);
    let frame = vm.jobs.async_context.current();
    Ok(Value::object(new_snapshot(vm, Some(proto), frame)))
}

/// `snapshot.run(fn, ...args)`.
fn snapshot_run(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(frame) = snapshot_frame(vm, info.this) else {
        return Err(vm.type_error("Snapshot.prototype.run called on incompatible receiver"));
    };
    let callback = info.arg(vm, 0);
    let args: Vec<Value> = info.args(vm).iter().skip(1).copied().collect();
    run_in(vm, frame, callback, &args)
}

/// The `node:async_hooks` module object.
pub(crate) fn async_hooks_module(vm: &mut Vm) -> Value {
    if let Some(m) = vm.runtime.host_objects.async_hooks {
        return Value::object(m);
    }
    let module = vm.new_plain_object();
    let proto = vm.new_plain_object();
    vm.runtime.host_objects.async_local_storage_prototype = Some(proto);
    let ctor = crate::builtins::native_function(vm, "AsyncLocalStorage", 0, als_ctor, true);
    link_constructor(vm, ctor, proto);
    for (name, length, f) in [
        ("run", 2, run as crate::function::NativeFn),
        ("exit", 1, exit),
        ("getStore", 0, get_store),
        ("enterWith", 1, enter_with),
        ("disable", 0, disable),
    ] {
        method(vm, proto, name, length, f);
    }
    method(vm, ctor, "snapshot", 0, snapshot);
    method(vm, ctor, "bind", 1, bind);
    let key = vm.key("AsyncLocalStorage");
    let _ = crate::object::internal_methods::create_data_property_or_throw(vm, module, key, Value::object(ctor));
    vm.runtime.host_objects.async_hooks = Some(module);
    Value::object(module)
}

fn link_constructor(vm: &mut Vm, ctor: js_gc::Gc<JsObject>, proto: js_gc::Gc<JsObject>) {
    use crate::object::Attributes;
    use crate::object::internal_methods::define_builtin;
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, ctor, proto_key, Value::object(proto), Attributes::NONE);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, proto, ctor_key, Value::object(ctor), Attributes::METHOD);
}

/// Installs `AsyncContext` (TC39).
pub(crate) fn install(vm: &mut Vm) {
    let global = vm.realm.global;
    let namespace = vm.new_plain_object();
    crate::builtins::value_property(
        vm,
        global,
        "AsyncContext",
        Value::object(namespace),
        crate::object::Attributes::METHOD,
    );
    let variable_proto = vm.new_plain_object();
    vm.runtime.host_objects.variable_prototype = Some(variable_proto);
    let variable = crate::builtins::native_function(vm, "Variable", 1, variable_ctor, true);
    link_constructor(vm, variable, variable_proto);
    method(vm, variable_proto, "run", 2, run);
    method(vm, variable_proto, "get", 0, get_store);
    let name_key = vm.key("name");
    crate::builtins::accessor_property(vm, variable_proto, name_key, "name", Some(variable_name), None);
    let snapshot_proto = vm.new_plain_object();
    vm.runtime.host_objects.snapshot_prototype = Some(snapshot_proto);
    let snapshot_class = crate::builtins::native_function(vm, "Snapshot", 0, snapshot_ctor, true);
    link_constructor(vm, snapshot_class, snapshot_proto);
    method(vm, snapshot_proto, "run", 1, snapshot_run);
    method(vm, snapshot_class, "wrap", 1, bind);
    for (name, value) in [("Variable", variable), ("Snapshot", snapshot_class)] {
        let key = vm.key(name);
        let _ =
            crate::object::internal_methods::create_data_property_or_throw(vm, namespace, key, Value::object(value));
    }
}
