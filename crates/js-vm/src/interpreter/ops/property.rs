//! Property access: named reads and writes through the inline caches
//! (own data properties, one-level inherited data properties, and
//! add-property shape transitions), element reads and writes with a dense
//! fast path, `super[key]`, and `delete`.

use js_gc::Gc;

use super::FrameContext;
use crate::abstract_ops::{to_object, to_property_key};
use crate::bytecode::{IcIndex, Reg};
use crate::function::Function;
use crate::interpreter::InlineCache;
use crate::object::internal_methods::{self as im, create_data_property_or_throw, get, get_value, key_to_display};
use crate::object::{
    Attributes, CachedProperty, Elements, JsObject, LookupCache, MAX_SHAPED_PROPERTIES, MAX_STATIC_SHAPED_PROPERTIES,
    ObjectKind, Properties, PropertyKey, Shape,
};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// The TypeError for a property access on `null`/`undefined`; the key is
/// shown only when printing it runs no user code.
#[cold]
fn nullish_base_error(vm: &mut Vm, base: Value, key: Value, action: &str, verb: &str) -> Exception {
    let what = if base.is_null() { "null" } else { "undefined" };
    let text = if key.is_object() { None } else { to_property_key(vm, key).ok().map(|k| key_to_display(vm, k)) };
    match text {
        Some(t) => vm.type_error(&format!("Cannot {action} of {what} ({verb} '{t}')")),
        None => vm.type_error(&format!("Cannot {action} of {what}")),
    }
}

/// Adds a property along a cached shape transition. `check_prototypes`
/// for assignments (a setter or read-only property on the chain would
/// intercept them); definitions ignore the chain.
#[inline]
fn add_by_transition(
    vm: &mut Vm,
    o: Gc<JsObject>,
    cache: InlineCache,
    key: PropertyKey,
    v: Value,
    check_prototypes: bool,
) -> bool {
    let Some(to) = cache.transition else { return false };
    let object = o.borrow(&vm.heap);
    if !object.extensible || !matches!(object.kind, ObjectKind::Ordinary) {
        return false;
    }
    if check_prototypes && !chain_allows_add(vm, o, key) {
        return false;
    }
    if let Properties::Shaped { shape, slots } = &mut o.borrow_mut(&mut vm.heap).properties {
        if slots.len() as u32 != cache.slot {
            return false;
        }
        *shape = to;
        slots.push(v);
        return true;
    }
    false
}

/// Whether an assignment of `key` to `o`, which lacks it, adds a plain data
/// property there without running anything: every prototype sets
/// ordinarily and the first that has `key` (if any) holds a writable data
/// property (OrdinarySetWithOwnDescriptor then creates the property on the
/// receiver), not a setter or a read-only property. The lookup cache
/// answers with a few pointer compares against the chain it recorded
/// (which also fixes the found property's attributes), instead of a hash
/// probe per prototype: constructors that assign fields their prototype
/// declares with a default take the same path as fresh names.
#[inline]
fn chain_allows_add(vm: &mut Vm, o: Gc<JsObject>, key: PropertyKey) -> bool {
    if LookupCache::is_cacheable_key(key, PropertyKey::String(vm.names.length))
        && let Some(allowed) = vm.lookup_cache.allows_add(&vm.heap, o, key)
    {
        return allowed;
    }
    let mut p = o.borrow(&vm.heap).proto;
    while let Some(proto) = p {
        let proto_obj = proto.borrow(&vm.heap);
        if !matches!(proto_obj.kind, ObjectKind::Ordinary | ObjectKind::Function(_)) {
            return false;
        }
        if let Some((_, attrs)) = proto_obj.get_own(&vm.heap, key) {
            return !attrs.is_accessor() && attrs.writable();
        }
        p = proto_obj.proto;
    }
    true
}

