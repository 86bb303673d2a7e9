//! The values of the reference host.

use std::cell::{Cell, Ref, RefCell};
use std::fmt;
use std::rc::Rc;

use indexmap::IndexMap;

use super::host::{Exception, ReferenceHost};
use crate::text::JsStr;

/// A string in its narrowest width: [`Str::Utf16`] only when some code unit
/// is above U+00FF, so equal strings have equal representations.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Str {
    /// Every code unit is at most U+00FF.
    Latin1(Rc<[u8]>),
    /// At least one code unit is above U+00FF.
    Utf16(Rc<[u16]>),
}

impl Str {
    /// A string from Latin-1 bytes.
    pub fn from_latin1(bytes: &[u8]) -> Self {
        Str::Latin1(bytes.into())
    }

    /// A string from UTF-16 code units, narrowed when it fits in Latin-1.
    pub fn from_utf16(units: &[u16]) -> Self {
        if units.iter().all(|&unit| unit <= 0xFF) {
            Str::Latin1(units.iter().map(|&unit| unit as u8).collect())
        } else {
            Str::Utf16(units.into())
        }
    }

    /// A string from borrowed contents of either width.
    pub fn from_js_str(text: JsStr<'_>) -> Self {
        match text {
            JsStr::Latin1(bytes) => Str::from_latin1(bytes),
            JsStr::Utf16(units) => Str::from_utf16(units),
        }
    }

    /// A string from contents already in their narrowest width
    /// ([`JsStr::Utf16`] only when a unit is above U+00FF), copied without
    /// checking again (checked in debug builds).
    pub fn from_narrowest(text: JsStr<'_>) -> Self {
        match text {
            JsStr::Latin1(bytes) => Str::from_latin1(bytes),
            JsStr::Utf16(units) => {
                debug_assert!(units.iter().any(|&unit| unit > 0xFF), "UTF-16 contents that fit in Latin-1");
                Str::Utf16(units.into())
            }
        }
    }

    /// Borrows the contents.
    pub fn as_js_str(&self) -> JsStr<'_> {
        match self {
            Str::Latin1(bytes) => JsStr::Latin1(bytes),
            Str::Utf16(units) => JsStr::Utf16(units),
        }
    }

    /// The string as Rust text (lone surrogates become U+FFFD).
    pub fn to_string_lossy(&self) -> String {
        match self {
            Str::Latin1(bytes) => bytes.iter().map(|&b| char::from(b)).collect(),
            Str::Utf16(units) => String::from_utf16_lossy(units),
        }
    }

    /// The value if this is a canonical array index (`"0"` to
    /// `"4294967294"`, no leading zeros).
    pub fn array_index(&self) -> Option<u32> {
        let Str::Latin1(bytes) = self else { return None };
        if bytes.is_empty() || bytes.len() > 10 || (bytes.len() > 1 && bytes[0] == b'0') {
            return None;
        }
        let mut value: u64 = 0;
        for &byte in bytes.iter() {
            if !byte.is_ascii_digit() {
                return None;
            }
            value = value * 10 + u64::from(byte - b'0');
        }
        u32::try_from(value).ok().filter(|&index| index != u32::MAX)
    }
}

impl From<&str> for Str {
    fn from(text: &str) -> Self {
        let units: Vec<u16> = text.encode_utf16().collect();
        Str::from_utf16(&units)
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())
    }
}

/// A native function: called with the host, `this` and the arguments.
pub type NativeFunction = Rc<dyn Fn(&mut ReferenceHost, &Value, &[Value]) -> Result<Value, Exception>>;

/// A JavaScript value of the reference host.
#[derive(Clone)]
pub enum Value {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Boolean(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(Str),
    /// A BigInt (small ones are enough for JSON's purposes).
    BigInt(i128),
    /// A symbol, with its description.
    Symbol(Rc<str>),
    /// An object.
    Object(Object),
}

impl Value {
    /// A string value.
    pub fn string(text: &str) -> Self {
        Value::String(Str::from(text))
    }

    /// A string value from UTF-16 code units (lone surrogates allowed).
    pub fn utf16(units: &[u16]) -> Self {
        Value::String(Str::from_utf16(units))
    }

