//! `AbortController` (DOM §3.1): owns an AbortSignal and aborts it.

use js_gc::{Gc, Trace, Tracer};

use crate::builtins::constructor;
use crate::host::abort_signal::{create_signal, signal_abort};
use crate::host::{webidl_attribute, webidl_operation, webidl_to_string_tag};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::{DataClass, JsObject};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// An `AbortController`: its slots are its signal.
static ABORT_CONTROLLER: DataClass = DataClass::plain::<AbortControllerSlots>("AbortController");

/// An `AbortController`'s one slot.
struct AbortControllerSlots {
    /// `[[signal]]`.
    signal: Gc<JsObject>,
}

// SAFETY: the signal is the one edge.
unsafe impl Trace for AbortControllerSlots {
    fn trace(&self, tracer: &mut Tracer) {
        self.signal.trace(tracer);
    }

    fn type_name() -> &'static str {
        "AbortController"
    }
}

/// `new AbortController()`: with a new signal.
fn abort_controller_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor AbortController cannot be invoked without 'new'"));
    };
    let fallback = vm.runtime.host_objects.abort_controller_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    let signal = create_signal(vm);
    Ok(Value::object(vm.new_object_with_data(Some(proto), &ABORT_CONTROLLER, AbortControllerSlots { signal })))
}

/// The signal of the controller `this` names, or a `TypeError`.
fn this_signal(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    let slots =
        info.this.as_object().and_then(|o| o.borrow(&vm.heap).data_of::<AbortControllerSlots>(&ABORT_CONTROLLER));
    match slots {
        Some(slots) => Ok(slots.borrow(&vm.heap).signal),
        None => Err(vm.type_error("Value of \"this\" must be of type AbortController")),
    }
}

/// `get AbortController.prototype.signal`.
fn signal_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    this_signal(vm, info).map(Value::object)
}

/// `AbortController.prototype.abort(reason)`: signal abort.
fn abort(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let signal = this_signal(vm, info)?;
    let reason = info.arg(vm, 0);
    signal_abort(vm, signal, reason)?;
    Ok(Value::UNDEFINED)
}

/// Installs the `AbortController` global.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.abort_controller_prototype = Some(proto);
    constructor(vm, "AbortController", 0, abort_controller_ctor, proto);
    webidl_attribute(vm, proto, "signal", signal_getter, None);
    webidl_operation(vm, proto, "abort", 0, abort);
    webidl_to_string_tag(vm, proto, "AbortController");
}
