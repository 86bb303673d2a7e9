// Tight loops over two builtins the interpreter should make cheap:
// Math.min with a few arguments, and Array push/pop as a stack.
"use strict";

// ---- bench protocol (the same few lines in every workload; bench/README.md) ----
// Each case warms up, then runs batches until MEASURE_MS have passed and
// prints {"bench":NAME,"ops":N,"ms":ELAPSED}; `check` throws on a wrong result.
const WARMUP_MS = 40, MEASURE_MS = 200;
// Under `cargo xtask bench --instructions` (jsvm only) the environment picks
// one case and fixes its batch count, so two runs' instruction counts can be
// subtracted; everywhere else `process` may not even exist.
const ENV = typeof process === "object" && process !== null && process.env ? process.env : {};
const ONLY_CASE = ENV.JSVM_BENCH_CASE || "", FIXED_BATCHES = Number(ENV.JSVM_BENCH_BATCHES || 0);
function report(name, ops, ms) {
  console.log(JSON.stringify({ bench: name, ops: ops, ms: Math.round(ms * 1000) / 1000 }));
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
function expectEqual(actual, expected, what) {
  if (actual !== expected) throw new Error(what + ": expected " + expected + ", got " + actual);
}
// ---- end of protocol ----

const BATCH = 10000;
const values = [];
for (let i = 0; i < 1024; i++) values.push((i * 7919) % 1009);

function mathMin() {
  let low = Infinity, total = 0;
  for (let i = 0; i < BATCH; i++) {
    low = Math.min(low, values[i & 1023]);
    total += Math.min(values[i & 1023], values[(i + 1) & 1023], 500);
  }
  return low + total;
}

const stack = [];
function pushPop() {
  let sum = 0;
  for (let i = 0; i < BATCH; i++) stack.push(i);
  for (let i = 0; i < BATCH; i++) sum += stack.pop();
  return sum;
}

bench("math-min", BATCH, mathMin, (v) => expectEqual(v, 3108748, "Math.min result"));
bench("array-push-pop", BATCH, pushPop, (v) => {
  expectEqual(v, (BATCH * (BATCH - 1)) / 2, "popped sum");
  expectEqual(stack.length, 0, "stack emptied");
});
