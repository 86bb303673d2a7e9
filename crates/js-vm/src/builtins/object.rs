//! Object and Object.prototype (§20.1).

use js_gc::Gc;

use super::{accessor_property, constructor, method};
use crate::abstract_ops::{is_callable, same_value, to_object, to_property_key};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{
    create_data_property_or_throw, define_own_property, get, get_own_property, get_prototype_of, is_extensible,
    own_property_keys, prevent_extensions, set, set_prototype_of,
};
use crate::object::{JsObject, ObjectKind, PropertyDescriptor, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

pub use crate::object::internal_methods::{from_property_descriptor, key_to_value, to_property_descriptor};

/// `CopyDataProperties` (§7.3.25): own enumerable properties of `source`
/// into `target`, skipping `excluded`.
pub fn copy_data_properties(
    vm: &mut Vm,
    target: Gc<JsObject>,
    source: Value,
    excluded: &[PropertyKey],
) -> JsResult<()> {
    if source.is_nullish() {
        return Ok(());
    }
    let from = to_object(vm, source)?;
    // Also run by the interpreter itself (object spread and rest), where
    // no native call's return releases temporary roots.
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.extend([Value::object(from), Value::object(target)]);
    let result = copy_enumerable_own(vm, target, from, excluded);
    vm.stack.temp_roots.truncate(mark);
    result
}

fn copy_enumerable_own(
    vm: &mut Vm,
    target: Gc<JsObject>,
    from: Gc<JsObject>,
    excluded: &[PropertyKey],
) -> JsResult<()> {
    let keys = own_property_keys(vm, from)?;
    vm.keep_keys_alive(&keys);
    for key in keys {
        if excluded.contains(&key) {
            continue;
        }
        if let Some(desc) = get_own_property(vm, from, key)?
            && desc.enumerable == Some(true)
        {
            let v = get(vm, from, key, Value::object(from))?;
            create_data_property_or_throw(vm, target, key, v)?;
        }
    }
    Ok(())
}

fn object_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if let Some(nt) = info.new_target
        && nt != info.callee
    {
        let proto = prototype_from_constructor(vm, nt, |i| i.object_prototype)?;
        return Ok(Value::object(vm.new_object(Some(proto))));
    }
    let v = info.arg(vm, 0);
    if v.is_nullish() {
        return Ok(Value::object(vm.new_plain_object()));
    }
    Ok(Value::object(to_object(vm, v)?))
}

/// ToObject of argument `i`, kept alive for the rest of the call (getters
/// the builtin triggers may collect).
fn arg_object(vm: &mut Vm, info: &CallInfo, i: usize) -> JsResult<Gc<JsObject>> {
    let v = info.arg(vm, i);
    let o = to_object(vm, v)?;
    vm.keep_alive(Value::object(o));
    Ok(o)
}

/// Which parts of own enumerable string-keyed properties to list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EnumerableOwn {
    Keys,
    Values,
    Entries,
}

fn enumerable_own(vm: &mut Vm, o: Gc<JsObject>, kind: EnumerableOwn) -> JsResult<Vec<Value>> {
    let mut out = Vec::new();
    let keys = own_property_keys(vm, o)?;
    vm.keep_keys_alive(&keys);
    for key in keys {
        if key.is_symbol() {
            continue;
        }
        let Some(desc) = get_own_property(vm, o, key)? else { continue };
        if desc.enumerable != Some(true) {
            continue;
        }
        // Each value is kept alive: later getters and traps may collect.
        let key_value = key_to_value(vm, key);
        let entry = match kind {
            EnumerableOwn::Keys => key_value,
            EnumerableOwn::Values => get(vm, o, key, Value::object(o))?,
            EnumerableOwn::Entries => {
                vm.keep_alive(key_value);
                let v = get(vm, o, key, Value::object(o))?;
                Value::object(super::array::array_create(vm, &[key_value, v]))
            }
        };
        vm.keep_alive(entry);
        out.push(entry);
    }
    Ok(out)
}

