//! RegExp (§22.2) on the `regress` engine: construction, `exec`, the
//! flag getters, and the `@@match`, `@@matchAll`, `@@replace`, `@@search`
//! and `@@split` protocols that the String methods dispatch to.
//!
//! A pattern is compiled once per realm and source/flags pair
//! ([`program`]); RegExpBuiltinExec reads and writes `lastIndex` in its
//! slot and builds the match array in its final shape while the object is
//! as RegExpAlloc made it, and the protocols skip the `flags` getters'
//! calls when they would only reach the intrinsic ones ([`realm_state`]).

mod escape;
pub mod legacy;
mod program;
mod realm_state;

use std::rc::Rc;

use js_gc::{Gc, Trace, Tracer};

pub use program::{FlagSet, Program};
pub use realm_state::RegExpRealmState;

use super::iteration::iter_result;
use super::{accessor_property, constructor, method, symbol_method};
use crate::abstract_ops::{
    is_callable, same_value, to_boolean, to_integer_or_infinity, to_length, to_number, to_string, to_uint32,
};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{add_property, call, create_data_property_or_throw, get, get_value, set};
use crate::object::{Attributes, CachedProperty, DataClass, JsObject, Properties, PropertyKey, PropertySlots};
use crate::string::{JsStr, JsString};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// A RegExp object's internal slots.
pub struct RegExpData {
    /// `[[OriginalSource]]`.
    pub source: Gc<JsString>,
    /// `[[OriginalFlags]]`.
    pub flags: Gc<JsString>,
    /// `[[RegExpMatcher]]` with the parsed flags, shared with every RegExp
    /// of the same source and flags.
    pub program: Rc<Program>,
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
pub(crate) static REGEXP: DataClass = DataClass::plain::<RegExpData>("RegExp");

/// A %RegExpStringIterator% (`matchAll`): its slots are a
/// [`RegExpStringIteratorSlots`] cell.
static REGEXP_STRING_ITERATOR: DataClass = DataClass::plain::<RegExpStringIteratorSlots>("RegExpStringIterator");

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

/// The code units of a subject string, shared with the realm's one-entry
/// cache: `replace`, `split` and `match` run RegExpBuiltinExec on the same
/// string once per match, and converting it each time made a global
/// replace quadratic.
fn subject_units(vm: &mut Vm, s: Gc<JsString>) -> Rc<[u16]> {
    if let Some((cached, units)) = &vm.realm.regexp.subject
        && *cached == s
    {
        return Rc::clone(units);
    }
    let s = JsString::flatten(&mut vm.heap, s);
    // Per representation: the chained iterator `units` gives is not
    // exact-sized, and collecting through it was a tenth of Octane RegExp.
    let units: Rc<[u16]> = match s.borrow(&vm.heap).flat() {
        JsStr::Latin1(bytes) => bytes.iter().map(|&b| u16::from(b)).collect(),
        JsStr::Utf16(units) => Rc::from(units),
    };
    vm.realm.regexp.subject = Some((s, Rc::clone(&units)));
    units
}

/// RegExpInitialize: parses flags and pattern.
fn regexp_initialize(vm: &mut Vm, pattern: Gc<JsString>, flags: Gc<JsString>) -> JsResult<RegExpData> {
    let flags = JsString::flatten(&mut vm.heap, flags);
    let Some(flag_set) = FlagSet::parse(flags.borrow(&vm.heap).flat()) else {
        let flag_text = crate::interpreter::string_text(vm, flags);
        return Err(vm.syntax_error(&format!("Invalid regular expression flags '{flag_text}'")));
    };
    let program = compiled_program(vm, pattern, flags, flag_set)?;
    Ok(RegExpData { source: pattern, flags, program, realm: vm.realm_id, legacy_features_enabled: true })
}

/// The program for `pattern` with `flags`: the realm's cached one, or a
/// new compilation that the cache then keeps.
fn compiled_program(
    vm: &mut Vm,
    pattern: Gc<JsString>,
    flag_text: Gc<JsString>,
    flags: FlagSet,
) -> JsResult<Rc<Program>> {
    let pattern = JsString::flatten(&mut vm.heap, pattern);
    if let Some(program) = vm.realm.regexp.programs.get(pattern.borrow(&vm.heap).flat(), flags) {
        return Ok(program);
    }
    let units = units_of(vm, pattern);
    // Without `u` or `v` a pattern is a sequence of code units: a
    // surrogate pair is two pattern characters, matched unit by unit.
    let code_points: Vec<u32> = if flags.full_unicode() {
        char::decode_utf16(units.iter().copied())
            .map(|r| r.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from))
            .collect()
    } else {
        pattern_code_units(&units)
    };
    let matcher = match regress::Regex::from_unicode(code_points.into_iter(), flags.regress_flags()) {
        Ok(m) => m,
        Err(e) => {
            let text = crate::interpreter::string_text(vm, pattern);
            let flag_text = crate::interpreter::string_text(vm, flag_text);
            return Err(vm.syntax_error(&format!("Invalid regular expression: /{text}/{flag_text}: {e}")));
        }
    };
    let program = Rc::new(Program { matcher, flags });
    vm.realm.regexp.programs.insert(pattern.borrow(&vm.heap).flat(), Rc::clone(&program));
    Ok(program)
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
    define_last_index(vm, o);
    Ok(Value::object(o))
}

