//! `Math.sumPrecise(items)` (ES2026, proposal-math-sum): the exact sum of
//! an iterable's Numbers, rounded once to the nearest double.
//!
//! The sum is exact because it is kept as one wide fixed-point integer in
//! units of 2^-1074 (the smallest subnormal): every finite double is an
//! integer multiple of that unit, and 2304 bits hold 2^53 doubles of the
//! largest magnitude with room for the sign. Adding a double touches at
//! most the limbs its 53-bit significand spans plus a carry, and the final
//! rounding reads the top 53 bits, a round bit and a sticky bit.

use super::iteration::{get_iterator, iterator_close_with_error, iterator_step_value};
use super::method;
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// 36 limbs of 64 bits: 2^-1074 … 2^1229, two's complement.
const LIMBS: usize = 36;

/// A two's-complement fixed-point accumulator in units of 2^-1074.
struct ExactSum {
    limbs: [u64; LIMBS],
}

impl ExactSum {
    fn new() -> Self {
        Self { limbs: [0; LIMBS] }
    }

    /// Adds the finite double `x` exactly.
    fn add(&mut self, x: f64) {
        let bits = x.to_bits();
        let exponent = ((bits >> 52) & 0x7FF) as usize;
        let fraction = bits & ((1 << 52) - 1);
        // value = significand × 2^(shift − 1074)
        let (significand, shift) = if exponent == 0 { (fraction, 0) } else { (fraction | (1 << 52), exponent - 1) };
        if significand == 0 {
            return;
        }
        let wide = u128::from(significand) << (shift % 64);
        let (low, high) = (wide as u64, (wide >> 64) as u64);
        let limb = shift / 64;
        if x.is_sign_negative() { self.sub_at(limb, low, high) } else { self.add_at(limb, low, high) }
    }

    fn add_at(&mut self, limb: usize, low: u64, high: u64) {
        let (v, c1) = self.limbs[limb].overflowing_add(low);
        self.limbs[limb] = v;
        let (v, c2) = self.limbs[limb + 1].overflowing_add(high);
        let (v, c3) = v.overflowing_add(u64::from(c1));
        self.limbs[limb + 1] = v;
        let mut carry = c2 || c3;
        let mut i = limb + 2;
        while carry && i < LIMBS {
            let (v, c) = self.limbs[i].overflowing_add(1);
            self.limbs[i] = v;
            carry = c;
            i += 1;
        }
    }

    fn sub_at(&mut self, limb: usize, low: u64, high: u64) {
        let (v, b1) = self.limbs[limb].overflowing_sub(low);
        self.limbs[limb] = v;
        let (v, b2) = self.limbs[limb + 1].overflowing_sub(high);
        let (v, b3) = v.overflowing_sub(u64::from(b1));
        self.limbs[limb + 1] = v;
        let mut borrow = b2 || b3;
        let mut i = limb + 2;
        while borrow && i < LIMBS {
            let (v, b) = self.limbs[i].overflowing_sub(1);
            self.limbs[i] = v;
            borrow = b;
            i += 1;
        }
    }

    /// The sum rounded to the nearest double, ties to even; ±∞ past the
    /// largest finite double; +0 for an exact zero.
    fn to_f64(&self) -> f64 {
        let negative = self.limbs[LIMBS - 1] >> 63 == 1;
        let mut magnitude = self.limbs;
        if negative {
            // Two's-complement negation: invert and add one.
            let mut carry = true;
            for limb in &mut magnitude {
                let (v, c) = (!*limb).overflowing_add(u64::from(carry));
                *limb = v;
                carry = c;
            }
        }
        let value = round_magnitude(&magnitude);
        if negative { -value } else { value }
    }
}

fn bit(limbs: &[u64; LIMBS], i: usize) -> bool {
    limbs[i / 64] >> (i % 64) & 1 == 1
}

/// The non-negative integer `limbs` × 2^-1074 as the nearest double.
fn round_magnitude(limbs: &[u64; LIMBS]) -> f64 {
    let Some(top_limb) = limbs.iter().rposition(|&l| l != 0) else { return 0.0 };
    let top = top_limb * 64 + (63 - limbs[top_limb].leading_zeros() as usize);
    if top < 53 {
        // Below 2^53 units the value is a subnormal or small normal that
        // is exactly representable; scaling by a power of two is exact.
        return limbs[0] as f64 * f64::from_bits(1);
    }
    let mut significand = (top - 52..=top).rev().fold(0u64, |acc, i| (acc << 1) | u64::from(bit(limbs, i)));
    let round = bit(limbs, top - 53);
    let sticky = (0..top - 53).any(|i| bit(limbs, i));
    let mut exponent = top as i64 - 1074;
    if round && (sticky || significand & 1 == 1) {
        significand += 1;
        if significand == 1 << 53 {
            significand >>= 1;
            exponent += 1;
        }
    }
    if exponent > 1023 {
        return f64::INFINITY;
    }
    // `top >= 53` makes the value at least 2^-1021: a normal double.
    let biased = (exponent + 1023) as u64;
    f64::from_bits((biased << 52) | (significand & ((1 << 52) - 1)))
}

/// What the values seen so far make of the sum (the proposal's `state`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum SumState {
    MinusZero,
    Finite,
    PlusInfinity,
    MinusInfinity,
    NotANumber,
}

