//! Which reactions and jobs each promise operation makes, as one insta
//! snapshot (`tests/all/snapshots/`): the representation chosen (inline,
//! slim, full), the job kinds queued with their flags, and the await path.

use std::fmt::Write as _;

use js_microtask::Job;
use js_promise::{
    HANDLER_PRESENT, HAS_CAPABILITY, PROMISE_REACTION_JOB, PROMISE_REACTION_RECORD_JOB, PROMISE_RESOLVE_THENABLE_JOB,
    PromiseHost, SETTLED_REJECTED, create_resolving_functions, fulfill_promise, reject_promise,
};

use crate::host::{CALLBACK, Promise, RESUME, TestHost, Value};

/// The queue's jobs by kind and flags, left in the queue.
fn queued(host: &mut TestHost) -> String {
    let mut jobs: Vec<Job<Value>> = Vec::new();
    while let Some(job) = host.queue.dequeue() {
        jobs.push(job);
    }
    let names: Vec<String> = jobs
        .iter()
        .map(|job| {
            let kind = match job.kind() {
                PROMISE_REACTION_JOB => "PromiseReactionJob",
                PROMISE_REACTION_RECORD_JOB => "PromiseReactionJob (record)",
                PROMISE_RESOLVE_THENABLE_JOB => "PromiseResolveThenableJob",
                RESUME => "host continuation (resume)",
                CALLBACK => "host callback",
                _ => "unknown",
            };
            let flags = job.flags();
            let mut marks = Vec::new();
            for (flag, name) in
                [(SETTLED_REJECTED, "rejected"), (HANDLER_PRESENT, "handler"), (HAS_CAPABILITY, "capability")]
            {
                if flags.contains(flag) {
                    marks.push(name);
                }
            }
            if marks.is_empty() { kind.to_owned() } else { format!("{kind} [{}]", marks.join(", ")) }
        })
        .collect();
    for job in jobs {
        host.queue.enqueue(job);
    }
    if names.is_empty() { "no jobs".to_owned() } else { names.join("; ") }
}

/// How many reactions `promise` holds, and whether the first is inline.
fn reactions(host: &TestHost, promise: Promise) -> String {
    let (count, inline) = host.state(promise).reaction_count(&host.heap);
    format!("{count} reaction(s), {inline} inline")
}

#[test]
fn reaction_kinds_per_operation() {
    let mut report = String::new();
    let mut section = |name: &str, body: &dyn Fn(&mut TestHost) -> String| {
        let mut host = TestHost::new();
        let text = body(&mut host);
        let _ = writeln!(report, "{name}:\n{text}\n");
    };
    section("pending.then(f)", &|host| {
        let p = host.pending();
        let f = host.logger("f", Ok(Value::Undefined));
        host.then(p, f, Value::Undefined);
        let registered = reactions(host, p);
        fulfill_promise(host, p, Value::Int(1));
        format!("registered: {registered}\nafter fulfil: {}", queued(host))
    });
    section("pending.then(f) twice", &|host| {
        let p = host.pending();
        let f = host.logger("f", Ok(Value::Undefined));
        host.then(p, f, Value::Undefined);
        host.then(p, f, Value::Undefined);
        let registered = reactions(host, p);
        fulfill_promise(host, p, Value::Int(1));
        format!("registered: {registered}\nafter fulfil: {}", queued(host))
    });
    section("fulfilled.then(f)", &|host| {
        let p = host.fulfilled(Value::Int(1));
        let f = host.logger("f", Ok(Value::Undefined));
        host.then(p, f, Value::Undefined);
        queued(host)
    });
    section("rejected.then(undefined, g)", &|host| {
        let p = host.rejected(Value::Int(1));
        let g = host.logger("g", Ok(Value::Undefined));
        host.then(p, Value::Undefined, g);
        queued(host)
    });
    section("rejected.then(f) (no handler for the rejection)", &|host| {
        let p = host.rejected(Value::Int(1));
        let f = host.logger("f", Ok(Value::Undefined));
        host.then(p, f, Value::Undefined);
        queued(host)
    });
    section("await 1", &|host| {
        let path = host.await_value(Value::Int(1), |_, _| {});
        format!("{path:?}: {}", queued(host))
    });
    section("await fulfilled", &|host| {
        let p = host.fulfilled(Value::Int(1));
        let path = host.await_value(Value::Promise(p), |_, _| {});
        format!("{path:?}: {}", queued(host))
    });
    section("await pending, then fulfil", &|host| {
        let p = host.pending();
        let path = host.await_value(Value::Promise(p), |_, _| {});
        let registered = reactions(host, p);
        fulfill_promise(host, p, Value::Int(1));
        format!("{path:?}: registered {registered}\nafter fulfil: {}", queued(host))
    });
    section("await pending with a reaction already, then reject", &|host| {
        let p = host.pending();
        let f = host.logger("f", Ok(Value::Undefined));
        host.then(p, f, Value::Undefined);
        let path = host.await_value(Value::Promise(p), |_, _| {});
        let registered = reactions(host, p);
        reject_promise(host, p, Value::Int(1));
        format!("{path:?}: registered {registered}\nafter reject: {}", queued(host))
    });
    section("resolve(thenable)", &|host| {
        let p = host.pending();
        let then = host.logger("then", Ok(Value::Undefined));
        let thenable = host.thenable(then);
        let (resolve, _reject) = create_resolving_functions(host, p);
        PromiseHost::call(host, resolve, Value::Undefined, &[thenable]).expect("resolve does not throw");
        queued(host)
    });
    insta::assert_snapshot!(report);
}