/// RegExpAlloc's `lastIndex` (writable, neither enumerable nor
/// configurable, 0) on a new object: straight into the realm's instance
/// shape once the first object has made it.
fn define_last_index(vm: &mut Vm, o: Gc<JsObject>) {
    let zero = Value::number(0.0);
    if let Some(shape) = vm.realm.regexp.instance_shape {
        let mut slots = PropertySlots::new();
        slots.push(zero);
        o.borrow_mut(&mut vm.heap).properties = Properties::Shaped { shape, slots };
        return;
    }
    let key = PropertyKey::String(vm.names.last_index);
    add_property(vm, o, key, zero, Attributes::from_bits(Attributes::WRITABLE));
    vm.realm.regexp.instance_shape = o.borrow(&vm.heap).shape();
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
            let source_key = PropertyKey::String(vm.names.source);
            let s = get_value(vm, pattern, source_key)?;
            // Held while the `flags` getter runs.
            vm.keep_alive(s);
            let f = if flags.is_undefined() {
                let flags_key = PropertyKey::String(vm.names.flags);
                get_value(vm, pattern, flags_key)?
            } else {
                flags
            };
            (s, f)
        }
        _ => (pattern, flags),
    };
    let p = if p.is_undefined() { vm.names.empty } else { to_string(vm, p)? };
    vm.keep_alive(Value::string(p));
    let f = if f.is_undefined() { vm.names.empty } else { to_string(vm, f)? };
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

fn last_index_key(vm: &Vm) -> PropertyKey {
    PropertyKey::String(vm.names.last_index)
}

/// Whether `r` still has the shape RegExpAlloc gave it: `lastIndex` its
/// only own property, a writable data property in slot 0. Reading or
/// writing that slot is then exactly `[[Get]]`/`[[Set]]` of `lastIndex`.
fn has_instance_shape(vm: &Vm, r: Gc<JsObject>) -> bool {
    let shape = r.borrow(&vm.heap).shape();
    shape.is_some() && shape == vm.realm.regexp.instance_shape
}

/// `ToLength(? Get(R, "lastIndex"))`.
fn read_last_index(vm: &mut Vm, r: Gc<JsObject>) -> JsResult<f64> {
    let value = if has_instance_shape(vm, r) {
        r.borrow(&vm.heap).slot(0)
    } else {
        let key = last_index_key(vm);
        get(vm, r, key, Value::object(r))?
    };
    to_length(vm, value)
}

/// `? Set(R, "lastIndex", v, true)`.
fn set_last_index(vm: &mut Vm, r: Gc<JsObject>, v: f64) -> JsResult<()> {
    if has_instance_shape(vm, r) {
        r.borrow_mut(&mut vm.heap).set_slot(0, Value::number(v));
        return Ok(());
    }
    let key = last_index_key(vm);
    if !set(vm, r, key, Value::number(v), Value::object(r))? {
        return Err(vm.type_error("Cannot assign to read only property 'lastIndex'"));
    }
    Ok(())
}

/// A successful match of RegExpBuiltinExec, before its result array.
struct FoundMatch {
    m: regress::Match,
    /// The subject's code units.
    text: Rc<[u16]>,
    flags: FlagSet,
    realm: crate::realm::RealmId,
    legacy_enabled: bool,
}

/// Runs `program` on `text` from `start` (at `start` only for a sticky
/// program: searching on would find matches the spec throws away, and a
/// split, which makes a sticky splitter try every position, quadratic). A
/// backtracking match can take exponential time: it polls the interrupt
/// flag and the step budget as it goes, and an answer after a stop means
/// "stopped", not "no match".
fn run_program(vm: &Vm, program: &Program, text: &[u16], start: usize) -> JsResult<Option<regress::Match>> {
    run_matcher(vm, program, text, start, program.flags.has(FlagSet::STICKY))
}

/// [`run_program`] with the choice between trying `start` only (`sticky`)
/// and searching on from it made by the caller: `@@split`'s fast path
/// searches with its sticky splitter's program, which finds the first
/// position a sticky attempt would succeed at in one call.
fn run_matcher(
    vm: &Vm,
    program: &Program,
    text: &[u16],
    start: usize,
    sticky: bool,
) -> JsResult<Option<regress::Match>> {
    let stopped = std::cell::Cell::new(false);
    let check = || {
        let stop = vm.check_interrupt_for(u64::from(regress::POLL_INTERVAL)).is_err();
        stopped.set(stop);
        stop
    };
    let found = regress::with_interrupt_check(&check, || match (sticky, program.flags.full_unicode()) {
        (true, true) => program.matcher.match_at_utf16(text, start),
        (true, false) => program.matcher.match_at_ucs2(text, start),
        (false, true) => program.matcher.find_from_utf16(text, start).next(),
        (false, false) => program.matcher.find_from_ucs2(text, start).next(),
    });
    if stopped.get() {
        return Err(Exception::Terminated);
    }
    Ok(found)
}

