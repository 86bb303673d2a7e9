//! The essential internal methods (§10.1 ordinary objects, with the Array
//! §10.4.2, String §10.4.3 and TypedArray §10.4.5 exotic behaviour) and the object operations
//! of §7.3 built on them.
//!
//! Each internal method first checks whether the object is a Proxy exotic
//! object and, if so, hands over to [`crate::object::proxy`]; that one kind
//! check is all a proxy costs ordinary objects.

use js_gc::Gc;

use super::lookup_cache::{CachedProperty, LookupCache};
use super::{Accessor, Attributes, Elements, JsObject, ObjectKind, Properties, PropertyDescriptor, PropertyKey};
use super::{MAX_SHAPED_PROPERTIES, Shape, proxy};
use crate::abstract_ops::{is_callable, same_value, to_boolean, to_number, to_uint32};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `[[GetPrototypeOf]]`.
pub fn get_prototype_of(vm: &mut Vm, obj: Gc<JsObject>) -> JsResult<Option<Gc<JsObject>>> {
    let o = obj.borrow(&vm.heap);
    if o.is_proxy() {
        return proxy::proxy_get_prototype_of(vm, obj);
    }
    Ok(o.proto)
}

/// `[[SetPrototypeOf]]` (§10.1.2.1): false if not extensible or a cycle.
pub fn set_prototype_of(vm: &mut Vm, obj: Gc<JsObject>, proto: Option<Gc<JsObject>>) -> JsResult<bool> {
    let o = obj.borrow(&vm.heap);
    if o.is_proxy() {
        return proxy::proxy_set_prototype_of(vm, obj, proto);
    }
    if o.proto == proto {
        return Ok(true);
    }
    if !o.extensible {
        return Ok(false);
    }
    // %Object.prototype% is an immutable prototype exotic object
    // (§10.4.7): its [[Prototype]] stays null.
    if o.proto.is_none() && is_object_prototype_of_a_realm(vm, obj) {
        return Ok(false);
    }
    let mut p = proto;
    while let Some(candidate) = p {
        if candidate == obj {
            return Ok(false);
        }
        let c = candidate.borrow(&vm.heap);
        // A proxy's prototype is whatever its trap says: the cycle check
        // stops there (step 8.c.i).
        if c.is_proxy() {
            break;
        }
        p = c.proto;
    }
    obj.borrow_mut(&mut vm.heap).proto = proto;
    Ok(true)
}

/// Whether `obj` is some realm's `%Object.prototype%`.
fn is_object_prototype_of_a_realm(vm: &Vm, obj: Gc<JsObject>) -> bool {
    vm.realm.intrinsics.object_prototype == obj
        || vm.realms.iter().flatten().any(|realm| realm.intrinsics.object_prototype == obj)
}

/// `[[IsExtensible]]` (`IsExtensible`, §7.2.5).
pub fn is_extensible(vm: &mut Vm, obj: Gc<JsObject>) -> JsResult<bool> {
    let o = obj.borrow(&vm.heap);
    if o.is_proxy() {
        return proxy::proxy_is_extensible(vm, obj);
    }
    Ok(o.extensible)
}

/// The String exotic object's own index property (§10.4.3.5).
fn string_own_index(vm: &mut Vm, obj: Gc<JsObject>, index: u32) -> Option<Value> {
    let ObjectKind::String(s) = obj.borrow(&vm.heap).kind else { return None };
    let s = JsString::flatten(&mut vm.heap, s);
    let flat = s.borrow(&vm.heap).flat();
    if index as usize >= flat.len() {
        return None;
    }
    let unit = flat.at(index as usize);
    Some(Value::string(vm.atoms.one_unit(&mut vm.heap, unit)))
}

/// `[[GetOwnProperty]]`.
pub fn get_own_property(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey) -> JsResult<Option<PropertyDescriptor>> {
    if obj.borrow(&vm.heap).is_proxy() {
        return proxy::proxy_get_own_property(vm, obj, key);
    }
    if let Some(exotic) = obj.borrow(&vm.heap).exotic() {
        (exotic.check_get_own_property)(vm, obj, key)?;
    }
    Ok(ordinary_get_own_property(vm, obj, key))
}

