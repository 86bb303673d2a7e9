//! Symbol values.

use js_gc::{Gc, Trace, Tracer};

use crate::string::JsString;

/// A symbol cell: unique by identity, with an optional description.
#[derive(Debug)]
pub struct Symbol {
    /// `[[Description]]`.
    pub description: Option<Gc<JsString>>,
    /// Whether `Symbol.for` registered it (its description is the key).
    pub registered: bool,
    /// A Private Name (§6.2.12) of a class: used as a property key but
    /// never listed among an object's keys and never found through the
    /// prototype chain.
    pub private: bool,
}

// SAFETY: the description is the only edge.
unsafe impl Trace for Symbol {
    fn trace(&self, tracer: &mut Tracer) {
        self.description.trace(tracer);
    }

    fn type_name() -> &'static str {
        "Symbol"
    }
}
