//! Numbers to strings and back (§6.1.6.1.20 `Number::toString`, §7.1.4.1.1
//! `StringToNumber`), and the integer conversions.

use crate::string::JsStr;
use crate::string::is_white_space_or_line_terminator;

/// `Number::toString(n`, 10), exactly as engines print it.
pub fn number_to_string(n: f64) -> String {
    if n == 0.0 {
        return "0".to_owned();
    }
    let mut buf = ryu_js::Buffer::new();
    buf.format(n).to_owned()
}

/// `StringToNumber`: `NaN` when the text is not a `StringNumericLiteral`.
pub fn string_to_number(s: JsStr<'_>) -> f64 {
    let units: Vec<u16> = s.units().collect();
    let start = units.iter().position(|&u| !is_white_space_or_line_terminator(u)).unwrap_or(units.len());
    let end = units.iter().rposition(|&u| !is_white_space_or_line_terminator(u)).map_or(start, |e| e + 1);
    let trimmed = &units[start..end];
    if trimmed.is_empty() {
        return 0.0;
    }
    if trimmed.iter().any(|&u| u > 0x7F) {
        return f64::NAN;
    }
    let text: String = trimmed.iter().map(|&u| char::from(u as u8)).collect();
    parse_numeric_literal(&text)
}

fn parse_numeric_literal(text: &str) -> f64 {
    let radix_body = |prefix_lower: &str, prefix_upper: &str| {
        text.strip_prefix(prefix_lower).or_else(|| text.strip_prefix(prefix_upper))
    };
    for (lower, upper, radix) in [("0x", "0X", 16), ("0o", "0O", 8), ("0b", "0B", 2)] {
        if let Some(body) = radix_body(lower, upper) {
            if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
                return f64::NAN;
            }
            return body.chars().fold(0.0, |acc, c| acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0)));
        }
    }
    let (sign, unsigned) = match text.as_bytes()[0] {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    // StrUnsignedDecimalLiteral: digits, optional fraction, optional
    // exponent; Rust's parser also accepts "inf"/"nan", excluded here.
    let bytes = unsigned.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s
    };
    let int_digits = digits(&mut i);
    let mut frac_digits = 0;
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        frac_digits = digits(&mut i);
    }
    if int_digits + frac_digits == 0 {
        return f64::NAN;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return f64::NAN;
        }
    }
    if i != bytes.len() {
        return f64::NAN;
    }
    unsigned.parse::<f64>().map_or(f64::NAN, |n| sign * n)
}

/// `ToIntegerOrInfinity` on a number.
pub fn to_integer_or_infinity(n: f64) -> f64 {
    if n.is_nan() || n == 0.0 { 0.0 } else { n.trunc() }
}

/// `ToUint32` on a number. Integers that fit in 32 bits, signed or not,
/// are the common case (typed-array stores, `>>> 0`) and skip the
/// truncation and modulo. Not inlined: the interpreter's bitwise operators
/// inline their own int32 test and call this only after it failed, and
/// inlining it there as well costs crypto 1% more instructions.
#[inline(never)]
pub fn to_uint32(n: f64) -> u32 {
    // `as` saturates and maps NaN to 0; each round trip rejects those.
    let signed = n as i32;
    if f64::from(signed) == n {
        return signed.cast_unsigned();
    }
    let unsigned = n as u32;
    if f64::from(unsigned) == n {
        return unsigned;
    }
    to_uint32_modulo(n)
}

/// `ToUint32` of a number that is not a 32-bit integer: the integer part
/// modulo 2^32, and 0 for NaN and the infinities.
fn to_uint32_modulo(n: f64) -> u32 {
    if !n.is_finite() {
        return 0;
    }
    let m = n.trunc().rem_euclid(4_294_967_296.0);
    m as u32
}

/// `ToInt32` on a number.
pub fn to_int32(n: f64) -> i32 {
    to_uint32(n).cast_signed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> f64 {
        string_to_number(JsStr::Latin1(s.as_bytes()))
    }

    #[test]
    fn string_to_number_grammar() {
        assert_eq!(num("  42  "), 42.0);
        assert_eq!(num(""), 0.0);
        assert_eq!(num("0x1F"), 31.0);
        assert_eq!(num("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(num(".5"), 0.5);
        assert_eq!(num("5."), 5.0);
        assert_eq!(num("1e3"), 1000.0);
        assert!(num("inf").is_nan());
        assert!(num("1e").is_nan());
        assert!(num("-0x10").is_nan());
        assert!(num(".").is_nan());
        assert!(num("12abc").is_nan());
    }

    #[test]
    fn number_to_string_matches_engines() {
        assert_eq!(number_to_string(-0.0), "0");
        assert_eq!(number_to_string(1e21), "1e+21");
        assert_eq!(number_to_string(123.456), "123.456");
        assert_eq!(number_to_string(1e-7), "1e-7");
        assert_eq!(number_to_string(f64::NAN), "NaN");
        assert_eq!(number_to_string(f64::NEG_INFINITY), "-Infinity");
    }

    /// The 32-bit integer fast paths of ToUint32 agree with the modulo, on
    /// both sides of every boundary they test, and on NaN and ±∞.
    #[test]
    fn to_uint32_fast_paths_match_the_modulo() {
        let boundaries = [0.0, 1.0, 2f64.powi(31), 2f64.powi(32), 2f64.powi(53), 2f64.powi(63), 1e20];
        let near = boundaries.iter().flat_map(|&b| [b - 1.0, b - 0.5, b, b + 0.5, b + 1.0]);
        let signed = near.flat_map(|x| [x, -x]);
        for x in signed.chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY]) {
            assert_eq!(to_uint32(x), to_uint32_modulo(x), "ToUint32({x})");
            assert_eq!(to_int32(x), to_uint32_modulo(x).cast_signed(), "ToInt32({x})");
        }
    }

    #[test]
    fn integer_conversions() {
        assert_eq!(to_int32(4_294_967_295.0), -1);
        assert_eq!(to_uint32(-1.0), 4_294_967_295);
        assert_eq!(to_int32(f64::NAN), 0);
        assert_eq!(to_int32(2_147_483_648.5), -2_147_483_648);
    }
}
