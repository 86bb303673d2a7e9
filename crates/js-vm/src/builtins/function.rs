//! Function objects: closure creation, `arguments`, classes, and the
//! Function constructor and prototype (§20.2).

use js_gc::Gc;

use super::dynamic_function::{DynamicFunctionKind, create_dynamic_function};
use super::{constructor, method, native_function, symbol_method};
use crate::bytecode::{Code, CodeKind};
use crate::environment::DeclarativeEnvironment;
use crate::function::{BoundFunction, Closure, Function, NativeFunction};
use crate::interpreter::{CallInfo, call_function, is_constructor};
use crate::object::internal_methods::{define_builtin, get, length_of_array_like, ordinary_has_instance};
use crate::object::{Accessor, Attributes, Elements, JsObject, ObjectKind, Properties, PropertyKey, PropertySlots};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

pub(crate) use crate::object::internal_methods::index_key;

pub(crate) fn return_undefined(_vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Ok(Value::UNDEFINED)
}

/// %Function.prototype%'s own behaviour in `realm`: accepts anything,
/// returns `undefined`.
pub(crate) fn empty_function(realm: crate::realm::RealmId) -> Function {
    Function::Native(NativeFunction { call: return_undefined, constructor: false, data: Value::UNDEFINED, realm })
}

/// `OrdinaryFunctionCreate` + `MakeConstructor` for compiled code.
pub(crate) fn make_closure(
    vm: &mut Vm,
    code: Gc<Code>,
    env: Option<Gc<DeclarativeEnvironment>>,
    this_value: Value,
    new_target: Value,
) -> Gc<JsObject> {
    let c = code.borrow(&vm.heap);
    let (kind, length, name, is_async) = (c.kind, c.length, c.name, c.is_async);
    let proto = if is_async && kind == CodeKind::Generator {
        vm.realm.intrinsics.async_generator_function_prototype
    } else if is_async {
        vm.realm.intrinsics.async_function_prototype
    } else if kind == CodeKind::Generator {
        vm.realm.intrinsics.generator_function_prototype
    } else {
        vm.realm.intrinsics.function_prototype
    };
    let closure = Closure { code, env, this_value, new_target, home_object: None, fields: None };
    let f = vm.new_object_of_kind(Some(proto), ObjectKind::Function(Function::Closure(closure)));
    let length_key = PropertyKey::String(vm.names.length);
    define_builtin(vm, f, length_key, Value::number(f64::from(length)), Attributes::CONFIGURABLE_ONLY);
    let name_key = PropertyKey::String(vm.names.name);
    define_builtin(vm, f, name_key, Value::string(name), Attributes::CONFIGURABLE_ONLY);
    if kind == CodeKind::Normal && !code.borrow(&vm.heap).strict {
        // Sloppy functions carry null `caller` and `arguments`, as in V8,
        // instead of inheriting Function.prototype's throwing accessors.
        for key in [PropertyKey::String(vm.names.caller), PropertyKey::String(vm.names.arguments)] {
            define_builtin(vm, f, key, Value::NULL, Attributes::NONE);
        }
    }
    if kind == CodeKind::Normal {
        let prototype = vm.new_plain_object();
        let ctor_key = PropertyKey::String(vm.names.constructor);
        define_builtin(vm, prototype, ctor_key, Value::object(f), Attributes::METHOD);
        let proto_key = PropertyKey::String(vm.names.prototype);
        define_builtin(vm, f, proto_key, Value::object(prototype), Attributes::from_bits(Attributes::WRITABLE));
    } else if kind == CodeKind::Generator {
        let generator_proto = if is_async {
            vm.realm.intrinsics.async_generator_prototype
        } else {
            vm.realm.intrinsics.generator_prototype
        };
        let prototype = vm.new_object(Some(generator_proto));
        let proto_key = PropertyKey::String(vm.names.prototype);
        define_builtin(vm, f, proto_key, Value::object(prototype), Attributes::from_bits(Attributes::WRITABLE));
    }
    f
}