fn keys(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let list = enumerable_own(vm, o, EnumerableOwn::Keys)?;
    Ok(Value::object(super::array::array_create(vm, &list)))
}

fn values(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let list = enumerable_own(vm, o, EnumerableOwn::Values)?;
    Ok(Value::object(super::array::array_create(vm, &list)))
}

fn entries(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let list = enumerable_own(vm, o, EnumerableOwn::Entries)?;
    Ok(Value::object(super::array::array_create(vm, &list)))
}

fn assign(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let target = arg_object(vm, info, 0)?;
    for i in 1..info.argc {
        let source = info.arg(vm, i);
        if source.is_nullish() {
            continue;
        }
        let from = to_object(vm, source)?;
        vm.keep_alive(Value::object(from));
        let keys = own_property_keys(vm, from)?;
        vm.keep_keys_alive(&keys);
        for key in keys {
            if get_own_property(vm, from, key)?.is_some_and(|d| d.enumerable == Some(true)) {
                let v = get(vm, from, key, Value::object(from))?;
                if !set(vm, target, key, v, Value::object(target))? {
                    return Err(vm.type_error("Cannot assign to read only property"));
                }
            }
        }
    }
    Ok(Value::object(target))
}

fn create(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let proto = info.arg(vm, 0);
    let proto = if proto.is_null() {
        None
    } else {
        match proto.as_object() {
            Some(p) => Some(p),
            None => return Err(vm.type_error("Object prototype may only be an Object or null")),
        }
    };
    let obj = vm.new_object(proto);
    let props = info.arg(vm, 1);
    if !props.is_undefined() {
        define_properties(vm, obj, props)?;
    }
    Ok(Value::object(obj))
}

fn define_properties(vm: &mut Vm, obj: Gc<JsObject>, props: Value) -> JsResult<()> {
    vm.keep_alive(Value::object(obj));
    let from = to_object(vm, props)?;
    vm.keep_alive(Value::object(from));
    let mut descriptors = Vec::new();
    let keys = own_property_keys(vm, from)?;
    vm.keep_keys_alive(&keys);
    for key in keys {
        if get_own_property(vm, from, key)?.is_some_and(|d| d.enumerable == Some(true)) {
            let d = get(vm, from, key, Value::object(from))?;
            vm.keep_alive(d);
            let desc = to_property_descriptor(vm, d)?;
            for v in [desc.value, desc.get, desc.set].into_iter().flatten() {
                vm.keep_alive(v);
            }
            descriptors.push((key, desc));
        }
    }
    for (key, desc) in descriptors {
        if !define_own_property(vm, obj, key, desc)? {
            let k = crate::object::internal_methods::key_to_display(vm, key);
            return Err(vm.type_error(&format!("Cannot redefine property: {k}")));
        }
    }
    Ok(())
}

fn define_property(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let target = info.arg(vm, 0);
    let Some(o) = target.as_object() else {
        return Err(vm.type_error("Object.defineProperty called on non-object"));
    };
    let key_value = info.arg(vm, 1);
    let key = to_property_key(vm, key_value)?;
    // The descriptor's getters run while only this frame holds the key.
    vm.keep_key_alive(key);
    let attributes = info.arg(vm, 2);
    let desc = to_property_descriptor(vm, attributes)?;
    if !define_own_property(vm, o, key, desc)? {
        let k = crate::object::internal_methods::key_to_display(vm, key);
        return Err(vm.type_error(&format!("Cannot redefine property: {k}")));
    }
    Ok(target)
}

fn define_properties_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let target = info.arg(vm, 0);
    let Some(o) = target.as_object() else {
        return Err(vm.type_error("Object.defineProperties called on non-object"));
    };
    let props = info.arg(vm, 1);
    define_properties(vm, o, props)?;
    Ok(target)
}

