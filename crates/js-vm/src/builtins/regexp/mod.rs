//! RegExp (§22.2) on the `regress` engine: construction, `exec`, the
//! flag getters, and the `@@match`, `@@matchAll`, `@@replace`, `@@search`
//! and `@@split` protocols that the String methods dispatch to.

mod escape;
pub mod legacy;

use std::rc::Rc;

use js_gc::{Gc, Trace, Tracer};

use super::iteration::iter_result;
use super::{accessor_property, constructor, method, symbol_method};
use crate::abstract_ops::{
    is_callable, same_value, to_boolean, to_integer_or_infinity, to_length, to_number, to_string, to_uint32,
};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{add_property, call, create_data_property_or_throw, get, get_value, set};
use crate::object::{Attributes, DataClass, JsObject, PropertyKey};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// A RegExp object's internal slots.
#[allow(clippy::struct_excessive_bools, reason = "one field per flag the matcher needs, as the spec's flags")]
pub struct RegExpData {
    /// `[[OriginalSource]]`.
    pub source: Gc<JsString>,
    /// `[[OriginalFlags]]`.
    pub flags: Gc<JsString>,
    /// `[[RegExpMatcher]]`.
    pub matcher: Rc<regress::Regex>,
    /// The `g` flag.
    pub global: bool,
    /// The `y` flag.
    pub sticky: bool,
    /// The `u` or `v` flag (code-point matching).
    pub unicode: bool,
    /// The `d` flag.
    pub has_indices: bool,
    /// `[[Realm]]` (legacy RegExp features): the realm whose statics a
    /// match updates.
    pub realm: crate::realm::RealmId,
    /// `[[LegacyFeaturesEnabled]]`: made by `%RegExp%` itself rather than
    /// a subclass, so `compile` works and a match updates the statics.
    pub legacy_features_enabled: bool,
}

// SAFETY: the source and flags strings are the edges.
unsafe impl Trace for RegExpData {
    fn trace(&self, tracer: &mut Tracer) {
        self.source.trace(tracer);
        self.flags.trace(tracer);
    }

    fn type_name() -> &'static str {
        "RegExpData"
    }
}

/// A RegExp instance: its slots (`[[RegExpMatcher]]`, `[[OriginalSource]]`,
/// `[[OriginalFlags]]`, …) are a [`RegExpData`] cell.
pub(crate) static REGEXP: DataClass = DataClass::plain("RegExp");

/// A %RegExpStringIterator% (`matchAll`): its slots are a
/// [`RegExpStringIteratorSlots`] cell.
static REGEXP_STRING_ITERATOR: DataClass = DataClass::plain("RegExpStringIterator");

/// The RegExp slots of `o`, if it is a RegExp.
#[inline]
pub(crate) fn regexp_data(heap: &js_gc::Heap, o: Gc<JsObject>) -> Option<Gc<RegExpData>> {
    o.borrow(heap).data_of(&REGEXP)
}

/// Whether `o` is a RegExp (has `[[RegExpMatcher]]`).
#[inline]
fn is_regexp_object(vm: &Vm, o: Gc<JsObject>) -> bool {
    o.borrow(&vm.heap).is_data(&REGEXP)
}

/// The slots of a %RegExpStringIterator%.
#[derive(Clone, Copy)]
struct RegExpStringIteratorSlots {
    /// The regular expression.
    regexp: Value,
    /// The string.
    string: Gc<JsString>,
    /// The `g` flag.
    global: bool,
    /// The `u` or `v` flag.
    unicode: bool,
    /// Whether it is exhausted.
    done: bool,
}

// SAFETY: the regular expression and the string are the edges.
unsafe impl Trace for RegExpStringIteratorSlots {
    fn trace(&self, tracer: &mut Tracer) {
        self.regexp.trace(tracer);
        self.string.trace(tracer);
    }

    fn type_name() -> &'static str {
        "RegExpStringIterator"
    }
}

fn units_of(vm: &mut Vm, s: Gc<JsString>) -> Vec<u16> {
    let s = JsString::flatten(&mut vm.heap, s);
    s.borrow(&vm.heap).flat().units().collect()
}

/// RegExpInitialize: parses flags and pattern.
fn regexp_initialize(vm: &mut Vm, pattern: Gc<JsString>, flags: Gc<JsString>) -> JsResult<RegExpData> {
    let flag_text = crate::interpreter::string_text(vm, flags);
    let mut seen = String::new();
    for c in flag_text.chars() {
        if !"dgimsuvy".contains(c) || seen.contains(c) {
            return Err(vm.syntax_error(&format!("Invalid regular expression flags '{flag_text}'")));
        }
        seen.push(c);
    }
    if seen.contains('u') && seen.contains('v') {
        return Err(vm.syntax_error(&format!("Invalid regular expression flags '{flag_text}'")));
    }
    let regress_flags = regress::Flags {
        icase: seen.contains('i'),
        multiline: seen.contains('m'),
        dot_all: seen.contains('s'),
        no_opt: false,
        unicode: seen.contains('u'),
        unicode_sets: seen.contains('v'),
    };
    let units = units_of(vm, pattern);
    // Without `u` or `v` a pattern is a sequence of code units: a
    // surrogate pair is two pattern characters, matched unit by unit.
    let code_points: Vec<u32> = if regress_flags.unicode || regress_flags.unicode_sets {
        char::decode_utf16(units.iter().copied())
            .map(|r| r.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from))
            .collect()
    } else {
        pattern_code_units(&units)
    };
    let matcher = match regress::Regex::from_unicode(code_points.into_iter(), regress_flags) {
        Ok(m) => m,
        Err(e) => {
            let text = crate::interpreter::string_text(vm, pattern);
            return Err(vm.syntax_error(&format!("Invalid regular expression: /{text}/{flag_text}: {e}")));
        }
    };
    Ok(RegExpData {
        source: pattern,
        flags,
        matcher: Rc::new(matcher),
        global: seen.contains('g'),
        sticky: seen.contains('y'),
        unicode: seen.contains('u') || seen.contains('v'),
        has_indices: seen.contains('d'),
        realm: vm.realm_id,
        legacy_features_enabled: true,
    })
}

