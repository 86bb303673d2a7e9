//! js-json adopted by a second engine: a [`JsonHost`] over Boa's values,
//! and [`install`], which puts `js_json::stringify` and `js_json::parse`
//! under a Boa realm's `JSON.stringify` and `JSON.parse`.
//!
//! Boa's public API is enough for the whole host. What it does not offer
//! directly is taken from the realm's own builtins, captured by [`install`]
//! before any program runs: `Object.keys` (`EnumerableOwnProperties`),
//! `Array.isArray` (through proxies), `Reflect.deleteProperty` (a
//! `[[Delete]]` that reports `false` instead of throwing) and
//! `JSON.isRawJSON` (Boa's `[[IsRawJSON]]` data type is private).
//!
//! The stringify fast path reads objects through `JsObject::borrow`: an
//! ordinary object (or an array with dense elements and no holes) whose
//! prototypes are ordinary objects or arrays, none of which has a `toJSON`
//! property, and whose own enumerable properties are all data properties,
//! is snapshotted once (keys and values) and serialized from the snapshot;
//! anything else takes js-json's general path, which runs every step of the
//! spec through `Get`, `Call` and the builtins above.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::Rc;

use boa_engine::builtins::object::OrdinaryObject;
use boa_engine::object::builtins::JsArray;
use boa_engine::object::{ErasedObject, FunctionObjectBuilder, IndexProperties};
use boa_engine::property::PropertyKey as BoaKey;
use boa_engine::string::{JsStr as BoaStr, JsStrVariant};
use boa_engine::value::JsVariant;
use boa_engine::{
    Context, JsBigInt, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction, js_string,
};
use js_json::{ErrorKind, JsStr, JsonError, JsonHost, JsonText, Kind, Limits, ObjectClass, Plain, PropertyKey};

/// A value as the host hands it to js-json: strings and objects unpacked
/// from their `JsValue`, so that [`JsonHost::string`] can lend a string's
/// units and an object can carry what the host learnt about it.
#[derive(Clone)]
pub struct Value(Repr);

#[derive(Clone)]
enum Repr {
    String(JsString),
    Object(ObjectValue),
    Other(JsValue),
}

/// An object and the facts about it that cannot change while js-json
/// holds it: its internal-slot class (with a raw JSON object's text), and,
/// for the fast path, a snapshot of its members. Inline, so that wrapping
/// an object allocates nothing; a clone made after a fact was learnt
/// shares it.
#[derive(Clone)]
struct ObjectValue {
    object: JsObject,
    class: OnceCell<(ObjectClass, Option<JsString>)>,
    members: OnceCell<Option<Rc<Members>>>,
}

/// The members of a plain object or array: keys (`None` for arrays) and
/// values in `EnumerableOwnProperties` order.
struct Members {
    keys: Option<Rc<ShapeKeys>>,
    values: Vec<Value>,
}

/// The enumerable string keys of one shape's objects: as strings for the
/// output, and as Boa keys to read the values with.
struct ShapeKeys {
    names: Vec<JsString>,
    lookup: Vec<BoaKey>,
}

impl Value {
    /// Wraps a Boa value.
    pub fn from_js(value: JsValue) -> Self {
        if let Some(string) = value.as_string() {
            return Self(Repr::String(string));
        }
        if value.is_object() {
            return value.into_object().map_or_else(|| Self(Repr::Other(JsValue::undefined())), Self::from_object);
        }
        Self(Repr::Other(value))
    }

    fn from_object(object: JsObject) -> Self {
        Self(Repr::Object(ObjectValue { object, class: OnceCell::new(), members: OnceCell::new() }))
    }

    /// The Boa value.
    pub fn to_js(&self) -> JsValue {
        match &self.0 {
            Repr::String(string) => string.clone().into(),
            Repr::Object(object) => object.object.clone().into(),
            Repr::Other(value) => value.clone(),
        }
    }

    fn object(&self) -> Option<&JsObject> {
        match &self.0 {
            Repr::Object(object) => Some(&object.object),
            _ => None,
        }
    }
}

