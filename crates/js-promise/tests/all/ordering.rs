//! Ordering of then and await on pending and settled promises, against
//! what Node prints for the same programs.

use js_promise::{AwaitPath, PromiseHost, PromiseStatus};

use crate::host::{TestHost, Value};

fn log_then(host: &mut TestHost, label: &'static str) -> Value {
    host.logger(label, Ok(Value::Undefined))
}

/// `Promise.resolve().then(t1).then(t2).then(t3)`.
fn tick_chain(host: &mut TestHost, labels: &[&'static str]) {
    let mut promise = host.fulfilled(Value::Undefined);
    for &label in labels {
        let handler = log_then(host, label);
        promise = host.then(promise, handler, Value::Undefined);
    }
}

#[test]
fn then_on_settled_and_pending_promises_runs_in_registration_order() {
    let mut host = TestHost::new();
    let settled = host.fulfilled(Value::Int(1));
    let pending = host.pending();
    let a = host.logger("a", Ok(Value::Undefined));
    let b = host.logger("b", Ok(Value::Undefined));
    let c = host.logger("c", Ok(Value::Undefined));
    host.then(pending, a, Value::Undefined);
    host.then(settled, b, Value::Undefined);
    host.then(pending, c, Value::Undefined);
    host.settle(pending, Ok(Value::Int(2)));
    host.run_microtasks();
    assert_eq!(host.take_log(), ["b: 1", "a: 2", "c: 2"]);
}

#[test]
fn handler_results_and_throws_flow_down_the_chain() {
    let mut host = TestHost::new();
    let p = host.fulfilled(Value::Int(1));
    let double = host.func(|_, args| match args[0] {
        Value::Int(n) => Ok(Value::Int(n * 2)),
        _ => Err(Value::Str("bad")),
    });
    let thrower = host.func(|_, _| Err(Value::Str("boom")));
    let q = host.then(p, double, Value::Undefined);
    let r = host.then(q, thrower, Value::Undefined);
    // A missing handler passes the outcome through.
    let s = host.then(r, Value::Undefined, Value::Undefined);
    let caught = host.logger("caught", Ok(Value::Int(9)));
    let t = host.then(s, Value::Undefined, caught);
    host.run_microtasks();
    assert_eq!(host.state(q).result(), Some(Value::Int(2)));
    assert_eq!(host.state(s).status(), PromiseStatus::Rejected);
    assert_eq!(host.state(t).result(), Some(Value::Int(9)));
    assert_eq!(host.take_log(), ["caught: boom"]);
}

/// `(async () => { await 1; log("a1"); await 1; log("a2"); })();`
/// `Promise.resolve().then(t1).then(t2);` prints a1 t1 a2 t2.
#[test]
fn await_of_a_non_object_takes_one_turn() {
    let mut host = TestHost::new();
    let path = host
        .await_value(Value::Int(1), |host, _| {
            host.log("a1");
            host.await_value(Value::Int(1), |host, _| host.log("a2")).expect("await");
        })
        .expect("await");
    assert_eq!(path, AwaitPath::NonObject);
    tick_chain(&mut host, &["t1", "t2"]);
    host.run_microtasks();
    assert_eq!(host.take_log(), ["a1", "t1: undefined", "a2", "t2: undefined"]);
}

/// A microtask queued between two awaits of the same settled promise runs
/// between them.
#[test]
fn microtask_between_two_awaits_of_a_settled_promise_runs_between_them() {
    let mut host = TestHost::new();
    let p = host.fulfilled(Value::Int(5));
    let path = host
        .await_value(Value::Promise(p), move |host, outcome| {
            host.log(format!("a1 {outcome:?}"));
            let again = host.await_value(Value::Promise(p), |host, _| host.log("a2")).expect("await");
            assert_eq!(again, AwaitPath::SettledPromise);
        })
        .expect("await");
    assert_eq!(path, AwaitPath::SettledPromise);
    let q = host.logger("q", Ok(Value::Undefined));
    host.queue_microtask(q);
    let t = log_then(&mut host, "t");
    host.then(p, t, Value::Undefined);
    host.run_microtasks();
    assert_eq!(host.take_log(), ["a1 Ok(Int(5))", "q: undefined", "t: 5", "a2"]);
}

#[test]
fn awaits_and_thens_on_a_pending_promise_resume_in_registration_order() {
    let mut host = TestHost::new();
    let p = host.pending();
    assert_eq!(host.await_value(Value::Promise(p), |host, _| host.log("a1")), Ok(AwaitPath::PendingPromise));
    let t = log_then(&mut host, "t");
    host.then(p, t, Value::Undefined);
    assert_eq!(host.await_value(Value::Promise(p), |host, _| host.log("a2")), Ok(AwaitPath::PendingPromise));
    assert_eq!(host.state(p).reaction_count(&host.heap), (3, 1));
    tick_chain(&mut host, &["c1"]);
    host.settle(p, Ok(Value::Int(3)));
    host.run_microtasks();
    assert_eq!(host.take_log(), ["c1: undefined", "a1", "t: 3", "a2"]);
}

#[test]
fn await_of_a_rejected_promise_resumes_with_the_reason() {
    let mut host = TestHost::new();
    let settled = host.rejected(Value::Str("early"));
    let pending = host.pending();
    host.await_value(Value::Promise(settled), |host, outcome| host.log(format!("{outcome:?}"))).expect("await");
    host.await_value(Value::Promise(pending), |host, outcome| host.log(format!("{outcome:?}"))).expect("await");
    host.settle(pending, Err(Value::Str("late")));
    host.run_microtasks();
    assert_eq!(host.take_log(), ["Err(Str(\"early\"))", "Err(Str(\"late\"))"]);
}

/// `await {then(r) { r(5) }}` takes the spec path: the thenable job, then
/// the reaction: t1 a t2.
#[test]
fn await_of_a_thenable_takes_the_spec_path() {
    let mut host = TestHost::new();
    let then = host.func(|host, args| host.call(args[0], Value::Undefined, &[Value::Int(5)]));
    let thenable = host.thenable(then);
    let path = host.await_value(thenable, |host, outcome| host.log(format!("a {outcome:?}"))).expect("await");
    assert_eq!(path, AwaitPath::Spec);
    tick_chain(&mut host, &["t1", "t2"]);
    host.run_microtasks();
    assert_eq!(host.take_log(), ["t1: undefined", "a Ok(Int(5))", "t2: undefined"]);
}

/// A native promise with its own `constructor` takes the spec path:
/// `PromiseResolve` wraps it, costing two more turns than the fast path.
#[test]
fn await_of_a_promise_with_a_foreign_constructor_takes_the_spec_path() {
    let mut host = TestHost::new();
    let p = host.fulfilled(Value::Int(1));
    p.borrow_mut(&mut host.heap).own_constructor = Some(Value::Int(0));
    let path = host.await_value(Value::Promise(p), |host, _| host.log("a")).expect("await");
    assert_eq!(path, AwaitPath::Spec);
    tick_chain(&mut host, &["t1", "t2", "t3"]);
    host.run_microtasks();
    assert_eq!(host.take_log(), ["t1: undefined", "t2: undefined", "a", "t3: undefined"]);
}

#[test]
fn a_throwing_constructor_getter_makes_the_await_throw() {
    let mut host = TestHost::new();
    let p = host.fulfilled(Value::Int(1));
    let getter = host.func(|host, _| {
        host.log("get constructor");
        Err(Value::Str("nope"))
    });
    p.borrow_mut(&mut host.heap).own_constructor = Some(getter);
    let result = host.await_value(Value::Promise(p), |host, _| host.log("resumed"));
    assert_eq!(result, Err(Value::Str("nope")));
    host.run_microtasks();
    assert_eq!(host.take_log(), ["get constructor"]);
}

/// `new Promise(r => r(Promise.resolve(1))).then(p)` against a tick chain:
/// 1 2 p 3 (the thenable job, then `then` on the inner promise).
#[test]
fn resolving_with_a_native_promise_takes_two_extra_turns() {
    let mut host = TestHost::new();
    let inner = host.fulfilled(Value::Int(1));
    let executor = host.func_with(vec![Value::Promise(inner)], |host, captures, _, args| {
        host.call(args[0], Value::Undefined, &[captures[0]])
    });
    let outer = host.construct(executor);
    let p = log_then(&mut host, "p");
    host.then(outer, p, Value::Undefined);
    tick_chain(&mut host, &["1", "2", "3"]);
    host.run_microtasks();
    assert_eq!(host.take_log(), ["1: undefined", "2: undefined", "p: 1", "3: undefined"]);
}

#[test]
fn finally_passes_values_and_reasons_through() {
    let mut host = TestHost::new();
    let ok = host.fulfilled(Value::Int(4));
    let bad = host.rejected(Value::Str("r"));
    let f = host.logger("finally", Ok(Value::Int(99)));
    let a = host.finally(ok, f);
    let b = host.finally(bad, f);
    host.run_microtasks();
    assert_eq!(host.state(a).result(), Some(Value::Int(4)));
    assert_eq!(host.state(b).status(), PromiseStatus::Rejected);
    assert_eq!(host.state(b).result(), Some(Value::Str("r")));
    assert_eq!(host.take_log(), ["finally: undefined", "finally: undefined"]);
}
