//! What a realm remembers to answer "is this promise's `constructor` still
//! %Promise%?" without a property lookup.
//!
//! `PromiseResolve` and `await` ask it for every value they are given
//! (§27.2.4.7.1 step 1.a reads `x.constructor`). A promise the engine made
//! has no own properties, so the answer is %Promise.prototype%'s
//! `constructor` slot. While the prototype keeps the shape it had when that
//! slot was found, the property is still a data property in that slot
//! (attribute changes and deletions leave the shape, adding properties
//! moves to a new one), so one shape comparison and one slot read replace
//! the lookup; any other shape takes the spec's path and finds the slot
//! again.
//!
//! The resolve functions ask a similar question of every object they are
//! resolved with (`Get(resolution, "then")`, §27.2.1.3.2 step 9): an
//! ordinary object whose prototype is %Object.prototype%, when neither its
//! shape nor the prototype's holds `then`, has none, and the pair of shapes
//! once seen without it answers again by two comparisons.
//!
//! The combinators ask whether `then` on a native promise is still the
//! intrinsic one (%Promise.prototype%'s `then` and %Promise%'s `@@species`),
//! answered by the same shape-and-slot caches.

use js_gc::{Gc, Trace, Tracer};

use crate::object::Shape;

/// The state; see the module documentation.
#[derive(Default)]
pub struct PromiseRealmState {
    /// %Promise.prototype%'s shape and its `constructor` data slot, once
    /// found.
    pub(crate) constructor_slot: Option<(Gc<Shape>, u32)>,
    /// An object shape and a shape of %Object.prototype%, neither with a
    /// `then` property.
    pub(crate) then_absent: Option<(Gc<Shape>, Gc<Shape>)>,
    /// %Promise.prototype%'s shape and its `then` data slot, once found.
    pub(crate) then_slot: Option<(Gc<Shape>, u32)>,
    /// %Promise%'s shape and its `@@species` accessor slot, once found.
    pub(crate) species_slot: Option<(Gc<Shape>, u32)>,
}

// SAFETY: the shapes are the edges. Tracing them also keeps the comparisons
// sound: a collected shape's address could be reused by another shape.
unsafe impl Trace for PromiseRealmState {
    fn trace(&self, tracer: &mut Tracer) {
        for (shape, _) in [self.constructor_slot, self.then_slot, self.species_slot].into_iter().flatten() {
            shape.trace(tracer);
        }
        if let Some((object, prototype)) = self.then_absent {
            object.trace(tracer);
            prototype.trace(tracer);
        }
    }
}
