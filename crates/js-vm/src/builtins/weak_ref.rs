//! WeakRef and FinalizationRegistry (§26.1, §26.2) on js-gc's weak
//! references and finalization tables. Cleanup callbacks run as host tasks
//! after the collection that found their targets dead; they do not keep
//! the event loop alive.

use js_gc::{FinalizationTable, Gc, GcAny, Trace, Tracer, Weak};

use super::{constructor, method};
use crate::abstract_ops::{is_callable, same_value};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{call, define_builtin};
use crate::object::{Attributes, DataClass, JsObject, PropertyKey};
use crate::symbol::Symbol;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A WeakRef: its slots are a [`WeakTarget`] cell.
static WEAK_REF: DataClass = DataClass::plain::<WeakTarget>("WeakRef");

/// A FinalizationRegistry: its slots are a [`RegistryState`] cell, which
/// owns the finalization table (so the collector reports that cell when
/// targets die).
static FINALIZATION_REGISTRY: DataClass = DataClass::plain::<RegistryState>("FinalizationRegistry");

/// Whether `o` is a WeakRef or a FinalizationRegistry (`Some(true)`:
/// a WeakRef).
pub(crate) fn is_weak_ref_or_registry(vm: &Vm, o: Gc<JsObject>) -> Option<bool> {
    let o = o.borrow(&vm.heap);
    if o.is_data(&WEAK_REF) {
        Some(true)
    } else if o.is_data(&FINALIZATION_REGISTRY) {
        Some(false)
    } else {
        None
    }
}

fn registry_cell(vm: &Vm, o: Gc<JsObject>) -> Option<Gc<RegistryState>> {
    o.borrow(&vm.heap).data_of(&FINALIZATION_REGISTRY)
}

/// A WeakRef's `[[WeakRefTarget]]`: an object or an unregistered symbol.
pub enum WeakTarget {
    /// An object target.
    Object(Weak<JsObject>),
    /// A symbol target.
    Symbol(Weak<Symbol>),
}

// SAFETY: the weak reference registers itself; nothing is marked.
unsafe impl Trace for WeakTarget {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            WeakTarget::Object(w) => w.trace(tracer),
            WeakTarget::Symbol(w) => w.trace(tracer),
        }
    }
}

impl WeakTarget {
    fn get(&self) -> Value {
        match self {
            WeakTarget::Object(w) => w.upgrade().map_or(Value::UNDEFINED, Value::object),
            WeakTarget::Symbol(w) => w.upgrade().map_or(Value::UNDEFINED, Value::symbol),
        }
    }
}

/// A FinalizationRegistry's slots: the cleanup callback and the
/// registrations.
pub struct RegistryState {
    /// `[[CleanupCallback]]`.
    pub cleanup: Value,
    /// `[[Cells]]`: targets weak, held values strong, tokens weak.
    pub table: FinalizationTable<Value>,
}

// SAFETY: the callback is strong; the table traces its held values and
// registers itself for the finalization pass.
unsafe impl Trace for RegistryState {
    fn trace(&self, tracer: &mut Tracer) {
        self.cleanup.trace(tracer);
        self.table.trace(tracer);
    }
}

/// CanBeHeldWeakly: objects and symbols not in the `Symbol.for` registry.
fn can_be_held_weakly(vm: &Vm, v: Value) -> Option<GcAny> {
    if let Some(o) = v.as_object() {
        return Some(o.as_any());
    }
    v.as_symbol().filter(|s| !s.borrow(&vm.heap).registered).map(Gc::as_any)
}

fn weak_ref_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        return Err(vm.type_error("Constructor WeakRef requires 'new'"));
    };
    let target = info.arg(vm, 0);
    let weak = if let Some(o) = target.as_object() {
        WeakTarget::Object(Weak::new(o))
    } else if let Some(s) = target.as_symbol().filter(|s| !s.borrow(&vm.heap).registered) {
        WeakTarget::Symbol(Weak::new(s))
    } else {
        return Err(vm.type_error("WeakRef: invalid target"));
    };
    let proto = prototype_from_constructor(vm, nt, |i| i.weak_ref_prototype)?;
    let o = vm.new_object_with_data(Some(proto), &WEAK_REF, weak);
    // AddToKeptObjects: the target survives the current job.
    vm.jobs.kept_alive.push(target);
    Ok(Value::object(o))
}

/// `WeakRef.prototype.deref`.
fn deref(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let cell = info.this.as_object().and_then(|o| o.borrow(&vm.heap).data_of::<WeakTarget>(&WEAK_REF));
    let Some(cell) = cell else {
        return Err(vm.type_error("WeakRef.prototype.deref called on incompatible receiver"));
    };
    let target = cell.borrow(&vm.heap).get();
    if !target.is_undefined() {
        vm.jobs.kept_alive.push(target);
    }
    Ok(target)
}