/// A non-unicode pattern's characters for `regress`: each code unit on its
/// own, except inside a group name (`(?<name>`, `\k<name>`), where a
/// surrogate pair is one code point of the identifier.
fn pattern_code_units(units: &[u16]) -> Vec<u32> {
    let mut out = Vec::with_capacity(units.len());
    let (mut in_class, mut in_name) = (false, false);
    let mut i = 0;
    let at = |i: usize| units.get(i).copied().unwrap_or(0);
    while i < units.len() {
        let u = units[i];
        if in_name {
            if u == u16::from(b'>') {
                in_name = false;
            } else if (0xD800..0xDC00).contains(&u) && (0xDC00..0xE000).contains(&at(i + 1)) {
                let cp = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(at(i + 1)) - 0xDC00);
                out.push(cp);
                i += 2;
                continue;
            }
            out.push(u32::from(u));
            i += 1;
            continue;
        }
        let opens_name = match u {
            0x5C => {
                // An escape: `\k<` opens a group name; anything else is two
                // units taken as they are.
                out.push(u32::from(u));
                if i + 1 < units.len() {
                    out.push(u32::from(units[i + 1]));
                }
                let k = !in_class && at(i + 1) == u16::from(b'k') && at(i + 2) == u16::from(b'<');
                i += 2;
                if k {
                    out.push(u32::from(b'<'));
                    i += 1;
                    in_name = true;
                }
                continue;
            }
            0x5B => {
                in_class = true;
                false
            }
            0x5D => {
                in_class = false;
                false
            }
            0x28 => {
                !in_class
                    && at(i + 1) == u16::from(b'?')
                    && at(i + 2) == u16::from(b'<')
                    && at(i + 3) != u16::from(b'=')
                    && at(i + 3) != u16::from(b'!')
            }
            _ => false,
        };
        if opens_name {
            out.extend([u32::from(b'('), u32::from(b'?'), u32::from(b'<')]);
            i += 3;
            in_name = true;
            continue;
        }
        out.push(u32::from(u));
        i += 1;
    }
    out
}

/// RegExpCreate for a literal or a constructor call.
pub fn regexp_create(
    vm: &mut Vm,
    pattern: Gc<JsString>,
    flags: Gc<JsString>,
    proto: Option<Gc<JsObject>>,
) -> JsResult<Value> {
    regexp_create_legacy(vm, pattern, flags, proto, true)
}

/// RegExpCreate with `[[LegacyFeaturesEnabled]]` given: false for an
/// object a subclass constructs.
fn regexp_create_legacy(
    vm: &mut Vm,
    pattern: Gc<JsString>,
    flags: Gc<JsString>,
    proto: Option<Gc<JsObject>>,
    legacy_features_enabled: bool,
) -> JsResult<Value> {
    let mut data = regexp_initialize(vm, pattern, flags)?;
    data.legacy_features_enabled = legacy_features_enabled;
    let proto = proto.unwrap_or(vm.realm.intrinsics.regexp_prototype);
    let o = vm.new_object_with_data(Some(proto), &REGEXP, data);
    let key = vm.key("lastIndex");
    add_property(vm, o, key, Value::number(0.0), Attributes::from_bits(Attributes::WRITABLE));
    Ok(Value::object(o))
}

fn regexp_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let pattern = info.arg(vm, 0);
    let flags = info.arg(vm, 1);
    let pattern_is_regexp = is_regexp(vm, pattern)?;
    if info.new_target.is_none() && pattern_is_regexp && flags.is_undefined() {
        let ctor_key = PropertyKey::String(vm.names.constructor);
        let ctor = get_value(vm, pattern, ctor_key)?;
        if ctor == Value::object(info.callee) {
            return Ok(pattern);
        }
    }
    let (p, f) = match pattern.as_object().map(|o| {
        regexp_data(&vm.heap, o).map(|d| {
            let d = d.borrow(&vm.heap);
            (d.source, d.flags)
        })
    }) {
        Some(Some((source, original_flags))) => {
            (Value::string(source), if flags.is_undefined() { Value::string(original_flags) } else { flags })
        }
        _ if pattern_is_regexp => {
            let source_key = vm.key("source");
            let s = get_value(vm, pattern, source_key)?;
            // Held while the `flags` getter runs.
            vm.keep_alive(s);
            let f = if flags.is_undefined() {
                let flags_key = vm.key("flags");
                get_value(vm, pattern, flags_key)?
            } else {
                flags
            };
            (s, f)
        }
        _ => (pattern, flags),
    };
    let p = if p.is_undefined() { vm.atoms.intern_str(&mut vm.heap, "") } else { to_string(vm, p)? };
    vm.keep_alive(Value::string(p));
    let f = if f.is_undefined() { vm.atoms.intern_str(&mut vm.heap, "") } else { to_string(vm, f)? };
    vm.keep_alive(Value::string(f));
    let new_target = info.new_target.unwrap_or(info.callee);
    let proto = prototype_from_constructor(vm, new_target, |i| i.regexp_prototype)?;
    let legacy_features_enabled = new_target == vm.realm.intrinsics.regexp_constructor;
    regexp_create_legacy(vm, p, f, Some(proto), legacy_features_enabled)
}