/// A functional replacement's result (§22.2.6.11 step 14.k): the replacer
/// called with the match, its captures, its position, the subject and, when
/// present, the groups object, then ToString.
fn call_replacer(
    vm: &mut Vm,
    replacer: Value,
    matched: Value,
    captures: &[Value],
    position: usize,
    subject: Gc<JsString>,
    groups: Value,
) -> JsResult<Vec<u16>> {
    let mut args = vec![matched];
    args.extend_from_slice(captures);
    args.push(Value::number(position as f64));
    args.push(Value::string(subject));
    if !groups.is_undefined() {
        args.push(groups);
    }
    let v = call(vm, replacer, Value::UNDEFINED, &args)?;
    let rs = to_string(vm, v)?;
    Ok(units_of(vm, rs))
}

/// RegExpBuiltinExec (§22.2.7.2) up to its match: reads and updates
/// `lastIndex` and runs the matcher; `None` where the spec returns null.
fn builtin_match(vm: &mut Vm, r: Gc<JsObject>, s: Gc<JsString>) -> JsResult<Option<FoundMatch>> {
    let mut last_index = read_last_index(vm, r)?;
    let Some(data) = regexp_data(&vm.heap, r) else { return Ok(None) };
    let data = data.borrow(&vm.heap);
    let (program, realm, legacy_enabled) = (Rc::clone(&data.program), data.realm, data.legacy_features_enabled);
    let flags = program.flags;
    let updates_last_index = flags.has(FlagSet::GLOBAL) || flags.has(FlagSet::STICKY);
    if !updates_last_index {
        last_index = 0.0;
    }
    let text = subject_units(vm, s);
    if last_index > text.len() as f64 {
        if updates_last_index {
            set_last_index(vm, r, 0.0)?;
        }
        return Ok(None);
    }
    let start = last_index as usize;
    let m = match run_program(vm, &program, &text, start)? {
        Some(m) if !flags.has(FlagSet::STICKY) || m.start() == start => m,
        _ => {
            if updates_last_index {
                set_last_index(vm, r, 0.0)?;
            }
            return Ok(None);
        }
    };
    if updates_last_index {
        set_last_index(vm, r, m.end() as f64)?;
    }
    Ok(Some(FoundMatch { m, text, flags, realm, legacy_enabled }))
}

/// RegExpBuiltinExec (§22.2.7.2).
fn builtin_exec(vm: &mut Vm, r: Gc<JsObject>, s: Gc<JsString>) -> JsResult<Value> {
    let Some(found) = builtin_match(vm, r, s)? else { return Ok(Value::NULL) };
    let array = match_result(vm, s, &found)?;
    let FoundMatch { m, realm, legacy_enabled, .. } = found;
    legacy::after_match(vm, realm, legacy_enabled, s, m.range(), m.captures);
    Ok(Value::object(array))
}

/// The substring of `text` in `range`, as a new string.
fn slice_value(vm: &mut Vm, text: &[u16], range: std::ops::Range<usize>) -> Value {
    Value::string(vm.heap.alloc(JsString::from_utf16(&text[range])))
}

/// The named groups of a match, each name once: a name used by several
/// groups (in different alternatives) gets the range of the one that
/// participated, in order of first appearance.
fn named_groups(m: &regress::Match) -> Vec<(String, Option<std::ops::Range<usize>>)> {
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
    named
}

/// A null-prototype object with one property per named group: each
/// value made by `value_of` from the group's range (`undefined` for one
/// that did not participate).
fn groups_object(
    vm: &mut Vm,
    named: &[(String, Option<std::ops::Range<usize>>)],
    mut value_of: impl FnMut(&mut Vm, std::ops::Range<usize>) -> Value,
) -> JsResult<Value> {
    if named.is_empty() {
        return Ok(Value::UNDEFINED);
    }
    let g = vm.new_object(None);
    for (name, range) in named {
        let v = match range {
            Some(range) => value_of(vm, range.clone()),
            None => Value::UNDEFINED,
        };
        let k = vm.key(name);
        create_data_property_or_throw(vm, g, k, v)?;
    }
    Ok(Value::object(g))
}

/// The array RegExpBuiltinExec returns for a match of `s`: the match and
/// its captures as elements, then `index`, `input` and `groups` (and
/// `indices` for the `d` flag). Built in its final shape: nothing can
/// observe a fresh array gaining its properties one by one.
fn match_result(vm: &mut Vm, s: Gc<JsString>, found: &FoundMatch) -> JsResult<Gc<JsObject>> {
    let (m, text) = (&found.m, &*found.text);
    let mut values = Vec::with_capacity(m.captures.len() + 1);
    values.push(slice_value(vm, text, m.range()));
    for capture in &m.captures {
        values.push(match capture {
            Some(range) => slice_value(vm, text, range.clone()),
            None => Value::UNDEFINED,
        });
    }
    let named = named_groups(m);
    let groups = groups_object(vm, &named, |vm, range| slice_value(vm, text, range))?;
    let array = super::array::array_create(vm, &values);
    let index = Value::number(m.start() as f64);
    let shape = match vm.realm.regexp.result_shape {
        Some(shape) => shape,
        None => result_shape(vm),
    };
    let mut slots = PropertySlots::new();
    for v in [index, Value::string(s), groups] {
        slots.push(v);
    }
    array.borrow_mut(&mut vm.heap).properties = Properties::Shaped { shape, slots };
    if found.flags.has(FlagSet::HAS_INDICES) {
        let indices = match_indices(vm, m, &named)?;
        let indices_key = PropertyKey::String(vm.names.indices);
        create_data_property_or_throw(vm, array, indices_key, Value::object(indices))?;
    }
    Ok(array)
}

