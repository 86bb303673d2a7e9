//! ES modules through the embedder API: a loader hook serving modules from
//! memory, the phases of load, link and evaluation errors, cycles, live
//! bindings, top-level await ordering and dynamic import, also with a
//! collection at every safepoint.

use std::collections::HashMap;

use js_vm::{JsError, ModuleLoadError, ModuleLoader, Phase, Vm, VmOptions};

/// Modules from a map: specifiers `./name` (or `name`) are keys.
struct MemoryLoader(HashMap<String, String>);

impl MemoryLoader {
    fn new(modules: &[(&str, &str)]) -> Self {
        Self(modules.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect())
    }
}

impl ModuleLoader for MemoryLoader {
    fn resolve(&mut self, specifier: &str, _referrer: Option<&str>) -> Result<String, ModuleLoadError> {
        let key = specifier.trim_start_matches("./").to_owned();
        if self.0.contains_key(&key) {
            Ok(key)
        } else {
            Err(ModuleLoadError { message: format!("no module {key}"), code: Some("ERR_TEST_MISSING".to_owned()) })
        }
    }

    fn load(&mut self, key: &str) -> Result<String, ModuleLoadError> {
        self.0.get(key).cloned().ok_or_else(|| ModuleLoadError { message: format!("no module {key}"), code: None })
    }

    fn url(&self, key: &str) -> String {
        format!("memory:{key}")
    }
}

fn vm_with(modules: &[(&str, &str)], stress: bool) -> Vm {
    let mut options = VmOptions::default();
    options.heap.stress = stress;
    let mut vm = Vm::with_options(options);
    vm.set_module_loader(Box::new(MemoryLoader::new(modules)));
    vm
}

/// Imports `main`, runs the jobs and returns `globalThis.out` as printed.
fn run(vm: &mut Vm) -> String {
    let promise = vm.import_module("main").unwrap_or_else(|(phase, _)| panic!("module failed in {phase:?}"));
    vm.run_event_loop().expect("event loop");
    if let Some(Err(reason)) = promise.promise_outcome(vm) {
        panic!("module rejected: {}", reason.describe_uncaught(vm));
    }
    let out = vm.eval_script("check.js", "JSON.stringify(globalThis.out)").expect("out");
    out.display(vm)
}

fn error_text(vm: &mut Vm, e: JsError) -> String {
    let JsError::Throw(v) = e else { return "terminated".to_owned() };
    let name = v.constructor_name(vm).unwrap_or_default();
    let text = v.get(vm, "message").and_then(|m| m.to_rust_string(vm)).unwrap_or_default();
    format!("{name}: {text}")
}

const GRAPH: &[(&str, &str)] = &[
    (
        "main",
        "import { count, bump } from './lib';
         import * as ns from './lib';
         import def, { isEven } from './cycle';
         bump(); bump();
         globalThis.out = [count, ns.count, Object.keys(ns), def.name, isEven(10), import.meta.url];",
    ),
    ("lib", "export let count = 0; export function bump() { count++; } export default 1;"),
    (
        "cycle",
        "import { isOdd } from './cycle2';
         export function isEven(n) { return n === 0 || isOdd(n - 1); }
         export default function () {}",
    ),
    ("cycle2", "import { isEven } from './cycle'; export function isOdd(n) { return n !== 0 && isEven(n - 1); }"),
];

