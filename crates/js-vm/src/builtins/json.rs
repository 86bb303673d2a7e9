//! The JSON object (§25.5) on top of the `js-json` crate: this module is
//! the engine's [`JsonHost`].
//!
//! Rooting: every value the JSON algorithms receive from the host (read,
//! converted or created) is kept alive until the builtin returns, since
//! getters, `toJSON` and revivers can reach a safepoint.
//!
//! Ropes: `JsonHost::string` reads a string without mutating the heap, so
//! values are flattened when the host hands them out, and the fast path is
//! declined for objects holding ropes.

use std::collections::HashMap;

use js_gc::Gc;
use js_json::{JsonError, JsonHost, JsonText, Kind, Limits, ObjectClass, Plain};

use super::function::index_key;
use super::{method, value_property};
use crate::abstract_ops::{is_callable, string_key, to_number, to_string};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{
    add_property, call, create_data_property, delete, get_own_property, get_value, length_of_array_like,
    own_property_keys,
};
use crate::object::{Attributes, Elements, JsObject, MAX_SHAPED_PROPERTIES, ObjectKind, Properties, PropertyKey};
use crate::string::{JsStr, JsString};
use crate::value::{Value, ValueType};
use crate::vm::{Exception, JsResult, Vm};

/// The engine as seen by `js-json`.
struct Host<'a> {
    vm: &'a mut Vm,
    /// The property names already met by this parse, by their text:
    /// records in a JSON array repeat the same keys, and looking the
    /// atom up here saves allocating a string and interning it again.
    keys: KeyCache,
}

/// Interned object keys of one parse, by their text in narrowest width.
/// The atoms are kept alive for the whole builtin call (`keep_alive`), so
/// entries stay valid while the cache exists.
#[derive(Default)]
struct KeyCache {
    latin1: HashMap<Box<[u8]>, Gc<JsString>, ahash::RandomState>,
    utf16: HashMap<Box<[u16]>, Gc<JsString>, ahash::RandomState>,
}

impl<'a> Host<'a> {
    fn new(vm: &'a mut Vm) -> Self {
        Host { vm, keys: KeyCache::default() }
    }
}

fn to_json_str(s: JsStr<'_>) -> js_json::JsStr<'_> {
    match s {
        JsStr::Latin1(b) => js_json::JsStr::Latin1(b),
        JsStr::Utf16(u) => js_json::JsStr::Utf16(u),
    }
}

impl Host<'_> {
    /// Flattens a string value and keeps any value alive.
    fn hand_out(&mut self, v: Value) -> Value {
        if let Some(s) = v.as_string() {
            JsString::flatten(&mut self.vm.heap, s);
        }
        self.vm.keep_alive(v);
        v
    }

    fn key(&mut self, key: &js_json::PropertyKey<Value>) -> PropertyKey {
        match key {
            js_json::PropertyKey::String(v) => match v.as_string() {
                Some(s) => string_key(self.vm, s),
                None => PropertyKey::Index(0),
            },
            js_json::PropertyKey::Index(i) => index_key(self.vm, *i),
        }
    }

    fn is_rope(&self, v: Value) -> bool {
        v.as_string().is_some_and(|s| s.borrow(&self.vm.heap).as_flat().is_none())
    }

    /// Whether `toJSON` is found on `o` or its prototypes (without running
    /// getters: any accessor named toJSON counts as found).
    fn has_to_json(&self, o: Gc<JsObject>) -> bool {
        let key = PropertyKey::String(self.vm.names.to_json);
        let mut current = Some(o);
        while let Some(c) = current {
            let obj = c.borrow(&self.vm.heap);
            if !matches!(obj.kind, ObjectKind::Ordinary | ObjectKind::Array { .. })
                || obj.get_own(&self.vm.heap, key).is_some()
            {
                return true;
            }
            current = obj.proto;
        }
        false
    }
}

