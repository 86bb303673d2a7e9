//! `jsvm FILE [ARGS]`: runs a script, or an ES module when FILE ends in
//! `.mjs` or `--module` is given. Options: `--gc-stress` (collect at every
//! safepoint), `--expose-internals` (adds `$vm`), `--no-resume-cache`
//! (resume async functions without the call cache, to measure it),
//! `--max-heap-size=MB` (terminate, reported, with exit code 134 as Node's
//! out-of-memory abort has, once the engine holds more than MB mebibytes
//! after a collection), `--max-steps=N` (terminate after N steps: calls,
//! loop iterations, elements visited by builtins), `--print-bytecode`
//! (print the compiled bytecode of FILE and of every function in it, then
//! run it), `--script` (run FILE as a classic global script, as node's
//! `vm.runInThisContext` or d8 would: no `require` in scope).

use std::process::ExitCode;

use js_vm::{CountingAllocator, JsError, SourceGoal, TerminationReason, Uncaught, Vm, VmOptions};

/// Counts each thread's bytes, so `--max-heap-size` covers string contents,
/// array elements and buffers, not only the collector's cells.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The exit status after the heap limit stopped the program: Node's, whose
/// out-of-memory handler aborts (128 + SIGABRT).
const EXIT_HEAP_LIMIT: u8 = 134;

/// The engine runs on its own thread with a large stack; every recursive
/// path in the engine is bounded well below it.
const STACK_SIZE: usize = 512 * 1024 * 1024;

struct Args {
    file: String,
    /// The file's absolute path: its name in stack traces, as in Node.
    script: String,
    module: bool,
    print_bytecode: bool,
    options: VmOptions,
}

fn parse_args() -> Result<Args, String> {
    // Node's main thread may block in `Atomics.wait`.
    let mut options = VmOptions::default();
    options.agent.can_block = true;
    let mut file = None;
    let mut module = false;
    let mut print_bytecode = false;
    let mut script_args = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            _ if file.is_some() => script_args.push(arg),
            "--gc-stress" => options.heap.stress = true,
            "--expose-internals" => options.expose_internals = true,
            "--no-resume-cache" => options.resume_cache = false,
            "--module" => module = true,
            "--script" => options.commonjs_require = false,
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
    let script = std::fs::canonicalize(&file).map_or_else(|_| file.clone(), |p| p.to_string_lossy().into_owned());
    let module = module || std::path::Path::new(&file).extension().is_some_and(|e| e == "mjs");
    options.argv = [exe, script.clone()].into_iter().chain(script_args).collect();
    Ok(Args { file, script, module, print_bytecode, options })
}

/// The number after `=` in `--option=N`.
fn number_option(arg: &str) -> Result<u64, String> {
    let (name, value) = arg.split_once('=').unwrap_or((arg, ""));
    value.parse().map_err(|_| format!("{name} needs a whole number, got {value:?}"))
}

fn run(args: Args) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("jsvm: cannot read {}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let mut vm = Vm::with_options(args.options);
    if args.print_bytecode {
        let goal = if args.module { SourceGoal::Module } else { SourceGoal::Script };
        // A compile error is reported when the program is run below.
        if let Ok(listing) = vm.disassemble(&args.script, &text, goal) {
            print!("{listing}");
        }
    }
    let outcome = if args.module {
        // Node evaluates the entry module inside a promise job: the
        // microtasks it queues run before its nextTicks.
        vm.eval_module(&args.script, &text)
            .map_err(|(_, e)| e)
            .and_then(|_| vm.run_microtasks())
            .and_then(|()| vm.run_event_loop())
    } else {
        vm.eval_script(&args.script, &text).and_then(|_| vm.run_event_loop())
    };
    match outcome {
        Ok(None) => ExitCode::from(u8::try_from(vm.process_exit_code() & 0xFF).unwrap_or(1)),
        Ok(Some(reason)) => {
            let report = reason.uncaught_report(&mut vm, Uncaught::Rejection);
            eprintln!("{report}");
            ExitCode::FAILURE
        }
        Err(JsError::Throw(value)) => {
            let report = value.uncaught_report(&mut vm, Uncaught::Exception);
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
