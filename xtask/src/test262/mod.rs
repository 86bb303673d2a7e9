//! `cargo xtask test262 [--check] [PATHS]`: runs ../shared/conformance/test262
//! in process on two threads, each test in a fresh VM, with a per-test time
//! limit enforced through the VM's interrupt flag.
//!
//! Without paths it runs everything and writes `conformance/test262.md` and
//! `conformance/test262-baseline.json`; with `--check` it compares pass
//! counts against the baseline instead and fails on any drop.

mod agent;
mod metadata;
mod report;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use js_vm::{AgentOptions, Handle, JsError, Phase, PropertyFlags, RealmId, Vm, VmOptions};

use crate::command::{TaskError, workspace_root};
use crate::pool::{self, InterruptSlot};
use metadata::Metadata;
pub use report::Counts;

/// Wall-clock limit per test run.
const TIME_LIMIT: Duration = Duration::from_secs(10);
/// The limit with gc-stress on: collections make a test several times
/// slower, and a slow test must not read as a difference. The slowest,
/// `decodeURI`'s and `decodeURIComponent`'s four-byte sweeps (`S15.1.3.x_A2.5_T1`,
/// 196,608 calls, each allocating, so a whole-heap collection per loop
/// iteration), took 158 s (db6c191) and 166 s (after the object-kind move,
/// which adds a cell per builtin object) under `jsvm --gc-stress` on an
/// idle core, and over 3 minutes beside a second worker.
const STRESS_TIME_LIMIT: Duration = Duration::from_mins(8);

/// Features this engine does not implement yet: tests that need them are
/// skipped (and counted as not passed).
const UNSUPPORTED_FEATURES: &[&str] = &[
    "decorators",
    "Temporal",
    "ShadowRealm",
    "tail-call-optimization",
    "source-phase-imports",
    "import-defer",
    "import-text",
    "import-bytes",
];

/// How one test run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It passed.
    Pass,
    /// It failed, with a reason.
    Fail(String),
    /// It was not run (unsupported flag or feature).
    Skip,
}

/// One test file.
struct TestCase {
    path: PathBuf,
    /// Path relative to `test/`, with `/` separators.
    relative: String,
}

fn test262_root() -> PathBuf {
    workspace_root().join("..").join("shared").join("conformance").join("test262")
}

fn collect_tests(dir: &Path, root: &Path, out: &mut Vec<TestCase>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect_tests(&path, root, out)?;
        } else if path.extension().is_some_and(|e| e == "js") && !path.to_string_lossy().contains("_FIXTURE") {
            let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            out.push(TestCase { path, relative });
        }
    }
    Ok(())
}

/// The harness files, read once.
struct Harness {
    dir: PathBuf,
    cache: Mutex<BTreeMap<String, Arc<String>>>,
}

impl Harness {
    fn file(&self, name: &str) -> Result<Arc<String>, String> {
        if let Some(text) = self.cache.lock().map_err(|_| "harness cache poisoned")?.get(name) {
            return Ok(Arc::clone(text));
        }
        let text = std::fs::read_to_string(self.dir.join(name)).map_err(|e| format!("harness {name}: {e}"))?;
        let text = Arc::new(text);
        self.cache.lock().map_err(|_| "harness cache poisoned")?.insert(name.to_owned(), Arc::clone(&text));
        Ok(text)
    }
}

/// Records `print` output for async tests.
struct Recorder(Arc<Mutex<Vec<String>>>);

impl js_vm::ConsoleSink for Recorder {
    fn log(&mut self, line: &str) {
        if let Ok(mut lines) = self.0.lock() {
            lines.push(line.to_owned());
        }
    }

    fn error(&mut self, line: &str) {
        self.log(line);
    }
}

/// The first argument as Rust text (`ToString`).
fn first_argument_text(vm: &mut Vm, args: &[Handle]) -> Result<String, JsError> {
    args.first().cloned().unwrap_or_default().to_rust_string(vm)
}

