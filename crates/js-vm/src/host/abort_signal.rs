//! `AbortSignal` (DOM §3.2): an event target with an abort reason and
//! abort algorithms; `aborted`, `reason`, `throwIfAborted()`, `onabort`,
//! and the static `AbortSignal.abort(reason)`, `AbortSignal.timeout(ms)`
//! (an unreferenced event-loop timer, as in Node, aborting with a
//! `TimeoutError` DOMException) and `AbortSignal.any(signals)`.
//!
//! # Host API
//!
//! Other host code (the streams' `pipeTo`) uses a signal through these
//! functions, named after the spec's terms:
//!
//! * [`is_abort_signal`]: is a value an AbortSignal;
//! * [`aborted`] and [`reason`]: "is aborted" and its abort reason;
//! * [`add_algorithm`] / [`remove_algorithm`]: "add" and "remove" an abort
//!   algorithm — a native function and one value it is called with;
//! * [`signal_abort`]: "signal abort" with a reason;
//! * [`create_signal`]: a new, not yet aborted signal.
//!
//! Deviation: the spec holds a dependent signal's source signals and a
//! source's dependent signals weakly; here they are strong references, so
//! a signal made by `AbortSignal.any()` lives as long as its sources.

use js_gc::{Gc, Trace, Tracer};

use crate::abstract_ops::to_number;
use crate::builtins::iteration::iterate_to_vec;
use crate::builtins::{constructor, native_function_with_data};
use crate::host::dom_exception::new_dom_exception;
use crate::host::event::new_trusted_event;
use crate::host::event_target::{
    EventTargetData, dispatch, event_handler, remove_listener_on_abort, report_exception, set_event_handler,
};
use crate::host::{webidl_attribute, webidl_operation, webidl_to_string_tag};
use crate::interpreter::CallInfo;
use crate::object::{DataClass, JsObject};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// An `AbortSignal`: its slots are an [`AbortSignalData`] cell (its
/// listeners, reason and abort algorithms).
pub(crate) static ABORT_SIGNAL: DataClass = DataClass::plain::<AbortSignalData>("AbortSignal");

/// A native abort algorithm: called with the value it was added with.
pub type AbortAlgorithmFn = fn(&mut Vm, Value) -> JsResult<()>;

/// Names an added abort algorithm, for [`remove_algorithm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgorithmId(u64);

impl AlgorithmId {
    /// The name as a number (for a holder that stores plain numbers, such
    /// as the js-streams crate's pipe record).
    pub const fn to_bits(self) -> u64 {
        self.0
    }

    /// The name [`to_bits`](Self::to_bits) gave.
    pub const fn from_bits(bits: u64) -> Self {
        Self(bits)
    }
}

/// An abort algorithm.
pub(crate) enum AbortAlgorithm {
    /// Host code's algorithm and its value.
    Native { run: AbortAlgorithmFn, data: Value },
    /// An event listener added with this `signal` leaves its target.
    RemoveListener { target: Gc<JsObject>, listener: u64 },
}

// SAFETY: the value or the target is the pointer.
unsafe impl Trace for AbortAlgorithm {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::Native { data, .. } => data.trace(tracer),
            Self::RemoveListener { target, .. } => target.trace(tracer),
        }
    }
}

/// The internal state of an AbortSignal.
pub struct AbortSignalData {
    /// Its event listeners (`abort`).
    pub(crate) target: EventTargetData,
    /// The abort reason; `None` while not aborted.
    reason: Option<Value>,
    /// The abort algorithms, in the order they were added.
    algorithms: Vec<(u64, AbortAlgorithm)>,
    next_algorithm: u64,
    /// Made by `AbortSignal.any()`.
    dependent: bool,
    /// The signals it follows (`AbortSignal.any()`).
    sources: Vec<Gc<JsObject>>,
    /// The signals that follow it.
    dependents: Vec<Gc<JsObject>>,
}

