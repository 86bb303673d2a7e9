//! `WritableStreamDefaultController`: `signal` and `error`. Not
//! constructible from script.

use js_streams::writable_stream_default_controller::{controller_error_method, writable_controller_signal};

use super::{VmStreamSlots, branded, idl_attribute, idl_method, to_string_tag};
use crate::builtins::constructor;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_controller(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::WritableStreamDefaultController(_))
}

/// `error(e)`.
fn error(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(controller) = branded(vm, info.this, is_controller) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    let e = info.arg(vm, 0);
    controller_error_method(&mut vm.host(), controller, e);
    Ok(Value::UNDEFINED)
}

/// `get signal`: the AbortSignal that `WritableStreamAbort` signals.
fn signal_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(controller) = branded(vm, info.this, is_controller) else {
        return Err(vm.type_error("Illegal invocation"));
    };
    Ok(writable_controller_signal(&mut vm.host(), controller))
}

/// Installs `WritableStreamDefaultController`.
pub(super) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.streams.writable_stream_default_controller = Some(proto);
    constructor(vm, "WritableStreamDefaultController", 0, crate::host::illegal_constructor, proto);
    idl_attribute(vm, proto, "signal", signal_getter);
    idl_method(vm, proto, "error", 0, error);
    to_string_tag(vm, proto, "WritableStreamDefaultController");
}