/// Defines a host method on `object`, non-enumerable as builtins are.
fn define_method(
    vm: &mut Vm,
    object: &Handle,
    name: &str,
    length: u32,
    body: impl Fn(&mut Vm, &Handle, &[Handle]) -> Result<Handle, JsError> + 'static,
) -> Result<(), JsError> {
    let function = Handle::function(vm, name, length, body);
    object.define_property(vm, name, &function, PropertyFlags::METHOD)
}

/// Defines `$262` on the global object of `realm`, the current realm (so
/// its functions belong to it): `global`, `evalScript` (a script in that
/// realm), `gc`, `createRealm`, `detachArrayBuffer` and `IsHTMLDDA`.
fn install_262(vm: &mut Vm, realm: RealmId) -> Result<Handle, JsError> {
    let global = vm.realm_global(realm).ok_or_else(|| JsError::range_error(vm, "no such realm"))?;
    let host = Handle::new_object(vm);
    host.define_property(vm, "global", &global, PropertyFlags::METHOD)?;
    define_method(vm, &host, "evalScript", 1, move |vm, _, args| {
        let text = first_argument_text(vm, args)?;
        vm.eval_script_in_realm(realm, "evalScript", &text)
    })?;
    define_method(vm, &host, "gc", 0, |vm, _, _| {
        vm.collect_garbage();
        Ok(Handle::undefined())
    })?;
    define_method(vm, &host, "createRealm", 0, |vm, _, _| {
        let realm = vm.create_realm();
        vm.run_in_realm(realm, |vm| install_262(vm, realm))
    })?;
    define_method(vm, &host, "detachArrayBuffer", 1, |vm, _, args| {
        args.first().cloned().unwrap_or_default().detach_array_buffer(vm)?;
        Ok(Handle::null())
    })?;
    // INTERPRETING.md: an [[IsHTMLDDA]] object that returns null when called
    // with no arguments or with "".
    let dda = Handle::html_dda_function(vm, "IsHTMLDDA", 0, |vm, _, args| {
        let empty = match args.first() {
            None => true,
            Some(first) => first.is_string() && first.to_rust_string(vm)?.is_empty(),
        };
        Ok(if empty { Handle::null() } else { Handle::undefined() })
    });
    host.define_property(vm, "IsHTMLDDA", &dda, PropertyFlags::METHOD)?;
    global.define_property(vm, "$262", &host, PropertyFlags::METHOD)?;
    Ok(host)
}

/// Defines `print` and `$262` (the hooks this engine supports), with
/// `$262.agent` for the main agent; returns its agents, to be stopped when
/// the test ends.
fn install_host(vm: &mut Vm) -> Result<std::rc::Rc<agent::Agents>, JsError> {
    let global = vm.global_object();
    define_method(vm, &global, "print", 1, |vm, _, args| {
        let text = first_argument_text(vm, args)?;
        vm.console_log(&text);
        Ok(Handle::undefined())
    })?;
    let host = install_262(vm, vm.current_realm())?;
    agent::install_main(vm, &host)
}

/// Runs what the test left queued: promise jobs, then the event loop's
/// timers and `Atomics.waitAsync` settlements, until nothing is left. An
/// unhandled rejection is no failure in test262: the loop goes on.
fn run_jobs(vm: &mut Vm) -> Result<(), JsError> {
    while vm.run_event_loop()?.is_some() {}
    Ok(())
}

/// Whether VMs collect at every safepoint (`--gc-stress-compare`).
static GC_STRESS: AtomicBool = AtomicBool::new(false);

