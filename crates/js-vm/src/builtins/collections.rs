//! Map, Set (§24.1, §24.2), WeakMap and WeakSet (§24.3, §24.4).
//!
//! Map and Set keep entries in insertion order in a vector with tombstones,
//! so iterators stay valid while entries are deleted; a hash index finds
//! entries by SameValueZero. When tombstones outnumber live entries the
//! vector is compacted and the table's live iterators (held weakly) have
//! their positions moved back by the tombstones they had passed. WeakMap and WeakSet are js-gc ephemeron
//! tables: an entry lives only while its key does.

use std::collections::HashMap;

use js_gc::{EphemeronTable, Gc, GcAny, Trace, Tracer, Weak};

use super::iteration::iter_result;
use super::{accessor_property, constructor, method};
use crate::abstract_ops::is_callable;
use crate::host::console::{InspectHook, Inspection};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{call, get};
use crate::object::{Attributes, DataClass, IterationKind, JsObject, PropertyKey};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A key as hashed: SameValueZero classes (strings and BigInts by
/// content, -0 as +0).
#[derive(Clone, PartialEq, Eq, Hash)]
enum HashKey {
    Bits(u64),
    Text(Box<[u16]>),
    BigInt(num_bigint::BigInt),
}

/// The entries of a Map or Set (a Set's values are `undefined`).
#[derive(Default)]
pub struct OrderedTable {
    entries: Vec<Option<(Value, Value)>>,
    index: HashMap<HashKey, usize, ahash::RandomState>,
    /// Iterators over this table that may still be advanced.
    iterators: Vec<Weak<JsObject>>,
}

// SAFETY: every live key and value is reported.
unsafe impl Trace for OrderedTable {
    fn trace(&self, tracer: &mut Tracer) {
        for (k, v) in self.entries.iter().flatten() {
            k.trace(tracer);
            v.trace(tracer);
        }
        for it in &self.iterators {
            it.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "OrderedTable"
    }
}

/// A Map (`[[MapData]]`: an [`OrderedTable`]).
pub(crate) static MAP: DataClass = DataClass {
    name: "Map",
    cell: DataClass::cell_type::<OrderedTable>(),
    exotic: None,
    inspect: Some(&(inspect_map as InspectHook)),
};
/// A Set (`[[SetData]]`: an [`OrderedTable`] whose values are `undefined`).
pub(crate) static SET: DataClass = DataClass {
    name: "Set",
    cell: DataClass::cell_type::<OrderedTable>(),
    exotic: None,
    inspect: Some(&(inspect_set as InspectHook)),
};
/// A WeakMap (`[[WeakMapData]]`): an ephemeron table, entries live while
/// their keys do.
pub(crate) static WEAK_MAP: DataClass = DataClass {
    name: "WeakMap",
    cell: DataClass::cell_type::<EphemeronTable<Value>>(),
    exotic: None,
    inspect: Some(&(inspect_weak_map as InspectHook)),
};
/// A WeakSet (`[[WeakSetData]]`).
pub(crate) static WEAK_SET: DataClass = DataClass {
    name: "WeakSet",
    cell: DataClass::cell_type::<EphemeronTable<Value>>(),
    exotic: None,
    inspect: Some(&(inspect_weak_set as InspectHook)),
};
/// A Map Iterator or Set Iterator (§24.1.5, §24.2.6): a [`CollectionIterator`].
static COLLECTION_ITERATOR: DataClass = DataClass {
    name: "CollectionIterator",
    cell: DataClass::cell_type::<CollectionIterator>(),
    exotic: None,
    inspect: None,
};

fn inspect_table(vm: &Vm, cell: GcAny, is_map: bool) -> Inspection {
    let entries = cell.downcast::<OrderedTable>().map(|t| t.borrow(&vm.heap).live_entries().collect());
    Inspection::Collection { is_map, entries: entries.unwrap_or_default() }
}

fn inspect_map(vm: &Vm, cell: GcAny) -> Inspection {
    inspect_table(vm, cell, true)
}

fn inspect_set(vm: &Vm, cell: GcAny) -> Inspection {
    inspect_table(vm, cell, false)
}

fn inspect_weak_map(_: &Vm, _: GcAny) -> Inspection {
    Inspection::Weak("WeakMap")
}

fn inspect_weak_set(_: &Vm, _: GcAny) -> Inspection {
    Inspection::Weak("WeakSet")
}

/// The slots of a Map Iterator or Set Iterator.
#[derive(Clone, Copy)]
struct CollectionIterator {
    /// The Map or Set; `None` once exhausted.
    table: Option<Gc<JsObject>>,
    /// The next entry position.
    index: usize,
    /// What each step yields.
    kind: IterationKind,
}

// SAFETY: the one edge, the iterated collection, is reported.
unsafe impl Trace for CollectionIterator {
    fn trace(&self, tracer: &mut Tracer) {
        self.table.trace(tracer);
    }

    fn type_name() -> &'static str {
        "CollectionIterator"
    }
}

fn iterator_cell(vm: &Vm, it: Gc<JsObject>) -> Option<Gc<CollectionIterator>> {
    it.borrow(&vm.heap).data_of(&COLLECTION_ITERATOR)
}

/// The table of a Map or Set.
fn table_cell(vm: &Vm, o: Gc<JsObject>) -> Option<Gc<OrderedTable>> {
    let data = o.borrow(&vm.heap).data()?;
    data.get(&MAP).or_else(|| data.get(&SET))
}

/// Whether `o` is a Map (`true`) or Set (`false`), if it is either.
pub(crate) fn is_map_or_set(vm: &Vm, o: Gc<JsObject>) -> Option<bool> {
    let data = o.borrow(&vm.heap).data()?;
    if data.is(&MAP) {
        Some(true)
    } else if data.is(&SET) {
        Some(false)
    } else {
        None
    }
}

/// Whether `o` is a WeakMap (`true`) or WeakSet (`false`), if it is either.
pub(crate) fn is_weak_map_or_set(vm: &Vm, o: Gc<JsObject>) -> Option<bool> {
    let data = o.borrow(&vm.heap).data()?;
    if data.is(&WEAK_MAP) {
        Some(true)
    } else if data.is(&WEAK_SET) {
        Some(false)
    } else {
        None
    }
}

/// A new empty Map (`is_map`) or Set with prototype `proto`.
pub(crate) fn new_table(vm: &mut Vm, proto: Gc<JsObject>, is_map: bool) -> Gc<JsObject> {
    let class = if is_map { &MAP } else { &SET };
    vm.new_object_with_data(Some(proto), class, OrderedTable::default())
}

/// The entries of a Map or Set in insertion order (empty for anything else).
pub(crate) fn table_entries(vm: &Vm, o: Gc<JsObject>) -> Vec<(Value, Value)> {
    table_cell(vm, o).map(|t| t.borrow(&vm.heap).live_entries().collect()).unwrap_or_default()
}

impl OrderedTable {
    fn size(&self) -> usize {
        self.index.len()
    }

    /// The entries in insertion order.
    pub(crate) fn live_entries(&self) -> impl Iterator<Item = (Value, Value)> + '_ {
        self.entries.iter().flatten().copied()
    }

    fn find(&self, key: &HashKey) -> Option<usize> {
        self.index.get(key).copied()
    }

    fn needs_compaction(&self) -> bool {
        let dead = self.entries.len() - self.index.len();
        dead >= 16 && dead > self.index.len()
    }

    /// Drops the tombstones; returns their old positions, in order, and the
    /// iterators to adjust.
    fn compact(&mut self) -> (Vec<usize>, Vec<Weak<JsObject>>) {
        let mut removed = Vec::new();
        let mut kept = 0;
        for i in 0..self.entries.len() {
            if self.entries[i].is_none() {
                removed.push(i);
            } else {
                self.entries.swap(kept, i);
                kept += 1;
            }
        }
        self.entries.truncate(kept);
        for position in self.index.values_mut() {
            *position -= removed.partition_point(|&r| r < *position);
        }
        self.iterators.retain(|it| !it.is_empty());
        (removed, self.iterators.clone())
    }
}

