//! `JSON.stringify` features that JSON text cannot express (`toJSON`,
//! replacers, boxed primitives, gaps, getters, cycles, `BigInt`), each built
//! once in JavaScript for node and once with the reference host, compared
//! byte for byte.

use std::fmt::Write;

use js_json::reference::{Class, Exception, ReferenceHost, Str, Value};
use js_json::{JsonText, Limits};
use serde_json::json;

use crate::node::run_node_script;

/// Each case: a name, the JavaScript arguments of `JSON.stringify`, and a
/// builder of the same arguments for the reference host.
type Build = fn(&mut ReferenceHost) -> (Value, Value, Value);

// One table of cases reads better than one function per case.
#[allow(clippy::too_many_lines)]
fn cases() -> Vec<(&'static str, &'static str, Build)> {
    vec![
        (
            "toJSON gets the key",
            "(() => { const t = { toJSON(k) { return 'k=' + k; } }; return [{ a: t, b: [t], c: { d: t } }]; })()",
            |_| {
                let t = Value::object([(
                    "toJSON",
                    Value::function(|_, _, args| {
                        Ok(Value::from(format!("k={}", args[0].as_str().unwrap().to_string_lossy()).as_str()))
                    }),
                )]);
                let value = Value::object([
                    ("a", t.clone()),
                    ("b", Value::array([t.clone()])),
                    ("c", Value::object([("d", t)])),
                ]);
                (value, Value::Undefined, Value::Undefined)
            },
        ),
        (
            "replacer function",
            "[{ a: 1, b: 'x', c: [1, 2, { d: 3 }] }, function (k, v) { return typeof v === 'number' ? v * 10 : typeof v === 'string' ? undefined : v; }]",
            |_| {
                let value = Value::object([
                    ("a", Value::from(1.0)),
                    ("b", Value::from("x")),
                    ("c", Value::array([Value::from(1.0), Value::from(2.0), Value::object([("d", Value::from(3.0))])])),
                ]);
                let replacer = Value::function(|_, _, args| {
                    Ok(match &args[1] {
                        Value::Number(n) => Value::from(n * 10.0),
                        Value::String(_) => Value::Undefined,
                        other => other.clone(),
                    })
                });
                (value, replacer, Value::Undefined)
            },
        ),
        (
            "replacer list",
            "[{ a: 1, b: { a: 2, z: 3 }, 1: true, 2: undefined }, ['b', 1, 'b', new String('a'), new Number(2), null, {}]]",
            |_| {
                let value = Value::object([
                    ("a", Value::from(1.0)),
                    ("b", Value::object([("a", Value::from(2.0)), ("z", Value::from(3.0))])),
                    ("1", Value::from(true)),
                    ("2", Value::Undefined),
                ]);
                let list = Value::array([
                    Value::from("b"),
                    Value::from(1.0),
                    Value::from("b"),
                    Value::with_class(Class::String(Str::from("a"))),
                    Value::with_class(Class::Number(2.0)),
                    Value::Null,
                    Value::object([]),
                ]);
                (value, list, Value::Undefined)
            },
        ),
        ("replacer list with gap", "[[{ b: 1, a: [{ a: 2, b: 3 }] }], ['a', 'b'], 3]", |_| {
            let inner = Value::object([("a", Value::from(2.0)), ("b", Value::from(3.0))]);
            let value = Value::array([Value::object([("b", Value::from(1.0)), ("a", Value::array([inner]))])]);
            (value, Value::array([Value::from("a"), Value::from("b")]), Value::from(3.0))
        }),
        ("boxed primitives", "[[new Number(-0.5), new String('s→'), new Boolean(false), new Number(NaN)]]", |_| {
            let value = Value::array([
                Value::with_class(Class::Number(-0.5)),
                Value::with_class(Class::String(Str::from("s→"))),
                Value::with_class(Class::Boolean(false)),
                Value::with_class(Class::Number(f64::NAN)),
            ]);
            (value, Value::Undefined, Value::Undefined)
        }),
        ("gap from Number object", "[{ a: [1, {}, []], b: { c: 'd' } }, null, new Number(3)]", |_| {
            (sample(), Value::Undefined, Value::with_class(Class::Number(3.0)))
        }),
        ("gap from String object", "[{ a: [1, {}, []], b: { c: 'd' } }, null, new String('→ ')]", |_| {
            (sample(), Value::Undefined, Value::with_class(Class::String(Str::from("→ "))))
        }),
        ("gap longer than ten", "[{ a: [1, {}, []], b: { c: 'd' } }, null, 'abcdefghijklmnop']", |_| {
            (sample(), Value::Undefined, Value::from("abcdefghijklmnop"))
        }),
        ("gap above ten", "[{ a: [1, {}, []], b: { c: 'd' } }, null, 20]", |_| {
            (sample(), Value::Undefined, Value::from(20.0))
        }),
        ("gap fraction", "[{ a: [1, {}, []], b: { c: 'd' } }, null, 2.9]", |_| {
            (sample(), Value::Undefined, Value::from(2.9))
        }),
        ("getter", "[{ a: 1, get g() { return 'got'; }, z: 2 }]", |_| {
            let object = Value::object([("a", Value::from(1.0))]);
            object.as_object().unwrap().define_getter("g", |_, _, _| Ok(Value::from("got")));
            object.as_object().unwrap().set("z", Value::from(2.0));
            (object, Value::Undefined, Value::Undefined)
        }),
        (
            "undefined, functions, symbols",
            "[{ a: undefined, b: [undefined, () => 1, Symbol()], c: () => 1, d: Symbol() }]",
            |_| {
                let function = Value::function(|_, _, _| Ok(Value::from(1.0)));
                let value = Value::object([
                    ("a", Value::Undefined),
                    ("b", Value::array([Value::Undefined, function.clone(), Value::Symbol("".into())])),
                    ("c", function),
                    ("d", Value::Symbol("".into())),
                ]);
                (value, Value::Undefined, Value::Undefined)
            },
        ),
        ("top-level function", "[() => 1]", |_| {
            (Value::function(|_, _, _| Ok(Value::Null)), Value::Undefined, Value::Undefined)
        }),
        ("numbers", "[[-0, NaN, Infinity, -Infinity, 1e21, 1e-7, 0.1 + 0.2, 2 ** 53 + 2, 5e-324]]", |_| {
            let numbers = [
                -0.0,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                1e21,
                1e-7,
                0.1 + 0.2,
                9_007_199_254_740_994.0,
                5e-324,
            ];
            (Value::array(numbers.map(Value::from)), Value::Undefined, Value::Undefined)
        }),
        ("cycle", "(() => { const o = {}; o.a = [o]; return [o]; })()", |_| {
            let object = Value::object([]);
            object.as_object().unwrap().set("a", Value::array([object.clone()]));
            (object, Value::Undefined, Value::Undefined)
        }),
        ("bigint", "[[1n]]", |_| (Value::array([Value::BigInt(1)]), Value::Undefined, Value::Undefined)),
        ("bigint wrapper", "[Object(1n)]", |_| {
            (Value::with_class(Class::BigInt(1)), Value::Undefined, Value::Undefined)
        }),
        (
            "bigint with toJSON",
            "(() => { BigInt.prototype.toJSON = function () { return this.toString() + 'n'; }; const r = [{ n: 5n }]; return r; })()",
            |host| {
                host.bigint_to_json = Some(Value::function(|_, this, _| match this {
                    Value::BigInt(n) => Ok(Value::from(format!("{n}n").as_str())),
                    _ => Ok(Value::Null),
                }));
                (Value::object([("n", Value::BigInt(5))]), Value::Undefined, Value::Undefined)
            },
        ),
        ("lone surrogates and wide keys", "[{ '\\ud800': '\\udfff', '→': ['\\ud83d\\ude00', '\\u2028'] }]", |_| {
            let object = Value::object([]);
            object.as_object().unwrap().set(Str::from_utf16(&[0xD800]), Value::utf16(&[0xDFFF]));
            object.as_object().unwrap().set("→", Value::array([Value::from("\u{1F600}"), Value::from("\u{2028}")]));
            (object, Value::Undefined, Value::Undefined)
        }),
    ]
}