fn run_once(
    case: &TestCase,
    meta: &Metadata,
    source: &str,
    strict: bool,
    harness: &Harness,
    interrupt_slot: &InterruptSlot,
) -> Outcome {
    // The main agent can block (as in Node, d8 or the SpiderMonkey shell:
    // the agent tests' `safeBroadcast` calls `Atomics.wait` on it), except
    // for the tests about an agent that cannot.
    // Its agents may notify its `Atomics.waitAsync` promises at any time.
    let agent = AgentOptions { can_block: !meta.has_flag("CanBlockIsFalse"), wait_async_keeps_alive: true };
    let mut options = VmOptions { agent, ..VmOptions::default() };
    if GC_STRESS.load(Ordering::Relaxed) {
        options.heap.stress = true;
    }
    let mut vm = Vm::with_options(options);
    // test262's harness has no CommonJS: every file a test imports is a module.
    vm.set_module_loader(Box::new(js_vm::FsLoader::js_files_as_modules()));
    let printed = Arc::new(Mutex::new(Vec::new()));
    vm.set_console(Box::new(Recorder(Arc::clone(&printed))));
    if let Ok(mut slot) = interrupt_slot.lock() {
        *slot = Some(vm.interrupt_handle());
    }
    let agents = match install_host(&mut vm) {
        Ok(agents) => agents,
        Err(e) => return Outcome::Fail(format!("the host hooks failed: {}", describe(&mut vm, e))),
    };
    if !meta.has_flag("raw") {
        let mut files = vec!["assert.js".to_owned(), "sta.js".to_owned()];
        if meta.has_flag("async") {
            files.push("doneprintHandle.js".to_owned());
        }
        files.extend(meta.includes.iter().cloned());
        for name in files {
            let text = match harness.file(&name) {
                Ok(t) => t,
                Err(e) => return Outcome::Fail(e),
            };
            if let Err(e) = vm.eval_script(&name, &text) {
                let message = describe(&mut vm, e);
                return Outcome::Fail(format!("harness {name} failed: {message}"));
            }
        }
    }
    // The absolute path names the test, so its imports (and `import()`
    // calls) resolve against its directory.
    let file_name = case.path.to_string_lossy().into_owned();
    let result = if meta.has_flag("module") {
        run_module(&mut vm, &file_name, source)
    } else {
        let text = if strict { format!("\"use strict\";\n{source}") } else { source.to_owned() };
        // Promise jobs the script queued run before the outcome is judged.
        vm.eval_script_phased(&file_name, &text)
            .and_then(|v| run_jobs(&mut vm).map(|()| v).map_err(|e| (Phase::Runtime, e)))
    };
    let outcome = match (&meta.negative, result) {
        (Some(negative), Err((phase, JsError::Throw(value)))) => {
            let phase_ok = matches!(
                (negative.phase.as_str(), phase),
                ("parse", Phase::Parse) | ("resolution", Phase::Resolution) | ("runtime", Phase::Runtime)
            );
            let name = value.constructor_name(&mut vm).unwrap_or_default();
            if phase_ok && name == negative.error_type {
                Outcome::Pass
            } else {
                let message = describe(&mut vm, JsError::Throw(value));
                Outcome::Fail(format!("expected {} {}, got {:?} {message}", negative.phase, negative.error_type, phase))
            }
        }
        (Some(negative), Ok(_)) => {
            Outcome::Fail(format!("expected {} {}, but it completed", negative.phase, negative.error_type))
        }
        (_, Err((_, JsError::Terminated))) => Outcome::Fail("timed out".to_owned()),
        (None, Err((_, e))) => Outcome::Fail(describe(&mut vm, e)),
        (None, Ok(_)) => {
            if meta.has_flag("async") {
                let lines = printed.lock().map(|l| l.clone()).unwrap_or_default();
                if lines.iter().any(|l| l == "Test262:AsyncTestComplete") {
                    Outcome::Pass
                } else {
                    Outcome::Fail(lines.last().cloned().unwrap_or_else(|| "async test never completed".to_owned()))
                }
            } else {
                Outcome::Pass
            }
        }
    };
    agents.shutdown();
    if let Ok(mut slot) = interrupt_slot.lock() {
        *slot = None;
    }
    outcome
}

