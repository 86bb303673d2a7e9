//! The `BigInt::*` numeric operations (§6.1.6.2) and the BigInt ↔ Number
//! and BigInt ↔ string conversions that need no VM.
//!
//! `num_bigint` already gives `/` and `%` truncation toward zero, `>>`
//! rounding toward −∞ and two's-complement `& | ^` on negative values, which
//! is exactly what the spec asks; what this module adds is the errors
//! (RangeError on division by zero, negative exponents and results past
//! [`MAX_BITS`]) and the mixed comparisons with Numbers.

use std::cmp::Ordering;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{FromPrimitive, One, Signed, ToPrimitive, Zero};

use crate::string::JsStr;

/// The largest BigInt, in bits, the engine will make (2²⁰, as SpiderMonkey
/// and JavaScriptCore; V8 allows 2³⁰). Past it an operation throws a
/// RangeError. The bound is what keeps every single arithmetic or
/// conversion step short: multiplying or printing in decimal a 2³⁰-bit
/// number takes minutes inside one num-bigint call, where no interrupt can
/// reach, while at 2²⁰ bits the slowest step (decimal conversion) takes a
/// fraction of a second.
pub const MAX_BITS: u64 = 1 << 20;

/// Why a BigInt operation threw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BigIntError {
    /// `x / 0n` or `x % 0n` (RangeError).
    DivisionByZero,
    /// `x ** -1n` (RangeError).
    NegativeExponent,
    /// The result would exceed [`MAX_BITS`] (RangeError).
    TooBig,
}

impl BigIntError {
    /// The message of the RangeError thrown, as V8 words it.
    pub fn message(self) -> &'static str {
        match self {
            BigIntError::DivisionByZero => "Division by zero",
            BigIntError::NegativeExponent => "Exponent must be non-negative",
            BigIntError::TooBig => "Maximum BigInt size exceeded",
        }
    }
}

/// `BigInt::exponentiate`.
pub fn exponentiate(base: &BigInt, exponent: &BigInt) -> Result<BigInt, BigIntError> {
    if exponent.is_negative() {
        return Err(BigIntError::NegativeExponent);
    }
    if exponent.is_zero() || base.is_one() {
        return Ok(BigInt::one());
    }
    if base.is_zero() {
        return Ok(BigInt::zero());
    }
    if *base == BigInt::from(-1) {
        return Ok(if exponent.is_even() { BigInt::one() } else { base.clone() });
    }
    // |base| ≥ 2, so the result has at least (bits − 1) · exponent + 1 bits.
    let e = exponent.to_u64().filter(|&e| e <= MAX_BITS).ok_or(BigIntError::TooBig)?;
    if (base.bits() - 1).saturating_mul(e) >= MAX_BITS {
        return Err(BigIntError::TooBig);
    }
    Ok(num_traits::pow(base.clone(), e as usize))
}

/// `n` if it fits in [`MAX_BITS`]: how a value read from text (whose
/// too-long literals read as a larger stand-in) becomes a BigInt.
pub fn within_bounds(n: BigInt) -> Result<BigInt, BigIntError> {
    if n.bits() > MAX_BITS { Err(BigIntError::TooBig) } else { Ok(n) }
}

/// `BigInt::multiply`.
pub fn multiply(x: &BigInt, y: &BigInt) -> Result<BigInt, BigIntError> {
    if x.bits() + y.bits() > MAX_BITS + 1 {
        return Err(BigIntError::TooBig);
    }
    Ok(x * y)
}

/// `BigInt::divide`: truncates toward zero.
pub fn divide(x: &BigInt, y: &BigInt) -> Result<BigInt, BigIntError> {
    if y.is_zero() {
        return Err(BigIntError::DivisionByZero);
    }
    Ok(x / y)
}

/// `BigInt::remainder`: the sign of the dividend.
pub fn remainder(x: &BigInt, y: &BigInt) -> Result<BigInt, BigIntError> {
    if y.is_zero() {
        return Err(BigIntError::DivisionByZero);
    }
    Ok(x % y)
}

/// `BigInt::leftShift`: a negative shift count shifts right, rounding
/// toward −∞.
pub fn left_shift(x: &BigInt, y: &BigInt) -> Result<BigInt, BigIntError> {
    if x.is_zero() || y.is_zero() {
        return Ok(x.clone());
    }
    if y.is_positive() {
        let n = y.to_u64().filter(|&n| n <= MAX_BITS).ok_or(BigIntError::TooBig)?;
        if x.bits() + n > MAX_BITS {
            return Err(BigIntError::TooBig);
        }
        return Ok(x << n);
    }
    let n = y.magnitude().to_u64().unwrap_or(u64::MAX);
    if n >= x.bits() {
        return Ok(if x.is_negative() { BigInt::from(-1) } else { BigInt::zero() });
    }
    Ok(x >> n)
}

