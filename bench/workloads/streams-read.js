// Reading buffered chunks: 1,000,000 chunks with reader.read(), and the
// same with for await. Runs unchanged on node and jsvm; prints one JSON
// line per case: {"bench","ops","ms"}.
"use strict";

const N = 1000000;

function filled(n) {
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < n; i++) controller.enqueue(i);
      controller.close();
    },
  }, { highWaterMark: 0 });
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
