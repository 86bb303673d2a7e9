// Promise and async-function machinery: awaits of values, fulfilled and
// pending promises, `then` chains, many async functions taking turns, an
// async generator under for-await, and Promise.all. Each batch checks what
// it computed; for the turn-taking cases also the order of the turns.
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

// A chain of BATCH `then` reactions, each adding one.
function thenChain() {
  let p = Promise.resolve(0);
  for (let i = 0; i < BATCH; i++) p = p.then((v) => v + 1);
  return p;
}

// `count` async functions each awaiting in a loop: every await takes one
// turn of the microtask queue, so they run strictly round-robin, which
// each one checks against a shared turn counter.
function takingTurns(count, rounds) {
  return async () => {
    let turn = 0;
    async function player(id) {
      for (let round = 0; round < rounds; round++) {
        if (turn % count !== id) throw new Error("player " + id + " ran out of turn at " + turn);
        turn++;
        await null;
      }
    }
    const players = [];
    for (let id = 0; id < count; id++) players.push(player(id));
    await Promise.all(players);
    return turn;
  };
}

// An async generator yielding BATCH numbers, consumed with for-await.
async function* numbers(n) {
  for (let i = 0; i < n; i++) yield i;
}
async function asyncGenerator() {
  let sum = 0;
  for await (const n of numbers(BATCH)) sum += n;
  return sum;
}

// Promise.all over 100 promises, half of them fulfilled already and half
// fulfilled by a then reaction, so both paths of its resolve elements run.
const hundred = [];
for (let i = 0; i < 100; i++) hundred.push(i % 2 === 0 ? Promise.resolve(i) : Promise.resolve(i - 1).then((v) => v + 1));
async function promiseAll() {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const values = await Promise.all(hundred);
    sum += values[99] + values.length;
  }
  return sum;
}

async function main() {
  const sum = (what) => (value) => expectEqual(value, triangle, what);
  await benchAsync("await-value", BATCH, awaitValues, sum("await value sum"));
  await benchAsync("await-settled", BATCH, awaitSettled, (v) => expectEqual(v, BATCH, "await settled sum"));
  await benchAsync("await-pending", BATCH, awaitPending, sum("await pending sum"));
  await benchAsync("then-chain", BATCH, thenChain, (v) => expectEqual(v, BATCH, "then chain end"));
  await benchAsync("async-turns-16", 16 * 64, takingTurns(16, 64), (v) => expectEqual(v, 16 * 64, "turns taken"));
  await benchAsync("async-turns-48", 48 * 64, takingTurns(48, 64), (v) => expectEqual(v, 48 * 64, "turns taken"));
  await benchAsync("async-generator", BATCH, asyncGenerator, sum("for-await sum"));
  await benchAsync("promise-all-100", 10, promiseAll, (v) => expectEqual(v, 1990, "Promise.all values"));
}

main().catch(reportFailure("async-await"));
