//! DisposeCapability Records and the disposable-resource operations of
//! explicit resource management (ECMA-262 2026 §9.4.x:
//! `AddDisposableResource`, `CreateDisposableResource`, `GetDisposeMethod`,
//! `DisposeResources`).
//!
//! One [`DisposeCapability`] cell holds the resources of a block with
//! `using` declarations (in a register of the running frame) or of a
//! `DisposableStack`/`AsyncDisposableStack`. `DisposeResources` may `Await`
//! between resources, so it runs as steps: [`dispose_step`] disposes
//! resources until one needs an `Await` (or none is left), the caller
//! awaits the value it returns (the interpreter with its `Await`
//! instruction, `disposeAsync` with promise reactions) and hands the outcome
//! to [`record_awaited`], then steps again. The completion being carried
//! (a pending throw) and the `needsAwait`/`hasAwaited` flags live in the
//! cell, so nothing is held on the native stack across a call into JS.
//!
//! <https://tc39.es/ecma262/#sec-disposeresources>

use js_gc::{Gc, Trace, Tracer};

use crate::object::PropertyKey;
use crate::object::internal_methods::{call, get_method};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// A resource's `[[Hint]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// `sync-dispose`: `using`, `DisposableStack`.
    Sync,
    /// `async-dispose`: `await using`, `AsyncDisposableStack`.
    Async,
}

/// How the resource's `[[DisposeMethod]]` is called. The spec wraps two
/// cases in built-in closures no script can reach; here they are flags on
/// the record instead of function objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CallShape {
    /// `Call(method, value)`.
    Method,
    /// `adopt`'s closure: `Call(onDispose, undefined, « value »)`.
    Adopted,
    /// `GetDisposeMethod`'s async wrapper of a `@@dispose` method: calls it
    /// on the value, and the result awaited is a promise resolved with
    /// `undefined` (or rejected with what the method threw).
    SyncAsAsync,
}

/// A DisposableResource Record.
#[derive(Clone, Copy, Debug)]
struct DisposableResource {
    /// `[[ResourceValue]]`.
    value: Value,
    /// `[[DisposeMethod]]`; `undefined` for a `null`/`undefined` value of
    /// an `await using` declaration.
    method: Value,
    /// `[[Hint]]`.
    hint: Hint,
    shape: CallShape,
}

/// A DisposeCapability Record, with the state of a `DisposeResources` in
/// progress.
#[derive(Debug, Default)]
pub struct DisposeCapability {
    /// `[[DisposableResourceStack]]`, the last added on top.
    resources: Vec<DisposableResource>,
    /// The completion `DisposeResources` carries: `Some` for a throw.
    error: Option<Value>,
    /// `needsAwait`.
    needs_await: bool,
    /// `hasAwaited`.
    has_awaited: bool,
}

// SAFETY: every resource's value and method, and the pending error.
unsafe impl Trace for DisposeCapability {
    fn trace(&self, tracer: &mut Tracer) {
        for resource in &self.resources {
            resource.value.trace(tracer);
            resource.method.trace(tracer);
        }
        self.error.trace(tracer);
    }

    fn type_name() -> &'static str {
        "DisposeCapability"
    }
}

/// `NewDisposeCapability()`.
pub(crate) fn new_dispose_capability(vm: &mut Vm) -> Gc<DisposeCapability> {
    vm.heap.alloc(DisposeCapability::default())
}

/// Moves the resources of `from` into a new capability (leaving `from`
/// empty): `DisposableStack.prototype.move`.
pub(crate) fn take_resources(vm: &mut Vm, from: Gc<DisposeCapability>) -> Gc<DisposeCapability> {
    let resources = std::mem::take(&mut from.borrow_mut(&mut vm.heap).resources);
    vm.heap.alloc(DisposeCapability { resources, ..DisposeCapability::default() })
}

/// `AddDisposableResource(disposeCapability, V, hint)` without a method:
/// `using`, `await using`, `use`.
pub(crate) fn add_disposable_resource(
    vm: &mut Vm,
    capability: Gc<DisposeCapability>,
    value: Value,
    hint: Hint,
) -> JsResult<()> {
    // CreateDisposableResource(V, hint).
    let resource = if value.is_nullish() {
        if hint == Hint::Sync {
            return Ok(());
        }
        DisposableResource { value: Value::UNDEFINED, method: Value::UNDEFINED, hint, shape: CallShape::Method }
    } else {
        if !value.is_object() {
            return Err(vm.type_error("using declarations can only be used with objects, null, or undefined"));
        }
        let (method, shape) = get_dispose_method(vm, value, hint)?;
        let Some(method) = method else {
            let message = match hint {
                Hint::Sync => "Object not disposable: it has no [Symbol.dispose] method",
                Hint::Async => {
                    "Object not async disposable: it has no [Symbol.asyncDispose] or [Symbol.dispose] method"
                }
            };
            return Err(vm.type_error(message));
        };
        DisposableResource { value, method, hint, shape }
    };
    capability.borrow_mut(&mut vm.heap).resources.push(resource);
    Ok(())
}

/// `AddDisposableResource(disposeCapability, undefined, hint, F)` for
/// `adopt(value, onDispose)` (`adopted`) and `defer(onDispose)`: `method`
/// is known callable.
pub(crate) fn add_dispose_callback(
    vm: &mut Vm,
    capability: Gc<DisposeCapability>,
    method: Value,
    adopted: Option<Value>,
    hint: Hint,
) {
    let resource = match adopted {
        Some(value) => DisposableResource { value, method, hint, shape: CallShape::Adopted },
        None => DisposableResource { value: Value::UNDEFINED, method, hint, shape: CallShape::Method },
    };
    capability.borrow_mut(&mut vm.heap).resources.push(resource);
}