/// Adds `key` by a static name to an ordinary object that has outgrown
/// [`MAX_SHAPED_PROPERTIES`], keeping it shaped up to
/// [`MAX_STATIC_SHAPED_PROPERTIES`] (the generic add would make it a
/// dictionary). Only where the full `[[Set]]` (with `check_prototypes`) or
/// `CreateDataProperty` would add a plain data property and run nothing:
/// an extensible ordinary receiver without the key, and for assignments a
/// chain with no setter or read-only property for it.
#[inline]
fn add_static_name(vm: &mut Vm, o: Gc<JsObject>, key: PropertyKey, v: Value, check_prototypes: bool) -> bool {
    let object = o.borrow(&vm.heap);
    let Properties::Shaped { shape, slots } = &object.properties else { return false };
    let shape = *shape;
    if !(MAX_SHAPED_PROPERTIES..MAX_STATIC_SHAPED_PROPERTIES).contains(&slots.len())
        || !object.extensible
        || !matches!(object.kind, ObjectKind::Ordinary)
        || matches!(key, PropertyKey::Index(_))
        || shape.borrow(&vm.heap).lookup(key).is_some()
    {
        return false;
    }
    if check_prototypes && !chain_allows_add(vm, o, key) {
        return false;
    }
    let next = Shape::add_property(&mut vm.heap, shape, key, Attributes::DEFAULT);
    if let Properties::Shaped { shape, slots } = &mut o.borrow_mut(&mut vm.heap).properties {
        *shape = next;
        slots.push(v);
    }
    true
}

/// Caches a read that the lookup cache found on `o`'s prototype (one level
/// up: an instance's method on its class prototype) in the instruction's
/// inline cache. Reads found further up stay with the lookup cache.
#[inline]
fn cache_inherited(vm: &mut Vm, ic_table: u32, ic: u32, o: Gc<JsObject>, key: PropertyKey) {
    let Some(shape) = o.borrow(&vm.heap).shape() else { return };
    if let Some((proto, proto_shape, slot)) = vm.lookup_cache.inherited_data_slot(shape, key) {
        vm.inline_caches.set(ic_table, ic, InlineCache::inherited(shape, proto, proto_shape, slot));
    }
}

/// After a property add that moved `o` from shape `from` to a shape one
/// property longer, caches the transition.
#[inline]
fn record_transition(vm: &mut Vm, ic_table: u32, ic: u32, o: Gc<JsObject>, from: Gc<Shape>, key: PropertyKey) {
    let Some(to) = o.borrow(&vm.heap).shape() else { return };
    if to == from {
        return;
    }
    let from_len = from.borrow(&vm.heap).len();
    let to_shape = to.borrow(&vm.heap);
    if to_shape.len() != from_len + 1 {
        return;
    }
    if let Some(info) = to_shape.lookup(key)
        && info.slot as usize == from_len
        && info.attrs == Attributes::DEFAULT
    {
        vm.inline_caches.set(
            ic_table,
            ic,
            InlineCache { shape: Some(from), slot: info.slot, transition: Some(to), ..InlineCache::default() },
        );
    }
}

/// `PutValue` for a property reference (§6.2.5.6).
#[inline]
fn put_value(vm: &mut Vm, target: Value, key: PropertyKey, v: Value, strict: bool) -> JsResult<()> {
    if target.is_nullish() {
        let text = key_to_display(vm, key);
        let what = if target.is_null() { "null" } else { "undefined" };
        return Err(vm.type_error(&format!("Cannot set properties of {what} (setting '{text}')")));
    }
    let obj = match target.as_object() {
        Some(o) => o,
        None => to_object(vm, target)?,
    };
    let ok = im::set(vm, obj, key, v, target)?;
    if !ok && strict {
        let text = key_to_display(vm, key);
        return Err(vm.type_error(&format!("Cannot assign to read only property '{text}' of object")));
    }
    Ok(())
}

/// An element read that needs no user code: a present dense element.
#[inline]
fn fast_element(vm: &Vm, o: Gc<JsObject>, n: f64) -> Option<Value> {
    let i = n as u32;
    if f64::from(i) != n {
        return None;
    }
    o.borrow(&vm.heap).dense_element(i)
}