/// IsRegExp (§7.2.8).
pub fn is_regexp(vm: &mut Vm, v: Value) -> JsResult<bool> {
    let Some(o) = v.as_object() else { return Ok(false) };
    let key = PropertyKey::Symbol(vm.symbols.match_);
    let m = get(vm, o, key, v)?;
    if !m.is_undefined() {
        return Ok(to_boolean(vm, m));
    }
    Ok(is_regexp_object(vm, o))
}

fn this_regexp(vm: &mut Vm, this: Value, name: &str) -> JsResult<Gc<JsObject>> {
    match this.as_object() {
        Some(o) if is_regexp_object(vm, o) => Ok(o),
        _ => Err(vm.type_error(&format!("RegExp.prototype.{name} requires that 'this' be a RegExp object"))),
    }
}

fn last_index_key(vm: &mut Vm) -> PropertyKey {
    vm.key("lastIndex")
}

fn set_last_index(vm: &mut Vm, r: Gc<JsObject>, v: f64) -> JsResult<()> {
    let key = last_index_key(vm);
    if !set(vm, r, key, Value::number(v), Value::object(r))? {
        return Err(vm.type_error("Cannot assign to read only property 'lastIndex'"));
    }
    Ok(())
}

/// RegExpBuiltinExec (§22.2.7.2).
#[allow(clippy::too_many_lines, reason = "the spec's steps, including the match indices array")]
fn builtin_exec(vm: &mut Vm, r: Gc<JsObject>, s: Gc<JsString>) -> JsResult<Value> {
    let key = last_index_key(vm);
    let li = get(vm, r, key, Value::object(r))?;
    let mut last_index = to_length(vm, li)?;
    let Some(data) = regexp_data(&vm.heap, r) else { return Ok(Value::NULL) };
    let data = data.borrow(&vm.heap);
    let (global, sticky, unicode, has_indices, matcher) =
        (data.global, data.sticky, data.unicode, data.has_indices, Rc::clone(&data.matcher));
    let (r_realm, legacy_enabled) = (data.realm, data.legacy_features_enabled);
    if !global && !sticky {
        last_index = 0.0;
    }
    let text = units_of(vm, s);
    if last_index > text.len() as f64 {
        if global || sticky {
            set_last_index(vm, r, 0.0)?;
        }
        return Ok(Value::NULL);
    }
    let start = last_index as usize;
    // A backtracking match can take exponential time: it polls the
    // interrupt flag and the step budget as it goes, and an answer after a
    // stop means "stopped", not "no match".
    let stopped = std::cell::Cell::new(false);
    let check = || {
        let stop = vm.check_interrupt_for(u64::from(regress::POLL_INTERVAL)).is_err();
        stopped.set(stop);
        stop
    };
    let found = regress::with_interrupt_check(&check, || {
        if unicode { matcher.find_from_utf16(&text, start).next() } else { matcher.find_from_ucs2(&text, start).next() }
    });
    if stopped.get() {
        return Err(Exception::Terminated);
    }
    let m = match found {
        Some(m) if !sticky || m.start() == start => m,
        _ => {
            if global || sticky {
                set_last_index(vm, r, 0.0)?;
            }
            return Ok(Value::NULL);
        }
    };
    if global || sticky {
        set_last_index(vm, r, m.end() as f64)?;
    }
    let slice = |vm: &mut Vm, range: &std::ops::Range<usize>| {
        Value::string(vm.heap.alloc(JsString::from_utf16(&text[range.clone()])))
    };
    let mut values = vec![slice(vm, &m.range())];
    for capture in &m.captures {
        values.push(match capture {
            Some(range) => slice(vm, range),
            None => Value::UNDEFINED,
        });
    }
    for v in &values {
        vm.keep_alive(*v);
    }
    let array = super::array::array_create(vm, &values);
    vm.keep_alive(Value::object(array));
    let index_key = vm.key("index");
    create_data_property_or_throw(vm, array, index_key, Value::number(m.start() as f64))?;
    let input_key = vm.key("input");
    create_data_property_or_throw(vm, array, input_key, Value::string(s))?;
    // A name used by several groups (in different alternatives) gets the
    // range of the one that participated, in order of first appearance.
    let mut named: Vec<(String, Option<std::ops::Range<usize>>)> = Vec::new();
    for (name, range) in m.named_groups() {
        match named.iter_mut().find(|(seen, _)| seen == name) {
            Some((_, slot)) => {
                if slot.is_none() {
                    *slot = range;
                }
            }
            None => named.push((name.to_owned(), range)),
        }
    }
    let groups = if named.is_empty() {
        Value::UNDEFINED
    } else {
        let g = vm.new_object(None);
        vm.keep_alive(Value::object(g));
        for (name, range) in &named {
            let v = match range {
                Some(range) => slice(vm, range),
                None => Value::UNDEFINED,
            };
            let k = vm.key(name);
            create_data_property_or_throw(vm, g, k, v)?;
        }
        Value::object(g)
    };
    let groups_key = vm.key("groups");
    create_data_property_or_throw(vm, array, groups_key, groups)?;
    if has_indices {
        let mut pairs = Vec::new();
        let ranges: Vec<Option<std::ops::Range<usize>>> =
            std::iter::once(Some(m.range())).chain(m.captures.iter().cloned()).collect();
        for range in ranges {
            pairs.push(match range {
                Some(r) => Value::object(super::array::array_create(
                    vm,
                    &[Value::number(r.start as f64), Value::number(r.end as f64)],
                )),
                None => Value::UNDEFINED,
            });
            vm.keep_alive(*pairs.last().unwrap_or(&Value::UNDEFINED));
        }
        let indices = super::array::array_create(vm, &pairs);
        vm.keep_alive(Value::object(indices));
        let indices_groups = if named.is_empty() {
            Value::UNDEFINED
        } else {
            let g = vm.new_object(None);
            for (name, range) in &named {
                let v = match range {
                    Some(r) => Value::object(super::array::array_create(
                        vm,
                        &[Value::number(r.start as f64), Value::number(r.end as f64)],
                    )),
                    None => Value::UNDEFINED,
                };
                let k = vm.key(name);
                create_data_property_or_throw(vm, g, k, v)?;
            }
            Value::object(g)
        };
        create_data_property_or_throw(vm, indices, groups_key, indices_groups)?;
        let indices_key = vm.key("indices");
        create_data_property_or_throw(vm, array, indices_key, Value::object(indices))?;
    }
    legacy::after_match(vm, r_realm, legacy_enabled, s, m.range(), m.captures);
    Ok(Value::object(array))
}

