//! `EventTarget` (DOM §2.7) without a tree: `addEventListener` with the
//! `capture`, `once`, `passive` and `signal` options, `removeEventListener`,
//! `dispatchEvent`, and event handler attributes (`onabort`) for the host's
//! targets. An event is dispatched at its target only: capture listeners
//! run first, then the others, each in the order they were added.
//!
//! An exception a listener throws is reported the way Node reports it: it
//! is rethrown from a `process.nextTick` callback, as an uncaught exception,
//! and dispatch goes on with the next listener.

use js_gc::{Gc, Trace, Tracer};

use crate::abstract_ops::{is_callable, to_boolean, to_string};
use crate::builtins::{constructor, native_function_with_data};
use crate::host::abort_signal::{self, AbortAlgorithm};
use crate::host::dom_exception::throw_dom_exception;
use crate::host::event::{phase, read_event, with_event};
use crate::host::{webidl_operation, webidl_to_string_tag};
use crate::interpreter::{CallInfo, prototype_from_constructor, string_text};
use crate::object::internal_methods::{call, get};
use crate::object::{DataClass, JsObject};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// An `EventTarget` made by its constructor: its slots are an
/// [`EventTargetData`] cell (its listeners).
static EVENT_TARGET: DataClass = DataClass::plain::<EventTargetData>("EventTarget");

/// One entry of an event listener list.
#[allow(clippy::struct_excessive_bools, reason = "the DOM's listener flags are independent")]
pub struct Listener {
    /// Identifies the entry (removal during dispatch, `signal` removal).
    id: u64,
    /// The event type it listens for.
    event_type: String,
    /// The callback: a function, or an object with `handleEvent`.
    callback: Value,
    capture: bool,
    once: bool,
    passive: bool,
    /// It is the listener of an event handler attribute (`onabort`).
    handler: bool,
}

impl Listener {
    /// Whether this is the listener `addEventListener` /
    /// `removeEventListener` with `event_type`, `callback` and `capture`
    /// name (handler attributes are never matched).
    fn is(&self, event_type: &str, callback: Value, capture: bool) -> bool {
        !self.handler && self.event_type == event_type && self.callback == callback && self.capture == capture
    }
}

/// An event target's listener list.
#[derive(Default)]
pub struct EventTargetData {
    listeners: Vec<Listener>,
    next_id: u64,
}

// SAFETY: the callbacks are the only pointers.
unsafe impl Trace for EventTargetData {
    fn trace(&self, tracer: &mut Tracer) {
        for l in &self.listeners {
            l.callback.trace(tracer);
        }
    }
}

impl EventTargetData {
    /// Appends `listener` with a new id; returns the id.
    fn add(&mut self, mut listener: Listener) -> u64 {
        listener.id = self.next_id;
        self.next_id += 1;
        let id = listener.id;
        self.listeners.push(listener);
        id
    }

    /// Removes the listener `id` ("remove an event listener"); false if it
    /// was already gone.
    pub(crate) fn remove(&mut self, id: u64) -> bool {
        let before = self.listeners.len();
        self.listeners.retain(|l| l.id != id);
        self.listeners.len() != before
    }

    fn contains(&self, id: u64) -> bool {
        self.listeners.iter().any(|l| l.id == id)
    }
}

/// Runs `f` on the listener list of `o`, if it is an event target.
pub fn with_event_target<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut EventTargetData) -> R) -> Option<R> {
    let data = o.borrow(&vm.heap).data()?;
    if let Some(target) = data.get::<EventTargetData>(&EVENT_TARGET) {
        return Some(f(target.borrow_mut(&mut vm.heap)));
    }
    let signal = data.get::<crate::host::abort_signal::AbortSignalData>(&crate::host::abort_signal::ABORT_SIGNAL)?;
    Some(f(&mut signal.borrow_mut(&mut vm.heap).target))
}

