//! TC39 `AsyncContext` (which node 20 lacks, so it cannot be checked by the
//! node-differential programs): values follow awaits, timers and snapshots.

mod support;

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
    let out = support::run_capturing("async-context.js", PROGRAM);
    assert_eq!(
        out,
        "req none\noutside none\nwrapped w\nafter await outer\ninner inner\nsnapshot outer\ncatch outer\ntimer outer\n"
    );
}