/// RegExpExec (§22.2.7.1): a user `exec` if there is one.
pub fn regexp_exec(vm: &mut Vm, r: Gc<JsObject>, s: Gc<JsString>) -> JsResult<Value> {
    let exec_key = vm.key("exec");
    let exec = get(vm, r, exec_key, Value::object(r))?;
    if is_callable(vm, exec) && exec != Value::object(vm.realm.intrinsics.regexp_exec) {
        let result = call(vm, exec, Value::object(r), &[Value::string(s)])?;
        if !result.is_object() && !result.is_null() {
            return Err(vm.type_error("RegExp exec method returned something other than an Object or null"));
        }
        return Ok(result);
    }
    if !is_regexp_object(vm, r) {
        return Err(vm.type_error("RegExp.prototype.exec called on an incompatible receiver"));
    }
    builtin_exec(vm, r, s)
}

fn exec(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_regexp(vm, info.this, "exec")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    builtin_exec(vm, r, s)
}

fn this_object(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<Gc<JsObject>> {
    match info.this.as_object() {
        Some(o) => Ok(o),
        None => Err(vm.type_error(&format!("RegExp.prototype.{name} called on a non-object"))),
    }
}

fn test(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "test")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    Ok(Value::boolean(!regexp_exec(vm, r, s)?.is_null()))
}

fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "toString")?;
    let source_key = vm.key("source");
    let source = get(vm, r, source_key, info.this)?;
    let source = to_string(vm, source)?;
    let flags_key = vm.key("flags");
    let flags = get(vm, r, flags_key, info.this)?;
    let flags = to_string(vm, flags)?;
    let text =
        format!("/{}/{}", crate::interpreter::string_text(vm, source), crate::interpreter::string_text(vm, flags));
    Ok(vm.string(&text))
}

/// `get RegExp.prototype.source`: the pattern as it would be written in a
/// literal (EscapeRegExpPattern).
fn source_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(o) = info.this.as_object() else {
        return Err(vm.type_error("RegExp.prototype.source getter called on a non-object"));
    };
    let source = match regexp_data(&vm.heap, o) {
        Some(d) => d.borrow(&vm.heap).source,
        None if o == vm.realm.intrinsics.regexp_prototype => return Ok(vm.string("(?:)")),
        None => return Err(vm.type_error("RegExp.prototype.source getter called on a non-RegExp object")),
    };
    // Code units, so a lone surrogate in the pattern survives.
    let units = units_of(vm, source);
    if units.is_empty() {
        return Ok(vm.string("(?:)"));
    }
    let escaped = escape_regexp_pattern(&units);
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&escaped))))
}