/// `GetDisposeMethod(V, hint)`, with how the method is to be called.
fn get_dispose_method(vm: &mut Vm, value: Value, hint: Hint) -> JsResult<(Option<Value>, CallShape)> {
    if hint == Hint::Async {
        let key = PropertyKey::Symbol(vm.symbols.async_dispose);
        if let Some(method) = get_method(vm, value, key)? {
            return Ok((Some(method), CallShape::Method));
        }
        let key = PropertyKey::Symbol(vm.symbols.dispose);
        return Ok((get_method(vm, value, key)?, CallShape::SyncAsAsync));
    }
    let key = PropertyKey::Symbol(vm.symbols.dispose);
    Ok((get_method(vm, value, key)?, CallShape::Method))
}

/// What one run of [`dispose_step`] ended with.
#[derive(Clone, Copy, Debug)]
pub(crate) enum DisposeStep {
    /// Every resource is disposed: the completion is in the capability
    /// (see [`finish_disposal`]).
    Done,
    /// `Await(value)` comes next; its outcome goes to [`record_awaited`].
    Await(Value),
}

/// Starts `DisposeResources(disposeCapability, completion)`: `error` is the
/// value of a throw completion.
pub(crate) fn begin_disposal(vm: &mut Vm, capability: Gc<DisposeCapability>, error: Option<Value>) {
    let c = capability.borrow_mut(&mut vm.heap);
    c.error = error;
    c.needs_await = false;
    c.has_awaited = false;
}

/// Runs `DisposeResources` (§ step 3) until it must `Await` or is done.
pub(crate) fn dispose_step(vm: &mut Vm, capability: Gc<DisposeCapability>) -> JsResult<DisposeStep> {
    loop {
        let (top, needs_pre_await) = {
            let c = capability.borrow(&vm.heap);
            let top = c.resources.last().copied();
            let pending = c.needs_await && !c.has_awaited;
            (top, pending && top.is_none_or(|r| r.hint == Hint::Sync))
        };
        if needs_pre_await {
            // Step 3.d (a sync resource after a null async one) or step 4:
            // `Await(undefined)`.
            capability.borrow_mut(&mut vm.heap).needs_await = false;
            return Ok(DisposeStep::Await(Value::UNDEFINED));
        }
        let Some(resource) = top else { return Ok(DisposeStep::Done) };
        capability.borrow_mut(&mut vm.heap).resources.pop();
        if resource.method.is_undefined() {
            capability.borrow_mut(&mut vm.heap).needs_await = true;
            continue;
        }
        let result = match resource.shape {
            CallShape::Method => call(vm, resource.method, resource.value, &[]),
            CallShape::Adopted => call(vm, resource.method, Value::UNDEFINED, &[resource.value]),
            CallShape::SyncAsAsync => match call(vm, resource.method, resource.value, &[]) {
                Ok(_) => Ok(Value::UNDEFINED),
                Err(Exception::Throw(error)) => {
                    capability.borrow_mut(&mut vm.heap).has_awaited = true;
                    return Ok(DisposeStep::Await(rejected_promise(vm, error)));
                }
                Err(e) => Err(e),
            },
        };
        match result {
            Ok(value) if resource.hint == Hint::Async => {
                capability.borrow_mut(&mut vm.heap).has_awaited = true;
                return Ok(DisposeStep::Await(value));
            }
            Ok(_) => {}
            Err(Exception::Throw(error)) => record_error(vm, capability, error),
            Err(e) => return Err(e),
        }
    }
}

/// A promise rejected with `reason`: what the spec's async wrapper of a
/// `@@dispose` method returns when the method throws.
fn rejected_promise(vm: &mut Vm, reason: Value) -> Value {
    let proto = vm.realm.intrinsics.promise_prototype;
    let promise = crate::promise::new_promise_with_proto(vm, proto);
    js_promise::promise_reject_function(&mut vm.host(), promise, reason);
    Value::object(promise)
}

/// Takes the outcome of the `Await` a [`DisposeStep::Await`] asked for:
/// a rejection is a throw completion of the disposal.
pub(crate) fn record_awaited(vm: &mut Vm, capability: Gc<DisposeCapability>, outcome: Result<Value, Value>) {
    if let Err(error) = outcome {
        record_error(vm, capability, error);
    }
}

/// Step 3.e.iii: a disposal threw `error`. A throw completion already
/// carried becomes a SuppressedError's `suppressed`.
fn record_error(vm: &mut Vm, capability: Gc<DisposeCapability>, error: Value) {
    let carried = capability.borrow(&vm.heap).error;
    let error = match carried {
        Some(suppressed) => Value::object(super::suppressed_error::new_suppressed_error(vm, error, suppressed)),
        None => error,
    };
    capability.borrow_mut(&mut vm.heap).error = Some(error);
}

/// Ends `DisposeResources`: `Err` with the carried throw completion.
pub(crate) fn finish_disposal(vm: &mut Vm, capability: Gc<DisposeCapability>) -> JsResult<()> {
    let c = capability.borrow_mut(&mut vm.heap);
    c.resources.clear();
    match c.error.take() {
        Some(error) => Err(Exception::Throw(error)),
        None => Ok(()),
    }
}

/// `DisposeResources(disposeCapability, NormalCompletion(undefined))` for
/// a capability holding only `sync-dispose` resources, which never awaits
/// (`DisposableStack.prototype.dispose`).
pub(crate) fn dispose_resources_sync(vm: &mut Vm, capability: Gc<DisposeCapability>) -> JsResult<()> {
    begin_disposal(vm, capability, None);
    while let DisposeStep::Await(_) = dispose_step(vm, capability)? {
        // A sync-dispose resource never asks for an Await; were one there,
        // its outcome would be ignored like an un-awaited value.
    }
    finish_disposal(vm, capability)
}