/// Compacts `o`'s table if it is mostly tombstones, moving its iterators.
fn maybe_compact(vm: &mut Vm, o: Gc<JsObject>) {
    let Some((removed, iterators)) = with_table(vm, o, |t| t.needs_compaction().then(|| t.compact())).flatten() else {
        return;
    };
    for it in iterators.iter().filter_map(Weak::upgrade) {
        if let Some(cell) = iterator_cell(vm, it) {
            let state = cell.borrow_mut(&mut vm.heap);
            if state.table == Some(o) {
                state.index -= removed.partition_point(|&r| r < state.index);
            }
        }
    }
}

/// The SameValueZero class of a value.
fn hash_key(vm: &mut Vm, v: Value) -> HashKey {
    if let Some(n) = v.as_number() {
        let n = if n == 0.0 { 0.0 } else { n };
        return HashKey::Bits(Value::number(n).to_bits());
    }
    if let Some(s) = v.as_string() {
        let s = JsString::flatten(&mut vm.heap, s);
        return HashKey::Text(s.borrow(&vm.heap).flat().units().collect());
    }
    if let Some(b) = v.as_bigint() {
        return HashKey::BigInt(b.borrow(&vm.heap).value().clone());
    }
    HashKey::Bits(v.to_bits())
}

/// -0 is stored as +0.
fn normalize(v: Value) -> Value {
    if v.as_number() == Some(0.0) { Value::number(0.0) } else { v }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Collection {
    Map,
    Set,
}

fn table_of(vm: &mut Vm, this: Value, which: Collection, name: &str) -> JsResult<Gc<JsObject>> {
    let ok = this.as_object().filter(|&o| is_map_or_set(vm, o) == Some(which == Collection::Map));
    ok.ok_or_else(|| vm.type_error(&format!("Method {name} called on incompatible receiver")))
}

fn with_table<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut OrderedTable) -> R) -> Option<R> {
    let table = table_cell(vm, o)?;
    Some(f(table.borrow_mut(&mut vm.heap)))
}

