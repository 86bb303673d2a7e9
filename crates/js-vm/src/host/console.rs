//! `console.log` / `console.error` with Node's formatting of values
//! (`util.inspect` with its defaults: depth 2, break length 80, arrays of
//! more than six short items grouped into columns).

use js_gc::Gc;

use crate::abstract_ops::number_to_string;
use crate::builtins::{method, value_property};
use crate::function::Function;
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{get, get_own_property};
use crate::object::{Attributes, JsObject, ObjectKind, PropertyKey};
use crate::value::{Value, ValueType};
use crate::vm::{JsResult, Vm};

const MAX_DEPTH: usize = 2;
const BREAK_LENGTH: usize = 80;
const MAX_ARRAY_ITEMS: usize = 100;

/// Formats `console.log` arguments as Node does: strings print raw, other
/// values through inspect, separated by spaces.
pub fn format_log_arguments(vm: &mut Vm, args: &[Value]) -> JsResult<String> {
    let mut parts = Vec::with_capacity(args.len());
    for &a in args {
        if let Some(s) = a.as_string() {
            parts.push(crate::interpreter::string_text(vm, s));
        } else {
            parts.push(inspect(vm, a)?);
        }
    }
    Ok(parts.join(" "))
}

/// `util.inspect(value)` with Node's defaults.
pub fn inspect(vm: &mut Vm, v: Value) -> JsResult<String> {
    let mut seen = Vec::new();
    inspect_value(vm, v, 0, &mut seen, 0)
}

