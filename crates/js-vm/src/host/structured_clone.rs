//! `structuredClone(value, { transfer })` (HTML §2.7.10): a deep copy made
//! by the structured serialize / deserialize algorithms in one pass, with
//! Node's argument errors.
//!
//! What is cloned: primitives (not symbols), Boolean/Number/String
//! wrappers, Date, RegExp (source and flags; `lastIndex` starts at 0), Map,
//! Set, Error objects (`name` among the native error names, own `message`,
//! `cause`, `stack`), Arrays (holes and extra string-keyed properties kept)
//! and ordinary objects (own enumerable string-keyed properties, read
//! through getters, copied as data properties onto a plain object). The
//! memory map makes shared references and cycles come out the same shape.
//! Anything else (functions, symbols, WeakMap, Promise, …) throws a
//! `DataCloneError` DOMException.
//!
//! Binary data: an ArrayBuffer's bytes are copied (a resizable buffer
//! stays resizable); TypedArrays and DataViews are copied as views of the
//! copy of their buffer, so views that shared a buffer still share one.
//! Buffers named in `transfer` are detached after the clone (their copies
//! hold the contents). A SharedArrayBuffer is a `DataCloneError`: sharing
//! its memory would need shared storage, which these buffers do not have.

use std::collections::HashMap;

use js_gc::Gc;

use super::dom_exception::throw_dom_exception;
use crate::abstract_ops::{to_object, to_string};
use crate::builtins::collections::table_set;
use crate::builtins::error::ErrorKind;
use crate::interpreter::CallInfo;
use crate::object::internal_methods::{
    create_data_property_or_throw, define_builtin, get, get_value, own_property_keys,
};
use crate::object::{Attributes, JsObject, KindData, ObjectKind, PropertyKey};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// How deep nesting may go before the clone gives up with a RangeError
/// (the clone recurses on the native stack).
const MAX_DEPTH: usize = 4096;

/// The objects named in `options.transfer`: ArrayBuffers, whose copies
/// take their contents and which are detached after the clone.
struct TransferList {
    /// The transferred objects, in list order.
    objects: Vec<Gc<JsObject>>,
}

/// The state of one clone: the memory map from each source object to its
/// copy, and the nesting depth.
struct Cloner {
    memory: HashMap<Gc<JsObject>, Gc<JsObject>>,
    depth: usize,
}

/// A TypeError carrying Node's `code` property.
fn node_type_error(vm: &mut Vm, message: &str, code: &str) -> Exception {
    let error = vm.make_error(ErrorKind::Type, message);
    let key = vm.key("code");
    let code = vm.string(code);
    define_builtin(vm, error, key, code, Attributes::METHOD);
    Exception::Throw(Value::object(error))
}

/// A `DataCloneError` for `what`.
fn data_clone_error(vm: &mut Vm, what: &str) -> Exception {
    data_clone_error_message(vm, &format!("{what} could not be cloned."))
}

/// A `DataCloneError` with its whole message.
fn data_clone_error_message(vm: &mut Vm, message: &str) -> Exception {
    throw_dom_exception(vm, "DataCloneError", message)
}

/// `structuredClone(value [, options])`.
fn structured_clone(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    if info.argc == 0 {
        return Err(node_type_error(vm, "The value argument must be specified", "ERR_MISSING_ARGS"));
    }
    let value = info.arg(vm, 0);
    let options = info.arg(vm, 1);
    let transfer = read_transfer_list(vm, options)?;
    let mut cloner = Cloner { memory: HashMap::new(), depth: 0 };
    for (index, &buffer) in transfer.objects.iter().enumerate() {
        if transfer.objects[..index].contains(&buffer) {
            return Err(data_clone_error_message(vm, "Transfer list contains duplicate ArrayBuffer"));
        }
    }
    let clone = clone_value(vm, &mut cloner, value)?;
    vm.keep_alive(clone);
    // A transferred buffer not reached from `value` still moves (and its
    // copy is dropped), as in HTML's StructuredSerializeWithTransfer.
    for &buffer in &transfer.objects {
        crate::builtins::array_buffer::detach(vm, buffer)?;
    }
    Ok(clone)
}