impl JsonHost for Host<'_> {
    type Value = Value;
    type Error = Exception;

    fn kind(&self, value: &Value) -> Kind {
        match value.value_type() {
            ValueType::Undefined => Kind::Undefined,
            ValueType::Null => Kind::Null,
            ValueType::Boolean => Kind::Boolean(*value == Value::TRUE),
            ValueType::Number => Kind::Number(value.as_number().unwrap_or(f64::NAN)),
            ValueType::String => Kind::String,
            ValueType::Symbol => Kind::Symbol,
            ValueType::BigInt => Kind::BigInt,
            ValueType::Object => {
                if value.as_object().is_some_and(|o| o.borrow(&self.vm.heap).is_callable()) {
                    Kind::Callable
                } else {
                    Kind::Object
                }
            }
        }
    }

    fn string<'a>(&'a self, value: &'a Value) -> js_json::JsStr<'a> {
        let flat = value.as_string().and_then(|s| s.borrow(&self.vm.heap).as_flat());
        debug_assert!(flat.is_some() || !value.is_string(), "the JSON host hands out flat strings only");
        to_json_str(flat.unwrap_or(JsStr::Latin1(&[])))
    }

    fn object_class(&self, object: &Value) -> ObjectClass {
        let Some(o) = object.as_object() else { return ObjectClass::Ordinary };
        match o.borrow(&self.vm.heap).kind {
            ObjectKind::Number(_) => ObjectClass::Number,
            ObjectKind::String(_) => ObjectClass::String,
            ObjectKind::Boolean(b) => ObjectClass::Boolean(b),
            ObjectKind::RawJson(_) => ObjectClass::RawJson,
            ObjectKind::BigInt(_) => ObjectClass::BigInt,
            _ => ObjectClass::Ordinary,
        }
    }

    fn raw_json_text<'a>(&'a self, object: &'a Value) -> js_json::JsStr<'a> {
        let text = object.as_object().and_then(|o| match o.borrow(&self.vm.heap).kind {
            ObjectKind::RawJson(s) => s.borrow(&self.vm.heap).as_flat(),
            _ => None,
        });
        to_json_str(text.unwrap_or(JsStr::Latin1(b"null")))
    }

    fn identity(&self, object: &Value) -> usize {
        object.to_bits() as usize
    }

    fn plain(&self, object: &Value) -> Option<Plain> {
        let o = object.as_object()?;
        if self.has_to_json(o) {
            return None;
        }
        let obj = o.borrow(&self.vm.heap);
        match (&obj.kind, &obj.properties, &obj.elements) {
            (ObjectKind::Array { length, .. }, Properties::Shaped { shape, .. }, Elements::Dense(v)) => {
                let prototypes_empty = {
                    let mut p = obj.proto;
                    let mut empty = true;
                    while let Some(proto) = p {
                        let po = proto.borrow(&self.vm.heap);
                        empty &= matches!(&po.elements, Elements::Dense(e) if e.is_empty());
                        p = po.proto;
                    }
                    empty
                };
                let named = shape.borrow(&self.vm.heap).len();
                (named == 0 && prototypes_empty && !v.iter().any(|e| self.is_rope(*e)))
                    .then_some(Plain::Array(*length as usize))
            }
            (ObjectKind::Ordinary, properties, Elements::Dense(v)) if v.is_empty() => {
                let entries: Vec<(PropertyKey, Value, Attributes)> = match properties {
                    Properties::Shaped { shape, slots } => shape
                        .borrow(&self.vm.heap)
                        .entries()
                        .map(|(k, info)| (k, slots[info.slot as usize], info.attrs))
                        .collect(),
                    Properties::Dictionary(map) => map.iter().map(|(k, (v, a))| (*k, *v, *a)).collect(),
                };
                let all_plain = entries.iter().all(|(k, v, a)| {
                    matches!(k, PropertyKey::String(_)) && a.enumerable() && !a.is_accessor() && !self.is_rope(*v)
                });
                all_plain.then_some(Plain::Object(entries.len()))
            }
            _ => None,
        }
    }

    fn plain_entry(&self, object: &Value, index: usize) -> (Option<Value>, Value) {
        let Some(o) = object.as_object() else { return (None, Value::UNDEFINED) };
        let obj = o.borrow(&self.vm.heap);
        match (&obj.kind, &obj.properties, &obj.elements) {
            (ObjectKind::Array { .. }, _, Elements::Dense(v)) => {
                let value = v.get(index).copied().filter(|v| !v.is_hole()).unwrap_or_default();
                (None, value)
            }
            (_, Properties::Shaped { shape, slots }, _) => {
                let entry = shape.borrow(&self.vm.heap).entries().nth(index);
                match entry {
                    Some((PropertyKey::String(k), info)) => (Some(Value::string(k)), slots[info.slot as usize]),
                    _ => (None, Value::UNDEFINED),
                }
            }
            (_, Properties::Dictionary(map), _) => match map.get_index(index) {
                Some((PropertyKey::String(k), (v, _))) => (Some(Value::string(*k)), *v),
                _ => (None, Value::UNDEFINED),
            },
        }
    }

    fn same_value(&self, a: &Value, b: &Value) -> bool {
        if let (Some(x), Some(y)) = (a.as_string(), b.as_string()) {
            let (x, y) = (x.borrow(&self.vm.heap).as_flat(), y.borrow(&self.vm.heap).as_flat());
            return matches!((x, y), (Some(x), Some(y)) if x.units().eq(y.units()));
        }
        if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
            return (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits();
        }
        a == b
    }

    fn is_array(&mut self, value: &Value) -> JsResult<bool> {
        crate::abstract_ops::is_array(self.vm, *value)
    }

    fn get(&mut self, object: &Value, key: &js_json::PropertyKey<Value>) -> JsResult<Value> {
        let key = self.key(key);
        let v = get_value(self.vm, *object, key)?;
        Ok(self.hand_out(v))
    }

    fn length_of_array_like(&mut self, object: &Value) -> JsResult<u64> {
        match object.as_object() {
            Some(o) => Ok(length_of_array_like(self.vm, o)? as u64),
            None => Ok(0),
        }
    }

    fn enumerable_own_keys(&mut self, object: &Value) -> JsResult<Vec<Value>> {
        let Some(o) = object.as_object() else { return Ok(Vec::new()) };
        let mut keys = Vec::new();
        for key in own_property_keys(self.vm, o)? {
            if key.is_symbol() {
                continue;
            }
            if get_own_property(self.vm, o, key)?.is_some_and(|d| d.enumerable == Some(true)) {
                let v = super::object::key_to_value(self.vm, key);
                keys.push(self.hand_out(v));
            }
        }
        Ok(keys)
    }

    fn to_json_function(&mut self, value: &Value) -> JsResult<Option<Value>> {
        let key = PropertyKey::String(self.vm.names.to_json);
        let f = get_value(self.vm, *value, key)?;
        Ok(is_callable(self.vm, f).then(|| self.hand_out(f)))
    }

    fn call(&mut self, function: &Value, this: &Value, args: &[Value]) -> JsResult<Value> {
        let v = call(self.vm, *function, *this, args)?;
        Ok(self.hand_out(v))
    }

    fn to_number(&mut self, value: &Value) -> JsResult<f64> {
        to_number(self.vm, *value)
    }

    fn to_string(&mut self, value: &Value) -> JsResult<Value> {
        let s = to_string(self.vm, *value)?;
        Ok(self.hand_out(Value::string(s)))
    }

    fn create_data_property(
        &mut self,
        object: &Value,
        key: &js_json::PropertyKey<Value>,
        value: Value,
    ) -> JsResult<bool> {
        let key = self.key(key);
        match object.as_object() {
            Some(o) => create_data_property(self.vm, o, key, value),
            None => Ok(false),
        }
    }

    fn delete_property(&mut self, object: &Value, key: &js_json::PropertyKey<Value>) -> JsResult<bool> {
        let key = self.key(key);
        match object.as_object() {
            Some(o) => delete(self.vm, o, key),
            None => Ok(false),
        }
    }

    fn undefined(&mut self) -> Value {
        Value::UNDEFINED
    }

    fn null(&mut self) -> Value {
        Value::NULL
    }

    fn boolean(&mut self, value: bool) -> Value {
        Value::boolean(value)
    }

    fn number(&mut self, value: f64) -> Value {
        Value::number(value)
    }

    fn create_string(&mut self, contents: js_json::JsStr<'_>) -> Value {
        let s = match contents {
            js_json::JsStr::Latin1(b) => JsString::from_latin1(b),
            js_json::JsStr::Utf16(u) => JsString::from_utf16(u),
        };
        let v = Value::string(self.vm.heap.alloc(s));
        self.hand_out(v)
    }

    fn create_key(&mut self, contents: js_json::JsStr<'_>) -> Value {
        let cached = match contents {
            js_json::JsStr::Latin1(b) => self.keys.latin1.get(b),
            js_json::JsStr::Utf16(u) => self.keys.utf16.get(u),
        };
        if let Some(atom) = cached {
            return Value::string(*atom);
        }
        let v = self.create_string_narrowest(contents);
        let Some(s) = v.as_string() else { return v };
        // Array-index keys stay plain strings (they name elements).
        if let PropertyKey::String(atom) = string_key(self.vm, s) {
            self.vm.keep_alive(Value::string(atom));
            match contents {
                js_json::JsStr::Latin1(b) => self.keys.latin1.insert(b.into(), atom),
                js_json::JsStr::Utf16(u) => self.keys.utf16.insert(u.into(), atom),
            };
            return Value::string(atom);
        }
        v
    }

    fn create_object(&mut self, properties: Vec<(Value, Value)>) -> Value {
        let o = self.vm.new_plain_object();
        self.vm.keep_alive(Value::object(o));
        if let Properties::Shaped { slots, .. } = &mut o.borrow_mut(&mut self.vm.heap).properties {
            slots.reserve_exact(properties.len().min(MAX_SHAPED_PROPERTIES));
        }
        for (k, v) in properties {
            let key = match k.as_string() {
                Some(s) => string_key(self.vm, s),
                None => continue,
            };
            // A fresh ordinary object accepts every data property; a key
            // not yet present is appended directly (following the cached
            // shape transitions); repeated and array-index keys go the
            // generic way.
            let appendable =
                matches!(key, PropertyKey::String(_)) && o.borrow(&self.vm.heap).get_own(&self.vm.heap, key).is_none();
            if appendable {
                add_property(self.vm, o, key, v, Attributes::DEFAULT);
            } else {
                let _ = create_data_property(self.vm, o, key, v);
            }
        }
        Value::object(o)
    }

    fn create_array(&mut self, elements: Vec<Value>) -> Value {
        let a = super::array::array_create(self.vm, &elements);
        self.hand_out(Value::object(a))
    }

    fn error(&mut self, error: JsonError) -> Exception {
        let kind = match error.kind() {
            js_json::ErrorKind::TypeError => super::error::ErrorKind::Type,
            js_json::ErrorKind::RangeError => super::error::ErrorKind::Range,
            js_json::ErrorKind::SyntaxError => super::error::ErrorKind::Syntax,
        };
        self.vm.throw_error(kind, &error.to_string())
    }

    fn interrupt_requested(&self) -> bool {
        self.vm.check_interrupt().is_err()
    }

    fn check_interrupt(&mut self) -> Result<(), Exception> {
        self.vm.check_interrupt()
    }
}