/// EscapeRegExpPattern: `/` outside a class and line terminators escaped.
fn escape_regexp_pattern(units: &[u16]) -> Vec<u16> {
    let mut escaped = Vec::with_capacity(units.len());
    let mut in_class = false;
    let mut i = 0;
    let push_ascii = |out: &mut Vec<u16>, text: &str| out.extend(text.bytes().map(u16::from));
    while i < units.len() {
        let c = units[i];
        i += 1;
        match c {
            0x5C => {
                escaped.push(c);
                if let Some(&next) = units.get(i) {
                    escaped.push(next);
                    i += 1;
                }
            }
            0x5B => {
                in_class = true;
                escaped.push(c);
            }
            0x5D => {
                in_class = false;
                escaped.push(c);
            }
            0x2F if !in_class => push_ascii(&mut escaped, "\\/"),
            0x0A => push_ascii(&mut escaped, "\\n"),
            0x0D => push_ascii(&mut escaped, "\\r"),
            0x2028 => push_ascii(&mut escaped, "\\u2028"),
            0x2029 => push_ascii(&mut escaped, "\\u2029"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// `get RegExp.prototype.flags` (§22.2.6.4).
fn flags_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(o) = info.this.as_object() else {
        return Err(vm.type_error("RegExp.prototype.flags getter called on a non-object"));
    };
    let mut out = String::new();
    for (name, c) in [
        ("hasIndices", 'd'),
        ("global", 'g'),
        ("ignoreCase", 'i'),
        ("multiline", 'm'),
        ("dotAll", 's'),
        ("unicode", 'u'),
        ("unicodeSets", 'v'),
        ("sticky", 'y'),
    ] {
        let key = vm.key(name);
        let v = get(vm, o, key, info.this)?;
        if to_boolean(vm, v) {
            out.push(c);
        }
    }
    Ok(vm.string(&out))
}

macro_rules! flag_getter {
    ($fn_name:ident, $letter:literal, $name:literal) => {
        fn $fn_name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
            let Some(o) = info.this.as_object() else {
                return Err(vm.type_error(concat!("RegExp.prototype.", $name, " getter called on a non-object")));
            };
            let flags = match regexp_data(&vm.heap, o) {
                Some(d) => d.borrow(&vm.heap).flags,
                None if o == vm.realm.intrinsics.regexp_prototype => return Ok(Value::UNDEFINED),
                None => {
                    return Err(vm.type_error(concat!(
                        "RegExp.prototype.",
                        $name,
                        " getter called on a non-RegExp object"
                    )))
                }
            };
            let text = crate::interpreter::string_text(vm, flags);
            Ok(Value::boolean(text.contains($letter)))
        }
    };
}

flag_getter!(has_indices, 'd', "hasIndices");
flag_getter!(global, 'g', "global");
flag_getter!(ignore_case, 'i', "ignoreCase");
flag_getter!(multiline, 'm', "multiline");
flag_getter!(dot_all, 's', "dotAll");
flag_getter!(unicode, 'u', "unicode");
flag_getter!(unicode_sets, 'v', "unicodeSets");
flag_getter!(sticky, 'y', "sticky");

/// AdvanceStringIndex (§22.2.7.3).
fn advance(text: &[u16], index: usize, unicode: bool) -> usize {
    if !unicode || index + 1 >= text.len() {
        return index + 1;
    }
    let (a, b) = (text[index], text[index + 1]);
    if (0xD800..0xDC00).contains(&a) && (0xDC00..0xE000).contains(&b) { index + 2 } else { index + 1 }
}

fn result_string(vm: &mut Vm, result: Gc<JsObject>, index: u32) -> JsResult<Gc<JsString>> {
    let v = get(vm, result, PropertyKey::Index(index), Value::object(result))?;
    to_string(vm, v)
}

/// `RegExp.prototype[@@match]` (§22.2.6.8).
fn symbol_match(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "[Symbol.match]")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    let flags_key = vm.key("flags");
    let flags = get(vm, r, flags_key, info.this)?;
    let flags = to_string(vm, flags)?;
    let flag_text = crate::interpreter::string_text(vm, flags);
    if !flag_text.contains('g') {
        return regexp_exec(vm, r, s);
    }
    let full_unicode = flag_text.contains('u') || flag_text.contains('v');
    set_last_index(vm, r, 0.0)?;
    let mut matches = Vec::new();
    let text = units_of(vm, s);
    loop {
        let result = regexp_exec(vm, r, s)?;
        let Some(result) = result.as_object() else {
            return Ok(if matches.is_empty() {
                Value::NULL
            } else {
                Value::object(super::array::array_create(vm, &matches))
            });
        };
        let matched = result_string(vm, result, 0)?;
        vm.keep_alive(Value::string(matched));
        if matched.borrow(&vm.heap).is_empty() {
            let key = last_index_key(vm);
            let li = get(vm, r, key, Value::object(r))?;
            let this_index = to_length(vm, li)? as usize;
            set_last_index(vm, r, advance(&text, this_index, full_unicode) as f64)?;
        }
        matches.push(Value::string(matched));
    }
}

/// `RegExp.prototype[@@search]` (§22.2.6.12).
fn symbol_search(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "[Symbol.search]")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    let key = last_index_key(vm);
    let previous = get(vm, r, key, info.this)?;
    // Restored after `exec` runs; an object is held by nothing else once
    // `lastIndex` is overwritten.
    vm.keep_alive(previous);
    if !same_value(vm, previous, Value::number(0.0)) {
        set_last_index(vm, r, 0.0)?;
    }
    let result = regexp_exec(vm, r, s)?;
    // Read after the `lastIndex` getter and setter run.
    vm.keep_alive(result);
    let current = get(vm, r, key, info.this)?;
    if !same_value(vm, current, previous) && !set(vm, r, key, previous, info.this)? {
        return Err(vm.type_error("Cannot assign to read only property 'lastIndex'"));
    }
    match result.as_object() {
        Some(o) => {
            let index_key = vm.key("index");
            get(vm, o, index_key, result)
        }
        None => Ok(Value::number(-1.0)),
    }
}

