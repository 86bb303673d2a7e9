//! `cargo xtask wpt [--check] [--verbose] [PATHS]`: runs the WPT streams
//! and encoding tests in ../shared/conformance/wpt on jsvm (in process, each
//! test in a fresh VM on the shared worker pool) and on node (one process
//! per test), through the same adapter script (`adapter.js`), so both
//! engines' subtest counts come from the same files and the same runner.
//!
//! A test is `resources/testharness.js`, the scripts its `// META:
//! script=` lines name and the test itself, each evaluated as a classic
//! script in one global, with `WPT_CONFIG` and the adapter first. Each
//! `variant=` is a run of its own. `*.window.js`, `*.html` and
//! `transferable/` need a browser: they are listed as skipped (not passed),
//! as node skips them.
//!
//! Without paths it writes `conformance/wpt.md` and
//! `conformance/wpt-baseline.json` (jsvm's passed subtests per file); with
//! `--check` it runs jsvm alone and fails if a file passes fewer subtests
//! than its baseline.

mod meta;
mod report;

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use js_vm::{Handle, JsError, PropertyFlags, Vm};

use crate::command::{TaskError, workspace_root};
use crate::pool::{self, InterruptSlot};
pub use report::{EngineResult, FileResult};

/// Time limit of one test run (per engine).
const TIME_LIMIT: Duration = Duration::from_secs(10);
/// Time limit of a `timeout=long` test.
const LONG_TIME_LIMIT: Duration = Duration::from_secs(30);
/// The directories of the suite that are run.
const SUITES: &[&str] = &["encoding", "streams"];

/// The adapter every engine runs before testharness.js.
const ADAPTER: &str = include_str!("adapter.js");

/// One step of a test run.
#[derive(Debug, Clone)]
enum Step {
    /// Evaluate this file as a classic script.
    Script(PathBuf),
    /// Call `WPT_ATTACH()` (after testharness.js has loaded).
    Attach,
}

/// One run of a test file (one per variant).
struct WptCase {
    /// Suite-relative path plus the variant: the report's key.
    name: String,
    /// How to run it, or why it is not run.
    run: Result<Run, String>,
}

/// What a runnable case needs.
struct Run {
    /// `WPT_CONFIG`, as JSON.
    config: String,
    /// The scripts to evaluate in order (testharness.js first).
    steps: Vec<Step>,
    limit: Duration,
}

fn wpt_root() -> PathBuf {
    workspace_root().join("..").join("shared").join("conformance").join("wpt")
}

/// Why a file is not run, if it needs a browser.
fn browser_only(relative: &str) -> Option<&'static str> {
    if relative.split('/').any(|part| part == "transferable") {
        Some("transferable/ needs workers and MessagePort")
    } else if relative.ends_with(".window.js") {
        Some("*.window.js needs a window")
    } else if Path::new(relative).extension().is_some_and(|e| e.eq_ignore_ascii_case("html")) {
        Some("*.html needs a browser")
    } else {
        None
    }
}

/// Adds every test file under `dir` (recursively; `resources/` folders
/// hold helpers, not tests).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type()?.is_dir() {
            if name != "resources" {
                collect(&path, out)?;
            }
        } else if name.ends_with(".any.js") || browser_only(&name).is_some() {
            out.push(path);
        }
    }
    Ok(())
}

/// The IDL files idlharness tests fetch, by name.
fn interfaces(root: &Path) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    if let Ok(entries) = std::fs::read_dir(root.join("interfaces")) {
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "idl")
                && let (Some(stem), Ok(text)) = (path.file_stem(), std::fs::read_to_string(&path))
            {
                map.insert(stem.to_string_lossy().into_owned(), serde_json::Value::from(text));
            }
        }
    }
    map
}

/// The runs of one test file.
fn cases_of(path: &Path, root: &Path, idl: &serde_json::Map<String, serde_json::Value>) -> Vec<WptCase> {
    let relative = path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/");
    if let Some(why) = browser_only(&relative) {
        return vec![WptCase { name: relative, run: Err(why.to_owned()) }];
    }
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return vec![WptCase { name: relative, run: Err(format!("unreadable: {e}")) }],
    };
    let meta = meta::parse(&source);
    let mut steps = vec![Step::Script(root.join("resources/testharness.js")), Step::Attach];
    steps.extend(meta.scripts.iter().map(|s| Step::Script(meta::resolve_script(root, path, s))));
    steps.push(Step::Script(path.to_path_buf()));
    let needs_idl = meta.scripts.iter().any(|s| s.ends_with("idlharness.js"));
    let variants = if meta.variants.is_empty() { vec![String::new()] } else { meta.variants.clone() };
    variants
        .into_iter()
        .map(|variant| {
            let mut config = serde_json::Map::new();
            config.insert("path".into(), relative.clone().into());
            config.insert("variant".into(), variant.clone().into());
            if let Some(title) = &meta.title {
                config.insert("title".into(), title.clone().into());
            }
            if needs_idl {
                config.insert("idl".into(), serde_json::Value::Object(idl.clone()));
            }
            WptCase {
                name: format!("{relative}{variant}"),
                run: Ok(Run {
                    config: serde_json::Value::Object(config).to_string(),
                    steps: steps.clone(),
                    limit: if meta.long_timeout { LONG_TIME_LIMIT } else { TIME_LIMIT },
                }),
            }
        })
        .collect()
}

