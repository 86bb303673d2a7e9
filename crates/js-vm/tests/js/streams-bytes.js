// Readable byte streams: BYOB reads (min, element sizes, DataView),
// byobRequest respond / respondWithNewView, buffer transfer (the caller's
// buffer is detached), autoAllocateChunkSize, default readers and async
// iteration on a byte stream, releaseLock and cancel with reads pending,
// byte tee, pipeTo, and the TypeErrors / RangeErrors of bad arguments.
const log = [];
const note = (s) => log.push(s);
const bytes = (v) => (v === undefined ? 'undefined' : `${v.constructor.name}[${Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)).join(',')}]`);
const kind = (e) => (e && e.constructor ? e.constructor.name : String(e));
function turns(label, n) { let p = Promise.resolve(); for (let i = 0; i < n; i++) p = p.then(() => note(`${label}${i}`)); return p; }
(async () => {
  // Construction and the controller's attributes.
  let ctrl;
  const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } }, { highWaterMark: 16 });
  note(`${ctrl.constructor.name} desired=${ctrl.desiredSize} byob=${ctrl.byobRequest}`);
  ctrl.enqueue(new Uint8Array([1, 2, 3, 4, 5]));
  note(`after enqueue desired=${ctrl.desiredSize}`);
  const reader = rs.getReader({ mode: 'byob' });
  note(`reader ${reader.constructor.name} locked=${rs.locked}`);
  const mine = new Uint8Array(4);
  const p1 = reader.read(mine);
  note(`caller buffer detached=${mine.buffer.byteLength === 0}`);
  const r1 = await p1;
  note(`read ${bytes(r1.value)} done=${r1.done} desired=${ctrl.desiredSize}`);
  const p2 = reader.read(new Uint16Array(2));
  note(`byobRequest while a u16 read waits: ${ctrl.byobRequest.view.byteOffset},${ctrl.byobRequest.view.byteLength}`);
  ctrl.enqueue(new Uint8Array([6, 7, 8]));
  const r2 = await p2;
  note(`u16 ${bytes(r2.value)} len=${r2.value.length}`);
  ctrl.enqueue(new Uint8Array([9, 10]));
  const r3 = await reader.read(new DataView(new ArrayBuffer(8), 2, 4));
  note(`dataview ${bytes(r3.value)} offset=${r3.value.byteOffset}`);
  ctrl.close();
  const r4 = await reader.read(new Uint8Array(3));
  note(`closed read ${bytes(r4.value)} done=${r4.done}`);

  // A pull answered through byobRequest: respond, respondWithNewView, min.
  let pulls = 0;
  const rs2 = new ReadableStream({
    type: 'bytes',
    pull(c) {
      const req = c.byobRequest;
      pulls++;
      note(`pull ${pulls} view=${req.view.constructor.name}(${req.view.byteOffset},${req.view.byteLength})`);
      if (pulls === 1) { req.view[0] = 10; req.view[1] = 11; req.respond(2); note(`byob after respond ${c.byobRequest}`); }
      else if (pulls === 2) { const v = new Uint8Array(req.view.buffer, req.view.byteOffset, 1); v[0] = 12; req.respondWithNewView(v); }
      else if (pulls === 3) { req.view.fill(13); req.respond(req.view.byteLength); }
      else { c.close(); c.byobRequest.respond(0); }
    },
  });
  const r = rs2.getReader({ mode: 'byob' });
  const a = await r.read(new Uint8Array(4));
  note(`a ${bytes(a.value)}`);
  const b = await r.read(new Uint8Array(4), { min: 3 });
  note(`b min3 ${bytes(b.value)}`);
  const c = await r.read(new Uint8Array(2));
  note(`c ${bytes(c.value)} done=${c.done}`);

  // Errors of bad arguments (only the kinds are printed).
  const bad = [
    () => r.read(new Uint8Array(0)),
    () => r.read(new Uint8Array(4), { min: 0 }),
    () => r.read(new Uint8Array(4), { min: 5 }),
    () => r.read(new Uint16Array(2), { min: 3 }),
    () => r.read({}),
  ];
  for (const f of bad) await f().then(() => note('no error'), (e) => note(`rejects ${kind(e)}`));
  for (const f of [
    () => new ReadableStream({ type: 'bytes' }, { size() { return 1; } }),
    () => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: 0 }),
    () => new ReadableStream({ type: 'other' }),
    () => new ReadableStream().getReader({ mode: 'byob' }),
    () => new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array(0)); } }),
    () => new ReadableStream({ type: 'bytes', start(c) { c.enqueue('x'); } }),
    () => new ReadableStream({ type: 'bytes', start(c) { c.close(); c.close(); } }),
  ]) {
    try { f(); note('no error'); } catch (e) { note(`throws ${kind(e)}`); }
  }

  // autoAllocateChunkSize: a default reader's read gets a byobRequest.
  const rs3 = new ReadableStream({
    type: 'bytes',
    autoAllocateChunkSize: 8,
    pull(c) { const v = c.byobRequest.view; note(`auto view ${v.byteLength}`); v.set([1, 2, 3]); c.byobRequest.respond(3); },
  });
  const d = rs3.getReader();
  const dr = await d.read();
  note(`auto ${bytes(dr.value)} buffer=${dr.value.buffer.byteLength}`);
  note(`default reader ${d.constructor.name}`);

  // Async iteration of a byte stream, and pipeTo.
  const chunks = [];
  for await (const chunk of new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([1, 2])); c.enqueue(new Uint8Array([3])); c.close(); } })) chunks.push(bytes(chunk));
  note(`iterated ${chunks.join(' ')}`);
  const written = [];
  await new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([4, 5])); c.close(); } })
    .pipeTo(new WritableStream({ write(chunk) { written.push(bytes(chunk)); } }));
  note(`piped ${written.join(' ')}`);

  // releaseLock and cancel with a BYOB read pending.
  let ctrl4;
  const rs4 = new ReadableStream({ type: 'bytes', start(c) { ctrl4 = c; }, cancel(reason) { note(`source cancel ${reason}`); } });
  const r4a = rs4.getReader({ mode: 'byob' });
  const pending = r4a.read(new Uint8Array(4)).then((x) => note(`pending ${x.done}`), (e) => note(`pending rejects ${kind(e)}`));
  await turns('t', 2);
  r4a.releaseLock();
  await pending;
  note(`byob still there ${ctrl4.byobRequest !== null}`);
  ctrl4.byobRequest.view[0] = 42;
  ctrl4.byobRequest.respond(1);
  const r4b = rs4.getReader();
  const got = await r4b.read();
  note(`kept bytes ${bytes(got.value)}`);
  r4b.releaseLock();
  const r4c = rs4.getReader({ mode: 'byob' });
  const pending2 = r4c.read(new Uint8Array(2)).then((x) => note(`cancelled read ${bytes(x.value)} done=${x.done}`));
  await r4c.cancel('why');
  await pending2;

  // Byte tee: a BYOB read on one branch, a default read on the other.
  const rs5 = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([7, 8, 9])); c.close(); } });
  const [t1, t2] = rs5.tee();
  const tr1 = t1.getReader({ mode: 'byob' });
  const tr2 = t2.getReader();
  const x1 = await tr1.read(new Uint8Array(2));
  const x2 = await tr2.read();
  note(`tee1 ${bytes(x1.value)} tee2 ${bytes(x2.value)} shared=${x1.value.buffer === x2.value.buffer}`);
  const y1 = await tr1.read(new Uint8Array(2));
  const y2 = await tr2.read();
  note(`tee1 ${bytes(y1.value)} ${y1.done} tee2 ${y2.done}`);

  // Errors reach both kinds of reader.
  const rs6 = new ReadableStream({ type: 'bytes', pull(c) { c.error(new RangeError('no')); } });
  const r6 = rs6.getReader({ mode: 'byob' });
  await r6.read(new Uint8Array(1)).catch((e) => note(`errored ${kind(e)} ${e.message}`));
  await r6.closed.catch((e) => note(`closed ${kind(e)}`));

  // A released reader's closed promise: rejected with a TypeError, the
  // same promise at every look.
  const rs7 = new ReadableStream({ type: 'bytes' });
  const r7 = rs7.getReader({ mode: 'byob' });
  r7.releaseLock();
  note(`released closed same=${r7.closed === r7.closed}`);
  await r7.closed.catch((e) => note(`released closed ${kind(e)}`));
  const r8 = rs7.getReader({ mode: 'byob' });
  const seen = r8.closed;
  r8.releaseLock();
  note(`observed closed kept=${seen === r8.closed}`);
  await seen.catch((e) => note(`observed closed ${kind(e)}`));
  console.log(log.join('\n'));
})().catch((e) => console.log("failed", e, log.join("\n")));
