// Construction costs of the WHATWG streams: ReadableStream, a default
// reader, WritableStream, TransformStream and a tee of a ReadableStream.
// Runs unchanged on node and jsvm; prints one JSON line per case:
// {"bench","ops","ms"}.
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

// Each batch makes N of the objects.
const N = 1000;
const made = (count) => expectEqual(count, N, "made");

bench("streams-new-readable-stream", N, () => {
  let count = 0;
  for (let i = 0; i < N; i++) if (new ReadableStream().locked === false) count++;
  return count;
}, made);

bench("streams-default-reader", N, () => {
  let count = 0;
  for (let i = 0; i < N; i++) {
    const stream = new ReadableStream();
    stream.getReader();
    if (stream.locked) count++;
  }
  return count;
}, made);

bench("streams-new-writable-stream", N, () => {
  let count = 0;
  for (let i = 0; i < N; i++) if (new WritableStream().locked === false) count++;
  return count;
}, made);

bench("streams-new-transform-stream", N, () => {
  let count = 0;
  for (let i = 0; i < N; i++) if (new TransformStream().readable.locked === false) count++;
  return count;
}, made);

bench("streams-tee", N, () => {
  let count = 0;
  for (let i = 0; i < N; i++) {
    const [a, b] = new ReadableStream().tee();
    if (a.locked === false && b.locked === false) count++;
  }
  return count;
}, made);
