//! Reactions, frames and internal promises survive collections while they
//! are reachable only through promise state and queued jobs.

use js_async_context::Frame;
use js_promise::{PromiseStatus, promise_then};

use crate::host::{TestHost, Value};

#[test]
fn pending_reactions_and_their_frames_survive_a_collection() {
    let mut host = TestHost::new();
    let als = host.context.create_variable().expect("a variable");
    let p = host.pending();
    let f = host.func(move |host, args| {
        let store = host.context.get(&host.heap, als);
        host.log(format!("f {:?} {store:?}", args[0]));
        Ok(Value::Int(10))
    });
    // A frame reachable only from the reactions that captured it.
    let frame = Frame::new(&mut host.heap, als, Value::Int(7));
    let derived = host.run_in(Some(frame), |host| {
        host.await_value(Value::Promise(p), |host, outcome| host.log(format!("await {outcome:?}"))).expect("await");
        host.await_value(Value::Promise(p), |host, outcome| host.log(format!("await2 {outcome:?}"))).expect("await");
        // Not rooted: reachable only from p's reaction.
        promise_then(host, p, f, Value::Undefined)
    });
    let freed = host.collect();
    assert_eq!(freed, 0, "nothing here is garbage yet");
    host.settle(p, Ok(Value::Int(1)));
    host.collect();
    // Survived two collections through p's reaction and then its job; root
    // it to read it after the jobs ran.
    host.root(Value::Promise(derived));
    host.run_microtasks();
    assert_eq!(host.take_log(), ["await Ok(Int(1))", "await2 Ok(Int(1))", "f Int(1) Some(Int(7))"]);
    assert_eq!(host.state(derived).status(), PromiseStatus::Fulfilled);
    assert_eq!(host.state(derived).result(), Some(Value::Int(10)));
    // Once the jobs ran, the reaction cell and the frame are garbage.
    host.collect();
    assert_eq!(host.heap.stats().objects_of("PromiseSlimReaction"), 0);
    assert_eq!(host.heap.stats().objects_of("AsyncContextFrame"), 0);
}

#[test]
fn thenable_job_keeps_its_promise_alive() {
    let mut host = TestHost::new();
    let then = host.func(|host, args| js_promise::PromiseHost::call(host, args[0], Value::Undefined, &[Value::Int(3)]));
    let thenable = host.thenable(then);
    let watcher = host.logger("settled", Ok(Value::Undefined));
    // An unrooted internal promise resolved with a thenable: only the
    // queued thenable job reaches it.
    let internal = js_promise::PromiseHost::new_promise(&mut host);
    promise_then(&mut host, internal, watcher, Value::Undefined);
    js_promise::promise_resolve_function(&mut host, internal, thenable);
    host.collect();
    host.run_microtasks();
    assert_eq!(host.take_log(), ["settled: 3"]);
}
