//! Error, the `NativeErrors` and `AggregateError` (§20.5), with V8-style
//! `stack` strings, and the VM's helpers for throwing them.

use std::rc::Rc;

use js_gc::Gc;

use super::{constructor, method, value_property};
use crate::abstract_ops::to_string;
use crate::bytecode::CodeKind;
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::internal_methods::{define_builtin, get, has_property};
use crate::object::{Attributes, JsObject, ObjectKind, PropertyKey};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// The kinds of native error the engine throws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `Error`
    Error,
    /// `EvalError`
    Eval,
    /// `RangeError`
    Range,
    /// `ReferenceError`
    Reference,
    /// `SyntaxError`
    Syntax,
    /// `TypeError`
    Type,
    /// `URIError`
    Uri,
    /// `AggregateError`
    Aggregate,
}

impl ErrorKind {
    fn name(self) -> &'static str {
        match self {
            ErrorKind::Error => "Error",
            ErrorKind::Eval => "EvalError",
            ErrorKind::Range => "RangeError",
            ErrorKind::Reference => "ReferenceError",
            ErrorKind::Syntax => "SyntaxError",
            ErrorKind::Type => "TypeError",
            ErrorKind::Uri => "URIError",
            ErrorKind::Aggregate => "AggregateError",
        }
    }

    /// `%NativeError.prototype%` for this kind among `i`.
    fn intrinsic_prototype(self, i: &crate::realm::Intrinsics) -> Gc<JsObject> {
        match self {
            ErrorKind::Error => i.error_prototype,
            ErrorKind::Eval => i.eval_error_prototype,
            ErrorKind::Range => i.range_error_prototype,
            ErrorKind::Reference => i.reference_error_prototype,
            ErrorKind::Syntax => i.syntax_error_prototype,
            ErrorKind::Type => i.type_error_prototype,
            ErrorKind::Uri => i.uri_error_prototype,
            ErrorKind::Aggregate => i.aggregate_error_prototype,
        }
    }
}

impl Vm {
    /// A new error object of `kind` with `message` and a stack.
    pub(crate) fn make_error(&mut self, kind: ErrorKind, message: &str) -> Gc<JsObject> {
        let proto = kind.intrinsic_prototype(&self.realm.intrinsics);
        let site = self.current_site();
        let obj = self.new_object_of_kind(Some(proto), ObjectKind::Error { stack: Value::UNDEFINED, site });
        let msg = self.string(message);
        let key = PropertyKey::String(self.names.message);
        define_builtin(self, obj, key, msg, Attributes::METHOD);
        install_stack(self, obj, kind.name(), message);
        obj
    }

    /// A thrown error of `kind`.
    pub(crate) fn throw_error(&mut self, kind: ErrorKind, message: &str) -> Exception {
        Exception::Throw(Value::object(self.make_error(kind, message)))
    }

    /// A thrown `TypeError`.
    pub(crate) fn type_error(&mut self, message: &str) -> Exception {
        self.throw_error(ErrorKind::Type, message)
    }

    /// A thrown `RangeError`.
    pub(crate) fn range_error(&mut self, message: &str) -> Exception {
        self.throw_error(ErrorKind::Range, message)
    }

    /// A thrown `ReferenceError`.
    pub(crate) fn reference_error(&mut self, message: &str) -> Exception {
        self.throw_error(ErrorKind::Reference, message)
    }

    /// A thrown `SyntaxError`.
    pub(crate) fn syntax_error(&mut self, message: &str) -> Exception {
        self.throw_error(ErrorKind::Syntax, message)
    }

    /// Where the innermost running code is: the site an error made now is
    /// reported at.
    pub(crate) fn current_site(&self) -> Option<crate::bytecode::SourceSite> {
        let frame = self.stack.frames.last()?;
        let code = frame.code.borrow(&self.heap);
        Some(crate::bytecode::SourceSite { source: Rc::clone(&code.source), offset: code.position(self.stack.pc) })
    }

    /// The stack trace lines (`    at f (file:line:col)`) of the running
    /// frames, innermost first.
    pub(crate) fn stack_trace(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (depth, frame) in self.stack.frames.iter().rev().take(10).enumerate() {
            let code = frame.code.borrow(&self.heap);
            let pc = if depth == 0 { self.stack.pc } else { frame.pc };
            let (line, column) = code.source.line_column(code.position(pc));
            let location = format!("{}:{line}:{column}", code.source.name);
            let name = code.name.borrow(&self.heap).flat().to_rust_string();
            let line = match code.kind {
                CodeKind::Script | CodeKind::Eval | CodeKind::Module => format!("    at {location}"),
                _ if name.is_empty() => format!("    at <anonymous> ({location})"),
                CodeKind::ClassConstructor { .. } => format!("    at new {name} ({location})"),
                _ if frame.construct => format!("    at new {name} ({location})"),
                _ => format!("    at {name} ({location})"),
            };
            lines.push(line);
        }
        lines
    }
}