/// The realm's builtins the host calls, captured before any program runs
/// (a program may replace the globals they are reached through).
const OBJECT_KEYS: usize = 0;
const ARRAY_IS_ARRAY: usize = 1;
const REFLECT_DELETE_PROPERTY: usize = 2;
const JSON_IS_RAW_JSON: usize = 3;

/// The builtins, indexed by the constants above.
type Builtins = [JsObject; 4];

/// A [`JsonHost`] over one Boa context.
pub struct BoaJsonHost<'c> {
    /// Borrowed mutably by `&mut self` methods through `get_mut`, and by
    /// the one `&self` method that calls a builtin (`JSON.isRawJSON`, which
    /// runs no user code) through `borrow_mut`; no borrow outlives a method.
    context: RefCell<&'c mut Context>,
    builtins: &'c Builtins,
    /// Addresses of prototypes found to allow the fast path in this call.
    /// No user code runs while the fast path reads (the general path never
    /// asks `plain`), so a prototype cannot gain a `toJSON` in between.
    plain_prototypes: RefCell<Vec<usize>>,
    /// The keys this call of `parse` made, by their Latin-1 contents:
    /// parsed JSON repeats a few keys many times.
    keys: HashMap<Box<[u8]>, JsString>,
    /// What `shape_keys` found for each shape the fast path met in this
    /// call (shapes do not change while it reads).
    shapes: RefCell<HashMap<usize, Option<Rc<ShapeKeys>>, BuildHasherDefault<AddressHasher>>>,
}

impl<'c> BoaJsonHost<'c> {
    /// A host over `context`, calling the builtins `install` captured.
    fn new(context: &'c mut Context, builtins: &'c Builtins) -> Self {
        Self {
            context: RefCell::new(context),
            builtins,
            plain_prototypes: RefCell::new(Vec::new()),
            keys: HashMap::new(),
            shapes: RefCell::default(),
        }
    }

    fn context(&mut self) -> &mut Context {
        self.context.get_mut()
    }

    fn call_builtin(&mut self, which: usize, args: &[JsValue]) -> JsResult<JsValue> {
        let function = &self.builtins[which];
        function.call(&JsValue::undefined(), args, self.context.get_mut())
    }

    /// The object's class, computed once per value.
    fn class_of<'a>(&self, object: &'a ObjectValue) -> &'a (ObjectClass, Option<JsString>) {
        object.class.get_or_init(|| {
            let o = &object.object;
            if o.is::<f64>() {
                (ObjectClass::Number, None)
            } else if o.is::<JsString>() {
                (ObjectClass::String, None)
            } else if let Some(boolean) = o.downcast_ref::<bool>() {
                (ObjectClass::Boolean(*boolean), None)
            } else if o.is::<JsBigInt>() {
                (ObjectClass::BigInt, None)
            } else if !o.is_ordinary() && !o.is_array() && !o.is_callable() && self.is_raw_json(o) {
                (ObjectClass::RawJson, raw_json_text(o))
            } else {
                (ObjectClass::Ordinary, None)
            }
        })
    }

    /// `JSON.isRawJSON(object)`, the only way to see Boa's private
    /// `[[IsRawJSON]]` data type.
    fn is_raw_json(&self, object: &JsObject) -> bool {
        let mut context = self.context.borrow_mut();
        self.builtins[JSON_IS_RAW_JSON]
            .call(&JsValue::undefined(), &[object.clone().into()], &mut context)
            .is_ok_and(|result| result.to_boolean())
    }
}

/// The `rawJSON` string of a raw JSON object (a frozen data property, so
/// reading it runs no user code).
fn raw_json_text(object: &JsObject) -> Option<JsString> {
    let borrowed = object.try_borrow().ok()?;
    let descriptor = borrowed.properties().get(&js_string!("rawJSON").into())?;
    descriptor.value()?.as_string()
}

