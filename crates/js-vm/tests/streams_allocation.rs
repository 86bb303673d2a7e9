//! Allocation rules of the streams (DESIGN.md, js-streams): counted with
//! `$vm.heapStats()`, per construction and per chunk. Node has no `$vm`,
//! so this is not a differential program.
//!
//! * Construction makes the stream and its controller and nothing else:
//!   no size-algorithm object without `size`, no start promise when
//!   `start()` returns a non-object, no `closed`/`ready` promise before
//!   anyone looks.
//! * `read()` and async iteration on buffered data make only the promise
//!   they return and the `{ value, done }` result (no read request, no
//!   deferred promise). `next()` called again and again without waiting
//!   is chained on the call before (node's ongoing promise): each call
//!   makes its promise now, with no reaction cell or second promise for the
//!   chaining, and its result when its turn comes.
//! * A pull that enqueues, read through `then(handler)`, costs the read
//!   promise, its result and the `then` promise: no closure and no
//!   reaction cell per pull.
//! * A write costs its request promise only: no closure per write.
//! * Byte streams: construction makes the stream and its byte controller;
//!   `getReader({ mode: "byob" })` the reader, and `releaseLock()` nothing
//!   more until someone looks at `closed`; a BYOB read of queued bytes
//!   the promise, the result, the buffer the caller's view is transferred
//!   to and the filled view over it (4: the spec's second transfer of a
//!   buffer nobody else saw is not made); a pull answering through
//!   `byobRequest.respond()` adds the request, its view and the buffer
//!   `respond()` transfers to, with no closure or reaction cell per pull.

mod support;

const PROGRAM: &str = r"
function count() {
  const s = $vm.heapStats();
  const c = s.objectTypeCounts;
  return { gc: s.collections, objects: c.Object || 0, slim: c.PromiseSlimReaction || 0, full: c.PromiseReaction || 0 };
}
// Objects made by `f()`, less what measuring itself makes.
function allocations(f) {
  $vm.gc();
  const a = count(); const b = count();
  const overhead = b.objects - a.objects;
  $vm.gc();
  const before = count();
  f();
  const after = count();
  if (after.gc !== before.gc) throw new Error('a collection ran while measuring');
  return { objects: after.objects - before.objects - overhead, slim: after.slim - before.slim, full: after.full - before.full };
}
const show = (label, r) => console.log(label, JSON.stringify(r));
const N = 100;
const source = { start() { return 5; } };
const emptySink = {};
show('new ReadableStream()', allocations(() => new ReadableStream()));
show('new ReadableStream(source with start returning 5)', allocations(() => new ReadableStream(source)));
const strategy = { highWaterMark: 4 };
show('new ReadableStream(undefined, {highWaterMark})', allocations(() => new ReadableStream(undefined, strategy)));
const rs0 = new ReadableStream();
show('getReader()', allocations(() => rs0.getReader()));
show('new WritableStream()', allocations(() => new WritableStream(emptySink)));
const ws0 = new WritableStream();
show('getWriter()', allocations(() => ws0.getWriter()));
show('new TransformStream()', allocations(() => new TransformStream()));

const buffered = new ReadableStream({ start(c) { for (let i = 0; i < N; i++) c.enqueue(i); } }, { highWaterMark: 0 });
const reader = buffered.getReader();
show('reader.read() x' + N + ' buffered', allocations(() => { for (let i = 0; i < N; i++) reader.read(); }));

const buffered2 = new ReadableStream({ start(c) { for (let i = 0; i < N; i++) c.enqueue(i); } }, { highWaterMark: 0 });
const it = buffered2.values();
show('iterator.next() x' + N + ' buffered', allocations(() => { for (let i = 0; i < N; i++) it.next(); }));

