//! Symbol and Symbol.prototype (§20.4).

use std::collections::HashMap;

use js_gc::Gc;

use super::{accessor_property, constructor, method, symbol_method, value_property};
use crate::abstract_ops::to_string;
use crate::interpreter::CallInfo;
use crate::object::{Attributes, ObjectKind, PropertyKey};
use crate::string::JsString;
use crate::symbol::Symbol;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn symbol_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if info.new_target.is_some() {
        return Err(vm.type_error("Symbol is not a constructor"));
    }
    let d = info.arg(vm, 0);
    let description = if d.is_undefined() { None } else { Some(to_string(vm, d)?) };
    Ok(Value::symbol(vm.heap.alloc(Symbol { description, registered: false, private: false })))
}

/// The global symbol registry of `Symbol.for`, by description text.
#[derive(Default)]
pub struct SymbolRegistry {
    by_key: HashMap<Vec<u16>, Gc<Symbol>>,
}

impl SymbolRegistry {
    /// Every registered symbol (they live as long as the VM).
    pub fn symbols(&self) -> impl Iterator<Item = Gc<Symbol>> + '_ {
        self.by_key.values().copied()
    }
}

fn symbol_for(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let key = info.arg(vm, 0);
    let s = to_string(vm, key)?;
    let s = JsString::flatten(&mut vm.heap, s);
    let units: Vec<u16> = s.borrow(&vm.heap).flat().units().collect();
    if let Some(&sym) = vm.symbol_registry.by_key.get(&units) {
        return Ok(Value::symbol(sym));
    }
    let sym = vm.heap.alloc(Symbol { description: Some(s), registered: true, private: false });
    vm.symbol_registry.by_key.insert(units, sym);
    Ok(Value::symbol(sym))
}

fn key_for(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    let Some(sym) = v.as_symbol() else {
        return Err(vm.type_error("Symbol.keyFor requires a symbol"));
    };
    let s = sym.borrow(&vm.heap);
    Ok(if s.registered { s.description.map_or(Value::UNDEFINED, Value::string) } else { Value::UNDEFINED })
}

fn this_symbol(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Gc<Symbol>> {
    if let Some(s) = info.this.as_symbol() {
        return Ok(s);
    }
    if let Some(o) = info.this.as_object()
        && let ObjectKind::Symbol(s) = o.borrow(&vm.heap).kind
    {
        return Ok(s);
    }
    Err(vm.type_error(&format!("Symbol.prototype.{name} requires that 'this' be a Symbol")))
}

/// `SymbolDescriptiveString`.
pub fn descriptive_string(vm: &Vm, s: Gc<Symbol>) -> String {
    let d = s.borrow(&vm.heap).description.map(|d| d.borrow(&vm.heap).flat().to_rust_string());
    format!("Symbol({})", d.unwrap_or_default())
}

fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_symbol(vm, info, "toString")?;
    let text = descriptive_string(vm, s);
    Ok(vm.string(&text))
}

fn value_of(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(Value::symbol(this_symbol(vm, info, "valueOf")?))
}

fn description(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let s = this_symbol(vm, info, "description")?;
    Ok(s.borrow(&vm.heap).description.map_or(Value::UNDEFINED, Value::string))
}

/// Installs Symbol and Symbol.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.symbol_prototype;
    let ctor = constructor(vm, "Symbol", 0, symbol_ctor, proto);
    method(vm, ctor, "for", 1, symbol_for);
    method(vm, ctor, "keyFor", 1, key_for);
    let well_known: Vec<(&'static str, Gc<Symbol>)> = vm.symbols.all().collect();
    for (name, sym) in well_known {
        value_property(vm, ctor, name, Value::symbol(sym), Attributes::NONE);
    }
    method(vm, proto, "toString", 0, to_string_method);
    method(vm, proto, "valueOf", 0, value_of);
    let desc_key = vm.key("description");
    accessor_property(vm, proto, desc_key, "description", Some(description), None);
    let to_primitive = vm.symbols.to_primitive;
    symbol_method(vm, proto, to_primitive, "[Symbol.toPrimitive]", 1, value_of, Attributes::CONFIGURABLE_ONLY);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("Symbol");
    crate::object::internal_methods::define_builtin(vm, proto, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}
