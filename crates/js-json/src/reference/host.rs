//! [`ReferenceHost`]: the [`JsonHost`] implementation over [`Value`].

use super::value::{Class, Object, Property, Str, Value};
use crate::error::JsonError;
use crate::host::{JsonHost, Kind, ObjectClass, Plain, PropertyKey};
use crate::text::JsStr;

/// What the reference host throws.
#[derive(Debug, Clone)]
pub enum Exception {
    /// An error the JSON algorithms raised; `JsonError::kind` says which
    /// constructor an engine would use.
    Json(JsonError),
    /// A value thrown by a native function.
    Thrown(Value),
}

/// The reference host. It holds what the value tree itself cannot: the
/// `BigInt.prototype.toJSON` method, if one is installed.
pub struct ReferenceHost {
    /// `BigInt.prototype.toJSON` (absent by default, as in JavaScript).
    pub bigint_to_json: Option<Value>,
    to_json_key: Str,
    length_key: Str,
}

impl Default for ReferenceHost {
    fn default() -> Self {
        Self::new()
    }
}

impl ReferenceHost {
    /// A host with no `BigInt.prototype.toJSON`.
    pub fn new() -> Self {
        ReferenceHost { bigint_to_json: None, to_json_key: Str::from("toJSON"), length_key: Str::from("length") }
    }

    /// `JSON.rawJSON(text)` for a string `text`.
    ///
    /// # Errors
    ///
    /// A SyntaxError when the text is not a single JSON primitive without
    /// surrounding whitespace.
    pub fn raw_json(&mut self, text: &str) -> Result<Value, Exception> {
        let text = Str::from(text);
        crate::parse::validate_raw_json(text.as_js_str()).map_err(|error| Exception::Json(error.into()))?;
        Ok(Value::with_class(Class::RawJson(text)))
    }

    fn key_str(key: &PropertyKey<Value>) -> Str {
        match key {
            PropertyKey::String(Value::String(text)) => text.clone(),
            PropertyKey::String(other) => Str::from(format!("{other:?}").as_str()),
            PropertyKey::Index(index) => Str::from_latin1(index.to_string().as_bytes()),
        }
    }

    fn type_error(message: &str) -> Exception {
        Exception::Thrown(Value::string(message))
    }

    fn number_to_string(number: f64) -> Str {
        Str::from_latin1(ryu_js::Buffer::new().format(number).as_bytes())
    }
}

impl JsonHost for ReferenceHost {
    type Value = Value;
    type Error = Exception;

    fn kind(&self, value: &Value) -> Kind {
        match value {
            Value::Undefined => Kind::Undefined,
            Value::Null => Kind::Null,
            Value::Boolean(boolean) => Kind::Boolean(*boolean),
            Value::Number(number) => Kind::Number(*number),
            Value::String(_) => Kind::String,
            Value::BigInt(_) => Kind::BigInt,
            Value::Symbol(_) => Kind::Symbol,
            Value::Object(object) => match object.class() {
                Class::Function(_) => Kind::Callable,
                _ => Kind::Object,
            },
        }
    }

    fn string<'a>(&'a self, value: &'a Value) -> JsStr<'a> {
        match value {
            Value::String(text) => text.as_js_str(),
            _ => JsStr::Latin1(b""),
        }
    }

    fn object_class(&self, object: &Value) -> ObjectClass {
        match object.as_object().map(Object::class) {
            Some(Class::RawJson(_)) => ObjectClass::RawJson,
            Some(Class::Number(_)) => ObjectClass::Number,
            Some(Class::String(_)) => ObjectClass::String,
            Some(Class::Boolean(boolean)) => ObjectClass::Boolean(*boolean),
            Some(Class::BigInt(_)) => ObjectClass::BigInt,
            _ => ObjectClass::Ordinary,
        }
    }

