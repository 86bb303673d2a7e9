//! A realm's RegExp state beyond the legacy statics: the compiled-program
//! cache, the shapes RegExp objects and match results are made in, the
//! intrinsic functions whose presence makes a RegExp "unmodified", and the
//! last subject's code units.
//!
//! The fast paths in the parent module use these to skip steps whose
//! effects nobody can observe — a `[[Get]]` of `exec` or `flags` that would
//! reach the intrinsic function, a `lastIndex` that is a plain writable
//! data property holding a number — and take the spec's path whenever any
//! of it differs.

use std::rc::Rc;

use js_gc::{Gc, Trace, Tracer};

use super::program::ProgramCache;
use crate::object::{JsObject, Shape};
use crate::string::JsString;
use crate::value::Value;

/// The `RegExp.prototype` accessors `flags` reads, in the order it reads
/// them, with the flag bit each reports.
pub(super) const FLAG_GETTERS: [(&str, u8); 8] = [
    ("hasIndices", super::FlagSet::HAS_INDICES),
    ("global", super::FlagSet::GLOBAL),
    ("ignoreCase", super::FlagSet::IGNORE_CASE),
    ("multiline", super::FlagSet::MULTILINE),
    ("dotAll", super::FlagSet::DOT_ALL),
    ("unicode", super::FlagSet::UNICODE),
    ("unicodeSets", super::FlagSet::UNICODE_SETS),
    ("sticky", super::FlagSet::STICKY),
];

/// The intrinsic accessor functions and the property keys they sit under.
pub(crate) struct IntrinsicGetters {
    /// The `flags` key and the intrinsic `get flags`.
    pub flags: (Gc<JsString>, Gc<JsObject>),
    /// Each of [`FLAG_GETTERS`]' keys and intrinsic getter, in that order.
    pub flag: [(Gc<JsString>, Gc<JsObject>); 8],
}

/// Where [`IntrinsicGetters`] were last all found for a RegExp: on its
/// prototype, which receivers of `receiver_shape` (owning none of the nine
/// keys) inherit from. While a RegExp has that shape and that prototype,
/// and the prototype keeps its shape and the accessor cells in those slots
/// (a redefinition always stores a new one), the same lookups would find
/// the same getters, so they need not be made again.
#[derive(Clone, Copy)]
pub(crate) struct FlagGettersMemo {
    /// The receivers' shape.
    pub receiver_shape: Gc<Shape>,
    /// `RegExp.prototype` (or whichever object held the getters).
    pub proto: Gc<JsObject>,
    /// Its shape when the getters were found.
    pub proto_shape: Gc<Shape>,
    /// The accessor cells, by slot of `proto`: `flags`, then
    /// [`FLAG_GETTERS`]' order.
    pub accessors: [(u32, Value); 9],
}

/// The state; see the module documentation.
#[derive(Default)]
pub struct RegExpRealmState {
    /// Compiled programs by source and flags.
    pub(crate) programs: ProgramCache,
    /// The shape of a RegExp object as RegExpAlloc leaves it: `lastIndex`
    /// as its one property, writable, in slot 0.
    pub(crate) instance_shape: Option<Gc<Shape>>,
    /// The shape of a match result array: `index`, `input` and `groups`
    /// data properties in slots 0–2.
    pub(crate) result_shape: Option<Gc<Shape>>,
    /// Filled by `install`.
    pub(crate) getters: Option<IntrinsicGetters>,
    /// The last receiver layout on which every intrinsic getter was found.
    pub(crate) getters_memo: Option<FlagGettersMemo>,
    /// The last subject read as code units, and those units: the steps of
    /// one `replace`, `split` or `match` each match the same string.
    pub(crate) subject: Option<(Gc<JsString>, Rc<[u16]>)>,
}

// SAFETY: the shapes, the getters with their keys, the memo's cells and
// the cached subject are every edge; programs hold no cells.
unsafe impl Trace for RegExpRealmState {
    fn trace(&self, tracer: &mut Tracer) {
        if let Some(shape) = self.instance_shape {
            shape.trace(tracer);
        }
        if let Some(shape) = self.result_shape {
            shape.trace(tracer);
        }
        if let Some(getters) = &self.getters {
            for (key, getter) in std::iter::once(&getters.flags).chain(&getters.flag) {
                key.trace(tracer);
                getter.trace(tracer);
            }
        }
        if let Some(memo) = &self.getters_memo {
            memo.receiver_shape.trace(tracer);
            memo.proto.trace(tracer);
            memo.proto_shape.trace(tracer);
            for (_, accessor) in &memo.accessors {
                accessor.trace(tracer);
            }
        }
        if let Some((subject, _)) = &self.subject {
            subject.trace(tracer);
        }
    }
}
