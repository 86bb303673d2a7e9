// Ordering of WritableStream, TransformStream and pipe callbacks and
// promise resolutions, interleaved with plain promise turns.
const log = [];
const note = (s) => log.push(s);
function turns(label, n) {
  let p = Promise.resolve();
  for (let i = 0; i < n; i++) p = p.then(() => note(`${label}${i}`));
  return p;
}
const tick = () => new Promise((r) => setTimeout(r, 0));

async function writeSync() {
  const ws = new WritableStream({
    start() { note('start'); },
    write(chunk, c) { note('write ' + chunk + ' ' + arguments.length); },
    close() { note('close ' + arguments.length); },
  });
  const w = ws.getWriter();
  note('desired ' + w.desiredSize);
  w.write('a').then(() => note('a written'));
  note('desired ' + w.desiredSize);
  w.write('b').then(() => note('b written'));
  w.close().then(() => note('closed'));
  w.closed.then(() => note('writer closed'));
  await turns('t', 6);
}

// Node's sink wrappers are async functions, which add two turns to a
// returned promise (the spec uses it as is): only the order of our own
// events is compared here.
async function readyAndBackpressure() {
  let resolveWrite;
  const ws = new WritableStream({
    write() { note('write'); return new Promise((r) => { resolveWrite = r; }); },
  }, { highWaterMark: 1 });
  const w = ws.getWriter();
  const ready0 = w.ready;
  w.write(1);
  const ready1 = w.ready;
  note('ready replaced ' + (ready0 !== ready1));
  ready1.then(() => note('ready'));
  await tick();
  note('desired ' + w.desiredSize);
  resolveWrite();
  await tick();
}

async function writeRejects() {
  const ws = new WritableStream({
    write() { note('write'); throw new Error('nope'); },
  });
  const w = ws.getWriter();
  w.write(1).catch((e) => note('write rejected ' + e.message));
  w.closed.catch((e) => note('closed rejected ' + e.message));
  w.ready.catch((e) => note('ready rejected ' + e.message));
  await turns('t', 4);
  note('desired ' + w.desiredSize);
  await w.write(2).catch((e) => note('later write ' + e.message));
}

async function abortOrder() {
  const ws = new WritableStream({
    write() { note('write'); return tick(); },
    abort(reason) { note('abort ' + reason + ' ' + arguments.length); },
  });
  const w = ws.getWriter();
  w.write(1).then(() => note('write done'), (e) => note('write failed ' + e));
  w.abort('stop').then(() => note('aborted'));
  w.closed.catch((e) => note('closed ' + e));
  await tick();
  await tick();
}

async function controllerError() {
  let controller;
  const ws = new WritableStream({ start(c) { controller = c; } });
  const w = ws.getWriter();
  controller.error(new RangeError('bad'));
  w.closed.catch((e) => note('closed ' + e.name));
  await turns('t', 3);
  note('desired ' + w.desiredSize);
  try { new WritableStream({ type: 'x' }); } catch (e) { note('type ' + e.name); }
  try { new WritableStreamDefaultController(); } catch (e) { note('ctor ' + e.name); }
  const ws2 = new WritableStream();
  ws2.getWriter();
  try { ws2.getWriter(); } catch (e) { note('locked ' + e.name); }
}

async function transformBasic() {
  const ts = new TransformStream({
    start(c) { note('start ' + c.desiredSize); },
    transform(chunk, c) { note('transform ' + chunk + ' ' + arguments.length); c.enqueue(chunk.toUpperCase()); },
    flush(c) { note('flush ' + arguments.length); c.enqueue('!'); },
  });
  const w = ts.writable.getWriter();
  const r = ts.readable.getReader();
  w.write('a').then(() => note('a written'));
  w.write('b').then(() => note('b written'));
  w.close().then(() => note('closed'));
  for (;;) {
    const { value, done } = await r.read();
    note('read ' + value + ' ' + done);
    if (done) break;
  }
}

