//! Objects: a prototype, named properties (shaped or dictionary), indexed
//! elements (dense or sparse) and a kind for the exotic and builtin objects.
//!
//! This module stores properties; the internal methods that can run user
//! code (`[[Get]]` through getters, `[[Set]]` through setters) live in
//! [`crate::object::internal_methods`], which needs the VM.

mod data;
pub mod internal_methods;
mod lookup_cache;
mod property;
mod property_slots;
pub mod proxy;
mod shape;

use std::collections::BTreeMap;

use indexmap::IndexMap;
use js_gc::{Gc, Heap, Trace, Tracer};

pub use data::{DataClass, ExoticMethods, KindData};
pub use lookup_cache::{CachedProperty, LookupCache};
pub use property::{Accessor, Attributes, PropertyDescriptor, PropertyKey};
pub use property_slots::PropertySlots;
pub use proxy::ProxyData;
pub use shape::{MAX_SHAPED_PROPERTIES, MAX_STATIC_SHAPED_PROPERTIES, Shape, WellKnownShapeKeys, WellKnownShapes};

use crate::function::Function;
use crate::string::JsString;
use crate::symbol::Symbol;
use crate::value::Value;

/// A dictionary-mode object's named properties, in insertion order.
pub type PropertyMap = IndexMap<PropertyKey, (Value, Attributes), ahash::RandomState>;

/// Named property storage.
pub enum Properties {
    /// Values in slots laid out by a shared shape.
    Shaped {
        /// The layout.
        shape: Gc<Shape>,
        /// One value per shape entry (an [`Accessor`] cell for accessors).
        slots: PropertySlots,
    },
    /// A per-object ordered map (boxed: few objects have one, and inline it
    /// would make every object twice as large as the shaped form needs).
    Dictionary(Box<PropertyMap>),
}

/// Indexed property storage.
pub enum Elements {
    /// Index `i` at position `i`; [`Value::HOLE`] marks a missing element.
    /// Present elements are writable, enumerable and configurable data.
    Dense(Vec<Value>),
    /// Any attributes, any gaps.
    Sparse(BTreeMap<u32, (Value, Attributes)>),
}

/// Dense storage is abandoned when a write lands this far past the end.
const MAX_DENSE_GAP: usize = 1024;