/// Defines `stack` on a new error: the header line and the trace.
/// Captures the `stack` string (`name: message` and the running frames)
/// into an error object's slot.
pub(crate) fn install_stack(vm: &mut Vm, obj: Gc<JsObject>, name: &str, message: &str) {
    let mut text = if message.is_empty() { name.to_owned() } else { format!("{name}: {message}") };
    for line in vm.stack_trace() {
        text.push('\n');
        text.push_str(&line);
    }
    let value = vm.string(&text);
    if let ObjectKind::Error { stack, .. } = &mut obj.borrow_mut(&mut vm.heap).kind {
        *stack = value;
    }
}

/// `get Error.prototype.stack`: the trace captured at construction.
fn stack_getter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(o) = info.this.as_object() else {
        return Err(vm.type_error("Error.prototype.stack getter called on a non-object"));
    };
    Ok(match o.borrow(&vm.heap).kind {
        ObjectKind::Error { stack, .. } => stack,
        _ => Value::UNDEFINED,
    })
}

/// `set Error.prototype.stack`: an own data property on the receiver
/// (SetterThatIgnoresPrototypeProperties).
fn stack_setter(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(o) = info.this.as_object() else {
        return Err(vm.type_error("Error.prototype.stack setter called on a non-object"));
    };
    if info.argc == 0 {
        return Err(vm.type_error("Error.prototype.stack setter needs a value"));
    }
    if o == vm.realm.intrinsics.error_prototype {
        return Err(vm.type_error("Cannot set stack on Error.prototype"));
    }
    let v = info.arg(vm, 0);
    if !v.is_string() {
        return Err(vm.type_error("Error.prototype.stack setter requires a string"));
    }
    let key = PropertyKey::String(vm.names.stack);
    if crate::object::internal_methods::get_own_property(vm, o, key)?.is_none() {
        crate::object::internal_methods::create_data_property_or_throw(vm, o, key, v)?;
    } else if !crate::object::internal_methods::set(vm, o, key, v, info.this)? {
        return Err(vm.type_error("Cannot assign to read only property 'stack'"));
    }
    Ok(Value::UNDEFINED)
}

/// The shared body of the error constructors (§20.5.1.1).
/// The steps every error constructor starts with: the object from
/// `OrdinaryCreateFromConstructor(newTarget, default_prototype)` (kept
/// alive) and its `message` from the argument at `message_index` when that
/// is not undefined, with the message's text for the `stack` header.
pub(crate) fn create_error_with_message(
    vm: &mut Vm,
    info: &CallInfo,
    default_prototype: impl FnOnce(&crate::realm::Intrinsics) -> Gc<JsObject>,
    message_index: usize,
) -> JsResult<(Gc<JsObject>, String)> {
    let new_target = info.new_target.unwrap_or(info.callee);
    let proto = prototype_from_constructor(vm, new_target, default_prototype)?;
    let site = vm.current_site();
    let obj = vm.new_object_of_kind(Some(proto), ObjectKind::Error { stack: Value::UNDEFINED, site });
    vm.keep_alive(Value::object(obj));
    let message = info.arg(vm, message_index);
    let mut message_text = String::new();
    if !message.is_undefined() {
        let s = to_string(vm, message)?;
        message_text = crate::interpreter::string_text(vm, s);
        let key = PropertyKey::String(vm.names.message);
        define_builtin(vm, obj, key, Value::string(s), Attributes::METHOD);
    }
    Ok((obj, message_text))
}

fn construct_error(vm: &mut Vm, info: &CallInfo, kind: ErrorKind, message_index: usize) -> JsResult<Value> {
    let (obj, message_text) = create_error_with_message(vm, info, |i| kind.intrinsic_prototype(i), message_index)?;
    let options = info.arg(vm, message_index + 1);
    if let Some(o) = options.as_object() {
        let cause = PropertyKey::String(vm.names.cause);
        if has_property(vm, o, cause)? {
            let v = get(vm, o, cause, options)?;
            define_builtin(vm, obj, cause, v, Attributes::METHOD);
        }
    }
    let name_key = PropertyKey::String(vm.names.name);
    let name = get(vm, obj, name_key, Value::object(obj))?;
    let name_text = if name.is_undefined() {
        kind.name().to_owned()
    } else {
        let s = to_string(vm, name)?;
        crate::interpreter::string_text(vm, s)
    };
    install_stack(vm, obj, &name_text, &message_text);
    Ok(Value::object(obj))
}

macro_rules! error_constructor {
    ($fn_name:ident, $kind:expr) => {
        fn $fn_name(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
            construct_error(vm, info, $kind, 0)
        }
    };
}