(async () => {
  await null;
  // Pulls: a pull that enqueues synchronously, read N times through
  // then() with one fixed handler.
  let n = 0;
  const pulled = new ReadableStream({ pull(c) { c.enqueue(n); } }, { highWaterMark: 0 });
  const r = pulled.getReader();
  await r.read();
  let done;
  const finished = new Promise((res) => { done = res; });
  let count2 = 0;
  function onRead() { if (++count2 < N) r.read().then(onRead); else done(); }
  $vm.gc();
  const before = count();
  r.read().then(onRead);
  await finished;
  const after = count();
  console.log('pull+read per chunk', Math.floor((after.objects - before.objects) / N), 'gc', after.gc - before.gc, 'slim', after.slim - before.slim, 'full', after.full - before.full);

  const ws = new WritableStream({ write(chunk, c) {} }, { highWaterMark: 1e9 });
  const w = ws.getWriter();
  await w.write(0);
  $vm.gc();
  const b2 = count();
  let last;
  for (let i = 0; i < N; i++) last = w.write(i);
  await last;
  const a2 = count();
  console.log('write per chunk', Math.floor((a2.objects - b2.objects) / N), 'gc', a2.gc - b2.gc, 'slim', a2.slim - b2.slim);
})();
";

#[test]
fn streams_allocate_only_what_the_spec_makes_observable() {
    let out = support::run_capturing_with_internals("streams-allocation.js", PROGRAM);
    assert_eq!(
        out,
        "new ReadableStream() {\"objects\":2,\"slim\":0,\"full\":0}\n\
         new ReadableStream(source with start returning 5) {\"objects\":2,\"slim\":0,\"full\":0}\n\
         new ReadableStream(undefined, {highWaterMark}) {\"objects\":2,\"slim\":0,\"full\":0}\n\
         getReader() {\"objects\":1,\"slim\":0,\"full\":0}\n\
         new WritableStream() {\"objects\":2,\"slim\":0,\"full\":0}\n\
         getWriter() {\"objects\":1,\"slim\":0,\"full\":0}\n\
         new TransformStream() {\"objects\":8,\"slim\":0,\"full\":0}\n\
         reader.read() x100 buffered {\"objects\":200,\"slim\":0,\"full\":0}\n\
         iterator.next() x100 buffered {\"objects\":100,\"slim\":0,\"full\":0}\n\
         pull+read per chunk 3 gc 0 slim 0 full 0\n\
         write per chunk 1 gc 0 slim 0\n"
    );
}

/// `TextEncoderStream` and `TextDecoderStream`, per stream and per chunk,
/// against a plain `TransformStream` doing the same steps.
const ENCODING_STREAMS: &str = r"
function objects() { return $vm.heapStats().objectTypeCounts.Object || 0; }
function collections() { return $vm.heapStats().collections; }
const N = 100;
// Objects made per chunk written and read through `ts`.
async function perChunk(ts, chunk) {
  const w = ts.writable.getWriter();
  const r = ts.readable.getReader();
  const step = async () => { const read = r.read(); await w.write(chunk); await read; };
  await step();
  $vm.gc();
  const gc = collections();
  const before = objects();
  for (let i = 0; i < N; i++) await step();
  const after = objects();
  if (collections() !== gc) throw new Error('a collection ran while measuring');
  return (after - before) / N;
}
function made(f) {
  $vm.gc();
  const before = objects();
  f();
  return objects() - before;
}
(async () => {
  const identity = await perChunk(new TransformStream(), 'ab');
  const encoder = await perChunk(new TextEncoderStream(), 'ab');
  const decoder = await perChunk(new TextDecoderStream(), new Uint8Array([0x61, 0x62]));
  console.log('TextEncoderStream per chunk beyond identity', encoder - identity);
  console.log('TextDecoderStream per chunk beyond identity', decoder - identity);
  const plain = made(() => new TransformStream());
  console.log('new TextEncoderStream() beyond TransformStream', made(() => new TextEncoderStream()) - plain);
  console.log('new TextDecoderStream() beyond TransformStream', made(() => new TextDecoderStream()) - plain);
})();
";