/// Sets `key` to `value` in a Map's or Set's table (`CanonicalizeKeyedCollectionKey`
/// applied); used by `set`/`add` and by the structured clone.
pub(crate) fn table_set(vm: &mut Vm, o: Gc<JsObject>, key: Value, value: Value) {
    let h = hash_key(vm, key);
    let key = normalize(key);
    with_table(vm, o, |t| {
        if let Some(i) = t.find(&h) {
            t.entries[i] = Some((key, value));
        } else {
            t.entries.push(Some((key, value)));
            t.index.insert(h, t.entries.len() - 1);
        }
    });
}

pub(super) fn table_get(vm: &mut Vm, o: Gc<JsObject>, key: Value) -> Option<Value> {
    let h = hash_key(vm, key);
    with_table(vm, o, |t| t.find(&h).and_then(|i| t.entries[i].map(|e| e.1))).flatten()
}

pub(super) fn table_delete(vm: &mut Vm, o: Gc<JsObject>, key: Value) -> bool {
    let h = hash_key(vm, key);
    let deleted = with_table(vm, o, |t| match t.index.remove(&h) {
        Some(i) => {
            t.entries[i] = None;
            true
        }
        None => false,
    })
    .unwrap_or(false);
    maybe_compact(vm, o);
    deleted
}