/// An element write that needs no user code: overwriting a present dense
/// element, or appending to an extensible array whose prototypes have no
/// elements.
#[inline]
fn set_fast_element(vm: &mut Vm, o: Gc<JsObject>, n: f64, v: Value) -> bool {
    let i = n as u32;
    if f64::from(i) != n || i == u32::MAX {
        return false;
    }
    let idx = i as usize;
    let object = o.borrow(&vm.heap);
    if matches!(object.kind, ObjectKind::MappedArguments { .. }) {
        return false;
    }
    let Elements::Dense(elements) = &object.elements else { return false };
    let overwrite = idx < elements.len() && !elements[idx].is_hole();
    let append = !overwrite
        && idx == elements.len()
        && object.extensible
        && matches!(object.kind, ObjectKind::Array { length_writable: true, .. } | ObjectKind::Ordinary)
        && prototypes_have_no_elements(vm, o);
    if !overwrite && !append {
        return false;
    }
    let object = o.borrow_mut(&mut vm.heap);
    if let Elements::Dense(elements) = &mut object.elements {
        if overwrite {
            elements[idx] = v;
        } else {
            elements.push(v);
        }
    }
    if let ObjectKind::Array { length, .. } = &mut object.kind
        && i >= *length
    {
        *length = i + 1;
    }
    true
}

/// Whether no object on `o`'s prototype chain has elements (or is a proxy),
/// so an appended element cannot be intercepted.
pub(crate) fn prototypes_have_no_elements(vm: &Vm, o: Gc<JsObject>) -> bool {
    let mut p = o.borrow(&vm.heap).proto;
    while let Some(proto) = p {
        let obj = proto.borrow(&vm.heap);
        // A proxy's [[Set]] must see the assignment.
        if obj.is_proxy() {
            return false;
        }
        let empty = match &obj.elements {
            Elements::Dense(v) => v.is_empty(),
            Elements::Sparse(m) => m.is_empty(),
        };
        if !empty {
            return false;
        }
        p = obj.proto;
    }
    true
}

/// `GetSuperBase`: the running method's home object's [[GetPrototypeOf]]
/// (`None` for a null prototype, and for code without a home object).
#[inline]
fn super_base(vm: &mut Vm) -> JsResult<Option<Gc<JsObject>>> {
    let home = vm.stack.frames.last().and_then(|f| f.callee).and_then(|c| match c.borrow(&vm.heap).as_function() {
        Some(Function::Closure(cl)) => cl.home_object,
        _ => None,
    });
    match home {
        Some(home) => im::get_prototype_of(vm, home),
        None => Ok(None),
    }
}

/// Whether named (non-index) keys of `kind` are ordinary own properties
/// kept in the shape, so an inline cache may read and write their slots (an
/// arguments object's `length` and `callee` among them).
#[inline]
fn keeps_named_keys_in_shape(kind: &ObjectKind) -> bool {
    matches!(
        kind,
        ObjectKind::Ordinary
            | ObjectKind::Function(_)
            | ObjectKind::Error { .. }
            | ObjectKind::Arguments
            | ObjectKind::MappedArguments { .. }
    )
}

