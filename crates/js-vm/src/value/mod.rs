//! `Value`: every ECMAScript language value in one NaN-boxed word.
//!
//! A number is stored as its own `f64` bits, with every NaN canonicalised to
//! the positive quiet NaN. The negative quiet-NaN space above
//! `0xFFF8_0000_0000_0000`, which no canonical double uses, holds the other
//! types: the top 16 bits are the tag and the low 48 bits the payload (a cell
//! address for strings, symbols, objects and bigints; a small constant for
//! `undefined`, `null`, booleans and the internal hole marker).

use std::fmt;
use std::ptr::NonNull;

use js_gc::{Gc, GcAny, Trace, Tracer};
use static_assertions::assert_eq_size;

use crate::bigint::JsBigInt;
use crate::object::JsObject;
use crate::string::JsString;
use crate::symbol::Symbol;

/// One ECMAScript value: `undefined`, `null`, a boolean, a number, a string,
/// a symbol, a bigint or an object. `Copy`, 8 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Value(u64);

assert_eq_size!(Value, u64);

const TAG_SHIFT: u32 = 48;
const PAYLOAD_MASK: u64 = (1 << TAG_SHIFT) - 1;
const CANONICAL_NAN: u64 = 0x7FF8_0000_0000_0000;

const TAG_CONSTANT: u64 = 0xFFF9;
const TAG_STRING: u64 = 0xFFFA;
const TAG_SYMBOL: u64 = 0xFFFB;
const TAG_OBJECT: u64 = 0xFFFC;
const TAG_INTERNAL: u64 = 0xFFFD;
const TAG_BIGINT: u64 = 0xFFFE;

const FIRST_TAGGED: u64 = TAG_CONSTANT << TAG_SHIFT;

const UNDEFINED: u64 = FIRST_TAGGED;
const NULL: u64 = FIRST_TAGGED | 1;
const FALSE: u64 = FIRST_TAGGED | 2;
const TRUE: u64 = FIRST_TAGGED | 3;
const HOLE: u64 = FIRST_TAGGED | 4;

/// The type of a value, as the spec's `Type(x)` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// `undefined`
    Undefined,
    /// `null`
    Null,
    /// `true` or `false`
    Boolean,
    /// An IEEE 754 double.
    Number,
    /// A string.
    String,
    /// A symbol.
    Symbol,
    /// A BigInt.
    BigInt,
    /// An object (functions included).
    Object,
}

impl Value {
    /// `undefined`.
    pub const UNDEFINED: Self = Self(UNDEFINED);
    /// `null`.
    pub const NULL: Self = Self(NULL);
    /// `true`.
    pub const TRUE: Self = Self(TRUE);
    /// `false`.
    pub const FALSE: Self = Self(FALSE);
    /// The engine-internal marker for a missing array element or an
    /// uninitialised `let` binding (TDZ). Never visible to scripts.
    pub const HOLE: Self = Self(HOLE);

    /// A number value; NaNs are canonicalised.
    #[inline]
    pub fn number(n: f64) -> Self {
        if n.is_nan() { Self(CANONICAL_NAN) } else { Self(n.to_bits()) }
    }

    /// A boolean value.
    #[inline]
    pub fn boolean(b: bool) -> Self {
        if b { Self::TRUE } else { Self::FALSE }
    }

    #[inline]
    fn pointer(tag: u64, raw: NonNull<()>) -> Self {
        let addr = raw.as_ptr() as u64;
        debug_assert!(addr & !PAYLOAD_MASK == 0, "cell address does not fit in 48 bits");
        Self((tag << TAG_SHIFT) | addr)
    }

    /// A string value.
    #[inline]
    pub fn string(s: Gc<JsString>) -> Self {
        Self::pointer(TAG_STRING, s.into_raw())
    }

    /// A symbol value.
    #[inline]
    pub fn symbol(s: Gc<Symbol>) -> Self {
        Self::pointer(TAG_SYMBOL, s.into_raw())
    }