/// Makes a Map or Set and fills it from `iterable` through its adder.
fn construct(vm: &mut Vm, info: &CallInfo, which: Collection) -> JsResult<Value> {
    let (name, adder_name) = if which == Collection::Map { ("Map", "set") } else { ("Set", "add") };
    let Some(nt) = info.new_target else {
        return Err(vm.type_error(&format!("Constructor {name} requires 'new'")));
    };
    let proto = if which == Collection::Map {
        prototype_from_constructor(vm, nt, |i| i.map_prototype)?
    } else {
        prototype_from_constructor(vm, nt, |i| i.set_prototype)?
    };
    let o = new_table(vm, proto, which == Collection::Map);
    vm.keep_alive(Value::object(o));
    let iterable = info.arg(vm, 0);
    if iterable.is_nullish() {
        return Ok(Value::object(o));
    }
    let key = vm.key(adder_name);
    let adder = get(vm, o, key, Value::object(o))?;
    if !is_callable(vm, adder) {
        return Err(vm.type_error(&format!("'{adder_name}' returned for {name} is not callable")));
    }
    // A getter may have made it; the iteration below runs user code.
    vm.keep_alive(adder);
    let record = super::iteration::get_iterator(vm, iterable)?;
    vm.keep_alive(Value::internal(record.into()));
    while let Some(item) = super::iteration::iterator_step_value(vm, record)? {
        let result = if which == Collection::Map {
            let Some(entry) = item.as_object() else {
                let e = vm.type_error("Iterator value is not an entry object");
                super::iteration::iterator_close(vm, record)?;
                return Err(e);
            };
            let k = get(vm, entry, PropertyKey::Index(0), item);
            // The key is held while the value's getter runs.
            let v = k.and_then(|k| {
                vm.keep_alive(k);
                get(vm, entry, PropertyKey::Index(1), item).map(|v| (k, v))
            });
            v.and_then(|(k, v)| call(vm, adder, Value::object(o), &[k, v]))
        } else {
            call(vm, adder, Value::object(o), &[item])
        };
        if let Err(e) = result {
            let _ = super::iteration::iterator_close(vm, record);
            return Err(e);
        }
    }
    Ok(Value::object(o))
}

fn map_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    construct(vm, info, Collection::Map)
}

fn set_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    construct(vm, info, Collection::Set)
}

fn map_get(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = table_of(vm, info.this, Collection::Map, "Map.prototype.get")?;
    let k = info.arg(vm, 0);
    Ok(table_get(vm, o, k).unwrap_or_default())
}

fn map_set(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = table_of(vm, info.this, Collection::Map, "Map.prototype.set")?;
    let (k, v) = (info.arg(vm, 0), info.arg(vm, 1));
    table_set(vm, o, k, v);
    Ok(info.this)
}

/// `Map.prototype.getOrInsert` (upsert proposal).
fn map_get_or_insert(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = table_of(vm, info.this, Collection::Map, "Map.prototype.getOrInsert")?;
    let (k, v) = (info.arg(vm, 0), info.arg(vm, 1));
    if let Some(existing) = table_get(vm, o, k) {
        return Ok(existing);
    }
    table_set(vm, o, k, v);
    Ok(v)
}

/// `Map.prototype.getOrInsertComputed`: the callback may itself insert the
/// key; its result overwrites that entry.
fn map_get_or_insert_computed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = table_of(vm, info.this, Collection::Map, "Map.prototype.getOrInsertComputed")?;
    let callback = info.arg(vm, 1);
    if !is_callable(vm, callback) {
        return Err(vm.type_error("Map.prototype.getOrInsertComputed: callback is not a function"));
    }
    let k = normalize(info.arg(vm, 0));
    if let Some(existing) = table_get(vm, o, k) {
        return Ok(existing);
    }
    let v = call(vm, callback, Value::UNDEFINED, &[k])?;
    table_set(vm, o, k, v);
    Ok(v)
}

fn has(vm: &mut Vm, info: &CallInfo, which: Collection) -> JsResult<Value> {
    let o = table_of(vm, info.this, which, "has")?;
    let k = info.arg(vm, 0);
    Ok(Value::boolean(table_get(vm, o, k).is_some()))
}

fn map_has(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    has(vm, info, Collection::Map)
}

fn set_has(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    has(vm, info, Collection::Set)
}

fn delete(vm: &mut Vm, info: &CallInfo, which: Collection) -> JsResult<Value> {
    let o = table_of(vm, info.this, which, "delete")?;
    let k = info.arg(vm, 0);
    Ok(Value::boolean(table_delete(vm, o, k)))
}

fn map_delete(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    delete(vm, info, Collection::Map)
}

fn set_delete(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    delete(vm, info, Collection::Set)
}

fn clear(vm: &mut Vm, info: &CallInfo, which: Collection) -> JsResult<Value> {
    let o = table_of(vm, info.this, which, "clear")?;
    with_table(vm, o, |t| {
        for e in &mut t.entries {
            *e = None;
        }
        t.index.clear();
    });
    maybe_compact(vm, o);
    Ok(Value::UNDEFINED)
}

fn map_clear(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    clear(vm, info, Collection::Map)
}

fn set_clear(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    clear(vm, info, Collection::Set)
}

