// Calls that pass more arguments than the callee declares (only code that
// makes an arguments object or a rest array keeps the extra ones) and the
// Array methods that read dense elements directly (holes, array-likes and
// elements removed by the callback still take the spec's steps).
"use strict";
function viaEval(a) { return eval("arguments[1]"); }
console.log(viaEval(1, 2));
function rest(a, ...r) { return r.length + ":" + r.join(); }
console.log(rest(1, 2, 3), rest(1));
function arrowReads(a) { return (() => arguments[2])(); }
console.log(arrowReads(1, 2, 3));
function* generator(a) { yield arguments[1]; yield arguments.length; }
const g = generator(1, 7, 8);
console.log(g.next().value, g.next().value);
async function asyncReads(a) { await null; return arguments[1]; }
function ignores(a) { return a; }
console.log(ignores(1, 2, 3), [1, 2, 3].map(ignores).join());
function sloppyLength(a) { return arguments.length; }
console.log([5, 6].map(sloppyLength).join());

const holey = [1, , 3];
Object.prototype[1] = "from the prototype";
holey.forEach((v, i) => console.log("forEach", i, v));
console.log(holey.indexOf("from the prototype"), holey.includes(undefined));
delete Object.prototype[1];
console.log(holey.map((v) => v * 2), holey.filter(() => true).length);
const arrayLike = { length: 3, 0: "a", 2: "c" };
Array.prototype.forEach.call(arrayLike, (v, i) => console.log("array-like", i, v));
const shrinking = [1, 2, 3, 4];
shrinking.forEach((v, i) => { if (i === 0) shrinking.pop(); console.log("shrinking", v); });
const growing = [1, 2];
growing.forEach((v) => { if (growing.length < 4) growing.push(v + 10); console.log("growing", v); });
const withGetter = [1, 2, 3];
Object.defineProperty(withGetter, 1, { get() { console.log("getter runs"); return 20; } });
console.log(withGetter.reduce((x, y) => x + y), withGetter.some((v) => v === 20), withGetter.every((v) => v > 0));
console.log([3, 4, 3].indexOf(3, 1), [3, 4, 3].lastIndexOf(3), [1, 2, 3].reduceRight((x, y) => x + "" + y));
console.log([1, 2, 3].find((v) => v > 1), [1, 2, 3].findIndex((v) => v > 5), [NaN].indexOf(NaN), [NaN].includes(NaN));
{
// A method call's receiver stays in its register unless an argument
// assigns that binding; optional chains keep their short-circuit.
const o = { v: 1, m(x) { return this.v + x; }, n() { return this; } };
let p = o;
console.log(p.m(1), p.m((p = { v: 10, m: o.m }, 2)), p.m(3));
let q = o;
console.log(q.m(q = 5));
let r = o;
console.log(r.m(...[r = 7]));
const a = null;
console.log(a?.b.c(), a?.m(1), o.x?.(), o.m?.(4), (o?.m)(5));
try { undefined.foo(); } catch (e) { console.log(e.constructor.name, e.message); }
try { o.nope(); } catch (e) { console.log(e.constructor.name, e.message); }
class K { constructor() { this.v = 3; } get() { return this.m(); } m() { return this.v; } }
console.log(new K().get());
class D extends K { constructor() { super(); console.log(this.m(), super.m()); } }
new D();
let s = "abc";
console.log(s.toUpperCase(), s.charAt(1), (1.5).toFixed(2), [3, 1, 2].sort().join());
function f() { return this; } let g = { f };
console.log(g.f() === g, (0, g.f)() === globalThis);
}
asyncReads(1, 9).then((v) => console.log("async", v));
