// Reading 1,000,000 buffered chunks with reader.read(), and the same with
// for await. Runs unchanged on node and jsvm; prints one JSON
// line per case: {"bench","ops","ms"}.
"use strict";

const N = 1000000;

// The chunks are buffered 1024 at a time by `pull` (every read but one
// in 1024 finds its chunk queued); a single queue of a million chunks
// would measure node's array-shift queue instead of reading.
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

function report(name, ops, ms, sum) {
  const expected = (ops * (ops - 1)) / 2;
  if (sum !== expected) throw new Error(`${name}: sum ${sum}, expected ${expected}`);
  console.log(JSON.stringify({ bench: name, ops, ms: Math.round(ms * 1000) / 1000 }));
}

async function readerRead() {
  const reader = filled(N).getReader();
  const start = performance.now();
  let sum = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    sum += value;
  }
  report("streams-reader-read-buffered", N, performance.now() - start, sum);
}

async function forAwait() {
  const stream = filled(N);
  const start = performance.now();
  let sum = 0;
  for await (const value of stream) sum += value;
  report("streams-for-await-buffered", N, performance.now() - start, sum);
}

(async () => {
  await readerRead();
  await forAwait();
})();
