// Reading buffered chunks with reader.read(), and the same with for await.
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
// ---- end of protocol ----

// A batch reads CHUNKS chunks from a new stream, buffered BATCH at a time
// by `pull` (every read but one in BATCH finds its chunk queued); a single
// queue of all the chunks would measure node's array-shift queue instead
// of reading.
const CHUNKS = 10240;
const BATCH = 1024;

function filled(n) {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      const end = Math.min(next + BATCH, n);
      while (next < end) controller.enqueue(next++);
      if (next === n) controller.close();
    },
  }, { highWaterMark: 1 });
}

async function readerRead() {
  const reader = filled(CHUNKS).getReader();
  let sum = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    sum += value;
  }
  return sum;
}

async function forAwait() {
  let sum = 0;
  for await (const value of filled(CHUNKS)) sum += value;
  return sum;
}

const EXPECTED_SUM = (CHUNKS * (CHUNKS - 1)) / 2;
(async () => {
  await benchAsync("streams-reader-read-buffered", CHUNKS, readerRead, (sum) => expectEqual(sum, EXPECTED_SUM, "sum"));
  await benchAsync("streams-for-await-buffered", CHUNKS, forAwait, (sum) => expectEqual(sum, EXPECTED_SUM, "sum"));
})().catch(reportFailure("streams-read"));
