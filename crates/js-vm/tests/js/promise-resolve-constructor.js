// PromiseResolve reads `x.constructor` (§27.2.4.7.1): the engine answers it
// from a cached slot of %Promise.prototype% while the prototype keeps its
// shape, so every way of changing the answer must still be seen.
"use strict";
const p = Promise.resolve(1);
const same = () => Promise.resolve(p) === p;
console.log("fresh", same(), same());
Promise.prototype.constructor = Object;
console.log("value replaced", same());
Promise.prototype.constructor = Promise;
console.log("value restored", same());
Promise.prototype.extra = 1;
console.log("prototype grew", same());
p.constructor = Object;
console.log("own property", same(), Promise.resolve(Promise.resolve(2)) instanceof Promise);
const q = Promise.resolve(3);
Object.defineProperty(Promise.prototype, "constructor", {
  get() { console.log("getter ran"); return Promise; },
  configurable: true,
});
console.log("accessor", Promise.resolve(q) === q);
delete Promise.prototype.constructor;
console.log("deleted", Promise.resolve(q) === q);
Promise.prototype.constructor = Promise;
console.log("defined again", Promise.resolve(q) === q);
(async () => {
  const r = Promise.resolve(4);
  let ticks = 0;
  const count = () => { ticks++; if (ticks < 5) queueMicrotask(count); };
  queueMicrotask(count);
  await r;
  console.log("await of an intact promise after", ticks, "ticks");
  Promise.prototype.constructor = Object;
  ticks = 0;
  queueMicrotask(count);
  await r;
  console.log("await with a replaced constructor after", ticks, "ticks");
})();
