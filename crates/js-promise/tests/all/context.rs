//! Async-context propagation through reactions and jobs.

use js_async_context::{Frame, VariableId};
use js_promise::{ContextKind, ContextSlot, PromiseCapability};

use crate::host::{PlainObject, TestHost, Value};

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

/// An unrooted object to serve as an embedder context: only the reactions
/// and jobs that carry it keep it alive.
fn resource(host: &mut TestHost) -> Value {
    Value::Object(host.heap.alloc(PlainObject { then: Value::Int(0), then_getter: None }))
}

/// A handler that logs `label: frame store, embedder context`.
fn context_logger(host: &mut TestHost, als: VariableId, label: &'static str) -> Value {
    host.func(move |host, _| {
        let store = host.context.get(&host.heap, als);
        let context = host.current_embedder_context().map(|value| resource_name(host, value));
        host.log(format!("{label}: {store:?} {context:?}"));
        Ok(Value::Undefined)
    })
}

/// The `then` field a test stored in a resource object, as its name.
fn resource_name(host: &TestHost, value: Value) -> i64 {
    let Value::Object(object) = value else { panic!("not a resource: {value:?}") };
    match object.borrow(&host.heap).then {
        Value::Int(n) => n,
        other => panic!("not a resource: {other:?}"),
    }
}

fn named_resource(host: &mut TestHost, name: i64) -> Value {
    Value::Object(host.heap.alloc(PlainObject { then: Value::Int(name), then_getter: None }))
}

#[test]
fn embedder_context_round_trips_through_inline_slim_and_full_reactions() {
    let (mut host, als, one, _) = setup();
    let awaited = host.pending();
    let thened = host.pending();
    let handlers: Vec<Value> =
        ["inline full", "full cell"].iter().map(|label| context_logger(&mut host, als, label)).collect();
    let resume = |label: &'static str| {
        move |host: &mut TestHost, _: Result<Value, Value>| {
            let store = host.context.get(&host.heap, als);
            let context = host.current_embedder_context().map(|value| resource_name(host, value));
            host.log(format!("{label}: {store:?} {context:?}"));
        }
    };
    let context = named_resource(&mut host, 7);
    // Registered with a frame current too: the embedder's context wins the
    // slot, so the jobs run with no frame.
    host.run_in(Some(one), |host| {
        host.with_embedder_context(context, |host| {
            host.await_value(Value::Promise(awaited), resume("inline slim")).expect("inline slim reaction");
            host.await_value(Value::Promise(awaited), resume("slim cell")).expect("slim reaction cell");
            host.then(thened, handlers[0], Value::Undefined);
            host.then(thened, handlers[1], Value::Undefined);
        });
    });
    let embedder = ContextSlot::embedder(context);
    assert_eq!(host.state(awaited).inline_context(), Some(embedder));
    assert_eq!(host.state(thened).inline_context(), Some(embedder));
    assert_eq!(host.state(awaited).reaction_count(&host.heap), (2, 1));
    // Only the reactions hold the context object.
    host.collect();
    assert_eq!(resource_name(&host, context), 7);
    host.settle(awaited, Ok(Value::Int(0)));
    host.settle(thened, Ok(Value::Int(0)));
    let ran_under = host.run_microtasks_recording();
    assert_eq!(
        host.take_log(),
        [
            "inline slim: None Some(7)",
            "slim cell: None Some(7)",
            "inline full: None Some(7)",
            "full cell: None Some(7)"
        ]
    );
    // The reaction jobs, then the jobs resolving the derived promises.
    assert_eq!(ran_under[..4], [ContextKind::Embedder(context); 4]);
    assert!(host.entered.is_empty());
    assert_eq!(host.context.current(), None);
}

#[test]
fn frames_and_embedder_contexts_share_a_promise() {
    let (mut host, als, one, _) = setup();
    let pending = host.pending();
    let labels = ["frame inline", "embedder cell", "nothing cell", "frame cell"];
    let handlers: Vec<Value> = labels.iter().map(|label| context_logger(&mut host, als, label)).collect();
    let context = named_resource(&mut host, 3);
    host.run_in(Some(one), |host| host.then(pending, handlers[0], Value::Undefined));
    host.with_embedder_context(context, |host| host.then(pending, handlers[1], Value::Undefined));
    host.then(pending, handlers[2], Value::Undefined);
    host.run_in(Some(one), |host| host.then(pending, handlers[3], Value::Undefined));
    assert_eq!(host.state(pending).inline_context(), Some(ContextSlot::frame(one)));
    host.settle(pending, Ok(Value::Int(0)));
    let ran_under = host.run_microtasks_recording();
    assert_eq!(
        host.take_log(),
        [
            "frame inline: Some(Int(1)) None",
            "embedder cell: None Some(3)",
            "nothing cell: None None",
            "frame cell: Some(Int(1)) None"
        ]
    );
    assert_eq!(
        ran_under[..4],
        [ContextKind::Frame(one), ContextKind::Embedder(context), ContextKind::None, ContextKind::Frame(one)]
    );
}

#[test]
fn embedder_context_rides_settled_awaits_thenable_jobs_and_host_jobs() {
    let (mut host, als, _, _) = setup();
    let settled = host.fulfilled(Value::Int(0));
    let then = host.func(move |host, args| {
        let context = host.current_embedder_context().map(|value| resource_name(host, value));
        host.log(format!("then: {context:?}"));
        js_promise::PromiseHost::call(host, args[0], Value::Undefined, &[Value::Int(1)])
    });
    let thenable = host.thenable(then);
    let p = host.pending();
    let callback = context_logger(&mut host, als, "queueMicrotask");
    let context = resource(&mut host);
    host.with_embedder_context(context, |host| {
        host.await_value(Value::Int(1), |host, _| {
            let context = host.current_embedder_context().map(|value| resource_name(host, value));
            host.log(format!("non-object: {context:?}"));
        })
        .expect("await");
        host.await_value(Value::Promise(settled), |host, _| {
            let context = host.current_embedder_context().map(|value| resource_name(host, value));
            host.log(format!("settled: {context:?}"));
        })
        .expect("await");
        js_promise::promise_resolve_function(host, p, thenable);
        host.queue_microtask(callback);
    });
    host.collect();
    let ran_under = host.run_microtasks_recording();
    assert_eq!(
        host.take_log(),
        ["non-object: Some(0)", "settled: Some(0)", "then: Some(0)", "queueMicrotask: None Some(0)"]
    );
    assert_eq!(ran_under, [ContextKind::Embedder(context); 4]);
}

#[test]
fn embedder_context_rides_a_reaction_record_job() {
    let (mut host, als, _, _) = setup();
    let pending = host.pending();
    let handler = context_logger(&mut host, als, "handler");
    let resolve = context_logger(&mut host, als, "capability resolve");
    let reject = host.func(|_, _| Ok(Value::Undefined));
    let derived = host.pending();
    let capability = PromiseCapability::Functions { promise: Value::Promise(derived), resolve, reject };
    let context = named_resource(&mut host, 5);
    // A capability with functions: never inline, carried to its job as the
    // reaction cell (PROMISE_REACTION_RECORD_JOB).
    host.with_embedder_context(context, |host| {
        js_promise::perform_promise_then(host, pending, handler, Value::Undefined, capability);
    });
    assert_eq!(host.state(pending).inline_context(), None);
    host.collect();
    host.settle(pending, Ok(Value::Int(0)));
    let ran_under = host.run_microtasks_recording();
    assert_eq!(host.take_log(), ["handler: None Some(5)", "capability resolve: None Some(5)"]);
    assert_eq!(ran_under, [ContextKind::Embedder(context)]);
}