/// The shape of a match array's named properties (`index`, `input`,
/// `groups`: plain data properties in that order), made once per realm.
#[cold]
fn result_shape(vm: &mut Vm) -> Gc<crate::object::Shape> {
    let mut shape = vm.root_shape;
    for name in [vm.names.index, vm.names.input, vm.names.groups] {
        let key = PropertyKey::String(name);
        shape = crate::object::Shape::add_property(&mut vm.heap, shape, key, Attributes::DEFAULT);
    }
    vm.realm.regexp.result_shape = Some(shape);
    shape
}

/// MakeMatchIndicesIndexPairArray (§22.2.7.8).
fn match_indices(
    vm: &mut Vm,
    m: &regress::Match,
    named: &[(String, Option<std::ops::Range<usize>>)],
) -> JsResult<Gc<JsObject>> {
    let pair = |vm: &mut Vm, r: std::ops::Range<usize>| {
        Value::object(super::array::array_create(vm, &[Value::number(r.start as f64), Value::number(r.end as f64)]))
    };
    let mut pairs = Vec::with_capacity(m.captures.len() + 1);
    for range in std::iter::once(Some(m.range())).chain(m.captures.iter().cloned()) {
        pairs.push(match range {
            Some(r) => pair(vm, r),
            None => Value::UNDEFINED,
        });
    }
    let indices = super::array::array_create(vm, &pairs);
    let indices_groups = groups_object(vm, named, pair)?;
    let groups_key = PropertyKey::String(vm.names.groups);
    create_data_property_or_throw(vm, indices, groups_key, indices_groups)?;
    Ok(indices)
}

/// Whether RegExpExec (§22.2.7.1) on `r` would call the intrinsic `exec`:
/// `[[Get]]` of `exec` finds it through the lookup cache (which runs no
/// code) and `r` is a RegExp.
fn exec_is_intrinsic(vm: &mut Vm, r: Gc<JsObject>) -> bool {
    let key = PropertyKey::String(vm.names.exec);
    let intrinsic = Value::object(vm.realm.intrinsics.regexp_exec);
    matches!(vm.lookup_cache.lookup(&vm.heap, r, key), Some(CachedProperty::Data(v)) if v == intrinsic)
        && is_regexp_object(vm, r)
}

/// RegExpExec (§22.2.7.1): a user `exec` if there is one.
pub fn regexp_exec(vm: &mut Vm, r: Gc<JsObject>, s: Gc<JsString>) -> JsResult<Value> {
    if exec_is_intrinsic(vm, r) {
        return builtin_exec(vm, r, s);
    }
    let exec_key = PropertyKey::String(vm.names.exec);
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

/// `RegExp.prototype.test` (§22.2.6.16). When `exec` is the intrinsic
/// one, the match array it would build is thrown away unseen, so only the
/// match runs.
fn test(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "test")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    if exec_is_intrinsic(vm, r) {
        let Some(found) = builtin_match(vm, r, s)? else { return Ok(Value::FALSE) };
        let FoundMatch { m, realm, legacy_enabled, .. } = found;
        legacy::after_match(vm, realm, legacy_enabled, s, m.range(), m.captures);
        return Ok(Value::TRUE);
    }
    Ok(Value::boolean(!regexp_exec(vm, r, s)?.is_null()))
}

/// The flags of `r` when `? ToString(? Get(R, "flags"))` would run only
/// the intrinsic `flags` getter and, from it, only the intrinsic flag
/// getters on a RegExp (the lookup cache finds each without running code):
/// then they are the RegExp's own flags, and nothing observable happens.
fn intrinsic_flags(vm: &mut Vm, r: Gc<JsObject>) -> Option<FlagSet> {
    let flags = regexp_data(&vm.heap, r)?.borrow(&vm.heap).program.flags;
    if vm.realm.regexp.getters_memo.is_some_and(|memo| memo_holds(&vm.heap, &memo, r)) {
        return Some(flags);
    }
    let getters = vm.realm.regexp.getters.as_ref()?;
    let mut expected = [getters.flags; 9];
    expected[1..].copy_from_slice(&getters.flag);
    for (key, getter) in expected {
        match vm.lookup_cache.lookup(&vm.heap, r, PropertyKey::String(key)) {
            Some(CachedProperty::Getter(g)) if g == Value::object(getter) => {}
            _ => return None,
        }
    }
    vm.realm.regexp.getters_memo = getters_memo(&vm.heap, r, &expected);
    Some(flags)
}

