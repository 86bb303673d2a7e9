//! The Proxy constructor (§28.2): `new Proxy(target, handler)` and
//! `Proxy.revocable`. The proxy objects themselves live in
//! [`crate::object::proxy`].

use super::{method, native_function, native_function_with_data, value_property};
use crate::interpreter::CallInfo;
use crate::object::Attributes;
use crate::object::internal_methods::create_data_property_or_throw;
use crate::object::proxy::{proxy_create, revoke};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `Proxy(target, handler)` (§28.2.1.1): only as a constructor.
fn proxy_constructor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if info.new_target.is_none() {
        return Err(vm.type_error("Constructor Proxy requires 'new'"));
    }
    let (target, handler) = (info.arg(vm, 0), info.arg(vm, 1));
    Ok(Value::object(proxy_create(vm, target, handler)?))
}

/// `Proxy.revocable(target, handler)` (§28.2.2.1): `{ proxy, revoke }`.
fn revocable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (target, handler) = (info.arg(vm, 0), info.arg(vm, 1));
    let proxy = Value::object(proxy_create(vm, target, handler)?);
    vm.keep_alive(proxy);
    let revoker = native_function_with_data(vm, "", 0, revoke_function, proxy);
    vm.keep_alive(Value::object(revoker));
    let result = vm.new_plain_object();
    vm.keep_alive(Value::object(result));
    let proxy_key = vm.key("proxy");
    create_data_property_or_throw(vm, result, proxy_key, proxy)?;
    let revoke_key = vm.key("revoke");
    create_data_property_or_throw(vm, result, revoke_key, Value::object(revoker))?;
    Ok(Value::object(result))
}

/// A revocation function (§28.2.2.1.1): revokes its proxy the first time,
/// then forgets it (`[[RevocableProxy]]` becomes null).
fn revoke_function(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(proxy) = info.data(vm).as_object() else { return Ok(Value::UNDEFINED) };
    if let crate::object::ObjectKind::Function(crate::function::Function::Native(n)) =
        &mut info.callee.borrow_mut(&mut vm.heap).kind
    {
        n.data = Value::UNDEFINED;
    }
    revoke(vm, proxy);
    Ok(Value::UNDEFINED)
}

/// Installs Proxy. It has no `prototype` property: proxies take their
/// prototype from the handler or the target.
pub(crate) fn install(vm: &mut Vm) {
    let ctor = native_function(vm, "Proxy", 2, proxy_constructor, true);
    method(vm, ctor, "revocable", 2, revocable);
    let global = vm.realm.global;
    value_property(vm, global, "Proxy", Value::object(ctor), Attributes::METHOD);
}
