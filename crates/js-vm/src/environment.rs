//! Declarative Environment Records (§9.1.1.1) for bindings that closures
//! capture: variables no inner function captures live in registers instead.

use js_gc::{Gc, Trace, Tracer};

use crate::value::Value;

/// One scope's captured bindings; [`Value::HOLE`] marks a binding in its
/// temporal dead zone.
pub struct DeclarativeEnvironment {
    /// The enclosing environment.
    pub outer: Option<Gc<DeclarativeEnvironment>>,
    /// The bindings, by slot.
    pub slots: Vec<Value>,
}

// SAFETY: the outer environment and every binding are reported.
unsafe impl Trace for DeclarativeEnvironment {
    fn trace(&self, tracer: &mut Tracer) {
        self.outer.trace(tracer);
        self.slots.trace(tracer);
    }

    fn type_name() -> &'static str {
        "DeclarativeEnvironment"
    }
}
