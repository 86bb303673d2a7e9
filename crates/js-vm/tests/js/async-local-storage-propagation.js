// Which store each callback sees: the one current when it was registered.
const { AsyncLocalStorage } = require('node:async_hooks');
const als = new AsyncLocalStorage();
const log = [];
const see = (label) => log.push(`${label}: ${JSON.stringify(als.getStore())}`);

let resolvePending;
const pending = new Promise((r) => { resolvePending = r; });
const settled = Promise.resolve('v');
const rejected = Promise.reject(new Error('r'));
rejected.catch(() => {});

als.run('A', () => {
  pending.then(() => see('then on pending'));
  settled.then(() => see('then on settled'));
  rejected.catch(() => see('catch on rejected'));
  pending.finally(() => see('finally on pending'));
  settled.finally(() => see('finally on settled'));
  for (let i = 0; i < 3; i++) pending.then(() => see(`reaction ${i} on one promise`));
  (async () => {
    await pending; see('await pending');
    await settled; see('await settled');
    await 42; see('await non-promise');
    await { then(r) { r(1); } }; see('await thenable');
  })();
  Promise.all([pending, settled]).then(() => see('Promise.all'));
  Promise.race([pending]).then(() => see('Promise.race'));
  Promise.allSettled([rejected]).then(() => see('Promise.allSettled'));
  Promise.any([pending]).then(() => see('Promise.any'));
  Promise.resolve().then(() => { throw new Error('handler threw'); }).catch(() => see('after throwing handler'));
  setTimeout(() => see('setTimeout'), 0);
  setTimeout(() => setImmediate(() => see('setImmediate inside a timer')), 5);
  process.nextTick(() => see('nextTick'));
  queueMicrotask(() => see('queueMicrotask'));
});

als.run('B', () => {
  async function* gen() { see('generator body'); yield 1; see('generator resumed'); yield 2; }
  (async () => {
    for await (const v of gen()) see(`for-await ${v}`);
  })();
});

als.run('C', () => resolvePending('go'));
see('after runs');

// enterWith inside a job lasts for the rest of that job only.
Promise.resolve().then(() => { als.enterWith('entered'); see('job after enterWith'); })
  .then(() => see('next job'));

setTimeout(() => {
  see('timer after everything');
  for (const line of log) console.log(line);
}, 200);