/// `JSON.parse(text, reviver)`.
fn parse(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let text = info.arg(vm, 0);
    let reviver = info.arg(vm, 1);
    let s = to_string(vm, text)?;
    parse_string(vm, s, reviver)
}

/// %JSON.parse% of Rust text without a reviver (JSON modules, §16.2.1.8
/// ParseJSONModule).
pub(crate) fn parse_text(vm: &mut Vm, text: &str) -> JsResult<Value> {
    let s = vm.heap.alloc(JsString::from_rust_str(text));
    parse_string(vm, s, Value::UNDEFINED)
}

/// `JSON.parse` of a string value.
fn parse_string(vm: &mut Vm, s: js_gc::Gc<JsString>, reviver: Value) -> JsResult<Value> {
    let s = JsString::flatten(&mut vm.heap, s);
    // The text is copied out: parsing allocates on the heap it lives in.
    let owned = match s.borrow(&vm.heap).flat() {
        JsStr::Latin1(b) => JsonText::Latin1(b.to_vec()),
        JsStr::Utf16(u) => JsonText::Utf16(u.to_vec()),
    };
    let contents = match &owned {
        JsonText::Latin1(b) => js_json::JsStr::Latin1(b),
        JsonText::Utf16(u) => js_json::JsStr::Utf16(u),
    };
    let mut host = Host::new(vm);
    js_json::parse(&mut host, contents, &reviver, Limits::default())
}

