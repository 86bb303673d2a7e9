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

/// An import binding's target (§16.2.1.6.4 `CreateImportBinding`): the
/// exporting module's environment and the binding's slot there. The
/// importing module's own slot holds this cell, so reads always see the
/// exporter's current value (live bindings).
pub struct ImportBinding {
    /// The environment of the module that declares the binding.
    pub env: Gc<DeclarativeEnvironment>,
    /// The binding's slot in it.
    pub slot: u32,
}

// SAFETY: the target environment is the only pointer.
unsafe impl Trace for ImportBinding {
    fn trace(&self, tracer: &mut Tracer) {
        self.env.trace(tracer);
    }

    fn type_name() -> &'static str {
        "ImportBinding"
    }
}