// SAFETY: listeners, reason, algorithms and the related signals are the
// pointers.
unsafe impl Trace for AbortSignalData {
    fn trace(&self, tracer: &mut Tracer) {
        self.target.trace(tracer);
        if let Some(reason) = self.reason {
            reason.trace(tracer);
        }
        for (_, algorithm) in &self.algorithms {
            algorithm.trace(tracer);
        }
        for s in self.sources.iter().chain(&self.dependents) {
            s.trace(tracer);
        }
    }
}

fn with_signal<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut AbortSignalData) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<AbortSignalData>(&ABORT_SIGNAL)?;
    Some(f(cell.borrow_mut(&mut vm.heap)))
}

fn read_signal<R>(vm: &Vm, o: Gc<JsObject>, f: impl FnOnce(&AbortSignalData) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<AbortSignalData>(&ABORT_SIGNAL)?;
    Some(f(cell.borrow(&vm.heap)))
}

/// Whether `v` is an AbortSignal.
pub fn is_abort_signal(vm: &Vm, v: Value) -> bool {
    v.as_object().is_some_and(|o| o.borrow(&vm.heap).is_data(&ABORT_SIGNAL))
}

/// "Is aborted": the signal has an abort reason.
pub fn aborted(vm: &Vm, signal: Gc<JsObject>) -> bool {
    read_signal(vm, signal, |s| s.reason.is_some()).unwrap_or(false)
}

/// The abort reason (`undefined` while not aborted).
pub fn reason(vm: &Vm, signal: Gc<JsObject>) -> Value {
    read_signal(vm, signal, |s| s.reason).flatten().unwrap_or(Value::UNDEFINED)
}

/// "Add" an abort algorithm: `run(vm, data)` when the signal aborts. Does
/// nothing and returns `None` if it already has.
pub fn add_algorithm(vm: &mut Vm, signal: Gc<JsObject>, run: AbortAlgorithmFn, data: Value) -> Option<AlgorithmId> {
    add_internal_algorithm(vm, signal, AbortAlgorithm::Native { run, data })
}

pub(crate) fn add_internal_algorithm(
    vm: &mut Vm,
    signal: Gc<JsObject>,
    algorithm: AbortAlgorithm,
) -> Option<AlgorithmId> {
    with_signal(vm, signal, |s| {
        if s.reason.is_some() {
            return None;
        }
        let id = s.next_algorithm;
        s.next_algorithm += 1;
        s.algorithms.push((id, algorithm));
        Some(AlgorithmId(id))
    })
    .flatten()
}

/// "Remove" an abort algorithm.
pub fn remove_algorithm(vm: &mut Vm, signal: Gc<JsObject>, id: AlgorithmId) {
    with_signal(vm, signal, |s| s.algorithms.retain(|(i, _)| *i != id.0));
}

/// "Create" an AbortSignal that is not aborted.
pub fn create_signal(vm: &mut Vm) -> Gc<JsObject> {
    let proto = vm.runtime.host_objects.abort_signal_prototype.unwrap_or(vm.realm.intrinsics.object_prototype);
    let data = AbortSignalData {
        target: EventTargetData::default(),
        reason: None,
        algorithms: Vec::new(),
        next_algorithm: 0,
        dependent: false,
        sources: Vec::new(),
        dependents: Vec::new(),
    };
    vm.new_object_with_data(Some(proto), &ABORT_SIGNAL, data)
}

/// The default abort reason: an `AbortError` DOMException.
fn abort_error(vm: &mut Vm) -> Value {
    new_dom_exception(vm, "AbortError", "This operation was aborted")
}

