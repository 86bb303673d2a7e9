//! `SuppressedError` (ECMA-262 2026 §20.5.8): the error a disposal throws
//! when an earlier error is still propagating.
//!
//! <https://tc39.es/ecma262/#sec-suppressederror-objects>

use js_gc::Gc;

use super::error::{create_error_with_message, install_stack};
use super::{constructor, value_property};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{define_builtin, get};
use crate::object::{Attributes, JsObject, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Defines the non-enumerable `error` and `suppressed` properties.
fn define_error_and_suppressed(vm: &mut Vm, obj: Gc<JsObject>, error: Value, suppressed: Value) {
    let key = vm.key("error");
    define_builtin(vm, obj, key, error, Attributes::METHOD);
    let key = vm.key("suppressed");
    define_builtin(vm, obj, key, suppressed, Attributes::METHOD);
}

/// "A newly created SuppressedError object" of `DisposeResources`: no
/// `message`, `error` and `suppressed` as given.
pub(crate) fn new_suppressed_error(vm: &mut Vm, error: Value, suppressed: Value) -> Gc<JsObject> {
    let proto = vm.realm.intrinsics.suppressed_error_prototype;
    let site = vm.current_site();
    let obj = vm.new_object_of_kind(Some(proto), ObjectKind::Error { stack: Value::UNDEFINED, site });
    define_error_and_suppressed(vm, obj, error, suppressed);
    install_stack(vm, obj, "SuppressedError", "");
    obj
}

/// `SuppressedError(error, suppressed, message)` (§20.5.8.1.1).
fn suppressed_error_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (obj, message_text) = create_error_with_message(vm, info, |i| i.suppressed_error_prototype, 2)?;
    let (error, suppressed) = (info.arg(vm, 0), info.arg(vm, 1));
    define_error_and_suppressed(vm, obj, error, suppressed);
    // The `stack` header names the error as `Error.prototype.toString`
    // would; reading `name` is what V8 does too.
    let name_key = PropertyKey::String(vm.names.name);
    let name = get(vm, obj, name_key, Value::object(obj))?;
    let name_text = if name.is_string() {
        name.as_string().map(|s| crate::interpreter::string_text(vm, s)).unwrap_or_default()
    } else {
        "SuppressedError".to_owned()
    };
    install_stack(vm, obj, &name_text, &message_text);
    Ok(Value::object(obj))
}

/// Installs `SuppressedError` and its prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.suppressed_error_prototype;
    let ctor = constructor(vm, "SuppressedError", 3, suppressed_error_ctor, proto);
    // %SuppressedError%'s [[Prototype]] is %Error%.
    let error_proto = vm.realm.intrinsics.error_prototype;
    let ctor_key = PropertyKey::String(vm.names.constructor);
    let error_ctor = crate::object::internal_methods::get_own_property(vm, error_proto, ctor_key)
        .ok()
        .flatten()
        .and_then(|desc| desc.value)
        .and_then(Value::as_object);
    if let Some(error_ctor) = error_ctor {
        ctor.borrow_mut(&mut vm.heap).proto = Some(error_ctor);
    }
    let name = vm.string("SuppressedError");
    value_property(vm, proto, "name", name, Attributes::METHOD);
    let empty = vm.string("");
    value_property(vm, proto, "message", empty, Attributes::METHOD);
}
