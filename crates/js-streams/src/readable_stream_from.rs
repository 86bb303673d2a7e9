//! `ReadableStreamFromIterable` (`ReadableStream.from`, Streams §4.9.2): a
//! stream pulling from an async iterator. The host gets the iterator
//! (`GetIterator(asyncIterable, async)`); the controller keeps it and its
//! `next` method as its source algorithms.

use js_promise::PromiseValue;

use crate::host::{ErrorKind, StreamHost};
use crate::jobs::{FROM_NEXT_SETTLED, FROM_RETURN_SETTLED, PULL_SETTLED};
use crate::promises::{
    new_promise, promise_rejected_with, promise_resolved_with, queue_continuation, reject, resolve, upon_value,
};
use crate::readable_stream::new_readable_stream;
use crate::readable_stream_default_controller::{
    StartAlgorithm, readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    set_up_readable_stream_default_controller,
};
use crate::slots::SourceAlgorithms;

/// `ReadableStreamFromIterable` over the iterator record `(iterator,
/// next)`: a stream with high-water mark 0.
///
/// # Errors
/// Never in practice (there is no start algorithm); kept for the set-up's
/// signature.
pub fn readable_stream_from_iterable<H: StreamHost>(
    host: &mut H,
    iterator: H::Value,
    next: H::Value,
) -> Result<H::Object, H::Value> {
    let stream = new_readable_stream(host);
    let start = StartAlgorithm::User { this_value: H::Value::undefined(), start: H::Value::undefined() };
    set_up_readable_stream_default_controller(
        host,
        stream,
        start,
        SourceAlgorithms::Iterator { iterator, next },
        0.0,
        H::Value::undefined(),
    )?;
    Ok(stream)
}

/// The pull algorithm: `IteratorNext`, continued by [`FROM_NEXT_SETTLED`].
pub(crate) fn pull_algorithm<H: StreamHost>(host: &mut H, controller: H::Object, iterator: H::Value, next: H::Value) {
    let data = host.stream_object_value(controller);
    match host.call(next, iterator, &[]) {
        Ok(result) => upon_value(host, result, FROM_NEXT_SETTLED, data),
        Err(thrown) => queue_continuation(host, PULL_SETTLED, data, Err(thrown)),
    }
}

/// The `next()` result settled: close or enqueue, then the pull promise
/// (the spec's derived promise) settles a turn later.
pub(crate) fn next_settled<H: StreamHost>(host: &mut H, controller: H::Object, outcome: Result<H::Value, H::Value>) {
    let data = host.stream_object_value(controller);
    let outcome = outcome.and_then(|result| {
        if !host.is_object(result) {
            return Err(host.new_error(ErrorKind::Type, "The iterator's next() result is not an object"));
        }
        let done = host.get(result, "done")?;
        if host.to_boolean(done) {
            readable_stream_default_controller_close(host, controller);
        } else {
            let value = host.get(result, "value")?;
            host.root(value);
            readable_stream_default_controller_enqueue(host, controller, value)?;
        }
        Ok(H::Value::undefined())
    });
    queue_continuation(host, PULL_SETTLED, data, outcome);
}

/// The cancel algorithm: the iterator's `return(reason)`, if it has one.
pub(crate) fn cancel_algorithm<H: StreamHost>(host: &mut H, iterator: H::Value, reason: H::Value) -> H::Promise {
    let method = match host.get(iterator, "return") {
        Ok(method) => method,
        Err(thrown) => return promise_rejected_with(host, thrown),
    };
    if host.is_nullish(method) {
        return promise_resolved_with(host, H::Value::undefined());
    }
    if !host.is_callable(method) {
        let error = host.new_error(ErrorKind::Type, "The iterator's return is not a function");
        return promise_rejected_with(host, error);
    }
    let result = match host.call(method, iterator, &[reason]) {
        Ok(result) => result,
        Err(thrown) => return promise_rejected_with(host, thrown),
    };
    host.root(result);
    let promise = new_promise(host);
    let data = host.promise_value(promise);
    upon_value(host, result, FROM_RETURN_SETTLED, data);
    promise
}

/// The `return()` result settled: it must be an object.
pub(crate) fn return_settled<H: StreamHost>(host: &mut H, promise: H::Promise, outcome: Result<H::Value, H::Value>) {
    match outcome {
        Ok(result) if host.is_object(result) => resolve(host, promise, H::Value::undefined()),
        Ok(_) => {
            let error = host.new_error(ErrorKind::Type, "The iterator's return() result is not an object");
            reject(host, promise, error);
        }
        Err(reason) => reject(host, promise, reason),
    }
}