/// The number of entries of a Map or Set.
pub(super) fn set_size_of(vm: &Vm, o: Gc<JsObject>) -> usize {
    table_cell(vm, o).map_or(0, |t| t.borrow(&vm.heap).size())
}

fn size(vm: &mut Vm, info: &CallInfo, which: Collection) -> JsResult<Value> {
    let o = table_of(vm, info.this, which, "get size")?;
    Ok(Value::number(with_table(vm, o, |t| t.size()).unwrap_or(0) as f64))
}

fn map_size(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    size(vm, info, Collection::Map)
}

fn set_size(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    size(vm, info, Collection::Set)
}

fn set_add(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = table_of(vm, info.this, Collection::Set, "Set.prototype.add")?;
    let k = info.arg(vm, 0);
    if table_get(vm, o, k).is_none() {
        table_set(vm, o, k, Value::UNDEFINED);
    }
    Ok(info.this)
}

/// The entry at `index` or later, with its position.
pub(super) fn entry_at(vm: &Vm, o: Gc<JsObject>, mut index: usize) -> Option<(usize, Value, Value)> {
    let t = table_cell(vm, o)?.borrow(&vm.heap);
    while index < t.entries.len() {
        if let Some((k, v)) = t.entries[index] {
            return Some((index, k, v));
        }
        index += 1;
    }
    None
}

fn for_each(vm: &mut Vm, info: &CallInfo, which: Collection) -> JsResult<Value> {
    let o = table_of(vm, info.this, which, "forEach")?;
    let f = info.arg(vm, 0);
    if !is_callable(vm, f) {
        return Err(vm.type_error("forEach callback is not a function"));
    }
    let this_arg = info.arg(vm, 1);
    let mut index = 0;
    while let Some((i, k, v)) = entry_at(vm, o, index) {
        let value = if which == Collection::Map { v } else { k };
        call(vm, f, this_arg, &[value, k, info.this])?;
        index = i + 1;
    }
    Ok(Value::UNDEFINED)
}

fn map_for_each(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    for_each(vm, info, Collection::Map)
}

fn set_for_each(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    for_each(vm, info, Collection::Set)
}

fn iterator(vm: &mut Vm, info: &CallInfo, which: Collection, kind: IterationKind) -> JsResult<Value> {
    let o = table_of(vm, info.this, which, "iterator")?;
    let proto = if which == Collection::Map {
        vm.realm.intrinsics.map_iterator_prototype
    } else {
        vm.realm.intrinsics.set_iterator_prototype
    };
    let it = vm.new_object_with_data(
        Some(proto),
        &COLLECTION_ITERATOR,
        CollectionIterator { table: Some(o), index: 0, kind },
    );
    with_table(vm, o, |t| {
        // Exhausted and collected iterators are dropped as new ones come.
        if t.iterators.len() >= 8 && t.iterators.len().is_power_of_two() {
            t.iterators.retain(|it| !it.is_empty());
        }
        t.iterators.push(Weak::new(it));
    });
    Ok(Value::object(it))
}

fn map_keys(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator(vm, info, Collection::Map, IterationKind::Keys)
}
fn map_values(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator(vm, info, Collection::Map, IterationKind::Values)
}
fn map_entries(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator(vm, info, Collection::Map, IterationKind::Entries)
}
fn set_values(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator(vm, info, Collection::Set, IterationKind::Values)
}
fn set_entries(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    iterator(vm, info, Collection::Set, IterationKind::Entries)
}

/// `%MapIteratorPrototype%.next` and `%SetIteratorPrototype%.next`.
fn iterator_next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(it) = info.this.as_object() else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let Some(cell) = iterator_cell(vm, it) else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let CollectionIterator { table, index, kind } = *cell.borrow(&vm.heap);
    let Some(table) = table else { return Ok(iter_result(vm, Value::UNDEFINED, true)) };
    let is_set = is_map_or_set(vm, table) == Some(false);
    let Some((i, k, v)) = entry_at(vm, table, index) else {
        cell.borrow_mut(&mut vm.heap).table = None;
        return Ok(iter_result(vm, Value::UNDEFINED, true));
    };
    cell.borrow_mut(&mut vm.heap).index = i + 1;
    let value = match (kind, is_set) {
        (IterationKind::Keys, _) | (IterationKind::Values, true) => k,
        (IterationKind::Values, false) => v,
        (IterationKind::Entries, set) => {
            let second = if set { k } else { v };
            Value::object(super::array::array_create(vm, &[k, second]))
        }
    };
    Ok(iter_result(vm, value, false))
}

