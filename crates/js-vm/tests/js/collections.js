const m = new Map([[1,'a'],['x',{y:2}],[NaN,3]]);
m.set(-0, 'zero');
console.log(m.size, m.get(0), m.get(NaN), m.has('x'), m.delete('x'), m.size);
for (const [k,v] of m) console.log(k, v);
const s = new Set([1,2,2,3,'3']);
console.log(s.size, [...s], [...s.entries()]);
const it = s.values(); s.delete(1); s.add(9);
console.log([...it]);
const wm = new WeakMap(); const k = {}; wm.set(k, 5); console.log(wm.get(k), wm.has({}));
const ws = new WeakSet([k]); console.log(ws.has(k));
console.log(Object.prototype.toString.call(m), String(s[Symbol.iterator] === s.values));
try { Map() } catch (e) { console.log(e.constructor.name) }
try { wm.set(1, 2) } catch (e) { console.log(e.constructor.name) }
console.log(m);
console.log(s);
console.log(new Map(), new Set(), wm);
// Iterators survive deletion and clear; entries added later are visited.
const live = new Map([[1, 1], [2, 2], [3, 3]]);
const order = [];
for (const [key] of live) {
  order.push(key);
  if (key === 1) { live.delete(2); live.set(4, 4); }
  if (key === 3) { live.clear(); live.set(5, 5); }
}
console.log(order);
// Entries hold objects: a collection during iteration must not lose them.
const objs = new Map();
for (let i = 0; i < 200; i++) objs.set({ i }, [i, String(i)]);
let sum = 0;
for (const [key, [n, text]] of objs) sum += key.i + n + text.length;
console.log(sum, objs.size);
class Counter extends Map { constructor(it) { super(it); this.extra = true; } }
console.log(new Counter([['a', 1]]));
const nested = new Map([[{ a: [1, 2] }, new Set([new Map([[1, { deep: { deeper: {} } }]])])]]);
console.log(nested);
console.log([new Set([1]), { s: new Set() }]);
// A Map used as a queue compacts its storage; a paused iterator keeps its place.
const queue = new Map();
for (let i = 0; i < 100; i++) queue.set(i, i);
const paused = queue.keys();
paused.next(); paused.next();
for (let i = 0; i < 90; i++) queue.delete(i < 2 ? i : i + 5);
console.log([...paused], queue.size);
const s2 = new Set([1, 2, 3]);
const sit = s2.values(); sit.next();
s2.clear(); for (let i = 0; i < 40; i++) { s2.add(i); s2.delete(i); } s2.add('after');
console.log([...sit]);
