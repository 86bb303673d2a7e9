// pipeTo through a TransformStream (readable side highWaterMark 1, 16 and
// 1024): a pulling source, a doubling transform and a summing sink. Runs
// unchanged on node and jsvm; prints one JSON line per case:
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

// A batch pipes CHUNKS chunks through new streams.
const CHUNKS = 4000;

async function pipeThroughTransform(highWaterMark) {
  let next = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (next < CHUNKS) controller.enqueue(next++);
      else controller.close();
    },
  }, { highWaterMark });
  const double = new TransformStream({
    transform(chunk, controller) { controller.enqueue(chunk * 2); },
  }, { highWaterMark }, { highWaterMark });
  let sum = 0;
  const sink = new WritableStream({ write(chunk) { sum += chunk; } }, { highWaterMark });
  await source.pipeThrough(double).pipeTo(sink);
  return sum;
}

(async () => {
  for (const hwm of [1, 16, 1024]) {
    await benchAsync(`streams-pipe-transform-hwm-${hwm}`, CHUNKS, () => pipeThroughTransform(hwm),
      (sum) => expectEqual(sum, CHUNKS * (CHUNKS - 1), `hwm ${hwm}: sum`));
  }
})().catch(reportFailure("streams-pipe"));
