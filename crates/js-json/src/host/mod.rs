//! The narrow interface between the JSON algorithms and an engine.
//!
//! The crate has no object model: it classifies, reads and creates values
//! through [`JsonHost`]. Methods taking `&self` must not run user code; the
//! `&mut self` methods may run user code and fail with the host's exception.

use crate::error::JsonError;
use crate::text::JsStr;

/// What a value is, as far as JSON cares. Answering must not run user code.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A boolean primitive.
    Boolean(bool),
    /// A number primitive.
    Number(f64),
    /// A string primitive; read it with [`JsonHost::string`].
    String,
    /// A BigInt primitive.
    BigInt,
    /// A symbol.
    Symbol,
    /// An object that is not callable.
    Object,
    /// A callable object (a function).
    Callable,
}

/// The internal slots of an object that `SerializeJSONProperty` checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectClass {
    /// None of the slots below.
    Ordinary,
    /// `[[IsRawJSON]]`: an object made by `JSON.rawJSON`.
    RawJson,
    /// `[[NumberData]]`: a `Number` wrapper.
    Number,
    /// `[[StringData]]`: a `String` wrapper.
    String,
    /// `[[BooleanData]]`: a `Boolean` wrapper holding this value.
    Boolean(bool),
    /// `[[BigIntData]]`: a `BigInt` wrapper.
    BigInt,
}

/// An object the stringify fast path may read without running user code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plain {
    /// An array of this many elements.
    Array(usize),
    /// An ordinary object with this many own enumerable string-keyed
    /// properties.
    Object(usize),
}

/// A property key: a string value of the host, or an array index (which the
/// host may look up without making a string).
#[derive(Debug, Clone)]
pub enum PropertyKey<V> {
    /// A string key.
    String(V),
    /// An integer index (`ToString(index)` is the key).
    Index(u64),
}

/// What an engine provides to `stringify` and `parse`.
pub trait JsonHost {
    /// A JavaScript value (for a GC'd engine, a rooted handle).
    type Value: Clone;
    /// The host's exception value.
    type Error;

    // ----- reading, never observable -----

    /// Classifies a value.
    fn kind(&self, value: &Self::Value) -> Kind;

    /// The contents of a string value, without copying.
    fn string<'a>(&'a self, value: &'a Self::Value) -> JsStr<'a>;

    /// Which `SerializeJSONProperty` internal slot an object has.
    fn object_class(&self, object: &Self::Value) -> ObjectClass;

    /// The text of a raw JSON object (`ObjectClass::RawJson`).
    fn raw_json_text<'a>(&'a self, object: &'a Self::Value) -> JsStr<'a>;

    /// An identity for cycle detection; equal only for the same object.
    fn identity(&self, object: &Self::Value) -> usize;

    /// `Some` when serializing `object` by reading its own data properties
    /// is indistinguishable from the spec's steps: not a proxy; no `toJSON`
    /// on it or its prototypes; no accessor among its own enumerable
    /// properties; no special class. Arrays count their elements (holes
    /// read as `undefined`).
    fn plain(&self, object: &Self::Value) -> Option<Plain>;

    /// Entry `index` of a [`Plain`] object: its key (`None` for arrays) and
    /// value, in `EnumerableOwnProperties` order.
    fn plain_entry(&self, object: &Self::Value, index: usize) -> (Option<Self::Value>, Self::Value);

    /// `SameValue(a, b)`.
    fn same_value(&self, a: &Self::Value, b: &Self::Value) -> bool;

    // ----- may run user code -----

    /// `IsArray(value)` (throws for a revoked proxy).
    ///
    /// # Errors
    ///
    /// The host's exception.
    fn is_array(&mut self, value: &Self::Value) -> Result<bool, Self::Error>;

    /// `Get(object, key)`.
    ///
    /// # Errors
    ///
    /// Whatever a getter or proxy trap throws.
    fn get(&mut self, object: &Self::Value, key: &PropertyKey<Self::Value>) -> Result<Self::Value, Self::Error>;

    /// `LengthOfArrayLike(object)`.
    ///
    /// # Errors
    ///
    /// Whatever reading `length` throws.
    fn length_of_array_like(&mut self, object: &Self::Value) -> Result<u64, Self::Error>;

    /// `EnumerableOwnProperties(object, key)`: string keys in spec order.
    ///
    /// # Errors
    ///
    /// Whatever a proxy trap throws.
    fn enumerable_own_keys(&mut self, object: &Self::Value) -> Result<Vec<Self::Value>, Self::Error>;

    /// `GetV(value, "toJSON")` if it is callable (for objects and BigInts).
    ///
    /// # Errors
    ///
    /// Whatever a getter throws.
    fn to_json_function(&mut self, value: &Self::Value) -> Result<Option<Self::Value>, Self::Error>;

