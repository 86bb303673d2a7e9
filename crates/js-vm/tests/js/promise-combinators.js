// Promise.all, allSettled, any and race: the order of every job they queue
// beside other promise work, and every step a script can observe (a `then`
// or `Promise.resolve` replaced, a species getter, subclasses, own `then`
// properties, thenables), each compared with node.

const log = [];
const tick = (label) => log.push(label);

async function ordering() {
  const fulfilled = Promise.resolve(1);
  const rejected = Promise.reject(new Error("no"));
  rejected.catch(() => {});
  let resolveLater;
  const later = new Promise((r) => (resolveLater = r));
  const thenable = { then(f) { tick("thenable.then"); f(3); } };

  Promise.all([fulfilled, 2, later, thenable]).then((v) => tick("all " + v.join(",")));
  Promise.allSettled([fulfilled, rejected, later]).then((v) =>
    tick("allSettled " + v.map((r) => r.status + ":" + (r.value ?? r.reason.message)).join(",")));
  Promise.any([rejected, later, fulfilled]).then((v) => tick("any " + v));
  Promise.race([later, fulfilled]).then((v) => tick("race " + v));
  Promise.all([rejected, fulfilled]).catch((e) => tick("all rejected " + e.message));
  Promise.any([rejected, Promise.reject(7)]).catch((e) => tick("any rejected " + e.constructor.name + " " + e.errors.length));
  fulfilled.then(() => tick("fulfilled.then"));
  Promise.resolve().then(() => tick("a")).then(() => tick("b")).then(() => tick("c")).then(() => tick("d"));
  queueMicrotask(() => tick("microtask"));
  resolveLater(4);
  tick("sync end");
  await new Promise((r) => setTimeout(r, 0));
  console.log(log.join("\n"));
  log.length = 0;
}

async function replacedThen() {
  const original = Promise.prototype.then;
  Promise.prototype.then = function (f, r) {
    tick("then called with " + typeof f + " " + typeof r + " " + (f ? f.length : "-"));
    return original.call(this, f, r);
  };
  await Promise.all([Promise.resolve(1), Promise.resolve(2)]).then((v) => tick("all " + v));
  Promise.prototype.then = original;
  console.log(log.join("\n"));
  log.length = 0;
}

async function speciesGetter() {
  const descriptor = Object.getOwnPropertyDescriptor(Promise, Symbol.species);
  Object.defineProperty(Promise, Symbol.species, {
    configurable: true,
    get() {
      tick("species read");
      return Promise;
    },
  });
  await Promise.all([Promise.resolve(1)]).then((v) => tick("all " + v));
  Object.defineProperty(Promise, Symbol.species, descriptor);
  console.log(log.join("\n"));
  log.length = 0;
}

async function replacedResolve() {
  const original = Promise.resolve;
  Promise.resolve = function (v) {
    tick("resolve " + v);
    return original.call(this, v);
  };
  await Promise.race([Promise.resolve(5), 6]).then((v) => tick("race " + v));
  Promise.resolve = original;
  console.log(log.join("\n"));
  log.length = 0;
}

async function ownThenAndConstructor() {
  const p = Promise.resolve(1);
  p.then = function (f, r) {
    tick("own then");
    return Promise.prototype.then.call(this, f, r);
  };
  const q = Promise.resolve(2);
  Object.defineProperty(q, "constructor", { get() { tick("constructor read"); return Promise; } });
  await Promise.all([p, q]).then((v) => tick("all " + v));
  console.log(log.join("\n"));
  log.length = 0;
}

async function subclass() {
  class Counted extends Promise {
    static made = 0;
    constructor(executor) {
      Counted.made++;
      super(executor);
    }
  }
  const values = await Counted.all([1, Promise.resolve(2), Counted.resolve(3)]);
  tick("Counted.all " + values + " made " + Counted.made);
  const settled = await Counted.allSettled([Promise.reject(new Error("x")), 4]);
  tick("Counted.allSettled " + settled.map((r) => r.status).join(","));
  console.log(log.join("\n"));
  log.length = 0;
}

async function manyAndEmpty() {
  const hundred = [];
  for (let i = 0; i < 100; i++) hundred.push(i % 3 === 0 ? i : Promise.resolve(i));
  const all = await Promise.all(hundred);
  tick("all " + all.length + " " + all.reduce((a, b) => a + b, 0));
  tick("empty all " + (await Promise.all([])).length);
  tick("empty allSettled " + (await Promise.allSettled([])).length);
  try {
    await Promise.any([]);
  } catch (e) {
    tick("empty any " + e.constructor.name);
  }
  const sets = await Promise.all(new Set([Promise.resolve("s"), "t"]));
  tick("set " + sets);
  console.log(log.join("\n"));
  log.length = 0;
}

(async () => {
  await ordering();
  await replacedThen();
  await speciesGetter();
  await replacedResolve();
  await ownThenAndConstructor();
  await subclass();
  await manyAndEmpty();
})();
