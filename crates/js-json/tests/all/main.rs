//! Cross-module tests of js-json: parse and stringify together, checked
//! against node (byte for byte) and against `serde_json`.

// Test helpers: their failures are the tests' failures.
#![allow(clippy::missing_errors_doc, clippy::missing_panics_doc)]

mod draw;
mod edge_cases;
mod node;
mod node_stringify;
mod serde;

use js_json::reference::{Exception, ReferenceHost, Value};
use js_json::{JsStr, JsonText, Limits};

/// Parses `text` (as UTF-16, or as Latin-1 when it fits) with the
/// reference host.
fn parse(host: &mut ReferenceHost, text: &str, reviver: &Value) -> Result<Value, Exception> {
    let units: Vec<u16> = text.encode_utf16().collect();
    if units.iter().all(|&unit| unit <= 0xFF) {
        let bytes: Vec<u8> = units.iter().map(|&unit| unit as u8).collect();
        js_json::parse(host, JsStr::Latin1(&bytes), reviver, Limits::default())
    } else {
        js_json::parse(host, JsStr::Utf16(&units), reviver, Limits::default())
    }
}

/// `JSON.stringify(value, undefined, space)` as Rust text.
fn stringify(host: &mut ReferenceHost, value: &Value, space: &Value) -> Result<Option<String>, Exception> {
    let text = js_json::stringify(host, value, &Value::Undefined, space, Limits::default())?;
    Ok(text.map(|text| match text {
        JsonText::Latin1(bytes) => bytes.iter().map(|&b| char::from(b)).collect(),
        JsonText::Utf16(units) => String::from_utf16(&units).expect("stringify output is well-formed"),
    }))
}
