// AbortSignal in streams: pipeTo's `signal` option (abort and cancel with
// the signal's reason, preventAbort / preventCancel, an already aborted
// signal, argument checks) and WritableStreamDefaultController.signal.
const log = [];
const note = (s) => log.push(s);
const tick = () => new Promise((r) => setTimeout(r, 0));
const show = (v) => (v instanceof Error || v instanceof DOMException ? `${v.name}: ${v.message}` : String(v));

function source(name) {
  // One chunk, then the pipe waits on a read that never ends.
  return new ReadableStream({
    start(c) { c.enqueue(name); },
    cancel(reason) { note(`${name} cancel ${show(reason)}`); },
  });
}

function sink(name) {
  return new WritableStream({
    write(chunk) { note(`${name} write ${chunk}`); },
    abort(reason) { note(`${name} abort ${show(reason)}`); },
    close() { note(`${name} close`); },
  });
}

async function abortMidPipe() {
  const controller = new AbortController();
  const rs = source('s1');
  const ws = sink('d1');
  const piped = rs.pipeTo(ws, { signal: controller.signal });
  await tick();
  note('aborting');
  controller.abort('stop');
  note('aborted');
  await piped.then(() => note('pipe fulfilled'), (e) => note(`pipe rejected ${show(e)}`));
  note(`locked ${rs.locked} ${ws.locked}`);
}

async function alreadyAborted() {
  const rs = source('s2');
  const ws = sink('d2');
  const reason = new Error('early');
  await rs.pipeTo(ws, { signal: AbortSignal.abort(reason) }).catch((e) => note(`pipe rejected same reason ${e === reason}`));
  note(`locked ${rs.locked} ${ws.locked}`);
}

async function defaultReason() {
  const controller = new AbortController();
  controller.abort();
  await source('s3').pipeTo(sink('d3'), { signal: controller.signal }).catch((e) => note(`pipe rejected ${show(e)}`));
}

async function preventFlags(preventAbort, preventCancel) {
  const controller = new AbortController();
  const rs = source('s4');
  const ws = sink('d4');
  const piped = rs.pipeTo(ws, { signal: controller.signal, preventAbort, preventCancel });
  await tick();
  controller.abort(new RangeError(`pa=${preventAbort} pc=${preventCancel}`));
  await piped.catch((e) => note(`pipe rejected ${show(e)}`));
  note(`locked ${rs.locked} ${ws.locked}`);
  // The prevented side is usable again.
  if (preventCancel) {
    const reader = rs.getReader();
    await reader.cancel('done');
  }
  if (preventAbort) {
    const writer = ws.getWriter();
    await writer.write('again');
    note('wrote after pipe');
  }
}

async function rejectionsPreferAbort() {
  const rs = new ReadableStream({
    cancel() { note('cancel rejects'); return Promise.reject(new Error('from cancel')); },
  });
  const ws = new WritableStream({
    abort() { note('abort rejects'); return Promise.reject(new Error('from abort')); },
  });
  await rs.pipeTo(ws, { signal: AbortSignal.abort('x') }).catch((e) => note(`pipe rejected ${show(e)}`));
}

async function abortAfterFinish() {
  const controller = new AbortController();
  const rs = new ReadableStream({ start(c) { c.enqueue('only'); c.close(); } });
  const ws = sink('d5');
  await rs.pipeTo(ws, { signal: controller.signal });
  note('pipe fulfilled');
  controller.abort('late');
  await tick();
  note(`late abort after the pipe finished: nothing more ran, aborted ${controller.signal.aborted}`);
}

async function invalidSignals() {
  for (const signal of [null, 0, 'signal', {}, Object.create(AbortSignal.prototype), AbortSignal]) {
    await new ReadableStream().pipeTo(new WritableStream(), { signal }).catch((e) => note(`pipeTo ${e.constructor.name}`));
    try {
      const pair = { readable: new ReadableStream(), writable: new WritableStream() };
      new ReadableStream().pipeThrough(pair, { signal });
      note('pipeThrough did not throw');
    } catch (e) {
      note(`pipeThrough ${e.constructor.name}`);
    }
  }
  const rs = new ReadableStream();
  // Members are read in order: preventAbort, preventCancel, preventClose,
  // signal; the signal is checked right after it is read.
  const order = [];
  const options = {};
  for (const key of ['signal', 'preventClose', 'preventCancel', 'preventAbort']) {
    Object.defineProperty(options, key, { get() { order.push(key); return key === 'signal' ? 1 : false; } });
  }
  await rs.pipeTo(new WritableStream(), options).catch((e) => note(`${order.join(',')} ${e.constructor.name}`));
}

async function pipeThroughSignal() {
  const controller = new AbortController();
  const rs = new ReadableStream({
    start(c) { c.enqueue('s6'); },
    cancel(reason) { note(`s6 cancel ${show(reason)}`); },
  });
  const ts = new TransformStream({}, undefined, { highWaterMark: 4 });
  const out = rs.pipeThrough(ts, { signal: controller.signal });
  const reader = out.getReader();
  note(`through read ${(await reader.read()).value}`);
  await tick();
  controller.abort(new TypeError('through'));
  await reader.closed.catch((e) => note(`readable errored ${show(e)}`));
}

async function controllerSignal() {
  let ctrl;
  const ws = new WritableStream({
    start(c) { ctrl = c; },
    write() { note('write'); return tick(); },
    abort(reason) { note(`sink abort ${show(reason)} signal aborted ${ctrl.signal.aborted}`); },
  });
  const signal = ctrl.signal;
  note(`signal ${signal instanceof AbortSignal} same ${signal === ctrl.signal} aborted ${signal.aborted}`);
  signal.addEventListener('abort', () => note(`abort event reason ${show(signal.reason)}`));
  const writer = ws.getWriter();
  writer.write('chunk');
  await tick();
  const reason = new Error('writer abort');
  note('before abort');
  const aborted = writer.abort(reason);
  note(`after abort aborted ${signal.aborted} same reason ${signal.reason === reason}`);
  await aborted;
  note('abort done');
  const desc = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(ctrl), 'signal');
  note(`getter ${typeof desc.get} ${desc.enumerable} ${desc.configurable} ${desc.set}`);
  try {
    desc.get.call({});
  } catch (e) {
    note(`brand ${e.constructor.name}`);
  }
}

async function controllerSignalReadLate() {
  let ctrl;
  const ws = new WritableStream({ start(c) { ctrl = c; } });
  await ws.abort();
  note(`late signal aborted ${ctrl.signal.aborted} reason ${show(ctrl.signal.reason)}`);
  note(`late same ${ctrl.signal === ctrl.signal}`);
  let ctrl2;
  const ws2 = new WritableStream({ start(c) { ctrl2 = c; } });
  const w = ws2.getWriter();
  await w.close();
  w.releaseLock();
  await ws2.abort('after close');
  note(`closed stream signal aborted ${ctrl2.signal.aborted}`);
}

(async () => {
  await abortMidPipe();
  await alreadyAborted();
  await defaultReason();
  await preventFlags(false, false);
  await preventFlags(true, false);
  await preventFlags(false, true);
  await preventFlags(true, true);
  await rejectionsPreferAbort();
  await abortAfterFinish();
  await invalidSignals();
  await pipeThroughSignal();
  await controllerSignal();
  await controllerSignalReadLate();
  for (const line of log) console.log(line);
})();