/// One Number folded into the state and the exact sum.
fn accumulate(state: SumState, sum: &mut ExactSum, n: f64) -> SumState {
    use SumState::{Finite, MinusInfinity, MinusZero, NotANumber, PlusInfinity};
    match state {
        NotANumber => NotANumber,
        _ if n.is_nan() => NotANumber,
        _ if n == f64::INFINITY => {
            if state == MinusInfinity {
                NotANumber
            } else {
                PlusInfinity
            }
        }
        _ if n == f64::NEG_INFINITY => {
            if state == PlusInfinity {
                NotANumber
            } else {
                MinusInfinity
            }
        }
        PlusInfinity | MinusInfinity => state,
        _ if n == 0.0 && n.is_sign_negative() => state,
        MinusZero | Finite => {
            sum.add(n);
            Finite
        }
    }
}

/// The result the final state gives.
fn finish(state: SumState, sum: &ExactSum) -> f64 {
    match state {
        SumState::NotANumber => f64::NAN,
        SumState::PlusInfinity => f64::INFINITY,
        SumState::MinusInfinity => f64::NEG_INFINITY,
        SumState::MinusZero => -0.0,
        SumState::Finite => sum.to_f64(),
    }
}

/// The exact sum of `values` rounded once (the algorithm without the
/// iterator protocol).
#[cfg(test)]
fn sum_precise(values: &[f64]) -> f64 {
    let mut sum = ExactSum::new();
    let state = values.iter().fold(SumState::MinusZero, |state, &n| accumulate(state, &mut sum, n));
    finish(state, &sum)
}

/// The count past which the proposal throws a RangeError (2^53).
const MAX_COUNT: u64 = 1 << 53;

fn math_sum_precise(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let items = info.arg(vm, 0);
    if items.is_nullish() {
        return Err(vm.type_error("Math.sumPrecise called on null or undefined"));
    }
    let record = get_iterator(vm, items)?;
    vm.keep_alive(Value::internal(record.into()));
    let mut sum = ExactSum::new();
    let mut state = SumState::MinusZero;
    let mut count: u64 = 0;
    while let Some(next) = iterator_step_value(vm, record)? {
        count += 1;
        if count >= MAX_COUNT {
            let error = vm.range_error("Math.sumPrecise: too many values");
            return Err(iterator_close_with_error(vm, record, error));
        }
        let Some(n) = next.as_number() else {
            let error = vm.type_error("Math.sumPrecise: every value must be a Number");
            return Err(iterator_close_with_error(vm, record, error));
        };
        state = accumulate(state, &mut sum, n);
    }
    Ok(Value::number(finish(state, &sum)))
}

/// Installs `Math.sumPrecise` on `math`.
pub(crate) fn install(vm: &mut Vm, math: js_gc::Gc<crate::object::JsObject>) {
    method(vm, math, "sumPrecise", 1, math_sum_precise);
}

// Node 20 has no Math.sumPrecise, so its behaviour is checked here rather
// than in a tests/js program diffed with node.
#[cfg(test)]
mod tests {
    use super::sum_precise;

    #[test]
    fn sums_exactly_where_naive_addition_loses_digits() {
        assert_eq!(sum_precise(&[1e20, 0.1, -1e20]), 0.1);
        assert_eq!(sum_precise(&[0.1, 0.2, 0.3]), 0.6);
        assert_eq!(sum_precise(&[1.0, 1e100, 1.0, -1e100]), 2.0);
        assert_eq!(sum_precise(&[2f64.powi(53), 1.0, 1.0]), 2f64.powi(53) + 2.0);
    }

    #[test]
    fn rounds_ties_to_even_with_a_sticky_bit() {
        // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: even wins.
        assert_eq!(sum_precise(&[2f64.powi(53), 1.0]), 2f64.powi(53));
        // Anything past the tie rounds up.
        assert_eq!(sum_precise(&[2f64.powi(53), 1.0, 2f64.powi(-60)]), 2f64.powi(53) + 2.0);
        assert_eq!(sum_precise(&[-(2f64.powi(53)), -1.0, -(2f64.powi(-60))]), -(2f64.powi(53) + 2.0));
    }

    #[test]
    fn overflow_is_infinite_unless_cancelled() {
        let max = f64::MAX;
        assert_eq!(sum_precise(&[max, max]), f64::INFINITY);
        assert_eq!(sum_precise(&[-max, -max]), f64::NEG_INFINITY);
        assert_eq!(sum_precise(&[max, max, -max]), max);
        // MAX + half an ulp of MAX rounds to even: up, which is infinity.
        assert_eq!(sum_precise(&[max, 2f64.powi(970)]), f64::INFINITY);
        assert_eq!(sum_precise(&[max, 2f64.powi(969)]), max);
    }

    #[test]
    fn zeros_infinities_and_nan_follow_the_state_rules() {
        assert!(sum_precise(&[]).is_sign_negative());
        assert_eq!(sum_precise(&[]), 0.0);
        assert!(sum_precise(&[-0.0, -0.0]).is_sign_negative());
        assert!(sum_precise(&[-0.0, 0.0]).is_sign_positive());
        assert!(sum_precise(&[1.0, -1.0]).is_sign_positive());
        assert_eq!(sum_precise(&[f64::INFINITY, 1.0]), f64::INFINITY);
        assert!(sum_precise(&[f64::INFINITY, f64::NEG_INFINITY]).is_nan());
        assert!(sum_precise(&[f64::NAN, f64::INFINITY]).is_nan());
        assert_eq!(sum_precise(&[f64::MAX, f64::MAX, f64::NEG_INFINITY]), f64::NEG_INFINITY);
    }

    #[test]
    fn subnormals_are_exact() {
        let tiny = f64::from_bits(1);
        assert_eq!(sum_precise(&[tiny, tiny, tiny]), f64::from_bits(3));
        assert_eq!(sum_precise(&[f64::MIN_POSITIVE, -tiny]), f64::from_bits(f64::MIN_POSITIVE.to_bits() - 1));
        assert_eq!(sum_precise(&[tiny, -tiny]), 0.0);
    }
}