impl BoaJsonHost<'_> {
    /// Whether `prototype` and everything above it are ordinary objects or
    /// arrays without a `toJSON` property: reading a plain object's members
    /// then cannot be told apart from the spec's `Get`s.
    fn prototypes_allow_plain(&self, mut prototype: Option<JsObject>, to_json: &BoaKey) -> bool {
        let mut checked = Vec::new();
        while let Some(object) = prototype {
            let at = address(&object);
            if self.plain_prototypes.borrow().contains(&at) {
                break;
            }
            if !(object.is_ordinary() || object.is_array()) {
                return false;
            }
            let Ok(borrowed) = object.try_borrow() else { return false };
            if borrowed.properties().contains_key(to_json) {
                return false;
            }
            checked.push(at);
            prototype = borrowed.prototype();
        }
        self.plain_prototypes.borrow_mut().extend(checked);
        true
    }

    /// The members of `object` if the fast path may serialize it from them.
    fn snapshot(&self, object: &JsObject) -> Option<Members> {
        let array = object.is_array();
        if !array && !object.is_ordinary() {
            return None;
        }
        let to_json: BoaKey = js_string!("toJSON").into();
        let borrowed = object.try_borrow().ok()?;
        let properties = borrowed.properties();
        if properties.contains_key(&to_json) || !self.prototypes_allow_plain(borrowed.prototype(), &to_json) {
            return None;
        }
        if array {
            return Some(Members { keys: None, values: array_elements(&borrowed)? });
        }
        if properties.index_properties().len() != 0 {
            // Integer keys come first in property order: the general path.
            return None;
        }
        let shape = borrowed.shape().to_addr_usize();
        let keys =
            self.shapes.borrow_mut().entry(shape).or_insert_with(|| shape_keys(&borrowed).map(Rc::new)).clone()?;
        let mut values = Vec::with_capacity(keys.lookup.len());
        for key in &keys.lookup {
            values.push(Value::from_js(properties.get(key)?.value().cloned().unwrap_or_default()));
        }
        Some(Members { keys: Some(keys), values })
    }
}

/// The dense elements of an array without holes, if it has them.
fn array_elements(borrowed: &ErasedObject) -> Option<Vec<Value>> {
    let properties = borrowed.properties();
    let elements = properties.index_properties();
    // An array's length is a u32, kept as an integer value.
    let length = properties.get(&js_string!("length").into())?.value()?.as_i32();
    let dense = matches!(
        elements,
        IndexProperties::DenseI32(_) | IndexProperties::DenseF64(_) | IndexProperties::DenseElement(_)
    );
    if !dense || length.and_then(|length| usize::try_from(length).ok()) != Some(elements.len()) {
        // Holes (read through the prototypes) and sparse storage take the
        // general path.
        return None;
    }
    Some(elements.map(|(_, descriptor)| Value::from_js(descriptor.value().cloned().unwrap_or_default())).collect())
}

/// The enumerable string keys of the objects of one shape, in property
/// order, if none of them is an accessor or an integer key. (Attributes
/// live in the shape, so every object of the shape has the same answer.)
fn shape_keys(borrowed: &ErasedObject) -> Option<ShapeKeys> {
    let properties = borrowed.properties();
    let mut keys = ShapeKeys { names: Vec::new(), lookup: Vec::new() };
    for key in borrowed.shape().keys() {
        let name = match key {
            BoaKey::String(ref name) => name.clone(),
            BoaKey::Symbol(_) => continue,
            // Integer keys come first in property order: the general path.
            BoaKey::Index(_) => return None,
        };
        let descriptor = properties.get(&key)?;
        if descriptor.enumerable() != Some(true) {
            continue;
        }
        if descriptor.is_accessor_descriptor() {
            return None;
        }
        keys.names.push(name);
        keys.lookup.push(key);
    }
    Some(keys)
}

/// Boa's string units as js-json's.
fn units(string: &JsString) -> JsStr<'_> {
    match string.variant() {
        JsStrVariant::Latin1(bytes) => JsStr::Latin1(bytes),
        JsStrVariant::Utf16(units) => JsStr::Utf16(units),
    }
}

/// js-json's units as a Boa string.
fn boa_string(contents: JsStr<'_>) -> JsString {
    match contents {
        JsStr::Latin1(bytes) => JsString::from(BoaStr::latin1(bytes)),
        JsStr::Utf16(units) => JsString::from(units),
    }
}

/// A js-json property key as Boa's.
fn boa_key(key: &PropertyKey<Value>) -> BoaKey {
    match key {
        PropertyKey::String(value) => match &value.0 {
            Repr::String(string) => string.clone().into(),
            _ => js_string!().into(),
        },
        PropertyKey::Index(index) => match u32::try_from(*index) {
            Ok(index) if index != u32::MAX => index.into(),
            _ => JsString::from(index.to_string()).into(),
        },
    }
}