/// "Signal abort" with `reason` (`undefined`: an `AbortError`
/// DOMException): records the reason on the signal and on the dependent
/// signals that follow it, then runs the abort steps of each.
pub fn signal_abort(vm: &mut Vm, signal: Gc<JsObject>, reason: Value) -> JsResult<()> {
    if aborted(vm, signal) {
        return Ok(());
    }
    let reason = if reason.is_undefined() { abort_error(vm) } else { reason };
    let dependents = with_signal(vm, signal, |s| {
        s.reason = Some(reason);
        s.dependents.clone()
    })
    .unwrap_or_default();
    let mut to_abort = Vec::new();
    for dependent in dependents {
        let newly = with_signal(vm, dependent, |d| {
            if d.reason.is_some() {
                false
            } else {
                d.reason = Some(reason);
                true
            }
        });
        if newly == Some(true) {
            to_abort.push(dependent);
        }
    }
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.extend(to_abort.iter().map(|&s| Value::object(s)));
    let mut result = run_abort_steps(vm, signal);
    for dependent in to_abort {
        if result.is_ok() {
            result = run_abort_steps(vm, dependent);
        }
    }
    vm.stack.temp_roots.truncate(mark);
    result
}

/// "Run the abort steps": the abort algorithms in order (the list is
/// emptied), then an `abort` event.
fn run_abort_steps(vm: &mut Vm, signal: Gc<JsObject>) -> JsResult<()> {
    let algorithms = with_signal(vm, signal, |s| std::mem::take(&mut s.algorithms)).unwrap_or_default();
    // Out of the signal, the algorithms' values are rooted here.
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.push(Value::object(signal));
    for (_, algorithm) in &algorithms {
        match algorithm {
            AbortAlgorithm::Native { data, .. } => vm.stack.temp_roots.push(*data),
            AbortAlgorithm::RemoveListener { target, .. } => vm.stack.temp_roots.push(Value::object(*target)),
        }
    }
    let mut outcome = Ok(());
    for (_, algorithm) in algorithms {
        let result = match algorithm {
            AbortAlgorithm::Native { run, data } => run(vm, data),
            AbortAlgorithm::RemoveListener { target, listener } => {
                remove_listener_on_abort(vm, target, listener);
                Ok(())
            }
        };
        match result {
            Ok(()) => {}
            Err(Exception::Throw(error)) => report_exception(vm, error),
            Err(terminated) => {
                outcome = Err(terminated);
                break;
            }
        }
    }
    if outcome.is_ok() {
        let event = new_trusted_event(vm, "abort");
        outcome = dispatch(vm, signal, event).map(drop);
    }
    vm.stack.temp_roots.truncate(mark);
    outcome
}

/// The signal `this` names, or a `TypeError`.
fn this_signal(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    match info.this.as_object() {
        Some(o) if is_abort_signal(vm, Value::object(o)) => Ok(o),
        _ => Err(vm.type_error("Value of \"this\" must be of type AbortSignal")),
    }
}

fn aborted_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let signal = this_signal(vm, info)?;
    Ok(Value::boolean(aborted(vm, signal)))
}

fn reason_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let signal = this_signal(vm, info)?;
    Ok(reason(vm, signal))
}

/// `AbortSignal.prototype.throwIfAborted()`.
fn throw_if_aborted(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let signal = this_signal(vm, info)?;
    match read_signal(vm, signal, |s| s.reason).flatten() {
        Some(reason) => Err(Exception::Throw(reason)),
        None => Ok(Value::UNDEFINED),
    }
}

fn onabort_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let signal = this_signal(vm, info)?;
    Ok(event_handler(vm, signal, "abort"))
}

fn onabort_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let signal = this_signal(vm, info)?;
    let value = info.arg(vm, 0);
    set_event_handler(vm, signal, "abort", value);
    Ok(Value::UNDEFINED)
}

/// `AbortSignal.abort(reason)`: a signal aborted already.
fn abort_static(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let reason = info.arg(vm, 0);
    let reason = if reason.is_undefined() { abort_error(vm) } else { reason };
    let signal = create_signal(vm);
    with_signal(vm, signal, |s| s.reason = Some(reason));
    Ok(Value::object(signal))
}