/// `BigInt::signedRightShift`.
pub fn signed_right_shift(x: &BigInt, y: &BigInt) -> Result<BigInt, BigIntError> {
    left_shift(x, &-y)
}

/// `BigInt::bitwiseNOT`: −x − 1.
pub fn bitwise_not(x: &BigInt) -> BigInt {
    -x - 1
}

/// `BigInt.asIntN(bits, x)`: x modulo 2^bits as a signed integer.
pub fn as_int_n(bits: u64, x: &BigInt) -> BigInt {
    if bits == 0 {
        return BigInt::zero();
    }
    // |x| < 2^(bits−1) already lies in [−2^(bits−1), 2^(bits−1)).
    if x.magnitude().bits() < bits {
        return x.clone();
    }
    // Here bits ≤ x's width, so the modulus is no bigger than x.
    let modulus = BigInt::one() << bits;
    let m = x.mod_floor(&modulus);
    if m.bits() == bits { m - modulus } else { m }
}

/// `BigInt.asUintN(bits, x)`: x modulo 2^bits.
pub fn as_uint_n(bits: u64, x: &BigInt) -> Result<BigInt, BigIntError> {
    if bits == 0 {
        return Ok(BigInt::zero());
    }
    if !x.is_negative() && x.bits() <= bits {
        return Ok(x.clone());
    }
    // A negative x becomes 2^bits + (x mod 2^bits): as wide as `bits`.
    if bits > MAX_BITS {
        return Err(BigIntError::TooBig);
    }
    Ok(x.mod_floor(&(BigInt::one() << bits)))
}

/// The BigInt of an integral Number (`NumberToBigInt` without the
/// RangeError): `None` for NaN, ±∞ and non-integers.
pub fn from_number(n: f64) -> Option<BigInt> {
    if !n.is_finite() || n.trunc() != n {
        return None;
    }
    BigInt::from_f64(n)
}

/// 𝔽(ℝ(x)): the Number nearest to x, ties to even, ±∞ past the largest
/// finite double.
pub fn to_number(x: &BigInt) -> f64 {
    if let Some(small) = x.to_i64() {
        return small as f64;
    }
    let magnitude = x.magnitude();
    let bits = magnitude.bits();
    let sign = if x.is_negative() { -1.0 } else { 1.0 };
    if bits > 1024 {
        return sign * f64::INFINITY;
    }
    // Keep the top 64 bits and fold every lower bit into the last one
    // ("sticky"), so converting the u64 rounds exactly as the full value.
    let shift = bits - 64;
    let top = (magnitude >> shift).to_u64().unwrap_or(u64::MAX);
    let sticky = u64::from(magnitude.trailing_zeros().is_some_and(|z| z < shift));
    let rounded = (top | sticky) as f64;
    // 2^shift is exact: shift ≤ 960, well inside the exponent range.
    let scale = f64::from_bits((1023 + shift) << 52);
    sign * rounded * scale
}

/// Compares x with the Number n: `None` when n is NaN.
pub fn compare_with_number(x: &BigInt, n: f64) -> Option<Ordering> {
    if n.is_nan() {
        return None;
    }
    if n.is_infinite() {
        return Some(if n > 0.0 { Ordering::Less } else { Ordering::Greater });
    }
    let floor = n.floor();
    let floor_big = BigInt::from_f64(floor)?;
    Some(match x.cmp(&floor_big) {
        // x equals ⌊n⌋, which is below n when n has a fraction.
        Ordering::Equal if floor != n => Ordering::Less,
        other => other,
    })
}

/// Whether x and the Number n are the same mathematical value.
pub fn equals_number(x: &BigInt, n: f64) -> bool {
    compare_with_number(x, n) == Some(Ordering::Equal)
}