error_constructor!(error_ctor, ErrorKind::Error);
error_constructor!(eval_error_ctor, ErrorKind::Eval);
error_constructor!(range_error_ctor, ErrorKind::Range);
error_constructor!(reference_error_ctor, ErrorKind::Reference);
error_constructor!(syntax_error_ctor, ErrorKind::Syntax);
error_constructor!(type_error_ctor, ErrorKind::Type);
error_constructor!(uri_error_ctor, ErrorKind::Uri);

/// `AggregateError(errors, message, options)`.
fn aggregate_error_ctor(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let obj = construct_error(vm, info, ErrorKind::Aggregate, 1)?;
    let errors = info.arg(vm, 0);
    let list = super::iteration::iterate_to_vec(vm, errors)?;
    let array = super::array::array_create(vm, &list);
    if let Some(o) = obj.as_object() {
        let key = PropertyKey::String(vm.names.errors);
        define_builtin(vm, o, key, Value::object(array), Attributes::METHOD);
    }
    Ok(obj)
}

/// `Error.prototype.toString` (§20.5.3.4).
fn error_to_string(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(o) = info.this.as_object() else {
        return Err(vm.type_error("Error.prototype.toString requires that 'this' be an Object"));
    };
    let name_key = PropertyKey::String(vm.names.name);
    let name = get(vm, o, name_key, info.this)?;
    let name = if name.is_undefined() { vm.string("Error") } else { Value::string(to_string(vm, name)?) };
    // Held while the `message` getter and `toString` run.
    vm.keep_alive(name);
    let msg_key = PropertyKey::String(vm.names.message);
    let msg = get(vm, o, msg_key, info.this)?;
    let msg = if msg.is_undefined() { vm.string("") } else { Value::string(to_string(vm, msg)?) };
    let (Some(name), Some(msg)) = (name.as_string(), msg.as_string()) else { return Ok(Value::UNDEFINED) };
    if name.borrow(&vm.heap).is_empty() {
        return Ok(Value::string(msg));
    }
    if msg.borrow(&vm.heap).is_empty() {
        return Ok(Value::string(name));
    }
    let sep = vm.heap.alloc(JsString::from_rust_str(": "));
    let left = JsString::concat(&mut vm.heap, name, sep);
    Ok(Value::string(JsString::concat(&mut vm.heap, left, msg)))
}

/// `Error.prototype.toString` as Rust text (for inspect).
pub(crate) fn error_to_string_value(vm: &mut Vm, info: &CallInfo) -> JsResult<String> {
    let v = error_to_string(vm, info)?;
    Ok(v.as_string().map(|s| crate::interpreter::string_text(vm, s)).unwrap_or_default())
}

/// `Error.isError(value)`: whether `value` has an `[[ErrorData]]` slot.
fn is_error(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    Ok(Value::boolean(v.as_object().is_some_and(|o| matches!(o.borrow(&vm.heap).kind, ObjectKind::Error { .. }))))
}

/// Installs the error constructors.
pub(crate) fn install(vm: &mut Vm) {
    let error_proto = vm.realm.intrinsics.error_prototype;
    let error = constructor(vm, "Error", 1, error_ctor, error_proto);
    method(vm, error_proto, "toString", 0, error_to_string);
    method(vm, error, "isError", 1, is_error);
    let stack_key = PropertyKey::String(vm.names.stack);
    super::accessor_property(vm, error_proto, stack_key, "stack", Some(stack_getter), Some(stack_setter));
    let name = vm.string("Error");
    value_property(vm, error_proto, "name", name, Attributes::METHOD);
    let empty = vm.string("");
    value_property(vm, error_proto, "message", empty, Attributes::METHOD);
    let natives: [(ErrorKind, crate::function::NativeFn); 7] = [
        (ErrorKind::Eval, eval_error_ctor),
        (ErrorKind::Range, range_error_ctor),
        (ErrorKind::Reference, reference_error_ctor),
        (ErrorKind::Syntax, syntax_error_ctor),
        (ErrorKind::Type, type_error_ctor),
        (ErrorKind::Uri, uri_error_ctor),
        (ErrorKind::Aggregate, aggregate_error_ctor),
    ];
    for (kind, f) in natives {
        let proto = kind.intrinsic_prototype(&vm.realm.intrinsics);
        let length = if kind == ErrorKind::Aggregate { 2 } else { 1 };
        let ctor = constructor(vm, kind.name(), length, f, proto);
        // The NativeError constructors inherit from Error.
        ctor.borrow_mut(&mut vm.heap).proto = Some(error);
        let name = vm.string(kind.name());
        value_property(vm, proto, "name", name, Attributes::METHOD);
        let empty = vm.string("");
        value_property(vm, proto, "message", empty, Attributes::METHOD);
    }
}