/// `[[GetOwnProperty]]` of an object that is not a proxy (ordinary objects
/// and the other exotic objects), which runs no user code. A proxy has no
/// own properties of its own: it answers `None`.
pub fn ordinary_get_own_property(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey) -> Option<PropertyDescriptor> {
    if let Some(exotic) = obj.borrow(&vm.heap).exotic()
        && let Some(desc) = (exotic.get_own_property)(vm, obj, key)
    {
        return desc;
    }
    if let PropertyKey::Index(i) = key
        && let Some(v) = string_own_index(vm, obj, i)
    {
        return Some(PropertyDescriptor::data(v, Attributes::from_bits(Attributes::ENUMERABLE)));
    }
    let o = obj.borrow(&vm.heap);
    if key == PropertyKey::String(vm.names.length) {
        match o.kind {
            ObjectKind::Array { length, length_writable } => {
                let attrs = Attributes::from_bits(if length_writable { Attributes::WRITABLE } else { 0 });
                return Some(PropertyDescriptor::data(Value::number(f64::from(length)), attrs));
            }
            ObjectKind::String(s) => {
                let len = s.borrow(&vm.heap).len();
                return Some(PropertyDescriptor::data(Value::number(len as f64), Attributes::NONE));
            }
            _ => {}
        }
    }
    let (mut value, attrs) = o.get_own(&vm.heap, key)?;
    if let (ObjectKind::MappedArguments { env, map }, PropertyKey::Index(i)) = (&o.kind, key)
        && let Some(&slot) = map.get(i as usize)
        && slot != u32::MAX
    {
        value = env.borrow(&vm.heap).slots[slot as usize];
    }
    if attrs.is_accessor() {
        let acc = value.as_internal::<Accessor>().map(|a| *a.borrow(&vm.heap));
        let acc = acc.unwrap_or(Accessor { get: Value::UNDEFINED, set: Value::UNDEFINED });
        return Some(PropertyDescriptor {
            value: None,
            writable: None,
            get: Some(acc.get),
            set: Some(acc.set),
            enumerable: Some(attrs.enumerable()),
            configurable: Some(attrs.configurable()),
        });
    }
    Some(PropertyDescriptor::data(value, attrs))
}

/// `[[Get]]` (§10.1.8): walks the prototype chain, calling getters with
/// `receiver`.
pub fn get(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, receiver: Value) -> JsResult<Value> {
    if LookupCache::is_cacheable_key(key, PropertyKey::String(vm.names.length))
        && let Some(found) = vm.lookup_cache.lookup(&vm.heap, obj, key)
    {
        return cached_property_value(vm, found, receiver);
    }
    let mut current = obj;
    loop {
        if let Some(exotic) = current.borrow(&vm.heap).exotic()
            && let Some(result) = (exotic.get)(vm, current, key)
        {
            return result;
        }
        let o = current.borrow(&vm.heap);
        let found = match (key, &o.kind) {
            (_, ObjectKind::Proxy(_)) => return proxy::proxy_get(vm, current, key, receiver),
            (PropertyKey::Index(_), ObjectKind::String(_) | ObjectKind::MappedArguments { .. })
            | (PropertyKey::String(_), ObjectKind::Array { .. } | ObjectKind::String(_)) => {
                ordinary_get_own_property(vm, current, key).map(|d| descriptor_to_slot(vm, d))
            }
            _ => o.get_own(&vm.heap, key),
        };
        if let Some((value, attrs)) = found {
            if attrs.is_accessor() {
                let getter = value.as_internal::<Accessor>().map_or(Value::UNDEFINED, |a| a.borrow(&vm.heap).get);
                if getter.is_undefined() {
                    return Ok(Value::UNDEFINED);
                }
                return call(vm, getter, receiver, &[]);
            }
            return Ok(value);
        }
        match current.borrow(&vm.heap).proto {
            Some(p) => current = p,
            None => return Ok(Value::UNDEFINED),
        }
    }
}

/// The result of a `[[Get]]` the lookup cache answered: the data value,
/// `undefined` for an absent key, or the getter called with `receiver`.
pub(crate) fn cached_property_value(vm: &mut Vm, found: CachedProperty, receiver: Value) -> JsResult<Value> {
    match found {
        CachedProperty::Data(v) => Ok(v),
        CachedProperty::Absent => Ok(Value::UNDEFINED),
        CachedProperty::Getter(getter) if getter.is_undefined() => Ok(Value::UNDEFINED),
        CachedProperty::Getter(getter) => call(vm, getter, receiver, &[]),
    }
}

/// A descriptor as a stored (value, attributes) pair; accessors become a
/// fresh accessor cell.
fn descriptor_to_slot(vm: &mut Vm, d: PropertyDescriptor) -> (Value, Attributes) {
    let mut bits = 0;
    if d.enumerable == Some(true) {
        bits |= Attributes::ENUMERABLE;
    }
    if d.configurable == Some(true) {
        bits |= Attributes::CONFIGURABLE;
    }
    if d.is_accessor() {
        let acc = vm.heap.alloc(Accessor { get: d.get.unwrap_or_default(), set: d.set.unwrap_or_default() });
        return (Value::internal(acc.into()), Attributes::from_bits(bits | Attributes::ACCESSOR));
    }
    if d.writable == Some(true) {
        bits |= Attributes::WRITABLE;
    }
    (d.value.unwrap_or_default(), Attributes::from_bits(bits))
}

