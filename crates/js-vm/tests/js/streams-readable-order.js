// Ordering of ReadableStream callbacks and promise resolutions, interleaved
// with a chain of plain promise turns so every extra or missing microtask
// turn shows.
const log = [];
const note = (s) => log.push(s);
function turns(label, n) {
  let p = Promise.resolve();
  for (let i = 0; i < n; i++) p = p.then(() => note(`${label}${i}`));
  return p;
}

async function startUndefined() {
  new ReadableStream({
    start() { note('start'); },
    pull(c) { note('pull ' + arguments.length); c.enqueue(1); },
  });
  await turns('t', 4);
}

async function startPromise() {
  new ReadableStream({
    start() { note('start'); return Promise.resolve(); },
    pull() { note('pull'); },
  }, { highWaterMark: 0 });
  await turns('t', 4);
}

async function startThenable() {
  new ReadableStream({
    start() { note('start'); return { then(r) { note('then called'); r(); } }; },
    pull() { note('pull'); },
  });
  await turns('t', 5);
}

async function readBuffered() {
  const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); } });
  const reader = rs.getReader();
  reader.read().then((r) => note('read1 ' + r.value));
  reader.read().then((r) => note('read2 ' + r.value));
  reader.read().then((r) => note('read3 ' + r.done), (e) => note('read3 rejected ' + e.constructor.name));
  await turns('t', 3);
  reader.releaseLock();
  await turns('u', 2);
}

async function readPending() {
  let controller;
  const rs = new ReadableStream({ start(c) { controller = c; }, pull() { note('pull'); } }, { highWaterMark: 0 });
  const reader = rs.getReader();
  reader.read().then((r) => note('read ' + r.value));
  await turns('t', 2);
  controller.enqueue('x');
  note('enqueued');
  await turns('u', 3);
  reader.closed.then(() => note('closed'));
  controller.close();
  await turns('v', 3);
}

// Node's pull wrapper is an async function, which adds two turns to a
// returned promise (the spec uses that promise as is), so only the outcome
// is compared here.
async function pullRejects() {
  const rs = new ReadableStream({ pull() { note('pull'); return Promise.reject(new Error('boom')); } });
  const reader = rs.getReader();
  reader.closed.catch((e) => note('closed rejected ' + e.message));
  reader.read().catch((e) => note('read rejected ' + e.message));
  await new Promise((r) => setTimeout(r, 0));
}

async function pullThrows() {
  const rs = new ReadableStream({ pull() { note('pull'); throw new TypeError('sync'); } });
  const reader = rs.getReader();
  reader.read().catch((e) => note('read rejected ' + e.name));
  await turns('t', 4);
}

async function cancelOrder() {
  const rs = new ReadableStream({
    start(c) { c.enqueue(1); },
    cancel(reason) { note('cancel ' + reason + ' ' + arguments.length); },
  });
  rs.cancel('why').then((v) => note('cancelled ' + v));
  await turns('t', 3);
  const rs2 = new ReadableStream({ cancel() { return new Promise((r) => setTimeout(r, 1)); } });
  const reader = rs2.getReader();
  reader.closed.then(() => note('closed before cancel settles'));
  await reader.cancel().then(() => note('cancel settled'));
}

async function asyncIteration() {
  const rs = new ReadableStream({
    start(c) { c.enqueue(1); c.enqueue(2); c.close(); },
  });
  for await (const v of rs) note('chunk ' + v);
  note('locked after loop ' + rs.locked);
  const rs2 = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); }, cancel(r) { note('cancel ' + r); } });
  for await (const v of rs2) { note('got ' + v); break; }
  note('locked after break ' + rs2.locked);
  const rs3 = new ReadableStream({ start(c) { c.enqueue(1); }, cancel() { note('never'); } });
  for await (const v of rs3.values({ preventCancel: true })) { note('got ' + v); break; }
  note('rs3 locked ' + rs3.locked);
}

async function sizeAndStrategy() {
  const rs = new ReadableStream({
    start(c) {
      note('desired ' + c.desiredSize);
      c.enqueue('abc');
      note('desired ' + c.desiredSize);
      try { c.enqueue('bad'); } catch (e) { note('enqueue threw ' + e.name); }
    },
  }, { highWaterMark: 10, size(chunk) { note('size ' + arguments.length); return chunk === 'bad' ? -1 : chunk.length; } });
  await rs.getReader().closed.catch((e) => note('errored ' + e.name));
  try { new ReadableStream({}, { highWaterMark: -1 }); } catch (e) { note('hwm ' + e.name); }
  try { new ReadableStream({ pull: 5 }); } catch (e) { note('pull ' + e.name); }
  try { new ReadableStream({ type: 'nope' }); } catch (e) { note('type ' + e.name); }
  try { ReadableStream(); } catch (e) { note('no new ' + e.name); }
}

async function lockedErrors() {
  const rs = new ReadableStream();
  rs.getReader();
  try { rs.getReader(); } catch (e) { note('second reader ' + e.name); }
  await rs.cancel().catch((e) => note('cancel locked ' + e.name));
  try { new ReadableStreamDefaultReader(rs); } catch (e) { note('ctor locked ' + e.name); }
  try { new ReadableStreamDefaultController(); } catch (e) { note('controller ctor ' + e.name); }
  const r = new ReadableStream().getReader();
  const closed = r.closed;
  note('same closed ' + (closed === r.closed));
  r.releaseLock();
  note('closed replaced ' + (closed === r.closed));
  await r.closed.catch((e) => note('released ' + e.name));
  await r.read().catch((e) => note('read released ' + e.name));
}

(async () => {
  for (const t of [startUndefined, startPromise, startThenable, readBuffered, readPending, pullRejects, pullThrows,
    cancelOrder, asyncIteration, sizeAndStrategy, lockedErrors]) {
    log.length = 0;
    await t();
    await turns('end', 2);
    console.log(t.name + ': ' + log.join(' | '));
  }
})();
