//! `DisposableStack` (ECMA-262 2026 §27.3) and the data both disposable
//! stack kinds share, plus `%Iterator.prototype%[@@dispose]` (§27.1.4.x).
//!
//! <https://tc39.es/ecma262/#sec-disposablestack-objects>

use js_gc::{Gc, Trace, Tracer};

use super::dispose_capability::{
    DisposeCapability, Hint, add_disposable_resource, add_dispose_callback, dispose_resources_sync,
    new_dispose_capability, take_resources,
};
use super::{accessor_property, constructor, method, native_function};
use crate::abstract_ops::is_callable;
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{call, define_builtin, get_method};
use crate::object::{Attributes, DataClass, JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A DisposableStack or AsyncDisposableStack: its slots are a
/// [`DisposableStackData`] cell.
static DISPOSABLE_STACK: DataClass = DataClass::plain::<DisposableStackData>("DisposableStack");

fn stack_cell(vm: &Vm, o: Gc<JsObject>) -> Option<Gc<DisposableStackData>> {
    o.borrow(&vm.heap).data_of(&DISPOSABLE_STACK)
}

/// The slots of a DisposableStack or AsyncDisposableStack.
pub struct DisposableStackData {
    /// `[[DisposeCapability]]`.
    pub(crate) capability: Gc<DisposeCapability>,
    /// `[[DisposableState]]` (or `[[AsyncDisposableState]]`) is `disposed`.
    pub(crate) disposed: bool,
    /// Whether this is an AsyncDisposableStack (the two are different
    /// brands: each one's methods reject the other).
    pub(crate) asynchronous: bool,
}

// SAFETY: the capability is the only edge.
unsafe impl Trace for DisposableStackData {
    fn trace(&self, tracer: &mut Tracer) {
        self.capability.trace(tracer);
    }

    fn type_name() -> &'static str {
        "DisposableStackData"
    }
}

/// A new stack object with `proto`, pending, over `capability`.
pub(crate) fn new_stack_object(
    vm: &mut Vm,
    proto: Gc<JsObject>,
    capability: Gc<DisposeCapability>,
    asynchronous: bool,
) -> Gc<JsObject> {
    let data = DisposableStackData { capability, disposed: false, asynchronous };
    vm.new_object_with_data(Some(proto), &DISPOSABLE_STACK, data)
}

/// `RequireInternalSlot(this, [[DisposableState]])` (or
/// `[[AsyncDisposableState]]` when `asynchronous`): the stack object, its
/// capability and whether it is disposed.
pub(crate) fn this_stack(
    vm: &mut Vm,
    this: Value,
    asynchronous: bool,
    method: &str,
) -> JsResult<(Gc<JsObject>, Gc<DisposeCapability>, bool)> {
    if let Some(o) = this.as_object()
        && let Some(data) = stack_cell(vm, o).map(|cell| cell.borrow(&vm.heap))
        && data.asynchronous == asynchronous
    {
        return Ok((o, data.capability, data.disposed));
    }
    let brand = if asynchronous { "AsyncDisposableStack" } else { "DisposableStack" };
    Err(vm.type_error(&format!("Method {brand}.prototype.{method} called on incompatible receiver")))
}

/// Sets `[[DisposableState]]` to `disposed`, optionally swapping in
/// `capability`.
pub(crate) fn mark_disposed(vm: &mut Vm, stack: Gc<JsObject>, capability: Option<Gc<DisposeCapability>>) {
    if let Some(cell) = stack_cell(vm, stack) {
        let data = cell.borrow_mut(&mut vm.heap);
        data.disposed = true;
        if let Some(c) = capability {
            data.capability = c;
        }
    }
}

/// The ReferenceError of a method used on a disposed stack.
pub(crate) fn disposed_error(vm: &mut Vm, brand: &str) -> crate::vm::Exception {
    vm.reference_error(&format!("Cannot add a resource to a {brand} that is already disposed"))
}

/// `new DisposableStack()` (§27.3.1.1).
fn disposable_stack_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Constructor DisposableStack requires 'new'"));
    };
    let proto = prototype_from_constructor(vm, new_target, |i| i.disposable_stack_prototype)?;
    let capability = new_dispose_capability(vm);
    Ok(Value::object(new_stack_object(vm, proto, capability, false)))
}