/// `GetV` / `[[Get]]` on any value (primitives use their prototype).
pub fn get_value(vm: &mut Vm, base: Value, key: PropertyKey) -> JsResult<Value> {
    if let Some(o) = base.as_object() {
        return get(vm, o, key, base);
    }
    if let Some(s) = base.as_string() {
        if key == PropertyKey::String(vm.names.length) {
            return Ok(Value::number(s.borrow(&vm.heap).len() as f64));
        }
        if let PropertyKey::Index(i) = key {
            let s = JsString::flatten(&mut vm.heap, s);
            let flat = s.borrow(&vm.heap).flat();
            if (i as usize) < flat.len() {
                let unit = flat.at(i as usize);
                return Ok(Value::string(vm.atoms.one_unit(&mut vm.heap, unit)));
            }
        }
    }
    let proto = match base.value_type() {
        crate::value::ValueType::String => vm.realm.intrinsics.string_prototype,
        crate::value::ValueType::Number => vm.realm.intrinsics.number_prototype,
        crate::value::ValueType::Boolean => vm.realm.intrinsics.boolean_prototype,
        crate::value::ValueType::Symbol => vm.realm.intrinsics.symbol_prototype,
        crate::value::ValueType::BigInt => vm.realm.intrinsics.bigint_prototype,
        _ => {
            let what = if base.is_null() { "null" } else { "undefined" };
            let key_text = key_to_display(vm, key);
            return Err(vm.type_error(&format!("Cannot read properties of {what} (reading '{key_text}')")));
        }
    };
    get(vm, proto, key, base)
}

/// A property key as text for error messages.
pub fn key_to_display(vm: &Vm, key: PropertyKey) -> String {
    match key {
        PropertyKey::Index(i) => i.to_string(),
        PropertyKey::String(s) => s.borrow(&vm.heap).flat().to_rust_string(),
        PropertyKey::Symbol(s) => {
            let d = s.borrow(&vm.heap).description.map(|d| d.borrow(&vm.heap).flat().to_rust_string());
            format!("Symbol({})", d.unwrap_or_default())
        }
    }
}

/// `[[Set]]` (§10.1.9, `OrdinarySet`).
pub fn set(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, value: Value, receiver: Value) -> JsResult<bool> {
    // Fast path: an own writable data property of an ordinary shaped object.
    if receiver == Value::object(obj) && !matches!(key, PropertyKey::Index(_)) {
        let o = obj.borrow(&vm.heap);
        if let (
            Properties::Shaped { shape, .. },
            ObjectKind::Ordinary | ObjectKind::Function(_) | ObjectKind::Error { .. },
        ) = (&o.properties, &o.kind)
            && let Some(info) = shape.borrow(&vm.heap).lookup(key)
            && info.attrs.writable()
            && !info.attrs.is_accessor()
        {
            obj.borrow_mut(&mut vm.heap).set_slot(info.slot, value);
            return Ok(true);
        }
    }
    // OrdinarySet's walk up the chain (§10.1.9.2 step 2): a proxy on the
    // way takes over with its own [[Set]].
    let mut current = Some(obj);
    let own_desc = loop {
        let Some(o) = current else { break None };
        if o.borrow(&vm.heap).is_proxy() {
            return proxy::proxy_set(vm, o, key, value, receiver);
        }
        if let Some(exotic) = o.borrow(&vm.heap).exotic()
            && let Some(result) = (exotic.set)(vm, o, key, value, receiver)
        {
            return result;
        }
        if let Some(d) = ordinary_get_own_property(vm, o, key) {
            break Some((o, d));
        }
        current = o.borrow(&vm.heap).proto;
    };
    let (found_on, own_desc) = match own_desc {
        Some((o, d)) => (Some(o), d),
        None => (None, PropertyDescriptor::data(Value::UNDEFINED, Attributes::DEFAULT)),
    };
    if own_desc.is_accessor() {
        let setter = own_desc.set.unwrap_or_default();
        if setter.is_undefined() {
            return Ok(false);
        }
        call(vm, setter, receiver, &[value])?;
        return Ok(true);
    }
    if own_desc.writable != Some(true) {
        return Ok(false);
    }
    let Some(receiver_obj) = receiver.as_object() else { return Ok(false) };
    // Found on the receiver itself (not a proxy, and no code ran since):
    // the receiver's own descriptor is the one in hand.
    // Otherwise a proxy receiver's trap runs while only this frame holds
    // `value`.
    let existing = if found_on == Some(receiver_obj) {
        Some(own_desc)
    } else {
        let mark = vm.stack.temp_roots.len();
        vm.stack.temp_roots.push(value);
        let existing = get_own_property(vm, receiver_obj, key);
        vm.stack.temp_roots.truncate(mark);
        existing?
    };
    match existing {
        Some(existing) => {
            if existing.is_accessor() || existing.writable != Some(true) {
                return Ok(false);
            }
            let desc = PropertyDescriptor { value: Some(value), ..PropertyDescriptor::default() };
            define_own_property(vm, receiver_obj, key, desc)
        }
        None => create_data_property(vm, receiver_obj, key, value),
    }
}

