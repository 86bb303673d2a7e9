//! `VariableId`: which async-context variable a binding belongs to.

use std::fmt;
use std::num::NonZeroU32;

use static_assertions::assert_eq_size;

/// One async-context variable: an `AsyncLocalStorage` instance or an
/// `AsyncContext.Variable`. Made by
/// [`ContextState::create_variable`](crate::ContextState::create_variable);
/// frames keep their bindings sorted by it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VariableId(NonZeroU32);

assert_eq_size!(Option<VariableId>, u32);

impl VariableId {
    /// The variable numbered `index` (1-based).
    pub const fn new(index: NonZeroU32) -> Self {
        Self(index)
    }

    /// The variable's number.
    pub const fn index(self) -> NonZeroU32 {
        self.0
    }
}

impl fmt::Debug for VariableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VariableId({})", self.0)
    }
}
