// Readable byte streams with BYOB readers: acquiring and releasing a BYOB
// reader, and reading into a caller's view, both answered by a source
// that writes into controller.byobRequest (the zero-copy path) and from
// bytes already queued by enqueue(). Each read hands its filled view's
// buffer back for the next read, as a BYOB consumer does.
"use strict";

// ---- bench protocol (the same few lines in every workload; bench/README.md) ----
// Each case warms up, then runs batches until MEASURE_MS have passed and
// prints {"bench":NAME,"ops":N,"ms":ELAPSED}; `check` throws on a wrong
// result, and a failure is printed as {"bench":FILE,"error":TEXT}.
const WARMUP_MS = 40, MEASURE_MS = 200;
// Under `cargo xtask bench --instructions` (jsvm only) the environment picks
// one case and fixes its batch count, so two runs' instruction counts can be
// subtracted; everywhere else `process` may not even exist.
const ENV = typeof process === "object" && process !== null && process.env ? process.env : {};
const ONLY_CASE = ENV.JSVM_BENCH_CASE || "", FIXED_BATCHES = Number(ENV.JSVM_BENCH_BATCHES || 0);
function report(name, ops, ms) {
  console.log(JSON.stringify({ bench: name, ops: ops, ms: Math.round(ms * 1000) / 1000 }));
}
async function benchAsync(name, opsPerBatch, batch, check) {
  if (ONLY_CASE !== "" && ONLY_CASE !== name) return;
  let start = performance.now();
  check(await batch());
  let ops = 0, elapsed = performance.now() - start;
  // An engine that needs the whole measuring time for one batch gains
  // nothing from warming up: that batch is the measurement.
  if (FIXED_BATCHES === 0 && elapsed >= MEASURE_MS) return report(name, opsPerBatch, elapsed);
  while (FIXED_BATCHES === 0 && performance.now() - start < WARMUP_MS) check(await batch());
  start = performance.now();
  do {
    check(await batch());
    ops += opsPerBatch;
    elapsed = performance.now() - start;
  } while (FIXED_BATCHES === 0 ? elapsed < MEASURE_MS : ops < FIXED_BATCHES * opsPerBatch);
  report(name, ops, elapsed);
}
function expectEqual(actual, expected, what) {
  if (actual !== expected) throw new Error(what + ": expected " + expected + ", got " + actual);
}
function reportFailure(file) {
  return (error) => console.log(JSON.stringify({ bench: file, error: String((error && error.stack) || error) }));
}
function bench(name, opsPerBatch, batch, check) {
  if (ONLY_CASE !== "" && ONLY_CASE !== name) return;
  let start = performance.now();
  check(batch());
  let ops = 0, elapsed = performance.now() - start;
  // An engine that needs the whole measuring time for one batch gains
  // nothing from warming up: that batch is the measurement.
  if (FIXED_BATCHES === 0 && elapsed >= MEASURE_MS) return report(name, opsPerBatch, elapsed);
  while (FIXED_BATCHES === 0 && performance.now() - start < WARMUP_MS) check(batch());
  start = performance.now();
  do {
    check(batch());
    ops += opsPerBatch;
    elapsed = performance.now() - start;
  } while (FIXED_BATCHES === 0 ? elapsed < MEASURE_MS : ops < FIXED_BATCHES * opsPerBatch);
  report(name, ops, elapsed);
}
// ---- end of protocol ----

const BATCH = 1000;
const VIEW_BYTES = 64;

bench("streams-byob-reader", BATCH, () => {
  const stream = new ReadableStream({ type: "bytes" });
  let acquired = 0;
  for (let i = 0; i < BATCH; i++) {
    const reader = stream.getReader({ mode: "byob" });
    if (stream.locked) acquired++;
    reader.releaseLock();
  }
  return acquired;
}, (acquired) => expectEqual(acquired, BATCH, "BYOB readers acquired"));

// A source that answers every pull by writing into the BYOB request's view
// (a counter byte) and responding with the whole view.
function respondingStream() {
  let next = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      const view = controller.byobRequest.view;
      view[0] = next++ & 0xff;
      controller.byobRequest.respond(view.byteLength);
    },
  });
}

const responding = respondingStream().getReader({ mode: "byob" });
let respondView = new Uint8Array(VIEW_BYTES);
async function readResponded() {
  let bytes = 0;
  for (let i = 0; i < BATCH; i++) {
    const { value, done } = await responding.read(respondView);
    if (done) throw new Error("the stream closed");
    bytes += value.byteLength;
    respondView = new Uint8Array(value.buffer);
  }
  return bytes;
}

// A stream with plenty of bytes queued: every read is filled from the
// queue without calling the source; a pull refills it once drained.
function enqueuedStream() {
  const chunk = new Uint8Array(VIEW_BYTES * BATCH);
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      controller.enqueue(chunk.slice());
    },
  }, { highWaterMark: VIEW_BYTES * BATCH });
}

const buffered = enqueuedStream().getReader({ mode: "byob" });
let bufferedView = new Uint8Array(VIEW_BYTES);
async function readBuffered() {
  let bytes = 0;
  for (let i = 0; i < BATCH; i++) {
    const { value, done } = await buffered.read(bufferedView);
    if (done) throw new Error("the stream closed");
    bytes += value.byteLength;
    bufferedView = new Uint8Array(value.buffer);
  }
  return bytes;
}

(async () => {
  await benchAsync("streams-byob-read-respond", BATCH, readResponded, (bytes) => expectEqual(bytes, BATCH * VIEW_BYTES, "bytes read"));
  await benchAsync("streams-byob-read-buffered", BATCH, readBuffered, (bytes) => expectEqual(bytes, BATCH * VIEW_BYTES, "bytes read"));
})().catch(reportFailure("streams-byob"));
