//! TC39 `AsyncContext` (which node 20 lacks, so it cannot be checked by the
//! node-differential programs): values follow awaits, timers and snapshots.

use std::sync::{Arc, Mutex};

use js_vm::{ConsoleSink, Vm};

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<String>>);

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

const PROGRAM: &str = r"
const v = new AsyncContext.Variable({ name: 'req', defaultValue: 'none' });
console.log(v.name, v.get());
v.run('outer', async () => {
  const snap = new AsyncContext.Snapshot();
  await null;
  console.log('after await', v.get());
  v.run('inner', () => { console.log('inner', v.get()); snap.run(() => console.log('snapshot', v.get())); });
  setTimeout(() => console.log('timer', v.get()), 1);
  Promise.reject(new Error('x')).catch(() => console.log('catch', v.get()));
});
console.log('outside', v.get());
const wrapped = v.run('w', () => AsyncContext.Snapshot.wrap(() => v.get()));
console.log('wrapped', wrapped());
";

#[test]
fn async_context_variables_follow_the_async_flow() {
    let capture = Capture::default();
    let mut vm = Vm::new();
    vm.set_console(Box::new(capture.clone()));
    vm.eval_script("async-context.js", PROGRAM).expect("runs");
    assert_eq!(vm.run_event_loop().ok(), Some(None));
    let out = capture.0.lock().expect("capture").clone();
    assert_eq!(
        out,
        "req none\noutside none\nwrapped w\nafter await outer\ninner inner\nsnapshot outer\ncatch outer\ntimer outer\n"
    );
}
