// The turn on which each await resumes, against then(), queueMicrotask and
// process.nextTick, for every kind of awaited value.
const log = [];
const say = (s) => log.push(s);

class SubPromise extends Promise {}
const ownThen = Promise.resolve('own');
ownThen.then = function (f, r) { say('own then called'); return Promise.prototype.then.call(this, f, r); };
const otherCtor = Promise.resolve('other');
otherCtor.constructor = function Fake(executor) { say('Fake constructor'); return new Promise(executor); };

const thenableGetter = {};
Object.defineProperty(thenableGetter, 'then', { get() { say('then getter'); return (res) => res('getter value'); } });
const throwingThen = { then() { throw new Error('then threw'); } };
const pending = new Promise((r) => setTimeout(() => r('later'), 0));

async function waitFor(label, value) {
  say(`${label}: start`);
  try {
    const v = await value;
    say(`${label}: ${v}`);
  } catch (e) {
    say(`${label}: caught ${e.message}`);
  }
}

waitFor('plain', 1);
waitFor('settled', Promise.resolve('settled'));
waitFor('rejected', Promise.reject(new Error('no')));
waitFor('pending', pending);
waitFor('thenable', { then(r) { say('thenable then'); r('thenable value'); } });
waitFor('then getter', thenableGetter);
waitFor('throwing then', throwingThen);
waitFor('subclass', SubPromise.resolve('sub'));
waitFor('own then', ownThen);
waitFor('other constructor', otherCtor);
Promise.resolve().then(() => say('then 1')).then(() => say('then 2')).then(() => say('then 3'));
queueMicrotask(() => say('microtask'));
process.nextTick(() => say('nextTick'));

async function inner(n) { await null; say(`inner ${n}`); return n; }
async function outer() { say('outer start'); const v = await inner(1); say(`outer got ${v}`); return v + 1; }
outer().then((v) => say(`outer result ${v}`));

async function* counter() { for (let i = 0; i < 3; i++) { yield i; await null; } }
(async () => {
  for await (const v of counter()) say(`for-await ${v}`);
  const g = counter();
  say(`next ${JSON.stringify(await g.next())}`);
  say(`return ${JSON.stringify(await g.return('stop'))}`);
  say(`after return ${JSON.stringify(await g.next())}`);
})();

// 48 async functions taking turns.
const turns = [];
async function worker(id) { for (let i = 0; i < 3; i++) { await null; turns.push(id); } }
const workers = [];
for (let id = 0; id < 48; id++) workers.push(worker(id));
Promise.all(workers).then(() => say(`turns ${turns.slice(0, 6).join(',')} ... ${turns.slice(-3).join(',')} (${turns.length})`));

setTimeout(() => { for (const line of log) console.log(line); }, 100);
