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