/// Runs a `flags: [module]` test as a module: its evaluation (and the
/// jobs it queues) must finish without the module's promise rejecting.
fn run_module(vm: &mut Vm, file_name: &str, source: &str) -> Result<Handle, (Phase, JsError)> {
    let promise = vm.eval_module(file_name, source)?;
    run_jobs(vm).map_err(|e| (Phase::Runtime, e))?;
    match promise.promise_outcome(vm) {
        Some(Err(reason)) => Err((Phase::Runtime, JsError::Throw(reason))),
        _ => Ok(Handle::undefined()),
    }
}

fn describe(vm: &mut Vm, e: JsError) -> String {
    match e {
        JsError::Throw(v) => {
            let name = v.constructor_name(vm).unwrap_or_else(|| "thrown".to_owned());
            let message = v
                .is_object()
                .then(|| v.get(vm, "message").ok())
                .flatten()
                .filter(|m| !m.is_undefined())
                .and_then(|m| m.to_rust_string(vm).ok());
            match message {
                Some(m) => format!("{name}: {}", m.lines().next().unwrap_or_default()),
                None => v.describe_uncaught(vm).lines().next().unwrap_or_default().to_owned(),
            }
        }
        JsError::Terminated => "timed out".to_owned(),
    }
}

/// Runs one test file in the modes its flags ask for.
fn run_case(case: &TestCase, harness: &Harness, interrupt_slot: &InterruptSlot) -> Outcome {
    let source = match std::fs::read_to_string(&case.path) {
        Ok(s) => s,
        Err(e) => return Outcome::Fail(format!("unreadable: {e}")),
    };
    let meta = metadata::parse(&source);
    if meta.features.iter().any(|f| UNSUPPORTED_FEATURES.contains(&f.as_str())) {
        return Outcome::Skip;
    }
    let modes: &[bool] = if meta.has_flag("raw") || meta.has_flag("noStrict") || meta.has_flag("module") {
        &[false]
    } else if meta.has_flag("onlyStrict") {
        &[true]
    } else {
        &[false, true]
    };
    for &strict in modes {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_once(case, &meta, &source, strict, harness, interrupt_slot)
        }))
        .unwrap_or_else(|payload| Outcome::Fail(format!("engine panic: {}", pool::panic_message(&*payload))));
        if let Outcome::Fail(reason) = outcome {
            let mode = if strict { "strict" } else { "sloppy" };
            return Outcome::Fail(format!("[{mode}] {reason}"));
        }
    }
    Outcome::Pass
}

/// Runs `cases` on the worker threads; returns outcomes in order.
fn run_all(cases: &[TestCase], harness: &Harness) -> Vec<Outcome> {
    pool::run_parallel(
        "test262",
        cases,
        |_| if GC_STRESS.load(Ordering::Relaxed) { STRESS_TIME_LIMIT } else { TIME_LIMIT },
        |case, slot| run_case(case, harness, slot),
        || Outcome::Fail("not run".to_owned()),
    )
}

/// `--gc-stress-compare`: every test must end the same with the heap
/// collecting at every safepoint.
fn compare_stressed(cases: &[TestCase], normal: &[Outcome], stressed: &[Outcome]) -> Result<(), TaskError> {
    let mut differences = 0;
    for ((case, a), b) in cases.iter().zip(normal).zip(stressed) {
        let same = matches!(
            (a, b),
            (Outcome::Pass, Outcome::Pass) | (Outcome::Skip, Outcome::Skip) | (Outcome::Fail(_), Outcome::Fail(_))
        );
        if !same {
            differences += 1;
            println!("GC-STRESS DIFFERENCE {}: normal {a:?}, stressed {b:?}", case.relative);
        }
    }
    let passed = normal.iter().filter(|o| **o == Outcome::Pass).count();
    println!("test262 gc-stress: {} files, {passed} pass in both modes, {differences} differ", cases.len());
    if differences == 0 {
        Ok(())
    } else {
        Err(TaskError::Conformance(format!("{differences} tests behave differently under gc-stress")))
    }
}

/// The directory a test is counted under.
pub fn group_of(relative: &str) -> String {
    let parts: Vec<&str> = relative.split('/').collect();
    let depth = if parts.first() == Some(&"language") { 3 } else { 2 };
    parts[..parts.len().saturating_sub(1).min(depth)].join("/")
}

