// Builtins that hold values in native code while user code runs (getters,
// traps, `toString`, callbacks, constructors) must keep them alive: that
// code allocates and may collect. Under `--gc-stress` every call is a
// collection, so a value held only by a native local would be freed (and
// poisoned) before the builtin uses it. Each case makes fresh values that
// nothing else holds and allocates in between.

function churn() {
  const garbage = [];
  for (let i = 0; i < 100; i++) garbage.push({ i });
  return garbage.length;
}

// Array.prototype.toReversed / with: the elements read so far.
const getters = {
  length: 3,
  get 0() { churn(); return { a: 'zero' }; },
  get 1() { churn(); return { a: 'one' }; },
  get 2() { churn(); return { a: 'two' }; },
};
console.log('toReversed', Array.prototype.toReversed.call(getters).map((x) => x.a).join());
console.log('with', Array.prototype.with.call(getters, 1, 'X').map((x) => x.a ?? x).join());

// Array.prototype.pop: the popped value while the `length` setter runs.
const popped = Array.prototype.pop.call({
  get length() { return 2; },
  set length(v) { churn(); },
  get 1() { return { a: 'popped' }; },
});
console.log('pop', popped.a);

// Array.prototype.join: the separator made by `toString` while the
// elements' `toString`s run.
const elements = [1, 2, 3].map((n) => ({ toString() { churn(); return 'e' + n; } }));
console.log('join', elements.join({ toString() { return '<' + '-'.repeat(3) + '>'; } }));

// Array.prototype.reverse: the lower element while the upper one's getter runs.
const toReverse = {
  length: 2,
  get 0() { return { a: 'low' }; },
  set 0(v) { this.r0 = v; },
  get 1() { churn(); return { a: 'high' }; },
  set 1(v) { this.r1 = v; },
};
Array.prototype.reverse.call(toReverse);
console.log('reverse', toReverse.r0.a, toReverse.r1.a);

// Array.prototype.sort without a comparator: one side's string while the
// other side's `toString` runs.
const words = ['delta', 'alpha', 'charlie', 'bravo'].map((w) => ({
  toString() { churn(); return w.split('').join(''); },
}));
console.log('sort', words.sort().map(String).join());

// Array.prototype.reduce without an initial value: the first element while
// a `has` trap runs.
const reduceTarget = { length: 2, get 0() { return { a: 'first' }; }, 1: 'second' };
const reduceProxy = new Proxy(reduceTarget, { has(t, k) { churn(); return k in t; } });
console.log('reduce', Array.prototype.reduce.call(reduceProxy, (acc, v) => acc.a + '+' + v));

// Array.prototype.flat / flatMap: a nested array (a proxy here) while its
// `has` trap runs.
const nested = () =>
  new Proxy([{ a: 'n0' }, { a: 'n1' }], { has(t, k) { churn(); return Reflect.has(t, k); } });
console.log('flatMap', [1, 2].flatMap(() => nested()).map((x) => x.a).join());
console.log('flat', [{ get 0() { return nested(); }, length: 1 }].flatMap((o) => [o[0]]).flat().map((x) => x.a).join());

// Array.from: an `@@iterator` method made by a getter while the `this`
// constructor runs.
function Collector() { churn(); }
const fromResult = Array.from.call(Collector, {
  get [Symbol.iterator]() { return function* () { yield 'i0'; yield 'i1'; }; },
});
console.log('Array.from', fromResult instanceof Collector, fromResult[0], fromResult[1], fromResult.length);

// Object.fromEntries: the key while the value's getter runs, the value
// while the key's `toString` runs.
const fromEntries = Object.fromEntries([
  { get 0() { return 'k' + 'ey'.repeat(2); }, get 1() { churn(); return { v: 'one' }; } },
  { get 0() { return { toString() { churn(); return 'second'; } }; }, get 1() { return { v: 'two' }; } },
]);
console.log('fromEntries', JSON.stringify(fromEntries));

// Map and WeakMap constructors: an adder made by a getter, and each
// entry's key while its value's getter runs.
const keyObject = { name: 'wk' };
class LoggingMap extends Map {
  get set() {
    const log = (this.log ??= []);
    return function (k, v) { log.push(String(k.a ?? k.name) + '=' + v.b); };
  }
}
const entry = (k) => ({ get 0() { return k; }, get 1() { churn(); return { b: 'val' }; } });
const loggingMap = new LoggingMap([entry({ a: 'k1' }), entry({ a: 'k2' })]);
console.log('Map', loggingMap.log.join());
const plainMap = new Map([{ get 0() { return { a: 'mk' }; }, get 1() { churn(); return 'mv'; } }]);
console.log('Map key', [...plainMap.keys()][0].a, plainMap.size);
class LoggingWeakMap extends WeakMap {
  get set() {
    const log = (this.log ??= []);
    return function (k, v) { log.push(k.name + '=' + v.b); };
  }
}
console.log('WeakMap', new LoggingWeakMap([entry(keyObject)]).log.join());

// Function.prototype.apply, Reflect.apply, Reflect.construct: the argument
// list read from an array-like.
const argsLike = () => ({
  length: 3,
  get 0() { return { a: 'p' }; },
  get 1() { churn(); return { a: 'q' }; },
  get 2() { churn(); return { a: 'r' }; },
});
function joinArgs(...xs) { return xs.map((x) => x.a).join(''); }
console.log('apply', joinArgs.apply(null, argsLike()));
console.log('Reflect.apply', Reflect.apply(joinArgs, null, argsLike()));
function Built(...xs) { this.text = joinArgs(...xs); }
console.log('Reflect.construct', Reflect.construct(Built, argsLike()).text);

// Object.defineProperty / Reflect.defineProperty: a key made by `toString`
// while the descriptor's getters run.
const freshKey = (name) => ({ toString() { return name + '_' + 'k'.repeat(3); } });
const descriptor = { get value() { churn(); return 'dv'; }, get enumerable() { churn(); return true; } };
const defined = {};
Object.defineProperty(defined, freshKey('obj'), descriptor);
Reflect.defineProperty(defined, freshKey('reflect'), descriptor);
console.log('defineProperty', JSON.stringify(defined));

// (The Set methods' case is a unit test in `set_methods.rs`: Node 20 has
// no Set methods.)
