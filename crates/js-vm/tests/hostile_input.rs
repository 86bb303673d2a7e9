//! Hostile input: whatever a script does, the engine answers with a
//! JavaScript exception or a clean, reported termination, never a crash or
//! a hang the embedder cannot stop. One test per limit.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use js_gc::HeapConfig;
use js_vm::{CountingAllocator, JsError, TerminationReason, Vm, VmOptions};

/// Counts this binary's allocations per thread, so the heap-limit tests
/// measure everything the VM holds.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator(std::alloc::System);

/// A VM that never runs in gc-stress mode: these tests allocate a lot on
/// purpose, and collecting at every step would make them take minutes.
fn quiet_options() -> VmOptions {
    VmOptions { heap: HeapConfig { stress: false, ..HeapConfig::default() }, ..VmOptions::default() }
}

/// The constructor name of what `text` threw, or `"ok"`.
fn outcome(vm: &mut Vm, text: &str) -> String {
    match vm.eval_script("hostile.js", text) {
        Ok(_) => "ok".to_owned(),
        Err(JsError::Throw(value)) => value.constructor_name(vm).unwrap_or_else(|| "thrown".to_owned()),
        Err(JsError::Terminated) => format!("terminated: {:?}", vm.termination_reason()),
    }
}

/// `count` distinct labels, each labelling the next: `l0: l1: … `.
fn labels(count: usize) -> String {
    (0..count).fold(String::new(), |mut text, i| {
        let _ = write!(text, "l{i}: ");
        text
    })
}

#[test]
fn deep_nesting_is_a_syntax_or_range_error() {
    const N: usize = 100_000;
    let cases = [
        ("parentheses", format!("{}1{}", "(".repeat(N), ")".repeat(N))),
        ("arrays", format!("{}{}", "[".repeat(N), "]".repeat(N))),
        ("objects", format!("x = {}1{}", "{a:".repeat(N), "}".repeat(N))),
        ("blocks", format!("{}{}", "{".repeat(N), "}".repeat(N))),
        ("functions", format!("{}{}", "function f(){".repeat(N), "}".repeat(N))),
        ("arrows", format!("{}1", "() => ".repeat(N))),
        ("templates", format!("{}1{}", "`${".repeat(N), "}`".repeat(N))),
        ("conditional chain", format!("{}c", "a ? b : ".repeat(N))),
        ("nested conditionals", format!("{}b{}", "a ? ".repeat(N), " : c".repeat(N))),
        ("unary operators", format!("{}1", "!".repeat(N))),
        ("typeof", format!("{}1", "typeof ".repeat(N))),
        ("assignments", format!("{}1", "a = ".repeat(N))),
        ("exponents", format!("{}1", "2 ** ".repeat(N))),
        ("new", format!("{}f", "new ".repeat(N))),
        ("await", format!("async function f() {{ {}1 }}", "await ".repeat(N))),
        ("if statements", format!("{};", "if (1) ".repeat(N))),
        ("with statements", format!("{};", "with (a) ".repeat(N))),
        ("member chain", format!("a{}", ".b".repeat(N))),
        ("call chain", format!("f{}", "()".repeat(N))),
        ("class heritage", format!("{}B{}", "class A extends ".repeat(N), "{}".repeat(N))),
        ("ten-times-deeper conditional chain", format!("{}c", "a ? b : ".repeat(10 * N))),
        ("labels", format!("{};", labels(N))),
        ("else-if chain with blocks", format!("{}{{}}", "if (a) {} else ".repeat(N))),
        ("ten-times-longer else-if chain", format!("{};", "if (a) ; else ".repeat(10 * N))),
    ];
    let mut vm = Vm::with_options(quiet_options());
    for (name, text) in cases {
        let started = Instant::now();
        let thrown = outcome(&mut vm, &text);
        assert!(thrown == "SyntaxError" || thrown == "RangeError", "{name}: {thrown}");
        assert!(started.elapsed() < Duration::from_secs(20), "{name} took {:?}", started.elapsed());
    }
}

#[test]
fn statement_chains_the_nesting_bound_lets_through_fit_the_parser_stack() {
    // 9,000 links: under the bound, so parsed (on the compiler's stack,
    // in whatever build this test runs) and then compiled or refused by
    // the compiler's own depth guard, never a stack overflow.
    let mut vm = Vm::with_options(quiet_options());
    for chain in ["if (a) ; else ".repeat(9_000), "if (a) {} else ".repeat(9_000), labels(9_000)] {
        let text = format!("var a = 0; {chain}a = 1;");
        let result = outcome(&mut vm, &text);
        assert!(result == "ok" || result == "RangeError", "{}: {result}", &chain[..20]);
    }
}

