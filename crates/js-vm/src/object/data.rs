//! Kinds whose internal slots belong to the module that defines them.
//!
//! The object core keeps inline only the kinds its hot paths test
//! (ordinary, array, function, arguments, proxy, promise, the primitive
//! wrappers, the interpreter's generator states). Every other kind — a Map,
//! an ArrayBuffer, an `Event`, a stream — keeps its internal slots in a cell
//! of its own module's type on the heap. The object holds that cell and the
//! kind's [`DataClass`] in [`ObjectKind::Data`](super::ObjectKind::Data),
//! traces the cell (the cell traces its own contents), and names none of the
//! types: each owning module defines a `static` class and typed accessors
//! over [`JsObject::data_of`](super::JsObject::data_of).
//!
//! The class is what distinguishes kinds that share a cell type (a Map and a
//! Set both hold an ordered table); its address is its identity, so classes
//! must be `static`s, never `const`s.

use std::any::{Any, TypeId};

use js_gc::{Gc, GcAny, Trace};

use super::{JsObject, PropertyDescriptor, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// What the object core knows of a kind owned by another module.
pub struct DataClass {
    /// The kind's name, for diagnostics.
    pub name: &'static str,
    /// The Rust type of the cells holding this kind's slots
    /// ([`DataClass::cell_type`]). [`KindData::new`] checks it once, so
    /// every later [`KindData::get`] is a pointer comparison of classes
    /// instead of a load of the cell's header and a type-id comparison on
    /// each slot access (the stream state machines make several per chunk).
    pub cell: TypeId,
    /// The internal methods the kind overrides, for exotic objects
    /// (typed arrays §10.4.5, module namespaces §10.4.6); `None` for
    /// ordinary ones.
    pub exotic: Option<&'static ExoticMethods>,
    /// The console's formatting hook for the kind. It is type-erased so that
    /// the object core names no host type: the console downcasts it to its
    /// own hook type, and a class without one is shown as an ordinary
    /// object.
    pub inspect: Option<&'static (dyn Any + Send + Sync)>,
}

/// An exotic hook's answer: `None` where the ordinary method applies.
pub type Handled<T> = Option<JsResult<T>>;

/// The internal methods of an exotic kind another module owns. Each hook
/// is called with an object of that kind and answers `None` where the
/// ordinary method applies (a key the kind does not treat specially).
pub struct ExoticMethods {
    /// `[[GetOwnProperty]]`'s checks that may throw, before the descriptor
    /// is read (a namespace binding in its TDZ).
    pub check_get_own_property: fn(&mut Vm, Gc<JsObject>, PropertyKey) -> JsResult<()>,
    /// `[[GetOwnProperty]]` without user code.
    #[allow(clippy::type_complexity, reason = "outer: handled at all; inner: the descriptor, if any")]
    pub get_own_property: fn(&mut Vm, Gc<JsObject>, PropertyKey) -> Option<Option<PropertyDescriptor>>,
    /// `[[DefineOwnProperty]]`.
    pub define_own_property: fn(&mut Vm, Gc<JsObject>, PropertyKey, &PropertyDescriptor) -> Handled<bool>,
    /// `[[HasProperty]]`.
    pub has_property: fn(&mut Vm, Gc<JsObject>, PropertyKey) -> Option<bool>,
    /// `[[Get]]` (with the key, before the receiver matters).
    pub get: fn(&mut Vm, Gc<JsObject>, PropertyKey) -> Handled<Value>,
    /// `[[Set]]`: object, key, value, receiver.
    pub set: fn(&mut Vm, Gc<JsObject>, PropertyKey, Value, Value) -> Handled<bool>,
    /// `[[Delete]]`.
    pub delete: fn(&mut Vm, Gc<JsObject>, PropertyKey) -> Option<bool>,
    /// `[[OwnPropertyKeys]]`, given the keys of the ordinary storage.
    pub own_property_keys: fn(&mut Vm, Gc<JsObject>, Vec<PropertyKey>) -> Vec<PropertyKey>,
    /// Whether `[[PreventExtensions]]` may succeed.
    pub can_prevent_extensions: fn(&Vm, Gc<JsObject>) -> bool,
}

impl DataClass {
    /// An ordinary kind (no exotic methods) whose slots are `T` cells, which
    /// the console shows as a plain object.
    pub const fn plain<T: 'static>(name: &'static str) -> Self {
        Self { name, cell: Self::cell_type::<T>(), exotic: None, inspect: None }
    }

    /// The value of [`DataClass::cell`] for slots held in `T` cells.
    pub const fn cell_type<T: 'static>() -> TypeId {
        TypeId::of::<T>()
    }
}

impl std::fmt::Debug for DataClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// An object's owned internal slots: a cell of the owning module's type and
/// the kind's class.
#[derive(Clone, Copy, Debug)]
pub struct KindData {
    cell: GcAny,
    class: &'static DataClass,
}

impl KindData {
    /// Slots in `cell`, of the kind `class` describes.
    ///
    /// # Panics
    /// If `class` says its slots live in cells of another type than `T`: a
    /// mistake in the owning module's code, caught on the first object it
    /// makes. This check is what lets [`get`](Self::get) skip the cell's
    /// own type check.
    pub fn new<T: Trace + 'static>(cell: Gc<T>, class: &'static DataClass) -> Self {
        assert!(
            class.cell == TypeId::of::<T>(),
            "DataClass {} holds its slots in another cell type than {}",
            class.name,
            std::any::type_name::<T>()
        );
        Self { cell: cell.as_any(), class }
    }

    /// The cell holding the slots.
    #[inline]
    pub fn cell(self) -> GcAny {
        self.cell
    }

    /// The kind's class.
    #[inline]
    pub fn class(self) -> &'static DataClass {
        self.class
    }

    /// Whether the kind is `class`.
    #[inline]
    pub fn is(self, class: &'static DataClass) -> bool {
        std::ptr::eq(self.class, class)
    }

    /// The kind's exotic internal methods, if it has any.
    #[inline]
    pub fn exotic(self) -> Option<&'static ExoticMethods> {
        self.class.exotic
    }

    /// The typed cell, if the kind is `class` (whose cells hold `T`s).
    #[inline]
    pub fn get<T: Trace + 'static>(self, class: &'static DataClass) -> Option<Gc<T>> {
        // Both comparisons fold to one when `class` is a known static: the
        // type test is against the class's constant, not the cell's header.
        if self.is(class) && class.cell == TypeId::of::<T>() {
            // SAFETY: `KindData::new`, the only constructor, checked that
            // `self.cell` holds a `T` when `self.class.cell` is `T`'s type
            // id, and `self.class` is `class`, whose `cell` is `T`'s. The
            // `GcAny` came from `Gc::<T>::as_any` of that cell, which is as
            // live as the object that holds this `KindData`.
            Some(unsafe { Gc::from_raw(self.cell.into_raw()) })
        } else {
            None
        }
    }
}
