// Construction costs of the WHATWG streams: ReadableStream, a default
// reader, WritableStream, TransformStream and a tee of a ReadableStream. Runs unchanged on node and
// jsvm; prints one JSON line per case: {"bench","ops","ms"}.
"use strict";

function bench(name, ops, body) {
  const start = performance.now();
  const check = body(ops);
  const ms = performance.now() - start;
  if (check !== ops) throw new Error(`${name}: expected ${ops}, got ${check}`);
  console.log(JSON.stringify({ bench: name, ops, ms: Math.round(ms * 1000) / 1000 }));
}

const N = 100000;

bench("streams-new-readable-stream", N, (n) => {
  let made = 0;
  for (let i = 0; i < n; i++) if (new ReadableStream().locked === false) made++;
  return made;
});

bench("streams-default-reader", N, (n) => {
  let made = 0;
  for (let i = 0; i < n; i++) {
    const stream = new ReadableStream();
    stream.getReader();
    if (stream.locked) made++;
  }
  return made;
});

bench("streams-new-writable-stream", N, (n) => {
  let made = 0;
  for (let i = 0; i < n; i++) if (new WritableStream().locked === false) made++;
  return made;
});

bench("streams-new-transform-stream", N, (n) => {
  let made = 0;
  for (let i = 0; i < n; i++) if (new TransformStream().readable.locked === false) made++;
  return made;
});

bench("streams-tee", N, (n) => {
  let made = 0;
  for (let i = 0; i < n; i++) {
    const [a, b] = new ReadableStream().tee();
    if (a.locked === false && b.locked === false) made++;
  }
  return made;
});
