// Regular expressions on short strings: the per-call cost of RegExp
// methods (compiling, converting the subject, building match results),
// not the matcher on long inputs.
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
const subjects = ["hello world", "abcdef", "xyzzy", "the cat sat on the mat"];

// A pattern hoisted out of the loop: one compiled program, many tests.
const hoisted = /worl/;
function testHoisted() {
  let hits = 0;
  for (let i = 0; i < BATCH; i++) if (hoisted.test(subjects[i & 3])) hits++;
  return hits;
}

// The same literal written in the loop: each evaluation makes a new
// RegExp object, which need not compile the pattern again.
function literalInLoop() {
  let hits = 0;
  for (let i = 0; i < BATCH; i++) if (/worl/.test(subjects[i & 3])) hits++;
  return hits;
}

// A global replace on a 14-character string.
const replaceSubject = "banana bandana";
function replaceGlobal() {
  let length = 0;
  for (let i = 0; i < BATCH; i++) length += replaceSubject.replace(/a/g, "b").length;
  return length;
}

// split by a one-character class.
const csv = "alpha,beta;gamma,delta";
const separator = /[,;]/;
function splitByRegExp() {
  let parts = 0;
  for (let i = 0; i < BATCH; i++) parts += csv.split(separator).length;
  return parts;
}

// exec with two capture groups, reading the groups and the index.
const datePattern = /(\d+)-(\d+)/;
const dates = ["on 2024-05 we", "x 7-8", "1999-12!", "none here"];
function execCaptures() {
  let total = 0;
  for (let i = 0; i < BATCH; i++) {
    const m = datePattern.exec(dates[i & 3]);
    if (m !== null) total += m[1].length + m[2].length + m.index;
  }
  return total;
}

bench("regexp-test", BATCH, testHoisted, (v) => expectEqual(v, BATCH / 4, "test hits"));
bench("regexp-literal-in-loop", BATCH, literalInLoop, (v) => expectEqual(v, BATCH / 4, "literal hits"));
bench("regexp-replace-global", BATCH, replaceGlobal, (v) => {
  expectEqual(replaceSubject.replace(/a/g, "b"), "bbnbnb bbndbnb", "replace result");
  expectEqual(v, BATCH * 14, "replaced length");
});
bench("regexp-split", BATCH, splitByRegExp, (v) => {
  expectEqual(csv.split(separator).join("|"), "alpha|beta|gamma|delta", "split parts");
  expectEqual(v, BATCH * 4, "part count");
});
bench("regexp-exec-captures", BATCH, execCaptures, (v) => expectEqual(v, (BATCH / 4) * (9 + 4 + 6), "exec total"));