/// Whether `memo` describes `r`'s lookups of the nine getters.
#[inline]
fn memo_holds(heap: &js_gc::Heap, memo: &realm_state::FlagGettersMemo, r: Gc<JsObject>) -> bool {
    let object = r.borrow(heap);
    if object.shape() != Some(memo.receiver_shape) || object.proto != Some(memo.proto) {
        return false;
    }
    let proto = memo.proto.borrow(heap);
    proto.shape() == Some(memo.proto_shape) && memo.accessors.iter().all(|&(slot, cell)| proto.slot(slot) == cell)
}

/// The memo for `r`, whose lookups of `keys` all found the intrinsic
/// getters just now, when they were all found on its prototype.
fn getters_memo(
    heap: &js_gc::Heap,
    r: Gc<JsObject>,
    keys: &[(Gc<JsString>, Gc<JsObject>); 9],
) -> Option<realm_state::FlagGettersMemo> {
    let object = r.borrow(heap);
    let receiver_shape = object.shape()?;
    let proto = object.proto?;
    let proto_shape = proto.borrow(heap).shape()?;
    let mut accessors = [(0, Value::UNDEFINED); 9];
    for (entry, &(key, _)) in accessors.iter_mut().zip(keys) {
        let key = PropertyKey::String(key);
        if receiver_shape.borrow(heap).lookup(key).is_some() {
            return None;
        }
        let info = proto_shape.borrow(heap).lookup(key)?;
        *entry = (info.slot, proto.borrow(heap).slot(info.slot));
    }
    Some(realm_state::FlagGettersMemo { receiver_shape, proto, proto_shape, accessors })
}

/// The flags the protocols test, from `? ToString(? Get(R, "flags"))`
/// (each letter present, whatever else the string holds), and that
/// string.
fn protocol_flags(vm: &mut Vm, r: Gc<JsObject>, this: Value) -> JsResult<(FlagSet, Option<Gc<JsString>>)> {
    if let Some(flags) = intrinsic_flags(vm, r) {
        return Ok((flags, None));
    }
    let flags_key = PropertyKey::String(vm.names.flags);
    let flags = get(vm, r, flags_key, this)?;
    let flags = to_string(vm, flags)?;
    let flags = JsString::flatten(&mut vm.heap, flags);
    Ok((FlagSet::containing(flags.borrow(&vm.heap).flat()), Some(flags)))
}

/// The intrinsic getter function of accessor `key` on `obj`.
fn own_getter(vm: &Vm, obj: Gc<JsObject>, key: Gc<JsString>) -> Option<Gc<JsObject>> {
    let (value, attrs) = obj.borrow(&vm.heap).get_own(&vm.heap, PropertyKey::String(key))?;
    if !attrs.is_accessor() {
        return None;
    }
    value.as_internal::<crate::object::Accessor>()?.borrow(&vm.heap).get.as_object()
}

/// Records the intrinsic `flags` getter and flag getters of `proto` for
/// [`intrinsic_flags`].
fn record_intrinsic_getters(vm: &mut Vm, proto: Gc<JsObject>) {
    let flags_key = vm.names.flags;
    let Some(flags_getter) = own_getter(vm, proto, flags_key) else { return };
    let mut flag = [(flags_key, flags_getter); 8];
    for (slot, (name, _)) in flag.iter_mut().zip(realm_state::FLAG_GETTERS) {
        let key = vm.atoms.intern_str(&mut vm.heap, name);
        let Some(getter) = own_getter(vm, proto, key) else { return };
        *slot = (key, getter);
    }
    vm.realm.regexp.getters = Some(realm_state::IntrinsicGetters { flags: (flags_key, flags_getter), flag });
}

fn to_string_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "toString")?;
    let source_key = PropertyKey::String(vm.names.source);
    let source = get(vm, r, source_key, info.this)?;
    let source = to_string(vm, source)?;
    // Held while the `flags` getter runs.
    vm.keep_alive(Value::string(source));
    let flags_key = PropertyKey::String(vm.names.flags);
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
    if let Some(flags) = intrinsic_flags(vm, o) {
        return Ok(vm.string(&flags.text()));
    }
    let mut out = String::new();
    for (name, bit) in realm_state::FLAG_GETTERS {
        let key = vm.key(name);
        let v = get(vm, o, key, info.this)?;
        if to_boolean(vm, v) {
            out.push_str(&FlagSet::from_bits(bit).text());
        }
    }
    Ok(vm.string(&out))
}

macro_rules! flag_getter {
    ($fn_name:ident, $bit:expr, $name:literal) => {
        fn $fn_name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
            let Some(o) = info.this.as_object() else {
                return Err(vm.type_error(concat!("RegExp.prototype.", $name, " getter called on a non-object")));
            };
            let flags = match regexp_data(&vm.heap, o) {
                Some(d) => d.borrow(&vm.heap).program.flags,
                None if o == vm.realm.intrinsics.regexp_prototype => return Ok(Value::UNDEFINED),
                None => {
                    return Err(vm.type_error(concat!(
                        "RegExp.prototype.",
                        $name,
                        " getter called on a non-RegExp object"
                    )))
                }
            };
            Ok(Value::boolean(flags.has($bit)))
        }
    };
}

