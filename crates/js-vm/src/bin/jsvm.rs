//! `jsvm FILE [ARGS]`: runs FILE as node does: an ES module for `.mjs`
//! and for a `.js` (or extensionless) file whose nearest package.json says
//! `"type": "module"`, a `CommonJS` module otherwise; `--module` forces an
//! ES module. Options: `--gc-stress` (collect at every
//! safepoint), `--expose-internals` (adds `$vm`), `--no-resume-cache`
//! (resume async functions without the call cache, to measure it),
//! `--max-heap-size=MB` (terminate, reported, with exit code 134 as Node's
//! out-of-memory abort has, once the engine holds more than MB mebibytes
//! after a collection), `--max-steps=N` (terminate after N steps: calls,
//! loop iterations, elements visited by builtins), `--print-bytecode`
//! (print the compiled bytecode of FILE and of every function in it, then
//! run it), `--script` (run FILE as a classic global script, as node's
//! `vm.runInThisContext` or d8 would: no `require`, `module` or
//! `exports` in scope, top-level `var`s are globals).

use std::process::ExitCode;

use js_vm::node_resolution::{PackageType, Resolved, Resolver};
use js_vm::{CountingAllocator, JsError, SourceGoal, TerminationReason, Uncaught, Vm, VmOptions};

/// Counts each thread's bytes, so `--max-heap-size` covers string contents,
/// array elements and buffers, not only the collector's cells; over
/// mimalloc unless the `mimalloc` feature is off.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: CountingAllocator<mimalloc::MiMalloc> = CountingAllocator(mimalloc::MiMalloc);

/// Counts each thread's bytes over the system allocator.
#[cfg(not(feature = "mimalloc"))]
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator(std::alloc::System);

/// The exit status after the heap limit stopped the program: Node's, whose
/// out-of-memory handler aborts (128 + SIGABRT).
const EXIT_HEAP_LIMIT: u8 = 134;

/// The engine runs on its own thread with a large stack; every recursive
/// path in the engine is bounded well below it.
const STACK_SIZE: usize = 512 * 1024 * 1024;

/// How FILE runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// A classic script (`--script`).
    Script,
    /// An ES module.
    Module,
    /// A `CommonJS` module.
    CommonJs,
}

struct Args {
    file: String,
    /// The file's absolute path: its name in stack traces, as in Node.
    script: String,
    goal: Goal,
    print_bytecode: bool,
    options: VmOptions,
}

fn parse_args() -> Result<Args, String> {
    // Node's main thread may block in `Atomics.wait`.
    let mut options = VmOptions::default();
    options.agent.can_block = true;
    let mut file = None;
    let mut module = false;
    let mut classic = false;
    let mut print_bytecode = false;
    let mut script_args = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            _ if file.is_some() => script_args.push(arg),
            "--gc-stress" => options.heap.stress = true,
            "--expose-internals" => options.expose_internals = true,
            "--no-resume-cache" => options.resume_cache = false,
            "--module" => module = true,
            "--script" => classic = true,
            "--print-bytecode" => print_bytecode = true,
            _ if arg.starts_with("--max-heap-size=") => {
                let megabytes = number_option(&arg)?;
                options.max_heap_size = Some(usize::try_from(megabytes.saturating_mul(1 << 20)).unwrap_or(usize::MAX));
            }
            _ if arg.starts_with("--max-steps=") => options.max_steps = Some(number_option(&arg)?),
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ => file = Some(arg),
        }
    }
    let file = file.ok_or_else(|| "missing FILE".to_owned())?;
    // `process.argv`: the executable, the script's absolute path, its
    // arguments.
    let exe = std::env::current_exe().map_or_else(|_| "jsvm".to_owned(), |p| p.to_string_lossy().into_owned());
    let (script, goal) = main_module(&file, module, classic);
    options.argv = [exe, script.clone()].into_iter().chain(script_args).collect();
    Ok(Args { file, script, goal, print_bytecode, options })
}

/// Node's `resolveMainPath` and `shouldUseESMLoader`: the entry's real
/// path (`jsvm x` finds `x.js`), and whether it is an ES module (`.mjs`,
/// or a package with `"type": "module"` for anything but `.cjs`).
fn main_module(file: &str, module: bool, classic: bool) -> (String, Goal) {
    let absolute = std::env::current_dir().unwrap_or_default().join(file);
    let absolute = js_vm::node_resolution::normalize(&absolute);
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let mut resolver = Resolver::new(&[], home.as_deref());
    let path = match resolver.resolve_require(&absolute.to_string_lossy(), None, &[]) {
        Ok(Resolved::File(p)) => p,
        _ => absolute,
    };
    let script = path.to_string_lossy().into_owned();
    // Node compares extensions case-sensitively: `a.MJS` is not a module.
    let extension = path.extension().and_then(|e| e.to_str());
    let goal = if classic {
        Goal::Script
    } else if module || extension == Some("mjs") {
        Goal::Module
    } else if extension == Some("cjs") {
        Goal::CommonJs
    } else if resolver.packages.package_type(&path) == PackageType::Module {
        Goal::Module
    } else {
        Goal::CommonJs
    };
    (script, goal)
}

