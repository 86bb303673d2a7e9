//! The VM-wide lookup cache: where `[[Get]]` last found a named property
//! for objects of a shape — in the object itself, on one of its prototypes,
//! or nowhere on the chain — so the next `[[Get]]` of that key on an object
//! of that shape checks a few pointers instead of hashing its way up the
//! chain again.
//!
//! An entry stays right without any invalidation hook: it records each
//! prototype it passed together with the shape that prototype had, and a
//! hit re-checks every link (the receiver's shape, each `[[Prototype]]`
//! pointer and each prototype's shape). Shapes never change in place — a
//! new property gives an object a new shape, and deletes and attribute
//! changes move it to a dictionary, which is never cached — so equal shapes
//! along an equal chain mean the same lookup; values are read from the
//! holder's slot at hit time, so writes to existing properties are seen.
//!
//! Entries hold cells without tracing them: the whole cache is emptied at
//! the end of every collection (before a freed address can be handed out
//! again), which costs nothing between collections and keeps the cache out
//! of the root set.

use js_gc::{Gc, Heap};

use super::{JsObject, ObjectKind, PropertyKey, Shape};
use crate::value::Value;

/// The longest prototype chain an entry can describe (a class instance
/// three levels below `Object.prototype` still fits).
const MAX_HOPS: usize = 4;

/// log2 of the number of entries (direct-mapped).
const INDEX_BITS: u32 = 9;

/// What a cached lookup found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CachedProperty {
    /// A data property's current value.
    Data(Value),
    /// An accessor property's getter (`undefined` when it has none).
    Getter(Value),
    /// No object on the chain has the key.
    Absent,
}

#[derive(Clone, Copy)]
enum Outcome {
    /// The holder (the receiver when `depth` is 0, else the last hop) keeps
    /// the property in slot `slot`; `writable` is a data property's
    /// attribute (the holder's shape, checked at every hit, fixes it).
    Found { slot: u32, accessor: bool, writable: bool },
    /// The chain ends after the last hop without the key.
    Absent,
}

#[derive(Clone, Copy)]
struct Entry {
    receiver_shape: Option<Gc<Shape>>,
    key: PropertyKey,
    depth: u8,
    protos: [Option<Gc<JsObject>>; MAX_HOPS],
    shapes: [Option<Gc<Shape>>; MAX_HOPS],
    outcome: Outcome,
}

impl Entry {
    const EMPTY: Self = Self {
        receiver_shape: None,
        key: PropertyKey::Index(0),
        depth: 0,
        protos: [None; MAX_HOPS],
        shapes: [None; MAX_HOPS],
        outcome: Outcome::Absent,
    };
}

/// A direct-mapped cache of named-property lookups keyed by (receiver
/// shape, key). See the module documentation for why entries stay valid.
pub struct LookupCache {
    entries: Box<[Entry]>,
    /// Whether any entry is filled (clearing an empty cache is skipped).
    populated: bool,
}

impl Default for LookupCache {
    fn default() -> Self {
        Self { entries: vec![Entry::EMPTY; 1 << INDEX_BITS].into_boxed_slice(), populated: false }
    }
}

#[inline]
fn slot_index(shape: Gc<Shape>, key: PropertyKey) -> usize {
    let key_bits = match key {
        PropertyKey::String(s) => s.into_raw().as_ptr() as usize,
        PropertyKey::Symbol(s) => s.into_raw().as_ptr() as usize,
        PropertyKey::Index(i) => i as usize,
    };
    let mixed = ((shape.into_raw().as_ptr() as usize) ^ key_bits.rotate_left(17)) as u64;
    (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - INDEX_BITS)) as usize
}

impl LookupCache {
    /// Whether objects of this kind answer a `[[Get]]` of a cacheable key
    /// from their shape alone. Proxies run traps, namespaces read module
    /// bindings, typed arrays treat canonical numeric strings as elements;
    /// arrays and String objects keep `length` outside their shape (never
    /// cached, see [`LookupCache::is_cacheable_key`]).
    #[inline]
    pub fn named_lookup_is_ordinary(kind: &ObjectKind) -> bool {
        match kind {
            ObjectKind::Proxy(_) => false,
            ObjectKind::Data(data) => data.exotic().is_none(),
            _ => true,
        }
    }