/// `CreateDataProperty` (§7.3.5).
pub fn create_data_property(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, value: Value) -> JsResult<bool> {
    // Fast path: a new property on an extensible ordinary object.
    let o = obj.borrow(&vm.heap);
    if o.extensible && matches!(o.kind, ObjectKind::Ordinary) && o.get_own(&vm.heap, key).is_none() {
        add_property(vm, obj, key, value, Attributes::DEFAULT);
        return Ok(true);
    }
    define_own_property(vm, obj, key, PropertyDescriptor::data(value, Attributes::DEFAULT))
}

/// `CreateDataPropertyOrThrow`.
pub fn create_data_property_or_throw(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, value: Value) -> JsResult<()> {
    if create_data_property(vm, obj, key, value)? {
        Ok(())
    } else {
        let k = key_to_display(vm, key);
        Err(vm.type_error(&format!("Cannot define property {k}")))
    }
}

/// Adds a property that does not exist yet, without checks (builtins
/// setup, and the paths above after their checks).
pub fn add_property(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, value: Value, attrs: Attributes) {
    if let PropertyKey::Index(i) = key {
        let o = obj.borrow_mut(&mut vm.heap);
        if attrs == Attributes::DEFAULT && matches!(o.elements, Elements::Dense(_)) {
            o.write_element(i, value);
        } else {
            o.make_sparse();
            if let Elements::Sparse(map) = &mut o.elements {
                map.insert(i, (value, attrs));
            }
        }
        if let ObjectKind::Array { length, .. } = &mut o.kind
            && i >= *length
        {
            *length = i + 1;
        }
        return;
    }
    let current_shape = match &obj.borrow(&vm.heap).properties {
        Properties::Shaped { shape, slots } if slots.len() < MAX_SHAPED_PROPERTIES => Some(*shape),
        _ => None,
    };
    let next_shape = current_shape.map(|shape| Shape::add_property(&mut vm.heap, shape, key, attrs));
    let heap = &mut vm.heap;
    if next_shape.is_none() {
        make_dictionary(heap, obj);
    }
    let o = obj.borrow_mut(heap);
    match (&mut o.properties, next_shape) {
        (Properties::Shaped { shape, slots }, Some(next)) => {
            *shape = next;
            slots.push(value);
        }
        (Properties::Dictionary(map), _) => {
            map.insert(key, (value, attrs));
        }
        (Properties::Shaped { .. }, None) => {}
    }
}

/// Defines a builtin data property (methods: writable, configurable).
pub fn define_builtin(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, value: Value, attrs: Attributes) {
    if obj.borrow(&vm.heap).get_own(&vm.heap, key).is_some() {
        let _ = define_own_property(vm, obj, key, PropertyDescriptor::data(value, attrs));
    } else {
        add_property(vm, obj, key, value, attrs);
    }
}

/// Writes (value, attrs) to an existing own property.
fn write_existing(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey, value: Value, attrs: Attributes) {
    let heap = &mut vm.heap;
    if let PropertyKey::Index(i) = key {
        let o = obj.borrow_mut(heap);
        if attrs == Attributes::DEFAULT
            && let Elements::Dense(v) = &mut o.elements
        {
            v[i as usize] = value;
            return;
        }
        o.make_sparse();
        if let Elements::Sparse(map) = &mut o.elements {
            map.insert(i, (value, attrs));
        }
        return;
    }
    let same_attrs = obj.borrow(heap).shape().and_then(|s| s.borrow(heap).lookup(key)).filter(|i| i.attrs == attrs);
    if let Some(info) = same_attrs {
        obj.borrow_mut(heap).set_slot(info.slot, value);
        return;
    }
    make_dictionary(heap, obj);
    if let Properties::Dictionary(map) = &mut obj.borrow_mut(heap).properties
        && let Some(entry) = map.get_mut(&key)
    {
        *entry = (value, attrs);
    }
}

