//! `AsyncDisposableStack` (ECMA-262 2026 §27.4) and
//! `%AsyncIteratorPrototype%[@@asyncDispose]` (§27.1.5.x).
//!
//! `disposeAsync` runs `DisposeResources` as a state machine over the
//! stack's capability (see [`super::dispose_capability`]): each `Await` it
//! asks for hooks a pair of native reactions onto the awaited promise, and
//! the reaction runs the next step, so nothing waits on the native stack.
//!
//! <https://tc39.es/ecma262/#sec-asyncdisposablestack-objects>

use js_gc::{Gc, Trace, Tracer};
use js_promise::{PromiseCapability, perform_promise_then, promise_reject_function, promise_resolve_function};

use super::disposable_stack::{disposed_error, mark_disposed, new_stack_object, this_stack};
use super::dispose_capability::{
    DisposeCapability, DisposeStep, Hint, add_disposable_resource, add_dispose_callback, begin_disposal, dispose_step,
    finish_disposal, new_dispose_capability, record_awaited, take_resources,
};
use super::{accessor_property, constructor, method, native_function, native_function_with_data};
use crate::abstract_ops::is_callable;
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{call, define_builtin, get_method};
use crate::object::{Attributes, JsObject, PropertyKey};
use crate::promise::new_promise_with_proto;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// A `disposeAsync` call in progress: its promise and the capability
/// being disposed.
pub struct DisposeAsyncState {
    promise: Gc<JsObject>,
    capability: Gc<DisposeCapability>,
}

// SAFETY: the promise and the capability.
unsafe impl Trace for DisposeAsyncState {
    fn trace(&self, tracer: &mut Tracer) {
        self.promise.trace(tracer);
        self.capability.trace(tracer);
    }

    fn type_name() -> &'static str {
        "DisposeAsyncState"
    }
}

/// `new AsyncDisposableStack()` (§27.4.1.1).
fn async_disposable_stack_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Constructor AsyncDisposableStack requires 'new'"));
    };
    let proto = prototype_from_constructor(vm, new_target, |i| i.async_disposable_stack_prototype)?;
    let capability = new_dispose_capability(vm);
    Ok(Value::object(new_stack_object(vm, proto, capability, true)))
}

/// The stack for a method that adds resources: TypeError for another
/// receiver, ReferenceError once disposed.
fn pending_stack(vm: &mut Vm, this: Value, method: &str) -> JsResult<Gc<DisposeCapability>> {
    let (_, capability, disposed) = this_stack(vm, this, true, method)?;
    if disposed {
        return Err(disposed_error(vm, "AsyncDisposableStack"));
    }
    Ok(capability)
}

/// `AsyncDisposableStack.prototype.adopt(value, onDisposeAsync)`.
fn adopt(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "adopt")?;
    let (value, on_dispose) = (info.arg(vm, 0), info.arg(vm, 1));
    if !is_callable(vm, on_dispose) {
        return Err(vm.type_error("AsyncDisposableStack.prototype.adopt: onDisposeAsync is not a function"));
    }
    add_dispose_callback(vm, capability, on_dispose, Some(value), Hint::Async);
    Ok(value)
}

/// `AsyncDisposableStack.prototype.defer(onDisposeAsync)`.
fn defer(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "defer")?;
    let on_dispose = info.arg(vm, 0);
    if !is_callable(vm, on_dispose) {
        return Err(vm.type_error("AsyncDisposableStack.prototype.defer: onDisposeAsync is not a function"));
    }
    add_dispose_callback(vm, capability, on_dispose, None, Hint::Async);
    Ok(Value::UNDEFINED)
}

