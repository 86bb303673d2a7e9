//! Resource limits shared by `stringify` and `parse`.

/// Limits that make hostile input an error instead of a crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects accepted, counting the
    /// outermost container as depth 1. Going deeper raises
    /// [`crate::JsonError::TooDeep`] (a RangeError). Nesting never uses the
    /// native stack, so this bounds memory and time, not recursion.
    pub max_depth: usize,
}

impl Limits {
    /// The default nesting limit: far beyond what real data uses (V8
    /// overflows its stack in recursive paths a few thousand levels deep),
    /// small enough that a runaway input fails fast.
    pub const DEFAULT_MAX_DEPTH: usize = 100_000;
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: Self::DEFAULT_MAX_DEPTH }
    }
}