    /// A BigInt value.
    #[inline]
    pub fn bigint(b: Gc<JsBigInt>) -> Self {
        Self::pointer(TAG_BIGINT, b.into_raw())
    }

    /// An object value.
    #[inline]
    pub fn object(o: Gc<JsObject>) -> Self {
        Self::pointer(TAG_OBJECT, o.into_raw())
    }

    /// An engine-internal cell (an environment, an iterator record) held in
    /// a register. Scripts never see such values.
    #[inline]
    pub(crate) fn internal(cell: GcAny) -> Self {
        Self::pointer(TAG_INTERNAL, cell.into_raw())
    }

    /// The internal cell, if this holds one of type `T`.
    #[inline]
    pub(crate) fn as_internal<T: Trace + 'static>(self) -> Option<Gc<T>> {
        if self.0 < FIRST_TAGGED || self.tag() != TAG_INTERNAL {
            return None;
        }
        // SAFETY: internal values are made from live cells by `internal`.
        unsafe { GcAny::from_raw(self.raw()) }.downcast()
    }

    #[inline]
    fn tag(self) -> u64 {
        self.0 >> TAG_SHIFT
    }

    #[inline]
    fn raw(self) -> NonNull<()> {
        // A tagged pointer value always carries a non-null cell address.
        NonNull::new((self.0 & PAYLOAD_MASK) as *mut ()).unwrap_or(NonNull::dangling())
    }

    /// The spec type of the value.
    #[inline]
    pub fn value_type(self) -> ValueType {
        if self.0 < FIRST_TAGGED {
            return ValueType::Number;
        }
        match self.tag() {
            TAG_STRING => ValueType::String,
            TAG_SYMBOL => ValueType::Symbol,
            TAG_BIGINT => ValueType::BigInt,
            TAG_OBJECT | TAG_INTERNAL => ValueType::Object,
            _ => match self.0 {
                NULL => ValueType::Null,
                FALSE | TRUE => ValueType::Boolean,
                _ => ValueType::Undefined,
            },
        }
    }

    /// Whether this is `undefined`.
    #[inline]
    pub fn is_undefined(self) -> bool {
        self.0 == UNDEFINED
    }

    /// Whether this is `null`.
    #[inline]
    pub fn is_null(self) -> bool {
        self.0 == NULL
    }

    /// Whether this is `undefined` or `null`.
    #[inline]
    pub fn is_nullish(self) -> bool {
        self.0 == UNDEFINED || self.0 == NULL
    }

    /// Whether this is the internal hole marker.
    #[inline]
    pub fn is_hole(self) -> bool {
        self.0 == HOLE
    }

    /// The number, if this is one.
    #[inline]
    pub fn as_number(self) -> Option<f64> {
        (self.0 < FIRST_TAGGED).then(|| f64::from_bits(self.0))
    }

    /// The boolean, if this is one.
    #[inline]
    pub fn as_boolean(self) -> Option<bool> {
        match self.0 {
            TRUE => Some(true),
            FALSE => Some(false),
            _ => None,
        }
    }

    /// The string, if this is one.
    #[inline]
    pub fn as_string(self) -> Option<Gc<JsString>> {
        // SAFETY: values with the string tag are only made by
        // `Value::string` from a `Gc<JsString>`; liveness is the embedder
        // contract every `Value` is under.
        (self.0 >= FIRST_TAGGED && self.tag() == TAG_STRING).then(|| unsafe { Gc::from_raw(self.raw()) })
    }

    /// The symbol, if this is one.
    #[inline]
    pub fn as_symbol(self) -> Option<Gc<Symbol>> {
        // SAFETY: as for `as_string`, with `Value::symbol`.
        (self.0 >= FIRST_TAGGED && self.tag() == TAG_SYMBOL).then(|| unsafe { Gc::from_raw(self.raw()) })
    }

    /// The BigInt, if this is one.
    #[inline]
    pub fn as_bigint(self) -> Option<Gc<JsBigInt>> {
        // SAFETY: as for `as_string`, with `Value::bigint`.
        (self.0 >= FIRST_TAGGED && self.tag() == TAG_BIGINT).then(|| unsafe { Gc::from_raw(self.raw()) })
    }

    /// Whether this is a BigInt.
    #[inline]
    pub fn is_bigint(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_BIGINT
    }

    /// The object, if this is one.
    #[inline]
    pub fn as_object(self) -> Option<Gc<JsObject>> {
        // SAFETY: as for `as_string`, with `Value::object`.
        (self.0 >= FIRST_TAGGED && self.tag() == TAG_OBJECT).then(|| unsafe { Gc::from_raw(self.raw()) })
    }

    /// Whether this is an object.
    #[inline]
    pub fn is_object(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_OBJECT
    }

    /// Whether this is a string.
    #[inline]
    pub fn is_string(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_STRING
    }

    /// The cell this value points to, if any.
    #[inline]
    pub fn as_cell(self) -> Option<GcAny> {
        if self.0 < FIRST_TAGGED || self.tag() == TAG_CONSTANT {
            return None;
        }
        // SAFETY: every tag other than the constant one is a pointer made by
        // one of the `Value` constructors from a live `Gc`.
        Some(unsafe { GcAny::from_raw(self.raw()) })
    }

    /// The raw bits, for hashing and debugging.
    pub fn to_bits(self) -> u64 {
        self.0
    }
}

