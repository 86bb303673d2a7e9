//! Property keys, attributes and descriptors (ECMA-262 §6.1.7, §6.2.6).

use js_gc::{Gc, Trace, Tracer};

use crate::string::JsString;
use crate::symbol::Symbol;
use crate::value::Value;

/// A property key: an atom, a symbol, or an array index (a canonical numeric
/// string below 2³² − 1, kept as a number so elements stay compact).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PropertyKey {
    /// An interned string that is not an array index.
    String(Gc<JsString>),
    /// A symbol.
    Symbol(Gc<Symbol>),
    /// An array index.
    Index(u32),
}

impl PropertyKey {
    /// Whether this is a symbol key.
    pub fn is_symbol(self) -> bool {
        matches!(self, PropertyKey::Symbol(_))
    }
}

// SAFETY: one edge for string and symbol keys.
unsafe impl Trace for PropertyKey {
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            PropertyKey::String(s) => s.trace(tracer),
            PropertyKey::Symbol(s) => s.trace(tracer),
            PropertyKey::Index(_) => {}
        }
    }
}

/// Property attributes as bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Attributes(u8);

impl Attributes {
    /// `[[Writable]]` (data properties only).
    pub const WRITABLE: u8 = 1;
    /// `[[Enumerable]]`.
    pub const ENUMERABLE: u8 = 2;
    /// `[[Configurable]]`.
    pub const CONFIGURABLE: u8 = 4;
    /// An accessor property: the slot holds an [`Accessor`] cell.
    pub const ACCESSOR: u8 = 8;

    /// Writable, enumerable and configurable data: what assignment creates.
    pub const DEFAULT: Self = Self(Self::WRITABLE | Self::ENUMERABLE | Self::CONFIGURABLE);
    /// Writable and configurable but not enumerable: builtin methods.
    pub const METHOD: Self = Self(Self::WRITABLE | Self::CONFIGURABLE);
    /// Only configurable: `length` and `name` of functions.
    pub const CONFIGURABLE_ONLY: Self = Self(Self::CONFIGURABLE);
    /// Nothing: constants such as `Math.PI`.
    pub const NONE: Self = Self(0);
    /// Only enumerable: frozen data such as `JSON.rawJSON` objects.
    pub const ENUMERABLE_ONLY: Self = Self(Self::ENUMERABLE);

    /// Attributes from bits.
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits)
    }

    /// `[[Writable]]`.
    pub fn writable(self) -> bool {
        self.0 & Self::WRITABLE != 0
    }

    /// `[[Enumerable]]`.
    pub fn enumerable(self) -> bool {
        self.0 & Self::ENUMERABLE != 0
    }

    /// `[[Configurable]]`.
    pub fn configurable(self) -> bool {
        self.0 & Self::CONFIGURABLE != 0
    }

    /// Whether this is an accessor property.
    pub fn is_accessor(self) -> bool {
        self.0 & Self::ACCESSOR != 0
    }

    /// These attributes with `bit` set or cleared.
    #[must_use]
    pub fn with(self, bit: u8, on: bool) -> Self {
        if on { Self(self.0 | bit) } else { Self(self.0 & !bit) }
    }
}

/// The getter and setter of an accessor property, in their own cell so a
/// property slot stays one `Value`.
#[derive(Clone, Copy, Debug)]
pub struct Accessor {
    /// The getter function or `undefined`.
    pub get: Value,
    /// The setter function or `undefined`.
    pub set: Value,
}

// SAFETY: both functions are reported.
unsafe impl Trace for Accessor {
    fn trace(&self, tracer: &mut Tracer) {
        self.get.trace(tracer);
        self.set.trace(tracer);
    }

    fn type_name() -> &'static str {
        "AccessorPair"
    }
}

/// A Property Descriptor (§6.2.6): every field optional.
#[derive(Clone, Copy, Debug, Default)]
pub struct PropertyDescriptor {
    /// `[[Value]]`.
    pub value: Option<Value>,
    /// `[[Writable]]`.
    pub writable: Option<bool>,
    /// `[[Get]]`.
    pub get: Option<Value>,
    /// `[[Set]]`.
    pub set: Option<Value>,
    /// `[[Enumerable]]`.
    pub enumerable: Option<bool>,
    /// `[[Configurable]]`.
    pub configurable: Option<bool>,
}

impl PropertyDescriptor {
    /// A complete data descriptor.
    pub fn data(value: Value, attrs: Attributes) -> Self {
        Self {
            value: Some(value),
            writable: Some(attrs.writable()),
            get: None,
            set: None,
            enumerable: Some(attrs.enumerable()),
            configurable: Some(attrs.configurable()),
        }
    }

    /// `IsAccessorDescriptor`.
    pub fn is_accessor(&self) -> bool {
        self.get.is_some() || self.set.is_some()
    }

    /// `IsDataDescriptor`.
    pub fn is_data(&self) -> bool {
        self.value.is_some() || self.writable.is_some()
    }

    /// `CompletePropertyDescriptor` (§6.2.6.6): absent fields take their
    /// defaults (`undefined`, `false`).
    #[must_use]
    pub fn complete(self) -> Self {
        let flags = Self {
            enumerable: Some(self.enumerable.unwrap_or(false)),
            configurable: Some(self.configurable.unwrap_or(false)),
            ..Self::default()
        };
        if self.is_accessor() {
            Self { get: Some(self.get.unwrap_or_default()), set: Some(self.set.unwrap_or_default()), ..flags }
        } else {
            Self {
                value: Some(self.value.unwrap_or_default()),
                writable: Some(self.writable.unwrap_or(false)),
                ..flags
            }
        }
    }
}
