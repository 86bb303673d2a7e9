//! Runs every program in `tests/js/` (scripts `*.js`, modules `*.mjs`;
//! the modules they import live in `tests/js/fixtures/`) on the engine and
//! on `node`, and requires byte-identical output.

use std::path::{Path, PathBuf};
use std::process::Command;

use js_vm::{ConsoleSink, Vm, VmOptions};

mod support;

use support::Capture;

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("js");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/js exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "js" || e == "mjs"))
        .collect();
    files.sort();
    files
}

fn run_on_engine(path: &Path) -> String {
    let capture = Capture::default();
    // As jsvm makes it: node's main thread may block in `Atomics.wait`.
    let mut options = VmOptions::default();
    options.agent.can_block = true;
    let mut vm = Vm::with_options(options);
    vm.set_console(Box::new(capture.clone()));
    let outcome = if path.extension().is_some_and(|e| e == "mjs") {
        // As jsvm runs a module: evaluated as if inside a promise job.
        let text = std::fs::read_to_string(path).expect("readable program");
        vm.eval_module(&path.to_string_lossy(), &text)
            .map_err(|(_, e)| e)
            .and_then(|_| vm.run_microtasks())
            .and_then(|()| vm.run_event_loop())
    } else {
        // A `.js` file outside a `"type": "module"` package is CommonJS,
        // as node and jsvm run it.
        vm.run_commonjs_main(&path.to_string_lossy()).and_then(|()| vm.run_event_loop())
    };
    if let Ok(Some(v)) | Err(js_vm::JsError::Throw(v)) = outcome {
        let report = v.describe_uncaught(&mut vm);
        capture.clone().error(&report);
    }

    capture.text()
}

fn run_on_node(path: &Path) -> String {
    let output = Command::new("node").arg(path).output().expect("node is installed on every machine");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    text
}

#[test]
fn programs_print_what_node_prints() {
    let mut mismatches = Vec::new();
    for path in programs() {
        let ours = run_on_engine(&path);
        let theirs = run_on_node(&path);
        if ours != theirs {
            mismatches.push(format!("{}\n--- jsvm\n{ours}\n--- node\n{theirs}", path.display()));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n\n"));
}

#[test]
fn uncaught_exception_prints_error_and_stack_and_exits_1() {
    let dir = std::env::temp_dir().join(format!("jsvm-uncaught-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("boom.js");
    std::fs::write(
        &file,
        "function inner() { throw new TypeError('boom'); }\nfunction outer() { inner(); }\nouter();\n",
    )
    .expect("write program");
    let output = Command::new(env!("CARGO_BIN_EXE_jsvm")).arg(&file).output().expect("jsvm runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    // Node's layout: the throw site with a caret, a blank line, the stack.
    let header =
        "boom.js:1\nfunction inner() { throw new TypeError('boom'); }\n                   ^\n\nTypeError: boom\n";
    assert!(stderr.contains(header), "stderr: {stderr}");
    assert!(stderr.contains("    at inner ("), "stderr: {stderr}");
    assert!(stderr.contains("boom.js:1:26)"), "stderr: {stderr}");
    assert!(stderr.contains("    at outer ("), "stderr: {stderr}");
}

#[test]
fn unhandled_rejections_are_reported_as_node_reports_them_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("jsvm-rejection-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let error_file = dir.join("reject-error.js");
    std::fs::write(&error_file, "async function f() {\n  throw new RangeError('late');\n}\nf();\n").expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_jsvm")).arg(&error_file).output().expect("jsvm runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    let header = "reject-error.js:2\n  throw new RangeError('late');\n        ^\n\nRangeError: late\n    at f (";
    assert!(stderr.contains(header), "stderr: {stderr}");

    let value_file = dir.join("reject-value.js");
    std::fs::write(&value_file, "Promise.reject(42);\n").expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_jsvm")).arg(&value_file).output().expect("jsvm runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    assert!(
        stderr.starts_with("[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason \"42\".] {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n"),
        "stderr: {stderr}"
    );
}

#[test]
fn module_errors_are_reported_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("jsvm-module-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        ("throws.mjs", "throw new TypeError('top');\n", "TypeError: top"),
        ("missing.mjs", "import './not-there.mjs';\n", "Cannot find module"),
        ("unexported.mjs", "import { nope } from './throws.mjs';\n", "does not provide an export named 'nope'"),
        ("syntax.mjs", "let x = ;\n", "SyntaxError"),
        ("tla.mjs", "await Promise.reject(new RangeError('later'));\n", "RangeError: later"),
    ];
    for (name, text, _) in cases {
        std::fs::write(dir.join(name), text).expect("write module");
    }
    for (name, _, expected) in cases {
        let output = Command::new(env!("CARGO_BIN_EXE_jsvm")).arg(dir.join(name)).output().expect("jsvm runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
    }
    // A `.js` file runs as a module with `--module`, and its stack names
    // the module by its file URL, as Node's does.
    let file = dir.join("flagged.js");
    std::fs::write(&file, "export const x = 1;\nthrow new Error(`x is ${x}`);\n").expect("write module");
    let output = Command::new(env!("CARGO_BIN_EXE_jsvm")).arg("--module").arg(&file).output().expect("jsvm runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Error: x is 1\n    at file:///"), "{stderr}");
}

#[test]
fn syntax_errors_and_runaway_recursion_are_errors_not_crashes() {
    let mut vm = Vm::new();
    let err = vm.eval_script("bad.js", "let x = ;").expect_err("syntax error");
    let js_vm::JsError::Throw(v) = err else { panic!("not a throw") };
    assert_eq!(v.constructor_name(&mut vm).as_deref(), Some("SyntaxError"));
    let err = vm.eval_script("deep.js", "function f() { return f(); } f();").expect_err("stack overflow");
    let js_vm::JsError::Throw(v) = err else { panic!("not a throw") };
    assert_eq!(v.constructor_name(&mut vm).as_deref(), Some("RangeError"));
    // Long chains that the parser builds without brackets still compile
    // (or fail cleanly) on a test thread's 2 MiB stack.
    let chain = format!("1{}", "+1".repeat(100_000));
    let sum = vm.eval_script("chain.js", &chain).expect("long chains compile");
    assert_eq!(sum.as_number(), Some(100_001.0));
    let unary = format!("{}1", "- ".repeat(1_400));
    let v = vm.eval_script("unary.js", &unary).expect("deep unary chains compile");
    assert_eq!(v.as_number(), Some(1.0));
    let nested = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let err = vm.eval_script("nested.js", &nested).expect_err("too deep");
    let js_vm::JsError::Throw(v) = err else { panic!("not a throw") };
    assert_eq!(v.constructor_name(&mut vm).as_deref(), Some("RangeError"));
}

#[test]
fn interrupt_stops_an_infinite_loop() {
    let mut vm = Vm::new();
    let flag = vm.interrupt_handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let result = vm.eval_script("loop.js", "for (;;) {}");
    stopper.join().expect("stopper thread");
    assert!(matches!(result, Err(js_vm::JsError::Terminated)));
}