/// `[[DefineOwnProperty]]` (§10.1.6 with `ValidateAndApplyPropertyDescriptor`,
/// and the Array exotic §10.4.2.1).
pub fn define_own_property(
    vm: &mut Vm,
    obj: Gc<JsObject>,
    key: PropertyKey,
    desc: PropertyDescriptor,
) -> JsResult<bool> {
    if obj.borrow(&vm.heap).is_proxy() {
        return proxy::proxy_define_own_property(vm, obj, key, desc);
    }
    if let Some(exotic) = obj.borrow(&vm.heap).exotic()
        && let Some(result) = (exotic.define_own_property)(vm, obj, key, &desc)
    {
        return result;
    }
    let length_key = PropertyKey::String(vm.names.length);
    if let ObjectKind::Array { length, length_writable } = obj.borrow(&vm.heap).kind {
        if key == length_key {
            return array_set_length(vm, obj, desc, length, length_writable);
        }
        if let PropertyKey::Index(i) = key
            && i >= length
            && !length_writable
        {
            return Ok(false);
        }
    }
    if let ObjectKind::String(s) = obj.borrow(&vm.heap).kind {
        let len = s.borrow(&vm.heap).len();
        let is_own_char = matches!(key, PropertyKey::Index(i) if (i as usize) < len);
        if is_own_char || key == length_key {
            let current = ordinary_get_own_property(vm, obj, key).unwrap_or_default();
            return Ok(is_compatible(vm, &current, &desc));
        }
    }
    let current = ordinary_get_own_property(vm, obj, key);
    let Some(current) = current else {
        if !obj.borrow(&vm.heap).extensible {
            return Ok(false);
        }
        let (value, attrs) = descriptor_to_slot(vm, desc);
        add_property(vm, obj, key, value, attrs);
        return Ok(true);
    };
    if !is_compatible(vm, &current, &desc) {
        return Ok(false);
    }
    // Merge the descriptor into the current property.
    let enumerable = desc.enumerable.or(current.enumerable).unwrap_or(false);
    let configurable = desc.configurable.or(current.configurable).unwrap_or(false);
    let merged = if desc.is_accessor() || (current.is_accessor() && !desc.is_data()) {
        let (get, set) = if current.is_accessor() {
            (current.get.unwrap_or_default(), current.set.unwrap_or_default())
        } else {
            Default::default()
        };
        PropertyDescriptor {
            get: Some(desc.get.unwrap_or(get)),
            set: Some(desc.set.unwrap_or(set)),
            enumerable: Some(enumerable),
            configurable: Some(configurable),
            ..PropertyDescriptor::default()
        }
    } else {
        let (value, writable) = if current.is_accessor() {
            (Value::UNDEFINED, false)
        } else {
            (current.value.unwrap_or_default(), current.writable.unwrap_or(false))
        };
        PropertyDescriptor {
            value: Some(desc.value.unwrap_or(value)),
            writable: Some(desc.writable.unwrap_or(writable)),
            enumerable: Some(enumerable),
            configurable: Some(configurable),
            ..PropertyDescriptor::default()
        }
    };
    let (value, attrs) = descriptor_to_slot(vm, merged);
    write_existing(vm, obj, key, value, attrs);
    if let PropertyKey::Index(i) = key {
        update_argument_mapping(vm, obj, i, &desc);
    }
    Ok(true)
}

/// The mapped arguments object's [[DefineOwnProperty]] tail (§10.4.4.2):
/// a new value goes to the parameter too; accessors and read-only
/// redefinitions end the aliasing.
fn update_argument_mapping(vm: &mut Vm, obj: Gc<JsObject>, index: u32, desc: &PropertyDescriptor) {
    let ObjectKind::MappedArguments { env, map } = &obj.borrow(&vm.heap).kind else { return };
    let Some(&slot) = map.get(index as usize) else { return };
    if slot == u32::MAX {
        return;
    }
    let env = *env;
    if desc.is_accessor() {
        unmap_argument(vm, obj, index);
        return;
    }
    if let Some(v) = desc.value {
        env.borrow_mut(&mut vm.heap).slots[slot as usize] = v;
    }
    if desc.writable == Some(false) {
        unmap_argument(vm, obj, index);
    }
}

/// Removes argument `index` from a mapped arguments object's map.
fn unmap_argument(vm: &mut Vm, obj: Gc<JsObject>, index: u32) {
    if let ObjectKind::MappedArguments { map, .. } = &mut obj.borrow_mut(&mut vm.heap).kind
        && let Some(slot) = map.get_mut(index as usize)
    {
        *slot = u32::MAX;
    }
}

/// The validation half of `ValidateAndApplyPropertyDescriptor`, for an
/// existing property `current`.
pub(crate) fn is_compatible(vm: &mut Vm, current: &PropertyDescriptor, desc: &PropertyDescriptor) -> bool {
    if current.configurable == Some(true) {
        return true;
    }
    if desc.configurable == Some(true) {
        return false;
    }
    if desc.enumerable.is_some() && desc.enumerable != current.enumerable {
        return false;
    }
    if !desc.is_accessor() && !desc.is_data() {
        return true;
    }
    if current.is_accessor() != desc.is_accessor() {
        return false;
    }
    if current.is_accessor() {
        let same = |vm: &mut Vm, a: Option<Value>, b: Option<Value>| {
            a.is_none_or(|a| same_value(vm, a, b.unwrap_or_default()))
        };
        return same(vm, desc.get, current.get) && same(vm, desc.set, current.set);
    }
    if current.writable == Some(false) {
        if desc.writable == Some(true) {
            return false;
        }
        if let Some(v) = desc.value {
            return same_value(vm, v, current.value.unwrap_or_default());
        }
    }
    true
}