/// A hasher for addresses (of shapes): a multiply spreads the bits that
/// alignment leaves equal, instead of `SipHash`'s rounds.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, value: usize) {
        self.0 = (value as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// An object's address, read through its `Hash` (which hashes the
/// pointer) so that no unsafe code is needed.
fn address(object: &JsObject) -> usize {
    #[derive(Default)]
    struct Address(u64);
    impl Hasher for Address {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &byte in bytes {
                self.0 = self.0.rotate_left(8) ^ u64::from(byte);
            }
        }
        fn write_usize(&mut self, value: usize) {
            self.0 = value as u64;
        }
    }
    let mut hasher = Address::default();
    object.hash(&mut hasher);
    usize::try_from(hasher.finish()).unwrap_or_default()
}

impl JsonHost for BoaJsonHost<'_> {
    type Value = Value;
    type Error = JsError;

    fn kind(&self, value: &Value) -> Kind {
        match &value.0 {
            Repr::String(_) => Kind::String,
            Repr::Object(object) => {
                if object.object.is_callable() {
                    Kind::Callable
                } else {
                    Kind::Object
                }
            }
            Repr::Other(value) => match value.variant() {
                JsVariant::Undefined => Kind::Undefined,
                JsVariant::Null => Kind::Null,
                JsVariant::Boolean(boolean) => Kind::Boolean(boolean),
                JsVariant::Float64(number) => Kind::Number(number),
                JsVariant::Integer32(number) => Kind::Number(f64::from(number)),
                JsVariant::BigInt(_) => Kind::BigInt,
                JsVariant::Symbol(_) => Kind::Symbol,
                // `Value::from_js` unpacks these.
                JsVariant::String(_) => Kind::String,
                JsVariant::Object(_) => Kind::Object,
            },
        }
    }

    fn string<'a>(&'a self, value: &'a Value) -> JsStr<'a> {
        match &value.0 {
            Repr::String(string) => units(string),
            _ => JsStr::Latin1(b""),
        }
    }

    fn object_class(&self, object: &Value) -> ObjectClass {
        match &object.0 {
            Repr::Object(object) => self.class_of(object).0,
            _ => ObjectClass::Ordinary,
        }
    }

    fn raw_json_text<'a>(&'a self, object: &'a Value) -> JsStr<'a> {
        match &object.0 {
            Repr::Object(object) => self.class_of(object).1.as_ref().map_or(JsStr::Latin1(b""), units),
            _ => JsStr::Latin1(b""),
        }
    }

    fn identity(&self, object: &Value) -> usize {
        object.object().map_or(0, address)
    }

    fn plain(&self, object: &Value) -> Option<Plain> {
        let Repr::Object(object) = &object.0 else { return None };
        let members = object.members.get_or_init(|| self.snapshot(&object.object).map(Rc::new)).as_ref()?;
        Some(match members.keys {
            None => Plain::Array(members.values.len()),
            Some(_) => Plain::Object(members.values.len()),
        })
    }

    fn plain_entry(&self, object: &Value, index: usize) -> (Option<Value>, Value) {
        let Repr::Object(object) = &object.0 else { unreachable!("plain_entry of a non-object") };
        let members = object.members.get().and_then(Option::as_ref).expect("plain_entry after plain");
        let key = members.keys.as_ref().map(|keys| Value(Repr::String(keys.names[index].clone())));
        (key, members.values[index].clone())
    }

    fn same_value(&self, a: &Value, b: &Value) -> bool {
        JsValue::same_value(&a.to_js(), &b.to_js())
    }

    fn is_array(&mut self, value: &Value) -> JsResult<bool> {
        match value.object() {
            Some(object) if object.is_array() => Ok(true),
            Some(object) if object.is_ordinary() => Ok(false),
            // A proxy (or another exotic object): the builtin looks through.
            Some(object) => {
                let object = object.clone().into();
                Ok(self.call_builtin(ARRAY_IS_ARRAY, &[object])?.to_boolean())
            }
            None => Ok(false),
        }
    }

    fn get(&mut self, object: &Value, key: &PropertyKey<Value>) -> JsResult<Value> {
        let key = boa_key(key);
        let result = if let Some(object) = object.object() {
            object.get(key, self.context())?
        } else {
            let wrapper = object.to_js().to_object(self.context())?;
            wrapper.get(key, self.context())?
        };
        Ok(Value::from_js(result))
    }

    fn length_of_array_like(&mut self, object: &Value) -> JsResult<u64> {
        let length = self.get(object, &PropertyKey::String(Value(Repr::String(js_string!("length")))))?;
        length.to_js().to_length(self.context())
    }

    fn enumerable_own_keys(&mut self, object: &Value) -> JsResult<Vec<Value>> {
        let keys = self.call_builtin(OBJECT_KEYS, &[object.to_js()])?;
        let keys = keys.as_object().ok_or_else(|| JsNativeError::typ().with_message("Object.keys"))?;
        let array = JsArray::from_object(keys)?;
        let length = array.length(self.context())?;
        let mut result = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
        for index in 0..length {
            result.push(Value::from_js(array.get(index, self.context())?));
        }
        Ok(result)
    }

    fn to_json_function(&mut self, value: &Value) -> JsResult<Option<Value>> {
        let key = PropertyKey::String(Value(Repr::String(js_string!("toJSON"))));
        let function = self.get(value, &key)?;
        Ok(function.object().is_some_and(JsObject::is_callable).then_some(function))
    }

    fn call(&mut self, function: &Value, this: &Value, args: &[Value]) -> JsResult<Value> {
        let function = function.object().ok_or_else(|| JsNativeError::typ().with_message("not a function"))?.clone();
        let args: Vec<JsValue> = args.iter().map(Value::to_js).collect();
        Ok(Value::from_js(function.call(&this.to_js(), &args, self.context())?))
    }

    fn to_number(&mut self, value: &Value) -> JsResult<f64> {
        value.to_js().to_number(self.context())
    }

    fn to_string(&mut self, value: &Value) -> JsResult<Value> {
        Ok(Value(Repr::String(value.to_js().to_string(self.context())?)))
    }

    fn create_data_property(&mut self, object: &Value, key: &PropertyKey<Value>, value: Value) -> JsResult<bool> {
        let Some(object) = object.object() else { return Ok(false) };
        object.create_data_property(boa_key(key), value.to_js(), self.context())
    }

    fn delete_property(&mut self, object: &Value, key: &PropertyKey<Value>) -> JsResult<bool> {
        let key = match boa_key(key) {
            BoaKey::String(name) => JsValue::from(name),
            BoaKey::Index(index) => JsValue::from(index.get()),
            BoaKey::Symbol(symbol) => JsValue::from(symbol),
        };
        Ok(self.call_builtin(REFLECT_DELETE_PROPERTY, &[object.to_js(), key])?.to_boolean())
    }

    fn undefined(&mut self) -> Value {
        Value(Repr::Other(JsValue::undefined()))
    }

    fn null(&mut self) -> Value {
        Value(Repr::Other(JsValue::null()))
    }

    fn boolean(&mut self, value: bool) -> Value {
        Value(Repr::Other(JsValue::from(value)))
    }

    fn number(&mut self, value: f64) -> Value {
        Value(Repr::Other(JsValue::from(value)))
    }

    fn create_string(&mut self, contents: JsStr<'_>) -> Value {
        Value(Repr::String(boa_string(contents)))
    }

    fn create_key(&mut self, contents: JsStr<'_>) -> Value {
        // Short Latin-1 keys are shared; others are made each time.
        let JsStr::Latin1(bytes) = contents else { return self.create_string(contents) };
        if bytes.len() > 32 {
            return self.create_string(contents);
        }
        if let Some(key) = self.keys.get(bytes) {
            return Value(Repr::String(key.clone()));
        }
        let key = boa_string(contents);
        self.keys.insert(bytes.into(), key.clone());
        Value(Repr::String(key))
    }

    fn create_object(&mut self, properties: Vec<(Value, Value)>) -> Value {
        // A shared shape, as object literals get: objects with the same
        // keys in the same order share one (`with_object_proto` would give
        // each a property table of its own).
        let context = self.context();
        let prototype = context.intrinsics().constructors().object().prototype();
        let object = JsObject::new(context.root_shape(), prototype, OrdinaryObject).upcast();
        for (key, value) in properties {
            let key = boa_key(&PropertyKey::String(key));
            // Defining a data property on a new ordinary object cannot fail.
            let _ = object.create_data_property(key, value.to_js(), self.context());
        }
        Value::from_object(object)
    }

    fn create_array(&mut self, elements: Vec<Value>) -> Value {
        let array = JsArray::from_iter(elements.iter().map(Value::to_js), self.context());
        Value::from_object(array.into())
    }

    fn error(&mut self, error: JsonError) -> JsError {
        let native = match error.kind() {
            ErrorKind::TypeError => JsNativeError::typ(),
            ErrorKind::RangeError => JsNativeError::range(),
            ErrorKind::SyntaxError => JsNativeError::syntax(),
        };
        native.with_message(error.to_string()).into()
    }
}

