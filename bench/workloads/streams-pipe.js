// pipeTo through a TransformStream (readable side highWaterMark 1, 16 and
// 1024): a pulling source, a doubling transform and a summing sink. Runs
// unchanged on node and jsvm; prints one JSON line per case:
// {"bench","ops","ms"}.
"use strict";

const N = 200000;

async function pipeThroughTransform(highWaterMark) {
  let next = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (next < N) controller.enqueue(next++);
      else controller.close();
    },
  }, { highWaterMark });
  const double = new TransformStream({
    transform(chunk, controller) { controller.enqueue(chunk * 2); },
  }, { highWaterMark }, { highWaterMark });
  let sum = 0;
  const sink = new WritableStream({ write(chunk) { sum += chunk; } }, { highWaterMark });
  const start = performance.now();
  await source.pipeThrough(double).pipeTo(sink);
  const ms = performance.now() - start;
  if (sum !== N * (N - 1)) throw new Error(`hwm ${highWaterMark}: sum ${sum}`);
  console.log(JSON.stringify({ bench: `streams-pipe-transform-hwm-${highWaterMark}`, ops: N, ms: Math.round(ms * 1000) / 1000 }));
}

(async () => {
  for (const hwm of [1, 16, 1024]) await pipeThroughTransform(hwm);
})();
