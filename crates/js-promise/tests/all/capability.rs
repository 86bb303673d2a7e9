//! Full reactions whose capability has functions (a subclass's `then`):
//! never inline, carried to their job as the reaction cell.

use js_promise::{PromiseCapability, perform_promise_then};

use crate::host::{TestHost, Value};

fn capability(host: &mut TestHost, label: &'static str) -> PromiseCapability<Value, crate::host::Promise> {
    let resolve = host.logger(if label == "a" { "resolve a" } else { "resolve b" }, Ok(Value::Undefined));
    let reject = host.logger(if label == "a" { "reject a" } else { "reject b" }, Ok(Value::Undefined));
    let promise = host.root(Value::Int(0));
    PromiseCapability::Functions { promise, resolve, reject }
}

#[test]
fn functions_capability_on_pending_and_settled_promises() {
    let mut host = TestHost::new();
    let pending = host.pending();
    let settled = host.rejected(Value::Str("no"));
    let double = host.func(|_, args| match args[0] {
        Value::Int(n) => Ok(Value::Int(2 * n)),
        other => Err(other),
    });
    let cap_a = capability(&mut host, "a");
    let cap_b = capability(&mut host, "b");
    perform_promise_then(&mut host, pending, double, Value::Undefined, cap_a);
    // The first reaction is a cell, so this one cannot be inline either:
    // registration order must hold.
    host.await_value(Value::Promise(pending), |host, outcome| host.log(format!("await {outcome:?}"))).expect("await");
    perform_promise_then(&mut host, settled, Value::Undefined, Value::Undefined, cap_b);
    assert_eq!(host.state(pending).reaction_count(&host.heap), (2, 0));
    host.settle(pending, Ok(Value::Int(21)));
    host.run_microtasks();
    assert_eq!(host.take_log(), ["reject b: no", "resolve a: 42", "await Ok(Int(21))"]);
}
