//! The front end (oxc's parser, scope analysis, the nesting bound and the
//! bytecode compiler) on arbitrary text, as a script and as a module:
//! a SyntaxError or a RangeError, never a panic or a stack overflow.

#![no_main]

use std::cell::RefCell;

use js_vm::{SourceGoal, Vm, VmOptions};
use libfuzzer_sys::fuzz_target;

thread_local! {
    /// One VM per process: compiling allocates only code and constants.
    static VM: RefCell<Vm> = RefCell::new(Vm::with_options(VmOptions::default()));
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
    VM.with(|vm| {
        let mut vm = vm.borrow_mut();
        let _ = vm.check_syntax("fuzz.js", text, SourceGoal::Script);
        let _ = vm.check_syntax("fuzz.mjs", text, SourceGoal::Module);
        // Compiled code is garbage now.
        vm.collect_garbage();
    });
});