    fn raw_json_text<'a>(&'a self, object: &'a Value) -> JsStr<'a> {
        match object.as_object().map(Object::class) {
            Some(Class::RawJson(text)) => text.as_js_str(),
            _ => JsStr::Latin1(b"null"),
        }
    }

    fn identity(&self, object: &Value) -> usize {
        object.as_object().map_or(0, Object::identity)
    }

    fn plain(&self, object: &Value) -> Option<Plain> {
        let object = object.as_object()?;
        if object.accessor_count() != 0 {
            return None;
        }
        let properties = object.properties();
        if properties.contains_key(&self.to_json_key) {
            return None;
        }
        match object.class() {
            Class::Ordinary => Some(Plain::Object(properties.len())),
            Class::Array => Some(Plain::Array(object.elements().len())),
            _ => None,
        }
    }

    fn plain_entry(&self, object: &Value, index: usize) -> (Option<Value>, Value) {
        let object = object.as_object().expect("plain objects are objects");
        if object.is_array() {
            return (None, object.elements()[index].clone());
        }
        let properties = object.properties();
        let (key, property) = properties.get_index(index).expect("index below the plain length");
        match property {
            Property::Data(value) => (Some(Value::String(key.clone())), value.clone()),
            Property::Getter(_) => unreachable!("plain objects have no accessors"),
        }
    }

    fn same_value(&self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
            (Value::Boolean(x), Value::Boolean(y)) => x == y,
            (Value::Number(x), Value::Number(y)) => (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits(),
            (Value::String(x), Value::String(y)) => x == y,
            (Value::BigInt(x), Value::BigInt(y)) => x == y,
            (Value::Symbol(x), Value::Symbol(y)) => std::rc::Rc::ptr_eq(x, y),
            (Value::Object(x), Value::Object(y)) => x.identity() == y.identity(),
            _ => false,
        }
    }

    fn is_array(&mut self, value: &Value) -> Result<bool, Exception> {
        Ok(value.as_object().is_some_and(Object::is_array))
    }

    fn get(&mut self, object: &Value, key: &PropertyKey<Value>) -> Result<Value, Exception> {
        let Some(target) = object.as_object() else { return Ok(Value::Undefined) };
        if let PropertyKey::Index(index) = key
            && target.is_array()
        {
            return Ok(usize::try_from(*index)
                .ok()
                .and_then(|index| target.elements().get(index).cloned())
                .unwrap_or(Value::Undefined));
        }
        let key = Self::key_str(key);
        if target.is_array() && key == self.length_key {
            return Ok(Value::Number(target.elements().len() as f64));
        }
        match target.own_property(&key) {
            None => Ok(Value::Undefined),
            Some(Property::Data(value)) => Ok(value),
            Some(Property::Getter(getter)) => getter(self, object, &[]),
        }
    }

    fn length_of_array_like(&mut self, object: &Value) -> Result<u64, Exception> {
        if let Some(target) = object.as_object()
            && target.is_array()
        {
            return Ok(target.elements().len() as u64);
        }
        let length = self.get(object, &PropertyKey::String(Value::string("length")))?;
        let number = self.to_number(&length)?;
        // ToLength: clamped to 0..=2^53 - 1 before the cast.
        #[allow(clippy::cast_sign_loss)]
        let length = if number.is_nan() || number <= 0.0 { 0 } else { number.min(9_007_199_254_740_991.0) as u64 };
        Ok(length)
    }

    fn enumerable_own_keys(&mut self, object: &Value) -> Result<Vec<Value>, Exception> {
        let Some(target) = object.as_object() else { return Ok(Vec::new()) };
        let mut keys: Vec<Value> =
            (0..target.elements().len()).map(|index| Value::String(Str::from(index.to_string().as_str()))).collect();
        keys.extend(target.properties().keys().map(|key| Value::String(key.clone())));
        Ok(keys)
    }

