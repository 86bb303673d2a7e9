//! The engine's side of js-promise and js-microtask: [`Vm`] as a
//! [`PromiseHost`], promise cells, resolving-function objects and the
//! microtask drain.
//!
//! Promises are ordinary objects of kind [`ObjectKind::Promise`] whose cell
//! embeds the crate's [`PromiseState`]; the crate's algorithms do the rest.

mod host;
mod microtasks;
mod realm_state;

use js_gc::{Gc, GcAny, Trace, Tracer};
use js_promise::{PromiseState, PromiseValue, ResolvingFunction};

pub use microtasks::{
    ASYNC_GENERATOR_AWAIT_RETURN, DYNAMIC_IMPORT, DYNAMIC_IMPORT_SETTLED, MODULE_ASYNC_SETTLED,
    PROMISE_COMBINATOR_ELEMENT, RESUME_ASYNC_FUNCTION,
};
pub use realm_state::PromiseRealmState;

use crate::object::{JsObject, ObjectKind};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `[[PromiseState]]` and friends, embedded in a promise object's cell.
pub type PromiseSlots = PromiseState<Value, Gc<JsObject>>;

impl PromiseValue for Value {
    fn undefined() -> Self {
        Value::UNDEFINED
    }

    fn from_cell(cell: GcAny) -> Self {
        Value::internal(cell)
    }

    fn as_cell(self) -> Option<GcAny> {
        Value::as_cell(self)
    }
}

/// The data of a resolving function object: which promise, which
/// generation, resolve or reject.
pub struct ResolvingData(pub ResolvingFunction<Gc<JsObject>>);

// SAFETY: the promise is the only pointer.
unsafe impl Trace for ResolvingData {
    fn trace(&self, tracer: &mut Tracer) {
        self.0.trace(tracer);
    }

    fn type_name() -> &'static str {
        "ResolvingFunction"
    }
}

/// `value` as a native promise (`IsPromise`).
pub fn as_promise(vm: &Vm, value: Value) -> Option<Gc<JsObject>> {
    value.as_object().filter(|o| matches!(o.borrow(&vm.heap).kind, ObjectKind::Promise(_)))
}

/// A new pending promise whose prototype is `proto`.
pub fn new_promise_with_proto(vm: &mut Vm, proto: Gc<JsObject>) -> Gc<JsObject> {
    vm.new_object_of_kind(Some(proto), ObjectKind::Promise(PromiseState::new()))
}

/// The body of every resolving function object: runs the crate's
/// resolution with the argument.
pub(crate) fn resolving_function_call(vm: &mut Vm, info: &crate::interpreter::CallInfo) -> JsResult<Value> {
    let Some(data) = info.data(vm).as_internal::<ResolvingData>() else { return Ok(Value::UNDEFINED) };
    let function = data.borrow(&vm.heap).0;
    let argument = info.arg(vm, 0);
    js_promise::call_resolving_function(&mut vm.host(), function, argument);
    vm.take_termination()?;
    Ok(Value::UNDEFINED)
}