/// The `transfer` option: an iterable of transferable objects.
fn read_transfer_list(vm: &mut Vm, options: Value) -> JsResult<TransferList> {
    let mut list = TransferList { objects: Vec::new() };
    if options.is_nullish() {
        return Ok(list);
    }
    if !options.is_object() {
        return Err(node_type_error(
            vm,
            "The options argument must be either an object or undefined",
            "ERR_INVALID_ARG_TYPE",
        ));
    }
    let key = vm.key("transfer");
    let transfer = get_value(vm, options, key)?;
    if transfer.is_undefined() {
        return Ok(list);
    }
    let iterator_key = PropertyKey::Symbol(vm.symbols.iterator);
    let iterable = transfer.is_object() && !get_value(vm, transfer, iterator_key)?.is_nullish();
    if !iterable {
        return Err(node_type_error(vm, "Optional transferList argument must be an iterable", "ERR_INVALID_ARG_TYPE"));
    }
    for entry in crate::builtins::iteration::iterate_to_vec(vm, transfer)? {
        match entry.as_object().filter(|&o| is_transferable(vm, o)) {
            Some(o) => list.objects.push(o),
            None => {
                return Err(node_type_error(vm, "Found invalid object in transferList", "ERR_INVALID_TRANSFER_OBJECT"));
            }
        }
    }
    Ok(list)
}

/// Whether `o` can be transferred: an ArrayBuffer that may be detached
/// (not shared, not immutable).
fn is_transferable(vm: &Vm, o: Gc<JsObject>) -> bool {
    crate::builtins::array_buffer::buffer_data(vm, o).is_some_and(|d| !d.is_shared() && !d.is_immutable())
}

