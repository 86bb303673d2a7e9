//! `HostPromiseRejectionTracker` events.

use js_promise::RejectionOperation;

use crate::host::{TestHost, Value};

#[test]
fn unhandled_rejection_then_handled_later() {
    let mut host = TestHost::new();
    let p = host.rejected(Value::Str("r"));
    assert_eq!(host.rejections.len(), 1);
    assert_eq!(host.rejections[0], (Value::Promise(p), RejectionOperation::Reject));
    host.run_microtasks();
    let catch = host.logger("caught", Ok(Value::Undefined));
    let q = host.then(p, Value::Undefined, catch);
    assert_eq!(host.rejections[1], (Value::Promise(p), RejectionOperation::Handle));
    // A second handler reports nothing more.
    host.then(p, Value::Undefined, catch);
    host.run_microtasks();
    assert_eq!(host.rejections.len(), 2);
    assert!(host.rejections.iter().all(|(promise, _)| *promise != Value::Promise(q)));
    assert_eq!(host.take_log(), ["caught: r", "caught: r"]);
    // The tracker runs before `[[PromiseIsHandled]]` is set.
    assert_eq!(host.handled_when_tracked, [false, false]);
}

#[test]
fn handled_before_rejection_reports_nothing_for_it() {
    let mut host = TestHost::new();
    let p = host.pending();
    let catch = host.logger("caught", Ok(Value::Undefined));
    host.then(p, Value::Undefined, catch);
    host.settle(p, Err(Value::Str("r")));
    host.run_microtasks();
    assert!(host.rejections.is_empty(), "{:?}", host.rejections);
}

#[test]
fn rejection_passes_to_an_unhandled_derived_promise() {
    let mut host = TestHost::new();
    let p = host.pending();
    let f = host.logger("f", Ok(Value::Undefined));
    let q = host.then(p, f, Value::Undefined);
    host.settle(p, Err(Value::Str("r")));
    assert!(host.rejections.is_empty());
    host.run_microtasks();
    assert_eq!(host.rejections, [(Value::Promise(q), RejectionOperation::Reject)]);
    assert_eq!(host.rejection_log(), format!("Reject:{}", host.roots.len() - 1));
}

#[test]
fn await_handles_a_rejected_promise() {
    let mut host = TestHost::new();
    let settled = host.rejected(Value::Str("early"));
    host.await_value(Value::Promise(settled), |_, _| {}).expect("await");
    assert_eq!(
        host.rejections,
        [(Value::Promise(settled), RejectionOperation::Reject), (Value::Promise(settled), RejectionOperation::Handle)]
    );
    assert_eq!(host.handled_when_tracked, [false, false]);
    let pending = host.pending();
    host.await_value(Value::Promise(pending), |_, _| {}).expect("await");
    host.settle(pending, Err(Value::Str("late")));
    host.run_microtasks();
    assert_eq!(host.rejections.len(), 2);
}