    /// A new array.
    pub fn array(elements: impl IntoIterator<Item = Value>) -> Self {
        Value::Object(Object::new(Class::Array, elements.into_iter().collect()))
    }

    /// A new ordinary object with these data properties, in order.
    pub fn object<'k>(properties: impl IntoIterator<Item = (&'k str, Value)>) -> Self {
        let object = Object::new(Class::Ordinary, Vec::new());
        for (key, value) in properties {
            object.set(key, value);
        }
        Value::Object(object)
    }

    /// A new function object.
    pub fn function(f: impl Fn(&mut ReferenceHost, &Value, &[Value]) -> Result<Value, Exception> + 'static) -> Self {
        Value::Object(Object::new(Class::Function(Rc::new(f)), Vec::new()))
    }

    /// A new object of `class` with no properties (a boxed primitive, raw
    /// JSON).
    pub fn with_class(class: Class) -> Self {
        Value::Object(Object::new(class, Vec::new()))
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&Str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }
}

impl From<f64> for Value {
    fn from(number: f64) -> Self {
        Value::Number(number)
    }
}

impl From<bool> for Value {
    fn from(boolean: bool) -> Self {
        Value::Boolean(boolean)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::string(text)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Undefined => f.write_str("undefined"),
            Value::Null => f.write_str("null"),
            Value::Boolean(boolean) => write!(f, "{boolean}"),
            Value::Number(number) => write!(f, "{number}"),
            Value::String(text) => write!(f, "{text:?}"),
            Value::BigInt(bigint) => write!(f, "{bigint}n"),
            Value::Symbol(description) => write!(f, "Symbol({description})"),
            Value::Object(object) => write!(f, "[object {:?}]", object.class_name()),
        }
    }
}

/// The internal slots of an object.
#[derive(Clone)]
pub enum Class {
    /// An ordinary object.
    Ordinary,
    /// An array exotic object; its elements are dense.
    Array,
    /// A function.
    Function(NativeFunction),
    /// An object made by `JSON.rawJSON`, with its text.
    RawJson(Str),
    /// A `Number` wrapper.
    Number(f64),
    /// A `String` wrapper.
    String(Str),
    /// A `Boolean` wrapper.
    Boolean(bool),
    /// A `BigInt` wrapper.
    BigInt(i128),
}

/// An own property.
#[derive(Clone)]
pub enum Property {
    /// A data property.
    Data(Value),
    /// An accessor property with a getter (called with the object as `this`).
    Getter(NativeFunction),
}

/// The storage behind an [`Object`].
struct ObjectData {
    class: Class,
    /// Array elements (arrays only).
    elements: RefCell<Vec<Value>>,
    /// Own enumerable string-keyed properties in `OrdinaryOwnPropertyKeys`
    /// order: array-index keys ascending, then the rest in creation order.
    properties: RefCell<IndexMap<Str, Property, ahash::RandomState>>,
    /// How many leading `properties` have array-index keys.
    index_keys: Cell<usize>,
    /// How many `properties` are accessors.
    accessors: Cell<usize>,
}

impl ObjectData {
    /// Moves out every value this object holds, so that dropping them can
    /// be done without recursion.
    fn take_children(&mut self, into: &mut Vec<Value>) {
        into.append(self.elements.get_mut());
        into.extend(self.properties.get_mut().drain(..).filter_map(|(_, property)| match property {
            Property::Data(value) => Some(value),
            Property::Getter(_) => None,
        }));
    }
}

impl Drop for ObjectData {
    /// Drops deep trees (a million nested arrays) with a work list instead
    /// of recursion.
    fn drop(&mut self) {
        let mut pending = Vec::new();
        self.take_children(&mut pending);
        while let Some(value) = pending.pop() {
            if let Value::Object(Object(rc)) = value
                && let Ok(mut data) = Rc::try_unwrap(rc)
            {
                data.take_children(&mut pending);
            }
        }
    }
}

/// A reference to an object.
#[derive(Clone)]
pub struct Object(Rc<ObjectData>);

impl Object {
    fn new(class: Class, elements: Vec<Value>) -> Self {
        Object(Rc::new(ObjectData {
            class,
            elements: RefCell::new(elements),
            properties: RefCell::new(IndexMap::default()),
            index_keys: Cell::new(0),
            accessors: Cell::new(0),
        }))
    }

