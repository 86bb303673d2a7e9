// A splay tree under insert/find/remove churn with payload objects, the
// kind of allocation-heavy workload that exercises the collector. Written
// for this project in the spirit of the classic benchmark.
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

class Node {
  constructor(key, value) { this.key = key; this.value = value; this.left = null; this.right = null; }
}

class SplayTree {
  constructor() { this.root = null; this.size = 0; }
  splay(key) {
    if (this.root === null) return;
    const header = new Node(null, null);
    let left = header, right = header, t = this.root;
    for (;;) {
      if (key < t.key) {
        if (t.left === null) break;
        if (key < t.left.key) {
          const y = t.left; t.left = y.right; y.right = t; t = y;
          if (t.left === null) break;
        }
        right.left = t; right = t; t = t.left;
      } else if (key > t.key) {
        if (t.right === null) break;
        if (key > t.right.key) {
          const y = t.right; t.right = y.left; y.left = t; t = y;
          if (t.right === null) break;
        }
        left.right = t; left = t; t = t.right;
      } else {
        break;
      }
    }
    left.right = t.left; right.left = t.right;
    t.left = header.right; t.right = header.left;
    this.root = t;
  }
  insert(key, value) {
    if (this.root === null) { this.root = new Node(key, value); this.size++; return; }
    this.splay(key);
    if (this.root.key === key) return;
    const node = new Node(key, value);
    if (key > this.root.key) { node.left = this.root; node.right = this.root.right; this.root.right = null; }
    else { node.right = this.root; node.left = this.root.left; this.root.left = null; }
    this.root = node;
    this.size++;
  }
  find(key) {
    if (this.root === null) return null;
    this.splay(key);
    return this.root.key === key ? this.root : null;
  }
  remove(key) {
    this.splay(key);
    if (this.root === null || this.root.key !== key) return null;
    const removed = this.root;
    if (this.root.left === null) this.root = this.root.right;
    else { const right = this.root.right; this.root = this.root.left; this.splay(key); this.root.right = right; }
    this.size--;
    return removed;
  }
  maxNode(start) { let n = start || this.root; while (n !== null && n.right !== null) n = n.right; return n; }
}

let seed = 49734321;
function random() {
  seed = ((seed + 0x7ed55d16) + (seed << 12)) & 0xffffffff;
  seed = ((seed ^ 0xc761c23c) ^ (seed >>> 19)) & 0xffffffff;
  seed = ((seed + 0x165667b1) + (seed << 5)) & 0xffffffff;
  seed = ((seed + 0xd3a2646c) ^ (seed << 9)) & 0xffffffff;
  seed = ((seed + 0xfd7046c5) + (seed << 3)) & 0xffffffff;
  seed = ((seed ^ 0xb55a4f09) ^ (seed >>> 16)) & 0xffffffff;
  return (seed & 0xfffffff) / 0x10000000;
}

function payload(depth, tag) {
  if (depth === 0) return { array: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], string: "String for key " + tag };
  return { left: payload(depth - 1, tag), right: payload(depth - 1, tag) };
}

const tree = new SplayTree();
function insertNew() {
  let key;
  do { key = random(); } while (tree.find(key) !== null);
  tree.insert(key, payload(4, key));
  return key;
}

for (let i = 0; i < 8000; i++) insertNew();
// One batch: 100 insert/find-greatest/remove steps; the tree keeps 8000 nodes.
bench("splay", 100, () => {
  let sum = 0;
  for (let i = 0; i < 100; i++) {
    const key = insertNew();
    const greatest = tree.maxNode();
    if (greatest !== null) sum += greatest.key >= key ? 1 : 0;
    const removed = tree.remove(key);
    if (removed === null || removed.key !== key) throw new Error("splay: lost key");
  }
  return sum;
}, (sum) => {
  expectEqual(sum, 100, "splay greatest-key checks");
  expectEqual(tree.size, 8000, "splay tree size");
});