/// `SetFunctionName` (§10.2.9) for a function whose name comes from a
/// computed key or accessor.
pub(crate) fn set_function_name(vm: &mut Vm, f: Gc<JsObject>, key: PropertyKey, prefix: Option<&str>) {
    // Built from code units: a key may hold lone surrogates.
    let mut units: Vec<u16> = prefix.map(|p| format!("{p} ").encode_utf16().collect()).unwrap_or_default();
    match key {
        PropertyKey::Symbol(s) => {
            let symbol = s.borrow(&vm.heap);
            if let Some(d) = symbol.description {
                let description = d.borrow(&vm.heap).flat().units();
                if symbol.private {
                    units.extend(description);
                } else {
                    units.push(u16::from(b'['));
                    units.extend(description);
                    units.push(u16::from(b']'));
                }
            }
        }
        PropertyKey::String(s) => units.extend(s.borrow(&vm.heap).flat().units()),
        PropertyKey::Index(i) => units.extend(i.to_string().encode_utf16()),
    }
    let name = vm.heap.alloc(JsString::from_utf16(&units));
    let name_key = PropertyKey::String(vm.names.name);
    define_builtin(vm, f, name_key, Value::string(name), Attributes::CONFIGURABLE_ONLY);
}

/// `CreateUnmappedArgumentsObject` (§10.4.4.6), or
/// `CreateMappedArgumentsObject` (§10.4.4.7) when `mapped` gives the
/// parameters' environment slots, for the running frame.
pub(crate) fn create_arguments_object(vm: &mut Vm, mapped: Option<&[u32]>) -> Gc<JsObject> {
    let values = frame_arguments(vm);
    let proto = vm.realm.intrinsics.object_prototype;
    let frame_env = vm.stack.frames.last().and_then(|f| f.env);
    let kind = match (mapped, frame_env) {
        (Some(slots), Some(env)) => {
            let map: Box<[u32]> = (0..values.len()).map(|i| slots.get(i).copied().unwrap_or(u32::MAX)).collect();
            ObjectKind::MappedArguments { env, map }
        }
        _ => ObjectKind::Arguments,
    };
    // A sloppy function with simple parameters gets a mapped object even
    // when no parameter is captured (no environment to alias): its
    // `callee` is the function, not the strict-mode thrower.
    let (shape, callee) = if mapped.is_some() {
        let callee = vm.stack.frames.last().and_then(|f| f.callee).map_or(Value::UNDEFINED, Value::object);
        (vm.shapes.mapped_arguments, callee)
    } else {
        let thrower = Value::object(vm.realm.intrinsics.throw_type_error);
        let accessor = vm.heap.alloc(Accessor { get: thrower, set: thrower });
        (vm.shapes.unmapped_arguments, Value::internal(accessor.into()))
    };
    // The properties are in the order the spec defines them (`length`,
    // `@@iterator`, `callee`), so the object is the one the step-by-step
    // definition would make, and it shares that transition chain.
    let length = Value::number(values.len() as f64);
    let values_fn = Value::object(vm.realm.intrinsics.array_values);
    let mut object = JsObject::new(shape, Some(proto), kind);
    object.properties = Properties::Shaped { shape, slots: PropertySlots::from_values(&[length, values_fn, callee]) };
    object.elements = Elements::Dense(values);
    // No collection runs inside an allocation, so the accessor cell above
    // needs no root before the object that holds it exists.
    vm.heap.alloc(object)
}

/// The arguments the running frame was called with.
fn frame_arguments(vm: &Vm) -> Vec<Value> {
    let Some(frame) = vm.stack.frames.last() else { return Vec::new() };
    let params = usize::from(frame.code.borrow(&vm.heap).param_count);
    let argc = frame.argc as usize;
    let in_registers = &vm.stack.registers[frame.base + 1..][..argc.min(params)];
    let mut values = Vec::with_capacity(in_registers.len() + frame.extra_args.len());
    values.extend_from_slice(in_registers);
    values.extend_from_slice(&frame.extra_args);
    values
}

