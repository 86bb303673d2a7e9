//! The exact decimal value of a double, and the digit strings that
//! `Number.prototype.toFixed`, `toExponential` and `toPrecision` (§21.1.3.3,
//! §21.1.3.2, §21.1.3.5) build from it.
//!
//! Those methods round the double's *exact* mathematical value, and on a tie
//! ("if there are two such n") they pick the larger candidate: `(2.5).toFixed(0)`
//! is `"3"`, while `(1.005).toFixed(2)` is `"1.00"` because the double nearest
//! 1.005 lies just below it. Every finite double is `m × 2^e`, so its exact
//! decimal expansion is finite: `m × 2^e` for `e ≥ 0`, and `m × 5^-e / 10^-e`
//! otherwise. With that expansion in hand, rounding half up is a look at the
//! first dropped digit: the expansion is exact, so a `5` there means the value
//! is at or above the halfway point.

use num_bigint::BigUint;

/// A finite, positive double's exact value as `d₀.d₁d₂… × 10^exponent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExactDecimal {
    /// ASCII digits; the first and the last are not `0`.
    digits: Vec<u8>,
    /// The power of ten of the first digit.
    exponent: i32,
}

impl ExactDecimal {
    /// The exact expansion of `x`, which must be finite and greater than 0.
    pub(crate) fn of(x: f64) -> Self {
        debug_assert!(x.is_finite() && x > 0.0);
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7FF) as i32;
        let fraction = bits & ((1 << 52) - 1);
        // Subnormals have no implicit leading bit and the smallest exponent.
        let (mantissa, exp2) = if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
        let (scaled, decimal_shift) = if exp2 >= 0 {
            (BigUint::from(mantissa) << exp2.unsigned_abs(), 0)
        } else {
            (BigUint::from(mantissa) * BigUint::from(5u32).pow(exp2.unsigned_abs()), -exp2)
        };
        let mut digits = scaled.to_string().into_bytes();
        let exponent = digits.len() as i32 - 1 - decimal_shift;
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        Self { digits, exponent }
    }

    /// The first `count` significant digits (zero-padded), rounded half up
    /// on the exact value, and whether the rounding carried into a new
    /// leading digit (then the result has `count + 1` digits, `1000…`).
    fn rounded_prefix(&self, count: usize) -> (Vec<u8>, bool) {
        let mut out: Vec<u8> = self.digits.iter().copied().take(count).collect();
        out.resize(count, b'0');
        let round_up = self.digits.get(count).is_some_and(|&d| d >= b'5');
        if !round_up {
            return (out, false);
        }
        for d in out.iter_mut().rev() {
            if *d == b'9' {
                *d = b'0';
            } else {
                *d += 1;
                return (out, false);
            }
        }
        out.insert(0, b'1');
        (out, true)
    }

    /// The decimal digits of the integer `n` nearest `x × 10^fraction_digits`
    /// (the larger on a tie), without leading zeros: toFixed step 11.
    pub(crate) fn fixed_digits(&self, fraction_digits: u32) -> Vec<u8> {
        let kept = i64::from(self.exponent) + 1 + i64::from(fraction_digits);
        match kept {
            k if k < 0 => vec![b'0'],
            0 => vec![if self.digits[0] >= b'5' { b'1' } else { b'0' }],
            k => self.rounded_prefix(k as usize).0,
        }
    }

    /// `precision` significant digits nearest the value (the larger on a
    /// tie) and the exponent of the first: toPrecision step 10 and
    /// toExponential step 10.a with `precision` = fractionDigits + 1.
    pub(crate) fn significant_digits(&self, precision: usize) -> (Vec<u8>, i32) {
        let (mut digits, carried) = self.rounded_prefix(precision);
        if carried {
            // 9.96 to two digits is 10: the same digits, one place up.
            digits.truncate(precision);
            return (digits, self.exponent + 1);
        }
        (digits, self.exponent)
    }
}

/// The shortest digits that round-trip `x` (finite, greater than 0) and the
/// exponent of the first, as `Number::toString` chooses them.
pub(crate) fn shortest_digits(x: f64) -> (Vec<u8>, i32) {
    let text = crate::abstract_ops::number_to_string(x);
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: Vec<u8> = int_part.bytes().chain(frac_part.bytes()).collect();
    let leading_zeros = all.iter().take_while(|&&d| d == b'0').count();
    let mut digits = all[leading_zeros..].to_vec();
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    let exponent = exp + int_part.len() as i32 - 1 - leading_zeros as i32;
    (digits, exponent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(digits: &[u8]) -> &str {
        std::str::from_utf8(digits).unwrap_or("")
    }

    #[test]
    fn expansions_are_exact() {
        let one_point_005 = ExactDecimal::of(1.005);
        assert_eq!(one_point_005.exponent, 0);
        assert!(text(&one_point_005.digits).starts_with("1004999999999999893418589635984972119331359863281"));
        assert_eq!(ExactDecimal::of(0.5), ExactDecimal { digits: b"5".to_vec(), exponent: -1 });
        assert_eq!(ExactDecimal::of(1e21), ExactDecimal { digits: b"1".to_vec(), exponent: 21 });
        let smallest = ExactDecimal::of(5e-324);
        assert_eq!(smallest.exponent, -324);
        assert!(text(&smallest.digits).starts_with("494065645841246544"));
        assert_eq!(smallest.digits.len(), 751);
    }

    #[test]
    fn ties_round_to_the_larger_candidate() {
        assert_eq!(text(&ExactDecimal::of(2.5).fixed_digits(0)), "3");
        assert_eq!(text(&ExactDecimal::of(0.5).fixed_digits(0)), "1");
        assert_eq!(text(&ExactDecimal::of(0.125).fixed_digits(2)), "13");
        assert_eq!(text(&ExactDecimal::of(1.005).fixed_digits(2)), "100");
        assert_eq!(text(&ExactDecimal::of(0.0001).fixed_digits(2)), "0");
        assert_eq!(text(&ExactDecimal::of(0.004).fixed_digits(2)), "0");
        assert_eq!(text(&ExactDecimal::of(0.006).fixed_digits(2)), "1");
        assert_eq!(text(&ExactDecimal::of(999.996).fixed_digits(2)), "100000");
    }

    #[test]
    fn significant_digits_carry_into_the_exponent() {
        assert_eq!(ExactDecimal::of(9.96).significant_digits(2), (b"10".to_vec(), 1));
        assert_eq!(ExactDecimal::of(123.456).significant_digits(4), (b"1235".to_vec(), 2));
        assert_eq!(ExactDecimal::of(1.25).significant_digits(2), (b"13".to_vec(), 0));
    }

    #[test]
    fn shortest_digits_follow_number_to_string() {
        assert_eq!(shortest_digits(123.45), (b"12345".to_vec(), 2));
        assert_eq!(shortest_digits(1e21), (b"1".to_vec(), 21));
        assert_eq!(shortest_digits(1.5e-7), (b"15".to_vec(), -7));
        assert_eq!(shortest_digits(0.000_001_25), (b"125".to_vec(), -6));
        assert_eq!(shortest_digits(100.0), (b"1".to_vec(), 2));
    }
}
