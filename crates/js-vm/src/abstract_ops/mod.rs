//! Abstract operations of ECMA-262 §7: type conversion, testing and
//! comparison.

mod bigint_conversion;
mod comparison;
mod float16;
mod number_conversion;
mod species_constructor;
mod testing;
mod type_conversion;

pub use bigint_conversion::{
    big_int_from_i64, big_int_from_u64, number_to_big_int, to_big_int, to_big_int64, to_big_uint64,
};
pub use comparison::{is_less_than, is_loosely_equal, is_strictly_equal, same_value, same_value_zero};
pub use float16::{f16_bits_to_f64, f16_round, f64_to_f16_bits};
pub use number_conversion::{number_to_string, string_to_number, to_int32, to_integer_or_infinity, to_uint32};
pub use species_constructor::species_constructor;
pub use testing::is_array;
pub use type_conversion::{
    Numeric, PreferredType, is_callable, is_html_dda, string_key, to_boolean, to_length, to_number, to_numeric,
    to_object, to_primitive, to_property_key, to_string, type_of,
};

/// The array index a canonical numeric string denotes, if any (§6.1.7:
/// an integer index below 2³² − 1 written without leading zeros).
pub fn array_index_of_str(s: &str) -> Option<u32> {
    array_index_of_units(s.bytes().map(u16::from))
}

/// [`array_index_of_str`] over UTF-16 code units.
pub fn array_index_of_units(mut units: impl Iterator<Item = u16>) -> Option<u32> {
    let first = units.next()?;
    if !(u16::from(b'0')..=u16::from(b'9')).contains(&first) {
        return None;
    }
    let mut n = u64::from(first - u16::from(b'0'));
    if n == 0 {
        return units.next().is_none().then_some(0);
    }
    for u in units {
        if !(u16::from(b'0')..=u16::from(b'9')).contains(&u) {
            return None;
        }
        n = n * 10 + u64::from(u - u16::from(b'0'));
        if n >= u64::from(u32::MAX) {
            return None;
        }
    }
    Some(n as u32)
}

#[cfg(test)]
mod tests {
    use super::array_index_of_str;

    #[test]
    fn array_indices() {
        assert_eq!(array_index_of_str("0"), Some(0));
        assert_eq!(array_index_of_str("4294967294"), Some(4_294_967_294));
        assert_eq!(array_index_of_str("4294967295"), None);
        assert_eq!(array_index_of_str("01"), None);
        assert_eq!(array_index_of_str(""), None);
        assert_eq!(array_index_of_str("1e3"), None);
    }
}
