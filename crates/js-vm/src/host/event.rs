//! `Event` (DOM §2.2) as far as a global without a document needs it: the
//! type, the `bubbles`/`cancelable`/`composed` flags, `target`,
//! `currentTarget`, `eventPhase`, the canceled flag behind
//! `preventDefault()`/`defaultPrevented`/`returnValue`, the propagation
//! flags, `timeStamp` and the unforgeable `isTrusted`.
//!
//! Dispatch itself is in [`super::event_target`].

use js_gc::{Gc, Trace, Tracer};

use crate::abstract_ops::{to_boolean, to_string};
use crate::builtins::{constructor, native_function, value_property};
use crate::host::{webidl_attribute, webidl_operation, webidl_to_string_tag};
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{define_own_property, get};
use crate::object::{Attributes, DataClass, JsObject, PropertyDescriptor};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// An `Event`: its slots are an [`EventData`] cell.
static EVENT: DataClass = DataClass::plain::<EventData>("Event");

/// `eventPhase` values.
pub mod phase {
    /// Not being dispatched.
    pub const NONE: u8 = 0;
    /// Capturing (never used: there is no tree).
    pub const CAPTURING: u8 = 1;
    /// At the target.
    pub const AT_TARGET: u8 = 2;
    /// Bubbling (never used: there is no tree).
    pub const BUBBLING: u8 = 3;
}

/// The internal state of an Event.
#[allow(clippy::struct_excessive_bools, reason = "the DOM's event flags are independent")]
pub struct EventData {
    /// `type`.
    pub event_type: Gc<JsString>,
    /// `bubbles`.
    pub bubbles: bool,
    /// `cancelable`.
    pub cancelable: bool,
    /// `composed`.
    pub composed: bool,
    /// `target`: the object it was last dispatched to, or `null`.
    pub target: Value,
    /// `currentTarget`: the object whose listeners run now, or `null`.
    pub current_target: Value,
    /// `eventPhase`.
    pub phase: u8,
    /// The canceled flag (`defaultPrevented`).
    pub canceled: bool,
    /// The stop propagation flag.
    pub stop_propagation: bool,
    /// The stop immediate propagation flag.
    pub stop_immediate_propagation: bool,
    /// The in passive listener flag: `preventDefault()` does nothing.
    pub in_passive_listener: bool,
    /// The dispatch flag.
    pub dispatching: bool,
    /// `isTrusted`: the host made and dispatched it.
    pub trusted: bool,
    /// `timeStamp`, in ms since the event loop started.
    pub time_stamp: f64,
}

// SAFETY: the type string and the two target values are the pointers.
unsafe impl Trace for EventData {
    fn trace(&self, tracer: &mut Tracer) {
        self.event_type.trace(tracer);
        self.target.trace(tracer);
        self.current_target.trace(tracer);
    }
}

/// Runs `f` on the event data of `o`, if it is an Event.
pub fn with_event<R>(vm: &mut Vm, o: Gc<JsObject>, f: impl FnOnce(&mut EventData) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<EventData>(&EVENT)?;
    Some(f(cell.borrow_mut(&mut vm.heap)))
}

/// Reads the event data of `o`, if it is an Event.
pub fn read_event<R>(vm: &Vm, o: Gc<JsObject>, f: impl FnOnce(&EventData) -> R) -> Option<R> {
    let cell = o.borrow(&vm.heap).data_of::<EventData>(&EVENT)?;
    Some(f(cell.borrow(&vm.heap)))
}

