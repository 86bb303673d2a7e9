use super::{Class, Property, ReferenceHost, Str, Value};
use crate::host::{JsonHost, Kind, ObjectClass, Plain, PropertyKey};
use crate::text::JsStr;

#[test]
fn strings_take_the_narrowest_width() {
    assert_eq!(Str::from("café"), Str::Latin1(b"caf\xe9".as_slice().into()));
    assert!(matches!(Str::from("→"), Str::Utf16(_)));
    assert_eq!(Str::from_utf16(&[0x41, 0xFF]), Str::from_latin1(b"A\xff"));
    assert_eq!(Str::from("4294967294").array_index(), Some(4_294_967_294));
    for not_index in ["4294967295", "01", "", "-1", "1.0", "a"] {
        assert_eq!(Str::from(not_index).array_index(), None, "{not_index}");
    }
}

#[test]
fn properties_keep_spec_order_and_first_position() {
    let object = Value::object([("b", Value::Null), ("10", Value::Null), ("a", Value::Null), ("9", Value::Null)]);
    object.as_object().unwrap().set("b", Value::from(1.0));
    let mut host = ReferenceHost::new();
    let keys: Vec<String> =
        host.enumerable_own_keys(&object).unwrap().iter().map(|key| key.as_str().unwrap().to_string_lossy()).collect();
    assert_eq!(keys, ["9", "10", "b", "a"]);
    let b = host.get(&object, &PropertyKey::String(Value::from("b"))).unwrap();
    assert!(matches!(b, Value::Number(n) if n.to_bits() == 1.0_f64.to_bits()));
    object.as_object().unwrap().delete(&Str::from("9"));
    assert_eq!(host.plain(&object), Some(Plain::Object(3)));
    assert!(matches!(host.plain_entry(&object, 0).0, Some(Value::String(key)) if key == Str::from("10")));
}

#[test]
fn plain_excludes_what_needs_the_general_path() {
    let host = ReferenceHost::new();
    let with_getter = Value::object([]);
    with_getter.as_object().unwrap().define_getter("g", |_, _, _| Ok(Value::Null));
    let with_to_json = Value::object([("toJSON", Value::Null)]);
    assert_eq!(host.plain(&with_getter), None);
    assert_eq!(host.plain(&with_to_json), None);
    assert_eq!(host.plain(&Value::with_class(Class::Number(1.0))), None);
    assert_eq!(host.plain(&Value::array([Value::Null])), Some(Plain::Array(1)));
    assert_eq!(host.object_class(&Value::with_class(Class::Boolean(true))), ObjectClass::Boolean(true));
    assert_eq!(host.kind(&Value::function(|_, _, _| Ok(Value::Null))), Kind::Callable);
}

#[test]
fn same_value_distinguishes_zeros_and_equates_nans() {
    let host = ReferenceHost::new();
    assert!(host.same_value(&Value::from(f64::NAN), &Value::from(f64::NAN)));
    assert!(!host.same_value(&Value::from(0.0), &Value::from(-0.0)));
    assert!(host.same_value(&Value::from("a"), &Value::from("a")));
    assert!(!host.same_value(&Value::object([]), &Value::object([])));
}

#[test]
fn arrays_grow_and_read_length() {
    let mut host = ReferenceHost::new();
    let array = Value::array([]);
    host.create_data_property(&array, &PropertyKey::Index(2), Value::from(1.0)).unwrap();
    assert_eq!(host.length_of_array_like(&array).unwrap(), 3);
    let length = host.get(&array, &PropertyKey::String(Value::from("length"))).unwrap();
    assert!(matches!(length, Value::Number(n) if n.to_bits() == 3.0_f64.to_bits()));
    assert!(matches!(array.as_object().unwrap().own_property(&Str::from("2")), Some(Property::Data(_))));
    let text = host.create_string(JsStr::Utf16(&[0x41]));
    assert_eq!(host.string(&text), JsStr::Latin1(b"A"));
}

#[test]
fn dropping_a_million_deep_tree_does_not_recurse() {
    let mut value = Value::array([]);
    for _ in 0..1_000_000 {
        value = Value::object([("a", value)]);
    }
    drop(value);
}
