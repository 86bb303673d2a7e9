use std::cell::RefCell;
use std::rc::Rc;

use crate::error::{JsonError, SyntaxError, SyntaxErrorKind};
use crate::limits::Limits;
use crate::reference::{Exception, ReferenceHost, Str, Value};
use crate::text::JsStr;

fn parse_with(text: &str, reviver: &Value, limits: Limits) -> Result<Value, Exception> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut host = ReferenceHost::new();
    let wide = super::parse(&mut host, JsStr::Utf16(&units), reviver, limits);
    // The same text stored as Latin-1, when it fits, must parse the same
    // (revivers log their calls, so they run once).
    if units.iter().all(|&unit| unit <= 0xFF) && matches!(reviver, Value::Undefined) {
        let bytes: Vec<u8> = units.iter().map(|&unit| unit as u8).collect();
        let narrow = super::parse(&mut host, JsStr::Latin1(&bytes), reviver, limits);
        assert_eq!(format!("{:?}", error_of(&narrow)), format!("{:?}", error_of(&wide)), "{text:?}");
        if let (Ok(a), Ok(b)) = (&narrow, &wide) {
            assert_eq!(to_json(a), to_json(b));
        }
    }
    wide
}

fn error_of(result: &Result<Value, Exception>) -> Option<JsonError> {
    match result {
        Err(Exception::Json(error)) => Some(*error),
        _ => None,
    }
}

fn to_json(value: &Value) -> String {
    crate::stringify(&mut ReferenceHost::new(), value, &Value::Undefined, &Value::Undefined, Limits::default())
        .unwrap()
        .map_or_else(|| "undefined".to_string(), |text| text.to_string_lossy())
}

fn parse(text: &str) -> Value {
    parse_with(text, &Value::Undefined, Limits::default()).unwrap()
}

fn syntax_error(text: &str) -> SyntaxError {
    match parse_with(text, &Value::Undefined, Limits::default()) {
        Err(Exception::Json(JsonError::Syntax(error))) => error,
        other => panic!("{text:?} gave {other:?}"),
    }
}

