//! Byte-for-byte agreement with node's `JSON.parse` and `JSON.stringify`
//! (node v20: no `context.source`, no `JSON.rawJSON`, so those are tested
//! in the unit tests instead).

use std::io::Write;
use std::process::{Command, Stdio};

use js_json::JsStr;
use js_json::reference::{Exception, ReferenceHost, Value};
use serde_json::json;

use crate::draw::Draw;
use crate::{parse, stringify};

/// What node does with each case: parse with a reviver, stringify with a
/// space, print each result (or the error's name).
const SCRIPT: &str = r"
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const revivers = {
  none: undefined,
  dropNumbers: (k, v) => typeof v === 'number' ? undefined : v,
  double: (k, v) => typeof v === 'number' ? v * 2 : v,
  keys: function (k, v) { return (typeof v === 'object' && v !== null) ? v : k + ':' + typeof v; },
};
const out = cases.map(([text, space, reviver]) => {
  try {
    const result = JSON.stringify(JSON.parse(text, revivers[reviver]), null, space);
    return result === undefined ? null : result;
  } catch (e) {
    return { error: e.name };
  }
});
process.stdout.write(JSON.stringify(out));
";

fn reviver(kind: &str) -> Value {
    match kind {
        "none" => Value::Undefined,
        "dropNumbers" => Value::function(|_, _, args| {
            Ok(if matches!(args[1], Value::Number(_)) { Value::Undefined } else { args[1].clone() })
        }),
        "double" => Value::function(|_, _, args| {
            Ok(match args[1] {
                Value::Number(n) => Value::from(n * 2.0),
                _ => args[1].clone(),
            })
        }),
        "keys" => Value::function(|_, _, args| {
            Ok(match &args[1] {
                Value::Object(_) => args[1].clone(),
                other => {
                    let kind = match other {
                        Value::Null => "object",
                        Value::Boolean(_) => "boolean",
                        Value::Number(_) => "number",
                        Value::String(_) => "string",
                        _ => "other",
                    };
                    let mut units: Vec<u16> = match args[0].as_str().unwrap().as_js_str() {
                        JsStr::Latin1(bytes) => bytes.iter().map(|&b| u16::from(b)).collect(),
                        JsStr::Utf16(units) => units.to_vec(),
                    };
                    units.extend(format!(":{kind}").encode_utf16());
                    Value::utf16(&units)
                }
            })
        }),
        _ => unreachable!(),
    }
}

fn space(spec: &serde_json::Value) -> Value {
    match spec {
        serde_json::Value::Number(n) => Value::from(n.as_f64().unwrap()),
        serde_json::Value::String(s) => Value::from(s.as_str()),
        _ => Value::Undefined,
    }
}

/// Our result for a case, in the shape the node script prints.
fn ours(text: &str, space_spec: &serde_json::Value, reviver_kind: &str) -> serde_json::Value {
    let mut host = ReferenceHost::new();
    let result = parse(&mut host, text, &reviver(reviver_kind))
        .and_then(|value| stringify(&mut host, &value, &space(space_spec)));
    match result {
        Ok(Some(text)) => serde_json::Value::String(text),
        Ok(None) => serde_json::Value::Null,
        Err(Exception::Json(error)) => json!({ "error": format!("{:?}", error.kind()) }),
        Err(Exception::Thrown(value)) => json!({ "error": format!("{value:?}") }),
    }
}

/// Runs `script` on node with `input` on stdin and reads the JSON array it
/// prints.
pub fn run_node_script(script: &str, input: &str) -> Vec<serde_json::Value> {
    let spawned = Command::new("node").arg("-e").arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => panic!("node is needed for this test (DESIGN.md: node is on every machine): {error}"),
    };
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "node failed");
    serde_json::from_slice(&output.stdout).unwrap()
}

fn fixed_cases() -> Vec<&'static str> {
    vec![
        r#"{"b":1,"a":2,"10":3,"9":4,"__proto__":5,"a":6}"#,
        r#"["\ud800","\udc00","\ud83d\ude00","\u2028\u2029","\u007f\u0080\u00ff\u0100"]"#,
        "[1e21,1e-7,123e-20,0.000001,-0,5e-324,1.7976931348623157e308,100,1.5e300]",
        r#"[[],{},[[]],{"a":{}}]"#,
        "  \"\\b\\f\\n\\r\\t\\\"\\\\\\/\"  ",
        r#"{"a":[1,{"b":[2,{"c":[]}]}]}"#,
        "[0.1,0.2,0.30000000000000004,1.0,2.50,1E2,1e+2,-1e-2]",
        "[9007199254740993,18446744073709551616,1e400,-1e400]",
        "\"→ em — dash ‘curly’ quotes 中文\"",
        "[1,]",
        "{\"a\":1,}",
        "01",
        "[1 2]",
        "\"\\u12\"",
        "",
        "[\"\t\"]",
        "{\"a\" 1}",
        "nul",
    ]
}

#[test]
fn parse_then_stringify_matches_node_byte_for_byte() {
    let spaces = [json!(null), json!(2), json!("\t"), json!("→-"), json!(12)];
    let revivers = ["none", "dropNumbers", "double", "keys"];
    let mut cases = Vec::new();
    for text in fixed_cases() {
        for space in &spaces {
            for reviver in revivers {
                cases.push(json!([text, space, reviver]));
            }
        }
    }
    let mut draw = Draw(0x0123_4567_89AB_CDEF);
    for index in 0..3_000 {
        let text = draw.value(0);
        cases.push(json!([text, spaces[index % spaces.len()], revivers[(index / 5) % revivers.len()]]));
    }
    let cases = serde_json::Value::Array(cases);
    let expected = run_node_script(SCRIPT, &cases.to_string());
    let cases = cases.as_array().unwrap();
    assert_eq!(expected.len(), cases.len());
    let mut compared = 0;
    for (case, expected) in cases.iter().zip(&expected) {
        let [text, space, reviver] = case.as_array().unwrap().as_slice() else { unreachable!() };
        let actual = ours(text.as_str().unwrap(), space, reviver.as_str().unwrap());
        assert_eq!(&actual, expected, "case {case}");
        compared += 1;
    }
    assert!(compared > 3_000);
}
