//! BigInt values (ECMA-262 §6.1.6.2): arbitrary-precision integers held in
//! immutable heap cells, like strings.
//!
//! A BigInt is never mutated after allocation, so a `Value` may share its
//! cell freely; identity means nothing (`1n === 1n` compares contents).
//! Every value lives in a cell — there is no inline small-integer form —
//! because the arithmetic of `num_bigint` dominates the cost of a BigInt
//! operation anyway, and one representation keeps equality, hashing and
//! the GC simple.
//!
//! [`ops`] holds the `BigInt::*` numeric operations of §6.1.6.2 as plain
//! functions over [`BigInt`], without a VM, so each can be unit tested.

pub mod ops;

use js_gc::{Trace, Tracer};
use num_bigint::BigInt;

/// A BigInt cell: one immutable arbitrary-precision integer.
pub struct JsBigInt {
    value: BigInt,
}

impl JsBigInt {
    /// A cell holding `value`.
    pub fn new(value: BigInt) -> Self {
        Self { value }
    }

    /// The mathematical value.
    pub fn value(&self) -> &BigInt {
        &self.value
    }
}

// SAFETY: a BigInt cell holds no heap pointers (its digits are owned by
// the `BigInt`), so there is nothing to report.
unsafe impl Trace for JsBigInt {
    const NEEDS_TRACE: bool = false;

    fn trace(&self, _tracer: &mut Tracer) {}

    fn type_name() -> &'static str {
        "BigInt"
    }
}