async function transformIdentityAndTerminate() {
  const ts = new TransformStream();
  const w = ts.writable.getWriter();
  const r = ts.readable.getReader();
  w.write(1);
  note('read ' + (await r.read()).value);
  const ts2 = new TransformStream({ transform(chunk, c) { c.terminate(); } });
  const w2 = ts2.writable.getWriter();
  w2.write('x').catch((e) => note('write after terminate ' + e.name));
  const r2 = ts2.readable.getReader();
  note('terminated read done ' + (await r2.read()).done);
  await w2.closed.catch((e) => note('writable errored ' + e.name));
  const ts3 = new TransformStream({ transform() { throw new Error('tx'); } });
  const w3 = ts3.writable.getWriter();
  const r3 = ts3.readable.getReader();
  r3.read().catch((e) => note('pending read ' + e.message));
  await w3.write(1).catch((e) => note('transform threw ' + e.message));
  await r3.closed.catch((e) => note('readable ' + e.message));
  try { new TransformStream({ readableType: 'bytes' }); } catch (e) { note('readableType ' + e.name); }
}

async function pipeBasic() {
  const out = [];
  const src = new ReadableStream({ start(c) { for (let i = 0; i < 5; i++) c.enqueue(i); c.close(); } });
  await src.pipeTo(new WritableStream({ write(x) { out.push(x); }, close() { note('dest closed'); } }));
  note('piped ' + out.join(',') + ' locked ' + src.locked);
  const src2 = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
  await src2.pipeTo(new WritableStream({ close() { note('never'); } }), { preventClose: true });
  note('preventClose ok');
}

async function pipeErrors() {
  const src = new ReadableStream({ start(c) { c.error(new Error('src')); } });
  await src.pipeTo(new WritableStream({ abort(r) { note('dest aborted ' + r.message); } }))
    .catch((e) => note('pipe rejected ' + e.message));
  const src2 = new ReadableStream({ cancel(r) { note('src cancelled ' + r.message); } });
  await src2.pipeTo(new WritableStream({ start(c) { c.error(new Error('dst')); } }))
    .catch((e) => note('pipe rejected ' + e.message));
  const src3 = new ReadableStream({ pull(c) { c.enqueue(1); } });
  const ws = new WritableStream({ write() { throw new Error('wfail'); } });
  await src3.pipeTo(ws).catch((e) => note('pipe rejected ' + e.message));
  note('src3 locked ' + src3.locked);
  await new ReadableStream().pipeTo('nope').catch((e) => note('bad dest ' + e.name));
}

async function pipeThroughChain() {
  const src = new ReadableStream({ start(c) { ['a', 'b', 'c'].forEach((x) => c.enqueue(x)); c.close(); } });
  const upper = new TransformStream({ transform(x, c) { c.enqueue(x.toUpperCase()); } });
  const twice = new TransformStream({ transform(x, c) { c.enqueue(x); c.enqueue(x); } }, undefined, { highWaterMark: 4 });
  const out = [];
  for await (const x of src.pipeThrough(upper).pipeThrough(twice)) out.push(x);
  note(out.join(''));
}

async function strategies() {
  const b = new ByteLengthQueuingStrategy({ highWaterMark: 8 });
  const c = new CountQueuingStrategy({ highWaterMark: 2 });
  note(b.highWaterMark + ' ' + c.highWaterMark + ' ' + b.size.name + ' ' + b.size.length + ' ' + c.size.length);
  note('shared ' + (b.size === new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size));
  note(b.size(new ArrayBuffer(3)) + ' ' + c.size('anything'));
  try { new CountQueuingStrategy({}); } catch (e) { note('missing ' + e.name); }
  const ws = new WritableStream({}, b);
  const w = ws.getWriter();
  w.write(new Uint8Array(5));
  note('desired ' + w.desiredSize);
  note(Object.prototype.toString.call(c) + ' ' + Object.prototype.toString.call(ws));
}

(async () => {
  for (const t of [writeSync, readyAndBackpressure, writeRejects, abortOrder, controllerError, transformBasic,
    transformIdentityAndTerminate, pipeBasic, pipeErrors, pipeThroughChain, strategies]) {
    log.length = 0;
    await t();
    await turns('end', 2);
    console.log(t.name + ': ' + log.join(' | '));
  }
})();
