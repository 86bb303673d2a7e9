//! `JSON.parse` ([ECMA-262 §25.5.1](https://tc39.es/ecma262/#sec-json.parse))
//! with the reviver's source-text access (`context.source`), and the
//! validation behind `JSON.rawJSON`.
//!
//! * [`lexer`] reads tokens with the SIMD kernels: string contents are
//!   found with the escape scanner (`"`, `\`, controls), whitespace runs
//!   with a whitespace scanner. Latin-1 text yields Latin-1 strings
//!   borrowed from the source; UTF-16 text yields Latin-1 strings whenever
//!   a string's characters fit, which the scan and unescape kernels report
//!   from the same loads (no second pass over the string), and strings are
//!   handed to the host with `create_string_narrowest`.
//! * [`builder`] makes the host's values with an explicit stack, so nesting
//!   costs no native stack; [`Limits::max_depth`] bounds it.
//! * [`reviver`] walks the result for a reviver, also without recursion,
//!   using the [`records`] kept while parsing.
//!
//! `__proto__` is an ordinary key (the host's `create_object` defines data
//! properties), and of repeated keys the last value wins.

mod builder;
mod lexer;
mod records;
mod reviver;
mod source;

#[cfg(test)]
mod tests;

use builder::Builder;
use lexer::Lexer;
use source::SourceUnit;

use crate::error::{SyntaxError, SyntaxErrorKind};
use crate::host::{JsonHost, Kind};
use crate::limits::Limits;
use crate::text::JsStr;

/// `JSON.parse(text, reviver)` for a string `text` (the caller has applied
/// `ToString`). Pass `undefined` as `reviver` when absent.
///
/// # Errors
///
/// The host's exceptions: a SyntaxError (with the position) for malformed
/// text, a RangeError for nesting deeper than `limits.max_depth`, and
/// whatever the reviver and the host operations it triggers throw.
pub fn parse<H: JsonHost>(
    host: &mut H,
    text: JsStr<'_>,
    reviver: &H::Value,
    limits: Limits,
) -> Result<H::Value, H::Error> {
    match text {
        JsStr::Latin1(bytes) => parse_units(host, bytes, text, reviver, limits),
        JsStr::Utf16(units) => parse_units(host, units, text, reviver, limits),
    }
}

fn parse_units<U: SourceUnit, H: JsonHost>(
    host: &mut H,
    units: &[U],
    text: JsStr<'_>,
    reviver: &H::Value,
    limits: Limits,
) -> Result<H::Value, H::Error> {
    let revive = host.kind(reviver) == Kind::Callable;
    let mut builder = Builder::new(units, host, limits, revive);
    let (value, record) = builder.read_value()?;
    builder.finish()?;
    if !revive {
        return Ok(value);
    }
    let records = builder.records.take();
    let host = builder.host();
    let empty = host.create_string(JsStr::Latin1(b""));
    let root = host.create_object(vec![(empty, value)]);
    reviver::internalize(host, root, reviver, records.as_ref(), record, text, limits)
}

/// The checks of `JSON.rawJSON(text)` on the string `text`: not empty, no
/// whitespace at either end, and one JSON primitive (not an object or
/// array).
///
/// # Errors
///
/// The SyntaxError to throw.
pub fn validate_raw_json(text: JsStr<'_>) -> Result<(), SyntaxError> {
    match text {
        JsStr::Latin1(bytes) => validate_units(bytes),
        JsStr::Utf16(units) => validate_units(units),
    }
}

fn validate_units<U: SourceUnit>(units: &[U]) -> Result<(), SyntaxError> {
    let is_space = |unit: U| matches!(unit.into(), 0x09 | 0x0A | 0x0D | 0x20);
    match (units.first(), units.last()) {
        (Some(&first), Some(&last)) if !is_space(first) && !is_space(last) => {}
        _ => return Err(SyntaxError { kind: SyntaxErrorKind::RawJsonWhitespace, position: 0 }),
    }
    let mut lexer = Lexer::new(units);
    match u8::try_from(units[0].into()).unwrap_or(0) {
        b'{' | b'[' => return Err(SyntaxError { kind: SyntaxErrorKind::RawJsonNotPrimitive, position: 0 }),
        b'"' => lexer.scan_string().map(drop)?,
        b't' => lexer.expect_literal(b"true")?,
        b'f' => lexer.expect_literal(b"false")?,
        b'n' => lexer.expect_literal(b"null")?,
        b'-' | b'0'..=b'9' => lexer.scan_number().map(drop)?,
        _ => return Err(lexer.unexpected_at(0)),
    }
    if lexer.at_end() {
        Ok(())
    } else {
        Err(SyntaxError { kind: SyntaxErrorKind::TrailingCharacters, position: lexer.pos })
    }
}