/// The stack for a method that adds resources: TypeError for another
/// receiver, ReferenceError once disposed.
fn pending_stack(vm: &mut Vm, this: Value, method: &str) -> JsResult<Gc<DisposeCapability>> {
    let (_, capability, disposed) = this_stack(vm, this, false, method)?;
    if disposed {
        return Err(disposed_error(vm, "DisposableStack"));
    }
    Ok(capability)
}

/// `DisposableStack.prototype.adopt(value, onDispose)` (§27.3.3.1).
fn adopt(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "adopt")?;
    let (value, on_dispose) = (info.arg(vm, 0), info.arg(vm, 1));
    if !is_callable(vm, on_dispose) {
        return Err(vm.type_error("DisposableStack.prototype.adopt: onDispose is not a function"));
    }
    add_dispose_callback(vm, capability, on_dispose, Some(value), Hint::Sync);
    Ok(value)
}

/// `DisposableStack.prototype.defer(onDispose)` (§27.3.3.3).
fn defer(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "defer")?;
    let on_dispose = info.arg(vm, 0);
    if !is_callable(vm, on_dispose) {
        return Err(vm.type_error("DisposableStack.prototype.defer: onDispose is not a function"));
    }
    add_dispose_callback(vm, capability, on_dispose, None, Hint::Sync);
    Ok(Value::UNDEFINED)
}

/// `DisposableStack.prototype.dispose()` (§27.3.3.4), also its
/// `@@dispose`.
fn dispose(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (stack, capability, disposed) = this_stack(vm, info.this, false, "dispose")?;
    if disposed {
        return Ok(Value::UNDEFINED);
    }
    mark_disposed(vm, stack, None);
    dispose_resources_sync(vm, capability)?;
    Ok(Value::UNDEFINED)
}

/// `get DisposableStack.prototype.disposed` (§27.3.3.5).
fn get_disposed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (_, _, disposed) = this_stack(vm, info.this, false, "disposed")?;
    Ok(Value::boolean(disposed))
}

/// `DisposableStack.prototype.move()` (§27.3.3.6): a new
/// `%DisposableStack%` (never a subclass) takes the resources.
fn move_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "move")?;
    let Some(stack) = info.this.as_object() else { return Ok(Value::UNDEFINED) };
    let moved = take_resources(vm, capability);
    let proto = vm.realm.intrinsics.disposable_stack_prototype;
    let new_stack = new_stack_object(vm, proto, moved, false);
    mark_disposed(vm, stack, None);
    Ok(Value::object(new_stack))
}

/// `DisposableStack.prototype.use(value)` (§27.3.3.7).
fn use_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "use")?;
    let value = info.arg(vm, 0);
    add_disposable_resource(vm, capability, value, Hint::Sync)?;
    Ok(value)
}

/// `%Iterator.prototype%[@@dispose]()`: calls the iterator's `return`.
fn iterator_dispose(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let key = PropertyKey::String(vm.names.return_);
    if let Some(return_method) = get_method(vm, info.this, key)? {
        call(vm, return_method, info.this, &[])?;
    }
    Ok(Value::UNDEFINED)
}

/// Installs `DisposableStack` and `%Iterator.prototype%[@@dispose]`.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.disposable_stack_prototype;
    constructor(vm, "DisposableStack", 0, disposable_stack_ctor, proto);
    method(vm, proto, "adopt", 2, adopt);
    method(vm, proto, "defer", 1, defer);
    let dispose_fn = method(vm, proto, "dispose", 0, dispose);
    let key = vm.key("disposed");
    accessor_property(vm, proto, key, "disposed", Some(get_disposed), None);
    method(vm, proto, "move", 0, move_);
    method(vm, proto, "use", 1, use_);
    let dispose_key = PropertyKey::Symbol(vm.symbols.dispose);
    define_builtin(vm, proto, dispose_key, Value::object(dispose_fn), Attributes::METHOD);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let text = vm.string("DisposableStack");
    define_builtin(vm, proto, tag, text, Attributes::CONFIGURABLE_ONLY);

    let iterator_proto = vm.realm.intrinsics.iterator_prototype;
    let f = native_function(vm, "[Symbol.dispose]", 0, iterator_dispose, false);
    define_builtin(vm, iterator_proto, dispose_key, Value::object(f), Attributes::METHOD);
}
