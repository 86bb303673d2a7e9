//! Global bindings: the global lexical declarations first, then the global
//! object's properties (§9.1.1.4), with an inline cache that remembers a
//! lexical binding's index among the realm's global lexicals, or a `var`
//! binding's index in the global object's dictionary.

use super::FrameContext;
use super::env::tdz_error;
use crate::abstract_ops::string_key;
use crate::bytecode::{IcIndex, Reg};
use crate::interpreter::InlineCache;
use crate::object::internal_methods::{self as im, has_property};
use crate::object::{Properties, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A global read through the inline cache: for a global lexical binding its
/// index in the realm's lexicals (a binding still in its TDZ takes the full
/// path, which throws), for a global `var` its index in the global object's
/// dictionary, each checked against the key stored there.
#[inline]
fn cached_global(vm: &Vm, ic_table: u32, ic: u32, name: Value) -> Option<Value> {
    let entry = vm.inline_caches.get(ic_table, ic);
    let atom = name.as_string()?;
    if entry.dictionary_index == u32::MAX {
        let (key, binding) = vm.realm.global_lexicals.get_index(entry.lexical_index as usize)?;
        return (*key == atom && !binding.value.is_hole()).then_some(binding.value);
    }
    if vm.realm.global_lexicals.len() != entry.lexical_index as usize {
        return None;
    }
    let Properties::Dictionary(map) = &vm.realm.global.borrow(&vm.heap).properties else { return None };
    let (key, (value, attrs)) = map.get_index(entry.dictionary_index as usize)?;
    (*key == PropertyKey::String(atom) && !attrs.is_accessor()).then_some(*value)
}

/// Writes `v` to the global binding `name` through the inline cache: only
/// when the cached entry is still `name` and a mutable, initialised lexical
/// binding or a writable data property of the global object (a setter, a
/// non-writable property, a constant or a binding in its TDZ takes the full
/// path). Returns whether it wrote.
#[inline]
fn store_cached_global(vm: &mut Vm, ic_table: u32, ic: u32, name: Value, v: Value) -> bool {
    let entry = vm.inline_caches.get(ic_table, ic);
    let Some(atom) = name.as_string() else { return false };
    if entry.dictionary_index == u32::MAX {
        return match vm.realm.global_lexicals.get_index_mut(entry.lexical_index as usize) {
            Some((key, binding)) if *key == atom && binding.mutable && !binding.value.is_hole() => {
                binding.value = v;
                true
            }
            _ => false,
        };
    }
    if vm.realm.global_lexicals.len() != entry.lexical_index as usize {
        return false;
    }
    let global = vm.realm.global;
    let Properties::Dictionary(map) = &mut global.borrow_mut(&mut vm.heap).properties else {
        return false;
    };
    match map.get_index_mut(entry.dictionary_index as usize) {
        Some((key, (value, attrs)))
            if *key == PropertyKey::String(atom) && !attrs.is_accessor() && attrs.writable() =>
        {
            *value = v;
            true
        }
        _ => false,
    }
}

/// Records where the global binding `name` lives for [`cached_global`] and
/// [`store_cached_global`]: a lexical binding's index, or a global object
/// data property's dictionary index with the lexical count it was found
/// under.
#[inline]
fn cache_global(vm: &mut Vm, ic_table: u32, ic: u32, name: Value) {
    let Some(atom) = name.as_string() else { return };
    let lexicals = &vm.realm.global_lexicals;
    if let Some(index) = lexicals.get_index_of(&atom) {
        let entry = InlineCache { lexical_index: index as u32, ..InlineCache::default() };
        vm.inline_caches.set(ic_table, ic, entry);
        return;
    }
    let lexical_count = lexicals.len() as u32;
    let Properties::Dictionary(map) = &vm.realm.global.borrow(&vm.heap).properties else { return };
    if let Some(index) = map.get_index_of(&PropertyKey::String(atom)) {
        let entry =
            InlineCache { dictionary_index: index as u32, lexical_index: lexical_count, ..InlineCache::default() };
        vm.inline_caches.set(ic_table, ic, entry);
    }
}

/// `ResolveBinding` + `GetValue` for a global name; with `for_typeof` a
/// missing name is `undefined` instead of a `ReferenceError`.
#[inline]
fn get_global(vm: &mut Vm, name: Value, for_typeof: bool) -> JsResult<Value> {
    let Some(atom) = name.as_string() else { return Ok(Value::UNDEFINED) };
    if let Some(binding) = vm.realm.global_lexicals.get(&atom) {
        if binding.value.is_hole() {
            return Err(tdz_error(vm, name));
        }
        return Ok(binding.value);
    }
    let global = vm.realm.global;
    let key = string_key(vm, atom);
    if !has_property(vm, global, key)? {
        if for_typeof {
            return Ok(Value::UNDEFINED);
        }
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.reference_error(&format!("{text} is not defined")));
    }
    im::get(vm, global, key, Value::object(global))
}