    fn to_json_function(&mut self, value: &Value) -> Result<Option<Value>, Exception> {
        let function = match value {
            Value::BigInt(_) => self.bigint_to_json.clone().unwrap_or(Value::Undefined),
            Value::Object(_) => self.get(value, &PropertyKey::String(Value::String(self.to_json_key.clone())))?,
            _ => Value::Undefined,
        };
        Ok((self.kind(&function) == Kind::Callable).then_some(function))
    }

    fn call(&mut self, function: &Value, this: &Value, args: &[Value]) -> Result<Value, Exception> {
        match function.as_object().map(Object::class) {
            Some(Class::Function(native)) => {
                let native = std::rc::Rc::clone(native);
                native(self, this, args)
            }
            _ => Err(Self::type_error("not a function")),
        }
    }

    fn to_number(&mut self, value: &Value) -> Result<f64, Exception> {
        Ok(match value {
            Value::Number(number) => *number,
            Value::Boolean(boolean) => f64::from(u8::from(*boolean)),
            Value::Null => 0.0,
            Value::Object(object) => match object.class() {
                Class::Number(number) => *number,
                Class::Boolean(boolean) => f64::from(u8::from(*boolean)),
                _ => f64::NAN,
            },
            Value::String(text) => text.to_string_lossy().trim().parse().unwrap_or(f64::NAN),
            Value::BigInt(_) | Value::Symbol(_) => return Err(Self::type_error("cannot convert to number")),
            Value::Undefined => f64::NAN,
        })
    }

    fn to_string(&mut self, value: &Value) -> Result<Value, Exception> {
        Ok(Value::String(match value {
            Value::String(text) => text.clone(),
            Value::Number(number) => Self::number_to_string(*number),
            Value::Boolean(boolean) => Str::from(if *boolean { "true" } else { "false" }),
            Value::Null => Str::from("null"),
            Value::Undefined => Str::from("undefined"),
            Value::BigInt(bigint) => Str::from(bigint.to_string().as_str()),
            Value::Symbol(_) => return Err(Self::type_error("cannot convert a Symbol to a string")),
            Value::Object(object) => match object.class() {
                Class::String(text) => text.clone(),
                Class::Number(number) => Self::number_to_string(*number),
                Class::Array => Str::from("[array]"),
                _ => Str::from("[object Object]"),
            },
        }))
    }

    fn create_data_property(
        &mut self,
        object: &Value,
        key: &PropertyKey<Value>,
        value: Value,
    ) -> Result<bool, Exception> {
        let Some(target) = object.as_object() else { return Ok(false) };
        target.define(Self::key_str(key), Property::Data(value));
        Ok(true)
    }

    fn delete_property(&mut self, object: &Value, key: &PropertyKey<Value>) -> Result<bool, Exception> {
        if let Some(target) = object.as_object() {
            target.delete(&Self::key_str(key));
        }
        Ok(true)
    }

    fn undefined(&mut self) -> Value {
        Value::Undefined
    }

    fn null(&mut self) -> Value {
        Value::Null
    }

    fn boolean(&mut self, value: bool) -> Value {
        Value::Boolean(value)
    }

    fn number(&mut self, value: f64) -> Value {
        Value::Number(value)
    }

    fn create_string(&mut self, contents: JsStr<'_>) -> Value {
        Value::String(Str::from_js_str(contents))
    }

    fn create_string_narrowest(&mut self, contents: JsStr<'_>) -> Value {
        Value::String(Str::from_narrowest(contents))
    }

    fn create_object(&mut self, properties: Vec<(Value, Value)>) -> Value {
        let object = Value::object([]);
        let target = object.as_object().expect("just made");
        for (key, value) in properties {
            target.define(Self::key_str(&PropertyKey::String(key)), Property::Data(value));
        }
        object
    }

    fn create_array(&mut self, elements: Vec<Value>) -> Value {
        Value::array(elements)
    }

    fn error(&mut self, error: JsonError) -> Exception {
        Exception::Json(error)
    }
}