/// Collects the adapter's output lines.
struct Recorder(Arc<Mutex<Vec<String>>>);

impl js_vm::ConsoleSink for Recorder {
    fn log(&mut self, line: &str) {
        if let Ok(mut lines) = self.0.lock() {
            lines.extend(line.lines().map(str::to_owned));
        }
    }

    fn error(&mut self, _line: &str) {}
}

/// The first line of what an exception says.
fn describe(vm: &mut Vm, e: &JsError) -> String {
    match e {
        JsError::Throw(v) => v.describe_uncaught(vm).lines().next().unwrap_or_default().to_owned(),
        JsError::Terminated => "timed out".to_owned(),
    }
}

fn error_line(message: &str) -> String {
    format!("WPT-ERROR\t{}", serde_json::Value::from(message))
}

/// Runs a case on jsvm in this process; returns the adapter's lines.
fn run_jsvm(run: &Run, slot: &InterruptSlot) -> Vec<String> {
    let mut vm = Vm::new();
    let printed = Arc::new(Mutex::new(Vec::new()));
    vm.set_console(Box::new(Recorder(Arc::clone(&printed))));
    if let Ok(mut slot) = slot.lock() {
        *slot = Some(vm.interrupt_handle());
    }
    let mut errors = Vec::new();
    // `gc()`, which `/common/gc.js` looks for.
    let gc = Handle::function(&mut vm, "gc", 0, |vm, _, _| {
        vm.collect_garbage();
        Ok(Handle::undefined())
    });
    if let Err(e) = vm.global_object().define_property(&mut vm, "gc", &gc, PropertyFlags::METHOD) {
        errors.push(format!("gc(): {}", describe(&mut vm, &e)));
    }
    let mut timed_out = false;
    let prelude =
        [("wpt-config.js", format!("globalThis.WPT_CONFIG = {};", run.config)), ("adapter.js", ADAPTER.into())];
    for (name, text) in prelude {
        if let Err(e) = vm.eval_script(name, &text) {
            errors.push(format!("script {name}: {}", describe(&mut vm, &e)));
        }
    }
    for step in &run.steps {
        let (name, result) = match step {
            Step::Attach => ("WPT_ATTACH".to_owned(), vm.eval_script("wpt-attach.js", "WPT_ATTACH();")),
            Step::Script(path) => {
                let name = path.to_string_lossy().into_owned();
                match std::fs::read_to_string(path) {
                    Ok(text) => {
                        let result = vm.eval_script(&name, &text);
                        (name, result)
                    }
                    Err(e) => {
                        errors.push(format!("missing script {name}: {e}"));
                        continue;
                    }
                }
            }
        };
        match result {
            Ok(_) => {}
            Err(JsError::Terminated) => {
                timed_out = true;
                break;
            }
            Err(e) => errors.push(format!("script {name}: {}", describe(&mut vm, &e))),
        }
    }
    // The event loop goes on after an uncaught exception or an unhandled
    // rejection, as node's does with handlers for both installed.
    while !timed_out {
        match vm.run_event_loop() {
            Ok(None) => break,
            Ok(Some(reason)) => {
                let message = reason.describe_uncaught(&mut vm).lines().next().unwrap_or_default().to_owned();
                errors.push(format!("unhandled rejection: {message}"));
            }
            Err(JsError::Terminated) => timed_out = true,
            Err(e) => errors.push(format!("uncaught exception: {}", describe(&mut vm, &e))),
        }
    }
    if let Ok(mut slot) = slot.lock() {
        *slot = None;
    }
    let mut lines = printed.lock().map(|l| l.clone()).unwrap_or_default();
    lines.extend(errors.iter().map(|e| error_line(e)));
    if timed_out {
        lines.push("WPT-TIMEOUT".to_owned());
    }
    lines
}