/// js-json's text as a Boa string.
fn text_to_js(text: &JsonText) -> JsString {
    boa_string(text.as_js_str())
}

/// `JSON.stringify(value, replacer, space)` by `js_json::stringify`.
fn stringify(_this: &JsValue, args: &[JsValue], builtins: &Builtins, context: &mut Context) -> JsResult<JsValue> {
    let arg = |index: usize| Value::from_js(args.get(index).cloned().unwrap_or_default());
    let (value, replacer, space) = (arg(0), arg(1), arg(2));
    let mut host = BoaJsonHost::new(context, builtins);
    let text = js_json::stringify(&mut host, &value, &replacer, &space, Limits::default())?;
    Ok(text.map_or_else(JsValue::undefined, |text| text_to_js(&text).into()))
}

/// `JSON.parse(text, reviver)` by `js_json::parse`.
fn parse(_this: &JsValue, args: &[JsValue], builtins: &Builtins, context: &mut Context) -> JsResult<JsValue> {
    let text = args.first().cloned().unwrap_or_default().to_string(context)?;
    let reviver = Value::from_js(args.get(1).cloned().unwrap_or_default());
    let mut host = BoaJsonHost::new(context, builtins);
    Ok(js_json::parse(&mut host, units(&text), &reviver, Limits::default())?.to_js())
}

