//! Streams orderings where node 20 departs from the Streams spec, so they
//! cannot be differential programs in `tests/js` (node is the reference
//! there): jsvm follows the spec, and these tests pin what it does.

mod support;

/// The tick counter the programs below read: a self-requeueing microtask
/// chain.
const TICKER: &str = "
let tick = 0;
function ticker() { tick++; if (tick < 50) queueMicrotask(ticker); }
queueMicrotask(ticker);
";

/// Node closes a `tee()`'s branches from `process.nextTick` (its own
/// comment says this is not part of the spec), so a read of a branch waits
/// until the microtask queue drains: past any number of turns. The spec
/// closes the branches in the read request's close steps, so the read
/// settles within a few turns.
#[test]
fn a_tee_branch_closes_in_the_close_steps_not_after_the_microtask_queue() {
    let program = format!(
        "{TICKER}
const [a] = new ReadableStream({{ start(c) {{ c.enqueue(0); c.close(); }} }}).tee();
const reader = a.getReader();
reader.read().then((r) => console.log(tick, r.done));
reader.read().then((r) => console.log(tick, r.done));
"
    );
    let out = support::run_capturing("tee-close.js", &program);
    assert_eq!(out, "3 false\n3 true\n", "node 20 prints `3 false` and `50 true`");
}

/// Node's `ReadableStream.from` calls a sync iterator's `next()` directly
/// and awaits the result and then the value; the spec takes the async
/// iterator `GetIterator(iterable, async)` makes
/// (`CreateAsyncFromSyncIterator`), so the chunks arrive sooner.
#[test]
fn from_a_sync_iterable_goes_through_the_async_from_sync_iterator() {
    let program = format!(
        "{TICKER}
(async () => {{
  for await (const chunk of ReadableStream.from([1, 2])) console.log(tick, chunk);
  console.log(tick, 'done');
}})();
"
    );
    let out = support::run_capturing("from-sync.js", &program);
    assert_eq!(out, "5 1\n8 2\n11 done\n", "node 20 prints 6 1, 10 2, 16 done");
}

/// Node 20 writes a chunk that `enqueue()` hands to a pipe's pending read
/// inside `enqueue()`; the spec forbids that (WPT
/// `piping/general-addition.any.js`), so jsvm writes it a microtask later.
#[test]
fn enqueue_does_not_write_a_piped_chunk_synchronously() {
    let program = "
let controller;
let written = 'not yet';
const source = new ReadableStream({ start(c) { controller = c; } }, { highWaterMark: 0 });
source.pipeTo(new WritableStream({ write(chunk) { written = chunk; } }));
(async () => {
  for (let i = 0; i < 3; i++) await null;
  controller.enqueue('a');
  console.log('after enqueue', written);
  await null;
  console.log('a turn later', written);
})();
";
    let out = support::run_capturing("pipe-enqueue.js", program);
    assert_eq!(out, "after enqueue not yet\na turn later a\n", "node 20 prints `after enqueue a`");
}
