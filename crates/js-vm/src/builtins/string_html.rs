//! Annex B.2.2: the String.prototype HTML methods (`anchor`, `big`, …),
//! each a call of CreateHTML with its tag and, for four of them, an
//! attribute.

use super::method;
use crate::abstract_ops::to_string;
use crate::interpreter::CallInfo;
use crate::string::{JsString, StringBuilder};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// CreateHTML (B.2.2.2.1): `<tag attribute="value">S</tag>`, with every
/// `"` of the value written as `&quot;`.
fn create_html(vm: &mut Vm, info: &CallInfo, method: &str, tag: &str, attribute: Option<&str>) -> JsResult<Value> {
    if info.this.is_nullish() {
        return Err(vm.type_error(&format!("String.prototype.{method} called on null or undefined")));
    }
    let s = to_string(vm, info.this)?;
    // Held while the attribute value's ToString runs user code.
    vm.keep_alive(Value::string(s));
    let s = JsString::flatten(&mut vm.heap, s);
    let mut b = StringBuilder::new();
    b.push_char('<');
    push_ascii(&mut b, tag);
    if let Some(attribute) = attribute {
        let v = info.arg(vm, 0);
        let v = to_string(vm, v)?;
        let v = JsString::flatten(&mut vm.heap, v);
        b.push_char(' ');
        push_ascii(&mut b, attribute);
        push_ascii(&mut b, "=\"");
        let units: Vec<u16> = v.borrow(&vm.heap).flat().units().collect();
        for u in units {
            if u == u16::from(b'"') {
                push_ascii(&mut b, "&quot;");
            } else {
                b.push(u);
            }
        }
        b.push_char('"');
    }
    b.push_char('>');
    b.push_str(s.borrow(&vm.heap).flat());
    push_ascii(&mut b, "</");
    push_ascii(&mut b, tag);
    b.push_char('>');
    Ok(Value::string(b.finish(&mut vm.heap)))
}

fn push_ascii(b: &mut StringBuilder, text: &str) {
    for c in text.chars() {
        b.push_char(c);
    }
}

macro_rules! html_method {
    ($fn_name:ident, $name:literal, $tag:literal) => {
        fn $fn_name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
            create_html(vm, info, $name, $tag, None)
        }
    };
    ($fn_name:ident, $name:literal, $tag:literal, $attribute:literal) => {
        fn $fn_name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
            create_html(vm, info, $name, $tag, Some($attribute))
        }
    };
}

html_method!(anchor, "anchor", "a", "name");
html_method!(big, "big", "big");
html_method!(blink, "blink", "blink");
html_method!(bold, "bold", "b");
html_method!(fixed, "fixed", "tt");
html_method!(fontcolor, "fontcolor", "font", "color");
html_method!(fontsize, "fontsize", "font", "size");
html_method!(italics, "italics", "i");
html_method!(link, "link", "a", "href");
html_method!(small, "small", "small");
html_method!(strike, "strike", "strike");
html_method!(sub, "sub", "sub");
html_method!(sup, "sup", "sup");

/// Installs the HTML methods on String.prototype.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.string_prototype;
    let methods: [(&str, u32, crate::function::NativeFn); 13] = [
        ("anchor", 1, anchor),
        ("big", 0, big),
        ("blink", 0, blink),
        ("bold", 0, bold),
        ("fixed", 0, fixed),
        ("fontcolor", 1, fontcolor),
        ("fontsize", 1, fontsize),
        ("italics", 0, italics),
        ("link", 1, link),
        ("small", 0, small),
        ("strike", 0, strike),
        ("sub", 0, sub),
        ("sup", 0, sup),
    ];
    for (name, length, f) in methods {
        method(vm, proto, name, length, f);
    }
}