/// `ArraySetLength` (§10.4.2.4).
fn array_set_length(
    vm: &mut Vm,
    obj: Gc<JsObject>,
    desc: PropertyDescriptor,
    old_len: u32,
    writable: bool,
) -> JsResult<bool> {
    let Some(value) = desc.value else {
        if desc.is_accessor() || desc.configurable == Some(true) || desc.enumerable == Some(true) {
            return Ok(false);
        }
        if desc.writable == Some(true) && !writable {
            return Ok(false);
        }
        if desc.writable == Some(false) {
            set_array_length_writable(vm, obj, false);
        }
        return Ok(true);
    };
    // ArraySetLength steps 3–5: the value is converted (twice, observably)
    // and range-checked before the descriptor is validated, and the old
    // length is read afterwards, as the conversions may change it.
    let new_len = to_uint32(to_number(vm, value)?);
    let number_len = to_number(vm, value)?;
    if f64::from(new_len) != number_len {
        return Err(vm.range_error("Invalid array length"));
    }
    let (old_len, writable) = match obj.borrow(&vm.heap).kind {
        ObjectKind::Array { length, length_writable } => (length, length_writable),
        _ => (old_len, writable),
    };
    if desc.configurable == Some(true) || desc.enumerable == Some(true) {
        return Ok(false);
    }
    if new_len != old_len && !writable {
        return Ok(false);
    }
    if desc.writable == Some(true) && !writable {
        return Ok(false);
    }
    let final_len = truncate_elements(vm, obj, new_len);
    if let ObjectKind::Array { length, .. } = &mut obj.borrow_mut(&mut vm.heap).kind {
        *length = final_len;
    }
    if desc.writable == Some(false) {
        set_array_length_writable(vm, obj, false);
    }
    Ok(final_len == new_len)
}

fn set_array_length_writable(vm: &mut Vm, obj: Gc<JsObject>, on: bool) {
    if let ObjectKind::Array { length_writable, .. } = &mut obj.borrow_mut(&mut vm.heap).kind {
        *length_writable = on;
    }
}

/// Deletes elements at and above `new_len`; stops at a non-configurable one
/// and returns the length actually reached.
fn truncate_elements(vm: &mut Vm, obj: Gc<JsObject>, new_len: u32) -> u32 {
    let o = obj.borrow_mut(&mut vm.heap);
    match &mut o.elements {
        Elements::Dense(v) => {
            v.truncate(new_len as usize);
            new_len
        }
        Elements::Sparse(map) => {
            let doomed: Vec<u32> = map.range(new_len..).map(|(&k, _)| k).collect();
            for &k in doomed.iter().rev() {
                if !map[&k].1.configurable() {
                    return k + 1;
                }
                map.remove(&k);
            }
            new_len
        }
    }
}

/// `[[HasProperty]]`: walks the prototype chain; a proxy on it answers
/// with its own [[HasProperty]].
pub fn has_property(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey) -> JsResult<bool> {
    let mut current = Some(obj);
    while let Some(o) = current {
        if let Some(exotic) = o.borrow(&vm.heap).exotic()
            && let Some(found) = (exotic.has_property)(vm, o, key)
        {
            return Ok(found);
        }
        let object = o.borrow(&vm.heap);
        let found = match object.kind {
            ObjectKind::Proxy(_) => return proxy::proxy_has_property(vm, o, key),
            // Plain storage: existence needs no descriptor.
            ObjectKind::Ordinary | ObjectKind::Function(_) => object.get_own(&vm.heap, key).is_some(),
            _ => ordinary_get_own_property(vm, o, key).is_some(),
        };
        if found {
            return Ok(true);
        }
        current = o.borrow(&vm.heap).proto;
    }
    Ok(false)
}

/// `[[Delete]]`.
pub fn delete(vm: &mut Vm, obj: Gc<JsObject>, key: PropertyKey) -> JsResult<bool> {
    if obj.borrow(&vm.heap).is_proxy() {
        return proxy::proxy_delete(vm, obj, key);
    }
    if let Some(exotic) = obj.borrow(&vm.heap).exotic()
        && let Some(deleted) = (exotic.delete)(vm, obj, key)
    {
        return Ok(deleted);
    }
    let object = obj.borrow(&vm.heap);
    let configurable = match object.kind {
        // Plain storage: the attributes say it, no descriptor needed.
        ObjectKind::Ordinary | ObjectKind::Function(_) => match object.get_own(&vm.heap, key) {
            Some((_, attrs)) => attrs.configurable(),
            None => return Ok(true),
        },
        _ => match ordinary_get_own_property(vm, obj, key) {
            Some(desc) => desc.configurable == Some(true),
            None => return Ok(true),
        },
    };
    if !configurable {
        return Ok(false);
    }
    if let PropertyKey::Index(i) = key {
        unmap_argument(vm, obj, i);
    }
    let heap = &mut vm.heap;
    let o = obj.borrow_mut(heap);
    if let PropertyKey::Index(i) = key {
        match &mut o.elements {
            Elements::Dense(v) => {
                if i as usize + 1 == v.len() {
                    v.pop();
                } else if let Some(slot) = v.get_mut(i as usize) {
                    *slot = Value::HOLE;
                }
            }
            Elements::Sparse(map) => {
                map.remove(&i);
            }
        }
        return Ok(true);
    }
    make_dictionary(heap, obj);
    if let Properties::Dictionary(map) = &mut obj.borrow_mut(heap).properties {
        map.shift_remove(&key);
    }
    Ok(true)
}