/// What sort of object this is, with the internal slots of each sort.
pub enum ObjectKind {
    /// An ordinary object.
    Ordinary,
    /// An Array exotic object; `length` is kept here.
    Array {
        /// The `length` property's value.
        length: u32,
        /// Whether `length` is writable.
        length_writable: bool,
    },
    /// A function object (ordinary, native or bound).
    Function(Function),
    /// An object made by an Error constructor (`[[ErrorData]]`), with the
    /// stack trace captured when it was made (read through
    /// `Error.prototype.stack`).
    Error {
        /// The `stack` string, or `undefined`.
        stack: Value,
        /// Where the error was made (the innermost running code then).
        site: Option<crate::bytecode::SourceSite>,
    },
    /// A Boolean wrapper.
    Boolean(bool),
    /// A Number wrapper.
    Number(f64),
    /// A Date (`[[DateValue]]`: a time value, NaN when invalid).
    Date(f64),
    /// A String exotic object.
    String(Gc<JsString>),
    /// A Symbol wrapper.
    Symbol(Gc<Symbol>),
    /// A BigInt wrapper (`[[BigIntData]]`).
    BigInt(Gc<crate::bigint::JsBigInt>),
    /// An unmapped arguments object.
    Arguments,
    /// An object made by `JSON.rawJSON` (`[[IsRawJSON]]`), with its text.
    RawJson(Gc<JsString>),
    /// A mapped arguments object (§10.4.4): index `i` aliases the
    /// parameter in slot `map[i]` of `env` (`u32::MAX`: no longer mapped).
    MappedArguments {
        /// The function's environment holding the parameters.
        env: Gc<crate::environment::DeclarativeEnvironment>,
        /// Parameter slot per argument index.
        map: Box<[u32]>,
    },
    /// An Array Iterator (§23.1.5).
    ArrayIterator {
        /// The iterated object; `undefined` once exhausted.
        target: Value,
        /// The next index.
        index: u32,
        /// What each step yields.
        kind: IterationKind,
    },
    /// A generator object.
    Generator(Box<crate::interpreter::GeneratorState>),
    /// A String Iterator (§22.1.5).
    StringIterator {
        /// The iterated string; `None` once exhausted.
        string: Option<Gc<JsString>>,
        /// The next code-unit position.
        position: u32,
    },
    /// A promise (`[[PromiseState]]`, `[[PromiseResult]]`, reactions).
    Promise(crate::promise::PromiseSlots),
    /// The internal state of a running async function: its promise and,
    /// while it waits at an `await`, its saved frame. Scripts never see it.
    AsyncFunction(Box<crate::interpreter::async_function::AsyncFunctionState>),
    /// An async generator object.
    AsyncGenerator(Box<crate::interpreter::async_generator::AsyncGeneratorState>),
    /// An Async-from-Sync Iterator (`[[SyncIteratorRecord]]`).
    AsyncFromSyncIterator(Gc<crate::interpreter::IteratorRecord>),
    /// A Proxy exotic object (§10.5): every internal method goes to its
    /// handler's traps. Its own property storage is an empty dictionary
    /// (so shape-keyed fast paths never match it) and its `proto` is unused.
    Proxy(ProxyData),
    /// The Rust closure of an embedder's function
    /// ([`Handle::function`](crate::Handle::function)), held by an object
    /// only that function's data slot points to.
    HostFunctionBody(std::rc::Rc<crate::embedding::HostFunctionBody>),
    /// A kind whose internal slots are a cell owned by the module that
    /// defines it (see [`KindData`]).
    Data(KindData),
}

/// What an array-like iterator yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterationKind {
    /// Indices.
    Keys,
    /// Elements.
    Values,
    /// `[index, element]` pairs.
    Entries,
}

// Every object pays for its largest kind and for the inline property
// slots; growth here costs memory and collection time everywhere.
const _: () = assert!(size_of::<JsObject>() <= 160);

/// An object cell.
pub struct JsObject {
    /// `[[Prototype]]`.
    pub proto: Option<Gc<JsObject>>,
    /// `[[Extensible]]`.
    pub extensible: bool,
    /// `[[IsHTMLDDA]]` (Annex B.3.6): `typeof` says "undefined", ToBoolean
    /// gives false and `==` equates it with null and undefined. Only an
    /// embedder makes one ([`crate::Handle::html_dda_function`]).
    pub is_html_dda: bool,
    /// Named properties.
    pub properties: Properties,
    /// Array-index properties.
    pub elements: Elements,
    /// The kind and its internal slots.
    pub kind: ObjectKind,
}

impl JsObject {
    /// An empty extensible object of `kind` with the root shape.
    pub fn new(root_shape: Gc<Shape>, proto: Option<Gc<JsObject>>, kind: ObjectKind) -> Self {
        Self {
            proto,
            extensible: true,
            is_html_dda: false,
            properties: Properties::Shaped { shape: root_shape, slots: PropertySlots::new() },
            elements: Elements::Dense(Vec::new()),
            kind,
        }
    }

    /// The shape, if the object is not in dictionary mode.
    #[inline]
    pub fn shape(&self) -> Option<Gc<Shape>> {
        match &self.properties {
            Properties::Shaped { shape, .. } => Some(*shape),
            Properties::Dictionary(_) => None,
        }
    }

    /// Reads slot `slot` (for inline caches that already checked the shape).
    #[inline]
    pub fn slot(&self, slot: u32) -> Value {
        match &self.properties {
            Properties::Shaped { slots, .. } => slots[slot as usize],
            Properties::Dictionary(_) => Value::UNDEFINED,
        }
    }

