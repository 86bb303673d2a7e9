//! `JSON.parse` on arbitrary text, read both as Latin-1 and as UTF-16:
//! never a panic; text that parses serializes to text that parses to the
//! same serialization (parse ∘ stringify is idempotent after one round).

#![no_main]

use js_json::reference::{ReferenceHost, Value};
use js_json::{JsStr, Limits};
use libfuzzer_sys::fuzz_target;

/// Parses `text`, and if it parses, checks the round trip.
fn check(text: JsStr<'_>) {
    let mut host = ReferenceHost::new();
    let Ok(value) = js_json::parse(&mut host, text, &Value::Undefined, Limits::default()) else { return };
    let first = js_json::stringify(&mut host, &value, &Value::Undefined, &Value::Undefined, Limits::default())
        .expect("parsed JSON serializes")
        .expect("parsed JSON is never undefined");
    let reparsed = js_json::parse(&mut host, first.as_js_str(), &Value::Undefined, Limits::default())
        .expect("serialized JSON parses");
    let second = js_json::stringify(&mut host, &reparsed, &Value::Undefined, &Value::Undefined, Limits::default())
        .expect("parsed JSON serializes")
        .expect("parsed JSON is never undefined");
    assert!(first.as_js_str().same_units(second.as_js_str()), "stringify(parse(stringify(v))) differs from stringify(v)");
}

fuzz_target!(|data: &[u8]| {
    check(JsStr::Latin1(data));
    let units: Vec<u16> = data.chunks_exact(2).map(|pair| u16::from_le_bytes([pair[0], pair[1]])).collect();
    check(JsStr::Utf16(&units));
});