/// `[[OwnPropertyKeys]]`. A proxy's keys may be atoms nothing else holds:
/// they stay in `vm.stack.temp_roots` for the caller's scope.
pub fn own_property_keys(vm: &mut Vm, obj: Gc<JsObject>) -> JsResult<Vec<PropertyKey>> {
    if obj.borrow(&vm.heap).is_proxy() {
        return proxy::proxy_own_property_keys(vm, obj);
    }
    let o = obj.borrow(&vm.heap);
    let mut keys = o.own_keys(&vm.heap);
    // Arrays and String objects keep `length` outside their property
    // storage; it is their first string-keyed property.
    if matches!(o.kind, ObjectKind::Array { .. } | ObjectKind::String(_)) {
        let at = keys.iter().take_while(|k| matches!(k, PropertyKey::Index(_))).count();
        keys.insert(at, PropertyKey::String(vm.names.length));
    }
    match obj.borrow(&vm.heap).exotic() {
        Some(exotic) => Ok((exotic.own_property_keys)(vm, obj, keys)),
        None => Ok(keys),
    }
}

/// `[[PreventExtensions]]`.
pub fn prevent_extensions(vm: &mut Vm, obj: Gc<JsObject>) -> JsResult<bool> {
    if obj.borrow(&vm.heap).is_proxy() {
        return proxy::proxy_prevent_extensions(vm, obj);
    }
    // A typed array's [[PreventExtensions]] (§10.4.5): one whose length
    // can still change (length-tracking, or on a resizable buffer) could
    // gain elements later, so it stays extensible.
    if obj.borrow(&vm.heap).exotic().is_some_and(|exotic| !(exotic.can_prevent_extensions)(vm, obj)) {
        return Ok(false);
    }
    obj.borrow_mut(&mut vm.heap).extensible = false;
    Ok(true)
}

/// Call (§7.3.14): `TypeError` if `f` is not callable.
pub fn call(vm: &mut Vm, f: Value, this: Value, args: &[Value]) -> JsResult<Value> {
    match f.as_object() {
        Some(o) if o.borrow(&vm.heap).is_callable() => crate::interpreter::call_function(vm, o, this, args),
        _ => Err(vm.type_error("value is not a function")),
    }
}

/// Construct (§7.3.15).
pub fn construct(vm: &mut Vm, f: Gc<JsObject>, args: &[Value], new_target: Option<Gc<JsObject>>) -> JsResult<Value> {
    crate::interpreter::construct_function(vm, f, args, new_target.unwrap_or(f))
}

/// `GetMethod` (§7.3.11): `undefined` for nullish, `TypeError` if not callable.
pub fn get_method(vm: &mut Vm, v: Value, key: PropertyKey) -> JsResult<Option<Value>> {
    let f = get_value(vm, v, key)?;
    if f.is_nullish() {
        return Ok(None);
    }
    if !is_callable(vm, f) {
        let k = key_to_display(vm, key);
        return Err(vm.type_error(&format!("{k} is not a function")));
    }
    Ok(Some(f))
}

/// `LengthOfArrayLike` (§7.3.19).
pub fn length_of_array_like(vm: &mut Vm, obj: Gc<JsObject>) -> JsResult<f64> {
    if let ObjectKind::Array { length, .. } = obj.borrow(&vm.heap).kind {
        return Ok(f64::from(length));
    }
    let key = PropertyKey::String(vm.names.length);
    let v = get(vm, obj, key, Value::object(obj))?;
    crate::abstract_ops::to_length(vm, v)
}

/// `OrdinaryHasInstance` (§7.3.22).
pub fn ordinary_has_instance(vm: &mut Vm, c: Value, o: Value) -> JsResult<bool> {
    let Some(cobj) = c.as_object().filter(|c| c.borrow(&vm.heap).is_callable()) else { return Ok(false) };
    if let Some(crate::function::Function::Bound(b)) = cobj.borrow(&vm.heap).as_function() {
        let target = Value::object(b.target);
        return crate::interpreter::instance_of(vm, o, target);
    }
    let Some(mut obj) = o.as_object() else { return Ok(false) };
    let key = PropertyKey::String(vm.names.prototype);
    let proto = get(vm, cobj, key, c)?;
    let Some(proto) = proto.as_object() else {
        return Err(vm.type_error("Function has non-object prototype in instanceof check"));
    };
    // Proxies on the chain run traps, which may drop `proto` elsewhere.
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.push(Value::object(proto));
    let found = loop {
        match get_prototype_of(vm, obj) {
            Ok(None) => break Ok(false),
            Ok(Some(p)) if p == proto => break Ok(true),
            Ok(Some(p)) => obj = p,
            Err(e) => break Err(e),
        }
    };
    vm.stack.temp_roots.truncate(mark);
    found
}