flag_getter!(has_indices, FlagSet::HAS_INDICES, "hasIndices");
flag_getter!(global, FlagSet::GLOBAL, "global");
flag_getter!(ignore_case, FlagSet::IGNORE_CASE, "ignoreCase");
flag_getter!(multiline, FlagSet::MULTILINE, "multiline");
flag_getter!(dot_all, FlagSet::DOT_ALL, "dotAll");
flag_getter!(unicode, FlagSet::UNICODE, "unicode");
flag_getter!(unicode_sets, FlagSet::UNICODE_SETS, "unicodeSets");
flag_getter!(sticky, FlagSet::STICKY, "sticky");

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
    let (flags, flags_string) = protocol_flags(vm, r, info.this)?;
    if !flags.has(FlagSet::GLOBAL) {
        return regexp_exec(vm, r, s);
    }
    let text = subject_units(vm, s);
    if flags_string.is_none() && is_unmodified(vm, r) {
        let found = all_matches(vm, r, s, &text, flags)?;
        if found.is_empty() {
            return Ok(Value::NULL);
        }
        let matches: Vec<Value> = found.iter().map(|m| slice_value(vm, &text, m.range())).collect();
        return Ok(Value::object(super::array::array_create(vm, &matches)));
    }
    let full_unicode = flags.full_unicode();
    set_last_index(vm, r, 0.0)?;
    let mut matches = Vec::new();
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
            let index_key = PropertyKey::String(vm.names.index);
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
    let text = subject_units(vm, s);
    let replace_value = info.arg(vm, 1);
    let functional = is_callable(vm, replace_value);
    let replacement = if functional {
        None
    } else {
        let rs = to_string(vm, replace_value)?;
        Some(units_of(vm, rs))
    };
    let (flags, flags_string) = protocol_flags(vm, r, info.this)?;
    if flags_string.is_none() && is_unmodified(vm, r) {
        return replace_unmodified(vm, r, s, &text, flags, replace_value, replacement.as_deref());
    }
    let global = flags.has(FlagSet::GLOBAL);
    let full_unicode = flags.full_unicode();
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
        let index_key = PropertyKey::String(vm.names.index);
        let pos = get(vm, result, index_key, Value::object(result))?;
        let position = to_integer_or_infinity(to_number(vm, pos)?).clamp(0.0, text.len() as f64) as usize;
        let mut captures = Vec::new();
        for n in 1..length.max(1) {
            let c = get(vm, result, PropertyKey::Index(n), Value::object(result))?;
            let c = if c.is_undefined() { c } else { Value::string(to_string(vm, c)?) };
            vm.keep_alive(c);
            captures.push(c);
        }
        let groups_key = PropertyKey::String(vm.names.groups);
        let mut groups = get(vm, result, groups_key, Value::object(result))?;
        let replaced: Vec<u16> = if functional {
            call_replacer(vm, replace_value, Value::string(matched), &captures, position, s, groups)?
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

/// Whether `r` is a RegExp as RegExpAlloc made it (only `lastIndex`, a
/// writable data property, of its own) whose `exec` is the intrinsic
/// one: then RegExpExec is RegExpBuiltinExec, and the arrays it returns
/// are seen by nobody but the protocol that asked for them.
fn is_unmodified(vm: &mut Vm, r: Gc<JsObject>) -> bool {
    has_instance_shape(vm, r) && exec_is_intrinsic(vm, r)
}

/// RegExpBuiltinExec over and over as `@@replace` and `@@match` run it on
/// an unmodified RegExp: every match, or the first without `g`, with
/// `lastIndex` moved past empty matches. The legacy statics end as the
/// last match left them.
fn all_matches(
    vm: &mut Vm,
    r: Gc<JsObject>,
    s: Gc<JsString>,
    text: &[u16],
    flags: FlagSet,
) -> JsResult<Vec<regress::Match>> {
    let global = flags.has(FlagSet::GLOBAL);
    if global {
        set_last_index(vm, r, 0.0)?;
    }
    let mut matches = Vec::new();
    let mut last = None;
    while let Some(found) = builtin_match(vm, r, s)? {
        last = Some((found.realm, found.legacy_enabled));
        let empty = found.m.range().is_empty();
        matches.push(found.m);
        if !global {
            break;
        }
        if empty {
            let this_index = read_last_index(vm, r)? as usize;
            set_last_index(vm, r, advance(text, this_index, flags.full_unicode()) as f64)?;
        }
    }
    if let (Some((realm, legacy_enabled)), Some(m)) = (last, matches.last()) {
        legacy::after_match(vm, realm, legacy_enabled, s, m.range(), m.captures.clone());
    }
    Ok(matches)
}

/// `@@replace` (§22.2.6.11) on an unmodified RegExp ([`is_unmodified`]):
/// the same steps, with each match kept as ranges instead of a result
/// array that only this function would read.
fn replace_unmodified(
    vm: &mut Vm,
    r: Gc<JsObject>,
    s: Gc<JsString>,
    text: &[u16],
    flags: FlagSet,
    replace_value: Value,
    replacement: Option<&[u16]>,
) -> JsResult<Value> {
    let matches = all_matches(vm, r, s, text, flags)?;
    if matches.is_empty() {
        return Ok(Value::string(s));
    }
    let dollar = u16::from(b'$');
    let mut out: Vec<u16> = Vec::with_capacity(text.len());
    let mut next_source_position = 0usize;
    for m in &matches {
        let position = m.start();
        out.extend_from_slice(&text[next_source_position.min(position)..position]);
        match replacement {
            // No `$`: GetSubstitution gives the replacement as it is.
            Some(replacement) if !replacement.contains(&dollar) => out.extend_from_slice(replacement),
            _ => {
                let mut captures = Vec::with_capacity(m.captures.len());
                for capture in &m.captures {
                    let v = match capture {
                        Some(range) => slice_value(vm, text, range.clone()),
                        None => Value::UNDEFINED,
                    };
                    vm.keep_alive(v);
                    captures.push(v);
                }
                let groups = groups_object(vm, &named_groups(m), |vm, range| slice_value(vm, text, range))?;
                vm.keep_alive(groups);
                let matched = &text[m.range()];
                let replaced = if let Some(replacement) = replacement {
                    get_substitution(vm, matched, text, position, &captures, groups, replacement)?
                } else {
                    let matched = slice_value(vm, text, m.range());
                    call_replacer(vm, replace_value, matched, &captures, position, s, groups)?
                };
                out.extend_from_slice(&replaced);
            }
        }
        next_source_position = m.end();
    }
    out.extend_from_slice(&text[next_source_position..]);
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&out))))
}