/// `global[object][name]` as an object, from the realm as it is now.
fn builtin(context: &mut Context, object: &str, name: &str) -> JsResult<JsObject> {
    let holder = context.global_object().get(JsString::from(object), context)?;
    let holder = holder.as_object().ok_or_else(|| JsNativeError::typ().with_message(format!("no {object}")))?;
    let function = holder.get(JsString::from(name), context)?;
    function.as_object().ok_or_else(|| JsNativeError::typ().with_message(format!("no {object}.{name}")).into())
}

/// Replaces the realm's `JSON.stringify` and `JSON.parse` with js-json's,
/// keeping their names, lengths and attributes. Call it before running
/// any program: it captures the builtins the host calls.
///
/// # Errors
///
/// If the realm has no `JSON` object or one of the captured builtins.
pub fn install(context: &mut Context) -> JsResult<()> {
    let builtins: Builtins = [
        builtin(context, "Object", "keys")?,
        builtin(context, "Array", "isArray")?,
        builtin(context, "Reflect", "deleteProperty")?,
        builtin(context, "JSON", "isRawJSON")?,
    ];
    let json = context.global_object().get(js_string!("JSON"), context)?;
    let json = json.as_object().ok_or_else(|| JsNativeError::typ().with_message("no JSON"))?;
    let functions: [(&str, usize, NativeFunction); 2] = [
        ("stringify", 3, NativeFunction::from_copy_closure_with_captures(stringify, builtins.clone())),
        ("parse", 2, NativeFunction::from_copy_closure_with_captures(parse, builtins)),
    ];
    for (name, length, function) in functions {
        let name = JsString::from(name);
        let function = FunctionObjectBuilder::new(context.realm(), function).name(name.clone()).length(length).build();
        json.set(name, function, true, context)?;
    }
    Ok(())
}