fn registry_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(nt) = info.new_target else {
        return Err(vm.type_error("Constructor FinalizationRegistry requires 'new'"));
    };
    let cleanup = info.arg(vm, 0);
    if !is_callable(vm, cleanup) {
        return Err(vm.type_error("FinalizationRegistry: cleanup must be callable"));
    }
    let proto = prototype_from_constructor(vm, nt, |i| i.finalization_registry_prototype)?;
    let state = RegistryState { cleanup, table: FinalizationTable::new() };
    let o = vm.new_object_with_data(Some(proto), &FINALIZATION_REGISTRY, state);
    Ok(Value::object(o))
}

fn registry_of(vm: &mut Vm, this: Value, name: &str) -> JsResult<Gc<JsObject>> {
    let ok = this.as_object().filter(|o| o.borrow(&vm.heap).is_data(&FINALIZATION_REGISTRY));
    ok.ok_or_else(|| vm.type_error(&format!("FinalizationRegistry.prototype.{name} called on incompatible receiver")))
}

/// `FinalizationRegistry.prototype.register(target, held, token)`.
fn register(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let registry = registry_of(vm, info.this, "register")?;
    let (target, held, token) = (info.arg(vm, 0), info.arg(vm, 1), info.arg(vm, 2));
    let Some(target_cell) = can_be_held_weakly(vm, target) else {
        return Err(vm.type_error("FinalizationRegistry.prototype.register: invalid target"));
    };
    if same_value(vm, target, held) {
        return Err(vm.type_error("FinalizationRegistry.prototype.register: target and holdings must not be same"));
    }
    let token_cell = match can_be_held_weakly(vm, token) {
        Some(cell) => Some(cell),
        None if token.is_undefined() => None,
        None => return Err(vm.type_error("FinalizationRegistry.prototype.register: invalid unregister token")),
    };
    if let Some(state) = registry_cell(vm, registry) {
        state.borrow_mut(&mut vm.heap).table.register(target_cell, held, token_cell);
    }
    Ok(Value::UNDEFINED)
}

/// `FinalizationRegistry.prototype.unregister(token)`.
fn unregister(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let registry = registry_of(vm, info.this, "unregister")?;
    let token = info.arg(vm, 0);
    let Some(token_cell) = can_be_held_weakly(vm, token) else {
        return Err(vm.type_error("FinalizationRegistry.prototype.unregister: invalid unregister token"));
    };
    let removed =
        registry_cell(vm, registry).is_some_and(|state| state.borrow_mut(&mut vm.heap).table.unregister(token_cell));
    Ok(Value::boolean(removed))
}

impl Vm {
    /// Runs the cleanup callbacks of registries whose targets died
    /// (HostEnqueueFinalizationRegistryCleanupJob's jobs), each for every
    /// held value once.
    pub(crate) fn run_finalization_cleanups(&mut self) -> JsResult<()> {
        while let Some(cell) = self.jobs.finalization_ready.pop() {
            // The collector reports the cells owning finalization tables:
            // only registries' slots have one.
            let Some(registry) = cell.downcast::<RegistryState>() else { continue };
            loop {
                let state = registry.borrow_mut(&mut self.heap);
                let Some((cleanup, held)) = state.table.pop_pending().map(|h| (state.cleanup, h)) else { break };
                let mark = self.stack.temp_roots.len();
                self.stack.temp_roots.extend([Value::internal(cell), held]);
                let result = call(self, cleanup, Value::UNDEFINED, &[held]);
                self.stack.temp_roots.truncate(mark);
                result?;
            }
        }
        Ok(())
    }
}

/// Installs WeakRef and FinalizationRegistry.
pub(crate) fn install(vm: &mut Vm) {
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let weak_ref_proto = vm.realm.intrinsics.weak_ref_prototype;
    constructor(vm, "WeakRef", 1, weak_ref_ctor, weak_ref_proto);
    method(vm, weak_ref_proto, "deref", 0, deref);
    let text = vm.string("WeakRef");
    define_builtin(vm, weak_ref_proto, tag, text, Attributes::CONFIGURABLE_ONLY);

    let registry_proto = vm.realm.intrinsics.finalization_registry_prototype;
    constructor(vm, "FinalizationRegistry", 1, registry_ctor, registry_proto);
    method(vm, registry_proto, "register", 2, register);
    method(vm, registry_proto, "unregister", 1, unregister);
    let text = vm.string("FinalizationRegistry");
    define_builtin(vm, registry_proto, tag, text, Attributes::CONFIGURABLE_ONLY);
}