/// `GetNamed`: `dst = obj.name`, through the inline cache.
#[inline(always)]
pub(in crate::interpreter) fn get_named(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    name: u32,
    ic: IcIndex,
) -> JsResult<()> {
    let base_value = cx.get(vm, obj);
    if let Some(o) = base_value.as_object() {
        let object = o.borrow(&vm.heap);
        if let Some(shape) = object.shape() {
            let cache = vm.inline_caches.get(cx.ic_table, ic);
            if cache.shape == Some(shape) {
                match cache.prototype {
                    None => {
                        let v = object.slot(cache.slot);
                        cx.set(vm, dst, v);
                        return Ok(());
                    }
                    // Inherited: the receiver's kind reads named keys
                    // ordinarily (the shape is shared with exotic objects),
                    // its prototype is the one seen, unchanged.
                    Some(proto)
                        if object.proto == Some(proto) && LookupCache::named_lookup_is_ordinary(&object.kind) =>
                    {
                        let p = proto.borrow(&vm.heap);
                        if p.shape() == cache.transition {
                            let v = p.slot(cache.slot);
                            cx.set(vm, dst, v);
                            return Ok(());
                        }
                    }
                    Some(_) => {}
                }
            }
            let key = cx.atom_key(vm, name);
            if keeps_named_keys_in_shape(&object.kind)
                && let Some(info) = shape.borrow(&vm.heap).lookup(key)
                && !info.attrs.is_accessor()
            {
                let v = o.borrow(&vm.heap).slot(info.slot);
                vm.inline_caches.set(cx.ic_table, ic, InlineCache::property(shape, info.slot));
                cx.set(vm, dst, v);
                return Ok(());
            }
        }
    }
    let key = cx.atom_key(vm, name);
    // Inherited properties (methods, mostly) and absent keys: the lookup
    // cache answers, and a data property one level up goes into this
    // instruction's cache.
    if let Some(o) = base_value.as_object()
        && LookupCache::is_cacheable_key(key, PropertyKey::String(vm.names.length))
        && let Some(found) = vm.lookup_cache.lookup(&vm.heap, o, key)
    {
        if matches!(found, CachedProperty::Data(_)) {
            cache_inherited(vm, cx.ic_table, ic, o, key);
        }
        let v = im::cached_property_value(vm, found, base_value)?;
        cx.set(vm, dst, v);
        return Ok(());
    }
    let v = get_value(vm, base_value, key)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `SetNamed`: `obj.name = src`, through the inline cache (an own
/// writable data property, or an add along a cached transition).
#[inline(always)]
pub(in crate::interpreter) fn set_named(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    name: u32,
    src: Reg,
    ic: IcIndex,
    strict: bool,
) -> JsResult<()> {
    let (target, v) = (cx.get(vm, obj), cx.get(vm, src));
    let mut before = None;
    if let Some(o) = target.as_object() {
        let object = o.borrow(&vm.heap);
        if let Some(shape) = object.shape() {
            let cache = vm.inline_caches.get(cx.ic_table, ic);
            if cache.shape == Some(shape) {
                if cache.transition.is_none() {
                    o.borrow_mut(&mut vm.heap).set_slot(cache.slot, v);
                    return Ok(());
                }
                if add_by_transition(vm, o, cache, cx.atom_key(vm, name), v, true) {
                    return Ok(());
                }
            }
            let key = cx.atom_key(vm, name);
            let object = o.borrow(&vm.heap);
            if keeps_named_keys_in_shape(&object.kind)
                && let Some(info) = shape.borrow(&vm.heap).lookup(key)
                && info.attrs.writable()
                && !info.attrs.is_accessor()
            {
                o.borrow_mut(&mut vm.heap).set_slot(info.slot, v);
                vm.inline_caches.set(cx.ic_table, ic, InlineCache::property(shape, info.slot));
                return Ok(());
            }
            before = Some((o, shape));
        }
    }
    let key = cx.atom_key(vm, name);
    let added = before.is_some_and(|(o, _)| add_static_name(vm, o, key, v, true));
    if !added {
        put_value(vm, target, key, v, strict)?;
    }
    if let Some((o, from)) = before {
        record_transition(vm, cx.ic_table, ic, o, from, key);
    }
    Ok(())
}

/// `GetIndexed`: `dst = obj[key]`, a present dense element without a
/// generic `[[Get]]`.
#[inline(always)]
pub(in crate::interpreter) fn get_indexed(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    key: Reg,
) -> JsResult<()> {
    let (base_value, key_value) = (cx.get(vm, obj), cx.get(vm, key));
    if let (Some(o), Some(n)) = (base_value.as_object(), key_value.as_number()) {
        if let Some(v) = fast_element(vm, o, n) {
            cx.set(vm, dst, v);
            return Ok(());
        }
        if let Some(v) = crate::builtins::typed_array::get_number_key(vm, o, n) {
            cx.set(vm, dst, v);
            return Ok(());
        }
    }
    if base_value.is_nullish() {
        return Err(nullish_base_error(vm, base_value, key_value, "read properties", "reading"));
    }
    let k = to_property_key(vm, key_value)?;
    let v = get_value(vm, base_value, k)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `GetIndexedConvertKey`: `dst = obj[key]`, leaving the converted key in
/// `key` for the write of a compound assignment.
#[inline(always)]
pub(in crate::interpreter) fn get_indexed_convert_key(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    key: Reg,
) -> JsResult<()> {
    let (base_value, key_value) = (cx.get(vm, obj), cx.get(vm, key));
    if base_value.is_nullish() {
        return Err(nullish_base_error(vm, base_value, key_value, "read properties", "reading"));
    }
    let k = to_property_key(vm, key_value)?;
    let converted = crate::builtins::object::key_to_value(vm, k);
    cx.set(vm, key, converted);
    let v = get_value(vm, base_value, k)?;
    cx.set(vm, dst, v);
    Ok(())
}

/// `SetIndexed`: `obj[key] = src`, a dense overwrite or append without a
/// generic `[[Set]]`.
#[inline(always)]
pub(in crate::interpreter) fn set_indexed(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    key: Reg,
    src: Reg,
    strict: bool,
) -> JsResult<()> {
    let (target, key_value, v) = (cx.get(vm, obj), cx.get(vm, key), cx.get(vm, src));
    if let (Some(o), Some(n)) = (target.as_object(), key_value.as_number()) {
        if set_fast_element(vm, o, n, v) {
            return Ok(());
        }
        if let Some(done) = crate::builtins::typed_array::set_number_key(vm, o, n, v) {
            return done;
        }
    }
    if target.is_nullish() {
        return Err(nullish_base_error(vm, target, key_value, "set properties", "setting"));
    }
    let k = to_property_key(vm, key_value)?;
    put_value(vm, target, k, v, strict)
}

/// `LoadSuperBase`.
#[inline(always)]
pub(in crate::interpreter) fn load_super_base(vm: &mut Vm, cx: &FrameContext, dst: Reg) -> JsResult<()> {
    let v = super_base(vm)?.map_or(Value::NULL, Value::object);
    cx.set(vm, dst, v);
    Ok(())
}

/// `GetSuper`: `dst = super[key]`.
#[inline(always)]
pub(in crate::interpreter) fn get_super(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    proto: Reg,
    key: Reg,
) -> JsResult<()> {
    let k = to_property_key(vm, cx.get(vm, key))?;
    let this = vm.stack.registers[cx.base];
    let v = match cx.get(vm, proto).as_object() {
        Some(p) => get(vm, p, k, this)?,
        None => return Err(vm.type_error("Cannot read properties of null (super)")),
    };
    cx.set(vm, dst, v);
    Ok(())
}

/// `SetSuper`: `super[key] = src`.
#[inline(always)]
pub(in crate::interpreter) fn set_super(
    vm: &mut Vm,
    cx: &FrameContext,
    proto: Reg,
    key: Reg,
    src: Reg,
    strict: bool,
) -> JsResult<()> {
    let k = to_property_key(vm, cx.get(vm, key))?;
    let (this, value) = (vm.stack.registers[cx.base], cx.get(vm, src));
    let Some(p) = cx.get(vm, proto).as_object() else {
        return Err(vm.type_error("Cannot set properties of null (super)"));
    };
    if !im::set(vm, p, k, value, this)? && strict {
        let text = key_to_display(vm, k);
        return Err(vm.type_error(&format!("Cannot assign to read only property '{text}'")));
    }
    Ok(())
}

/// `Delete`: `dst = delete obj[key]`.
#[inline(always)]
pub(in crate::interpreter) fn delete(
    vm: &mut Vm,
    cx: &FrameContext,
    dst: Reg,
    obj: Reg,
    key: Reg,
    strict: bool,
) -> JsResult<()> {
    let (target, key_value) = (cx.get(vm, obj), cx.get(vm, key));
    let o = to_object(vm, target)?;
    let k = to_property_key(vm, key_value)?;
    let ok = im::delete(vm, o, k)?;
    if !ok && strict {
        let text = key_to_display(vm, k);
        return Err(vm.type_error(&format!("Cannot delete property '{text}'")));
    }
    cx.set(vm, dst, Value::boolean(ok));
    Ok(())
}

/// `DefineNamed`: CreateDataPropertyOrThrow for an object literal's static
/// key, along a cached shape transition.
#[inline(always)]
pub(in crate::interpreter) fn define_named(
    vm: &mut Vm,
    cx: &FrameContext,
    obj: Reg,
    name: u32,
    src: Reg,
    ic: IcIndex,
) -> JsResult<()> {
    let (target, v) = (cx.get(vm, obj), cx.get(vm, src));
    let Some(o) = target.as_object() else { return Ok(()) };
    let key = cx.atom_key(vm, name);
    let from = o.borrow(&vm.heap).shape();
    let cache = vm.inline_caches.get(cx.ic_table, ic);
    if from.is_some()
        && cache.shape == from
        && cache.transition.is_some()
        && add_by_transition(vm, o, cache, key, v, false)
    {
        return Ok(());
    }
    if !add_static_name(vm, o, key, v, false) {
        create_data_property_or_throw(vm, o, key, v)?;
    }
    if let Some(from) = from {
        record_transition(vm, cx.ic_table, ic, o, from, key);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the object `expression` evaluates to keeps a shape. The
    /// script keeps it in a global: a value a script returns is not rooted
    /// once the next script runs.
    fn is_shaped(vm: &mut Vm, expression: &str) -> bool {
        let value = vm.eval_script("shapes.js", expression).unwrap_or_default();
        let object = vm.handle_value(&value).and_then(Value::as_object).expect("an object");
        object.borrow(&vm.heap).shape().is_some()
    }

    /// `count` statements made by `statement` from their index.
    fn repeated(count: usize, statement: impl Fn(usize) -> String) -> String {
        (0..count).map(statement).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn objects_grown_by_static_names_stay_shaped_past_the_generic_limit() {
        let mut vm = Vm::new();
        let fields = repeated(300, |i| format!("this.f{i} = {i};"));
        let script = format!("function Big() {{ {fields} }} globalThis.big = new Big(); big");
        assert!(is_shaped(&mut vm, &script));
        let literal = repeated(300, |i| format!("l{i}: {i},"));
        assert!(is_shaped(&mut vm, &format!("globalThis.lit = {{ {literal} }}; lit")));
        // Past MAX_STATIC_SHAPED_PROPERTIES, a dictionary.
        let many = repeated(MAX_STATIC_SHAPED_PROPERTIES + 1, |i| format!("o.m{i} = 0;"));
        assert!(!is_shaped(&mut vm, &format!("globalThis.o = {{}}; {many} o")));
    }

    #[test]
    fn objects_grown_by_computed_keys_become_dictionaries_at_the_generic_limit() {
        let mut vm = Vm::new();
        let limit = MAX_SHAPED_PROPERTIES;
        assert!(is_shaped(
            &mut vm,
            &format!("globalThis.m = {{}}; for (let i = 0; i < {limit}; i++) m['k' + i] = i; m")
        ));
        assert!(!is_shaped(
            &mut vm,
            &format!("globalThis.n = {{}}; for (let i = 0; i <= {limit}; i++) n['k' + i] = i; n")
        ));
    }
}