/// `AsyncDisposableStack.prototype.disposeAsync()`, also its
/// `@@asyncDispose`: a promise for the disposal of every resource.
fn dispose_async(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = new_promise_with_proto(vm, proto);
    vm.keep_alive(Value::object(promise));
    let (stack, capability, disposed) = match this_stack(vm, info.this, true, "disposeAsync") {
        Ok(found) => found,
        Err(Exception::Throw(error)) => {
            promise_reject_function(&mut vm.host(), promise, error);
            return Ok(Value::object(promise));
        }
        Err(e) => return Err(e),
    };
    if disposed {
        promise_resolve_function(&mut vm.host(), promise, Value::UNDEFINED);
        return Ok(Value::object(promise));
    }
    mark_disposed(vm, stack, None);
    let state = vm.heap.alloc(DisposeAsyncState { promise, capability });
    vm.keep_alive(Value::internal(state.into()));
    begin_disposal(vm, capability, None);
    run(vm, state)?;
    Ok(Value::object(promise))
}

/// Steps the disposal until it awaits (hooking the reactions) or ends
/// (settling the promise).
fn run(vm: &mut Vm, state: Gc<DisposeAsyncState>) -> JsResult<()> {
    let (promise, capability) = {
        let s = state.borrow(&vm.heap);
        (s.promise, s.capability)
    };
    loop {
        match dispose_step(vm, capability)? {
            DisposeStep::Await(value) => match js_promise::promise_resolve(&mut vm.host(), value) {
                Ok(awaited) => {
                    vm.keep_alive(Value::object(awaited));
                    let data = Value::internal(state.into());
                    let on_fulfilled = Value::object(native_function_with_data(vm, "", 1, on_fulfilled, data));
                    vm.keep_alive(on_fulfilled);
                    let on_rejected = Value::object(native_function_with_data(vm, "", 1, on_rejected, data));
                    vm.keep_alive(on_rejected);
                    perform_promise_then(
                        &mut vm.host(),
                        awaited,
                        on_fulfilled,
                        on_rejected,
                        PromiseCapability::Undefined,
                    );
                    return Ok(());
                }
                Err(thrown) => {
                    vm.take_termination()?;
                    record_awaited(vm, capability, Err(thrown));
                }
            },
            DisposeStep::Done => {
                match finish_disposal(vm, capability) {
                    Ok(()) => promise_resolve_function(&mut vm.host(), promise, Value::UNDEFINED),
                    Err(Exception::Throw(error)) => promise_reject_function(&mut vm.host(), promise, error),
                    Err(e) => return Err(e),
                }
                return Ok(());
            }
        }
    }
}

/// The await's fulfilment reaction.
fn on_fulfilled(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    resume(vm, info, Ok(Value::UNDEFINED))
}

/// The await's rejection reaction.
fn on_rejected(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let reason = info.arg(vm, 0);
    resume(vm, info, Err(reason))
}

/// Records the awaited outcome and runs the next steps.
fn resume(vm: &mut Vm, info: &CallInfo, outcome: Result<Value, Value>) -> JsResult<Value> {
    let Some(state) = info.data(vm).as_internal::<DisposeAsyncState>() else { return Ok(Value::UNDEFINED) };
    let capability = state.borrow(&vm.heap).capability;
    record_awaited(vm, capability, outcome);
    match run(vm, state) {
        Ok(()) => {}
        Err(Exception::Throw(error)) => {
            // Only a broken promise machinery gets here; the disposal's own
            // errors were recorded in the capability.
            let promise = state.borrow(&vm.heap).promise;
            promise_reject_function(&mut vm.host(), promise, error);
        }
        Err(e) => return Err(e),
    }
    Ok(Value::UNDEFINED)
}

/// `get AsyncDisposableStack.prototype.disposed`.
fn get_disposed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (_, _, disposed) = this_stack(vm, info.this, true, "disposed")?;
    Ok(Value::boolean(disposed))
}

/// `AsyncDisposableStack.prototype.move()`: a new
/// `%AsyncDisposableStack%` takes the resources.
fn move_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "move")?;
    let Some(stack) = info.this.as_object() else { return Ok(Value::UNDEFINED) };
    let moved = take_resources(vm, capability);
    let proto = vm.realm.intrinsics.async_disposable_stack_prototype;
    let new_stack = new_stack_object(vm, proto, moved, true);
    mark_disposed(vm, stack, None);
    Ok(Value::object(new_stack))
}

