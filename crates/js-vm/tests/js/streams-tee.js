// ReadableStream.prototype.tee(): branch reads interleaved with promise turns,
// cancelling both branches (the source sees both reasons), source errors.
const log = [];
const note = (s) => log.push(s);
function turns(label, n) { let p = Promise.resolve(); for (let i = 0; i < n; i++) p = p.then(() => note(`${label}${i}`)); return p; }
(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); }, cancel(r) { note('cancel ' + JSON.stringify(r)); } });
  const [b1, b2] = rs.tee();
  note('locked ' + rs.locked + ' ' + b1.locked);
  const r1 = b1.getReader(), r2 = b2.getReader();
  r1.read().then((r) => note('r1 ' + r.value));
  r2.read().then((r) => note('r2 ' + r.value));
  await turns('t', 5);
  for (;;) { const r = await r1.read(); note('r1 ' + r.value + ' ' + r.done); if (r.done) break; }
  for (;;) { const r = await r2.read(); note('r2 ' + r.value + ' ' + r.done); if (r.done) break; }
  const rs2 = new ReadableStream({ cancel(r) { note('cancel ' + JSON.stringify(r)); return 'ignored'; } });
  const [c1, c2] = rs2.tee();
  c1.cancel('x').then((v) => note('c1 cancelled ' + v));
  await turns('u', 2);
  await c2.cancel('y').then((v) => note('c2 cancelled ' + v));
  const rs3 = new ReadableStream({ start(c) { c.error(new Error('bad')); } });
  const [e1, e2] = rs3.tee();
  await e1.getReader().closed.catch((e) => note('e1 ' + e.message));
  await e2.getReader().read().catch((e) => note('e2 ' + e.message));
  console.log(log.join(' | '));
})();