/// GetSubstitution (§22.1.3.19.1) with captures and named groups.
fn get_substitution(
    vm: &mut Vm,
    matched: &[u16],
    text: &[u16],
    position: usize,
    captures: &[Value],
    groups: Value,
    replacement: &[u16],
) -> JsResult<Vec<u16>> {
    let mut out = Vec::new();
    let mut i = 0;
    let dollar = u16::from(b'$');
    let digit = |u: u16| (u16::from(b'0')..=u16::from(b'9')).contains(&u).then(|| usize::from(u - u16::from(b'0')));
    while i < replacement.len() {
        let c = replacement[i];
        if c != dollar || i + 1 >= replacement.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let next = replacement[i + 1];
        match next {
            n if n == dollar => {
                out.push(dollar);
                i += 2;
            }
            n if n == u16::from(b'&') => {
                out.extend_from_slice(matched);
                i += 2;
            }
            n if n == u16::from(b'`') => {
                out.extend_from_slice(&text[..position.min(text.len())]);
                i += 2;
            }
            n if n == u16::from(b'\'') => {
                let end = (position + matched.len()).min(text.len());
                out.extend_from_slice(&text[end..]);
                i += 2;
            }
            n if digit(n).is_some() => {
                let d1 = digit(n).unwrap_or(0);
                let two = replacement.get(i + 2).and_then(|&u| digit(u)).map(|d2| d1 * 10 + d2);
                let (index, consumed) = match two {
                    Some(nn) if nn >= 1 && nn <= captures.len() => (nn, 3),
                    _ => (d1, 2),
                };
                if index >= 1 && index <= captures.len() {
                    let cap = captures[index - 1];
                    if !cap.is_undefined() {
                        let s = to_string(vm, cap)?;
                        out.extend(units_of(vm, s));
                    }
                    i += consumed;
                } else {
                    out.push(dollar);
                    i += 1;
                }
            }
            n if n == u16::from(b'<') => {
                if groups.is_undefined() {
                    out.push(dollar);
                    i += 1;
                    continue;
                }
                let Some(close) = replacement[i + 2..].iter().position(|&u| u == u16::from(b'>')) else {
                    out.push(dollar);
                    i += 1;
                    continue;
                };
                let name = String::from_utf16_lossy(&replacement[i + 2..i + 2 + close]);
                let key = vm.key(&name);
                let capture = get_value(vm, groups, key)?;
                if !capture.is_undefined() {
                    let s = to_string(vm, capture)?;
                    out.extend(units_of(vm, s));
                }
                i += close + 3;
            }
            _ => {
                out.push(dollar);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// `RegExp.prototype[@@replace]` (§22.2.6.11).
fn symbol_replace(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "[Symbol.replace]")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    let text = units_of(vm, s);
    let replace_value = info.arg(vm, 1);
    let functional = is_callable(vm, replace_value);
    let replacement = if functional {
        None
    } else {
        let rs = to_string(vm, replace_value)?;
        Some(units_of(vm, rs))
    };
    let flags_key = vm.key("flags");
    let flags = get(vm, r, flags_key, info.this)?;
    let flags = to_string(vm, flags)?;
    let flag_text = crate::interpreter::string_text(vm, flags);
    let global = flag_text.contains('g');
    let full_unicode = flag_text.contains('u') || flag_text.contains('v');
    if global {
        set_last_index(vm, r, 0.0)?;
    }
    let mut results = Vec::new();
    loop {
        let result = regexp_exec(vm, r, s)?;
        let Some(result) = result.as_object() else { break };
        vm.keep_alive(Value::object(result));
        results.push(result);
        if !global {
            break;
        }
        let matched = result_string(vm, result, 0)?;
        if matched.borrow(&vm.heap).is_empty() {
            let key = last_index_key(vm);
            let li = get(vm, r, key, Value::object(r))?;
            let this_index = to_length(vm, li)? as usize;
            set_last_index(vm, r, advance(&text, this_index, full_unicode) as f64)?;
        }
    }
    let mut out: Vec<u16> = Vec::new();
    let mut next_source_position = 0usize;
    for result in results {
        let length = crate::object::internal_methods::length_of_array_like(vm, result)? as u32;
        let matched = result_string(vm, result, 0)?;
        // Passed to a replacer function after the getters below.
        vm.keep_alive(Value::string(matched));
        let matched_units = units_of(vm, matched);
        let index_key = vm.key("index");
        let pos = get(vm, result, index_key, Value::object(result))?;
        let position = to_integer_or_infinity(to_number(vm, pos)?).clamp(0.0, text.len() as f64) as usize;
        let mut captures = Vec::new();
        for n in 1..length.max(1) {
            let c = get(vm, result, PropertyKey::Index(n), Value::object(result))?;
            let c = if c.is_undefined() { c } else { Value::string(to_string(vm, c)?) };
            vm.keep_alive(c);
            captures.push(c);
        }
        let groups_key = vm.key("groups");
        let mut groups = get(vm, result, groups_key, Value::object(result))?;
        let replaced: Vec<u16> = if functional {
            let mut args = vec![Value::string(matched)];
            args.extend_from_slice(&captures);
            args.push(Value::number(position as f64));
            args.push(Value::string(s));
            if !groups.is_undefined() {
                args.push(groups);
            }
            let v = call(vm, replace_value, Value::UNDEFINED, &args)?;
            let rs = to_string(vm, v)?;
            units_of(vm, rs)
        } else {
            if !groups.is_undefined() {
                groups = Value::object(crate::abstract_ops::to_object(vm, groups)?);
                vm.keep_alive(groups);
            }
            get_substitution(
                vm,
                &matched_units,
                &text,
                position,
                &captures,
                groups,
                replacement.as_deref().unwrap_or(&[]),
            )?
        };
        if position >= next_source_position {
            out.extend_from_slice(&text[next_source_position..position]);
            out.extend_from_slice(&replaced);
            next_source_position = position + matched_units.len();
        }
    }
    if next_source_position < text.len() {
        out.extend_from_slice(&text[next_source_position..]);
    }
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&out))))
}

