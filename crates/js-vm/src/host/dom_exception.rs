//! `DOMException` (WebIDL §3.14.1), as Node exposes it: an error whose
//! prototype inherits from `Error.prototype`, with a `name`, a `message` and
//! the legacy numeric `code` of its name. The engine throws it for
//! `structuredClone`'s `DataCloneError`.
//!
//! Deviation: WebIDL keeps name and message in internal slots read by
//! prototype getters; here they are own non-enumerable data properties of
//! the instance, which reads the same through `e.name`/`e.message`.

use js_gc::Gc;

use crate::builtins::{accessor_property, constructor};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{define_builtin, get};
use crate::object::{Attributes, JsObject, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// The legacy error codes of the names that have one (WebIDL's
/// "DOMException names" table); other names have code 0.
const LEGACY_CODES: &[(&str, u16)] = &[
    ("IndexSizeError", 1),
    ("HierarchyRequestError", 3),
    ("WrongDocumentError", 4),
    ("InvalidCharacterError", 5),
    ("NoModificationAllowedError", 7),
    ("NotFoundError", 8),
    ("NotSupportedError", 9),
    ("InvalidStateError", 11),
    ("SyntaxError", 12),
    ("InvalidModificationError", 13),
    ("NamespaceError", 14),
    ("InvalidAccessError", 15),
    ("TypeMismatchError", 17),
    ("SecurityError", 18),
    ("NetworkError", 19),
    ("AbortError", 20),
    ("URLMismatchError", 21),
    ("QuotaExceededError", 22),
    ("TimeoutError", 23),
    ("InvalidNodeTypeError", 24),
    ("DataCloneError", 25),
];

/// A new DOMException with `message` and `name`, its prototype
/// `proto`, and a stack captured now.
fn create_dom_exception(vm: &mut Vm, proto: Gc<JsObject>, message: Value, name: Value) -> Gc<JsObject> {
    let site = vm.current_site();
    let object = vm.new_object_of_kind(Some(proto), ObjectKind::Error { stack: Value::UNDEFINED, site });
    let name_key = PropertyKey::String(vm.names.name);
    define_builtin(vm, object, name_key, name, Attributes::METHOD);
    let message_key = PropertyKey::String(vm.names.message);
    define_builtin(vm, object, message_key, message, Attributes::METHOD);
    let name_text = name.as_string().map(|s| crate::interpreter::string_text(vm, s)).unwrap_or_default();
    let message_text = message.as_string().map(|s| crate::interpreter::string_text(vm, s)).unwrap_or_default();
    crate::builtins::error::install_stack(vm, object, &name_text, &message_text);
    object
}

/// A new DOMException named `name` (an abort reason, for instance).
pub(crate) fn new_dom_exception(vm: &mut Vm, name: &str, message: &str) -> Value {
    let Some(proto) = vm.runtime.host_objects.dom_exception_prototype else {
        let Exception::Throw(error) = vm.type_error(message) else { return Value::UNDEFINED };
        return error;
    };
    let message = vm.string(message);
    let name = vm.string(name);
    Value::object(create_dom_exception(vm, proto, message, name))
}

/// A thrown DOMException named `name`.
pub(crate) fn throw_dom_exception(vm: &mut Vm, name: &str, message: &str) -> Exception {
    Exception::Throw(new_dom_exception(vm, name, message))
}

/// `new DOMException(message = "", name = "Error")`.
fn dom_exception_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor DOMException cannot be invoked without 'new'"));
    };
    let message = info.arg(vm, 0);
    let message = if message.is_undefined() {
        vm.string("")
    } else {
        Value::string(crate::abstract_ops::to_string(vm, message)?)
    };
    vm.keep_alive(message);
    let name = info.arg(vm, 1);
    let name =
        if name.is_undefined() { vm.string("Error") } else { Value::string(crate::abstract_ops::to_string(vm, name)?) };
    vm.keep_alive(name);
    let fallback = vm.runtime.host_objects.dom_exception_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    Ok(Value::object(create_dom_exception(vm, proto, message, name)))
}

/// `get DOMException.prototype.code`: the legacy code of the name.
fn code_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(this) = info.this.as_object() else {
        return Err(vm.type_error("Illegal invocation"));
    };
    let key = PropertyKey::String(vm.names.name);
    let name = get(vm, this, key, info.this)?;
    let Some(name) = name.as_string() else { return Ok(Value::number(0.0)) };
    let name = crate::interpreter::string_text(vm, name);
    let code = LEGACY_CODES.iter().find(|(n, _)| *n == name).map_or(0, |&(_, c)| c);
    Ok(Value::number(f64::from(code)))
}

/// Installs the `DOMException` global.
pub(crate) fn install(vm: &mut Vm) {
    let error_prototype = vm.realm.intrinsics.error_prototype;
    let proto = vm.new_object(Some(error_prototype));
    vm.runtime.host_objects.dom_exception_prototype = Some(proto);
    constructor(vm, "DOMException", 0, dom_exception_ctor, proto);
    let code_key = vm.key("code");
    accessor_property(vm, proto, code_key, "code", Some(code_getter), None);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let text = vm.string("DOMException");
    define_builtin(vm, proto, tag, text, Attributes::CONFIGURABLE_ONLY);
}
