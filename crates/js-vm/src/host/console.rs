//! `console.log` / `console.error` with Node's formatting of values
//! (`util.inspect` with its defaults: depth 2, break length 80, arrays of
//! more than six short items grouped into columns).

use std::fmt::Write as _;

use js_gc::{Gc, GcAny};

use crate::abstract_ops::number_to_string;
use crate::builtins::{method, value_property};
use crate::function::Function;
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{get, ordinary_get_own_property as get_own_property};
use crate::object::{Attributes, JsObject, KindData, ObjectKind, PropertyKey};
use crate::value::{Value, ValueType};
use crate::vm::{JsResult, Vm};

const MAX_DEPTH: usize = 2;
const BREAK_LENGTH: usize = 80;
const MAX_ARRAY_ITEMS: usize = 100;

/// The console hook of a kind another module owns, which that module stores
/// type-erased in its class's [`DataClass::inspect`](crate::object::DataClass):
/// given the kind's slots cell, how the object shows.
pub(crate) type InspectHook = fn(&Vm, GcAny) -> Inspection;

/// What a kind's [`InspectHook`] reports; the console shows its own
/// properties after it.
pub(crate) enum Inspection {
    /// Shown like an array, with an element-type tag when the constructor
    /// is a subclass (a typed array's `Uint8Array`).
    Indexed(&'static str),
    /// A Map (`is_map`) or Set with its entries in order.
    Collection {
        /// Whether keys map to values.
        is_map: bool,
        /// The entries (a Set's values are `undefined`).
        entries: Vec<(Value, Value)>,
    },
    /// A WeakMap or WeakSet, whose entries are not shown: its tag.
    Weak(&'static str),
    /// A binary-data object: a leading line (an ArrayBuffer's contents) and
    /// accessors of its prototype shown as properties.
    Binary {
        /// A line shown first (`[Uint8Contents]: <…>`).
        contents: Option<String>,
        /// Accessor names read and shown as `name: value`.
        accessors: &'static [&'static str],
    },
}

/// Node's `[Uint8Contents]` line for `bytes` (`None`: a detached buffer).
pub(crate) fn uint8_contents(bytes: Option<&[u8]>) -> String {
    match bytes {
        Some(bytes) => {
            let shown: Vec<String> = bytes.iter().take(MAX_ARRAY_ITEMS).map(|b| format!("{b:02x}")).collect();
            let more = match bytes.len().saturating_sub(MAX_ARRAY_ITEMS) {
                0 => String::new(),
                1 => " ... 1 more byte".to_owned(),
                n => format!(" ... {n} more bytes"),
            };
            format!("[Uint8Contents]: <{}{more}>", shown.join(" "))
        }
        None => "(detached)".to_owned(),
    }
}

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
    let mut ctx = Inspector { seen: Vec::new(), indentation: 0, current_depth: 0 };
    format_value(vm, &mut ctx, v, 0)
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
            c if (c as u32) < 0x20 || c as u32 == 0x7F => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
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
            if t == "__proto__" {
                "['__proto__']".to_owned()
            } else if is_identifier(&t) {
                t
            } else {
                quote_string(&t)
            }
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

/// Formatting state, as Node's `ctx`: the indentation of the value being
/// formatted and the depth of the most recently formatted object.
struct Inspector {
    seen: Vec<Gc<JsObject>>,
    indentation: usize,
    current_depth: usize,
}

/// The length Node measures: UTF-16 code units.
fn js_len(s: &str) -> usize {
    s.encode_utf16().count()
}

fn format_value(vm: &mut Vm, ctx: &mut Inspector, v: Value, depth: usize) -> JsResult<String> {
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
        ValueType::BigInt => Ok(v.as_bigint().map(|b| format!("{}n", b.borrow(&vm.heap).value())).unwrap_or_default()),
        ValueType::Object => match v.as_object() {
            // Node shows a proxy as its target (no trap runs).
            Some(o) => match crate::object::proxy::innermost_target(vm, o) {
                Some(o) => format_object(vm, ctx, o, depth),
                None => Ok("<Revoked Proxy>".to_owned()),
            },
            None => Ok(String::new()),
        },
    }
}