#[test]
fn brackets_inside_strings_do_not_count_as_nesting() {
    let mut vm = Vm::with_options(quiet_options());
    let text = format!("var s = \"{}\"; if (s.length !== 100000) throw new Error('length');", "(".repeat(100_000));
    assert_eq!(outcome(&mut vm, &text), "ok");
}

#[test]
fn runaway_recursion_is_a_range_error() {
    let mut vm = Vm::with_options(quiet_options());
    assert_eq!(outcome(&mut vm, "function f() { return f(); } f();"), "RangeError");
    assert_eq!(outcome(&mut vm, "function g() { return [0].map(g); } g();"), "RangeError");
    assert_eq!(outcome(&mut vm, "var p = new Proxy({}, { get(t, k, r) { return r[k]; } }); p.x;"), "RangeError");
    assert_eq!(outcome(&mut vm, "var o = {}; o.toString = () => String(o); String(o);"), "RangeError");
    // The VM stays usable afterwards.
    assert_eq!(outcome(&mut vm, "1 + 1"), "ok");
}

#[test]
fn string_length_limit_is_a_range_error() {
    let mut vm = Vm::with_options(quiet_options());
    assert_eq!(outcome(&mut vm, "var s = 'a'; for (let i = 0; i < 40; i++) s += s;"), "RangeError");
    assert_eq!(outcome(&mut vm, "var t = 'a'; for (let i = 0; i < 40; i++) t = `${t}${t}`;"), "RangeError");
    assert_eq!(outcome(&mut vm, "'ab'.repeat(2 ** 29);"), "RangeError");
    assert_eq!(outcome(&mut vm, "'a'.padEnd(2 ** 30);"), "RangeError");
    assert_eq!(outcome(&mut vm, "new Array(2 ** 31).join();"), "RangeError");
    assert_eq!(outcome(&mut vm, "var u = 'x'.repeat(2 ** 28); u.concat(u, u);"), "RangeError");
    assert_eq!(outcome(&mut vm, "var a = []; a.length = 2 ** 32;"), "RangeError");
    assert_eq!(outcome(&mut vm, "new ArrayBuffer(2 ** 40);"), "RangeError");
}

