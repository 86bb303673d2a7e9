//! Async-context propagation through reactions and jobs.

use js_async_context::{Frame, VariableId};

use crate::host::{TestHost, Value};

fn setup() -> (TestHost, VariableId, Frame<Value>, Frame<Value>) {
    let mut host = TestHost::new();
    let als = host.context.create_variable().expect("a variable");
    let one = Frame::new(&mut host.heap, als, Value::Int(1));
    let two = Frame::new(&mut host.heap, als, Value::Int(2));
    (host, als, one, two)
}

/// A handler that logs `label: store`.
fn store_logger(host: &mut TestHost, als: VariableId, label: &'static str) -> Value {
    host.func(move |host, _| {
        let store = host.context.get(&host.heap, als);
        host.log(format!("{label}: {store:?}"));
        Ok(Value::Undefined)
    })
}

#[test]
fn then_catch_finally_see_the_frame_of_registration() {
    let (mut host, als, one, two) = setup();
    let pending = host.pending();
    let pending_bad = host.pending();
    let settled = host.fulfilled(Value::Int(0));
    let settled_bad = host.rejected(Value::Int(0));
    let handlers: Vec<Value> = ["then-p", "catch-p", "finally-p", "then-s", "catch-s", "finally-s"]
        .iter()
        .map(|l| store_logger(&mut host, als, l))
        .collect();
    host.run_in(Some(one), |host| {
        host.then(pending, handlers[0], Value::Undefined);
        host.then(pending_bad, Value::Undefined, handlers[1]);
        host.finally(pending, handlers[2]);
        host.then(settled, handlers[3], Value::Undefined);
        host.then(settled_bad, Value::Undefined, handlers[4]);
        host.finally(settled, handlers[5]);
    });
    // Settled and run under another frame: the registration frame wins.
    host.run_in(Some(two), |host| {
        host.settle(pending, Ok(Value::Int(1)));
        host.settle(pending_bad, Err(Value::Int(1)));
        host.run_microtasks();
    });
    let mut log = host.take_log();
    log.sort();
    assert_eq!(
        log,
        [
            "catch-p: Some(Int(1))",
            "catch-s: Some(Int(1))",
            "finally-p: Some(Int(1))",
            "finally-s: Some(Int(1))",
            "then-p: Some(Int(1))",
            "then-s: Some(Int(1))",
        ]
    );
    assert_eq!(host.context.current(), None);
}

#[test]
fn reaction_that_captured_no_frame_runs_with_none() {
    let (mut host, als, one, two) = setup();
    let pending = host.pending();
    let f = store_logger(&mut host, als, "f");
    let g = store_logger(&mut host, als, "g");
    host.then(pending, f, Value::Undefined);
    host.run_in(Some(one), |host| host.settle(pending, Ok(Value::Int(0))));
    host.await_value(Value::Int(1), move |host, _| {
        let store = host.context.get(&host.heap, als);
        host.log(format!("await: {store:?}"));
    })
    .expect("await");
    host.queue_microtask(g);
    host.run_in(Some(two), TestHost::run_microtasks);
    assert_eq!(host.take_log(), ["f: None", "await: None", "g: None"]);
}

#[test]
fn awaits_resume_in_the_frame_they_suspended_in() {
    let (mut host, als, one, _) = setup();
    let pending = host.pending();
    let settled = host.fulfilled(Value::Int(0));
    let other = host.pending();
    host.await_value(Value::Promise(other), |_, _| {}).expect("first reaction");
    host.run_in(Some(one), |host| {
        for (label, value) in [
            ("non-object", Value::Int(5)),
            ("settled", Value::Promise(settled)),
            ("pending", Value::Promise(pending)),
            ("second reaction", Value::Promise(other)),
        ] {
            host.await_value(value, move |host, _| {
                let store = host.context.get(&host.heap, als);
                host.log(format!("{label}: {store:?}"));
            })
            .expect("await");
        }
    });
    host.settle(pending, Ok(Value::Int(0)));
    host.settle(other, Ok(Value::Int(0)));
    host.run_microtasks();
    assert_eq!(
        host.take_log(),
        ["non-object: Some(Int(1))", "settled: Some(Int(1))", "pending: Some(Int(1))", "second reaction: Some(Int(1))"]
    );
}

#[test]
fn enter_with_inside_a_job_ends_with_the_job() {
    let (mut host, als, one, two) = setup();
    let enter = host.func_with(vec![Value::Cell(two.as_any())], move |host, captures, _, _| {
        let frame = captures[0].into_frame();
        host.context.enter_with(Some(frame));
        let store = host.context.get(&host.heap, als);
        host.log(format!("after enterWith: {store:?}"));
        Ok(Value::Undefined)
    });
    let later = store_logger(&mut host, als, "next job");
    host.run_in(Some(one), |host| host.queue_microtask(enter));
    host.queue_microtask(later);
    host.run_microtasks();
    assert_eq!(host.take_log(), ["after enterWith: Some(Int(2))", "next job: None"]);
    assert_eq!(host.context.current(), None);
}

#[test]
fn thenable_job_runs_in_the_frame_of_resolution() {
    let (mut host, als, one, _) = setup();
    let then = host.func(move |host, args| {
        let store = host.context.get(&host.heap, als);
        host.log(format!("then: {store:?}"));
        js_promise::PromiseHost::call(host, args[0], Value::Undefined, &[Value::Int(1)])
    });
    let thenable = host.thenable(then);
    let p = host.pending();
    host.run_in(Some(one), |host| js_promise::promise_resolve_function(host, p, thenable));
    host.run_microtasks();
    assert_eq!(host.take_log(), ["then: Some(Int(1))"]);
}

trait AsFrame {
    fn into_frame(self) -> Frame<Value>;
}

impl AsFrame for Value {
    fn into_frame(self) -> Frame<Value> {
        let Value::Cell(cell) = self else { panic!("not a cell") };
        Frame::from_any(cell).expect("a frame cell")
    }
}