#[test]
fn loader_hook_serves_a_graph_with_live_bindings_and_cycles() {
    for stress in [false, true] {
        let mut vm = vm_with(GRAPH, stress);
        assert_eq!(run(&mut vm), r#"[2,2,["bump","count","default"],"default",true,"memory:main"]"#);
    }
}

#[test]
fn errors_carry_their_phase() {
    let mut vm = vm_with(&[("main", "import { nope } from './lib';"), ("lib", "export const yes = 1;")], false);
    let (phase, e) = vm.import_module("main").expect_err("link error");
    assert_eq!(phase, Phase::Resolution);
    assert_eq!(
        error_text(&mut vm, e),
        "SyntaxError: The requested module './lib' does not provide an export named 'nope'"
    );

    let mut vm = vm_with(
        &[
            ("main", "import { x } from './stars';"),
            ("stars", "export * from './a'; export * from './b';"),
            ("a", "export const x = 1;"),
            ("b", "export const x = 2;"),
        ],
        false,
    );
    let (phase, e) = vm.import_module("main").expect_err("ambiguous");
    assert_eq!(phase, Phase::Resolution);
    assert!(error_text(&mut vm, e).contains("conflicting star exports for name 'x'"));

    // A parse error is made at its position in the module's text: the
    // uncaught report shows the module, line and caret.
    let mut vm = vm_with(&[("main", "export const = 1;")], false);
    let (phase, e) = vm.import_module("main").expect_err("syntax error");
    assert_eq!(phase, Phase::Parse);
    let JsError::Throw(thrown) = e.clone() else { panic!("a thrown SyntaxError") };
    assert_eq!(error_text(&mut vm, e), "SyntaxError: Unexpected token '='");
    let report = thrown.uncaught_report(&mut vm, js_vm::Uncaught::Exception);
    assert!(report.starts_with("memory:main:1\nexport const = 1;\n             ^\n"), "{report}");

    let mut vm = vm_with(&[("main", "import './gone';")], false);
    let (phase, e) = vm.import_module("main").expect_err("missing");
    assert_eq!(phase, Phase::Resolution);
    assert_eq!(error_text(&mut vm, e), "Error: no module gone");

    let mut vm = vm_with(&[("main", "import './dep';"), ("dep", "let let = 1;")], false);
    assert_eq!(vm.import_module("main").expect_err("dependency syntax").0, Phase::Resolution);
}

#[test]
fn evaluation_errors_reject_once_and_stay() {
    let mut vm = vm_with(&[("main", "import './bad';"), ("bad", "throw new TypeError('bad module');")], false);
    let first = vm.import_module("main").expect("linked");
    vm.run_microtasks().expect("jobs");
    let Some(Err(reason)) = first.promise_outcome(&vm) else { panic!("not rejected") };
    let second = vm.import_module("bad").expect("linked");
    vm.run_microtasks().expect("jobs");
    let Some(Err(again)) = second.promise_outcome(&vm) else { panic!("not rejected") };
    assert!(reason.same_value(&mut vm, &again), "the same error object");
}

#[test]
fn top_level_await_runs_async_parents_in_order() {
    // §16.2.1.5.3.4 example: modules that become ready together run in the
    // order they became asynchronous.
    let graph: &[(&str, &str)] = &[
        ("main", "import './a'; import './b'; globalThis.out.push('main');"),
        ("log", "globalThis.out = [];"),
        ("a", "import './log'; import './slow'; globalThis.out.push('a');"),
        ("b", "import './log'; import './slow'; globalThis.out.push('b');"),
        ("slow", "import './log'; globalThis.out.push('slow start'); await 0; globalThis.out.push('slow end');"),
    ];
    for stress in [false, true] {
        let mut vm = vm_with(graph, stress);
        assert_eq!(run(&mut vm), r#"["slow start","slow end","a","b","main"]"#);
    }
}

#[test]
fn dynamic_import_from_a_script() {
    let mut vm = vm_with(&[("lib", "export const answer = 42;")], false);
    vm.eval_script(
        "script.js",
        "import('./lib').then(ns => { globalThis.out = [ns.answer, ns[Symbol.toStringTag]]; });
         import('./missing').catch(e => { globalThis.missing = e.code; });",
    )
    .expect("script runs");
    vm.run_event_loop().expect("jobs");
    let out = vm.eval_script("check.js", "JSON.stringify([out, missing])").expect("out");
    assert_eq!(out.display(&mut vm), r#"[[42,"Module"],"ERR_TEST_MISSING"]"#);
}

#[test]
fn eval_module_from_source_text() {
    let mut vm = vm_with(&[("lib", "export default 'from lib';")], false);
    let promise = vm.eval_module("entry", "import v from './lib'; globalThis.out = [v];").expect("module");
    vm.run_microtasks().expect("jobs");
    assert!(matches!(promise.promise_outcome(&vm), Some(Ok(_))));
    let out = vm.eval_script("check.js", "JSON.stringify(out)").expect("out");
    assert_eq!(out.display(&mut vm), r#"["from lib"]"#);
}