    /// Writes slot `slot` (for inline caches that already checked the shape).
    #[inline]
    pub fn set_slot(&mut self, slot: u32, value: Value) {
        if let Properties::Shaped { slots, .. } = &mut self.properties {
            slots[slot as usize] = value;
        }
    }

    /// Whether this object has a `[[Call]]` internal method: a function
    /// object, or a proxy whose target had one.
    pub fn is_callable(&self) -> bool {
        match &self.kind {
            ObjectKind::Function(_) => true,
            ObjectKind::Proxy(p) => p.callable,
            _ => false,
        }
    }

    /// Whether this object has a `[[Construct]]` internal method
    /// (`IsConstructor`).
    pub fn is_constructor(&self, heap: &Heap) -> bool {
        match &self.kind {
            ObjectKind::Function(f) => f.is_constructor(heap),
            ObjectKind::Proxy(p) => p.constructor,
            _ => false,
        }
    }

    /// Whether this is a Proxy exotic object.
    #[inline]
    pub fn is_proxy(&self) -> bool {
        matches!(self.kind, ObjectKind::Proxy(_))
    }

    /// The owned internal slots, if the kind is one another module owns.
    #[inline]
    pub fn data(&self) -> Option<KindData> {
        match self.kind {
            ObjectKind::Data(data) => Some(data),
            _ => None,
        }
    }

    /// The slots cell, if the object is of kind `class` (whose cells hold
    /// `T`s).
    #[inline]
    pub fn data_of<T: Trace + 'static>(&self, class: &'static DataClass) -> Option<Gc<T>> {
        self.data().and_then(|d| d.get(class))
    }

    /// The exotic internal methods of a kind another module owns.
    #[inline]
    pub fn exotic(&self) -> Option<&'static ExoticMethods> {
        self.data().and_then(KindData::exotic)
    }

    /// Whether the object is of kind `class`.
    #[inline]
    pub fn is_data(&self, class: &'static DataClass) -> bool {
        self.data().is_some_and(|d| d.is(class))
    }

    /// The function, if this is a function object.
    pub fn as_function(&self) -> Option<&Function> {
        match &self.kind {
            ObjectKind::Function(f) => Some(f),
            _ => None,
        }
    }

    /// The own named property `key`: its value (or accessor cell) and
    /// attributes. Index keys are looked up in the elements.
    pub fn get_own(&self, heap: &Heap, key: PropertyKey) -> Option<(Value, Attributes)> {
        if let PropertyKey::Index(i) = key {
            return self.get_own_element(i);
        }
        match &self.properties {
            Properties::Shaped { shape, slots } => {
                shape.borrow(heap).lookup(key).map(|info| (slots[info.slot as usize], info.attrs))
            }
            Properties::Dictionary(map) => map.get(&key).copied(),
        }
    }

    /// The element at `i` when dense storage holds it. Dense elements are
    /// plain writable data properties for every kind but a mapped arguments
    /// object (whose elements alias parameters), so then [[HasProperty]] is
    /// true and [[GetOwnProperty]] and [[Get]] give this value with no
    /// observable step.
    #[inline]
    pub fn dense_element(&self, i: u32) -> Option<Value> {
        if matches!(self.kind, ObjectKind::MappedArguments { .. }) {
            return None;
        }
        match &self.elements {
            Elements::Dense(v) => v.get(i as usize).copied().filter(|v| !v.is_hole()),
            Elements::Sparse(_) => None,
        }
    }

    fn get_own_element(&self, i: u32) -> Option<(Value, Attributes)> {
        match &self.elements {
            Elements::Dense(v) => v.get(i as usize).filter(|v| !v.is_hole()).map(|&v| (v, Attributes::DEFAULT)),
            Elements::Sparse(map) => map.get(&i).copied(),
        }
    }

    /// Converts elements to sparse storage.
    pub fn make_sparse(&mut self) {
        if let Elements::Dense(v) = &self.elements {
            let map = v
                .iter()
                .enumerate()
                .filter(|(_, v)| !v.is_hole())
                .map(|(i, &v)| (i as u32, (v, Attributes::DEFAULT)))
                .collect();
            self.elements = Elements::Sparse(map);
        }
    }

    /// Writes an element with default attributes, staying dense when the
    /// index is near the end.
    pub fn write_element(&mut self, index: u32, value: Value) {
        match &mut self.elements {
            Elements::Dense(v) => {
                let i = index as usize;
                if i < v.len() {
                    v[i] = value;
                    return;
                }
                if i - v.len() <= MAX_DENSE_GAP {
                    v.resize(i, Value::HOLE);
                    v.push(value);
                    return;
                }
                self.make_sparse();
                self.write_element(index, value);
            }
            Elements::Sparse(map) => {
                map.insert(index, (value, Attributes::DEFAULT));
            }
        }
    }

    /// The own string and symbol keys in spec order (`OrdinaryOwnPropertyKeys`
    /// §10.1.11): indices ascending, then strings, then symbols, each in
    /// creation order.
    pub fn own_keys(&self, heap: &Heap) -> Vec<PropertyKey> {
        let mut keys = Vec::new();
        if let ObjectKind::String(s) = &self.kind {
            keys.extend((0..s.borrow(heap).len() as u32).map(PropertyKey::Index));
        }
        match &self.elements {
            Elements::Dense(v) => {
                keys.extend(
                    v.iter().enumerate().filter(|(_, v)| !v.is_hole()).map(|(i, _)| PropertyKey::Index(i as u32)),
                );
            }
            Elements::Sparse(map) => keys.extend(map.keys().map(|&i| PropertyKey::Index(i))),
        }
        let named: Vec<PropertyKey> = match &self.properties {
            Properties::Shaped { shape, .. } => shape.borrow(heap).entries().map(|(k, _)| k).collect(),
            Properties::Dictionary(map) => map.keys().copied().collect(),
        };
        keys.extend(named.iter().filter(|k| !k.is_symbol()));
        keys.extend(named.iter().filter(|k| matches!(k, PropertyKey::Symbol(s) if !s.borrow(heap).private)));
        keys
    }
}

