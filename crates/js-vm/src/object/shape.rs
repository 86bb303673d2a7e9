//! Shapes (hidden classes): the layout shared by objects that gained the
//! same properties in the same order, so a property read can be cached as
//! "objects of this shape keep it in slot n".
//!
//! Each shape owns its full key table (adding a property clones it once per
//! new shape, and the transition is cached), which keeps lookups one hash
//! probe. Objects that delete properties, change attributes or grow past
//! [`MAX_SHAPED_PROPERTIES`] move to dictionary mode instead.

use std::cell::RefCell;
use std::collections::HashMap;

use indexmap::IndexMap;
use js_gc::{Gc, Heap, Trace, Tracer, Weak};

use super::property::{Attributes, PropertyKey};

/// Objects with more properties than this use a dictionary.
pub const MAX_SHAPED_PROPERTIES: usize = 64;

/// How far past [`MAX_SHAPED_PROPERTIES`] an object keeps a shape when its
/// properties are added by static names in the program text (`o.name = v`,
/// `{ name: v }`): those names are bounded by the program, so a large
/// constructor-built object or a prototype with many methods (Octane's
/// `GameBoyCore`: 291 fields, 188 methods) keeps its inline caches, while
/// an object filled through computed keys — a map, whose keys have no
/// bound — still becomes a dictionary at [`MAX_SHAPED_PROPERTIES`]. Each
/// shape owns its full key table, so the bound also caps that table's
/// quadratic growth (512 keys: about 131,000 entries over the chain).
pub const MAX_STATIC_SHAPED_PROPERTIES: usize = 512;

/// Shapes the engine builds its own objects in, made once per VM, so those
/// objects are allocated with their properties in place instead of through
/// one transition (and one key lookup) per property.
#[derive(Clone, Copy, Debug)]
pub struct WellKnownShapes {
    /// `CreateIterResultObject`'s objects: `value`, then `done`, both plain
    /// data properties.
    pub iter_result: Gc<Shape>,
    /// `CreateMappedArgumentsObject`'s (§10.4.4.7): `length`,
    /// `@@iterator` and `callee`, all writable and configurable, not
    /// enumerable.
    pub mapped_arguments: Gc<Shape>,
    /// `CreateUnmappedArgumentsObject`'s (§10.4.4.6): `length` and
    /// `@@iterator` as in the mapped shape, then `callee` as a
    /// non-enumerable, non-configurable accessor.
    pub unmapped_arguments: Gc<Shape>,
    /// A builtin function's (§10.3.4 CreateBuiltinFunction, with
    /// SetFunctionLength and SetFunctionName): `length`, then `name`, both
    /// only configurable.
    pub builtin_function: Gc<Shape>,
}

/// The property keys [`WellKnownShapes`] are made of.
pub struct WellKnownShapeKeys {
    /// `"value"`.
    pub value: PropertyKey,
    /// `"done"`.
    pub done: PropertyKey,
    /// `"length"`.
    pub length: PropertyKey,
    /// `Symbol.iterator`.
    pub iterator: PropertyKey,
    /// `"callee"`.
    pub callee: PropertyKey,
    /// `"name"`.
    pub name: PropertyKey,
}

impl WellKnownShapes {
    /// Builds the shapes as transitions from `root`, so an object that
    /// reaches the same layout property by property shares them.
    pub fn new(heap: &mut Heap, root: Gc<Shape>, keys: &WellKnownShapeKeys) -> Self {
        let value = Shape::add_property(heap, root, keys.value, Attributes::DEFAULT);
        let iter_result = Shape::add_property(heap, value, keys.done, Attributes::DEFAULT);
        let length = Shape::add_property(heap, root, keys.length, Attributes::METHOD);
        let iterator = Shape::add_property(heap, length, keys.iterator, Attributes::METHOD);
        let mapped_arguments = Shape::add_property(heap, iterator, keys.callee, Attributes::METHOD);
        let accessor = Attributes::from_bits(Attributes::ACCESSOR);
        let unmapped_arguments = Shape::add_property(heap, iterator, keys.callee, accessor);
        let function_length = Shape::add_property(heap, root, keys.length, Attributes::CONFIGURABLE_ONLY);
        let builtin_function = Shape::add_property(heap, function_length, keys.name, Attributes::CONFIGURABLE_ONLY);
        Self { iter_result, mapped_arguments, unmapped_arguments, builtin_function }
    }
}

// SAFETY: the four shapes are every heap pointer the struct holds.
unsafe impl Trace for WellKnownShapes {
    fn trace(&self, tracer: &mut Tracer) {
        self.iter_result.trace(tracer);
        self.mapped_arguments.trace(tracer);
        self.unmapped_arguments.trace(tracer);
        self.builtin_function.trace(tracer);
    }
}

/// Where a property lives in objects of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotInfo {
    /// The index into the object's slots.
    pub slot: u32,
    /// The property's attributes.
    pub attrs: Attributes,
}

/// A shape cell.
pub struct Shape {
    table: IndexMap<PropertyKey, SlotInfo, ahash::RandomState>,
    transitions: RefCell<HashMap<(PropertyKey, Attributes), Weak<Shape>, ahash::RandomState>>,
}

impl Shape {
    /// The shape with no properties.
    pub fn root() -> Self {
        Self { table: IndexMap::default(), transitions: RefCell::default() }
    }

    /// Looks a key up.
    #[inline]
    pub fn lookup(&self, key: PropertyKey) -> Option<SlotInfo> {
        self.table.get(&key).copied()
    }

    /// The number of properties.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// The keys and slots in insertion order.
    pub fn entries(&self) -> impl Iterator<Item = (PropertyKey, SlotInfo)> + '_ {
        self.table.iter().map(|(k, v)| (*k, *v))
    }

    /// The shape after adding `key` with `attrs` (cached per parent).
    pub fn add_property(heap: &mut Heap, shape: Gc<Shape>, key: PropertyKey, attrs: Attributes) -> Gc<Shape> {
        let parent = shape.borrow(heap);
        if let Some(next) = parent.transitions.borrow().get(&(key, attrs)).and_then(Weak::upgrade) {
            return next;
        }
        let mut table = parent.table.clone();
        let slot = table.len() as u32;
        table.insert(key, SlotInfo { slot, attrs });
        let next = heap.alloc(Shape { table, transitions: RefCell::default() });
        shape.borrow(heap).transitions.borrow_mut().insert((key, attrs), Weak::new(next));
        next
    }
}

// SAFETY: keys (also those of transitions, so a transition never matches a
// recycled key address) are strong edges; child shapes are weak.
unsafe impl Trace for Shape {
    fn trace(&self, tracer: &mut Tracer) {
        for key in self.table.keys() {
            key.trace(tracer);
        }
        for ((key, _), child) in self.transitions.borrow().iter() {
            key.trace(tracer);
            child.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "Shape"
    }
}
