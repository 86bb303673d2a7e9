//! Boa with js-microtask's queue under its job executor runs programs as
//! Boa's own executor does: the node-compared test programs and the async
//! bench workload print the same, and the promise jobs of an ordering
//! program run in the same order, through the queue.
//!
//! Run with `cargo test --release --manifest-path xtask/peers/Cargo.toml
//! --features boa`.
#![cfg(feature = "boa")]

use std::rc::Rc;

use boa_engine::{Context, Source};
use js_peers::boa_jobs::MicrotaskExecutor;

mod common;
use common::{root, run, stderr_of, test_programs};

const BOA: &str = env!("CARGO_BIN_EXE_jsvm-peer-boa");
const BOA_JS_MICROTASK: &str = env!("CARGO_BIN_EXE_jsvm-peer-boa-js-microtask");

#[test]
fn test_programs_print_the_same() {
    let programs = test_programs();
    assert!(programs.len() > 40, "found {} programs", programs.len());
    let mut ran_to_the_end = 0;
    for program in &programs {
        let (ours, theirs) = (run(BOA_JS_MICROTASK, program), run(BOA, program));
        let name = program.file_name().unwrap().to_string_lossy();
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "{name}: stdout differs"
        );
        assert_eq!(ours.status.code(), theirs.status.code(), "{name}: exit status differs");
        assert_eq!(stderr_of(&ours, BOA_JS_MICROTASK), stderr_of(&theirs, BOA), "{name}: stderr differs");
        ran_to_the_end += usize::from(theirs.status.success());
    }
    assert!(ran_to_the_end >= 20, "only {ran_to_the_end} programs ran to the end");
}

/// The case names a workload reported, in order, and any error lines.
fn reported(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("{\"bench\":\"")?;
            let (name, rest) = rest.split_once('"')?;
            Some(if rest.starts_with(",\"error\"") { format!("{name}: {line}") } else { name.to_owned() })
        })
        .collect()
}

#[test]
fn the_async_workload_runs_the_same_cases() {
    let workload = root().join("bench/workloads/async-await.js");
    let (ours, theirs) = (run(BOA_JS_MICROTASK, &workload), run(BOA, &workload));
    assert!(theirs.status.success() && ours.status.success(), "{}", String::from_utf8_lossy(&ours.stderr));
    let cases = reported(&ours.stdout);
    assert_eq!(cases, reported(&theirs.stdout));
    assert!(cases.len() >= 8 && cases.iter().all(|case| !case.contains("error")), "{cases:?}");
}

/// Promise jobs of every kind Boa makes, queued from jobs and from the
/// script, with a rejection and an async generator among them: the log
/// of the order they ran in.
const ORDERING: &str = r#"
const log = [];
const p = Promise.resolve(1);
p.then(() => log.push("then 1")).then(() => log.push("then 1.1"));
(async () => { log.push("async start"); await null; log.push("after await 1"); await p; log.push("after await 2"); })();
Promise.reject(new Error("x")).catch(() => log.push("catch")).finally(() => log.push("finally"));
const thenable = { then(resolve) { log.push("thenable then"); resolve(3); } };
Promise.resolve(thenable).then((v) => log.push("thenable " + v));
(async function* g() { yield 1; yield 2; })().next().then((r) => log.push("gen " + r.value));
Promise.all([1, Promise.resolve(2)]).then((v) => log.push("all " + v));
Promise.race([new Promise(() => {}), 4]).then((v) => log.push("race " + v));
p.then(() => Promise.resolve().then(() => log.push("nested")));
log.push("sync end");
"#;

fn ordering_log(context: &mut Context) -> String {
    context.eval(Source::from_bytes(ORDERING)).expect("the program runs");
    context.run_jobs().expect("its jobs run");
    let log = context.eval(Source::from_bytes("log.join()")).expect("the log");
    log.to_string(context).expect("a string").to_std_string_escaped()
}

#[test]
fn promise_jobs_run_in_boas_order_through_the_queue() {
    let executor = Rc::new(MicrotaskExecutor::default());
    let mut ours = Context::builder().job_executor(Rc::clone(&executor)).build().expect("a context");
    let mut theirs = Context::default();
    let log = ordering_log(&mut ours);
    assert_eq!(log, ordering_log(&mut theirs));
    assert!(log.starts_with("async start,sync end,then 1,"), "{log}");
    let counters = executor.promise_counters();
    assert!(counters.run >= 20, "{counters:?}");
    assert_eq!(counters.queued, counters.run, "every queued job ran");
}
