//! The web-legacy RegExp features (Annex B.2.4 and the
//! legacy-regexp-features proposal): `RegExp.prototype.compile` and the
//! static accessors `RegExp.$1`–`$9`, `input` (`$_`), `lastMatch` (`$&`),
//! `lastParen` (`$+`), `leftContext` (`` $` ``) and `rightContext` (`$'`).
//!
//! A successful RegExpBuiltinExec records only the subject string and the
//! match's ranges ([`LegacyRegExpStatics::record`]); the strings the
//! accessors return are cut when an accessor is read, so the regex hot
//! path does no extra allocation beyond moving the capture ranges.

use std::ops::Range;

use js_gc::{Gc, Trace, Tracer};

use super::{RegExpData, regexp_initialize};
use crate::abstract_ops::to_string;
use crate::interpreter::CallInfo;
use crate::object::JsObject;
use crate::object::internal_methods::set;
use crate::realm::RealmId;
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The last match as the legacy static accessors see it.
enum LastMatch {
    /// InvalidateLegacyRegExpStaticProperties ran: the accessors throw.
    Invalidated,
    /// The subject of the last successful match, the match's range and
    /// the ranges of its capture groups (`None` for one that did not
    /// participate). Before any match, an empty subject and range.
    Found { subject: Gc<JsString>, range: Range<usize>, captures: Vec<Option<Range<usize>>> },
}

/// `%RegExp%`'s legacy static slots (`[[RegExpInput]]`,
/// `[[RegExpLastMatch]]`, …) for one realm, kept as the last match's
/// subject and ranges.
pub struct LegacyRegExpStatics {
    /// `[[RegExpInput]]`: `None` once invalidated. `RegExp.input = v`
    /// changes only this slot.
    input: Option<Gc<JsString>>,
    last: LastMatch,
}

impl LegacyRegExpStatics {
    /// The initial state: every slot the empty string.
    pub(crate) fn new(empty: Gc<JsString>) -> Self {
        Self { input: Some(empty), last: LastMatch::Found { subject: empty, range: 0..0, captures: Vec::new() } }
    }

    /// UpdateLegacyRegExpStaticProperties: a successful match of `subject`.
    pub(crate) fn record(&mut self, subject: Gc<JsString>, range: Range<usize>, captures: Vec<Option<Range<usize>>>) {
        self.input = Some(subject);
        self.last = LastMatch::Found { subject, range, captures };
    }

    /// InvalidateLegacyRegExpStaticProperties: a match by a RegExp whose
    /// legacy features are off (a subclass instance or another realm's).
    pub(crate) fn invalidate(&mut self) {
        self.input = None;
        self.last = LastMatch::Invalidated;
    }
}

// SAFETY: the input and the last match's subject are the edges.
unsafe impl Trace for LegacyRegExpStatics {
    fn trace(&self, tracer: &mut Tracer) {
        if let Some(input) = self.input {
            input.trace(tracer);
        }
        if let LastMatch::Found { subject, .. } = &self.last {
            subject.trace(tracer);
        }
    }
}

/// What one accessor reads from the last match.
#[derive(Clone, Copy)]
enum Slot {
    Paren(usize),
    LastMatch,
    LastParen,
    LeftContext,
    RightContext,
}

/// The range of the subject that `slot` names, or `None` for the empty
/// string (a capture that did not participate, or no capture at all).
fn slot_range(slot: Slot, range: &Range<usize>, captures: &[Option<Range<usize>>], len: usize) -> Option<Range<usize>> {
    match slot {
        Slot::Paren(n) => captures.get(n - 1).cloned().flatten(),
        Slot::LastMatch => Some(range.clone()),
        // The last group by number, whether or not it participated.
        Slot::LastParen => captures.last().cloned().flatten(),
        Slot::LeftContext => Some(0..range.start),
        Slot::RightContext => Some(range.end..len),
    }
}

/// The first two steps of GetLegacyRegExpStaticProperty and
/// SetLegacyRegExpStaticProperty: the receiver must be this realm's
/// `%RegExp%` itself (not a subclass, not another realm's).
fn check_receiver(vm: &mut Vm, info: &CallInfo, name: &str) -> JsResult<()> {
    if info.this == Value::object(vm.realm.intrinsics.regexp_constructor) {
        Ok(())
    } else {
        Err(vm.type_error(&format!("RegExp.{name} accessor called on an object that is not %RegExp%")))
    }
}

fn legacy_get(vm: &mut Vm, info: &CallInfo, name: &str, slot: Slot) -> JsResult<Value> {
    check_receiver(vm, info, name)?;
    let LastMatch::Found { subject, range, captures } = &vm.realm.legacy_regexp.last else {
        return Err(vm.type_error(&format!("RegExp.{name} is not available after a non-legacy match")));
    };
    let subject = *subject;
    let Some(part) = slot_range(slot, range, captures, subject.borrow(&vm.heap).len()) else {
        return Ok(Value::string(vm.atoms.intern_str(&mut vm.heap, "")));
    };
    let flat = JsString::flatten(&mut vm.heap, subject);
    let units: Vec<u16> = flat.borrow(&vm.heap).flat().units().skip(part.start).take(part.len()).collect();
    Ok(Value::string(vm.heap.alloc(JsString::from_utf16(&units))))
}

fn input_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    check_receiver(vm, info, "input")?;
    match vm.realm.legacy_regexp.input {
        Some(s) => Ok(Value::string(s)),
        None => Err(vm.type_error("RegExp.input is not available after a non-legacy match")),
    }
}

fn input_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    check_receiver(vm, info, "input")?;
    let v = info.arg(vm, 0);
    let s = to_string(vm, v)?;
    vm.realm.legacy_regexp.input = Some(s);
    Ok(Value::UNDEFINED)
}