fn get_own_property_descriptor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let key_value = info.arg(vm, 1);
    let key = to_property_key(vm, key_value)?;
    let desc = get_own_property(vm, o, key)?;
    from_property_descriptor(vm, desc)
}

fn get_own_property_descriptors(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let result = vm.new_plain_object();
    vm.keep_alive(Value::object(result));
    for key in own_property_keys(vm, o)? {
        let desc = get_own_property(vm, o, key)?;
        let d = from_property_descriptor(vm, desc)?;
        if !d.is_undefined() {
            create_data_property_or_throw(vm, result, key, d)?;
        }
    }
    Ok(Value::object(result))
}

fn get_own_property_names(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let mut list = Vec::new();
    for key in own_property_keys(vm, o)? {
        if !key.is_symbol() {
            list.push(key_to_value(vm, key));
        }
    }
    Ok(Value::object(super::array::array_create(vm, &list)))
}

fn get_own_property_symbols(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let list: Vec<Value> = own_property_keys(vm, o)?
        .into_iter()
        .filter_map(|k| match k {
            PropertyKey::Symbol(s) => Some(Value::symbol(s)),
            _ => None,
        })
        .collect();
    Ok(Value::object(super::array::array_create(vm, &list)))
}

fn get_prototype_of_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    Ok(get_prototype_of(vm, o)?.map_or(Value::NULL, Value::object))
}

fn set_prototype_of_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let target = info.arg(vm, 0);
    if target.is_nullish() {
        return Err(vm.type_error("Object.setPrototypeOf called on null or undefined"));
    }
    let proto = info.arg(vm, 1);
    let proto = if proto.is_null() {
        None
    } else {
        match proto.as_object() {
            Some(p) => Some(p),
            None => return Err(vm.type_error("Object prototype may only be an Object or null")),
        }
    };
    if let Some(o) = target.as_object()
        && !set_prototype_of(vm, o, proto)?
    {
        return Err(vm.type_error("Cyclic __proto__ value or object not extensible"));
    }
    Ok(target)
}

/// `DefinePropertyOrThrow` (§7.3.8).
pub fn define_property_or_throw(
    vm: &mut Vm,
    o: Gc<JsObject>,
    key: PropertyKey,
    desc: PropertyDescriptor,
) -> JsResult<()> {
    if define_own_property(vm, o, key, desc)? {
        return Ok(());
    }
    let k = crate::object::internal_methods::key_to_display(vm, key);
    Err(vm.type_error(&format!("Cannot redefine property: {k}")))
}

/// `SetIntegrityLevel` (§7.3.16): `frozen` or sealed. False when the
/// object refused to become non-extensible.
pub(crate) fn set_integrity_level(vm: &mut Vm, o: Gc<JsObject>, frozen: bool) -> JsResult<bool> {
    if !prevent_extensions(vm, o)? {
        return Ok(false);
    }
    let keys = own_property_keys(vm, o)?;
    let sealed = PropertyDescriptor { configurable: Some(false), ..PropertyDescriptor::default() };
    for key in keys {
        if !frozen {
            define_property_or_throw(vm, o, key, sealed)?;
            continue;
        }
        let Some(current) = get_own_property(vm, o, key)? else { continue };
        let desc = if current.is_accessor() { sealed } else { PropertyDescriptor { writable: Some(false), ..sealed } };
        define_property_or_throw(vm, o, key, desc)?;
    }
    Ok(true)
}