/// `RegExp.prototype[@@split]` (§22.2.6.14), with the spec's sticky
/// splitter made from the species constructor.
fn symbol_split(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "[Symbol.split]")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    let text = units_of(vm, s);
    let default = vm.realm.intrinsics.regexp_constructor;
    let ctor = crate::abstract_ops::species_constructor(vm, r, default)?;
    vm.keep_alive(Value::object(ctor));
    let flags_key = vm.key("flags");
    let flags = get(vm, r, flags_key, info.this)?;
    let flags = to_string(vm, flags)?;
    let flag_text = crate::interpreter::string_text(vm, flags);
    let unicode = flag_text.contains('u') || flag_text.contains('v');
    let new_flags = if flag_text.contains('y') { flag_text.clone() } else { format!("{flag_text}y") };
    let new_flags_value = vm.string(&new_flags);
    let splitter = crate::object::internal_methods::construct(vm, ctor, &[Value::object(r), new_flags_value], None)?;
    let Some(splitter) = splitter.as_object() else { return Ok(Value::UNDEFINED) };
    vm.keep_alive(Value::object(splitter));
    let limit_arg = info.arg(vm, 1);
    let limit = if limit_arg.is_undefined() { u32::MAX } else { to_uint32(to_number(vm, limit_arg)?) };
    let mut parts: Vec<Value> = Vec::new();
    if limit == 0 {
        return Ok(Value::object(super::array::array_create(vm, &[])));
    }
    if text.is_empty() {
        let z = regexp_exec(vm, splitter, s)?;
        let parts: Vec<Value> = if z.is_null() { vec![Value::string(s)] } else { Vec::new() };
        return Ok(Value::object(super::array::array_create(vm, &parts)));
    }
    let size = text.len();
    let mut p = 0;
    let mut q = p;
    while q < size {
        set_last_index(vm, splitter, q as f64)?;
        let z = regexp_exec(vm, splitter, s)?;
        let Some(z) = z.as_object() else {
            q = advance(&text, q, unicode);
            continue;
        };
        // Read after the `lastIndex` getter and `valueOf` run.
        vm.keep_alive(Value::object(z));
        let key = last_index_key(vm);
        let li = get(vm, splitter, key, Value::object(splitter))?;
        let e = (to_length(vm, li)? as usize).min(size);
        if e == p {
            q = advance(&text, q, unicode);
            continue;
        }
        let part = Value::string(vm.heap.alloc(JsString::from_utf16(&text[p..q])));
        vm.keep_alive(part);
        parts.push(part);
        if parts.len() as u32 == limit {
            return Ok(Value::object(super::array::array_create(vm, &parts)));
        }
        p = e;
        let captures = crate::object::internal_methods::length_of_array_like(vm, z)? as u32;
        for i in 1..captures.max(1) {
            let c = get(vm, z, PropertyKey::Index(i), Value::object(z))?;
            vm.keep_alive(c);
            parts.push(c);
            if parts.len() as u32 == limit {
                return Ok(Value::object(super::array::array_create(vm, &parts)));
            }
        }
        q = p;
    }
    let tail = Value::string(vm.heap.alloc(JsString::from_utf16(&text[p..])));
    parts.push(tail);
    Ok(Value::object(super::array::array_create(vm, &parts)))
}

/// `RegExp.prototype[@@matchAll]` (§22.2.6.9).
fn symbol_match_all(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "[Symbol.matchAll]")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    let default = vm.realm.intrinsics.regexp_constructor;
    let ctor = crate::abstract_ops::species_constructor(vm, r, default)?;
    vm.keep_alive(Value::object(ctor));
    let flags_key = vm.key("flags");
    let flags = get(vm, r, flags_key, info.this)?;
    let flags = to_string(vm, flags)?;
    vm.keep_alive(Value::string(flags));
    let matcher =
        crate::object::internal_methods::construct(vm, ctor, &[Value::object(r), Value::string(flags)], None)?;
    vm.keep_alive(matcher);
    let key = last_index_key(vm);
    let li = get(vm, r, key, info.this)?;
    let last_index = to_length(vm, li)?;
    if let Some(m) = matcher.as_object() {
        set_last_index(vm, m, last_index)?;
    }
    let flag_text = crate::interpreter::string_text(vm, flags);
    let proto = vm.realm.intrinsics.regexp_string_iterator_prototype;
    let it = vm.new_object_with_data(
        Some(proto),
        &REGEXP_STRING_ITERATOR,
        RegExpStringIteratorSlots {
            regexp: matcher,
            string: s,
            global: flag_text.contains('g'),
            unicode: flag_text.contains('u') || flag_text.contains('v'),
            done: false,
        },
    );
    Ok(Value::object(it))
}

/// `%RegExpStringIteratorPrototype%.next`.
fn string_iterator_next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(it) = info.this.as_object() else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let Some(slots) = it.borrow(&vm.heap).data_of::<RegExpStringIteratorSlots>(&REGEXP_STRING_ITERATOR) else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let RegExpStringIteratorSlots { regexp, string, global, unicode, done } = *slots.borrow(&vm.heap);
    if done {
        return Ok(iter_result(vm, Value::UNDEFINED, true));
    }
    let Some(r) = regexp.as_object() else { return Ok(iter_result(vm, Value::UNDEFINED, true)) };
    let result = regexp_exec(vm, r, string)?;
    // Returned after the match's `toString` and the `lastIndex` getter run.
    vm.keep_alive(result);
    let finish = |vm: &mut Vm| {
        slots.borrow_mut(&mut vm.heap).done = true;
    };
    let Some(result_obj) = result.as_object() else {
        finish(vm);
        return Ok(iter_result(vm, Value::UNDEFINED, true));
    };
    if !global {
        finish(vm);
        return Ok(iter_result(vm, result, false));
    }
    let matched = result_string(vm, result_obj, 0)?;
    if matched.borrow(&vm.heap).is_empty() {
        let key = last_index_key(vm);
        let li = get(vm, r, key, regexp)?;
        let this_index = to_length(vm, li)? as usize;
        let text = units_of(vm, string);
        set_last_index(vm, r, advance(&text, this_index, unicode) as f64)?;
    }
    Ok(iter_result(vm, result, false))
}