macro_rules! legacy_getter {
    ($fn_name:ident, $name:literal, $slot:expr) => {
        fn $fn_name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
            legacy_get(vm, info, $name, $slot)
        }
    };
}

legacy_getter!(paren1, "$1", Slot::Paren(1));
legacy_getter!(paren2, "$2", Slot::Paren(2));
legacy_getter!(paren3, "$3", Slot::Paren(3));
legacy_getter!(paren4, "$4", Slot::Paren(4));
legacy_getter!(paren5, "$5", Slot::Paren(5));
legacy_getter!(paren6, "$6", Slot::Paren(6));
legacy_getter!(paren7, "$7", Slot::Paren(7));
legacy_getter!(paren8, "$8", Slot::Paren(8));
legacy_getter!(paren9, "$9", Slot::Paren(9));
legacy_getter!(last_match, "lastMatch", Slot::LastMatch);
legacy_getter!(last_paren, "lastParen", Slot::LastParen);
legacy_getter!(left_context, "leftContext", Slot::LeftContext);
legacy_getter!(right_context, "rightContext", Slot::RightContext);

/// After RegExpBuiltinExec's match of `subject` by `r`: update the
/// statics if `r` belongs to the current realm and was made by `%RegExp%`
/// itself, invalidate them otherwise.
pub(super) fn after_match(
    vm: &mut Vm,
    r_realm: RealmId,
    legacy_enabled: bool,
    subject: Gc<JsString>,
    range: Range<usize>,
    captures: Vec<Option<Range<usize>>>,
) {
    if r_realm != vm.realm_id {
        return;
    }
    if legacy_enabled {
        vm.realm.legacy_regexp.record(subject, range, captures);
    } else {
        vm.realm.legacy_regexp.invalidate();
    }
}

/// `RegExp.prototype.compile(pattern, flags)` (B.2.4.1, with the
/// proposal's realm and subclass checks).
pub(super) fn compile(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = match info.this.as_object() {
        Some(o) => super::regexp_data(&vm.heap, o).map(|d| {
            let d = d.borrow(&vm.heap);
            (o, d.realm, d.legacy_features_enabled)
        }),
        None => None,
    };
    let Some((o, realm, legacy_enabled)) = o else {
        return Err(vm.type_error("RegExp.prototype.compile requires that 'this' be a RegExp object"));
    };
    if realm != vm.realm_id {
        return Err(vm.type_error("RegExp.prototype.compile called on a RegExp of another realm"));
    }
    if !legacy_enabled {
        return Err(vm.type_error("RegExp.prototype.compile called on a RegExp subclass instance"));
    }
    let pattern = info.arg(vm, 0);
    let flags = info.arg(vm, 1);
    let source = pattern.as_object().and_then(|p| {
        super::regexp_data(&vm.heap, p).map(|d| {
            let d = d.borrow(&vm.heap);
            (d.source, d.flags)
        })
    });
    let (p, f) = match source {
        Some(_) if !flags.is_undefined() => {
            return Err(vm.type_error("Cannot supply flags when constructing one RegExp from another"));
        }
        Some((source, original_flags)) => (source, original_flags),
        None => {
            let p =
                if pattern.is_undefined() { vm.atoms.intern_str(&mut vm.heap, "") } else { to_string(vm, pattern)? };
            vm.keep_alive(Value::string(p));
            let f = if flags.is_undefined() { vm.atoms.intern_str(&mut vm.heap, "") } else { to_string(vm, flags)? };
            (p, f)
        }
    };
    vm.keep_alive(Value::string(f));
    let data = regexp_initialize(vm, p, f)?;
    reinitialize(vm, o, data);
    let key = vm.key("lastIndex");
    if !set(vm, o, key, Value::number(0.0), info.this)? {
        return Err(vm.type_error("Cannot assign to read only property 'lastIndex'"));
    }
    Ok(info.this)
}

/// The slots RegExpInitialize sets on an existing object: the new pattern
/// and flags, keeping the object's realm and legacy-features flag.
fn reinitialize(vm: &mut Vm, o: Gc<JsObject>, mut data: RegExpData) {
    if let Some(d) = super::regexp_data(&vm.heap, o) {
        let d = d.borrow_mut(&mut vm.heap);
        data.realm = d.realm;
        data.legacy_features_enabled = d.legacy_features_enabled;
        *d = data;
    }
}

/// Installs `compile` and the static accessors.
pub(super) fn install(vm: &mut Vm, ctor: Gc<JsObject>, proto: Gc<JsObject>) {
    super::method(vm, proto, "compile", 2, compile);
    let getters: [(&str, crate::function::NativeFn); 13] = [
        ("$1", paren1),
        ("$2", paren2),
        ("$3", paren3),
        ("$4", paren4),
        ("$5", paren5),
        ("$6", paren6),
        ("$7", paren7),
        ("$8", paren8),
        ("$9", paren9),
        ("lastMatch", last_match),
        ("lastParen", last_paren),
        ("leftContext", left_context),
        ("rightContext", right_context),
    ];
    for (name, f) in getters {
        let key = vm.key(name);
        super::accessor_property(vm, ctor, key, name, Some(f), None);
    }
    let aliases: [(&str, crate::function::NativeFn); 4] =
        [("$&", last_match), ("$+", last_paren), ("$`", left_context), ("$'", right_context)];
    for (name, f) in aliases {
        let key = vm.key(name);
        super::accessor_property(vm, ctor, key, name, Some(f), None);
    }
    for name in ["input", "$_"] {
        let key = vm.key(name);
        super::accessor_property(vm, ctor, key, name, Some(input_getter), Some(input_setter));
    }
}