/// `TestIntegrityLevel` (§7.3.17).
fn test_integrity_level(vm: &mut Vm, o: Gc<JsObject>, frozen: bool) -> JsResult<bool> {
    if is_extensible(vm, o)? {
        return Ok(false);
    }
    for key in own_property_keys(vm, o)? {
        let Some(d) = get_own_property(vm, o, key)? else { continue };
        if d.configurable == Some(true) || (frozen && d.is_data() && d.writable == Some(true)) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn freeze(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    if let Some(o) = v.as_object()
        && !set_integrity_level(vm, o, true)?
    {
        return Err(vm.type_error("Cannot freeze"));
    }
    Ok(v)
}

fn seal(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    if let Some(o) = v.as_object()
        && !set_integrity_level(vm, o, false)?
    {
        return Err(vm.type_error("Cannot seal"));
    }
    Ok(v)
}

fn is_frozen(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let frozen = match v.as_object() {
        Some(o) => test_integrity_level(vm, o, true)?,
        None => true,
    };
    Ok(Value::boolean(frozen))
}

fn is_sealed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let sealed = match v.as_object() {
        Some(o) => test_integrity_level(vm, o, false)?,
        None => true,
    };
    Ok(Value::boolean(sealed))
}

fn prevent_extensions_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    if let Some(o) = v.as_object()
        && !prevent_extensions(vm, o)?
    {
        return Err(vm.type_error("Cannot prevent extensions"));
    }
    Ok(v)
}

fn is_extensible_fn(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let extensible = match v.as_object() {
        Some(o) => is_extensible(vm, o)?,
        None => false,
    };
    Ok(Value::boolean(extensible))
}

fn is(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (a, b) = (info.arg(vm, 0), info.arg(vm, 1));
    Ok(Value::boolean(same_value(vm, a, b)))
}

fn has_own(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = arg_object(vm, info, 0)?;
    let key_value = info.arg(vm, 1);
    let key = to_property_key(vm, key_value)?;
    Ok(Value::boolean(get_own_property(vm, o, key)?.is_some()))
}

fn from_entries(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let iterable = info.arg(vm, 0);
    if iterable.is_nullish() {
        return Err(vm.type_error("Object.fromEntries requires an iterable"));
    }
    let obj = vm.new_plain_object();
    vm.keep_alive(Value::object(obj));
    // AddEntriesFromIterable: one entry at a time, and a bad entry closes
    // the iterator.
    let record = super::iteration::get_iterator(vm, iterable)?;
    vm.keep_alive(Value::internal(record.into()));
    while let Some(entry) = super::iteration::iterator_step_value(vm, record)? {
        vm.keep_alive(entry);
        if let Err(error) = add_entry(vm, obj, entry) {
            return Err(super::iteration::iterator_close_with_error(vm, record, error));
        }
    }
    Ok(Value::object(obj))
}

/// One entry of `Object.fromEntries`: `entry[0]` and `entry[1]` read, then
/// the key converted, then the property created.
fn add_entry(vm: &mut Vm, obj: Gc<JsObject>, entry: Value) -> JsResult<()> {
    let Some(e) = entry.as_object() else {
        return Err(vm.type_error("Iterator value is not an entry object"));
    };
    // The key is held while the value's getter runs, the value while
    // the key's `toString` runs.
    let k = get(vm, e, PropertyKey::Index(0), entry)?;
    vm.keep_alive(k);
    let v = get(vm, e, PropertyKey::Index(1), entry)?;
    vm.keep_alive(v);
    let key = to_property_key(vm, k)?;
    create_data_property_or_throw(vm, obj, key, v)?;
    Ok(())
}

fn group_by(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let items = info.arg(vm, 0);
    let callback = info.arg(vm, 1);
    if !is_callable(vm, callback) {
        return Err(vm.type_error("callback is not a function"));
    }
    let values = super::iteration::iterate_to_vec(vm, items)?;
    let result = vm.new_object(None);
    vm.keep_alive(Value::object(result));
    for (i, v) in values.into_iter().enumerate() {
        let k = crate::object::internal_methods::call(vm, callback, Value::UNDEFINED, &[v, Value::number(i as f64)])?;
        let key = to_property_key(vm, k)?;
        let existing = get(vm, result, key, Value::object(result))?;
        let group = if let Some(g) = existing.as_object() {
            g
        } else {
            let g = super::array::array_create(vm, &[]);
            create_data_property_or_throw(vm, result, key, Value::object(g))?;
            g
        };
        super::array::push_element(vm, group, v);
    }
    Ok(Value::object(result))
}

