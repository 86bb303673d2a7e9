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

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    VM.with(|vm| {
        let mut vm = vm.borrow_mut();
        let _ = vm.check_syntax("fuzz.js", text, SourceGoal::Script);
        let _ = vm.check_syntax("fuzz.mjs", text, SourceGoal::Module);
        // Compiled code is garbage now.
        vm.collect_garbage();
    });
});
