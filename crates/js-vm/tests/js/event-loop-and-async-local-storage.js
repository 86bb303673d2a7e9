const { AsyncLocalStorage } = require('node:async_hooks');
const log = (...a) => console.log(...a);
const als = new AsyncLocalStorage();
setTimeout(() => {
  log('timeout A');
  Promise.resolve().then(() => log('micro in timeout'));
  process.nextTick(() => log('tick in timeout'));
  setImmediate(() => log('immediate from timeout'));
  setTimeout(() => log('timeout from timeout'), 0);
}, 0);
process.nextTick(() => log('tick 1'));
Promise.resolve().then(() => { log('micro 1'); process.nextTick(() => log('tick from micro')); });
queueMicrotask(() => log('qm'));
process.nextTick(() => log('tick 2'));
als.run({ id: 1 }, () => {
  setTimeout(() => {
    log('store in timeout', als.getStore());
    als.run({ id: 2 }, () => setImmediate(() => log('store in immediate', als.getStore())));
  }, 120);
  Promise.resolve().then(() => log('store in then', als.getStore()));
  process.nextTick(() => log('store in tick', als.getStore()));
  (async () => {
    await null;
    log('store after await', als.getStore());
    await new Promise(r => setTimeout(r, 240));
    log('store after timer await', als.getStore());
  })();
});
log('store outside', als.getStore());
let n = 0;
setTimeout(() => {
  const iv = setInterval(() => { log('interval', ++n, als.getStore()); if (n === 3) clearInterval(iv); }, 20);
}, 400);
const t = setTimeout(() => log('never'), 3); clearTimeout(t);
log(typeof performance.now(), Array.isArray(process.argv), typeof process.env.PATH);
const snap = als.run(42, () => AsyncLocalStorage.snapshot());
log('snapshot', snap(() => als.getStore()));
const bound = als.run('b', () => AsyncLocalStorage.bind(() => als.getStore()));
log('bound', bound());
als.run('x', () => { als.exit(() => log('exit', als.getStore())); log('after exit', als.getStore()); });
als.enterWith('entered'); log('enterWith', als.getStore());
setTimeout(() => { process.exitCode = 3; log('exit code set'); }, 800);