/// The own enumerable keys to show (indices excluded for arrays and
/// String objects, which show them otherwise).
fn shown_keys(vm: &mut Vm, o: Gc<JsObject>, skip_indices: bool) -> Vec<PropertyKey> {
    let keys = o.borrow(&vm.heap).own_keys(&vm.heap);
    keys.into_iter()
        .filter(|k| !(skip_indices && matches!(k, PropertyKey::Index(_))))
        .filter(|k| get_own_property(vm, o, *k).is_some_and(|d| d.enumerable == Some(true)))
        .collect()
}

fn format_property(
    vm: &mut Vm,
    ctx: &mut Inspector,
    o: Gc<JsObject>,
    key: PropertyKey,
    depth: usize,
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
    ctx.indentation += 2;
    let text = format_value(vm, ctx, desc.value.unwrap_or_default(), depth + 1);
    ctx.indentation -= 2;
    Ok(format!("{name}: {}", text?))
}

enum Kind {
    /// An array, or an indexed kind with its element-type tag.
    Array(&'static str),
    Arguments,
    Function {
        is_class: bool,
    },
    Error,
    Boxed(String),
    /// A Map or Set: `(is_map, entries)`.
    Collection(bool, Vec<(Value, Value)>),
    /// A promise: its state and result.
    Promise(js_promise::PromiseStatus, Value),
    /// A WeakMap or WeakSet, whose entries are not shown.
    Weak(&'static str),
    /// A binary-data object: a leading line and accessors to show.
    Binary(Option<String>, &'static [&'static str]),
    Object,
}

/// The kind of an object whose slots another module owns, from its hook.
fn data_kind(vm: &Vm, data: KindData) -> Kind {
    let Some(hook) = data.class().inspect.and_then(|h| h.downcast_ref::<InspectHook>()) else {
        return Kind::Object;
    };
    match hook(vm, data.cell()) {
        Inspection::Indexed(tag) => Kind::Array(tag),
        Inspection::Collection { is_map, entries } => Kind::Collection(is_map, entries),
        Inspection::Weak(tag) => Kind::Weak(tag),
        Inspection::Binary { contents, accessors } => Kind::Binary(contents, accessors),
    }
}

fn constructor_name(vm: &mut Vm, o: Gc<JsObject>) -> JsResult<Option<String>> {
    let mut p = o.borrow(&vm.heap).proto;
    while let Some(proto) = p {
        let key = PropertyKey::String(vm.names.constructor);
        if let Some(desc) = get_own_property(vm, proto, key)
            && let Some(c) = desc.value.and_then(Value::as_object)
        {
            let name = function_name(vm, c)?;
            if !name.is_empty() {
                return Ok(Some(name));
            }
        }
        p = proto.borrow(&vm.heap).proto;
    }
    Ok(None)
}

fn kind_of(vm: &mut Vm, o: Gc<JsObject>) -> Kind {
    match &o.borrow(&vm.heap).kind {
        ObjectKind::Array { .. } => Kind::Array(""),
        ObjectKind::Function(f) => {
            let is_class = match f {
                Function::Closure(c) => {
                    matches!(c.code.borrow(&vm.heap).kind, crate::bytecode::CodeKind::ClassConstructor { .. })
                }
                _ => false,
            };
            Kind::Function { is_class }
        }
        ObjectKind::Error { .. } => Kind::Error,
        ObjectKind::Boolean(b) => {
            Kind::Boxed(if *b { "[Boolean: true]".to_owned() } else { "[Boolean: false]".to_owned() })
        }
        ObjectKind::Number(n) => {
            let n = *n;
            Kind::Boxed(format!(
                "[Number: {}]",
                if n == 0.0 && n.is_sign_negative() { "-0".to_owned() } else { number_to_string(n) }
            ))
        }
        ObjectKind::String(s) => {
            let s = *s;
            let text = crate::interpreter::string_text(vm, s);
            Kind::Boxed(format!("[String: {}]", quote_string(&text)))
        }
        ObjectKind::Symbol(s) => {
            let s = *s;
            Kind::Boxed(format!("[Symbol: {}]", crate::builtins::symbol::descriptive_string(vm, s)))
        }
        ObjectKind::BigInt(b) => Kind::Boxed(format!("[BigInt: {}n]", b.borrow(&vm.heap).value())),
        ObjectKind::Date(t) => Kind::Boxed(crate::builtins::date::console_text(*t)),
        ObjectKind::Arguments | ObjectKind::MappedArguments { .. } => Kind::Arguments,
        ObjectKind::Promise(state) => Kind::Promise(state.status(), state.result().unwrap_or_default()),
        ObjectKind::Data(data) => {
            let data = *data;
            data_kind(vm, data)
        }
        _ => Kind::Object,
    }
}

/// The `[Function: f]` / `[class A extends B]` base of a function.
fn function_base(vm: &mut Vm, o: Gc<JsObject>, is_class: bool) -> JsResult<String> {
    let name = function_name(vm, o)?;
    if !is_class {
        return Ok(if name.is_empty() { "[Function (anonymous)]".to_owned() } else { format!("[Function: {name}]") });
    }
    let mut base = if name.is_empty() { "[class (anonymous)".to_owned() } else { format!("[class {name}") };
    let parent = o.borrow(&vm.heap).proto;
    if let Some(p) = parent.filter(|p| *p != vm.realm.intrinsics.function_prototype) {
        let parent_name = function_name(vm, p)?;
        if !parent_name.is_empty() {
            base.push_str(" extends ");
            base.push_str(&parent_name);
        }
    }
    base.push(']');
    Ok(base)
}

fn format_object(vm: &mut Vm, ctx: &mut Inspector, o: Gc<JsObject>, depth: usize) -> JsResult<String> {
    if ctx.seen.contains(&o) {
        return Ok("[Circular *1]".to_owned());
    }
    let kind = kind_of(vm, o);
    if let Kind::Error = kind {
        let key = PropertyKey::String(vm.names.stack);
        let stack = get(vm, o, key, Value::object(o))?;
        if let Some(s) = stack.as_string() {
            return Ok(crate::interpreter::string_text(vm, s));
        }
        let info = CallInfo {
            callee: o,
            this: Value::object(o),
            new_target: None,
            args_base: vm.stack.registers.len(),
            argc: 0,
        };
        let text = crate::builtins::error::error_to_string_value(vm, &info)?;
        return Ok(format!("[{text}]"));
    }
    // Formatting runs user code (`name` getters, array index getters), and
    // `o` may be a fresh value a getter returned, and a collection's
    // snapshot values may be removed from the table by that code: all are
    // kept alive while `o` is formatted (and released after, as inspect
    // also runs outside native calls, for uncaught errors).
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.push(Value::object(o));
    if let Kind::Collection(_, entries) = &kind {
        vm.stack.temp_roots.extend(entries.iter().flat_map(|&(k, v)| [k, v]));
    }
    ctx.seen.push(o);
    let result = format_raw(vm, ctx, o, &kind, depth);
    ctx.seen.pop();
    vm.stack.temp_roots.truncate(mark);
    result
}

/// The kind-specific part of one object's formatting: what goes before
/// the braces, the braces, and the entries before the own properties.
struct Braces {
    base: String,
    open: String,
    close: &'static str,
    output: Vec<String>,
}

impl Braces {
    fn new(open: &str, close: &'static str) -> Self {
        Self { base: String::new(), open: open.to_owned(), close, output: Vec::new() }
    }
}

/// A kind-specific step either finishes the text or leaves the braces to
/// fill with the own properties.
enum Step {
    Done(String),
    Open(Braces),
}

/// Node's `formatRaw` + `reduceToSingleString` for one object.
fn format_raw(vm: &mut Vm, ctx: &mut Inspector, o: Gc<JsObject>, kind: &Kind, depth: usize) -> JsResult<String> {
    let is_array = matches!(kind, Kind::Array(_) | Kind::Arguments);
    let skip_indices = is_array || matches!(kind, Kind::Boxed(b) if b.starts_with("[String"));
    let keys = shown_keys(vm, o, skip_indices);
    let step = match kind {
        Kind::Array(tag) => format_array_items(vm, ctx, o, Some(tag), &keys, depth)?,
        Kind::Arguments => format_array_items(vm, ctx, o, None, &keys, depth)?,
        Kind::Function { is_class } => {
            let base = function_base(vm, o, *is_class)?;
            if keys.is_empty() { Step::Done(base) } else { Step::Open(Braces { base, ..Braces::new("{", "}") }) }
        }
        Kind::Boxed(text) => {
            if keys.is_empty() {
                Step::Done(text.clone())
            } else {
                Step::Open(Braces { base: text.clone(), ..Braces::new("{", "}") })
            }
        }
        Kind::Collection(is_map, entries) => format_collection(vm, ctx, o, *is_map, entries, &keys, depth)?,
        Kind::Promise(status, result) => format_promise(vm, ctx, o, *status, *result, depth)?,
        Kind::Weak(tag) => {
            let prefix = match constructor_name(vm, o)?.as_deref() {
                Some(n) if n == *tag => (*tag).to_owned(),
                Some(n) => format!("{n} [{tag}]"),
                None => format!("[{tag}: null prototype]"),
            };
            Step::Done(format!("{prefix} {{ <items unknown> }}"))
        }
        Kind::Binary(..) | Kind::Error | Kind::Object => {
            let mut braces = Braces::new("{", "}");
            match constructor_name(vm, o)? {
                Some(name) if name != "Object" => braces.open = format!("{name} {{"),
                None => "[Object: null prototype] {".clone_into(&mut braces.open),
                _ => {}
            }
            braces.output = binary_entries(vm, ctx, o, kind, depth)?;
            if keys.is_empty() && braces.output.is_empty() {
                Step::Done(format!("{}}}", braces.open))
            } else {
                Step::Open(braces)
            }
        }
    };
    match step {
        Step::Done(text) => Ok(text),
        Step::Open(braces) => reduce_to_single_string(vm, ctx, o, braces, keys, is_array, depth),
    }
}

/// An array's (or arguments object's, `tag` `None`) items, holes counted,
/// past the depth limit only its name.
fn format_array_items(
    vm: &mut Vm,
    ctx: &mut Inspector,
    o: Gc<JsObject>,
    tag: Option<&str>,
    keys: &[PropertyKey],
    depth: usize,
) -> JsResult<Step> {
    let mut braces = Braces::new(if tag.is_none() { "[Arguments] [" } else { "[" }, "]");
    let len = crate::object::internal_methods::length_of_array_like(vm, o)? as usize;
    // Past the depth limit Node names the constructor, with a typed
    // array subclass's element type as its tag.
    let mut too_deep = "[Array]".to_owned();
    if let Some(tag) = tag
        && let Some(name) = constructor_name(vm, o)?
        && name != "Array"
    {
        (braces.open, too_deep) = if tag.is_empty() || tag == name {
            (format!("{name}({len}) ["), format!("[{name}]"))
        } else {
            (format!("{name}({len}) [{tag}] ["), format!("[{name} [{tag}]]"))
        };
    }
    if depth > MAX_DEPTH {
        if len == 0 && keys.is_empty() {
            return Ok(Step::Done(format!("{}]", braces.open)));
        }
        return Ok(Step::Done(too_deep));
    }
    ctx.current_depth = depth;
    let mut holes = 0;
    let shown = len.min(MAX_ARRAY_ITEMS);
    let output = &mut braces.output;
    for i in 0..shown {
        let key = PropertyKey::Index(i as u32);
        if get_own_property(vm, o, key).is_none() {
            holes += 1;
            continue;
        }
        if holes > 0 {
            output.push(format!("<{holes} empty item{}>", if holes == 1 { "" } else { "s" }));
            holes = 0;
        }
        let v = get(vm, o, key, Value::object(o))?;
        ctx.indentation += 2;
        let text = format_value(vm, ctx, v, depth + 1);
        ctx.indentation -= 2;
        output.push(text?);
    }
    if holes > 0 {
        output.push(format!("<{holes} empty item{}>", if holes == 1 { "" } else { "s" }));
    }
    if len > shown {
        let more = len - shown;
        output.push(format!("... {more} more item{}", if more == 1 { "" } else { "s" }));
    }
    Ok(Step::Open(braces))
}

/// A Map's `k => v` or a Set's `v` entries.
fn format_collection(
    vm: &mut Vm,
    ctx: &mut Inspector,
    o: Gc<JsObject>,
    is_map: bool,
    entries: &[(Value, Value)],
    keys: &[PropertyKey],
    depth: usize,
) -> JsResult<Step> {
    let tag = if is_map { "Map" } else { "Set" };
    let name = constructor_name(vm, o)?;
    let open = match name.as_deref() {
        Some(n) if n == tag => format!("{tag}({}) {{", entries.len()),
        Some(n) => format!("{n}({}) [{tag}] {{", entries.len()),
        None => format!("[{tag}({}): null prototype] {{", entries.len()),
    };
    if entries.is_empty() && keys.is_empty() {
        return Ok(Step::Done(format!("{open}}}")));
    }
    if depth > MAX_DEPTH {
        return Ok(Step::Done(format!("[{}]", name.as_deref().unwrap_or(tag))));
    }
    let mut braces = Braces::new(&open, "}");
    ctx.current_depth = depth;
    // (The snapshot's values are rooted by `format_object`.)
    ctx.indentation += 2;
    for &(k, v) in entries {
        let text = format_value(vm, ctx, k, depth + 1)
            .and_then(|k| if is_map { Ok(format!("{k} => {}", format_value(vm, ctx, v, depth + 1)?)) } else { Ok(k) });
        match text {
            Ok(text) => braces.output.push(text),
            Err(e) => {
                ctx.indentation -= 2;
                return Err(e);
            }
        }
    }
    ctx.indentation -= 2;
    Ok(Step::Open(braces))
}

/// A promise's state and result.
fn format_promise(
    vm: &mut Vm,
    ctx: &mut Inspector,
    o: Gc<JsObject>,
    status: js_promise::PromiseStatus,
    result: Value,
    depth: usize,
) -> JsResult<Step> {
    let open = match constructor_name(vm, o)?.as_deref() {
        Some("Promise") => "Promise {".to_owned(),
        Some(n) => format!("{n} [Promise] {{"),
        None => "[Promise: null prototype] {".to_owned(),
    };
    if depth > MAX_DEPTH {
        return Ok(Step::Done("[Promise]".to_owned()));
    }
    ctx.current_depth = depth;
    let shown = match status {
        js_promise::PromiseStatus::Pending => "<pending>".to_owned(),
        js_promise::PromiseStatus::Fulfilled | js_promise::PromiseStatus::Rejected => {
            vm.keep_alive(result);
            ctx.indentation += 2;
            let text = format_value(vm, ctx, result, depth + 1);
            ctx.indentation -= 2;
            if status == js_promise::PromiseStatus::Rejected { format!("<rejected> {}", text?) } else { text? }
        }
    };
    let mut braces = Braces::new(&open, "}");
    braces.output.push(shown);
    Ok(Step::Open(braces))
}

/// The own properties after the kind's entries, on one line when they fit
/// (Node's `reduceToSingleString`).
fn reduce_to_single_string(
    vm: &mut Vm,
    ctx: &mut Inspector,
    o: Gc<JsObject>,
    braces: Braces,
    keys: Vec<PropertyKey>,
    is_array: bool,
    depth: usize,
) -> JsResult<String> {
    let Braces { base, open, close, mut output } = braces;
    if depth > MAX_DEPTH {
        let name = open.trim_end_matches(['{', '[', ' ']);
        return Ok(if name.is_empty() { "[Object]".to_owned() } else { format!("[{name}]") });
    }
    ctx.current_depth = depth;
    for key in keys {
        output.push(format_property(vm, ctx, o, key, depth)?);
    }
    if output.is_empty() {
        return Ok(format!("{open}{close}"));
    }
    let entries = output.len();
    if is_array && entries > 6 {
        output = group_array_elements(ctx, &output, o, vm);
    }
    if ctx.current_depth - depth < COMPACT && entries == output.len() {
        let start = output.len() + ctx.indentation + js_len(&open) + js_len(&base) + 10;
        if is_below_break_length(&output, start, &base) {
            let joined = output.join(", ");
            if !joined.contains('\n') {
                let base = if base.is_empty() { String::new() } else { format!("{base} ") };
                return Ok(format!("{base}{open} {joined} {close}"));
            }
        }
    }
    let indentation = format!("\n{}", " ".repeat(ctx.indentation));
    let base = if base.is_empty() { String::new() } else { format!("{base} ") };
    Ok(format!("{base}{open}{indentation}  {}{indentation}{close}", output.join(&format!(",{indentation}  "))))
}

/// Node's `compact` default: objects nesting fewer levels than this may
/// print on one line.
const COMPACT: usize = 3;

fn is_below_break_length(output: &[String], start: usize, base: &str) -> bool {
    let mut total = output.len() + start;
    if total + output.len() > BREAK_LENGTH {
        return false;
    }
    for entry in output {
        total += js_len(entry);
        if total > BREAK_LENGTH {
            return false;
        }
    }
    base.is_empty() || !base.contains('\n')
}

/// Node's `groupArrayElements`: many short items in aligned columns.
fn group_array_elements(ctx: &Inspector, output: &[String], array: Gc<JsObject>, vm: &mut Vm) -> Vec<String> {
    let mut total_length = 0;
    let mut max_length = 0;
    let mut output_len = output.len();
    if output.last().is_some_and(|l| l.starts_with("... ")) {
        output_len -= 1;
    }
    let separator_space = 2;
    let data_len: Vec<usize> = output[..output_len].iter().map(|e| js_len(e)).collect();
    for &len in &data_len {
        total_length += len + separator_space;
        max_length = max_length.max(len);
    }
    let actual_max = max_length + separator_space;
    if actual_max * 3 + ctx.indentation < BREAK_LENGTH
        && (total_length as f64 / actual_max as f64 > 5.0 || max_length <= 6)
    {
        let approx_char_heights = 2.5;
        let average_bias = (actual_max as f64 - total_length as f64 / output.len() as f64).sqrt();
        let biased_max = (actual_max as f64 - 3.0 - average_bias).max(1.0);
        let columns = ((approx_char_heights * biased_max * output_len as f64).sqrt() / biased_max)
            .round()
            .min(((BREAK_LENGTH - ctx.indentation) as f64 / actual_max as f64).floor())
            .min((COMPACT * 4) as f64)
            .min(15.0) as usize;
        if columns <= 1 {
            return output.to_vec();
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
        // Numbers are right-aligned, anything else left-aligned.
        let numeric = (0..output_len).all(|i| {
            let key = PropertyKey::Index(i as u32);
            get_own_property(vm, array, key).and_then(|d| d.value).is_some_and(|v| v.as_number().is_some())
        });
        let mut grouped = Vec::new();
        let mut i = 0;
        while i < output_len {
            let max = (i + columns).min(output_len);
            let mut line = String::new();
            let mut j = i;
            while j < max - 1 {
                let padding = max_line_length[j - i];
                let cell = format!("{}, ", output[j]);
                let pad = padding.saturating_sub(js_len(&cell));
                if numeric {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(&cell);
                } else {
                    line.push_str(&cell);
                    line.push_str(&" ".repeat(pad));
                }
                j += 1;
            }
            if numeric {
                let padding = max_line_length[j - i] - separator_space;
                line.push_str(&" ".repeat(padding.saturating_sub(data_len[j])));
                line.push_str(&output[j]);
            } else {
                line.push_str(&output[j]);
            }
            grouped.push(line);
            i += columns;
        }
        if output_len < output.len() {
            grouped.push(output[output_len].clone());
        }
        return grouped;
    }
    output.to_vec()
}

fn log(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let args = info.args(vm);
    let line = format_log_arguments(vm, &args)?;
    vm.runtime.console.log(&line);
    Ok(Value::UNDEFINED)
}

fn error(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let args = info.args(vm);
    let line = format_log_arguments(vm, &args)?;
    vm.runtime.console.error(&line);
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

/// Node's extra entries for buffers (`[Uint8Contents]: <..>`, `byteLength`)
/// and data views (`byteLength`, `byteOffset`, `buffer`), shown before the
/// own properties; empty for other objects.
fn binary_entries(
    vm: &mut Vm,
    ctx: &mut Inspector,
    o: Gc<JsObject>,
    kind: &Kind,
    depth: usize,
) -> JsResult<Vec<String>> {
    let mut out = Vec::new();
    let names: &[&str] = match kind {
        Kind::Binary(contents, accessors) => {
            out.extend(contents.iter().cloned());
            accessors
        }
        _ => return Ok(out),
    };
    for name in names {
        let key = vm.key(name);
        let v = get(vm, o, key, Value::object(o))?;
        ctx.indentation += 2;
        let text = format_value(vm, ctx, v, depth + 1);
        ctx.indentation -= 2;
        out.push(format!("{name}: {}", text?));
    }
    Ok(out)
}