fn group_by(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let items = info.arg(vm, 0);
    let callback = info.arg(vm, 1);
    if !is_callable(vm, callback) {
        return Err(vm.type_error("callback is not a function"));
    }
    let values = super::iteration::iterate_to_vec(vm, items)?;
    let proto = vm.realm.intrinsics.map_prototype;
    let map = new_table(vm, proto, true);
    vm.keep_alive(Value::object(map));
    for (i, v) in values.into_iter().enumerate() {
        let k = call(vm, callback, Value::UNDEFINED, &[v, Value::number(i as f64)])?;
        let group = if let Some(g) = table_get(vm, map, k).and_then(Value::as_object) {
            g
        } else {
            let g = super::array::array_create(vm, &[]);
            table_set(vm, map, k, Value::object(g));
            g
        };
        super::array::push_element(vm, group, v);
    }
    Ok(Value::object(map))
}

// ----- WeakMap / WeakSet -----

/// CanBeHeldWeakly: objects and symbols that `Symbol.for` did not register.
fn weak_key(vm: &Vm, v: Value) -> Option<GcAny> {
    if let Some(o) = v.as_object() {
        return Some(o.as_any());
    }
    v.as_symbol().filter(|s| !s.borrow(&vm.heap).registered).map(Gc::as_any)
}

fn weak_table(vm: &mut Vm, this: Value, set: bool, name: &str) -> JsResult<Gc<JsObject>> {
    let ok = this.as_object().filter(|&o| is_weak_map_or_set(vm, o) == Some(!set));
    ok.ok_or_else(|| vm.type_error(&format!("Method {name} called on incompatible receiver")))
}

fn with_weak<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut EphemeronTable<Value>) -> R) -> Option<R> {
    let data = o.borrow(&vm.heap).data()?;
    let table = data.get::<EphemeronTable<Value>>(&WEAK_MAP).or_else(|| data.get(&WEAK_SET))?;
    Some(f(table.borrow_mut(&mut vm.heap)))
}

fn construct_weak(vm: &mut Vm, info: &CallInfo, set: bool) -> JsResult<Value> {
    let (name, adder_name) = if set { ("WeakSet", "add") } else { ("WeakMap", "set") };
    let Some(nt) = info.new_target else {
        return Err(vm.type_error(&format!("Constructor {name} requires 'new'")));
    };
    let proto = if set {
        prototype_from_constructor(vm, nt, |i| i.weak_set_prototype)?
    } else {
        prototype_from_constructor(vm, nt, |i| i.weak_map_prototype)?
    };
    let class = if set { &WEAK_SET } else { &WEAK_MAP };
    let o = vm.new_object_with_data(Some(proto), class, EphemeronTable::<Value>::default());
    vm.keep_alive(Value::object(o));
    let iterable = info.arg(vm, 0);
    if iterable.is_nullish() {
        return Ok(Value::object(o));
    }
    let key = vm.key(adder_name);
    let adder = get(vm, o, key, Value::object(o))?;
    if !is_callable(vm, adder) {
        return Err(vm.type_error(&format!("'{adder_name}' returned for {name} is not callable")));
    }
    // A getter may have made it; the iteration below runs user code.
    vm.keep_alive(adder);
    let record = super::iteration::get_iterator(vm, iterable)?;
    vm.keep_alive(Value::internal(record.into()));
    while let Some(item) = super::iteration::iterator_step_value(vm, record)? {
        let result = if set {
            call(vm, adder, Value::object(o), &[item])
        } else {
            match item.as_object() {
                // The key is held while the value's getter runs.
                Some(entry) => get(vm, entry, PropertyKey::Index(0), item)
                    .and_then(|k| {
                        vm.keep_alive(k);
                        get(vm, entry, PropertyKey::Index(1), item).map(|v| (k, v))
                    })
                    .and_then(|(k, v)| call(vm, adder, Value::object(o), &[k, v])),
                None => Err(vm.type_error("Iterator value is not an entry object")),
            }
        };
        if let Err(e) = result {
            let _ = super::iteration::iterator_close(vm, record);
            return Err(e);
        }
    }
    Ok(Value::object(o))
}