/// The rest parameter's array: arguments from index `from`.
pub(crate) fn create_rest_array(vm: &mut Vm, from: usize) -> Gc<JsObject> {
    let values = frame_arguments(vm);
    let rest = values.get(from..).unwrap_or(&[]).to_vec();
    super::array::array_create(vm, &rest)
}

/// `ClassDefinitionEvaluation`'s object creation: the constructor from
/// `functions[index]` and its prototype object.
pub(crate) fn create_class(
    vm: &mut Vm,
    code: Gc<Code>,
    index: u32,
    heritage: Value,
) -> JsResult<(Gc<JsObject>, Gc<JsObject>)> {
    let (proto_parent, ctor_parent) = if heritage.is_hole() {
        (Some(vm.realm.intrinsics.object_prototype), vm.realm.intrinsics.function_prototype)
    } else if heritage.is_null() {
        (None, vm.realm.intrinsics.function_prototype)
    } else {
        let Some(parent) = heritage.as_object().filter(|o| is_constructor(vm, *o)) else {
            return Err(vm.type_error("Class extends value is not a constructor or null"));
        };
        let key = PropertyKey::String(vm.names.prototype);
        let p = get(vm, parent, key, heritage)?;
        let proto_parent = if p.is_null() {
            None
        } else {
            match p.as_object() {
                Some(o) => Some(o),
                None => return Err(vm.type_error("Class extends value does not have valid prototype property")),
            }
        };
        (proto_parent, parent)
    };
    let child = code.borrow(&vm.heap).functions[index as usize];
    let env = vm.stack.frames.last().and_then(|f| f.env);
    let prototype = vm.new_object(proto_parent);
    let ctor = make_closure(vm, child, env, Value::UNDEFINED, Value::UNDEFINED);
    ctor.borrow_mut(&mut vm.heap).proto = Some(ctor_parent);
    if let ObjectKind::Function(Function::Closure(c)) = &mut ctor.borrow_mut(&mut vm.heap).kind {
        c.home_object = Some(prototype);
    }
    let proto_key = PropertyKey::String(vm.names.prototype);
    define_builtin(vm, ctor, proto_key, Value::object(prototype), Attributes::NONE);
    let ctor_key = PropertyKey::String(vm.names.constructor);
    define_builtin(vm, prototype, ctor_key, Value::object(ctor), Attributes::METHOD);
    Ok((ctor, prototype))
}

fn this_function(vm: &mut Vm, info: &CallInfo, what: &str) -> JsResult<Gc<JsObject>> {
    match info.this.as_object() {
        Some(o) if o.borrow(&vm.heap).is_callable() => Ok(o),
        _ => Err(vm.type_error(&format!("Function.prototype.{what} called on a non-function"))),
    }
}

/// `Function.prototype.call`.
fn call(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let f = this_function(vm, info, "call")?;
    let this = info.arg(vm, 0);
    let args: Vec<Value> = info.args(vm).into_iter().skip(1).collect();
    call_function(vm, f, this, &args)
}

/// `CreateListFromArrayLike` (§7.3.18).
pub(crate) fn list_from_array_like(vm: &mut Vm, v: Value) -> JsResult<Vec<Value>> {
    if v.is_nullish() {
        return Ok(Vec::new());
    }
    let Some(o) = v.as_object() else {
        return Err(vm.type_error("CreateListFromArrayLike called on non-object"));
    };
    if let Some(list) = dense_array_like_elements(vm, o) {
        return Ok(list);
    }
    let len = length_of_array_like(vm, o)?;
    let mut list = Vec::with_capacity((len as usize).min(1 << 16));
    for i in 0..len as u64 {
        let key = index_key(vm, i);
        let item = get(vm, o, key, v)?;
        // Later getters run while only `list` holds the earlier items.
        vm.keep_alive(item);
        list.push(item);
    }
    Ok(list)
}