// ----- Object.prototype -----

fn has_own_property(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let key_value = info.arg(vm, 0);
    let key = to_property_key(vm, key_value)?;
    let o = to_object(vm, info.this)?;
    Ok(Value::boolean(get_own_property(vm, o, key)?.is_some()))
}

fn is_prototype_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let Some(mut current) = v.as_object() else { return Ok(Value::FALSE) };
    let o = to_object(vm, info.this)?;
    vm.keep_alive(Value::object(o));
    while let Some(p) = get_prototype_of(vm, current)? {
        if p == o {
            return Ok(Value::TRUE);
        }
        current = p;
    }
    Ok(Value::FALSE)
}

fn property_is_enumerable(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let key_value = info.arg(vm, 0);
    let key = to_property_key(vm, key_value)?;
    let o = to_object(vm, info.this)?;
    Ok(Value::boolean(get_own_property(vm, o, key)?.is_some_and(|d| d.enumerable == Some(true))))
}

/// `Object.prototype.toString` (§20.1.3.6).
pub fn object_to_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let this = info.this;
    if this.is_undefined() {
        return Ok(vm.string("[object Undefined]"));
    }
    if this.is_null() {
        return Ok(vm.string("[object Null]"));
    }
    let o = to_object(vm, this)?;
    let callable = crate::abstract_ops::is_callable(vm, Value::object(o));
    let is_array = crate::abstract_ops::is_array(vm, Value::object(o))?;
    let builtin_tag = match &o.borrow(&vm.heap).kind {
        _ if is_array => "Array",
        ObjectKind::Arguments | ObjectKind::MappedArguments { .. } => "Arguments",
        _ if callable => "Function",
        ObjectKind::Error { .. } => "Error",
        ObjectKind::Data(d) if d.is(&super::regexp::REGEXP) => "RegExp",
        ObjectKind::Boolean(_) => "Boolean",
        ObjectKind::Date(_) => "Date",
        ObjectKind::Number(_) => "Number",
        ObjectKind::String(_) => "String",
        _ => "Object",
    };
    let tag_key = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag = get(vm, o, tag_key, Value::object(o))?;
    let tag_text = match tag.as_string() {
        Some(s) => crate::interpreter::string_text(vm, s),
        None => builtin_tag.to_owned(),
    };
    Ok(vm.string(&format!("[object {tag_text}]")))
}

fn to_locale_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let key = PropertyKey::String(vm.names.to_string);
    let f = crate::object::internal_methods::get_value(vm, info.this, key)?;
    crate::object::internal_methods::call(vm, f, info.this, &[])
}

fn value_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::object(to_object(vm, info.this)?))
}

fn proto_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    Ok(get_prototype_of(vm, o)?.map_or(Value::NULL, Value::object))
}

fn proto_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if info.this.is_nullish() {
        return Err(vm.type_error("Object.prototype.__proto__ called on null or undefined"));
    }
    let proto = info.arg(vm, 0);
    let Some(o) = info.this.as_object() else { return Ok(Value::UNDEFINED) };
    let p = if proto.is_null() {
        None
    } else if let Some(p) = proto.as_object() {
        Some(p)
    } else {
        return Ok(Value::UNDEFINED);
    };
    if !set_prototype_of(vm, o, p)? {
        return Err(vm.type_error("Cyclic __proto__ value"));
    }
    Ok(Value::UNDEFINED)
}

/// Annex B `__defineGetter__` / `__defineSetter__`.
fn define_accessor_legacy(vm: &mut Vm, info: &CallInfo, setter: bool) -> JsResult<Value> {
    let o = to_object(vm, info.this)?;
    // A primitive `this` gives a fresh wrapper; the key's `toString` runs next.
    vm.keep_alive(Value::object(o));
    let f = info.arg(vm, 1);
    if !is_callable(vm, f) {
        return Err(vm.type_error("Object.prototype.__defineGetter__: Expecting function"));
    }
    let key_value = info.arg(vm, 0);
    let key = to_property_key(vm, key_value)?;
    let mut desc =
        PropertyDescriptor { enumerable: Some(true), configurable: Some(true), ..PropertyDescriptor::default() };
    if setter {
        desc.set = Some(f);
    } else {
        desc.get = Some(f);
    }
    define_property_or_throw(vm, o, key, desc)?;
    Ok(Value::UNDEFINED)
}