#[test]
fn values_round_trip() {
    for text in [
        "null",
        "true",
        "false",
        "0",
        "1.5",
        "\"\"",
        "[]",
        "{}",
        r#"{"a":[1,2,{"b":null}],"c":"d"}"#,
        r#"[[[]],[{}],{"x":[true,false]}]"#,
        "1e+21",
        "-1.2e-7",
    ] {
        assert_eq!(to_json(&parse(text)), text);
    }
    assert_eq!(to_json(&parse(" \t\n\r[ 1 , { \"a\" :\n\n  2 } ]\r\n ")), r#"[1,{"a":2}]"#);
    assert_eq!(to_json(&parse("100000000000000000000000")), "1e+23");
    assert_eq!(to_json(&parse("0.1e1")), "1");
    assert_eq!(to_json(&parse("123456789012345678")), "123456789012345680");
    assert!(matches!(parse("-0"), Value::Number(n) if n == 0.0 && n.is_sign_negative()));
    assert!(
        matches!(parse("9007199254740993"), Value::Number(n) if n.to_bits() == 9_007_199_254_740_992.0_f64.to_bits())
    );
}

#[test]
fn strings_decode_escapes_into_the_narrowest_width() {
    let text = parse(r#""a\"\\\/\b\f\n\r\t\u0041\u00e9""#);
    assert_eq!(text.as_str().unwrap(), &Str::Latin1(b"a\"\\/\x08\x0c\n\r\tA\xe9".as_slice().into()));
    assert!(matches!(parse(r#""\u2192""#).as_str().unwrap(), Str::Utf16(units) if **units == [0x2192]));
    assert!(matches!(parse(r#""\ud800x""#).as_str().unwrap(), Str::Utf16(units) if **units == [0xD800, 0x78]));
    assert!(matches!(parse("\"→\\n\"").as_str().unwrap(), Str::Utf16(units) if **units == [0x2192, 0x0A]));
    // UTF-16 source whose string fits in Latin-1 gives a Latin-1 string.
    assert!(matches!(parse("[\"→\",\"plain\"]").as_object().unwrap().elements()[1], Value::String(Str::Latin1(_))));
    let long = format!("\"{}\\n{}\"", "x".repeat(100), "é".repeat(100));
    assert_eq!(parse(&long).as_str().unwrap().to_string_lossy(), format!("{}\n{}", "x".repeat(100), "é".repeat(100)));
}

#[test]
fn proto_is_an_ordinary_key_and_the_last_duplicate_wins() {
    let value = parse(r#"{"__proto__":1,"a":1,"b":2,"a":3,"2":0,"1":0}"#);
    assert_eq!(to_json(&value), r#"{"1":0,"2":0,"__proto__":1,"a":3,"b":2}"#);
}

#[test]
fn syntax_errors_say_what_and_where() {
    use SyntaxErrorKind::*;
    for (text, kind, position) in [
        ("", UnexpectedEnd, 0),
        ("   ", UnexpectedEnd, 3),
        ("[1,]", UnexpectedCharacter(u16::from(b']')), 3),
        ("{\"a\" 1}", UnexpectedCharacter(u16::from(b'1')), 5),
        ("{\"a\":1,}", UnexpectedCharacter(u16::from(b'}')), 7),
        ("{a:1}", UnexpectedCharacter(u16::from(b'a')), 1),
        ("[1 2]", UnexpectedCharacter(u16::from(b'2')), 3),
        ("tru", UnexpectedEnd, 3),
        ("nulL", UnexpectedCharacter(u16::from(b'L')), 3),
        ("1 2", TrailingCharacters, 2),
        ("01", TrailingCharacters, 1),
        ("-", UnexpectedEnd, 1),
        ("-a", InvalidNumber, 1),
        ("1.", UnexpectedEnd, 2),
        ("1.e5", InvalidNumber, 2),
        ("1e", UnexpectedEnd, 2),
        ("1e+x", InvalidNumber, 3),
        (".5", UnexpectedCharacter(u16::from(b'.')), 0),
        ("+1", UnexpectedCharacter(u16::from(b'+')), 0),
        ("\"abc", UnterminatedString, 4),
        ("\"a\nb\"", ControlCharacterInString, 2),
        ("\"\\x\"", InvalidEscape, 2),
        ("\"\\u12G4\"", InvalidEscape, 5),
        ("\"\\", UnterminatedString, 2),
        ("[", UnexpectedEnd, 1),
        ("{\"a\":1", UnexpectedEnd, 6),
        ("\u{2192}", UnexpectedCharacter(0x2192), 0),
        ("'a'", UnexpectedCharacter(u16::from(b'\'')), 0),
        ("[NaN]", UnexpectedCharacter(u16::from(b'N')), 1),
        ("\u{a0}1", UnexpectedCharacter(0xA0), 0),
    ] {
        assert_eq!(syntax_error(text), SyntaxError { kind, position }, "{text:?}");
    }
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn nesting_is_limited_not_recursive() {
    assert_eq!(to_json(&parse(&nested(3_000))), nested(3_000));
    let deep = nested(1_000_000);
    let error = error_of(&parse_with(&deep, &Value::Undefined, Limits::default()));
    assert_eq!(error, Some(JsonError::TooDeep { limit: Limits::DEFAULT_MAX_DEPTH }));
    let limits = Limits { max_depth: 3 };
    assert!(parse_with(&nested(3), &Value::Undefined, limits).is_ok());
    assert!(parse_with("{\"a\":{\"b\":[1]}}", &Value::Undefined, limits).is_ok());
    let error = error_of(&parse_with("{\"a\":{\"b\":[[1]]}}", &Value::Undefined, limits));
    assert_eq!(error, Some(JsonError::TooDeep { limit: 3 }));
}

/// A reviver that logs `key=value source` for each call and applies `f`.
fn logging_reviver(log: &Rc<RefCell<Vec<String>>>, f: fn(&str, &Value) -> Value) -> Value {
    let log = Rc::clone(log);
    Value::function(move |_, _, args| {
        let key = args[0].as_str().unwrap().to_string_lossy();
        let context = args[2].as_object().unwrap();
        let source = match context.own_property(&Str::from("source")) {
            Some(crate::reference::Property::Data(Value::String(source))) => source.to_string_lossy(),
            _ => "-".to_string(),
        };
        log.borrow_mut().push(format!("{key}={} {source}", to_json(&args[1])));
        Ok(f(&key, &args[1]))
    })
}

#[test]
fn reviver_walks_after_members_with_source_text() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let reviver = logging_reviver(&log, |_, value| value.clone());
    let value =
        parse_with(r#"{"a": [1.0, "x\u0041", true], "b": {"c": null, "d": -0}}"#, &reviver, Limits::default()).unwrap();
    assert_eq!(to_json(&value), r#"{"a":[1,"xA",true],"b":{"c":null,"d":0}}"#);
    assert_eq!(
        *log.borrow(),
        [
            "0=1 1.0",
            "1=\"xA\" \"x\\u0041\"",
            "2=true true",
            "a=[1,\"xA\",true] -",
            "c=null null",
            "d=0 -0",
            "b={\"c\":null,\"d\":0} -",
            "={\"a\":[1,\"xA\",true],\"b\":{\"c\":null,\"d\":0}} -",
        ]
    );
}

#[test]
fn reviver_deletes_on_undefined_and_replaces_otherwise() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let reviver = logging_reviver(&log, |key, value| match (key, value) {
        ("drop" | "1", _) => Value::Undefined,
        (_, Value::Number(n)) => Value::from(n * 2.0),
        _ => value.clone(),
    });
    let value = parse_with(r#"{"keep":1,"drop":2,"list":[3,4,5]}"#, &reviver, Limits::default()).unwrap();
    assert_eq!(to_json(&value), r#"{"keep":2,"list":[6,null,10]}"#);
    let top = parse_with("7", &reviver, Limits::default()).unwrap();
    assert!(matches!(top, Value::Number(n) if n.to_bits() == 14.0_f64.to_bits()));
}

#[test]
fn source_is_withheld_once_the_value_changed() {
    let log = Rc::new(RefCell::new(Vec::new()));
    // Replacing an element changes nothing for its siblings' sources; the
    // containers never have one.
    let reviver = logging_reviver(&log, |key, value| if key == "0" { Value::from(9.0) } else { value.clone() });
    parse_with("[[1, 2], 3]", &reviver, Limits::default()).unwrap();
    assert_eq!(*log.borrow(), ["0=1 1", "1=2 2", "0=[9,2] -", "1=3 3", "=[9,3] -"]);

    // A getter-free mutation: the reviver for "a" overwrites "b" in the
    // holder before "b" is visited, so "b" gets no source.
    let log = Rc::new(RefCell::new(Vec::new()));
    let writer = {
        let log = Rc::clone(&log);
        Value::function(move |host, this, args| {
            use crate::host::{JsonHost, PropertyKey};
            let key = args[0].as_str().unwrap().to_string_lossy();
            if key == "a" {
                host.create_data_property(this, &PropertyKey::String(Value::from("b")), Value::from(2.0))?;
            }
            let context = args[2].as_object().unwrap();
            log.borrow_mut().push(format!("{key}:{}", context.properties().len()));
            Ok(args[1].clone())
        })
    };
    parse_with(r#"{"a":1,"b":2}"#, &writer, Limits::default()).unwrap();
    // 2 === 2 by SameValue, so "b" keeps its source even though it was
    // rewritten; the root object has no source.
    assert_eq!(*log.borrow(), ["a:1", "b:1", ":0"]);
}

#[test]
fn duplicate_keys_give_the_source_of_the_last() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let reviver = logging_reviver(&log, |_, value| value.clone());
    parse_with(r#"{"a":1,"a":1.0}"#, &reviver, Limits::default()).unwrap();
    assert_eq!(log.borrow()[0], "a=1 1.0");
    // Large objects use a key map for the same lookup.
    let log = Rc::new(RefCell::new(Vec::new()));
    let reviver = logging_reviver(&log, |_, value| value.clone());
    let members: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
    parse_with(&format!("{{{},\"k3\":3.0}}", members.join(",")), &reviver, Limits::default()).unwrap();
    assert!(log.borrow().contains(&"k3=3 3.0".to_string()));
}

#[test]
fn raw_json_validation() {
    use SyntaxErrorKind::*;
    let check = |text: &str| super::validate_raw_json(JsStr::Latin1(text.as_bytes())).map_err(|error| error.kind);
    for good in ["1", "-0.5e3", "\"a\\n\"", "true", "false", "null"] {
        assert_eq!(check(good), Ok(()), "{good}");
    }
    assert_eq!(check(""), Err(RawJsonWhitespace));
    assert_eq!(check("\t1"), Err(RawJsonWhitespace));
    assert_eq!(check("1\n"), Err(RawJsonWhitespace));
    assert_eq!(check("{}"), Err(RawJsonNotPrimitive));
    assert_eq!(check("[]"), Err(RawJsonNotPrimitive));
    assert_eq!(check("1 2"), Err(TrailingCharacters));
    assert_eq!(check("undefined"), Err(UnexpectedCharacter(u16::from(b'u'))));
    let wide: Vec<u16> = "\"→\"".encode_utf16().collect();
    assert_eq!(super::validate_raw_json(JsStr::Utf16(&wide)), Ok(()));
}
