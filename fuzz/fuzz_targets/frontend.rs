//! The front end (oxc's parser, scope analysis, the nesting bound and the
//! bytecode compiler) on arbitrary text, as a script and as a module:
//! a SyntaxError or a RangeError, never a panic or a stack overflow.

#![no_main]

use std::cell::RefCell;
use std::rc::Rc;

use js_vm::bytecode::Source;
use js_vm::{Vm, VmOptions, compiler};
use libfuzzer_sys::fuzz_target;

thread_local! {
    /// One VM per process: compiling allocates only code and constants.
    static VM: RefCell<Vm> = RefCell::new(Vm::with_options(VmOptions::default()));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    VM.with(|vm| {
        let mut vm = vm.borrow_mut();
        let source = Rc::new(Source::new("fuzz.js", text));
        let _ = compiler::compile_script(&mut vm, &source);
        let source = Rc::new(Source::new("fuzz.mjs", text));
        let _ = compiler::compile_module(&mut vm, &source);
        // Compiled code is garbage now.
        vm.collect_garbage();
    });
});