fn define_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    define_accessor_legacy(vm, info, false)
}

fn define_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    define_accessor_legacy(vm, info, true)
}

/// Annex B `__lookupGetter__` / `__lookupSetter__`.
fn lookup_accessor_legacy(vm: &mut Vm, info: &CallInfo, setter: bool) -> JsResult<Value> {
    let this = to_object(vm, info.this)?;
    vm.keep_alive(Value::object(this));
    let mut o = Some(this);
    let key_value = info.arg(vm, 0);
    let key = to_property_key(vm, key_value)?;
    // Proxies on the chain run traps between the lookups.
    vm.keep_key_alive(key);
    while let Some(current) = o {
        if let Some(desc) = get_own_property(vm, current, key)? {
            if desc.is_accessor() {
                return Ok(if setter { desc.set } else { desc.get }.unwrap_or_default());
            }
            return Ok(Value::UNDEFINED);
        }
        o = get_prototype_of(vm, current)?;
    }
    Ok(Value::UNDEFINED)
}

fn lookup_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    lookup_accessor_legacy(vm, info, false)
}

fn lookup_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    lookup_accessor_legacy(vm, info, true)
}

/// Installs Object and Object.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.object_prototype;
    let ctor = constructor(vm, "Object", 1, object_ctor, proto);
    vm.realm.intrinsics.object_constructor = ctor;
    let statics: [(&str, u32, crate::function::NativeFn); 23] = [
        ("keys", 1, keys),
        ("values", 1, values),
        ("entries", 1, entries),
        ("assign", 2, assign),
        ("create", 2, create),
        ("defineProperty", 3, define_property),
        ("defineProperties", 2, define_properties_fn),
        ("getOwnPropertyDescriptor", 2, get_own_property_descriptor),
        ("getOwnPropertyDescriptors", 1, get_own_property_descriptors),
        ("getOwnPropertyNames", 1, get_own_property_names),
        ("getOwnPropertySymbols", 1, get_own_property_symbols),
        ("getPrototypeOf", 1, get_prototype_of_fn),
        ("setPrototypeOf", 2, set_prototype_of_fn),
        ("freeze", 1, freeze),
        ("seal", 1, seal),
        ("isFrozen", 1, is_frozen),
        ("isSealed", 1, is_sealed),
        ("preventExtensions", 1, prevent_extensions_fn),
        ("isExtensible", 1, is_extensible_fn),
        ("is", 2, is),
        ("hasOwn", 2, has_own),
        ("fromEntries", 1, from_entries),
        ("groupBy", 2, group_by),
    ];
    for (name, length, f) in statics {
        method(vm, ctor, name, length, f);
    }
    let methods: [(&str, u32, crate::function::NativeFn); 10] = [
        ("__defineGetter__", 2, define_getter),
        ("__defineSetter__", 2, define_setter),
        ("__lookupGetter__", 1, lookup_getter),
        ("__lookupSetter__", 1, lookup_setter),
        ("hasOwnProperty", 1, has_own_property),
        ("isPrototypeOf", 1, is_prototype_of),
        ("propertyIsEnumerable", 1, property_is_enumerable),
        ("toString", 0, object_to_string),
        ("toLocaleString", 0, to_locale_string),
        ("valueOf", 0, value_of),
    ];
    for (name, length, f) in methods {
        method(vm, proto, name, length, f);
    }
    let key = vm.key("__proto__");
    accessor_property(vm, proto, key, "__proto__", Some(proto_getter), Some(proto_setter));
}
