use std::cell::RefCell;
use std::rc::Rc;

use crate::error::JsonError;
use crate::limits::Limits;
use crate::reference::{Class, Exception, ReferenceHost, Str, Value};
use crate::text::JsonText;

fn stringify_with(
    host: &mut ReferenceHost,
    value: &Value,
    replacer: &Value,
    space: &Value,
) -> Result<Option<JsonText>, Exception> {
    super::stringify(host, value, replacer, space, Limits::default())
}

/// `JSON.stringify(value, replacer, space)` as Rust text; `None` for
/// `undefined`.
fn json3(value: &Value, replacer: &Value, space: &Value) -> Option<String> {
    stringify_with(&mut ReferenceHost::new(), value, replacer, space).unwrap().map(|text| text.to_string_lossy())
}

fn json(value: &Value) -> String {
    json3(value, &Value::Undefined, &Value::Undefined).unwrap()
}

fn json_error(value: &Value) -> JsonError {
    match stringify_with(&mut ReferenceHost::new(), value, &Value::Undefined, &Value::Undefined) {
        Err(Exception::Json(error)) => error,
        other => panic!("expected a JSON error, got {other:?}"),
    }
}

/// A replacer that changes nothing but forces the general path.
fn identity_replacer() -> Value {
    Value::function(|_, _, args| Ok(args[1].clone()))
}

