//! IEEE 754 binary16 conversions for `Float16Array`, the DataView
//! `getFloat16`/`setFloat16` pair and `Math.f16round` (§6.1.6.1,
//! `NumericToRawBytes` with `float16`).
//!
//! Rounding goes straight from binary64 to binary16 (round to nearest,
//! ties to even): going through binary32 first would round twice and be
//! wrong for values just past a halfway point.

/// The binary16 bit pattern nearest to `x`.
pub fn f64_to_f16_bits(x: f64) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return 0x7e00;
    }
    let a = x.abs();
    // 65520 is halfway between the largest finite half (65504) and 2^16;
    // ties go to the even pattern, which is infinity.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // Below the smallest normal (2^-14) the half is a multiple of 2^-24;
    // scaling by a power of two is exact, so one rounding happens. A
    // result of 1024 is the smallest normal's pattern, as it should be.
    if a < f64::powi(2.0, -14) {
        let m = (a * f64::powi(2.0, 24)).round_ties_even() as u16;
        return sign | m;
    }
    let bits = a.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mantissa = bits & ((1 << 52) - 1);
    let mut q = mantissa >> 42;
    let rest = mantissa & ((1 << 42) - 1);
    let half = 1 << 41;
    if rest > half || (rest == half && q & 1 == 1) {
        // A carry out of the mantissa bumps the exponent, which is right.
        q += 1;
    }
    sign | ((((exponent + 15) as u64) << 10) + q) as u16
}

/// The value of the binary16 bit pattern `h`.
pub fn f16_bits_to_f64(h: u16) -> f64 {
    let negative = h & 0x8000 != 0;
    let exponent = i32::from((h >> 10) & 0x1f);
    let mantissa = f64::from(h & 0x3ff);
    let magnitude = match exponent {
        0 => mantissa * f64::powi(2.0, -24),
        31 if mantissa == 0.0 => f64::INFINITY,
        31 => return f64::NAN,
        _ => (1024.0 + mantissa) * f64::powi(2.0, exponent - 25),
    };
    if negative { -magnitude } else { magnitude }
}

/// `x` rounded to the nearest binary16 value (`Math.f16round`).
pub fn f16_round(x: f64) -> f64 {
    f16_bits_to_f64(f64_to_f16_bits(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_round_trip() {
        for h in 0..=u16::MAX {
            let v = f16_bits_to_f64(h);
            if v.is_nan() {
                continue;
            }
            assert_eq!(f64_to_f16_bits(v), h, "pattern {h:#06x}");
        }
    }

    #[test]
    fn rounding() {
        assert_eq!(f16_round(65504.0), 65504.0);
        assert_eq!(f16_round(65519.99), 65504.0);
        assert_eq!(f16_round(65520.0), f64::INFINITY);
        assert_eq!(f16_round(-1e10), f64::NEG_INFINITY);
        // Halfway between 1 and 1 + 2^-10 ties to even (1).
        assert_eq!(f16_round(1.0 + f64::powi(2.0, -11)), 1.0);
        // Just above halfway rounds up, which rounding through f32 would miss.
        assert_eq!(f16_round(1.0 + f64::powi(2.0, -11) + f64::powi(2.0, -40)), 1.0 + f64::powi(2.0, -10));
        assert_eq!(f16_round(f64::powi(2.0, -25)), 0.0);
        assert_eq!(f16_round(f64::powi(2.0, -25) * 1.5), f64::powi(2.0, -24));
        assert!(f16_round(-0.0).is_sign_negative());
        assert!(f16_round(f64::NAN).is_nan());
        assert_eq!(f16_round(0.1), 0.099_975_585_937_5);
    }
}