/// The timer callback of `AbortSignal.timeout`: its data is the signal.
fn timeout_fired(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(signal) = info.data(vm).as_object() else { return Ok(Value::UNDEFINED) };
    let reason = new_dom_exception(vm, "TimeoutError", "The operation was aborted due to timeout");
    signal_abort(vm, signal, reason)?;
    Ok(Value::UNDEFINED)
}

/// `AbortSignal.timeout(milliseconds)`: aborts with a `TimeoutError` after
/// that long, on a timer that does not keep the event loop alive.
fn timeout_static(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    // [EnforceRange] unsigned long long.
    let ms = info.arg(vm, 0);
    let ms = to_number(vm, ms)?;
    if !ms.is_finite() || !(0.0..=9_007_199_254_740_991.0).contains(&ms.trunc()) {
        let shown = vm.display(Value::number(ms));
        return Err(vm.type_error(&format!(
            "The value of \"delay\" is out of range. It must be >= 0 && <= 9007199254740991. Received {shown}"
        )));
    }
    let signal = create_signal(vm);
    let callback = native_function_with_data(vm, "", 0, timeout_fired, Value::object(signal));
    vm.schedule_host_timer(Value::object(callback), ms.trunc(), false);
    Ok(Value::object(signal))
}

/// `AbortSignal.any(signals)`: a signal that aborts with the first of
/// them (already aborted if one is).
fn any_static(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let list = info.arg(vm, 0);
    if list.as_object().is_none() {
        return Err(vm.type_error("The \"signals\" argument must be an instance of Array."));
    }
    let signals = iterate_to_vec(vm, list)?;
    let mut sources = Vec::with_capacity(signals.len());
    for s in signals {
        match s.as_object().filter(|&o| is_abort_signal(vm, Value::object(o))) {
            Some(o) => sources.push(o),
            None => return Err(vm.type_error("The \"signals\" argument must contain only AbortSignal instances.")),
        }
    }
    let result = create_signal(vm);
    if let Some(reason) = sources.iter().find_map(|&s| read_signal(vm, s, |d| d.reason).flatten()) {
        with_signal(vm, result, |r| r.reason = Some(reason));
        return Ok(Value::object(result));
    }
    // Follow each source; a dependent signal's own sources stand in for it.
    let mut followed: Vec<Gc<JsObject>> = Vec::new();
    for source in sources {
        let (dependent, their_sources) =
            read_signal(vm, source, |d| (d.dependent, d.sources.clone())).unwrap_or_default();
        let direct = if dependent { their_sources } else { vec![source] };
        for s in direct {
            if !followed.contains(&s) {
                followed.push(s);
            }
        }
    }
    for &s in &followed {
        with_signal(vm, s, |d| d.dependents.push(result));
    }
    with_signal(vm, result, |r| {
        r.dependent = true;
        r.sources = followed;
    });
    Ok(Value::object(result))
}

/// Installs the `AbortSignal` global, inheriting from `EventTarget`.
pub(crate) fn install(vm: &mut Vm, event_target_ctor: Gc<JsObject>) {
    let parent_proto = vm.runtime.host_objects.event_target_prototype.unwrap_or(vm.realm.intrinsics.object_prototype);
    let proto = vm.new_object(Some(parent_proto));
    vm.runtime.host_objects.abort_signal_prototype = Some(proto);
    let ctor = constructor(vm, "AbortSignal", 0, crate::host::illegal_constructor, proto);
    ctor.borrow_mut(&mut vm.heap).proto = Some(event_target_ctor);
    webidl_operation(vm, ctor, "abort", 0, abort_static);
    webidl_operation(vm, ctor, "timeout", 1, timeout_static);
    webidl_operation(vm, ctor, "any", 1, any_static);
    webidl_attribute(vm, proto, "aborted", aborted_getter, None);
    webidl_attribute(vm, proto, "reason", reason_getter, None);
    webidl_operation(vm, proto, "throwIfAborted", 0, throw_if_aborted);
    webidl_attribute(vm, proto, "onabort", onabort_getter, Some(onabort_setter));
    webidl_to_string_tag(vm, proto, "AbortSignal");
}
