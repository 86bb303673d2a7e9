const log = (...a) => console.log(...a);
async function f(x) { log('f start', x); const y = await x; log('f got', y); return y * 2; }
async function g() { try { await Promise.reject(new Error('boom')); } catch (e) { log('caught', e.message); } return 'g done'; }
f(1).then(v => log('f result', v));
f(Promise.resolve(5)).then(v => log('f5 result', v));
g().then(v => log(v));
Promise.resolve().then(() => log('tick 1')).then(() => log('tick 2')).then(() => log('tick 3'));
queueMicrotask(() => log('microtask'));
const thenable = { then(r) { log('then called'); r(42); } };
(async () => log('thenable', await thenable))();
Promise.all([1, Promise.resolve(2), new Promise(r => r(3))]).then(v => log('all', v));
Promise.allSettled([1, Promise.reject(2)]).then(v => log('allSettled', v));
Promise.any([Promise.reject(1), Promise.resolve(9)]).then(v => log('any', v));
Promise.race([new Promise(() => {}), Promise.resolve('race')]).then(v => log(v));
Promise.any([Promise.reject(1)]).catch(e => log(e.constructor.name, e.errors));
Promise.resolve(1).finally(() => log('finally')).then(v => log('after finally', v));
class MyP extends Promise {}
const mp = MyP.resolve(3); log(mp instanceof MyP, mp.then(x => x) instanceof MyP);
log('sync end');
(async function () { throw new TypeError('async throw'); })().catch(e => log('rejected:', e.message));
const a = async () => { await null; await undefined; return 'arrow'; }; a().then(log);
const o = { async m() { return this === o; } }; o.m().then(v => log('method this', v));
log(typeof f, Object.getPrototypeOf(f)[Symbol.toStringTag], f.prototype, String(f(0) instanceof Promise));