// SAFETY: prototype, property values and keys, elements and the kind's
// internal slots are all reported.
unsafe impl Trace for JsObject {
    fn trace(&self, tracer: &mut Tracer) {
        self.proto.trace(tracer);
        match &self.properties {
            Properties::Shaped { shape, slots } => {
                shape.trace(tracer);
                slots.trace(tracer);
            }
            Properties::Dictionary(map) => {
                for (k, (v, _)) in map.iter() {
                    k.trace(tracer);
                    v.trace(tracer);
                }
            }
        }
        match &self.elements {
            Elements::Dense(v) => v.trace(tracer),
            Elements::Sparse(map) => {
                for (v, _) in map.values() {
                    v.trace(tracer);
                }
            }
        }
        match &self.kind {
            ObjectKind::Function(f) => f.trace(tracer),
            ObjectKind::String(s) => s.trace(tracer),
            ObjectKind::Symbol(s) => s.trace(tracer),
            ObjectKind::BigInt(b) => b.trace(tracer),
            ObjectKind::ArrayIterator { target, .. } => target.trace(tracer),
            ObjectKind::Generator(state) => state.trace(tracer),
            ObjectKind::StringIterator { string, .. } => string.trace(tracer),
            ObjectKind::Error { stack, .. } => stack.trace(tracer),
            ObjectKind::RawJson(text) => text.trace(tracer),
            ObjectKind::MappedArguments { env, .. } => env.trace(tracer),
            ObjectKind::Promise(state) => state.trace(tracer),
            ObjectKind::AsyncGenerator(state) => state.trace(tracer),
            ObjectKind::AsyncFromSyncIterator(record) => record.trace(tracer),
            ObjectKind::AsyncFunction(state) => state.trace(tracer),
            ObjectKind::Proxy(p) => p.trace(tracer),
            ObjectKind::Data(data) => data.cell().trace(tracer),
            // The closure's handles are roots of their own.
            ObjectKind::HostFunctionBody(_)
            | ObjectKind::Ordinary
            | ObjectKind::Array { .. }
            | ObjectKind::Boolean(_)
            | ObjectKind::Number(_)
            | ObjectKind::Date(_)
            | ObjectKind::Arguments => {}
        }
    }