fn quote_string(s: &str) -> String {
    let quote = if !s.contains('\'') {
        '\''
    } else if !s.contains('"') {
        '"'
    } else if !s.contains('`') {
        '`'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7F => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

fn key_text(vm: &mut Vm, key: PropertyKey) -> String {
    match key {
        PropertyKey::Index(i) => format!("'{i}'"),
        PropertyKey::String(s) => {
            let t = crate::interpreter::string_text(vm, s);
            if is_identifier(&t) { t } else { quote_string(&t) }
        }
        PropertyKey::Symbol(s) => format!("[{}]", crate::builtins::symbol::descriptive_string(vm, s)),
    }
}

fn function_name(vm: &mut Vm, o: Gc<JsObject>) -> JsResult<String> {
    let key = PropertyKey::String(vm.names.name);
    let name = get(vm, o, key, Value::object(o))?;
    Ok(match name.as_string() {
        Some(s) => crate::interpreter::string_text(vm, s),
        None => String::new(),
    })
}

fn inspect_value(vm: &mut Vm, v: Value, depth: usize, seen: &mut Vec<Gc<JsObject>>, indent: usize) -> JsResult<String> {
    match v.value_type() {
        ValueType::Undefined => Ok("undefined".to_owned()),
        ValueType::Null => Ok("null".to_owned()),
        ValueType::Boolean => Ok(if v == Value::TRUE { "true" } else { "false" }.to_owned()),
        ValueType::Number => {
            let n = v.as_number().unwrap_or(f64::NAN);
            Ok(if n == 0.0 && n.is_sign_negative() { "-0".to_owned() } else { number_to_string(n) })
        }
        ValueType::String => {
            let s = v.as_string().map(|s| crate::interpreter::string_text(vm, s)).unwrap_or_default();
            Ok(quote_string(&s))
        }
        ValueType::Symbol => {
            Ok(v.as_symbol().map(|s| crate::builtins::symbol::descriptive_string(vm, s)).unwrap_or_default())
        }
        ValueType::Object => match v.as_object() {
            Some(o) => inspect_object(vm, o, depth, seen, indent),
            None => Ok(String::new()),
        },
    }
}

/// The own enumerable string keys and symbol keys to show.
fn shown_keys(vm: &mut Vm, o: Gc<JsObject>, skip_indices: bool) -> Vec<PropertyKey> {
    let keys = crate::object::internal_methods::own_property_keys(vm, o);
    keys.into_iter()
        .filter(|k| !(skip_indices && matches!(k, PropertyKey::Index(_))))
        .filter(|k| get_own_property(vm, o, *k).is_some_and(|d| d.enumerable == Some(true)))
        .collect()
}

fn property_entry(
    vm: &mut Vm,
    o: Gc<JsObject>,
    key: PropertyKey,
    depth: usize,
    seen: &mut Vec<Gc<JsObject>>,
    indent: usize,
) -> JsResult<String> {
    let name = key_text(vm, key);
    let desc = get_own_property(vm, o, key).unwrap_or_default();
    if desc.is_accessor() {
        let getter = desc.get.is_some_and(|g| !g.is_undefined());
        let setter = desc.set.is_some_and(|s| !s.is_undefined());
        let text = match (getter, setter) {
            (true, true) => "[Getter/Setter]",
            (true, false) => "[Getter]",
            _ => "[Setter]",
        };
        return Ok(format!("{name}: {text}"));
    }
    let value = desc.value.unwrap_or_default();
    let text = inspect_value(vm, value, depth + 1, seen, indent + 2)?;
    Ok(format!("{name}: {text}"))
}

fn inspect_object(
    vm: &mut Vm,
    o: Gc<JsObject>,
    depth: usize,
    seen: &mut Vec<Gc<JsObject>>,
    indent: usize,
) -> JsResult<String> {
    if seen.contains(&o) {
        return Ok("[Circular *1]".to_owned());
    }
    let kind_tag = match &o.borrow(&vm.heap).kind {
        ObjectKind::Array { .. } => Kind::Array,
        ObjectKind::Function(f) => {
            let is_class = match f {
                Function::Closure(c) => {
                    matches!(c.code.borrow(&vm.heap).kind, crate::bytecode::CodeKind::ClassConstructor { .. })
                }
                _ => false,
            };
            Kind::Function { is_class }
        }
        ObjectKind::Error => Kind::Error,
        ObjectKind::Boolean(b) => {
            Kind::Boxed(if *b { "[Boolean: true]".to_owned() } else { "[Boolean: false]".to_owned() })
        }
        ObjectKind::Number(n) => Kind::Boxed(format!("[Number: {}]", number_to_string(*n))),
        ObjectKind::String(s) => {
            let s = *s;
            let text = crate::interpreter::string_text(vm, s);
            Kind::Boxed(format!("[String: {}]", quote_string(&text)))
        }
        ObjectKind::Symbol(s) => {
            let s = *s;
            Kind::Boxed(format!("[Symbol: {}]", crate::builtins::symbol::descriptive_string(vm, s)))
        }
        ObjectKind::Arguments => Kind::Arguments,
        _ => Kind::Object,
    };
    if let Kind::Error = kind_tag {
        let key = PropertyKey::String(vm.names.stack);
        let stack = get(vm, o, key, Value::object(o))?;
        if let Some(s) = stack.as_string() {
            return Ok(crate::interpreter::string_text(vm, s));
        }
        let info = CallInfo { callee: o, this: Value::object(o), new_target: None, args_base: vm.stack.len(), argc: 0 };
        let text = crate::builtins::error::error_to_string_value(vm, &info)?;
        return Ok(format!("[{text}]"));
    }
    seen.push(o);
    let result = inspect_object_body(vm, o, kind_tag, depth, seen, indent);
    seen.pop();
    result
}

enum Kind {
    Array,
    Arguments,
    Function { is_class: bool },
    Error,
    Boxed(String),
    Object,
}

fn constructor_name(vm: &mut Vm, o: Gc<JsObject>) -> JsResult<Option<String>> {
    let mut p = o.borrow(&vm.heap).proto;
    while let Some(proto) = p {
        let key = PropertyKey::String(vm.names.constructor);
        if let Some(desc) = get_own_property(vm, proto, key) {
            if let Some(c) = desc.value.and_then(Value::as_object) {
                let name = function_name(vm, c)?;
                if !name.is_empty() {
                    return Ok(Some(name));
                }
            }
        }
        p = proto.borrow(&vm.heap).proto;
    }
    Ok(None)
}

fn inspect_object_body(
    vm: &mut Vm,
    o: Gc<JsObject>,
    kind: Kind,
    depth: usize,
    seen: &mut Vec<Gc<JsObject>>,
    indent: usize,
) -> JsResult<String> {
    let mut entries = Vec::new();
    let mut prefix = String::new();
    let (open, close) = match &kind {
        Kind::Array | Kind::Arguments => ("[", "]"),
        _ => ("{", "}"),
    };
    let is_array = matches!(kind, Kind::Array | Kind::Arguments);
    let mut extra_keys_only = false;
    match &kind {
        Kind::Array | Kind::Arguments => {
            if let Kind::Arguments = kind {
                prefix = "[Arguments] ".to_owned();
            }
            if depth > MAX_DEPTH {
                return Ok("[Array]".to_owned());
            }
            let len = crate::object::internal_methods::length_of_array_like(vm, o)? as usize;
            let mut holes = 0;
            let shown = len.min(MAX_ARRAY_ITEMS);
            for i in 0..shown {
                let key = PropertyKey::Index(i as u32);
                if get_own_property(vm, o, key).is_none() {
                    holes += 1;
                    continue;
                }
                if holes > 0 {
                    entries.push(format!("<{holes} empty item{}>", if holes == 1 { "" } else { "s" }));
                    holes = 0;
                }
                let v = get(vm, o, key, Value::object(o))?;
                entries.push(inspect_value(vm, v, depth + 1, seen, indent + 2)?);
            }
            if holes > 0 {
                entries.push(format!("<{holes} empty item{}>", if holes == 1 { "" } else { "s" }));
            }
            if len > shown {
                let more = len - shown;
                entries.push(format!("... {more} more item{}", if more == 1 { "" } else { "s" }));
            }
        }
        Kind::Function { is_class } => {
            let name = function_name(vm, o)?;
            prefix = match (is_class, name.is_empty()) {
                (true, true) => "[class (anonymous)]".to_owned(),
                (true, false) => format!("[class {name}]"),
                (false, true) => "[Function (anonymous)]".to_owned(),
                (false, false) => format!("[Function: {name}]"),
            };
            extra_keys_only = true;
        }
        Kind::Boxed(text) => {
            prefix.clone_from(text);
            extra_keys_only = true;
        }
        Kind::Error | Kind::Object => match constructor_name(vm, o)? {
            Some(name) if name != "Object" => prefix = format!("{name} "),
            None => prefix = "[Object: null prototype] ".to_owned(),
            _ => {}
        },
    }
    let keys = shown_keys(vm, o, is_array);
    if extra_keys_only && keys.is_empty() {
        return Ok(prefix);
    }
    if depth > MAX_DEPTH && !keys.is_empty() {
        let name = prefix.trim_end();
        return Ok(if name.is_empty() { "[Object]".to_owned() } else { format!("[{name}]") });
    }
    for key in keys {
        entries.push(property_entry(vm, o, key, depth, seen, indent)?);
    }
    let prefix = if extra_keys_only { format!("{prefix} ") } else { prefix };
    if entries.is_empty() {
        return Ok(format!("{prefix}{open}{close}"));
    }
    let entries = if is_array && entries.len() > 6 { group_array_elements(&entries) } else { entries };
    let total: usize = entries.iter().map(|e| e.len()).sum::<usize>() + entries.len();
    let start = prefix.len() + indent + open.len() + 10;
    if total + start <= BREAK_LENGTH && !entries.iter().any(|e| e.contains('\n')) {
        return Ok(format!("{prefix}{open} {} {close}", entries.join(", ")));
    }
    let pad = " ".repeat(indent + 2);
    let body = entries.join(&format!(",\n{pad}"));
    Ok(format!("{prefix}{open}\n{pad}{body}\n{}{close}", " ".repeat(indent)))
}

/// Node's `groupArrayElements`: arranges many short items in aligned
/// columns.
fn group_array_elements(entries: &[String]) -> Vec<String> {
    let output_len = entries.len();
    let separator_space = 2;
    let lengths: Vec<usize> = entries.iter().map(|e| e.chars().count()).collect();
    let data_len: Vec<usize> = lengths.iter().map(|l| l + separator_space).collect();
    let max_length = data_len.iter().copied().max().unwrap_or(0);
    let total_length: usize = data_len.iter().sum();
    let actual_max = max_length;
    if actual_max * 3 + 2 >= BREAK_LENGTH || (total_length / actual_max <= 5 && output_len <= 6) {
        return entries.to_vec();
    }
    let approx_chars_heights = 2.5;
    let average_bias = (actual_max as f64 - total_length as f64 / output_len as f64).sqrt();
    let bias_factor = (average_bias).max(1.0);
    let columns = ((approx_chars_heights * bias_factor * output_len as f64).sqrt() / bias_factor)
        .round()
        .min(((BREAK_LENGTH - 2) as f64 / actual_max as f64).floor())
        .min(4.0 * approx_chars_heights)
        .min(15.0) as usize;
    if columns <= 1 {
        return entries.to_vec();
    }
    let mut max_line_length = Vec::with_capacity(columns);
    for i in 0..columns {
        let mut line_length = 0;
        let mut j = i;
        while j < output_len {
            line_length = line_length.max(data_len[j]);
            j += columns;
        }
        max_line_length.push(line_length + separator_space);
    }
    let numeric = entries.iter().all(|e| e.parse::<f64>().is_ok() || e == "NaN" || e.ends_with("Infinity"));
    let mut grouped = Vec::new();
    let mut i = 0;
    while i < output_len {
        let max = (i + columns).min(output_len);
        let mut line = String::new();
        for j in i..max - 1 {
            let padding = max_line_length[j - i] + entries[j].len() - lengths[j];
            let cell = format!("{}, ", entries[j]);
            if numeric {
                line.push_str(&format!("{cell:>width$}", width = padding));
            } else {
                line.push_str(&format!("{cell:<width$}", width = padding));
            }
        }
        let last = &entries[max - 1];
        if numeric {
            let padding = max_line_length[max - 1 - i] + last.len() - lengths[max - 1] - separator_space;
            line.push_str(&format!("{last:>padding$}"));
        } else {
            line.push_str(last);
        }
        grouped.push(line);
        i += columns;
    }
    grouped
}

fn log(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let args = info.args(vm);
    let line = format_log_arguments(vm, &args)?;
    vm.console.log(&line);
    Ok(Value::UNDEFINED)
}

fn error(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let args = info.args(vm);
    let line = format_log_arguments(vm, &args)?;
    vm.console.error(&line);
    Ok(Value::UNDEFINED)
}

/// Installs `console`.
pub(crate) fn install(vm: &mut Vm) {
    let console = vm.new_plain_object();
    for name in ["log", "info", "debug"] {
        method(vm, console, name, 0, log);
    }
    for name in ["error", "warn", "trace"] {
        method(vm, console, name, 0, error);
    }
    let global = vm.realm.global;
    value_property(vm, global, "console", Value::object(console), Attributes::METHOD);
}