/// Moves an object's named properties to a dictionary (deletes and
/// attribute changes make shapes useless for it).
pub fn make_dictionary(heap: &mut js_gc::Heap, obj: Gc<JsObject>) {
    let map: super::PropertyMap = match &obj.borrow(heap).properties {
        Properties::Shaped { shape, slots } => {
            shape.borrow(heap).entries().map(|(k, info)| (k, (slots[info.slot as usize], info.attrs))).collect()
        }
        Properties::Dictionary(_) => return,
    };
    obj.borrow_mut(heap).properties = Properties::Dictionary(Box::new(map));
}

/// `ArrayCreate` with the given elements.
pub fn array_create(vm: &mut Vm, values: &[Value]) -> Gc<JsObject> {
    array_from_elements(vm, values.to_vec())
}

/// `ArrayCreate` taking its dense elements, whose spare capacity is kept
/// for the pushes of an array literal.
pub fn array_from_elements(vm: &mut Vm, elements: Vec<Value>) -> Gc<JsObject> {
    let proto = vm.realm.intrinsics.array_prototype;
    let length = u32::try_from(elements.len()).unwrap_or(u32::MAX);
    let obj = vm.new_object_of_kind(Some(proto), ObjectKind::Array { length, length_writable: true });
    obj.borrow_mut(&mut vm.heap).elements = Elements::Dense(elements);
    obj
}

/// The property key for an integer index (strings above the array-index
/// range).
pub(crate) fn index_key(vm: &mut Vm, i: u64) -> PropertyKey {
    match u32::try_from(i) {
        Ok(i) if i != u32::MAX => PropertyKey::Index(i),
        _ => vm.key(&i.to_string()),
    }
}

/// A property key as a value (`Object.keys`, `Reflect.ownKeys`).
pub fn key_to_value(vm: &mut Vm, key: PropertyKey) -> Value {
    match key {
        PropertyKey::String(s) => Value::string(s),
        PropertyKey::Symbol(s) => Value::symbol(s),
        PropertyKey::Index(i) => vm.string(&i.to_string()),
    }
}

/// `ToPropertyDescriptor` (§6.2.6.5).
pub fn to_property_descriptor(vm: &mut Vm, v: Value) -> JsResult<PropertyDescriptor> {
    let Some(o) = v.as_object() else {
        return Err(vm.type_error("Property description must be an object"));
    };
    let mut desc = PropertyDescriptor::default();
    let fields =
        [vm.names.enumerable, vm.names.configurable, vm.names.value, vm.names.writable, vm.names.get, vm.names.set];
    for (i, name) in fields.into_iter().enumerate() {
        let key = PropertyKey::String(name);
        if !has_property(vm, o, key)? {
            continue;
        }
        let field = get(vm, o, key, v)?;
        // Later fields' getters may collect; callers run inside a native
        // call or a proxy operation, whose scope releases this root.
        vm.keep_alive(field);
        match i {
            0 => desc.enumerable = Some(to_boolean(vm, field)),
            1 => desc.configurable = Some(to_boolean(vm, field)),
            2 => desc.value = Some(field),
            3 => desc.writable = Some(to_boolean(vm, field)),
            4 | 5 => {
                if !field.is_undefined() && !is_callable(vm, field) {
                    let which = if i == 4 { "Getter" } else { "Setter" };
                    return Err(vm.type_error(&format!("{which} must be a function")));
                }
                if i == 4 {
                    desc.get = Some(field);
                } else {
                    desc.set = Some(field);
                }
            }
            _ => {}
        }
    }
    if desc.is_accessor() && desc.is_data() {
        return Err(vm.type_error(
            "Invalid property descriptor. Cannot both specify accessors and a value or writable attribute",
        ));
    }
    Ok(desc)
}

/// `FromPropertyDescriptor` (§6.2.6.4).
pub fn from_property_descriptor(vm: &mut Vm, desc: Option<PropertyDescriptor>) -> JsResult<Value> {
    let Some(desc) = desc else { return Ok(Value::UNDEFINED) };
    let obj = vm.new_plain_object();
    let pairs = [
        (vm.names.value, desc.value),
        (vm.names.writable, desc.writable.map(Value::boolean)),
        (vm.names.get, desc.get),
        (vm.names.set, desc.set),
        (vm.names.enumerable, desc.enumerable.map(Value::boolean)),
        (vm.names.configurable, desc.configurable.map(Value::boolean)),
    ];
    for (name, value) in pairs {
        if let Some(v) = value {
            create_data_property_or_throw(vm, obj, PropertyKey::String(name), v)?;
        }
    }
    Ok(Value::object(obj))
}