/// `RegExp.prototype[@@split]` (§22.2.6.14), with the spec's sticky
/// splitter made from the species constructor.
fn symbol_split(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let r = this_object(vm, info, "[Symbol.split]")?;
    let s = info.arg(vm, 0);
    let s = to_string(vm, s)?;
    vm.keep_alive(Value::string(s));
    let text = subject_units(vm, s);
    let default = vm.realm.intrinsics.regexp_constructor;
    let ctor = crate::abstract_ops::species_constructor(vm, r, default)?;
    vm.keep_alive(Value::object(ctor));
    let (flags, flags_string) = protocol_flags(vm, r, info.this)?;
    let flag_text = match flags_string {
        Some(f) => crate::interpreter::string_text(vm, f),
        None => flags.text(),
    };
    let unicode = flags.full_unicode();
    let new_flags = if flags.has(FlagSet::STICKY) { flag_text } else { format!("{flag_text}y") };
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
    // Checked after ToUint32(limit), the last user code before the loop.
    // A species constructor may ignore the `y` it was given; a splitter
    // that is not sticky reads lastIndex differently and takes the spec's
    // loop.
    let sticky_splitter =
        regexp_data(&vm.heap, splitter).is_some_and(|data| data.borrow(&vm.heap).program.flags.has(FlagSet::STICKY));
    if !text.is_empty() && sticky_splitter && is_unmodified(vm, splitter) {
        return split_unmodified(vm, splitter, s, &text, limit);
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

/// `@@split`'s loop (§22.2.6.14 steps 19–25) for an unmodified sticky
/// splitter ([`is_unmodified`]) on a non-empty subject. The spec tries a sticky
/// match at every position from `q`; one search from `q` finds the first
/// position where that attempt succeeds, with the same match, since a
/// search tries the positions in order with the same matcher. The spec's
/// lastIndex writes land on the splitter, which nobody else sees; the
/// legacy statics end as its last successful exec left them.
fn split_unmodified(vm: &mut Vm, splitter: Gc<JsObject>, s: Gc<JsString>, text: &[u16], limit: u32) -> JsResult<Value> {
    let Some(data) = regexp_data(&vm.heap, splitter) else { return Ok(Value::UNDEFINED) };
    let data = data.borrow(&vm.heap);
    let (program, realm, legacy_enabled) = (Rc::clone(&data.program), data.realm, data.legacy_features_enabled);
    let unicode = program.flags.full_unicode();
    let size = text.len();
    let mut parts: Vec<Value> = Vec::new();
    let mut last_match = None;
    let (mut p, mut q) = (0, 0);
    let finished = loop {
        if q >= size {
            break false;
        }
        let found = run_matcher(vm, &program, text, q, false)?;
        // The spec tries no position at or past the end of the subject.
        let Some(m) = found.filter(|m| m.start() < size) else { break false };
        q = m.start();
        let e = m.end().min(size);
        if e == p {
            q = advance(text, q, unicode);
            last_match = Some(m);
            continue;
        }
        let part = Value::string(vm.heap.alloc(JsString::from_utf16(&text[p..q])));
        vm.keep_alive(part);
        parts.push(part);
        let mut full = parts.len() as u32 == limit;
        for capture in &m.captures {
            if full {
                break;
            }
            let c = match capture {
                Some(range) => slice_value(vm, text, range.clone()),
                None => Value::UNDEFINED,
            };
            vm.keep_alive(c);
            parts.push(c);
            full = parts.len() as u32 == limit;
        }
        last_match = Some(m);
        if full {
            break true;
        }
        p = e;
        q = p;
    };
    if let Some(m) = last_match {
        legacy::after_match(vm, realm, legacy_enabled, s, m.range(), m.captures);
    }
    if !finished {
        let tail = Value::string(vm.heap.alloc(JsString::from_utf16(&text[p..])));
        parts.push(tail);
    }
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
    let (flag_set, flags_string) = protocol_flags(vm, r, info.this)?;
    let flags = match flags_string {
        Some(f) => f,
        None => vm.heap.alloc(JsString::from_rust_str(&flag_set.text())),
    };
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
    let proto = vm.realm.intrinsics.regexp_string_iterator_prototype;
    let it = vm.new_object_with_data(
        Some(proto),
        &REGEXP_STRING_ITERATOR,
        RegExpStringIteratorSlots {
            regexp: matcher,
            string: s,
            global: flag_set.has(FlagSet::GLOBAL),
            unicode: flag_set.full_unicode(),
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
        let text = subject_units(vm, string);
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
            let flags_key = PropertyKey::String(vm.names.flags);
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
    let pattern = if regexp.is_undefined() { vm.names.empty } else { to_string(vm, regexp)? };
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
    record_intrinsic_getters(vm, proto);
}

#[cfg(test)]
mod tests {
    use super::pattern_code_units;
    use crate::value::Value;
    use crate::vm::Vm;

    /// Evaluates `source` and returns the completion value as `console.log`
    /// prints it (or the thrown value's description).
    fn eval(source: &str) -> String {
        let mut vm = Vm::new();
        match vm.eval_script("test.js", source) {
            Ok(v) => v.display(&mut vm),
            Err(crate::JsError::Throw(v)) => format!("threw {}", v.describe_uncaught(&mut vm)),
            Err(_) => "abrupt".to_owned(),
        }
    }

    #[test]
    fn the_protocols_read_flags_through_the_flags_property() {
        // §22.2.6.8 and §22.2.6.11 read `flags` (ES2024): an own `flags`
        // property without "g" makes the match and the replace non-global
        // even though [[OriginalFlags]] has it. (Node 20 still reads
        // `global`, so this is not among the node-compared programs.)
        let out = eval(
            r#"const r = /a/g;
               Object.defineProperty(r, "flags", { value: "" });
               ["aaa".replace(r, "b"), JSON.stringify("aaa".match(r)), r.lastIndex].join(" ")"#,
        );
        // The replace ran RegExpBuiltinExec with [[OriginalFlags]] (`g`), which
        // left lastIndex at 1; the non-global match then started there.
        assert_eq!(out, "baa [\"a\"] 2");
        let out = eval(
            r#"let reads = 0;
               const r = /a/;
               Object.defineProperty(r, "flags", { get() { reads++; return "u"; } });
               ["aaba".replace(r, "-"), "aaba".match(r).index, "a,b".split(r).length, reads].join(" ")"#,
        );
        assert_eq!(out, "-aba 0 2 3");
    }

    #[test]
    fn remembered_flag_getters_still_see_own_accessors_and_redefinitions() {
        // After matches have found the intrinsic getters (and remembered
        // where), a RegExp with an own `sticky` accessor — the intrinsic
        // one, then another — and a redefinition on the prototype must be
        // read as the spec's `flags` getter reads them. (Node 20 reads only
        // `global` and `unicode` here, so this is not node-compared.)
        let out = eval(
            r##"const log = [];
               const sticky = Object.getOwnPropertyDescriptor(RegExp.prototype, "sticky");
               for (let i = 0; i < 3; i++) "abc".replace(/b/g, "-");
               const same = /b/g;
               Object.defineProperty(same, "sticky", sticky);
               const other = /b/g;
               Object.defineProperty(other, "sticky", { get() { log.push("own"); return true; } });
               const a = ["abcb".replace(same, "-"), "abcb".replace(other, "+"), "abcb".replace(/b/g, "*")];
               Object.defineProperty(RegExp.prototype, "sticky", { get() { log.push("proto"); return false; }, configurable: true });
               a.push("abcb".replace(/b/g, "#"));
               Object.defineProperty(RegExp.prototype, "sticky", sticky);
               a.push("abcb".replace(/b/g, "%"));
               a.join(" ") + " " + log.join(",")"##,
        );
        // `other` reports sticky, but @@replace only reads `flags` for "g"
        // and "u"; its RegExpBuiltinExec uses [[OriginalFlags]].
        assert_eq!(out, "a-c- a+c+ a*c* a#c# a%c% own,proto");
    }

    #[test]
    fn equal_patterns_share_one_compiled_program_and_other_flags_do_not() {
        let mut vm = Vm::new();
        let program_of = |vm: &mut Vm, source: &str| {
            let handle = vm.eval_script("test.js", source).ok();
            let o = handle.and_then(|h| vm.handle_value(&h)).and_then(Value::as_object).expect("a RegExp");
            let data = super::regexp_data(&vm.heap, o).expect("a RegExp's slots");
            std::rc::Rc::clone(&data.borrow(&vm.heap).program)
        };
        let a = program_of(&mut vm, "/ab+c/g");
        let b = program_of(&mut vm, "new RegExp('ab+c', 'g')");
        let c = program_of(&mut vm, "/ab+c/gi");
        assert!(std::rc::Rc::ptr_eq(&a, &b));
        assert!(!std::rc::Rc::ptr_eq(&a, &c));
    }

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