    fn type_name() -> &'static str {
        "Object"
    }
}

#[cfg(test)]
mod tests {
    use super::{JsObject, ObjectKind};

    /// The object core names no builtin, host or module type: kinds those
    /// modules define reach the core only through [`super::KindData`].
    #[test]
    fn object_core_imports_no_builtin_host_or_module_code() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/object");
        let mut offences = Vec::new();
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).expect("src/object is readable") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).expect("a source file");
            // Unit tests may set up objects through any module.
            for (n, line) in text.lines().enumerate().take_while(|(_, l)| !l.starts_with("#[cfg(test)]")) {
                if line_names_foreign_module(line) {
                    offences.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
        assert!(files >= 7, "src/object has its files");
        assert!(offences.is_empty(), "object/ must not use builtins/, host/ or module/:\n{}", offences.join("\n"));
    }

    /// Whether a source line refers to `crate::builtins`, `crate::host` or
    /// `crate::module` (directly or in a `use crate::{…}` group).
    fn line_names_foreign_module(line: &str) -> bool {
        const FOREIGN: [&str; 3] = ["builtins", "host", "module"];
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let names: Vec<&str> = if let Some(group) = after.strip_prefix('{') {
                group
                    .split('}')
                    .next()
                    .unwrap_or("")
                    .split(',')
                    .map(|n| n.trim().split("::").next().unwrap_or(""))
                    .collect()
            } else {
                vec![after.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("")]
            };
            if names.iter().any(|n| FOREIGN.contains(n)) {
                return true;
            }
            rest = after;
        }
        false
    }

    #[test]
    fn the_foreign_module_check_sees_paths_and_groups() {
        assert!(line_names_foreign_module("use crate::builtins::regexp::RegExpData;"));
        assert!(line_names_foreign_module("    Map(Box<crate::builtins::collections::OrderedTable>),"));
        assert!(line_names_foreign_module("use crate::{host, value::Value};"));
        assert!(line_names_foreign_module("crate::module::namespace::is_namespace(vm, obj)"));
        assert!(!line_names_foreign_module("use crate::vm::{JsResult, Vm};"));
        assert!(!line_names_foreign_module("use crate::value::Value; // not crate::host"));
        assert!(!line_names_foreign_module("use crate::modules_of_this_name::X;"));
    }

    /// The sizes every object pays (reported by the layout work of issue 20).
    #[test]
    fn object_layout_sizes() {
        let object = size_of::<JsObject>();
        let kind = size_of::<ObjectKind>();
        println!("size_of::<JsObject>() = {object}, size_of::<ObjectKind>() = {kind}");
        println!(
            "payloads: Function {}, PromiseSlots {}, ProxyData {}, SourceSite {}, Properties {}, Elements {}",
            size_of::<crate::function::Function>(),
            size_of::<crate::promise::PromiseSlots>(),
            size_of::<super::ProxyData>(),
            size_of::<Option<crate::bytecode::SourceSite>>(),
            size_of::<super::Properties>(),
            size_of::<super::Elements>(),
        );
        assert!(kind < object);
        assert_eq!(size_of::<super::KindData>(), 16);
    }
}