/// Creates an event of type `event_type` with prototype `proto` (the
/// `Event` constructor's steps, and the host's "create an event").
fn create_event(
    vm: &mut Vm,
    proto: Gc<JsObject>,
    event_type: Gc<JsString>,
    flags: [bool; 3],
    trusted: bool,
) -> Gc<JsObject> {
    let data = EventData {
        event_type,
        bubbles: flags[0],
        cancelable: flags[1],
        composed: flags[2],
        target: Value::NULL,
        current_target: Value::NULL,
        phase: phase::NONE,
        canceled: false,
        stop_propagation: false,
        stop_immediate_propagation: false,
        in_passive_listener: false,
        dispatching: false,
        trusted,
        time_stamp: vm.runtime.event_loop.elapsed_ms(),
    };
    let event = vm.new_object_with_data(Some(proto), &EVENT, data);
    // `isTrusted` is [LegacyUnforgeable]: an own accessor of every event.
    if let Some(getter) = vm.runtime.host_objects.event_is_trusted_getter {
        let desc = PropertyDescriptor {
            get: Some(Value::object(getter)),
            set: Some(Value::UNDEFINED),
            enumerable: Some(true),
            configurable: Some(false),
            ..Default::default()
        };
        let key = vm.key("isTrusted");
        let _ = define_own_property(vm, event, key, desc);
    }
    event
}

/// A new trusted event of `event_type` that neither bubbles nor can be
/// canceled, as the host fires them (`abort`).
pub fn new_trusted_event(vm: &mut Vm, event_type: &str) -> Gc<JsObject> {
    let proto = vm.runtime.host_objects.event_prototype.unwrap_or(vm.realm.intrinsics.object_prototype);
    let event_type = vm.heap.alloc(JsString::from_rust_str(event_type));
    create_event(vm, proto, event_type, [false; 3], true)
}

/// `new Event(type, eventInitDict = {})`.
fn event_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(new_target) = info.new_target else {
        return Err(vm.type_error("Class constructor Event cannot be invoked without 'new'"));
    };
    if info.args(vm).is_empty() {
        return Err(vm.type_error("The \"type\" argument must be specified"));
    }
    let event_type = info.arg(vm, 0);
    let event_type = to_string(vm, event_type)?;
    vm.keep_alive(Value::string(event_type));
    let init = info.arg(vm, 1);
    let mut flags = [false; 3];
    if !init.is_nullish() {
        let Some(init_object) = init.as_object() else {
            return Err(vm.type_error("The \"options\" argument must be of type object."));
        };
        for (i, name) in ["bubbles", "cancelable", "composed"].into_iter().enumerate() {
            let key = vm.key(name);
            let v = get(vm, init_object, key, init)?;
            flags[i] = to_boolean(vm, v);
        }
    }
    let fallback = vm.runtime.host_objects.event_prototype;
    let proto = prototype_from_constructor(vm, new_target, |i| fallback.unwrap_or(i.object_prototype))?;
    Ok(Value::object(create_event(vm, proto, event_type, flags, false)))
}

/// The event `this` names, or a `TypeError`.
fn this_event(vm: &mut Vm, info: &CallInfo) -> JsResult<Gc<JsObject>> {
    match info.this.as_object() {
        Some(o) if o.borrow(&vm.heap).is_data(&EVENT) => Ok(o),
        _ => Err(vm.type_error("Value of \"this\" must be of type Event")),
    }
}

fn read_this<R>(vm: &mut Vm, info: &CallInfo, f: impl FnOnce(&EventData) -> R) -> JsResult<R> {
    let o = this_event(vm, info)?;
    Ok(read_event(vm, o, f).expect("checked to be an Event"))
}

fn type_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::string(e.event_type))
}

fn target_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| e.target)
}

fn current_target_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| e.current_target)
}

fn event_phase_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::number(f64::from(e.phase)))
}

fn bubbles_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::boolean(e.bubbles))
}

fn cancelable_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::boolean(e.cancelable))
}

fn composed_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::boolean(e.composed))
}

fn default_prevented_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::boolean(e.canceled))
}

fn return_value_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::boolean(!e.canceled))
}

fn time_stamp_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::number(e.time_stamp))
}

fn is_trusted_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::boolean(e.trusted))
}

fn cancel_bubble_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    read_this(vm, info, |e| Value::boolean(e.stop_propagation))
}

/// "Set the canceled flag": only for a cancelable event outside a passive
/// listener.
fn set_canceled(e: &mut EventData) {
    if e.cancelable && !e.in_passive_listener {
        e.canceled = true;
    }
}

