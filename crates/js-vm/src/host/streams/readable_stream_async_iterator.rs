//! `%ReadableStreamAsyncIteratorPrototype%`: `next` and `return` of the
//! iterators `values()` makes.

use js_streams::readable_stream_async_iterator::{async_iterator_next, async_iterator_return};

use super::{VmStreamSlots, branded, idl_method, promise_result, rejected_type_error, to_string_tag};
use crate::interpreter::CallInfo;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

fn is_iterator(slots: &VmStreamSlots) -> bool {
    matches!(slots, VmStreamSlots::ReadableStreamAsyncIterator(_))
}

/// `next()`.
fn next(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(iterator) = branded(vm, info.this, is_iterator) else {
        return rejected_type_error(vm, "Illegal invocation");
    };
    let promise = async_iterator_next(&mut vm.host(), iterator);
    promise_result(vm, promise)
}

/// `return(value)`.
fn return_method(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let Some(iterator) = branded(vm, info.this, is_iterator) else {
        return rejected_type_error(vm, "Illegal invocation");
    };
    let value = info.arg(vm, 0);
    let promise = async_iterator_return(&mut vm.host(), iterator, value);
    promise_result(vm, promise)
}

/// Installs the iterator prototype (it has no global).
pub(super) fn install(vm: &mut Vm) {
    let async_iterator_prototype = vm.realm.intrinsics.async_iterator_prototype;
    let proto = vm.new_object(Some(async_iterator_prototype));
    vm.runtime.host_objects.streams.readable_stream_async_iterator = Some(proto);
    idl_method(vm, proto, "next", 0, next);
    idl_method(vm, proto, "return", 1, return_method);
    to_string_tag(vm, proto, "ReadableStream AsyncIterator");
}