fn sample() -> Value {
    Value::object([
        ("a", Value::array([Value::from(1.0), Value::object([]), Value::array([])])),
        ("b", Value::object([("c", Value::from("d"))])),
    ])
}

#[test]
fn stringify_features_match_node_byte_for_byte() {
    let cases = cases();
    let mut script = String::from("const cases = [\n");
    for (_, arguments, _) in &cases {
        writeln!(script, "  () => {arguments},").unwrap();
    }
    script.push_str(
        "];\nconst out = cases.map((args) => { try { const r = JSON.stringify(...args()); return r === undefined ? null : r; } \
         catch (e) { return { error: e.name }; } });\nprocess.stdout.write(JSON.stringify(out));\n",
    );
    let expected = run_node_script(&script, "");
    assert_eq!(expected.len(), cases.len());
    for ((name, _, build), expected) in cases.iter().zip(&expected) {
        let mut host = ReferenceHost::new();
        let (value, replacer, space) = build(&mut host);
        let actual = match js_json::stringify(&mut host, &value, &replacer, &space, Limits::default()) {
            Ok(Some(JsonText::Latin1(bytes))) => json!(bytes.iter().map(|&b| char::from(b)).collect::<String>()),
            Ok(Some(JsonText::Utf16(units))) => json!(String::from_utf16(&units).unwrap()),
            Ok(None) => json!(null),
            Err(Exception::Json(error)) => json!({ "error": format!("{:?}", error.kind()) }),
            Err(Exception::Thrown(value)) => json!({ "error": format!("{value:?}") }),
        };
        assert_eq!(&actual, expected, "{name}");
    }
}
