//! The standard built-in objects (ECMA-262 §19–§28), one module per
//! constructor or namespace, installed into a realm by [`install`].

pub mod array;
pub mod array_buffer;
mod array_from;
pub mod array_from_async;
pub mod async_disposable_stack;
pub mod async_generator;
pub mod async_iteration;
pub mod atomics;
pub mod bigint;
pub mod boolean;
pub mod collections;
pub mod data_view;
pub mod date;
pub mod disposable_stack;
pub mod dispose_capability;
mod dynamic_function;
pub mod error;
mod exact_decimal;
pub mod function;
pub mod generator;
pub mod global;
pub mod iteration;
pub mod iterator_chunking;
pub mod iterator_helpers;
pub mod iterator_includes;
pub mod iterator_join;
pub mod iterator_sequencing;
pub mod iterator_zip;
pub mod json;
mod legacy_escape;
pub(crate) mod locale;
pub mod math;
mod math_sum_precise;
pub mod number;
pub mod object;
pub mod promise;
pub mod proxy;
pub mod reflect;
pub mod regexp;
pub mod set_methods;
pub mod shared_memory;
pub mod string;
mod string_html;
pub mod suppressed_error;
pub mod symbol;
pub mod typed_array;
pub mod uint8array_base64;
pub mod weak_ref;

use js_gc::Gc;

use crate::function::{Function, NativeFn, NativeFunction};
use crate::object::internal_methods::define_builtin;
use crate::object::{Attributes, JsObject, ObjectKind, Properties, PropertyKey, PropertySlots};
use crate::value::Value;
use crate::vm::Vm;

/// Installs every builtin into the VM's realm.
pub(crate) fn install(vm: &mut Vm) {
    function::install(vm);
    object::install(vm);
    error::install(vm);
    array::install(vm);
    iteration::install(vm);
    generator::install(vm);
    string::install(vm);
    string_html::install(vm);
    number::install(vm);
    boolean::install(vm);
    symbol::install(vm);
    bigint::install(vm);
    math::install(vm);
    json::install(vm);
    reflect::install(vm);
    proxy::install(vm);
    regexp::install(vm);
    collections::install(vm);
    date::install(vm);
    array_buffer::install(vm);
    typed_array::install(vm);
    uint8array_base64::install(vm);
    data_view::install(vm);
    atomics::install(vm);
    set_methods::install(vm);
    promise::install(vm);
    async_iteration::install(vm);
    async_generator::install(vm);
    weak_ref::install(vm);
    iterator_helpers::install(vm);
    suppressed_error::install(vm);
    disposable_stack::install(vm);
    async_disposable_stack::install(vm);
    global::install(vm);
    legacy_escape::install(vm);
    crate::host::install(vm);
}

/// A new native function object with `name` and `length`.
pub fn native_function(vm: &mut Vm, name: &str, length: u32, f: NativeFn, constructor: bool) -> Gc<JsObject> {
    let proto = vm.realm.intrinsics.function_prototype;
    let native = NativeFunction { call: f, constructor, data: Value::UNDEFINED, realm: vm.realm_id };
    let kind = ObjectKind::Function(Function::Native(native));
    // Made in its final shape: the two properties the step-by-step
    // definition would add, in its order.
    let name_value = if name.is_empty() { Value::string(vm.names.empty) } else { vm.string(name) };
    let shape = vm.shapes.builtin_function;
    let mut object = JsObject::new(shape, Some(proto), kind);
    object.properties =
        Properties::Shaped { shape, slots: PropertySlots::pair(Value::number(f64::from(length)), name_value) };
    vm.heap.alloc(object)
}

/// A native function whose body can read `data` through
/// [`CallInfo::data`](crate::interpreter::CallInfo::data).
pub fn native_function_with_data(vm: &mut Vm, name: &str, length: u32, f: NativeFn, data: Value) -> Gc<JsObject> {
    let function = native_function(vm, name, length, f, false);
    if let ObjectKind::Function(Function::Native(n)) = &mut function.borrow_mut(&mut vm.heap).kind {
        n.data = data;
    }
    function
}

/// Defines a builtin method `name` on `obj`.
pub fn method(vm: &mut Vm, obj: Gc<JsObject>, name: &str, length: u32, f: NativeFn) -> Gc<JsObject> {
    let function = native_function(vm, name, length, f, false);
    let key = vm.key(name);
    define_builtin(vm, obj, key, Value::object(function), Attributes::METHOD);
    function
}

/// Defines a builtin method keyed by a well-known symbol; its name is
/// `[description]`.
pub fn symbol_method(
    vm: &mut Vm,
    obj: Gc<JsObject>,
    symbol: Gc<crate::symbol::Symbol>,
    name: &str,
    length: u32,
    f: NativeFn,
    attrs: Attributes,
) -> Gc<JsObject> {
    let function = native_function(vm, name, length, f, false);
    define_builtin(vm, obj, PropertyKey::Symbol(symbol), Value::object(function), attrs);
    function
}

/// Defines a data property `name` on `obj`.
pub fn value_property(vm: &mut Vm, obj: Gc<JsObject>, name: &str, value: Value, attrs: Attributes) {
    let key = vm.key(name);
    define_builtin(vm, obj, key, value, attrs);
}

/// Defines an accessor property with a native getter (and optional
/// setter).
pub fn accessor_property(
    vm: &mut Vm,
    obj: Gc<JsObject>,
    key: PropertyKey,
    name: &str,
    get: Option<NativeFn>,
    set: Option<NativeFn>,
) {
    let getter = get.map(|f| Value::object(native_function(vm, &format!("get {name}"), 0, f, false)));
    let setter = set.map(|f| Value::object(native_function(vm, &format!("set {name}"), 1, f, false)));
    let desc = crate::object::PropertyDescriptor {
        get: Some(getter.unwrap_or_default()),
        set: Some(setter.unwrap_or_default()),
        enumerable: Some(false),
        configurable: Some(true),
        ..Default::default()
    };
    let _ = crate::object::internal_methods::define_own_property(vm, obj, key, desc);
}

/// Makes a constructor: links `prototype` and `constructor` and puts it
/// on the global object.
pub fn constructor(vm: &mut Vm, name: &str, length: u32, f: NativeFn, prototype: Gc<JsObject>) -> Gc<JsObject> {
    let ctor = native_function(vm, name, length, f, true);
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, ctor, proto_key, Value::object(prototype), Attributes::NONE);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, prototype, ctor_key, Value::object(ctor), Attributes::METHOD);
    let global = vm.realm.global;
    value_property(vm, global, name, Value::object(ctor), Attributes::METHOD);
    ctor
}