/// The number after `=` in `--option=N`.
fn number_option(arg: &str) -> Result<u64, String> {
    let (name, value) = arg.split_once('=').unwrap_or((arg, ""));
    value.parse().map_err(|_| format!("{name} needs a whole number, got {value:?}"))
}

/// Runs the program on a new VM and keeps the VM's memory for the process
/// to give back: the process ends next, and freeing a large heap cell by
/// cell only delays the exit (Node does not free its heap either). Splay's
/// heap took 200M instructions, a tenth of its run, to free. Nothing is
/// lost: console output is written line by line, and the event loop has
/// finished.
fn run(mut args: Args) -> ExitCode {
    let mut vm = Vm::with_options(std::mem::take(&mut args.options));
    let code = run_on(&mut vm, &args);
    std::mem::forget(vm);
    code
}

/// [`run`]'s program on `vm`.
fn run_on(vm: &mut Vm, args: &Args) -> ExitCode {
    // A CommonJS main module is read by the loader, which reports a missing
    // file as node does.
    let text = if args.goal == Goal::CommonJs && !args.print_bytecode {
        String::new()
    } else {
        match std::fs::read_to_string(&args.script) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("jsvm: cannot read {}: {e}", args.file);
                return ExitCode::from(2);
            }
        }
    };
    if args.print_bytecode {
        let goal = if args.goal == Goal::Module { SourceGoal::Module } else { SourceGoal::Script };
        // A compile error is reported when the program is run below.
        if let Ok(listing) = vm.disassemble(&args.script, &text, goal) {
            print!("{listing}");
        }
    }
    let outcome = match args.goal {
        // Node evaluates the entry module inside a promise job: the
        // microtasks it queues run before its nextTicks.
        Goal::Module => vm
            .eval_module(&args.script, &text)
            .map_err(|(_, e)| e)
            .and_then(|_| vm.run_microtasks())
            .and_then(|()| vm.run_event_loop()),
        Goal::CommonJs => vm.run_commonjs_main(&args.script).and_then(|()| vm.run_event_loop()),
        Goal::Script => vm.eval_script(&args.script, &text).and_then(|_| vm.run_event_loop()),
    };
    match outcome {
        Ok(None) => ExitCode::from(u8::try_from(vm.process_exit_code() & 0xFF).unwrap_or(1)),
        Ok(Some(reason)) => {
            let report = reason.uncaught_report(vm, Uncaught::Rejection);
            eprintln!("{report}");
            ExitCode::FAILURE
        }
        Err(JsError::Throw(value)) => {
            let report = value.uncaught_report(vm, Uncaught::Exception);
            eprintln!("{report}");
            ExitCode::FAILURE
        }
        Err(JsError::Terminated) => {
            if let Some(code) = vm.exit_code() {
                return ExitCode::from(u8::try_from(code & 0xFF).unwrap_or(1));
            }
            match vm.termination_reason() {
                Some(reason @ TerminationReason::HeapLimit { .. }) => {
                    eprintln!("jsvm: {reason}");
                    ExitCode::from(EXIT_HEAP_LIMIT)
                }
                Some(reason) => {
                    eprintln!("jsvm: execution terminated: {reason}");
                    ExitCode::FAILURE
                }
                None => {
                    eprintln!("jsvm: execution terminated");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("jsvm: {message}");
            }
            eprintln!(
                "usage: jsvm [--gc-stress] [--expose-internals] [--no-resume-cache] [--module] [--max-heap-size=MB] \
                 [--max-steps=N] [--print-bytecode] [--script] FILE [ARGS]"
            );
            return ExitCode::from(2);
        }
    };
    let handle = std::thread::Builder::new().name("jsvm".to_owned()).stack_size(STACK_SIZE).spawn(move || run(args));
    if let Ok(Ok(code)) = handle.map(std::thread::JoinHandle::join) {
        code
    } else {
        eprintln!("jsvm: the engine thread failed");
        ExitCode::from(70)
    }
}