/// Entry point of `cargo xtask test262`.
pub fn run(args: &[String]) -> Result<(), TaskError> {
    if cfg!(debug_assertions) {
        // Conformance runs need an optimised engine: re-run in release.
        let mut cmd = crate::command::cargo(&["run", "--release", "--quiet", "--package", "xtask", "--", "test262"]);
        cmd.args(args);
        return crate::command::run("test262 (release)", &mut cmd);
    }
    let check = args.iter().any(|a| a == "--check");
    let stress_compare = args.iter().any(|a| a == "--gc-stress-compare");
    let verbose = args.iter().any(|a| a == "--verbose");
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let root = test262_root();
    let test_dir = root.join("test");
    let mut cases = Vec::new();
    if paths.is_empty() {
        collect_tests(&test_dir, &test_dir, &mut cases).map_err(|e| TaskError::Conformance(e.to_string()))?;
    } else {
        for p in &paths {
            let p = p.strip_prefix("test/").unwrap_or(p);
            let full = test_dir.join(p);
            if full.is_dir() {
                collect_tests(&full, &test_dir, &mut cases).map_err(|e| TaskError::Conformance(e.to_string()))?;
            } else {
                let relative = p.replace('\\', "/");
                cases.push(TestCase { path: full, relative });
            }
        }
    }
    let harness = Harness { dir: root.join("harness"), cache: Mutex::new(BTreeMap::new()) };
    let quiet_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let outcomes = run_all(&cases, &harness);
    let normal_time = started.elapsed();
    let stressed = stress_compare.then(|| {
        GC_STRESS.store(true, Ordering::Relaxed);
        let stress_started = Instant::now();
        let o = run_all(&cases, &harness);
        GC_STRESS.store(false, Ordering::Relaxed);
        println!(
            "test262: {} files in {:.1}s, with gc-stress in {:.1}s",
            cases.len(),
            normal_time.as_secs_f64(),
            stress_started.elapsed().as_secs_f64()
        );
        o
    });
    std::panic::set_hook(quiet_hook);
    // `--check --gc-stress-compare`: one normal run serves both checks.
    let stress_result = stressed.map(|stressed| compare_stressed(&cases, &outcomes, &stressed));
    if !check && let Some(result) = stress_result {
        return result;
    }
    let mut counts: BTreeMap<String, Counts> = BTreeMap::new();
    for (case, outcome) in cases.iter().zip(&outcomes) {
        let c = counts.entry(group_of(&case.relative)).or_default();
        c.total += 1;
        match outcome {
            Outcome::Pass => c.passed += 1,
            Outcome::Fail(reason) => {
                c.failed += 1;
                if verbose
                    || paths
                        .iter()
                        .any(|p| Path::new(p.as_str()).extension().is_some_and(|e| e.eq_ignore_ascii_case("js")))
                {
                    println!("FAIL {}: {reason}", case.relative);
                }
            }
            Outcome::Skip => c.skipped += 1,
        }
    }
    let total = report::sum(counts.values());
    println!(
        "test262: {} files in {:.1}s: {} passed, {} failed, {} skipped",
        total.total,
        started.elapsed().as_secs_f64(),
        total.passed,
        total.failed,
        total.skipped
    );
    let conformance = workspace_root().join("conformance");
    if check {
        let baseline = crate::baseline::read(&conformance.join("test262-baseline.json"))?;
        let checked = report::check(&counts, &baseline);
        return stress_result.unwrap_or(Ok(())).and(checked);
    }
    print!("{}", report::summary_table(&counts));
    if paths.is_empty() {
        std::fs::create_dir_all(&conformance).map_err(|e| TaskError::Conformance(e.to_string()))?;
        report::write(&conformance, &counts, &root)?;
        println!("test262: wrote conformance/test262.md and conformance/test262-baseline.json");
    }
    Ok(())
}