fn weak_map_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    construct_weak(vm, info, false)
}

fn weak_set_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    construct_weak(vm, info, true)
}

fn weak_map_get(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = weak_table(vm, info.this, false, "WeakMap.prototype.get")?;
    let Some(k) = weak_key(vm, info.arg(vm, 0)) else { return Ok(Value::UNDEFINED) };
    Ok(with_weak(vm, o, |t| t.get(k).copied()).flatten().unwrap_or_default())
}

fn weak_map_set(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = weak_table(vm, info.this, false, "WeakMap.prototype.set")?;
    let Some(k) = weak_key(vm, info.arg(vm, 0)) else {
        return Err(vm.type_error("Invalid value used as weak map key"));
    };
    let v = info.arg(vm, 1);
    with_weak(vm, o, |t| t.insert(k, v));
    Ok(info.this)
}

/// `WeakMap.prototype.getOrInsert`.
fn weak_map_get_or_insert(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = weak_table(vm, info.this, false, "WeakMap.prototype.getOrInsert")?;
    let Some(k) = weak_key(vm, info.arg(vm, 0)) else {
        return Err(vm.type_error("Invalid value used as weak map key"));
    };
    let v = info.arg(vm, 1);
    let existing = with_weak(vm, o, |t| t.get(k).copied()).flatten();
    if let Some(existing) = existing {
        return Ok(existing);
    }
    with_weak(vm, o, |t| t.insert(k, v));
    Ok(v)
}

/// `WeakMap.prototype.getOrInsertComputed`.
fn weak_map_get_or_insert_computed(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = weak_table(vm, info.this, false, "WeakMap.prototype.getOrInsertComputed")?;
    let callback = info.arg(vm, 1);
    if !is_callable(vm, callback) {
        return Err(vm.type_error("WeakMap.prototype.getOrInsertComputed: callback is not a function"));
    }
    let key = info.arg(vm, 0);
    let Some(k) = weak_key(vm, key) else {
        return Err(vm.type_error("Invalid value used as weak map key"));
    };
    if let Some(existing) = with_weak(vm, o, |t| t.get(k).copied()).flatten() {
        return Ok(existing);
    }
    let v = call(vm, callback, Value::UNDEFINED, &[key])?;
    with_weak(vm, o, |t| t.insert(k, v));
    Ok(v)
}

fn weak_has(vm: &mut Vm, info: &CallInfo, set: bool) -> JsResult<Value> {
    let o = weak_table(vm, info.this, set, "has")?;
    let Some(k) = weak_key(vm, info.arg(vm, 0)) else { return Ok(Value::FALSE) };
    Ok(Value::boolean(with_weak(vm, o, |t| t.contains_key(k)).unwrap_or(false)))
}

fn weak_map_has(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    weak_has(vm, info, false)
}

fn weak_set_has(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    weak_has(vm, info, true)
}

fn weak_delete(vm: &mut Vm, info: &CallInfo, set: bool) -> JsResult<Value> {
    let o = weak_table(vm, info.this, set, "delete")?;
    let Some(k) = weak_key(vm, info.arg(vm, 0)) else { return Ok(Value::FALSE) };
    Ok(Value::boolean(with_weak(vm, o, |t| t.remove(k).is_some()).unwrap_or(false)))
}

fn weak_map_delete(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    weak_delete(vm, info, false)
}

fn weak_set_delete(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    weak_delete(vm, info, true)
}

fn weak_set_add(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = weak_table(vm, info.this, true, "WeakSet.prototype.add")?;
    let Some(k) = weak_key(vm, info.arg(vm, 0)) else {
        return Err(vm.type_error("Invalid value used in weak set"));
    };
    with_weak(vm, o, |t| t.insert(k, Value::TRUE));
    Ok(info.this)
}

