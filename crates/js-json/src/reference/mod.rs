//! A reference [`JsonHost`](crate::JsonHost): a small Rust value tree with
//! objects, arrays, strings of both widths, functions (so `toJSON`,
//! replacers and revivers), getters, boxed primitives, BigInts and raw JSON.
//!
//! It exists to test and benchmark the crate without an engine, and as a
//! worked example of implementing the host trait. It is not an object
//! model: there are no prototypes (a `toJSON` must be an own property,
//! except `BigInt.prototype.toJSON`, which is [`ReferenceHost::bigint_to_json`]),
//! no proxies, and `ToNumber`/`ToString` of objects read the boxed value
//! directly instead of calling `valueOf`/`toString`.
//!
//! Deviation: arrays have no holes; deleting an element leaves `undefined`,
//! which serializes the same way (`null`).
//!
//! ```
//! use js_json::reference::{ReferenceHost, Value};
//! use js_json::Limits;
//!
//! let mut host = ReferenceHost::new();
//! let value = Value::object([("a", Value::array([Value::from(1.5), Value::from("→")]))]);
//! let text = js_json::stringify(&mut host, &value, &Value::Undefined, &Value::Undefined, Limits::default())
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(text.to_string_lossy(), r#"{"a":[1.5,"→"]}"#);
//! ```

mod host;
mod value;

#[cfg(test)]
mod tests;

pub use host::{Exception, ReferenceHost};
pub use value::{Class, NativeFunction, Object, Property, Str, Value};