/// StructuredSerializeInternal + deserialize for one value.
fn clone_value(vm: &mut Vm, cloner: &mut Cloner, value: Value) -> JsResult<Value> {
    if let Some(symbol) = value.as_symbol() {
        let text = crate::builtins::symbol::descriptive_string(vm, symbol);
        return Err(data_clone_error(vm, &text));
    }
    let Some(object) = value.as_object() else { return Ok(value) };
    if let Some(&copy) = cloner.memory.get(&object) {
        return Ok(Value::object(copy));
    }
    if cloner.depth >= MAX_DEPTH {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    cloner.depth += 1;
    let copy = clone_object(vm, cloner, object);
    cloner.depth -= 1;
    copy.map(Value::object)
}

/// Records `copy` as the clone of `source` (so later references and
/// cycles reuse it); both stay rooted for the rest of the clone.
fn remember(vm: &mut Vm, cloner: &mut Cloner, source: Gc<JsObject>, copy: Gc<JsObject>) {
    vm.keep_alive(Value::object(source));
    vm.keep_alive(Value::object(copy));
    cloner.memory.insert(source, copy);
}

/// How an object is cloned, by its kind.
enum Plan {
    Primitive(Value),
    Date(f64),
    RegExp(Gc<crate::string::JsString>, Gc<crate::string::JsString>),
    Map,
    Set,
    Error,
    Array(u32),
    ArrayBuffer,
    TypedArray(crate::builtins::typed_array::TypedArrayData),
    DataView(crate::builtins::data_view::DataViewData),
    Ordinary,
    Function,
    Unclonable(&'static str),
}

/// The plan for a kind another module owns.
fn data_plan(vm: &Vm, object: Gc<JsObject>, data: KindData) -> Plan {
    use crate::builtins::collections::{MAP, SET, WEAK_MAP, WEAK_SET};
    if let Some(re) = data.get::<crate::builtins::regexp::RegExpData>(&crate::builtins::regexp::REGEXP) {
        let re = re.borrow(&vm.heap);
        Plan::RegExp(re.source, re.flags)
    } else if let Some(buffer) =
        data.get::<crate::builtins::array_buffer::BufferData>(&crate::builtins::array_buffer::ARRAY_BUFFER)
    {
        // Sharing memory across a clone needs shared storage, which this
        // engine's single-threaded buffers do not have.
        if buffer.borrow(&vm.heap).is_shared() { Plan::Unclonable("#<SharedArrayBuffer>") } else { Plan::ArrayBuffer }
    } else if let Some(view) =
        data.get::<crate::builtins::typed_array::TypedArrayData>(&crate::builtins::typed_array::TYPED_ARRAY)
    {
        Plan::TypedArray(*view.borrow(&vm.heap))
    } else if let Some(view) =
        data.get::<crate::builtins::data_view::DataViewData>(&crate::builtins::data_view::DATA_VIEW)
    {
        Plan::DataView(*view.borrow(&vm.heap))
    } else if data.is(&MAP) {
        Plan::Map
    } else if data.is(&SET) {
        Plan::Set
    } else if data.is(&WEAK_MAP) {
        Plan::Unclonable("#<WeakMap>")
    } else if data.is(&WEAK_SET) {
        Plan::Unclonable("#<WeakSet>")
    } else {
        match crate::builtins::weak_ref::is_weak_ref_or_registry(vm, object) {
            Some(true) => Plan::Unclonable("#<WeakRef>"),
            Some(false) => Plan::Unclonable("#<FinalizationRegistry>"),
            None => Plan::Unclonable("#<Object>"),
        }
    }
}

/// Clones an object by its kind.
fn clone_object(vm: &mut Vm, cloner: &mut Cloner, source: Gc<JsObject>) -> JsResult<Gc<JsObject>> {
    let plan = match &source.borrow(&vm.heap).kind {
        ObjectKind::Boolean(b) => Plan::Primitive(Value::boolean(*b)),
        ObjectKind::Number(n) => Plan::Primitive(Value::number(*n)),
        ObjectKind::String(s) => Plan::Primitive(Value::string(*s)),
        ObjectKind::Date(t) => Plan::Date(*t),
        ObjectKind::Data(data) => data_plan(vm, source, *data),
        ObjectKind::Error { .. } => Plan::Error,
        ObjectKind::Array { length, .. } => Plan::Array(*length),
        ObjectKind::Ordinary | ObjectKind::Arguments => Plan::Ordinary,
        ObjectKind::Function(_) => Plan::Function,
        ObjectKind::Symbol(_) => Plan::Unclonable("[object Symbol]"),
        ObjectKind::Promise(_) => Plan::Unclonable("#<Promise>"),
        ObjectKind::Generator(_) => Plan::Unclonable("#<Generator>"),
        ObjectKind::AsyncGenerator(_) => Plan::Unclonable("#<AsyncGenerator>"),
        _ => Plan::Unclonable("#<Object>"),
    };
    match plan {
        Plan::Primitive(v) => {
            let copy = to_object(vm, v)?;
            remember(vm, cloner, source, copy);
            Ok(copy)
        }
        Plan::Date(t) => {
            let proto = vm.realm.intrinsics.date_prototype;
            let copy = vm.new_object_of_kind(Some(proto), ObjectKind::Date(t));
            remember(vm, cloner, source, copy);
            Ok(copy)
        }
        Plan::RegExp(pattern, flags) => {
            let copy = crate::builtins::regexp::regexp_create(vm, pattern, flags, None)?;
            let copy = copy.as_object().ok_or_else(|| vm.type_error("RegExp clone failed"))?;
            remember(vm, cloner, source, copy);
            Ok(copy)
        }
        Plan::Map | Plan::Set => clone_collection(vm, cloner, source, matches!(plan, Plan::Map)),
        Plan::Error => clone_error(vm, cloner, source),
        Plan::Array(length) => {
            let copy = crate::builtins::array::array_with_length(vm, f64::from(length))?;
            remember(vm, cloner, source, copy);
            copy_properties(vm, cloner, source, copy)?;
            Ok(copy)
        }
        Plan::ArrayBuffer => clone_array_buffer(vm, cloner, source),
        Plan::TypedArray(mut view) => {
            let buffer = clone_object(vm, cloner, view.buffer)?;
            vm.keep_alive(Value::object(buffer));
            view.buffer = buffer;
            let proto = crate::builtins::typed_array::intrinsic_prototype(vm, view.element);
            let copy = crate::builtins::typed_array::make_view(vm, proto, view);
            remember(vm, cloner, source, copy);
            Ok(copy)
        }
        Plan::DataView(mut view) => {
            let buffer = clone_object(vm, cloner, view.buffer)?;
            vm.keep_alive(Value::object(buffer));
            view.buffer = buffer;
            let proto = vm.realm.intrinsics.data_view_prototype;
            let copy = crate::builtins::data_view::new_data_view(vm, proto, view);
            remember(vm, cloner, source, copy);
            Ok(copy)
        }
        Plan::Ordinary => {
            let copy = vm.new_plain_object();
            remember(vm, cloner, source, copy);
            copy_properties(vm, cloner, source, copy)?;
            Ok(copy)
        }
        Plan::Function => {
            let text = crate::builtins::function::function_source_text(vm, source)?;
            Err(data_clone_error(vm, &text))
        }
        Plan::Unclonable(what) => Err(data_clone_error(vm, what)),
    }
}

/// An ArrayBuffer's copy: the same bytes (and maximum length, for a
/// resizable one) in a new buffer. A detached buffer cannot be cloned.
fn clone_array_buffer(vm: &mut Vm, cloner: &mut Cloner, source: Gc<JsObject>) -> JsResult<Gc<JsObject>> {
    if let Some(&copy) = cloner.memory.get(&source) {
        return Ok(copy);
    }
    let (bytes, max_byte_length) = match crate::builtins::array_buffer::buffer_data(vm, source) {
        Some(data) => (data.bytes().map(<[u8]>::to_vec), data.max_byte_length()),
        None => (None, None),
    };
    let Some(bytes) = bytes else {
        return Err(data_clone_error_message(vm, "An ArrayBuffer is detached and could not be cloned."));
    };
    let proto = vm.realm.intrinsics.array_buffer_prototype;
    let copy = crate::builtins::array_buffer::allocate_buffer(vm, proto, bytes.len(), max_byte_length, false)?;
    crate::builtins::array_buffer::with_buffer_mut(vm, copy, |data| {
        if let Some(target) = data.bytes_mut() {
            target.copy_from_slice(&bytes);
        }
    });
    remember(vm, cloner, source, copy);
    Ok(copy)
}

/// The own enumerable string-keyed properties of `source` (still present
/// when reached, read with `Get`), cloned onto `copy` as data properties.
fn copy_properties(vm: &mut Vm, cloner: &mut Cloner, source: Gc<JsObject>, copy: Gc<JsObject>) -> JsResult<()> {
    let mut keys: Vec<PropertyKey> = Vec::new();
    for key in own_property_keys(vm, source)? {
        if !key.is_symbol()
            && crate::object::internal_methods::get_own_property(vm, source, key)?
                .is_some_and(|d| d.enumerable == Some(true))
        {
            keys.push(key);
        }
    }
    for &key in &keys {
        // A getter may delete a later key: keep its atom alive.
        let key_value = crate::builtins::object::key_to_value(vm, key);
        vm.keep_alive(key_value);
    }
    for key in keys {
        if crate::object::internal_methods::get_own_property(vm, source, key)?.is_none() {
            continue;
        }
        let value = get(vm, source, key, Value::object(source))?;
        let cloned = clone_value(vm, cloner, value)?;
        create_data_property_or_throw(vm, copy, key, cloned)?;
    }
    Ok(())
}

/// A Map or Set: its entries as they are now, each key and value cloned in
/// order.
fn clone_collection(vm: &mut Vm, cloner: &mut Cloner, source: Gc<JsObject>, is_map: bool) -> JsResult<Gc<JsObject>> {
    let entries = crate::builtins::collections::table_entries(vm, source);
    for &(k, v) in &entries {
        vm.keep_alive(k);
        vm.keep_alive(v);
    }
    let proto = if is_map { vm.realm.intrinsics.map_prototype } else { vm.realm.intrinsics.set_prototype };
    let copy = crate::builtins::collections::new_table(vm, proto, is_map);
    remember(vm, cloner, source, copy);
    for (k, v) in entries {
        let key = clone_value(vm, cloner, k)?;
        vm.keep_alive(key);
        let value = if is_map { clone_value(vm, cloner, v)? } else { Value::UNDEFINED };
        table_set(vm, copy, key, value);
    }
    Ok(copy)
}

/// The native error prototype for a `name`, `%Error.prototype%` for names
/// that are not a native error's.
fn error_prototype_named(vm: &Vm, name: &str) -> Gc<JsObject> {
    let i = &vm.realm.intrinsics;
    match name {
        "EvalError" => i.eval_error_prototype,
        "RangeError" => i.range_error_prototype,
        "ReferenceError" => i.reference_error_prototype,
        "SyntaxError" => i.syntax_error_prototype,
        "TypeError" => i.type_error_prototype,
        "URIError" => i.uri_error_prototype,
        _ => i.error_prototype,
    }
}

/// An Error: the prototype chosen by `name`, the own data `message` (as a
/// string), `stack` (if a string) and the own data `cause` (cloned).
fn clone_error(vm: &mut Vm, cloner: &mut Cloner, source: Gc<JsObject>) -> JsResult<Gc<JsObject>> {
    let name_key = PropertyKey::String(vm.names.name);
    let name = get(vm, source, name_key, Value::object(source))?;
    let name = match name.as_string() {
        Some(s) => crate::interpreter::string_text(vm, s),
        None => String::new(),
    };
    let message_key = PropertyKey::String(vm.names.message);
    let message = match crate::object::internal_methods::get_own_property(vm, source, message_key)? {
        Some(desc) if desc.get.is_none() && desc.set.is_none() => {
            Some(Value::string(to_string(vm, desc.value.unwrap_or_default())?))
        }
        _ => None,
    };
    if let Some(message) = message {
        vm.keep_alive(message);
    }
    let stack_key = vm.key("stack");
    let stack = get(vm, source, stack_key, Value::object(source))?;
    let stack = if stack.is_string() { stack } else { Value::UNDEFINED };
    vm.keep_alive(stack);
    let proto = error_prototype_named(vm, &name);
    // The copy reports the original's creation site (its stack says the
    // same).
    let site = match &source.borrow(&vm.heap).kind {
        ObjectKind::Error { site, .. } => site.clone(),
        _ => None,
    };
    let copy = vm.new_object_of_kind(Some(proto), ObjectKind::Error { stack, site });
    remember(vm, cloner, source, copy);
    if let Some(message) = message {
        define_builtin(vm, copy, message_key, message, Attributes::METHOD);
    }
    let cause_key = vm.key("cause");
    if let Some(desc) = crate::object::internal_methods::get_own_property(vm, source, cause_key)?
        && desc.get.is_none()
        && desc.set.is_none()
    {
        let cause = clone_value(vm, cloner, desc.value.unwrap_or_default())?;
        define_builtin(vm, copy, cause_key, cause, Attributes::METHOD);
    }
    Ok(copy)
}

/// Installs the `structuredClone` global.
pub(crate) fn install(vm: &mut Vm) {
    let global = vm.realm.global;
    crate::builtins::method(vm, global, "structuredClone", 1, structured_clone);
}
