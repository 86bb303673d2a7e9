//! Agreement with `serde_json` where the rules coincide: well-formed
//! strings, integers, structure, two-space indentation; and number parsing
//! to the same double.

use js_json::reference::{ReferenceHost, Value};
use serde_json::{Map, Number};

use crate::draw::Draw;
use crate::{parse, stringify};

/// A random `serde_json` value with no float numbers (their printing
/// differs from `Number::toString`) and no integer-like keys (JavaScript
/// orders those first).
fn serde_value(draw: &mut Draw, depth: u32) -> serde_json::Value {
    match draw.below(if depth > 4 { 4 } else { 6 }) {
        0 => serde_json::Value::Null,
        1 => serde_json::Value::Bool(draw.below(2) == 0),
        2 => serde_json::Value::Number(Number::from(draw.next().cast_signed() >> 12)),
        3 => serde_json::Value::String(text(draw)),
        4 => serde_json::Value::Array((0..draw.below(5)).map(|_| serde_value(draw, depth + 1)).collect()),
        _ => {
            let mut map = Map::new();
            for _ in 0..draw.below(5) {
                map.insert(format!("k{}", text(draw)), serde_value(draw, depth + 1));
            }
            serde_json::Value::Object(map)
        }
    }
}

fn text(draw: &mut Draw) -> String {
    (0..draw.below(12))
        .map(|_| match draw.below(6) {
            0 => char::from_u32(draw.below(0x20) as u32).unwrap(),
            1 => ['"', '\\', '/', '\u{7f}'][draw.below(4) as usize],
            2 => char::from_u32(0x80 + draw.below(0x780) as u32).unwrap(),
            3 => char::from_u32(0x4E00 + draw.below(0x5000) as u32).unwrap(),
            4 => char::from_u32(0x1F600 + draw.below(0x50) as u32).unwrap(),
            _ => char::from(b'a' + draw.below(26) as u8),
        })
        .collect()
}

#[test]
fn round_trips_agree_with_serde_json() {
    let mut draw = Draw(0xDEAD_BEEF_CAFE_F00D);
    let mut host = ReferenceHost::new();
    for _ in 0..5_000 {
        let value = serde_value(&mut draw, 0);
        let compact = serde_json::to_string(&value).unwrap();
        let parsed = parse(&mut host, &compact, &Value::Undefined).unwrap();
        assert_eq!(stringify(&mut host, &parsed, &Value::Undefined).unwrap().unwrap(), compact);
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert_eq!(stringify(&mut host, &parsed, &Value::from(2.0)).unwrap().unwrap(), pretty);
        // And serde_json reads our output back to the same value.
        let ours = stringify(&mut host, &parsed, &Value::Undefined).unwrap().unwrap();
        assert_eq!(serde_json::from_str::<serde_json::Value>(&ours).unwrap(), value);
    }
}

/// Against the standard library's correctly rounded parser: `serde_json`
/// without its `float_roundtrip` feature is off by one unit in the last
/// place for some inputs (1.947700395895162e-169, for one), where
/// ECMA-262 requires the correctly rounded value.
#[test]
fn numbers_parse_to_the_correctly_rounded_double() {
    let mut draw = Draw(0x1234_5678_9ABC_DEF1);
    let mut host = ReferenceHost::new();
    for _ in 0..50_000 {
        let text = draw.number();
        let expected: f64 = text.parse().unwrap();
        match parse(&mut host, &text, &Value::Undefined).unwrap() {
            Value::Number(actual) => assert_eq!(actual.to_bits(), expected.to_bits(), "{text}"),
            other => panic!("{text} parsed to {other:?}"),
        }
    }
}