/// Whether `o` is an event target.
pub fn is_event_target(vm: &Vm, o: Gc<JsObject>) -> bool {
    let o = o.borrow(&vm.heap);
    o.is_data(&EVENT_TARGET) || o.is_data(&crate::host::abort_signal::ABORT_SIGNAL)
}

/// A native function's body that throws its data (reporting an exception
/// from a `nextTick` callback, as Node does).
fn rethrow(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Err(Exception::Throw(info.data(vm)))
}

/// "Report the exception": rethrown later as an uncaught exception.
pub(crate) fn report_exception(vm: &mut Vm, error: Value) {
    let thrower = native_function_with_data(vm, "", 0, rethrow, error);
    vm.queue_next_tick(Value::object(thrower), &[]);
}

/// What a listener does when its `signal` aborts: leaves its target.
pub(crate) fn remove_listener_on_abort(vm: &mut Vm, target: Gc<JsObject>, listener: u64) {
    with_event_target(vm, target, |t| t.remove(listener));
}

/// Calls one listener's callback with `event`.
fn invoke(vm: &mut Vm, target: Value, event: Gc<JsObject>, callback: Value, handler: bool) -> JsResult<()> {
    let event_value = Value::object(event);
    if is_callable(vm, callback) {
        let result = call(vm, callback, target, &[event_value])?;
        // An event handler returning false cancels the event.
        if handler && result == Value::FALSE {
            with_event(vm, event, |e| {
                if e.cancelable && !e.in_passive_listener {
                    e.canceled = true;
                }
            });
        }
        return Ok(());
    }
    let Some(object) = callback.as_object() else { return Ok(()) };
    let key = vm.key("handleEvent");
    let handle_event = get(vm, object, key, callback)?;
    if !is_callable(vm, handle_event) {
        return Err(vm.type_error("The \"listener.handleEvent\" property must be of type function"));
    }
    call(vm, handle_event, callback, &[event_value]).map(drop)
}

/// Dispatches `event` at `target` (DOM "dispatch" with a one-element
/// path); returns false if a listener canceled it.
pub fn dispatch(vm: &mut Vm, target: Gc<JsObject>, event: Gc<JsObject>) -> JsResult<bool> {
    let target_value = Value::object(target);
    let Some(event_type) = with_event(vm, event, |e| {
        e.dispatching = true;
        e.target = target_value;
        e.current_target = target_value;
        e.phase = phase::AT_TARGET;
        e.event_type
    }) else {
        return Err(vm.type_error("The \"event\" argument must be an instance of Event."));
    };
    let event_type = string_text(vm, event_type);
    // The listeners when dispatch began, capture ones first; later
    // additions do not run, removals are honoured.
    let snapshot: Vec<(u64, Value, bool, bool, bool)> = with_event_target(vm, target, |t| {
        let matching = t.listeners.iter().filter(|l| l.event_type == event_type);
        let (capture, other): (Vec<&Listener>, Vec<&Listener>) = matching.partition(|l| l.capture);
        capture.into_iter().chain(other).map(|l| (l.id, l.callback, l.once, l.passive, l.handler)).collect()
    })
    .unwrap_or_default();
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.extend(snapshot.iter().map(|s| s.1));
    vm.stack.temp_roots.push(Value::object(event));
    let mut outcome = Ok(());
    for (id, callback, once, passive, handler) in snapshot {
        if read_event(vm, event, |e| e.stop_immediate_propagation).unwrap_or(true) {
            break;
        }
        if !with_event_target(vm, target, |t| t.contains(id)).unwrap_or(false) {
            continue;
        }
        if once {
            with_event_target(vm, target, |t| t.remove(id));
        }
        with_event(vm, event, |e| e.in_passive_listener = passive);
        let result = invoke(vm, target_value, event, callback, handler);
        with_event(vm, event, |e| e.in_passive_listener = false);
        match result {
            Ok(()) => {}
            Err(Exception::Throw(error)) => report_exception(vm, error),
            Err(terminated) => {
                outcome = Err(terminated);
                break;
            }
        }
    }
    vm.stack.temp_roots.truncate(mark);
    let canceled = with_event(vm, event, |e| {
        e.phase = phase::NONE;
        e.current_target = Value::NULL;
        e.dispatching = false;
        e.stop_propagation = false;
        e.stop_immediate_propagation = false;
        e.canceled
    })
    .unwrap_or(false);
    outcome.map(|()| !canceled)
}