    /// Whether lookups of `key` may be cached: named keys other than
    /// `length` (which arrays and String objects answer outside their
    /// shape). `length` is the one string key any non-proxy exotic object
    /// here keeps outside its property storage.
    #[inline]
    pub fn is_cacheable_key(key: PropertyKey, length: PropertyKey) -> bool {
        !matches!(key, PropertyKey::Index(_)) && key != length
    }

    /// The entry for `obj` and `key` with the holder it names, if this
    /// lookup was seen before on an object of the same shape and nothing
    /// on the chain has changed since.
    #[allow(
        clippy::inline_always,
        reason = "probe is lookup's hit path; called, this check cost Octane earley-boyer 2.8%"
    )]
    #[inline(always)]
    fn validated<'h>(&self, heap: &'h Heap, obj: Gc<JsObject>, key: PropertyKey) -> Option<(&Entry, &'h JsObject)> {
        let o = obj.borrow(heap);
        let shape = o.shape()?;
        let entry = &self.entries[slot_index(shape, key)];
        if entry.receiver_shape != Some(shape) || entry.key != key || !Self::named_lookup_is_ordinary(&o.kind) {
            return None;
        }
        let mut holder = o;
        let mut proto = o.proto;
        for hop in 0..usize::from(entry.depth) {
            let p = proto?;
            if Some(p) != entry.protos[hop] {
                return None;
            }
            let po = p.borrow(heap);
            if po.shape() != entry.shapes[hop] {
                return None;
            }
            proto = po.proto;
            holder = po;
        }
        // An absent key was recorded at the end of the chain.
        if matches!(entry.outcome, Outcome::Absent) && proto.is_some() {
            return None;
        }
        Some((entry, holder))
    }

    /// The cached answer to `obj.[[Get]](key)`, if this lookup was seen
    /// before on an object of the same shape and nothing on the chain has
    /// changed since.
    #[inline]
    fn probe(&self, heap: &Heap, obj: Gc<JsObject>, key: PropertyKey) -> Option<CachedProperty> {
        let (entry, holder) = self.validated(heap, obj, key)?;
        Some(match entry.outcome {
            Outcome::Absent => CachedProperty::Absent,
            Outcome::Found { slot, accessor: false, .. } => CachedProperty::Data(holder.slot(slot)),
            Outcome::Found { slot, accessor: true, .. } => {
                let cell = holder.slot(slot).as_internal::<super::Accessor>();
                CachedProperty::Getter(cell.map_or(Value::UNDEFINED, |a| a.borrow(heap).get))
            }
        })
    }

    /// Whether an assignment of `key` to `obj`, which lacks it, creates a
    /// data property on `obj` without running anything (OrdinarySet with
    /// the first prototype holding `key`, if any): `Some(true)` when no
    /// prototype has it or the first holds a writable data property,
    /// `Some(false)` for an accessor or a read-only one, `None` when the
    /// cache cannot say. Fills the entry first on a miss, as
    /// [`LookupCache::lookup`] does. The caller checked
    /// [`LookupCache::is_cacheable_key`].
    #[inline]
    pub fn allows_add(&mut self, heap: &Heap, obj: Gc<JsObject>, key: PropertyKey) -> Option<bool> {
        let seen = |cache: &Self| cache.validated(heap, obj, key).map(|(entry, _)| (entry.outcome, entry.depth));
        let (outcome, depth) = match seen(self) {
            Some(hit) => hit,
            None if self.record(heap, obj, key) => seen(self)?,
            None => return None,
        };
        match outcome {
            Outcome::Absent => Some(true),
            // On `obj` itself: not an addition.
            Outcome::Found { .. } if depth == 0 => None,
            Outcome::Found { accessor, writable, .. } => Some(!accessor && writable),
        }
    }

    /// The answer to `obj.[[Get]](key)` from the cache, filling the entry
    /// first on a miss; `None` when the lookup cannot be cached (a
    /// dictionary-mode object, an exotic object or a chain longer than
    /// [`MAX_HOPS`] on the way). Runs no code. The caller checked
    /// [`LookupCache::is_cacheable_key`].
    #[inline]
    pub fn lookup(&mut self, heap: &Heap, obj: Gc<JsObject>, key: PropertyKey) -> Option<CachedProperty> {
        if let Some(hit) = self.probe(heap, obj, key) {
            return Some(hit);
        }
        if self.record(heap, obj, key) { self.probe(heap, obj, key) } else { None }
    }

    /// Where the lookup of `key` on objects of `shape` found a data
    /// property one level up: the prototype, its shape and the slot — what
    /// an instruction's inline cache keeps. Reads the entry as the last
    /// [`LookupCache::lookup`] of this shape and key left it, so it is
    /// only meaningful right after that lookup answered `Data`.
    #[inline]
    pub fn inherited_data_slot(&self, shape: Gc<Shape>, key: PropertyKey) -> Option<(Gc<JsObject>, Gc<Shape>, u32)> {
        let entry = &self.entries[slot_index(shape, key)];
        match (entry.receiver_shape == Some(shape) && entry.key == key && entry.depth == 1, entry.outcome) {
            (true, Outcome::Found { slot, accessor: false, .. }) => Some((entry.protos[0]?, entry.shapes[0]?, slot)),
            _ => None,
        }
    }

    /// Records where `[[Get]]` of `key` on `obj` ends, walking the chain
    /// without running code; false when the lookup cannot be cached.
    #[cold]
    fn record(&mut self, heap: &Heap, obj: Gc<JsObject>, key: PropertyKey) -> bool {
        let o = obj.borrow(heap);
        let Some(receiver_shape) = o.shape() else { return false };
        if !Self::named_lookup_is_ordinary(&o.kind) {
            return false;
        }
        let mut entry = Entry { receiver_shape: Some(receiver_shape), key, ..Entry::EMPTY };
        let mut shape = receiver_shape;
        let mut proto = o.proto;
        loop {
            if let Some(info) = shape.borrow(heap).lookup(key) {
                entry.outcome = Outcome::Found {
                    slot: info.slot,
                    accessor: info.attrs.is_accessor(),
                    writable: info.attrs.writable(),
                };
                break;
            }
            let Some(p) = proto else {
                entry.outcome = Outcome::Absent;
                break;
            };
            let depth = usize::from(entry.depth);
            let po = p.borrow(heap);
            let Some(proto_shape) = po.shape() else { return false };
            if depth == MAX_HOPS || !Self::named_lookup_is_ordinary(&po.kind) {
                return false;
            }
            entry.protos[depth] = Some(p);
            entry.shapes[depth] = Some(proto_shape);
            entry.depth += 1;
            shape = proto_shape;
            proto = po.proto;
        }
        self.entries[slot_index(receiver_shape, key)] = entry;
        self.populated = true;
        true
    }

    /// Empties the cache. Called at the end of every collection: entries
    /// hold cells untraced, and a freed cell's address may be reused.
    pub fn clear(&mut self) {
        if self.populated {
            self.entries.fill(Entry::EMPTY);
            self.populated = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::Vm;

    /// The object `expression` evaluates to in a fresh script. The
    /// expressions keep their objects in globals: a value a script returns
    /// is not rooted once the next script runs.
    fn object(vm: &mut Vm, expression: &str) -> Gc<JsObject> {
        let value = vm.eval_script("lookup-cache.js", expression).unwrap_or_default();
        vm.handle_value(&value).and_then(Value::as_object).unwrap_or(vm.realm.global)
    }

    fn key(vm: &mut Vm, name: &str) -> PropertyKey {
        PropertyKey::String(vm.atoms.intern_str(&mut vm.heap, name))
    }

    #[test]
    fn an_inherited_property_is_found_then_hit() {
        let mut vm = Vm::new();
        let o = object(&mut vm, "globalThis.proto = { m: 7 }; globalThis.o = Object.create(proto); o");
        let m = key(&mut vm, "m");
        let mut cache = LookupCache::default();
        assert!(cache.probe(&vm.heap, o, m).is_none(), "nothing recorded yet");
        assert_eq!(cache.lookup(&vm.heap, o, m), Some(CachedProperty::Data(Value::number(7.0))));
        assert_eq!(cache.probe(&vm.heap, o, m), Some(CachedProperty::Data(Value::number(7.0))));
    }

    #[test]
    fn only_a_data_property_one_level_up_is_offered_to_inline_caches() {
        let mut vm = Vm::new();
        let o = object(
            &mut vm,
            "globalThis.o = Object.create(Object.create({ far: 1 }, { near: { value: 2 } })); \
             Object.defineProperty(Object.getPrototypeOf(o), 'getter', { get() { return 3; } }); o",
        );
        let shape = o.borrow(&vm.heap).shape().unwrap_or(vm.root_shape);
        let proto = o.borrow(&vm.heap).proto;
        let (near, far, getter) = (key(&mut vm, "near"), key(&mut vm, "far"), key(&mut vm, "getter"));
        let mut cache = LookupCache::default();
        assert_eq!(cache.lookup(&vm.heap, o, near), Some(CachedProperty::Data(Value::number(2.0))));
        let offered = cache.inherited_data_slot(shape, near);
        assert_eq!(offered.map(|(p, _, _)| Some(p)), Some(proto));
        assert_eq!(cache.lookup(&vm.heap, o, far), Some(CachedProperty::Data(Value::number(1.0))));
        assert!(cache.inherited_data_slot(shape, far).is_none(), "two levels up");
        assert!(matches!(cache.lookup(&vm.heap, o, getter), Some(CachedProperty::Getter(_))));
        assert!(cache.inherited_data_slot(shape, getter).is_none(), "an accessor");
    }

    #[test]
    fn a_changed_chain_misses() {
        let mut vm = Vm::new();
        let o = object(&mut vm, "globalThis.proto = { m: 1 }; globalThis.o = Object.create(proto); o");
        let m = key(&mut vm, "m");
        let mut cache = LookupCache::default();
        cache.lookup(&vm.heap, o, m);
        // A value written in place is read at hit time.
        vm.eval_script("t.js", "proto.m = 2").ok();
        assert_eq!(cache.probe(&vm.heap, o, m), Some(CachedProperty::Data(Value::number(2.0))));
        // A new property gives the prototype a new shape.
        vm.eval_script("t.js", "proto.other = 0").ok();
        assert!(cache.probe(&vm.heap, o, m).is_none());
        cache.lookup(&vm.heap, o, m);
        // Another prototype.
        vm.eval_script("t.js", "Object.setPrototypeOf(o, { m: 3 })").ok();
        assert!(cache.probe(&vm.heap, o, m).is_none());
        assert_eq!(cache.lookup(&vm.heap, o, m), Some(CachedProperty::Data(Value::number(3.0))));
    }

    #[test]
    fn an_absent_key_hits_only_while_the_chain_ends_the_same_way() {
        let mut vm = Vm::new();
        let o = object(&mut vm, "globalThis.o = {}; o");
        let then = key(&mut vm, "then");
        let mut cache = LookupCache::default();
        assert_eq!(cache.lookup(&vm.heap, o, then), Some(CachedProperty::Absent));
        assert_eq!(cache.probe(&vm.heap, o, then), Some(CachedProperty::Absent));
        vm.eval_script("t.js", "Object.prototype.then = 1").ok();
        assert!(cache.probe(&vm.heap, o, then).is_none());
    }

    #[test]
    fn accessors_answer_with_their_getter() {
        let mut vm = Vm::new();
        let o = object(&mut vm, "globalThis.o = Object.create({ get g() { return 1; } }); o");
        let g = key(&mut vm, "g");
        let mut cache = LookupCache::default();
        assert!(matches!(cache.lookup(&vm.heap, o, g), Some(CachedProperty::Getter(f)) if f.is_object()));
    }

    #[test]
    fn exotic_and_dictionary_objects_are_not_cached() {
        let mut vm = Vm::new();
        let m = key(&mut vm, "m");
        let mut cache = LookupCache::default();
        let proxy = object(&mut vm, "globalThis.p = new Proxy({}, {}); p");
        assert_eq!(cache.lookup(&vm.heap, proxy, m), None);
        let typed = object(&mut vm, "globalThis.t = new Uint8Array(1); t");
        assert_eq!(cache.lookup(&vm.heap, typed, m), None);
        let dictionary = object(&mut vm, "globalThis.d = { m: 1, n: 2 }; delete d.n; d");
        assert_eq!(cache.lookup(&vm.heap, dictionary, m), None);
        let below_proxy = object(&mut vm, "globalThis.b = Object.create(new Proxy({}, {})); b");
        assert_eq!(cache.lookup(&vm.heap, below_proxy, m), None);
    }

    #[test]
    fn a_collection_empties_the_vm_cache() {
        let mut vm = Vm::new();
        let o = object(&mut vm, "globalThis.o = Object.create({ m: 1 }); o");
        let m = key(&mut vm, "m");
        vm.lookup_cache.lookup(&vm.heap, o, m);
        assert!(vm.lookup_cache.populated);
        vm.collect_garbage();
        assert!(!vm.lookup_cache.populated);
        assert!(vm.lookup_cache.probe(&vm.heap, o, m).is_none());
    }
}