/// `set Event.prototype.returnValue`: `false` cancels.
fn return_value_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_event(vm, info)?;
    let v = info.arg(vm, 0);
    if !to_boolean(vm, v) {
        with_event(vm, o, set_canceled);
    }
    Ok(Value::UNDEFINED)
}

/// `set Event.prototype.cancelBubble`: `true` stops propagation.
fn cancel_bubble_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_event(vm, info)?;
    let v = info.arg(vm, 0);
    if to_boolean(vm, v) {
        with_event(vm, o, |e| e.stop_propagation = true);
    }
    Ok(Value::UNDEFINED)
}

fn prevent_default(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_event(vm, info)?;
    with_event(vm, o, set_canceled);
    Ok(Value::UNDEFINED)
}

fn stop_propagation(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_event(vm, info)?;
    with_event(vm, o, |e| e.stop_propagation = true);
    Ok(Value::UNDEFINED)
}

fn stop_immediate_propagation(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let o = this_event(vm, info)?;
    with_event(vm, o, |e| {
        e.stop_propagation = true;
        e.stop_immediate_propagation = true;
    });
    Ok(Value::UNDEFINED)
}

/// `composedPath()`: the current target while dispatching, else empty.
fn composed_path(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let current = read_this(vm, info, |e| e.current_target)?;
    let items: Vec<Value> = if current.is_null() { Vec::new() } else { vec![current] };
    Ok(Value::object(crate::builtins::array::array_create(vm, &items)))
}

/// Installs the `Event` global.
pub(crate) fn install(vm: &mut Vm) {
    let object_prototype = vm.realm.intrinsics.object_prototype;
    let proto = vm.new_object(Some(object_prototype));
    vm.runtime.host_objects.event_prototype = Some(proto);
    let ctor = constructor(vm, "Event", 1, event_ctor, proto);
    for (name, value) in [
        ("NONE", phase::NONE),
        ("CAPTURING_PHASE", phase::CAPTURING),
        ("AT_TARGET", phase::AT_TARGET),
        ("BUBBLING_PHASE", phase::BUBBLING),
    ] {
        value_property(vm, ctor, name, Value::number(f64::from(value)), Attributes::ENUMERABLE_ONLY);
        value_property(vm, proto, name, Value::number(f64::from(value)), Attributes::ENUMERABLE_ONLY);
    }
    webidl_attribute(vm, proto, "type", type_getter, None);
    webidl_attribute(vm, proto, "target", target_getter, None);
    webidl_attribute(vm, proto, "srcElement", target_getter, None);
    webidl_attribute(vm, proto, "currentTarget", current_target_getter, None);
    webidl_operation(vm, proto, "composedPath", 0, composed_path);
    webidl_attribute(vm, proto, "eventPhase", event_phase_getter, None);
    webidl_operation(vm, proto, "stopPropagation", 0, stop_propagation);
    webidl_attribute(vm, proto, "cancelBubble", cancel_bubble_getter, Some(cancel_bubble_setter));
    webidl_operation(vm, proto, "stopImmediatePropagation", 0, stop_immediate_propagation);
    webidl_attribute(vm, proto, "bubbles", bubbles_getter, None);
    webidl_attribute(vm, proto, "cancelable", cancelable_getter, None);
    webidl_attribute(vm, proto, "returnValue", return_value_getter, Some(return_value_setter));
    webidl_operation(vm, proto, "preventDefault", 0, prevent_default);
    webidl_attribute(vm, proto, "defaultPrevented", default_prevented_getter, None);
    webidl_attribute(vm, proto, "composed", composed_getter, None);
    webidl_attribute(vm, proto, "timeStamp", time_stamp_getter, None);
    webidl_to_string_tag(vm, proto, "Event");
    let getter = native_function(vm, "get isTrusted", 0, is_trusted_getter, false);
    vm.runtime.host_objects.event_is_trusted_getter = Some(getter);
}