/// The current value of the event handler `on<event_type>` of `target`.
pub fn event_handler(vm: &mut Vm, target: Gc<JsObject>, event_type: &str) -> Value {
    with_event_target(vm, target, |t| {
        t.listeners.iter().find(|l| l.handler && l.event_type == event_type).map(|l| l.callback)
    })
    .flatten()
    .unwrap_or(Value::NULL)
}

/// Sets the event handler `on<event_type>` of `target`: an object replaces
/// the callback in place (keeping its position), anything else removes it.
pub fn set_event_handler(vm: &mut Vm, target: Gc<JsObject>, event_type: &str, value: Value) {
    let callback = if value.as_object().is_some() { Some(value) } else { None };
    with_event_target(vm, target, |t| {
        let existing = t.listeners.iter().position(|l| l.handler && l.event_type == event_type);
        match (existing, callback) {
            (Some(i), Some(callback)) => t.listeners[i].callback = callback,
            (Some(i), None) => {
                t.listeners.remove(i);
            }
            (None, Some(callback)) => {
                t.add(Listener {
                    id: 0,
                    event_type: event_type.to_owned(),
                    callback,
                    capture: false,
                    once: false,
                    passive: false,
                    handler: true,
                });
            }
            (None, None) => {}
        }
    });
}

/// The target `this` names, or a `TypeError`.
fn this_target(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    match info.this.as_object() {
        Some(o) if is_event_target(vm, o) => Ok(o),
        _ => Err(vm.type_error("Value of \"this\" must be of type EventTarget")),
    }
}

/// `new EventTarget()`.
fn event_target_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor EventTarget cannot be invoked without 'new'"));
    };
    let fallback = vm.runtime.host_objects.event_target_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    let data = EventTargetData::default();
    Ok(Value::object(vm.new_object_with_data(Some(proto), &EVENT_TARGET, data)))
}

/// The `callback` argument: an object or `null`.
fn listener_callback(vm: &mut Vm, callback: Value) -> JsResult<Option<Value>> {
    if callback.is_nullish() {
        return Ok(None);
    }
    if callback.as_object().is_none() {
        let shown = vm.display(callback);
        return Err(
            vm.type_error(&format!("The \"listener\" argument must be an instance of EventListener. Received {shown}"))
        );
    }
    Ok(Some(callback))
}

/// Options of `addEventListener`: a boolean (capture) or a dictionary.
struct ListenerOptions {
    capture: bool,
    once: bool,
    passive: bool,
    signal: Option<Gc<JsObject>>,
}

fn flag(vm: &mut Vm, options: Gc<JsObject>, name: &str) -> JsResult<bool> {
    let key = vm.key(name);
    let v = get(vm, options, key, Value::object(options))?;
    Ok(to_boolean(vm, v))
}

fn listener_options(vm: &mut Vm, options: Value, full: bool) -> JsResult<ListenerOptions> {
    let mut out = ListenerOptions { capture: false, once: false, passive: false, signal: None };
    let Some(object) = options.as_object() else {
        out.capture = !options.is_nullish() && to_boolean(vm, options);
        return Ok(out);
    };
    out.capture = flag(vm, object, "capture")?;
    if full {
        out.once = flag(vm, object, "once")?;
        out.passive = flag(vm, object, "passive")?;
        let key = vm.key("signal");
        let signal = get(vm, object, key, options)?;
        if !signal.is_undefined() {
            match signal.as_object().filter(|&s| abort_signal::is_abort_signal(vm, Value::object(s))) {
                Some(s) => out.signal = Some(s),
                None => {
                    return Err(vm.type_error("The \"options.signal\" property must be an instance of AbortSignal."));
                }
            }
        }
    }
    Ok(out)
}