/// `StringToBigInt` (§7.1.14): `None` when the text is not a
/// `StringIntegerLiteral`. Whitespace around it is ignored and the empty
/// string is 0n; a radix prefix (`0x`, `0o`, `0b`) allows no sign, and no
/// numeric separators, fraction, exponent or `n` suffix are accepted.
pub fn string_to_big_int(s: JsStr<'_>) -> Option<BigInt> {
    let units: Vec<u16> = s.units().collect();
    let is_space = crate::string::is_white_space_or_line_terminator;
    let start = units.iter().position(|&u| !is_space(u)).unwrap_or(units.len());
    let end = units.iter().rposition(|&u| !is_space(u)).map_or(start, |e| e + 1);
    let trimmed = &units[start..end];
    if trimmed.is_empty() {
        return Some(BigInt::zero());
    }
    if trimmed.iter().any(|&u| u > 0x7F) {
        return None;
    }
    let text: Vec<u8> = trimmed.iter().map(|&u| u as u8).collect();
    if let [b'0', prefix, digits @ ..] = text.as_slice() {
        let radix = match prefix {
            b'x' | b'X' => Some(16),
            b'o' | b'O' => Some(8),
            b'b' | b'B' => Some(2),
            _ => None,
        };
        if let Some(radix) = radix {
            return parse_digits(digits, radix).map(|m| BigInt::from_biguint(Sign::Plus, m));
        }
    }
    let (sign, digits) = match text.split_first() {
        Some((b'-', rest)) => (Sign::Minus, rest),
        Some((b'+', rest)) => (Sign::Plus, rest),
        _ => (Sign::Plus, text.as_slice()),
    };
    parse_digits(digits, 10).map(|m| BigInt::from_biguint(sign, m))
}

/// Digits in `radix` (at least one, nothing else) to their magnitude.
///
/// A literal too long to fit in [`MAX_BITS`] is not converted (decimal
/// parsing is quadratic): it reads as 2^(MAX_BITS + 1), a stand-in larger
/// than any BigInt, which compares with every BigInt as the real value
/// would and which `ToBigInt` refuses with a RangeError.
fn parse_digits(digits: &[u8], radix: u32) -> Option<num_bigint::BigUint> {
    if digits.is_empty() || !digits.iter().all(|&d| char::from(d).is_digit(radix)) {
        return None;
    }
    let significant = digits.iter().position(|&d| d != b'0').map_or(0, |first| digits.len() - first);
    // The value is at least radix^(significant - 1): past the bound if
    // (significant - 1) * floor(log2(radix)) already exceeds it.
    let bits_per_digit = u64::from(radix.ilog2());
    if (significant as u64).saturating_sub(1).saturating_mul(bits_per_digit) > MAX_BITS {
        return Some(num_bigint::BigUint::one() << (MAX_BITS + 1));
    }
    num_bigint::BigUint::parse_bytes(digits, radix)
}

