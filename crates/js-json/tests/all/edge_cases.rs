//! The JSON output (and errors) of edge cases, as one insta snapshot per
//! direction: a change in any of them shows in the diff of
//! `tests/all/snapshots/`.

use std::fmt::Write as _;

use js_json::reference::{Exception, ReferenceHost, Value};

use crate::{parse, stringify};

/// `Ok(text)`, `undefined` (no output) or the error an engine would throw.
fn outcome(result: Result<Option<String>, Exception>) -> String {
    match result {
        Ok(Some(text)) => text,
        Ok(None) => "undefined".to_owned(),
        Err(Exception::Json(error)) => format!("{:?}: {error}", error.kind()),
        Err(Exception::Thrown(value)) => format!("thrown {value:?}"),
    }
}

#[test]
fn stringify_edge_cases() {
    let mut host = ReferenceHost::new();
    let cycle = Value::object([("a", Value::Null)]);
    cycle.as_object().expect("object").set("self", cycle.clone());
    let cases: Vec<(&str, Value, Value)> = vec![
        ("negative zero", Value::Number(-0.0), Value::Undefined),
        (
            "NaN and infinities",
            Value::array([Value::Number(f64::NAN), Value::Number(f64::INFINITY), Value::Number(f64::NEG_INFINITY)]),
            Value::Undefined,
        ),
        (
            "large and small numbers",
            Value::array([
                Value::Number(1e21),
                Value::Number(1e-7),
                Value::Number(123_456_789_012_345_680_000.0),
                Value::Number(5e-324),
            ]),
            Value::Undefined,
        ),
        (
            "lone surrogates",
            Value::array([Value::utf16(&[0xD800]), Value::utf16(&[0x61, 0xDFFF]), Value::utf16(&[0xD83D, 0xDE00])]),
            Value::Undefined,
        ),
        (
            "control characters and separators",
            Value::string("\u{0}\u{8}\t\n\u{c}\r\u{1f}\"\\/\u{2028}\u{2029}\u{7f}"),
            Value::Undefined,
        ),
        (
            "undefined, functions and symbols",
            Value::array([
                Value::Undefined,
                Value::function(|_, _, _| Ok(Value::Undefined)),
                Value::Symbol("s".into()),
            ]),
            Value::Undefined,
        ),
        (
            "undefined properties are dropped",
            Value::object([("a", Value::Undefined), ("b", Value::Number(1.0))]),
            Value::Undefined,
        ),
        ("top-level undefined", Value::Undefined, Value::Undefined),
        (
            "empty containers with a gap",
            Value::object([("a", Value::array(Vec::new())), ("b", Value::object(Vec::<(&str, Value)>::new()))]),
            Value::Number(2.0),
        ),
        (
            "nesting with a string gap",
            Value::object([("a", Value::array([Value::Number(1.0), Value::object([("b", Value::Null)])]))]),
            Value::string("--"),
        ),
        ("gap clamped to 10 spaces", Value::array([Value::Number(1.0)]), Value::Number(20.0)),
        ("gap string clamped to 10 characters", Value::array([Value::Number(1.0)]), Value::string("abcdefghijklmno")),
        (
            "array index keys in order",
            Value::object([
                ("b", Value::Number(1.0)),
                ("2", Value::Number(2.0)),
                ("a", Value::Number(3.0)),
                ("1", Value::Number(4.0)),
            ]),
            Value::Undefined,
        ),
        ("BigInt", Value::BigInt(1), Value::Undefined),
        ("cycle", cycle, Value::Undefined),
    ];
    let mut report = String::new();
    for (name, value, space) in cases {
        let text = outcome(stringify(&mut host, &value, &space));
        let _ = writeln!(report, "{name}:\n{text}\n");
    }
    insta::assert_snapshot!(report);
}

#[test]
fn parse_edge_cases() {
    let mut host = ReferenceHost::new();
    let cases = [
        ("whitespace around values", " \t\n\r[ 1 , 2 ]\n"),
        ("duplicate keys keep the last", r#"{"a":1,"a":2}"#),
        ("__proto__ is an ordinary key", r#"{"__proto__":1}"#),
        ("escapes", r#""\u0041\n\/\\\"\ud800""#),
        ("numbers", "[-0, 1E400, -1e-400, 0.1e1, 123456789012345678901234567890]"),
        ("trailing comma", "[1,]"),
        ("leading zero", "01"),
        ("single quotes", "'a'"),
        ("bad escape", r#""\x41""#),
        ("unterminated string", r#""abc"#),
        ("raw control character in a string", "\"a\tb\""),
        ("text after the value", "[] []"),
        ("empty text", ""),
        ("lone minus", "-"),
    ];
    let mut report = String::new();
    for (name, text) in cases {
        let result =
            parse(&mut host, text, &Value::Undefined).and_then(|value| stringify(&mut host, &value, &Value::Undefined));
        let _ = writeln!(report, "{name}: {text:?}\n{}\n", outcome(result));
    }
    insta::assert_snapshot!(report);
}
