// requires: AsyncLocalStorage
// The await workloads of async-await.js again, run inside
// AsyncLocalStorage.run so every await captures and restores a store;
// each batch also checks that the store survived its awaits.
"use strict";

const { AsyncLocalStorage } = require("node:async_hooks");

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

const BATCH = 1000;
const triangle = (BATCH * (BATCH - 1)) / 2;

// `await v` of a plain value.
async function awaitValues() {
  let sum = 0;
  for (let i = 0; i < BATCH; i++) sum += await i;
  return sum;
}

// `await p` of a promise that is already fulfilled.
const settled = Promise.resolve(1);
async function awaitSettled() {
  let sum = 0;
  for (let i = 0; i < BATCH; i++) sum += await settled;
  return sum;
}

// `await p` of a promise still pending when the await starts: a second
// async function fulfils each one a tick later.
async function awaitPending() {
  let resolveNext = null;
  async function waiter() {
    let sum = 0;
    for (let i = 0; i < BATCH; i++) sum += await new Promise((resolve) => { resolveNext = resolve; });
    return sum;
  }
  async function resolver() {
    for (let i = 0; i < BATCH; i++) {
      await null;
      resolveNext(i);
    }
  }
  const [sum] = await Promise.all([waiter(), resolver()]);
  return sum;
}

const storage = new AsyncLocalStorage();
const store = { request: 42 };

// Runs `batch` and checks the store is still current after its awaits.
function withStore(batch) {
  return async () => {
    const value = await batch();
    if (storage.getStore() !== store) throw new Error("AsyncLocalStorage store lost across awaits");
    return value;
  };
}

async function main() {
  const sum = (what) => (value) => expectEqual(value, triangle, what);
  await benchAsync("als-await-value", BATCH, withStore(awaitValues), sum("await value sum"));
  await benchAsync("als-await-settled", BATCH, withStore(awaitSettled), (v) => expectEqual(v, BATCH, "await settled sum"));
  await benchAsync("als-await-pending", BATCH, withStore(awaitPending), sum("await pending sum"));
}

storage.run(store, main).catch(reportFailure("async-await-als"));