/// Runs a case on node (`node-runner.js`), killing it at the time limit;
/// returns the adapter's lines.
fn run_node(run: &Run) -> Vec<String> {
    let runner = workspace_root().join("xtask/src/wpt/node-runner.js");
    let adapter = workspace_root().join("xtask/src/wpt/adapter.js");
    let mut cmd = Command::new("node");
    cmd.arg("--expose-gc").arg(&runner).arg(&run.config).arg(&adapter);
    for step in &run.steps {
        match step {
            Step::Script(path) => cmd.arg(path),
            Step::Attach => cmd.arg("@attach"),
        };
    }
    let mut child = match cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn() {
        Ok(c) => c,
        Err(e) => return vec![error_line(&format!("cannot start node: {e}"))],
    };
    let Some(mut stdout) = child.stdout.take() else { return vec![error_line("node has no stdout")] };
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let mut timed_out = false;
    loop {
        match child.try_wait() {
            // Exited, or cannot be waited for.
            Ok(Some(_)) | Err(_) => break,
            Ok(None) if started.elapsed() > run.limit => {
                let _ = child.kill();
                let _ = child.wait();
                timed_out = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    let text = reader.join().unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if timed_out {
        lines.push("WPT-TIMEOUT".to_owned());
    }
    lines
}

/// Runs one case on jsvm and, unless `jsvm_only`, on node.
fn run_case(case: &WptCase, slot: &InterruptSlot, jsvm_only: bool) -> FileResult {
    let run = match &case.run {
        Ok(run) => run,
        Err(why) => return FileResult { skipped: Some(why.clone()), ..FileResult::default() },
    };
    let jsvm_lines = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_jsvm(run, slot)))
        .unwrap_or_else(|payload| vec![error_line(&format!("engine panic: {}", pool::panic_message(&*payload)))]);
    let jsvm = EngineResult::parse(&jsvm_lines);
    let node = (!jsvm_only).then(|| EngineResult::parse(&run_node(run)));
    FileResult { skipped: None, jsvm, node }
}

/// Entry point of `cargo xtask wpt`.
pub fn run(args: &[String]) -> Result<(), TaskError> {
    if cfg!(debug_assertions) {
        // Conformance runs need an optimised engine: re-run in release.
        let mut cmd = crate::command::cargo(&["run", "--release", "--quiet", "--package", "xtask", "--", "wpt"]);
        cmd.args(args);
        return crate::command::run("wpt (release)", &mut cmd);
    }
    let check = args.iter().any(|a| a == "--check");
    let verbose = args.iter().any(|a| a == "--verbose");
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let root = wpt_root();
    let mut files = Vec::new();
    for dir in SUITES {
        collect(&root.join(dir), &mut files).map_err(|e| TaskError::Conformance(format!("{dir}: {e}")))?;
    }
    let idl = interfaces(&root);
    let cases: Vec<WptCase> = files
        .iter()
        .filter(|f| {
            let relative = f.strip_prefix(&root).unwrap_or(f).to_string_lossy().replace('\\', "/");
            paths.is_empty() || paths.iter().any(|p| relative.starts_with(p.trim_end_matches('/')))
        })
        .flat_map(|f| cases_of(f, &root, &idl))
        .collect();
    let quiet_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let results = pool::run_parallel(
        "wpt",
        &cases,
        |case| case.run.as_ref().map_or(TIME_LIMIT, |r| r.limit),
        |case, slot| run_case(case, slot, check),
        FileResult::default,
    );
    std::panic::set_hook(quiet_hook);
    let results: BTreeMap<String, FileResult> =
        cases.iter().map(|c| c.name.clone()).zip(results).collect::<BTreeMap<_, _>>();
    if verbose || paths.iter().any(|p| p.contains(".js")) {
        print!("{}", report::details(&results));
    }
    print!("{}", report::summary(&results, started.elapsed()));
    let conformance = workspace_root().join("conformance");
    if check {
        let baseline = crate::baseline::read(&conformance.join("wpt-baseline.json"))?;
        let passed: Vec<(&String, u64)> = results.iter().map(|(k, r)| (k, r.jsvm.passed)).collect();
        return crate::baseline::check("wpt", "file", passed.into_iter(), &baseline);
    }
    if paths.is_empty() {
        std::fs::create_dir_all(&conformance).map_err(|e| TaskError::Conformance(e.to_string()))?;
        report::write(&conformance, &results, &root)?;
        println!("wpt: wrote conformance/wpt.md and conformance/wpt-baseline.json");
    }
    Ok(())
}