/// The `this`, `type`, `callback` and `options` arguments of
/// `addEventListener` (`full`: every option) and `removeEventListener`
/// (only `capture`), converted in that order.
fn listener_arguments(
    vm: &mut Vm,
    info: &CallInfo,
    full: bool,
) -> JsResult<(Gc<JsObject>, String, Option<Value>, ListenerOptions)> {
    let target = this_target(vm, info)?;
    let event_type = info.arg(vm, 0);
    let event_type = to_string(vm, event_type)?;
    let event_type = string_text(vm, event_type);
    let callback = info.arg(vm, 1);
    let callback = listener_callback(vm, callback)?;
    let options = info.arg(vm, 2);
    let options = listener_options(vm, options, full)?;
    Ok((target, event_type, callback, options))
}

/// `EventTarget.prototype.addEventListener(type, callback, options)`.
fn add_event_listener(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (target, event_type, callback, options) = listener_arguments(vm, info, true)?;
    if let Some(signal) = options.signal
        && abort_signal::aborted(vm, signal)
    {
        return Ok(Value::UNDEFINED);
    }
    let Some(callback) = callback else { return Ok(Value::UNDEFINED) };
    let id = with_event_target(vm, target, |t| {
        let duplicate = t.listeners.iter().any(|l| l.is(&event_type, callback, options.capture));
        (!duplicate).then(|| {
            t.add(Listener {
                id: 0,
                event_type,
                callback,
                capture: options.capture,
                once: options.once,
                passive: options.passive,
                handler: false,
            })
        })
    })
    .flatten();
    if let (Some(id), Some(signal)) = (id, options.signal) {
        abort_signal::add_internal_algorithm(vm, signal, AbortAlgorithm::RemoveListener { target, listener: id });
    }
    Ok(Value::UNDEFINED)
}

/// `EventTarget.prototype.removeEventListener(type, callback, options)`.
fn remove_event_listener(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let (target, event_type, callback, options) = listener_arguments(vm, info, false)?;
    let Some(callback) = callback else { return Ok(Value::UNDEFINED) };
    with_event_target(vm, target, |t| {
        let found = t.listeners.iter().find(|l| l.is(&event_type, callback, options.capture)).map(|l| l.id);
        if let Some(id) = found {
            t.remove(id);
        }
    });
    Ok(Value::UNDEFINED)
}

/// `EventTarget.prototype.dispatchEvent(event)`.
fn dispatch_event(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let target = this_target(vm, info)?;
    let event = info.arg(vm, 0);
    let Some(event) = event.as_object().filter(|&e| read_event(vm, e, |_| ()).is_some()) else {
        return Err(vm.type_error("The \"event\" argument must be an instance of Event."));
    };
    if read_event(vm, event, |e| e.dispatching).unwrap_or(false) {
        return Err(throw_dom_exception(vm, "InvalidStateError", "The event is already being dispatched"));
    }
    with_event(vm, event, |e| e.trusted = false);
    dispatch(vm, target, event).map(Value::boolean)
}

/// Installs the `EventTarget` global; returns its constructor (AbortSignal
/// inherits from it).
pub(crate) fn install(vm: &mut Vm) -> Gc<JsObject> {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.event_target_prototype = Some(proto);
    let ctor = constructor(vm, "EventTarget", 0, event_target_ctor, proto);
    webidl_operation(vm, proto, "addEventListener", 2, add_event_listener);
    webidl_operation(vm, proto, "removeEventListener", 2, remove_event_listener);
    webidl_operation(vm, proto, "dispatchEvent", 1, dispatch_event);
    webidl_to_string_tag(vm, proto, "EventTarget");
    ctor
}