/// `BigInt::toString(x, radix)`: lowercase digits, a leading `-` when
/// negative.
pub fn to_radix_string(x: &BigInt, radix: u32) -> String {
    x.to_str_radix(radix)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> BigInt {
        s.parse().unwrap_or_default()
    }

    fn parse(s: &str) -> Option<BigInt> {
        string_to_big_int(JsStr::Latin1(s.as_bytes()))
    }

    #[test]
    fn division_truncates_and_remainder_follows_the_dividend() {
        assert_eq!(divide(&big("-7"), &big("2")), Ok(big("-3")));
        assert_eq!(remainder(&big("-7"), &big("2")), Ok(big("-1")));
        assert_eq!(remainder(&big("7"), &big("-2")), Ok(big("1")));
        assert_eq!(divide(&big("1"), &big("0")), Err(BigIntError::DivisionByZero));
        assert_eq!(remainder(&big("1"), &big("0")), Err(BigIntError::DivisionByZero));
    }

    #[test]
    fn literals_past_the_size_bound_read_as_a_larger_stand_in() {
        let huge = format!("-{}", "9".repeat(400_000));
        let stand_in = parse(&huge).expect("a valid literal");
        assert_eq!((stand_in.sign(), stand_in.bits()), (Sign::Minus, MAX_BITS + 2));
        // Leading zeros do not count.
        let padded = format!("{}42", "0".repeat(1_000_000));
        assert_eq!(parse(&padded), Some(big("42")));
        assert_eq!(parse(&format!("0x{}", "f".repeat(1_000))).map(|n| n.bits()), Some(4_000));
    }

    #[test]
    fn exponentiation_edges() {
        assert_eq!(exponentiate(&big("2"), &big("10")), Ok(big("1024")));
        assert_eq!(exponentiate(&big("0"), &big("0")), Ok(big("1")));
        assert_eq!(exponentiate(&big("-1"), &big("99999999999999999999")), Ok(big("-1")));
        assert_eq!(exponentiate(&big("2"), &big("-1")), Err(BigIntError::NegativeExponent));
        assert_eq!(exponentiate(&big("2"), &big("99999999999999999999")), Err(BigIntError::TooBig));
        assert_eq!(exponentiate(&big("-3"), &big("3")), Ok(big("-27")));
    }

    #[test]
    fn shifts_round_toward_negative_infinity() {
        assert_eq!(signed_right_shift(&big("-5"), &big("1")), Ok(big("-3")));
        assert_eq!(signed_right_shift(&big("5"), &big("1")), Ok(big("2")));
        assert_eq!(left_shift(&big("-5"), &big("-1")), Ok(big("-3")));
        assert_eq!(left_shift(&big("3"), &big("4")), Ok(big("48")));
        assert_eq!(signed_right_shift(&big("-1"), &big("100000000000000000000")), Ok(big("-1")));
        assert_eq!(signed_right_shift(&big("7"), &big("100000000000000000000")), Ok(big("0")));
        assert_eq!(left_shift(&big("1"), &big("100000000000000000000")), Err(BigIntError::TooBig));
        assert_eq!(left_shift(&big("0"), &big("100000000000000000000")), Ok(big("0")));
    }

    #[test]
    fn bitwise_operations_use_twos_complement() {
        assert_eq!(big("-6") & big("5"), big("0"));
        assert_eq!(big("-6") | big("5"), big("-1"));
        assert_eq!(big("-6") ^ big("-5"), big("1"));
        assert_eq!(bitwise_not(&big("5")), big("-6"));
        assert_eq!(bitwise_not(&big("-1")), big("0"));
    }

    #[test]
    fn as_int_n_and_as_uint_n_wrap() {
        assert_eq!(as_int_n(8, &big("255")), big("-1"));
        assert_eq!(as_int_n(8, &big("127")), big("127"));
        assert_eq!(as_int_n(8, &big("128")), big("-128"));
        assert_eq!(as_int_n(8, &big("-129")), big("127"));
        assert_eq!(as_int_n(64, &big("-1")), big("-1"));
        assert_eq!(as_int_n(0, &big("5")), big("0"));
        assert_eq!(as_uint_n(8, &big("-1")), Ok(big("255")));
        assert_eq!(as_uint_n(64, &big("-1")), Ok(big("18446744073709551615")));
        assert_eq!(as_uint_n(3, &big("25")), Ok(big("1")));
        assert_eq!(as_uint_n(1 << 40, &big("5")), Ok(big("5")));
        assert_eq!(as_uint_n(1 << 40, &big("-5")), Err(BigIntError::TooBig));
    }

    #[test]
    fn number_conversions_round_to_nearest_even() {
        assert_eq!(to_number(&big("9007199254740993")), 9_007_199_254_740_992.0);
        assert_eq!(to_number(&big("9007199254740995")), 9_007_199_254_740_996.0);
        assert_eq!(to_number(&big("-18446744073709551617")), -18_446_744_073_709_551_616.0);
        // 2^64 + 2^11 + 1 is just past the halfway point between doubles.
        assert_eq!(to_number(&big("18446744073709553665")), 18_446_744_073_709_555_712.0);
        assert_eq!(to_number(&(BigInt::one() << 1024u32)), f64::INFINITY);
        assert_eq!(from_number(1e21), Some(big("1000000000000000000000")));
        assert_eq!(from_number(0.5), None);
        assert_eq!(from_number(f64::NAN), None);
    }

    #[test]
    fn comparisons_with_numbers_are_exact() {
        assert_eq!(compare_with_number(&big("1"), 1.5), Some(Ordering::Less));
        assert_eq!(compare_with_number(&big("2"), 1.5), Some(Ordering::Greater));
        assert_eq!(compare_with_number(&big("-2"), -1.5), Some(Ordering::Less));
        assert_eq!(compare_with_number(&big("9007199254740993"), 9_007_199_254_740_992.0), Some(Ordering::Greater));
        assert_eq!(compare_with_number(&big("5"), f64::INFINITY), Some(Ordering::Less));
        assert_eq!(compare_with_number(&big("5"), f64::NAN), None);
        assert!(equals_number(&big("0"), -0.0));
    }

    #[test]
    fn string_integer_literals() {
        assert_eq!(parse("  123\n"), Some(big("123")));
        assert_eq!(parse(""), Some(big("0")));
        assert_eq!(parse("-0x10"), None);
        assert_eq!(parse("0x1F"), Some(big("31")));
        assert_eq!(parse("0b101"), Some(big("5")));
        assert_eq!(parse("-12"), Some(big("-12")));
        assert_eq!(parse("1n"), None);
        assert_eq!(parse("1_000"), None);
        assert_eq!(parse("1e3"), None);
        assert_eq!(parse("1.0"), None);
        assert_eq!(parse("0x"), None);
        assert_eq!(parse("-"), None);
        assert_eq!(parse("Infinity"), None);
    }

    #[test]
    fn radix_strings() {
        assert_eq!(to_radix_string(&big("-255"), 16), "-ff");
        assert_eq!(to_radix_string(&big("35"), 36), "z");
    }
}