    /// The object's internal slots.
    pub fn class(&self) -> &Class {
        &self.0.class
    }

    fn class_name(&self) -> &'static str {
        match self.0.class {
            Class::Ordinary => "Object",
            Class::Array => "Array",
            Class::Function(_) => "Function",
            Class::RawJson(_) => "RawJSON",
            Class::Number(_) => "Number",
            Class::String(_) => "String",
            Class::Boolean(_) => "Boolean",
            Class::BigInt(_) => "BigInt",
        }
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self.0.class, Class::Array)
    }

    /// An identity, equal only for the same object.
    pub fn identity(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// The array elements (empty for other objects).
    pub fn elements(&self) -> Ref<'_, Vec<Value>> {
        self.0.elements.borrow()
    }

    /// The own properties in spec order (array elements excluded).
    pub fn properties(&self) -> Ref<'_, IndexMap<Str, Property, ahash::RandomState>> {
        self.0.properties.borrow()
    }

    /// How many own properties are accessors.
    pub(super) fn accessor_count(&self) -> usize {
        self.0.accessors.get()
    }

    /// Creates or replaces a data property (`CreateDataProperty`).
    pub fn set(&self, key: impl Into<Str>, value: Value) {
        self.define(key.into(), Property::Data(value));
    }

    /// Defines an accessor property with a getter.
    pub fn define_getter(
        &self,
        key: impl Into<Str>,
        getter: impl Fn(&mut ReferenceHost, &Value, &[Value]) -> Result<Value, Exception> + 'static,
    ) {
        self.define(key.into(), Property::Getter(Rc::new(getter)));
    }

    /// Creates or replaces a property, keeping the position of an existing
    /// one and the spec order of array-index keys.
    pub fn define(&self, key: Str, property: Property) {
        let index = key.array_index();
        if self.is_array()
            && let Some(index) = index
        {
            let value = match property {
                Property::Data(value) => value,
                // Deviation: accessor elements are not modelled.
                Property::Getter(_) => Value::Undefined,
            };
            let mut elements = self.0.elements.borrow_mut();
            let index = index as usize;
            if index >= elements.len() {
                elements.resize(index + 1, Value::Undefined);
            }
            elements[index] = value;
            return;
        }
        let mut properties = self.0.properties.borrow_mut();
        let is_getter = matches!(property, Property::Getter(_));
        if let Some(slot) = properties.get_mut(&key) {
            let was_getter = matches!(slot, Property::Getter(_));
            *slot = property;
            self.0.accessors.set(self.0.accessors.get() + usize::from(is_getter) - usize::from(was_getter));
            return;
        }
        self.0.accessors.set(self.0.accessors.get() + usize::from(is_getter));
        match index {
            None => {
                properties.insert(key, property);
            }
            Some(index) => {
                let count = self.0.index_keys.get();
                let position = properties.as_slice()[..count]
                    .binary_search_by_key(&index, |key, _| key.array_index().unwrap_or(u32::MAX))
                    .unwrap_or_else(|position| position);
                properties.shift_insert(position, key, property);
                self.0.index_keys.set(count + 1);
            }
        }
    }

    /// Removes a property (`[[Delete]]`); for an array element, leaves
    /// `undefined` (see the module docs).
    pub fn delete(&self, key: &Str) {
        if self.is_array()
            && let Some(index) = key.array_index()
        {
            if let Some(slot) = self.0.elements.borrow_mut().get_mut(index as usize) {
                *slot = Value::Undefined;
            }
            return;
        }
        if let Some((position, _, property)) = self.0.properties.borrow_mut().shift_remove_full(key) {
            if matches!(property, Property::Getter(_)) {
                self.0.accessors.set(self.0.accessors.get() - 1);
            }
            if position < self.0.index_keys.get() {
                self.0.index_keys.set(self.0.index_keys.get() - 1);
            }
        }
    }

    /// The own property `key`, if any (array elements included).
    pub fn own_property(&self, key: &Str) -> Option<Property> {
        if self.is_array()
            && let Some(index) = key.array_index()
        {
            return self.0.elements.borrow().get(index as usize).cloned().map(Property::Data);
        }
        self.0.properties.borrow().get(key).cloned()
    }
}