/// `String.prototype.match`, `matchAll` and `search`: dispatch to the
/// argument's protocol method, or to a new RegExp.
fn string_protocol(
    vm: &mut Vm,
    info: &CallInfo,
    symbol: Gc<crate::symbol::Symbol>,
    name: &str,
    flags: &str,
) -> JsResult<Value> {
    if info.this.is_nullish() {
        return Err(vm.type_error(&format!("String.prototype.{name} called on null or undefined")));
    }
    let regexp = info.arg(vm, 0);
    // Only objects are asked for a custom matcher: primitives (a BigInt
    // included) never have their prototype's Symbol.match consulted.
    if regexp.is_object() {
        if name == "matchAll" && is_regexp(vm, regexp)? {
            let flags_key = vm.key("flags");
            let f = get_value(vm, regexp, flags_key)?;
            if f.is_nullish() {
                return Err(vm.type_error("String.prototype.matchAll called with a non-global RegExp argument"));
            }
            let f = to_string(vm, f)?;
            if !crate::interpreter::string_text(vm, f).contains('g') {
                return Err(vm.type_error("String.prototype.matchAll called with a non-global RegExp argument"));
            }
        }
        let key = PropertyKey::Symbol(symbol);
        if let Some(m) = crate::object::internal_methods::get_method(vm, regexp, key)? {
            return call(vm, m, regexp, &[info.this]);
        }
    }
    let s = to_string(vm, info.this)?;
    vm.keep_alive(Value::string(s));
    let pattern = if regexp.is_undefined() { vm.atoms.intern_str(&mut vm.heap, "") } else { to_string(vm, regexp)? };
    let flags = vm.atoms.intern_str(&mut vm.heap, flags);
    let rx = regexp_create(vm, pattern, flags, None)?;
    vm.keep_alive(rx);
    let key = PropertyKey::Symbol(symbol);
    let m = get_value(vm, rx, key)?;
    call(vm, m, rx, &[Value::string(s)])
}

fn string_match(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let symbol = vm.symbols.match_;
    string_protocol(vm, info, symbol, "match", "")
}

fn string_match_all(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let symbol = vm.symbols.match_all;
    string_protocol(vm, info, symbol, "matchAll", "g")
}

fn string_search(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let symbol = vm.symbols.search;
    string_protocol(vm, info, symbol, "search", "")
}

fn species_getter(_vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(info.this)
}

/// Installs RegExp, its prototype and the String protocol methods.
pub(crate) fn install(vm: &mut Vm) {
    let proto = vm.realm.intrinsics.regexp_prototype;
    let ctor = constructor(vm, "RegExp", 2, regexp_ctor, proto);
    vm.realm.intrinsics.regexp_constructor = ctor;
    let species = PropertyKey::Symbol(vm.symbols.species);
    accessor_property(vm, ctor, species, "[Symbol.species]", Some(species_getter), None);
    method(vm, ctor, "escape", 1, escape::regexp_escape);
    legacy::install(vm, ctor, proto);
    let exec_fn = method(vm, proto, "exec", 1, exec);
    vm.realm.intrinsics.regexp_exec = exec_fn;
    method(vm, proto, "test", 1, test);
    method(vm, proto, "toString", 0, to_string_method);
    let getters: [(&str, crate::function::NativeFn); 10] = [
        ("source", source_getter),
        ("flags", flags_getter),
        ("hasIndices", has_indices),
        ("global", global),
        ("ignoreCase", ignore_case),
        ("multiline", multiline),
        ("dotAll", dot_all),
        ("unicode", unicode),
        ("unicodeSets", unicode_sets),
        ("sticky", sticky),
    ];
    for (name, f) in getters {
        let key = vm.key(name);
        accessor_property(vm, proto, key, name, Some(f), None);
    }
    let protocols: [(Gc<crate::symbol::Symbol>, &str, u32, crate::function::NativeFn); 5] = [
        (vm.symbols.match_, "[Symbol.match]", 1, symbol_match),
        (vm.symbols.match_all, "[Symbol.matchAll]", 1, symbol_match_all),
        (vm.symbols.replace, "[Symbol.replace]", 2, symbol_replace),
        (vm.symbols.search, "[Symbol.search]", 1, symbol_search),
        (vm.symbols.split, "[Symbol.split]", 2, symbol_split),
    ];
    for (symbol, name, length, f) in protocols {
        symbol_method(vm, proto, symbol, name, length, f, Attributes::METHOD);
    }
    let iter_proto = vm.realm.intrinsics.regexp_string_iterator_prototype;
    method(vm, iter_proto, "next", 0, string_iterator_next);
    let tag = PropertyKey::Symbol(vm.symbols.to_string_tag);
    let tag_value = vm.string("RegExp String Iterator");
    crate::object::internal_methods::define_builtin(vm, iter_proto, tag, tag_value, Attributes::CONFIGURABLE_ONLY);
    let string_proto = vm.realm.intrinsics.string_prototype;
    method(vm, string_proto, "match", 1, string_match);
    method(vm, string_proto, "matchAll", 1, string_match_all);
    method(vm, string_proto, "search", 1, string_search);
}

#[cfg(test)]
mod tests {
    use super::pattern_code_units;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn non_unicode_patterns_split_pairs_except_in_group_names() {
        let fox = u32::from('𝑓');
        // A literal astral character is two pattern characters…
        assert_eq!(pattern_code_units(&utf16("𠮷")), vec![0xD842, 0xDFB7]);
        // …but one identifier character in a group name or reference.
        let named = pattern_code_units(&utf16("(?<𝑓>.)\\k<𝑓>"));
        assert_eq!(named.iter().filter(|&&c| c == fox).count(), 2);
        // Lookbehinds and classes open no name.
        assert_eq!(pattern_code_units(&utf16("(?<=𠮷)")).len(), 7);
        assert_eq!(pattern_code_units(&utf16("[(?<𠮷]")).len(), 7);
    }
}