/// `PutValue` for a global name.
#[inline]
fn set_global(vm: &mut Vm, name: Value, v: Value, strict: bool) -> JsResult<()> {
    let Some(atom) = name.as_string() else { return Ok(()) };
    if let Some(binding) = vm.realm.global_lexicals.get_mut(&atom) {
        if binding.value.is_hole() {
            return Err(tdz_error(vm, name));
        }
        if !binding.mutable {
            return Err(vm.type_error("Assignment to constant variable."));
        }
        binding.value = v;
        return Ok(());
    }
    let global = vm.realm.global;
    let key = string_key(vm, atom);
    if strict && !has_property(vm, global, key)? {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.reference_error(&format!("{text} is not defined")));
    }
    let ok = im::set(vm, global, key, v, Value::object(global))?;
    if !ok && strict {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.type_error(&format!("Cannot assign to read only property '{text}' of object")));
    }
    Ok(())
}

/// `GetGlobal`.
#[inline(always)]
pub(in crate::interpreter) fn get(vm: &mut Vm, cx: &FrameContext, dst: Reg, name: u32, ic: IcIndex) -> JsResult<()> {
    let name = cx.constant(vm, name);
    if let Some(v) = cached_global(vm, cx.ic_table, ic, name) {
        cx.set(vm, dst, v);
        return Ok(());
    }
    let v = get_global(vm, name, false)?;
    cx.set(vm, dst, v);
    cache_global(vm, cx.ic_table, ic, name);
    Ok(())
}

/// `TypeofGlobal`: `typeof name`, `"undefined"` for a missing name.
#[inline(always)]
pub(in crate::interpreter) fn type_of(vm: &mut Vm, cx: &FrameContext, dst: Reg, name: u32) -> JsResult<()> {
    let name = cx.constant(vm, name);
    let v = get_global(vm, name, true)?;
    let t = crate::abstract_ops::type_of(vm, v);
    let s = Value::string(vm.atoms.intern_str(&mut vm.heap, t));
    cx.set(vm, dst, s);
    Ok(())
}

/// `HasGlobalBinding`: HasBinding of the global environment record
/// (§9.1.1.4.1), so a strict assignment can resolve its reference before
/// the right-hand side runs.
#[inline(always)]
pub(in crate::interpreter) fn has_binding(vm: &mut Vm, cx: &FrameContext, dst: Reg, name: u32) -> JsResult<()> {
    let name = cx.constant(vm, name);
    let found = match name.as_string() {
        Some(atom) if vm.realm.global_lexicals.contains_key(&atom) => true,
        Some(atom) => {
            let global = vm.realm.global;
            let key = string_key(vm, atom);
            has_property(vm, global, key)?
        }
        None => false,
    };
    cx.set(vm, dst, Value::boolean(found));
    Ok(())
}

/// `SetGlobal`.
#[inline(always)]
pub(in crate::interpreter) fn set(
    vm: &mut Vm,
    cx: &FrameContext,
    src: Reg,
    name: u32,
    strict: bool,
    ic: IcIndex,
) -> JsResult<()> {
    let (v, name) = (cx.get(vm, src), cx.constant(vm, name));
    if !store_cached_global(vm, cx.ic_table, ic, name, v) {
        set_global(vm, name, v, strict)?;
        cache_global(vm, cx.ic_table, ic, name);
    }
    Ok(())
}

/// `InitGlobalLexical`: initialises a top-level `let`/`const`/`class`.
#[inline(always)]
pub(in crate::interpreter) fn init_lexical(vm: &mut Vm, cx: &FrameContext, src: Reg, name: u32) {
    let (v, name) = (cx.get(vm, src), cx.constant(vm, name));
    if let Some(atom) = name.as_string()
        && let Some(binding) = vm.realm.global_lexicals.get_mut(&atom)
    {
        binding.value = v;
    }
}

/// `InitGlobalFunction` (§9.1.1.4.18 `CreateGlobalFunctionBinding`).
#[inline(always)]
pub(in crate::interpreter) fn init_function(
    vm: &mut Vm,
    cx: &FrameContext,
    src: Reg,
    name: u32,
    configurable: bool,
) -> JsResult<()> {
    let (v, name) = (cx.get(vm, src), cx.constant(vm, name));
    if let Some(atom) = name.as_string() {
        let key = string_key(vm, atom);
        crate::builtins::global::create_global_function_binding(vm, key, v, configurable)?;
    }
    Ok(())
}

/// `DeleteGlobal`: `delete name` (lexical bindings are not deletable).
#[inline(always)]
pub(in crate::interpreter) fn delete(vm: &mut Vm, cx: &FrameContext, dst: Reg, name: u32) -> JsResult<()> {
    let name = cx.constant(vm, name);
    let result = match name.as_string() {
        Some(atom) if vm.realm.global_lexicals.contains_key(&atom) => false,
        Some(atom) => {
            let key = string_key(vm, atom);
            im::delete(vm, vm.realm.global, key)?
        }
        None => true,
    };
    cx.set(vm, dst, Value::boolean(result));
    Ok(())
}
