//! Runs arbitrary source on a fresh VM under a step budget and a heap
//! limit, with its microtasks: it ends with a value, an exception or a
//! reported termination, never a panic, an abort or a hang.

#![no_main]

use js_vm::{CountingAllocator, JsError, Vm, VmOptions};
use libfuzzer_sys::fuzz_target;

/// Counts the engine thread's bytes, so the heap limit covers everything.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator(std::alloc::System);

/// Calls, loop iterations and builtin element visits per input.
const STEPS: u64 = 200_000;
/// Bytes the engine thread may hold.
const HEAP: usize = 256 << 20;
/// The engine's stack, as `jsvm` reserves it.
const STACK: usize = 512 << 20;

fn run(text: String) {
    let options = VmOptions { max_steps: Some(STEPS), max_heap_size: Some(HEAP), ..VmOptions::default() };
    let mut vm = Vm::with_options(options);
    vm.set_console(Box::new(Silent));
    let outcome = vm.eval_script("fuzz.js", &text).and_then(|_| vm.run_microtasks());
    if let Err(JsError::Throw(value)) = outcome {
        // Reporting an exception runs getters of arbitrary objects too.
        let _ = value.describe_uncaught(&mut vm);
    }
}

/// Drops console output.
struct Silent;

impl js_vm::ConsoleSink for Silent {
    fn log(&mut self, _line: &str) {}
    fn error(&mut self, _line: &str) {}
}

/// libfuzzer-sys's panic hook aborts on every panic, even one the engine
/// catches on purpose (a panic inside oxc becomes a SyntaxError). Dropping
/// it restores the default hook; a panic that escapes the engine still ends
/// the run, through libfuzzer-sys's own `catch_unwind`.
fn let_the_engine_catch_its_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| drop(std::panic::take_hook()));
}

fuzz_target!(|data: &[u8]| {
    let_the_engine_catch_its_panics();
    let Ok(text) = std::str::from_utf8(data) else { return };
    let text = text.to_owned();
    let worker = std::thread::Builder::new().stack_size(STACK).spawn(move || run(text)).expect("engine thread starts");
    if let Err(panic) = worker.join() {
        std::panic::resume_unwind(panic);
    }
});