#[test]
fn primitives() {
    assert_eq!(json(&Value::Null), "null");
    assert_eq!(json(&Value::from(true)), "true");
    assert_eq!(json(&Value::from(false)), "false");
    assert_eq!(json(&Value::from("a\"b\\\n\u{1}")), r#""a\"b\\\n\u0001""#);
    assert_eq!(json3(&Value::Undefined, &Value::Undefined, &Value::Undefined), None);
    assert_eq!(json3(&Value::Symbol("s".into()), &Value::Undefined, &Value::Undefined), None);
    assert_eq!(json3(&Value::function(|_, _, _| Ok(Value::Null)), &Value::Undefined, &Value::Undefined), None);
}

#[test]
fn numbers_print_as_number_to_string() {
    for (number, text) in [
        (0.0, "0"),
        (-0.0, "0"),
        (1.5, "1.5"),
        (-2.0, "-2"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (123_456_789_012_345_680_000.0, "123456789012345680000"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (f64::NAN, "null"),
        (f64::INFINITY, "null"),
        (f64::NEG_INFINITY, "null"),
    ] {
        assert_eq!(json(&Value::from(number)), text, "{number}");
        assert_eq!(json(&Value::array([Value::from(number)])), format!("[{text}]"));
    }
}

#[test]
fn containers_skip_or_null_what_is_undefined() {
    let function = Value::function(|_, _, _| Ok(Value::Null));
    let value = Value::object([
        ("a", Value::Undefined),
        ("b", Value::array([Value::Undefined, function.clone(), Value::Symbol("s".into()), Value::from(1.0)])),
        ("c", function),
        ("d", Value::object([])),
        ("e", Value::array([])),
    ]);
    let expected = r#"{"b":[null,null,null,1],"d":{},"e":[]}"#;
    assert_eq!(json(&value), expected);
    assert_eq!(json3(&value, &identity_replacer(), &Value::Undefined).unwrap(), expected);
}

#[test]
fn integer_keys_come_first_in_ascending_order() {
    let value = Value::object([("b", Value::Null), ("2", Value::Null), ("a", Value::Null), ("1", Value::Null)]);
    assert_eq!(json(&value), r#"{"1":null,"2":null,"b":null,"a":null}"#);
}

#[test]
fn to_json_is_called_with_the_key() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let to_json = {
        let seen = Rc::clone(&seen);
        Value::function(move |_, this, args| {
            seen.borrow_mut().push(args[0].as_str().unwrap().to_string_lossy());
            Ok(Value::array([this.clone().as_object().map_or(Value::Null, |_| Value::from("self")), args[0].clone()]))
        })
    };
    let with_to_json = Value::object([("toJSON", to_json)]);
    let value = Value::object([("k", with_to_json.clone()), ("list", Value::array([with_to_json.clone()]))]);
    assert_eq!(json(&value), r#"{"k":["self","k"],"list":[["self","0"]]}"#);
    assert_eq!(json(&with_to_json), r#"["self",""]"#);
    assert_eq!(*seen.borrow(), ["k", "0", ""]);
}

#[test]
fn replacer_function_sees_holder_key_and_value_in_order() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let replacer = {
        let calls = Rc::clone(&calls);
        Value::function(move |host, this, args| {
            let key = args[0].as_str().unwrap().to_string_lossy();
            let holder_keys = this.as_object().map_or(99, |o| o.properties().len());
            calls.borrow_mut().push(format!("{key}:{holder_keys}"));
            Ok(match &args[1] {
                Value::Number(n) => Value::from(n * 10.0),
                Value::String(_) => Value::Undefined,
                _ => {
                    let _ = host;
                    args[1].clone()
                }
            })
        })
    };
    let value =
        Value::object([("a", Value::from(1.0)), ("s", Value::from("x")), ("n", Value::array([Value::from(2.0)]))]);
    assert_eq!(json3(&value, &replacer, &Value::Undefined).unwrap(), r#"{"a":10,"n":[20]}"#);
    // The top-level holder is the wrapper `{"": value}`; arrays have no
    // string-keyed properties in this host.
    assert_eq!(*calls.borrow(), [":1", "a:3", "s:3", "n:3", "0:0"]);
}

#[test]
fn replacer_list_selects_keys_once_in_list_order() {
    let list = Value::array([
        Value::from("b"),
        Value::from(1.0),
        Value::from("b"),
        Value::with_class(Class::String(Str::from("a"))),
        Value::with_class(Class::Number(2.0)),
        Value::Null,
        Value::object([]),
    ]);
    let value = Value::object([
        ("a", Value::from(1.0)),
        ("b", Value::object([("a", Value::Null), ("z", Value::Null)])),
        ("1", Value::from(true)),
        ("2", Value::Undefined),
    ]);
    assert_eq!(json3(&value, &list, &Value::Undefined).unwrap(), r#"{"b":{"a":null},"1":true,"a":1}"#);
}

#[test]
fn gaps_indent_per_spec() {
    let value = Value::object([
        ("a", Value::array([Value::from(1.0), Value::object([]), Value::array([])])),
        ("b", Value::object([("c", Value::from("d"))])),
    ]);
    let two = "{\n  \"a\": [\n    1,\n    {},\n    []\n  ],\n  \"b\": {\n    \"c\": \"d\"\n  }\n}";
    assert_eq!(json3(&value, &Value::Undefined, &Value::from(2.0)).unwrap(), two);
    assert_eq!(json3(&value, &identity_replacer(), &Value::from(2.9)).unwrap(), two);
    assert_eq!(json3(&value, &Value::Undefined, &Value::with_class(Class::Number(2.0))).unwrap(), two);
    let ten = json3(&Value::array([Value::Null]), &Value::Undefined, &Value::from(20.0)).unwrap();
    assert_eq!(ten, format!("[\n{}null\n]", " ".repeat(10)));
    let tabs = json3(&Value::array([Value::Null]), &Value::Undefined, &Value::from("\t")).unwrap();
    assert_eq!(tabs, "[\n\tnull\n]");
    let long = json3(&Value::array([Value::Null]), &Value::Undefined, &Value::from("0123456789abc")).unwrap();
    assert_eq!(long, "[\n0123456789null\n]");
    let wide =
        stringify_with(&mut ReferenceHost::new(), &Value::array([Value::Null]), &Value::Undefined, &Value::from("→"))
            .unwrap()
            .unwrap();
    assert_eq!(wide, JsonText::Utf16("[\n→null\n]".encode_utf16().collect()));
    for nothing in [Value::from(0.0), Value::from(-3.0), Value::from(f64::NAN), Value::from(""), Value::Null] {
        assert_eq!(json3(&value, &Value::Undefined, &nothing).unwrap(), json(&value));
    }
}

#[test]
fn cycles_are_type_errors() {
    let object = Value::object([]);
    let array = Value::array([object.clone()]);
    object.as_object().unwrap().set("a", array.clone());
    assert_eq!(json_error(&object), JsonError::Cycle);
    assert_eq!(json_error(&array), JsonError::Cycle);
    // The same object twice, not nested, is not a cycle.
    let leaf = Value::object([]);
    assert_eq!(json(&Value::array([leaf.clone(), leaf])), "[{},{}]");
}

#[test]
fn bigints_throw_unless_to_json_handles_them() {
    assert_eq!(json_error(&Value::BigInt(1)), JsonError::BigInt);
    assert_eq!(json_error(&Value::array([Value::BigInt(1)])), JsonError::BigInt);
    assert_eq!(json_error(&Value::with_class(Class::BigInt(1))), JsonError::BigInt);
    let mut host = ReferenceHost::new();
    host.bigint_to_json = Some(Value::function(|_, this, _| match this {
        Value::BigInt(n) => Ok(Value::string(&format!("{n}n"))),
        _ => Ok(Value::Null),
    }));
    let text = stringify_with(&mut host, &Value::array([Value::BigInt(7)]), &Value::Undefined, &Value::Undefined);
    assert_eq!(text.unwrap().unwrap().to_string_lossy(), r#"["7n"]"#);
}

#[test]
fn boxed_primitives_are_unwrapped() {
    let value = Value::array([
        Value::with_class(Class::Number(-0.5)),
        Value::with_class(Class::String(Str::from("s→"))),
        Value::with_class(Class::Boolean(false)),
    ]);
    assert_eq!(json(&value), r#"[-0.5,"s→",false]"#);
}

#[test]
fn raw_json_is_written_as_is() {
    let mut host = ReferenceHost::new();
    let raw = host.raw_json("1e1000").unwrap();
    let value =
        Value::object([("big", raw.clone()), ("list", Value::array([raw, host.raw_json("\"\\u2192\"").unwrap()]))]);
    assert_eq!(json(&value), r#"{"big":1e1000,"list":[1e1000,"\u2192"]}"#);
    for bad in ["", " 1", "1 ", "{}", "[1]", "01", "\"a", "nul", "1,2"] {
        assert!(host.raw_json(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn getters_run_once_and_their_errors_propagate() {
    let count = Rc::new(RefCell::new(0));
    let object = Value::object([("a", Value::from(1.0))]);
    {
        let count = Rc::clone(&count);
        object.as_object().unwrap().define_getter("g", move |_, _, _| {
            *count.borrow_mut() += 1;
            Ok(Value::from("got"))
        });
    }
    assert_eq!(json(&Value::array([object])), r#"[{"a":1,"g":"got"}]"#);
    assert_eq!(*count.borrow(), 1, "the fast path gave up before reading the getter");
    let throwing = Value::object([]);
    throwing.as_object().unwrap().define_getter("x", |_, _, _| Err(Exception::Thrown(Value::from("boom"))));
    match stringify_with(&mut ReferenceHost::new(), &throwing, &Value::Undefined, &Value::Undefined) {
        Err(Exception::Thrown(Value::String(text))) => assert_eq!(text, Str::from("boom")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn output_stays_latin1_until_a_wide_character() {
    let mut host = ReferenceHost::new();
    let latin1 = Value::array([Value::from("caf\u{e9}"), Value::utf16(&[0x61, 0xD800])]);
    let text = stringify_with(&mut host, &latin1, &Value::Undefined, &Value::Undefined).unwrap().unwrap();
    assert_eq!(text, JsonText::Latin1(b"[\"caf\xe9\",\"a\\ud800\"]".to_vec()));
    let wide = Value::array([Value::from("x\"y→z\n"), Value::from("\u{1F600}"), Value::utf16(&[0xDC00])]);
    let text = stringify_with(&mut host, &wide, &Value::Undefined, &Value::Undefined).unwrap().unwrap();
    assert!(matches!(text, JsonText::Utf16(_)));
    assert_eq!(text.to_string_lossy(), "[\"x\\\"y→z\\n\",\"\u{1F600}\",\"\\udc00\"]");
}

fn nested_arrays(depth: usize) -> Value {
    let mut value = Value::array([]);
    for _ in 1..depth {
        value = Value::array([value]);
    }
    value
}

#[test]
fn deep_nesting_is_iterative_and_limited() {
    let deep = nested_arrays(3_000);
    let text = json(&deep);
    assert_eq!(text.len(), 6_000);
    assert_eq!(json3(&deep, &identity_replacer(), &Value::from(1.0)).unwrap().matches('[').count(), 3_000);
    let too_deep = nested_arrays(1_000_000);
    assert_eq!(json_error(&too_deep), JsonError::TooDeep { limit: Limits::DEFAULT_MAX_DEPTH });
    let limits = Limits { max_depth: 10 };
    let result =
        super::stringify(&mut ReferenceHost::new(), &nested_arrays(11), &Value::Undefined, &Value::Undefined, limits);
    assert!(matches!(result, Err(Exception::Json(JsonError::TooDeep { limit: 10 }))));
    let result =
        super::stringify(&mut ReferenceHost::new(), &nested_arrays(10), &Value::Undefined, &Value::Undefined, limits);
    assert!(result.is_ok());
}

/// A small deterministic generator of plain value trees.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn string(&mut self) -> Value {
        const PIECES: [&str; 8] = ["a", "key", "\"", "\\n", "é", "→", "\u{1F600}", " "];
        let len = self.below(5);
        let text: String = (0..len).map(|_| PIECES[self.below(8) as usize]).collect();
        if self.below(10) == 0 { Value::utf16(&[0x61, 0xDBFF]) } else { Value::from(text.as_str()) }
    }

    fn value(&mut self, depth: u32) -> Value {
        match self.below(if depth > 4 { 6 } else { 9 }) {
            0 => Value::Null,
            1 => Value::from(self.below(2) == 0),
            2 => Value::from(f64::from_bits(self.next())),
            3 => Value::from(self.below(1000) as f64 / 8.0),
            4 => self.string(),
            5 => Value::Undefined,
            6 | 7 => Value::array((0..self.below(5)).map(|_| self.value(depth + 1)).collect::<Vec<_>>()),
            _ => {
                let object = Value::object([]);
                for _ in 0..self.below(5) {
                    let key = self.string();
                    let value = self.value(depth + 1);
                    object.as_object().unwrap().set(key.as_str().unwrap().clone(), value);
                }
                object
            }
        }
    }
}

#[test]
fn fast_path_matches_general_path() {
    let mut draw = Draw(0x2545_F491_4F6C_DD1D);
    for case in 0..3_000 {
        let value = draw.value(0);
        for space in [Value::Undefined, Value::from(2.0), Value::from("→")] {
            let fast = json3(&value, &Value::Undefined, &space);
            let general = json3(&value, &identity_replacer(), &space);
            assert_eq!(fast, general, "case {case}");
        }
    }
}

/// Texts large enough for the output buffer to be advised onto huge pages,
/// narrow and widened part-way: the advice changes nothing in the text.
#[test]
fn large_texts_on_huge_page_buffers() {
    let words = "escape \"this\"\nand that, ".repeat(200_000);
    let narrow = Value::array([Value::string(&words), Value::string("end")]);
    assert_eq!(json(&narrow), serde_json::to_string(&[words.as_str(), "end"]).unwrap());
    let wide_words = format!("{words}→ 中文 \u{1F600}");
    let wide = Value::array([Value::string(&words), Value::string(&wide_words), Value::Number(1.5)]);
    let expected =
        format!("[{},{},1.5]", serde_json::to_string(&words).unwrap(), serde_json::to_string(&wide_words).unwrap());
    let text = stringify_with(&mut ReferenceHost::new(), &wide, &Value::Undefined, &Value::Undefined).unwrap().unwrap();
    assert!(matches!(text, JsonText::Utf16(_)));
    assert_eq!(text.to_string_lossy(), expected);
}