/// A chunk through `TextEncoderStream` costs only its output (the
/// `Uint8Array` and its buffer); through `TextDecoderStream`, only the
/// output string (not an object); a stream, only itself beyond its
/// transform stream (the transform and flush functions are shared).
#[test]
fn encoding_streams_allocate_only_their_output() {
    let out = support::run_capturing_with_internals("encoding-streams-allocation.js", ENCODING_STREAMS);
    assert_eq!(
        out,
        "TextEncoderStream per chunk beyond identity 2\n\
         TextDecoderStream per chunk beyond identity 0\n\
         new TextEncoderStream() beyond TransformStream 1\n\
         new TextDecoderStream() beyond TransformStream 1\n"
    );
}

const BYTES_PROGRAM: &str = r"
function count() {
  const s = $vm.heapStats();
  const c = s.objectTypeCounts;
  return { gc: s.collections, objects: c.Object || 0, slim: c.PromiseSlimReaction || 0, full: c.PromiseReaction || 0 };
}
function allocations(f) {
  $vm.gc();
  const a = count(); const b = count();
  const overhead = b.objects - a.objects;
  $vm.gc();
  const before = count();
  f();
  const after = count();
  if (after.gc !== before.gc) throw new Error('a collection ran while measuring');
  return { objects: after.objects - before.objects - overhead, slim: after.slim - before.slim, full: after.full - before.full };
}
const show = (label, r) => console.log(label, JSON.stringify(r));
const N = 100;
const bytesSource = { type: 'bytes' };
show('new ReadableStream({type: bytes})', allocations(() => new ReadableStream(bytesSource)));
const byobMode = { mode: 'byob' };
const rs1 = new ReadableStream(bytesSource);
show('getReader({mode: byob})', allocations(() => rs1.getReader(byobMode)));
const rs2 = new ReadableStream(bytesSource);
show('getReader({mode: byob}) + releaseLock()', allocations(() => rs2.getReader(byobMode).releaseLock()));
const queued = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array(4 * N)); } });
const byob = queued.getReader(byobMode);
const views = [];
for (let i = 0; i < N; i++) views.push(new Uint8Array(4));
show('byob.read(view) x' + N + ' buffered', allocations(() => { for (let i = 0; i < N; i++) byob.read(views[i]); }));
(async () => {
  await null;
  // Every read is answered by a pull writing one byte into the BYOB
  // request; the consumer reads on into the returned buffer (its view and
  // the then() promise are the program's own: 2 of the count).
  const responding = new ReadableStream({ type: 'bytes', pull(c) { const r = c.byobRequest; r.view[0] = 1; r.respond(1); } });
  const r = responding.getReader(byobMode);
  let view = new Uint8Array(8);
  const first = await r.read(view);
  view = new Uint8Array(first.value.buffer);
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  let n = 0;
  function onRead(result) { view = new Uint8Array(result.value.buffer); if (++n < N) r.read(view).then(onRead); else done(); }
  $vm.gc();
  const before = count();
  r.read(view).then(onRead);
  await finished;
  const after = count();
  console.log('byob pull+respond+read per chunk', Math.floor((after.objects - before.objects) / N), 'gc', after.gc - before.gc, 'slim', after.slim - before.slim, 'full', after.full - before.full);
})();
";

#[test]
fn byte_streams_allocate_only_what_the_spec_makes_observable() {
    let out = support::run_capturing_with_internals("streams-bytes-allocation.js", BYTES_PROGRAM);
    assert_eq!(
        out,
        "new ReadableStream({type: bytes}) {\"objects\":2,\"slim\":0,\"full\":0}\n\
         getReader({mode: byob}) {\"objects\":1,\"slim\":0,\"full\":0}\n\
         getReader({mode: byob}) + releaseLock() {\"objects\":1,\"slim\":0,\"full\":0}\n\
         byob.read(view) x100 buffered {\"objects\":400,\"slim\":0,\"full\":0}\n\
         byob pull+respond+read per chunk 9 gc 0 slim 0 full 0\n"
    );
}