impl Default for Value {
    fn default() -> Self {
        Self::UNDEFINED
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Self::number(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Self::boolean(b)
    }
}

impl From<Gc<JsObject>> for Value {
    fn from(o: Gc<JsObject>) -> Self {
        Self::object(o)
    }
}

impl From<Gc<JsBigInt>> for Value {
    fn from(b: Gc<JsBigInt>) -> Self {
        Self::bigint(b)
    }
}

impl From<Gc<JsString>> for Value {
    fn from(s: Gc<JsString>) -> Self {
        Self::string(s)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value_type() {
            ValueType::Number => write!(f, "{}", f64::from_bits(self.0)),
            ValueType::Undefined if self.is_hole() => f.write_str("<hole>"),
            ValueType::Undefined => f.write_str("undefined"),
            ValueType::Null => f.write_str("null"),
            ValueType::Boolean => write!(f, "{}", self.0 == TRUE),
            ValueType::String => write!(f, "string@{:#x}", self.0 & PAYLOAD_MASK),
            ValueType::Symbol => write!(f, "symbol@{:#x}", self.0 & PAYLOAD_MASK),
            ValueType::BigInt => write!(f, "bigint@{:#x}", self.0 & PAYLOAD_MASK),
            ValueType::Object => write!(f, "object@{:#x}", self.0 & PAYLOAD_MASK),
        }
    }
}

// SAFETY: a value owns at most one heap pointer, reported here.
unsafe impl Trace for Value {
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        if let Some(cell) = self.as_cell() {
            cell.trace(tracer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_nan_is_canonical() {
        for n in [0.0, -0.0, 1.5, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN_POSITIVE, -1e-300] {
            let v = Value::number(n);
            assert_eq!(v.value_type(), ValueType::Number);
            assert_eq!(v.as_number().map(f64::to_bits), Some(n.to_bits()));
        }
        let weird_nan = f64::from_bits(0xFFFF_FFFF_FFFF_FFFF);
        assert!(weird_nan.is_nan());
        let v = Value::number(weird_nan);
        assert_eq!(v.value_type(), ValueType::Number);
        assert!(v.as_number().is_some_and(f64::is_nan));
    }

    #[test]
    fn constants_have_their_types() {
        assert_eq!(Value::UNDEFINED.value_type(), ValueType::Undefined);
        assert_eq!(Value::NULL.value_type(), ValueType::Null);
        assert_eq!(Value::TRUE.as_boolean(), Some(true));
        assert_eq!(Value::FALSE.as_boolean(), Some(false));
        assert!(Value::NULL.is_nullish() && Value::UNDEFINED.is_nullish());
        assert!(Value::HOLE.is_hole() && !Value::UNDEFINED.is_hole());
        assert!(Value::TRUE.as_cell().is_none());
    }
}
