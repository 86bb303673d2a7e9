//! Thenables and self-resolution.

use js_promise::{PromiseHost, PromiseStatus};

use crate::host::{TestHost, Value};

/// `new Promise(r => r(value))`.
fn resolved_with(host: &mut TestHost, value: Value) -> crate::host::Promise {
    let executor =
        host.func_with(vec![value], |host, captures, _, args| host.call(args[0], Value::Undefined, &[captures[0]]));
    host.construct(executor)
}

#[test]
fn then_getter_is_read_exactly_once() {
    let mut host = TestHost::new();
    let then = host.func(|host, args| {
        host.log("then called");
        host.call(args[0], Value::Undefined, &[Value::Int(7)])
    });
    let getter = host.func_with(vec![then], |host, captures, _, _| {
        host.log("get then");
        Ok(captures[0])
    });
    let thenable = host.thenable_with_getter(getter);
    let p = resolved_with(&mut host, thenable);
    // The getter runs synchronously during resolve; `then` in a job.
    assert_eq!(host.take_log(), ["get then"]);
    host.run_microtasks();
    assert_eq!(host.take_log(), ["then called"]);
    assert_eq!(host.state(p).result(), Some(Value::Int(7)));
}

#[test]
fn throwing_then_getter_rejects() {
    let mut host = TestHost::new();
    let getter = host.func(|_, _| Err(Value::Str("getter threw")));
    let thenable = host.thenable_with_getter(getter);
    let p = resolved_with(&mut host, thenable);
    assert_eq!(host.state(p).status(), PromiseStatus::Rejected);
    assert_eq!(host.state(p).result(), Some(Value::Str("getter threw")));
}

#[test]
fn throwing_then_rejects_unless_already_resolved() {
    let mut host = TestHost::new();
    let throws = host.func(|_, _| Err(Value::Str("then threw")));
    let thenable = host.thenable(throws);
    let p = resolved_with(&mut host, thenable);
    let resolves_then_throws = host.func(|host, args| {
        host.call(args[0], Value::Undefined, &[Value::Int(1)])?;
        Err(Value::Str("ignored"))
    });
    let thenable = host.thenable(resolves_then_throws);
    let q = resolved_with(&mut host, thenable);
    host.run_microtasks();
    assert_eq!(host.state(p).status(), PromiseStatus::Rejected);
    assert_eq!(host.state(p).result(), Some(Value::Str("then threw")));
    assert_eq!(host.state(q).status(), PromiseStatus::Fulfilled);
    assert_eq!(host.state(q).result(), Some(Value::Int(1)));
}

#[test]
fn then_that_resolves_twice_keeps_the_first_outcome() {
    let mut host = TestHost::new();
    let then = host.func(|host, args| {
        host.call(args[0], Value::Undefined, &[Value::Int(1)])?;
        host.call(args[0], Value::Undefined, &[Value::Int(2)])?;
        host.call(args[1], Value::Undefined, &[Value::Int(3)])
    });
    let thenable = host.thenable(then);
    let p = resolved_with(&mut host, thenable);
    host.run_microtasks();
    assert_eq!(host.state(p).status(), PromiseStatus::Fulfilled);
    assert_eq!(host.state(p).result(), Some(Value::Int(1)));
}

#[test]
fn thenable_resolving_with_another_thenable_is_followed() {
    let mut host = TestHost::new();
    let inner_then = host.func(|host, args| host.call(args[0], Value::Undefined, &[Value::Int(42)]));
    let inner = host.thenable(inner_then);
    let outer_then = host.func_with(vec![inner], |host, captures, _, args| {
        host.call(args[0], Value::Undefined, &[captures[0]])?;
        // The first pair is used up: this does nothing.
        host.call(args[1], Value::Undefined, &[Value::Int(0)])
    });
    let outer = host.thenable(outer_then);
    let p = resolved_with(&mut host, outer);
    host.run_microtasks();
    assert_eq!(host.state(p).result(), Some(Value::Int(42)));
    assert_eq!(host.state(p).status(), PromiseStatus::Fulfilled);
}

#[test]
fn non_callable_then_fulfills_with_the_object() {
    let mut host = TestHost::new();
    let thenable = host.thenable(Value::Int(3));
    let p = resolved_with(&mut host, thenable);
    assert_eq!(host.state(p).result(), Some(thenable));
}

#[test]
fn executor_throw_after_resolve_is_ignored() {
    let mut host = TestHost::new();
    let executor = host.func(|host, args| {
        host.call(args[0], Value::Undefined, &[Value::Int(1)])?;
        Err(Value::Str("late throw"))
    });
    let p = host.construct(executor);
    assert_eq!(host.state(p).result(), Some(Value::Int(1)));
    assert_eq!(host.state(p).status(), PromiseStatus::Fulfilled);
}

#[test]
fn resolving_a_promise_with_itself_rejects_with_a_type_error() {
    let mut host = TestHost::new();
    // `let resolve; const p = new Promise(r => resolve = r); resolve(p)`.
    let executor = host.func(|host, args| {
        host.root(args[0]);
        Ok(Value::Undefined)
    });
    let p = host.construct(executor);
    let resolve = *host.roots.last().expect("the executor stored resolve");
    host.call(resolve, Value::Undefined, &[Value::Promise(p)]).expect("resolve returns");
    assert_eq!(host.state(p).status(), PromiseStatus::Rejected);
    assert_eq!(host.state(p).result(), Some(Value::Str("TypeError: self-resolution")));
}

#[test]
fn then_handler_returning_its_own_promise_rejects_it() {
    let mut host = TestHost::new();
    let p = host.fulfilled(Value::Int(1));
    // `const q = p.then(() => q)`: the handler reads q from a root slot.
    let slot = host.roots.len();
    host.root(Value::Undefined);
    let handler = host.func(move |host, _| Ok(host.roots[slot]));
    let q = host.then(p, handler, Value::Undefined);
    host.roots[slot] = Value::Promise(q);
    host.run_microtasks();
    assert_eq!(host.state(q).status(), PromiseStatus::Rejected);
    assert_eq!(host.state(q).result(), Some(Value::Str("TypeError: self-resolution")));
}