/// `CreateListFromArrayLike`'s result read without running a step anyone
/// can observe: for an array or arguments object whose `length` is a plain
/// data value (the kind's own for arrays) and whose elements below it are
/// all present in its dense storage, every `[[Get]]` would return the
/// stored value (a mapped argument reads its parameter). `None` when
/// anything would need the full algorithm: holes (the prototype chain would
/// be consulted), accessors, proxies, other kinds.
fn dense_array_like_elements(vm: &Vm, o: Gc<JsObject>) -> Option<Vec<Value>> {
    let object = o.borrow(&vm.heap);
    let Elements::Dense(elements) = &object.elements else { return None };
    let len = match &object.kind {
        ObjectKind::Array { length, .. } => *length as usize,
        ObjectKind::Arguments | ObjectKind::MappedArguments { .. } => {
            let (value, attrs) = object.get_own(&vm.heap, PropertyKey::String(vm.names.length))?;
            let n = value.as_number().filter(|_| !attrs.is_accessor())?;
            // Any other number would go through ToLength; integers in
            // range are their own ToLength.
            if n.fract() != 0.0 || !(0.0..=elements.len() as f64).contains(&n) {
                return None;
            }
            n as usize
        }
        _ => return None,
    };
    let present = elements.get(..len)?;
    if present.iter().any(|v| v.is_hole()) {
        return None;
    }
    let mut list = present.to_vec();
    if let ObjectKind::MappedArguments { env, map } = &object.kind {
        let slots = &env.borrow(&vm.heap).slots;
        for (item, &slot) in list.iter_mut().zip(map.iter()) {
            if slot != u32::MAX {
                *item = slots[slot as usize];
            }
        }
    }
    Some(list)
}

/// `Function.prototype.apply`.
fn apply(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let f = this_function(vm, info, "apply")?;
    let this = info.arg(vm, 0);
    let arg_array = info.arg(vm, 1);
    let args = if arg_array.is_nullish() { Vec::new() } else { list_from_array_like(vm, arg_array)? };
    call_function(vm, f, this, &args)
}

/// `Function.prototype.bind` (§20.2.3.2).
fn bind(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let target = this_function(vm, info, "bind")?;
    let this = info.arg(vm, 0);
    let args: Box<[Value]> = info.args(vm).into_iter().skip(1).collect();
    let bound_count = args.len() as f64;
    vm.keep_alive(Value::object(target));
    for &a in &args {
        vm.keep_alive(a);
    }
    vm.keep_alive(this);
    let proto = crate::object::internal_methods::get_prototype_of(vm, target)?;
    let kind = ObjectKind::Function(Function::Bound(BoundFunction { target, this, args }));
    let f = vm.new_object_of_kind(proto, kind);
    vm.keep_alive(Value::object(f));
    let length_key = PropertyKey::String(vm.names.length);
    let mut length = 0.0;
    if crate::object::internal_methods::get_own_property(vm, target, length_key)?.is_some() {
        let l = get(vm, target, length_key, Value::object(target))?;
        if let Some(n) = l.as_number() {
            length = if n == f64::INFINITY {
                f64::INFINITY
            } else if n == f64::NEG_INFINITY {
                0.0
            } else {
                (crate::abstract_ops::to_integer_or_infinity(n) - bound_count).max(0.0)
            };
        }
    }
    define_builtin(vm, f, length_key, Value::number(length), Attributes::CONFIGURABLE_ONLY);
    let name_key = PropertyKey::String(vm.names.name);
    let name = get(vm, target, name_key, Value::object(target))?;
    let name = match name.as_string() {
        Some(s) => s,
        None => vm.atoms.intern_str(&mut vm.heap, ""),
    };
    let prefix = vm.heap.alloc(JsString::from_rust_str("bound "));
    let full = JsString::concat(&mut vm.heap, prefix, name);
    define_builtin(vm, f, name_key, Value::string(full), Attributes::CONFIGURABLE_ONLY);
    Ok(Value::object(f))
}

/// `Function.prototype.toString`: the source text of compiled functions,
/// `function name() { [native code] }` otherwise.
fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let f = this_function(vm, info, "toString")?;
    let text = function_source_text(vm, f)?;
    Ok(vm.string(&text))
}