/// `AsyncDisposableStack.prototype.use(value)`.
fn use_(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let capability = pending_stack(vm, info.this, "use")?;
    let value = info.arg(vm, 0);
    add_disposable_resource(vm, capability, value, Hint::Async)?;
    Ok(value)
}

/// `%AsyncIteratorPrototype%[@@asyncDispose]()`: a promise for the
/// iterator's `return()` (its value dropped; test262 checks it gets no
/// argument).
fn async_iterator_dispose(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = new_promise_with_proto(vm, proto);
    vm.keep_alive(Value::object(promise));
    let key = PropertyKey::String(vm.names.return_);
    let called = get_method(vm, info.this, key).and_then(|m| match m {
        Some(return_method) => call(vm, return_method, info.this, &[]).map(Some),
        None => Ok(None),
    });
    let result = match called {
        Ok(Some(result)) => result,
        Ok(None) => {
            promise_resolve_function(&mut vm.host(), promise, Value::UNDEFINED);
            return Ok(Value::object(promise));
        }
        Err(Exception::Throw(error)) => {
            promise_reject_function(&mut vm.host(), promise, error);
            return Ok(Value::object(promise));
        }
        Err(e) => return Err(e),
    };
    let wrapper = match js_promise::promise_resolve(&mut vm.host(), result) {
        Ok(wrapper) => wrapper,
        Err(thrown) => {
            vm.take_termination()?;
            promise_reject_function(&mut vm.host(), promise, thrown);
            return Ok(Value::object(promise));
        }
    };
    vm.keep_alive(Value::object(wrapper));
    let rethrow = Value::object(native_function_with_data(vm, "", 1, reject_with, Value::object(promise)));
    vm.keep_alive(rethrow);
    let resolve = Value::object(native_function_with_data(vm, "", 1, resolve_undefined, Value::object(promise)));
    vm.keep_alive(resolve);
    // PerformPromiseThen(resultWrapper, unwrap, undefined, promiseCapability):
    // `unwrap` returns undefined, so the returned promise is fulfilled with
    // undefined or rejected with the wrapper's reason, in the same job.
    perform_promise_then(&mut vm.host(), wrapper, resolve, rethrow, PromiseCapability::Undefined);
    Ok(Value::object(promise))
}

/// Fulfils the promise in the data slot with `undefined`.
fn resolve_undefined(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if let Some(promise) = info.data(vm).as_object() {
        promise_resolve_function(&mut vm.host(), promise, Value::UNDEFINED);
    }
    Ok(Value::UNDEFINED)
}

/// Rejects the promise in the data slot with the argument.
fn reject_with(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let reason = info.arg(vm, 0);
    if let Some(promise) = info.data(vm).as_object() {
        promise_reject_function(&mut vm.host(), promise, reason);
    }
    Ok(Value::UNDEFINED)
}

/// Installs `AsyncDisposableStack` and
/// `%AsyncIteratorPrototype%[@@asyncDispose]`.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.async_disposable_stack_prototype;
    constructor(vm, "AsyncDisposableStack", 0, async_disposable_stack_ctor, proto);
    method(vm, proto, "adopt", 2, adopt);
    method(vm, proto, "defer", 1, defer);
    let dispose_fn = method(vm, proto, "disposeAsync", 0, dispose_async);
    let key = vm.key("disposed");
    accessor_property(vm, proto, key, "disposed", Some(get_disposed), None);
    method(vm, proto, "move", 0, move_);
    method(vm, proto, "use", 1, use_);
    let dispose_key = PropertyKey::Symbol(vm.symbols.async_dispose);
    define_builtin(vm, proto, dispose_key, Value::object(dispose_fn), Attributes::METHOD);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let text = vm.string("AsyncDisposableStack");
    define_builtin(vm, proto, tag, text, Attributes::CONFIGURABLE_ONLY);

    let async_iterator_proto = vm.realm.intrinsics.async_iterator_prototype;
    let f = native_function(vm, "[Symbol.asyncDispose]", 0, async_iterator_dispose, false);
    define_builtin(vm, async_iterator_proto, dispose_key, Value::object(f), Attributes::METHOD);
}