fn species_getter(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

fn tag(vm: &mut Vm, o: Gc<JsObject>, text: &str) {
    let key = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let value = vm.string(text);
    crate::object::internal_methods::define_builtin(vm, o, key, value, Attributes::CONFIGURABLE_ONLY);
}

/// Installs Map, Set, WeakMap and WeakSet.
pub(crate) fn install(vm: &mut Vm) {
    let species = PropertyKey::Symbol(vm.symbols.species);
    let iterator_symbol = vm.symbols.iterator;

    let map_proto = vm.realm.intrinsics.map_prototype;
    let map = constructor(vm, "Map", 0, map_ctor, map_proto);
    accessor_property(vm, map, species, "[Symbol.species]", Some(species_getter), None);
    method(vm, map, "groupBy", 2, group_by);
    for (name, length, f) in [
        ("get", 1, map_get as crate::function::NativeFn),
        ("set", 2, map_set),
        ("getOrInsert", 2, map_get_or_insert),
        ("getOrInsertComputed", 2, map_get_or_insert_computed),
        ("has", 1, map_has),
        ("delete", 1, map_delete),
        ("clear", 0, map_clear),
        ("forEach", 1, map_for_each),
        ("keys", 0, map_keys),
        ("values", 0, map_values),
    ] {
        method(vm, map_proto, name, length, f);
    }
    let entries = method(vm, map_proto, "entries", 0, map_entries);
    crate::object::internal_methods::define_builtin(
        vm,
        map_proto,
        PropertyKey::Symbol(iterator_symbol),
        Value::object(entries),
        Attributes::METHOD,
    );
    let size_key = vm.key("size");
    accessor_property(vm, map_proto, size_key, "size", Some(map_size), None);
    tag(vm, map_proto, "Map");

    let set_proto = vm.realm.intrinsics.set_prototype;
    let set = constructor(vm, "Set", 0, set_ctor, set_proto);
    accessor_property(vm, set, species, "[Symbol.species]", Some(species_getter), None);
    for (name, length, f) in [
        ("add", 1, set_add as crate::function::NativeFn),
        ("has", 1, set_has),
        ("delete", 1, set_delete),
        ("clear", 0, set_clear),
        ("forEach", 1, set_for_each),
        ("entries", 0, set_entries),
    ] {
        method(vm, set_proto, name, length, f);
    }
    let values = method(vm, set_proto, "values", 0, set_values);
    let keys_key = vm.key("keys");
    crate::object::internal_methods::define_builtin(vm, set_proto, keys_key, Value::object(values), Attributes::METHOD);
    crate::object::internal_methods::define_builtin(
        vm,
        set_proto,
        PropertyKey::Symbol(iterator_symbol),
        Value::object(values),
        Attributes::METHOD,
    );
    accessor_property(vm, set_proto, size_key, "size", Some(set_size), None);
    tag(vm, set_proto, "Set");

    for (proto, name) in [
        (vm.realm.intrinsics.map_iterator_prototype, "Map Iterator"),
        (vm.realm.intrinsics.set_iterator_prototype, "Set Iterator"),
    ] {
        method(vm, proto, "next", 0, iterator_next);
        tag(vm, proto, name);
    }

    let weak_map_proto = vm.realm.intrinsics.weak_map_prototype;
    constructor(vm, "WeakMap", 0, weak_map_ctor, weak_map_proto);
    for (name, length, f) in [
        ("get", 1, weak_map_get as crate::function::NativeFn),
        ("set", 2, weak_map_set),
        ("getOrInsert", 2, weak_map_get_or_insert),
        ("getOrInsertComputed", 2, weak_map_get_or_insert_computed),
        ("has", 1, weak_map_has),
        ("delete", 1, weak_map_delete),
    ] {
        method(vm, weak_map_proto, name, length, f);
    }
    tag(vm, weak_map_proto, "WeakMap");

    let weak_set_proto = vm.realm.intrinsics.weak_set_prototype;
    constructor(vm, "WeakSet", 0, weak_set_ctor, weak_set_proto);
    for (name, length, f) in [
        ("add", 1, weak_set_add as crate::function::NativeFn),
        ("has", 1, weak_set_has),
        ("delete", 1, weak_set_delete),
    ] {
        method(vm, weak_set_proto, name, length, f);
    }
    tag(vm, weak_set_proto, "WeakSet");
}
