//! Running a program with its console output captured, for tests of
//! behaviour node 20 lacks (so the node-differential programs can't check it).

#![allow(dead_code, reason = "each test binary that includes this module uses a different part of it")]

use std::sync::{Arc, Mutex};

use js_vm::{ConsoleSink, Vm};

/// A console that appends every line to a shared string.
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<String>>);

impl Capture {
    /// Everything printed so far.
    pub fn text(&self) -> String {
        self.0.lock().expect("capture").clone()
    }
}

impl ConsoleSink for Capture {
    fn log(&mut self, line: &str) {
        if let Ok(mut out) = self.0.lock() {
            out.push_str(line);
            out.push('\n');
        }
    }

    fn error(&mut self, line: &str) {
        self.log(line);
    }
}

/// Runs `source` as a script named `name` and then its event loop to the
/// end; returns what it printed. Panics (failing the test) if it throws.
pub fn run_capturing(name: &str, source: &str) -> String {
    let capture = Capture::default();
    let mut vm = Vm::new();
    vm.set_console(Box::new(capture.clone()));
    vm.eval_script(name, source).expect("the program runs");
    assert!(matches!(vm.run_event_loop(), Ok(None)), "the event loop ends normally");
    capture.text()
}

/// [`run_capturing`] with `$vm` (`--expose-internals`), for programs that
/// count objects with `$vm.heapStats()`: never in gc-stress mode (even
/// when `JS_GC_STRESS` asks for it), since a collection at every safepoint
/// is exactly what such a measurement must not see.
pub fn run_capturing_with_internals(name: &str, source: &str) -> String {
    let capture = Capture::default();
    let mut options = js_vm::VmOptions { expose_internals: true, ..js_vm::VmOptions::default() };
    options.heap.stress = false;
    let mut vm = Vm::with_options(options);
    vm.set_console(Box::new(capture.clone()));
    vm.eval_script(name, source).expect("the program runs");
    assert!(matches!(vm.run_event_loop(), Ok(None)), "the event loop ends normally");
    capture.text()
}