/// `JSON.stringify(value, replacer, space)`.
fn stringify(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (value, replacer, space) = (info.arg(vm, 0), info.arg(vm, 1), info.arg(vm, 2));
    let mut host = Host::new(vm);
    let value = host.hand_out(value);
    let space = host.hand_out(space);
    match js_json::stringify(&mut host, &value, &replacer, &space, Limits::default())? {
        None => Ok(Value::UNDEFINED),
        Some(text) if text_len(&text) > crate::string::MAX_STRING_LENGTH => {
            Err(vm.range_error("Invalid string length"))
        }
        Some(JsonText::Latin1(bytes)) => Ok(Value::string(vm.heap.alloc(JsString::from_latin1(bytes)))),
        // `Utf16` text holds a unit above U+00FF by its definition.
        Some(JsonText::Utf16(units)) => Ok(Value::string(vm.heap.alloc(JsString::from_wide_utf16(units)))),
    }
}

/// The length of serialized text in code units.
fn text_len(text: &JsonText) -> usize {
    match text {
        JsonText::Latin1(bytes) => bytes.len(),
        JsonText::Utf16(units) => units.len(),
    }
}

/// `JSON.rawJSON(text)`: a frozen null-prototype object whose `rawJSON`
/// property holds validated JSON primitive text.
fn raw_json(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let text = info.arg(vm, 0);
    let s = to_string(vm, text)?;
    let s = JsString::flatten(&mut vm.heap, s);
    let validation = js_json::validate_raw_json(to_json_str(s.borrow(&vm.heap).flat()));
    if let Err(e) = validation {
        return Err(vm.throw_error(super::error::ErrorKind::Syntax, &e.to_string()));
    }
    let o = vm.new_object_of_kind(None, ObjectKind::RawJson(s));
    let key = vm.key("rawJSON");
    crate::object::internal_methods::add_property(vm, o, key, Value::string(s), Attributes::ENUMERABLE_ONLY);
    o.borrow_mut(&mut vm.heap).extensible = false;
    Ok(Value::object(o))
}

/// `JSON.isRawJSON(value)`.
fn is_raw_json(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    Ok(Value::boolean(v.as_object().is_some_and(|o| matches!(o.borrow(&vm.heap).kind, ObjectKind::RawJson(_)))))
}

/// Installs JSON.
pub(crate) fn install(vm: &mut Vm) {
    let json = vm.new_plain_object();
    let global = vm.realm.global;
    value_property(vm, global, "JSON", Value::object(json), Attributes::METHOD);
    method(vm, json, "parse", 2, parse);
    method(vm, json, "stringify", 3, stringify);
    method(vm, json, "rawJSON", 1, raw_json);
    method(vm, json, "isRawJSON", 1, is_raw_json);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("JSON");
    crate::object::internal_methods::define_builtin(vm, json, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
}