/// The text `Function.prototype.toString` gives for function `f`.
pub(crate) fn function_source_text(vm: &mut Vm, f: Gc<JsObject>) -> JsResult<String> {
    let text = if f.borrow(&vm.heap).is_proxy() {
        // A callable proxy shows as a nameless native function: reading
        // its `name` would run the handler's traps.
        "function () { [native code] }".to_owned()
    } else if let Some(Function::Closure(c)) = f.borrow(&vm.heap).as_function() {
        let code = c.code.borrow(&vm.heap);
        let (start, end) = code.span;
        code.source.text.get(start as usize..end as usize).unwrap_or_default().to_owned()
    } else {
        let key = PropertyKey::String(vm.names.name);
        let name = get(vm, f, key, Value::object(f))?;
        let name = match name.as_string() {
            Some(s) => crate::interpreter::string_text(vm, s),
            None => String::new(),
        };
        // NativeFunction syntax has room only for a property name (with a
        // `get`/`set` prefix): `get $&` and the like are left out.
        let plain = name.strip_prefix("get ").or_else(|| name.strip_prefix("set ")).unwrap_or(&name);
        let shown =
            if oxc_syntax::identifier::is_identifier_name(plain) || (plain.starts_with('[') && plain.ends_with(']')) {
                name.as_str()
            } else {
                ""
            };
        format!("function {shown}() {{ [native code] }}")
    };
    Ok(text)
}

/// `Function.prototype[Symbol.hasInstance]`.
fn has_instance(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    Ok(Value::boolean(ordinary_has_instance(vm, info.this, v)?))
}

/// `Function(...params, body)`: compiles source text as a sloppy function.
fn function_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    create_dynamic_function(vm, info, DynamicFunctionKind::Normal)
}

/// %`ThrowTypeError`%.
fn throw_type_error(vm: &mut Vm, _info: &CallInfo) -> JsResult<Value> {
    Err(vm.type_error("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them"))
}

/// Installs Function and Function.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.function_prototype;
    let length_key = PropertyKey::String(vm.names.length);
    define_builtin(vm, proto, length_key, Value::number(0.0), Attributes::CONFIGURABLE_ONLY);
    let name_key = PropertyKey::String(vm.names.name);
    let empty = vm.string("");
    define_builtin(vm, proto, name_key, empty, Attributes::CONFIGURABLE_ONLY);
    let ctor = constructor(vm, "Function", 1, function_ctor, proto);
    vm.realm.intrinsics.function_constructor = ctor;
    method(vm, proto, "call", 1, call);
    method(vm, proto, "apply", 2, apply);
    method(vm, proto, "bind", 1, bind);
    method(vm, proto, "toString", 0, to_string_method);
    let has_instance_symbol = vm.symbols.has_instance;
    vm.realm.intrinsics.function_has_instance =
        symbol_method(vm, proto, has_instance_symbol, "[Symbol.hasInstance]", 1, has_instance, Attributes::NONE);
    let thrower = native_function(vm, "", 0, throw_type_error, false);
    thrower.borrow_mut(&mut vm.heap).extensible = false;
    // %ThrowTypeError%'s `length` and `name` are frozen too.
    for key in [PropertyKey::String(vm.names.length), PropertyKey::String(vm.names.name)] {
        let desc = crate::object::PropertyDescriptor { configurable: Some(false), ..Default::default() };
        let _ = crate::object::internal_methods::define_own_property(vm, thrower, key, desc);
    }
    vm.realm.intrinsics.throw_type_error = thrower;
    // AddRestrictedFunctionProperties (§10.2.4): `caller` and `arguments`.
    for key in [PropertyKey::String(vm.names.caller), PropertyKey::String(vm.names.arguments)] {
        let desc = crate::object::PropertyDescriptor {
            get: Some(Value::object(thrower)),
            set: Some(Value::object(thrower)),
            enumerable: Some(false),
            configurable: Some(true),
            ..Default::default()
        };
        let _ = crate::object::internal_methods::define_own_property(vm, proto, key, desc);
    }
}