/// A panic inside oxc (an upstream bug the fuzzer's `run` target found: a
/// module export name ending in an escaped `\\u` and fewer than four
/// characters) is a `SyntaxError`, not a crash.
#[test]
fn a_parser_panic_is_a_syntax_error() {
    let mut vm = Vm::with_options(quiet_options());
    for text in [r#"import {"\\u88"} from "x";"#, r#"const x = 1; export { x as "\\u8" };"#] {
        let error = vm.check_syntax("panic.mjs", text, js_vm::SourceGoal::Module).expect_err(text);
        let JsError::Throw(thrown) = error else { panic!("not a throw: {text}") };
        assert_eq!(thrown.constructor_name(&mut vm).as_deref(), Some("SyntaxError"), "{text}");
    }
    assert!(matches!(vm.eval_module("panic2.mjs", r#"import {"\\u88"} from "x";"#), Err((js_vm::Phase::Parse, _))));
}

/// `BigInt` values stop at 2²⁰ bits, so no single arithmetic or conversion step
/// (uninterruptible inside `num-bigint`) runs long: the fuzzer's `run` target
/// once spent minutes in `2n ** 100000000n`.
#[test]
fn bigint_size_limit_is_a_range_error() {
    let mut vm = Vm::with_options(quiet_options());
    assert_eq!(outcome(&mut vm, "2n ** 100000000n;"), "RangeError");
    assert_eq!(outcome(&mut vm, "1n << 2000000n;"), "RangeError");
    assert_eq!(outcome(&mut vm, "(2n ** 1000000n) * (2n ** 100000n);"), "RangeError");
    assert_eq!(outcome(&mut vm, "BigInt('9'.repeat(400000));"), "RangeError");
    assert_eq!(outcome(&mut vm, "eval('1' + '0'.repeat(400000) + 'n');"), "RangeError");
    // Just under the bound still works, printed in decimal in well under a second.
    assert_eq!(outcome(&mut vm, "String(2n ** 1048000n).length === 315480 || x;"), "ok");
}

#[test]
fn heap_limit_terminates_with_a_reason() {
    let limit = 64 << 20;
    for program in [
        "var a = []; for (;;) a.push({ x: 1 });",
        "var a = []; for (;;) a.push(1);",
        "var a = []; for (;;) a.push('x'.repeat(100000) + a.length);",
    ] {
        let mut vm = Vm::with_options(VmOptions { max_heap_size: Some(limit), ..quiet_options() });
        let result = vm.eval_script("heap.js", program);
        assert!(matches!(result, Err(JsError::Terminated)), "{program}");
        let Some(TerminationReason::HeapLimit { used, limit: reported }) = vm.termination_reason() else {
            panic!("{program}: {:?}", vm.termination_reason());
        };
        assert_eq!(reported, limit);
        assert!(used > limit, "{program}: {used}");
    }
}

#[test]
fn garbage_does_not_count_against_the_heap_limit() {
    let mut vm = Vm::with_options(VmOptions { max_heap_size: Some(64 << 20), ..quiet_options() });
    let program = "for (let i = 0; i < 2000; i++) { let a = []; for (let j = 0; j < 1000; j++) a.push({ j }); }";
    assert_eq!(outcome(&mut vm, program), "ok");
}

#[test]
fn step_limit_terminates_any_loop() {
    for program in [
        "for (;;) {}",
        "while (true) Math.abs(1);",
        "function f() { f(); } try { f(); } finally { for (;;); }",
        // Catastrophic backtracking: 2^40 paths before the match fails.
        "/(a+)+b/.test('a'.repeat(40));",
    ] {
        let mut vm = Vm::with_options(VmOptions { max_steps: Some(1_000_000), ..quiet_options() });
        assert_eq!(outcome(&mut vm, program), "terminated: Some(StepLimit)", "{program}");
    }
}

/// Runs `setup`, then `program` while another thread raises the interrupt
/// flag after 50 ms; the program must end terminated, well before it would
/// have finished on its own.
fn interrupted(setup: &str, program: &str) {
    let mut vm = Vm::with_options(quiet_options());
    assert_eq!(outcome(&mut vm, setup), "ok", "setup of {program}");
    let flag: Arc<AtomicBool> = vm.interrupt_handle();
    let trigger = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let result = outcome(&mut vm, program);
    let elapsed = started.elapsed();
    trigger.join().expect("trigger thread");
    assert_eq!(result, "terminated: Some(Interrupted)", "{program}");
    assert!(elapsed < Duration::from_secs(5), "{program} stopped after {elapsed:?}");
    // Withdrawn, the VM runs again.
    vm.set_interrupt(false);
    assert_eq!(outcome(&mut vm, "1"), "ok");
}

#[test]
fn interrupt_stops_loops_and_long_builtins() {
    interrupted("", "for (;;) {}");
    interrupted("", "(async () => { for (;;) await null; })(); for (;;) {}");
    interrupted("var holes = new Array(2 ** 28);", "holes.join('');");
    interrupted(
        "var many = []; for (let i = 0; i < 1e6; i++) many.push('k' + (i * 7919 % 1e6));",
        "many.sort(); many.sort(); many.sort();",
    );
    interrupted("", "'abc'.repeat(2 ** 27).length;");
    interrupted(
        "var big = []; for (let i = 0; i < 5e5; i++) big.push({ a: i, b: [i, 'x'] });",
        "for (let i = 0; i < 100; i++) JSON.stringify(big);",
    );
    interrupted("var fill = new Array(2 ** 30);", "fill.fill(0);");
    // Catastrophic backtracking, with and without the unicode flag, in
    // exec, replace and split (each ends in RegExpBuiltinExec).
    interrupted("var a = 'a'.repeat(40);", "/(a+)+b/.exec(a);");
    interrupted("var a = 'a'.repeat(40);", "/(a|aa)+b/u.test(a);");
    interrupted("var a = 'a'.repeat(40) + '!';", "a.replace(/(a*)*b/g, 'x');");
    interrupted("var a = 'x'.repeat(40);", "a.split(/(?=(x+)+y)/);");
}

#[test]
fn a_stopped_match_does_not_leave_later_matches_stopped() {
    let mut vm = Vm::with_options(VmOptions { max_steps: Some(100_000), ..quiet_options() });
    assert_eq!(outcome(&mut vm, "/(a+)+b/.test('a'.repeat(40));"), "terminated: Some(StepLimit)");
    vm.set_step_limit(None);
    let found = vm.eval_script("after.js", "/(a+)+b/.test('aaab') + ' ' + /x(y)?z/.exec('wxzq')[0]").expect("runs");
    assert_eq!(found.to_rust_string(&mut vm).ok().as_deref(), Some("true xz"));
}

#[test]
fn interrupt_stops_a_script_from_another_thread_before_it_starts() {
    let mut vm = Vm::with_options(quiet_options());
    vm.set_interrupt(true);
    assert_eq!(outcome(&mut vm, "for (;;) {}"), "terminated: Some(Interrupted)");
}