    /// `Call(function, this, args)`.
    ///
    /// # Errors
    ///
    /// Whatever the function throws.
    fn call(
        &mut self,
        function: &Self::Value,
        this: &Self::Value,
        args: &[Self::Value],
    ) -> Result<Self::Value, Self::Error>;

    /// `ToNumber(value)`.
    ///
    /// # Errors
    ///
    /// Whatever `valueOf`/`toString` throw.
    fn to_number(&mut self, value: &Self::Value) -> Result<f64, Self::Error>;

    /// `ToString(value)`, as a string value.
    ///
    /// # Errors
    ///
    /// Whatever `toString`/`valueOf` throw.
    fn to_string(&mut self, value: &Self::Value) -> Result<Self::Value, Self::Error>;

    /// `CreateDataProperty(object, key, value)`; the result says whether it
    /// succeeded.
    ///
    /// # Errors
    ///
    /// Whatever a proxy trap throws.
    fn create_data_property(
        &mut self,
        object: &Self::Value,
        key: &PropertyKey<Self::Value>,
        value: Self::Value,
    ) -> Result<bool, Self::Error>;

    /// `object.[[Delete]](key)`.
    ///
    /// # Errors
    ///
    /// Whatever a proxy trap throws.
    fn delete_property(&mut self, object: &Self::Value, key: &PropertyKey<Self::Value>) -> Result<bool, Self::Error>;

    // ----- creating values -----

    /// `undefined`.
    fn undefined(&mut self) -> Self::Value;

    /// `null`.
    fn null(&mut self) -> Self::Value;

    /// A boolean.
    fn boolean(&mut self, value: bool) -> Self::Value;

    /// A number.
    fn number(&mut self, value: f64) -> Self::Value;

    /// A string with these contents.
    fn create_string(&mut self, contents: JsStr<'_>) -> Self::Value;

    /// A string with these contents, which are in their narrowest width:
    /// [`JsStr::Utf16`] only when a unit is above U+00FF. `parse` makes
    /// its strings with this, having learnt the width from the scan that
    /// found the string's end; a host that keeps strings in a canonical
    /// width can skip checking it again. The default calls
    /// [`JsonHost::create_string`].
    fn create_string_narrowest(&mut self, contents: JsStr<'_>) -> Self::Value {
        self.create_string(contents)
    }

    /// An object key with these contents, in their narrowest width (as
    /// for [`JsonHost::create_string_narrowest`]). Parsed JSON usually
    /// repeats a few keys many times, so a host may hand out one shared
    /// value per distinct key (e.g. an interned property name). The
    /// default calls [`JsonHost::create_string_narrowest`].
    fn create_key(&mut self, contents: JsStr<'_>) -> Self::Value {
        self.create_string_narrowest(contents)
    }

    /// A new ordinary object with these properties created in order by
    /// `CreateDataProperty` (a repeated key keeps its first position and
    /// takes the last value). Keys are string values.
    fn create_object(&mut self, properties: Vec<(Self::Value, Self::Value)>) -> Self::Value;

    /// A new array with these elements.
    fn create_array(&mut self, elements: Vec<Self::Value>) -> Self::Value;

    /// The host's exception for a JSON error (the host decides what a
    /// TypeError, RangeError or SyntaxError is).
    fn error(&mut self, error: JsonError) -> Self::Error;

    /// Whether the host wants serialization stopped (an embedder's
    /// interrupt, a step or memory limit). The fast path asks every few
    /// thousand members and then hands over to the general path, which
    /// asks [`JsonHost::check_interrupt`] for the error. Never by default.
    fn interrupt_requested(&self) -> bool {
        false
    }

    /// Fails with the host's termination when it wants serialization
    /// stopped; the general path asks once per member.
    ///
    /// # Errors
    ///
    /// The host's own error for the termination it wants.
    fn check_interrupt(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// `ToString(index)` as Latin-1 digits.
fn index_digits(index: u64, buffer: &mut [u8; 20]) -> &[u8] {
    let mut start = buffer.len();
    let mut rest = index;
    loop {
        start -= 1;
        buffer[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    &buffer[start..]
}

/// The key as a string value, as `toJSON`, replacers and revivers receive
/// it.
pub(crate) fn key_string<H: JsonHost + ?Sized>(host: &mut H, key: &PropertyKey<H::Value>) -> H::Value {
    match key {
        PropertyKey::String(value) => value.clone(),
        PropertyKey::Index(index) => {
            let mut buffer = [0; 20];
            let digits = index_digits(*index, &mut buffer);
            host.create_string(JsStr::Latin1(digits))
        }
    }
}
