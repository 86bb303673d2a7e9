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

// RegExp(pattern) with a RegExp-like pattern: the `source` while the
// `flags` getter runs.
const regexpLike = {
  [Symbol.match]: true,
  get source() { return 'a' + 'b+'.repeat(1); },
  get flags() { churn(); return 'g'; },
};
console.log('RegExp', String(RegExp(regexpLike, undefined)), new RegExp(regexpLike).test('xabbb'));

// RegExp.prototype[@@replace]: the matched text (passed to the replacer)
// while the result's `index` getter and captures' `toString` run.
const fakeResult = (text) => ({
  length: 2,
  get 0() { return { toString() { return text.split('').join(''); } }; },
  get 1() { return { toString() { churn(); return 'cap'; } }; },
  get index() { churn(); return 1; },
});
const replacing = { flags: '', exec() { return fakeResult('xyz'); } };
console.log('@@replace', RegExp.prototype[Symbol.replace].call(replacing, 'abcdef', (m, c, i) => `[${m}|${c}|${i}]`));

// RegExp.prototype[@@search]: the exec result while `lastIndex` is
// restored, and the previous `lastIndex` object while `exec` runs.
const searching = {
  get lastIndex() { churn(); return this.li; },
  set lastIndex(v) { churn(); this.li = v; },
  li: { valueOf() { return 0; }, tag: 'previous' },
  exec() { churn(); return { get index() { return 42; } }; },
};
console.log('@@search', RegExp.prototype[Symbol.search].call(searching, 'text'), searching.li.tag);

// %RegExpStringIteratorPrototype%.next: the match while its `toString`
// and the `lastIndex` getter run (a species constructor makes the matcher).
class MatcherRegExp extends RegExp {
  static get [Symbol.species]() { return MatcherRegExp; }
  exec(s) {
    this.calls = (this.calls ?? 0) + 1;
    if (this.calls > 2) return null;
    return { 0: { toString() { churn(); return ''; } }, tag: 'm' + this.calls };
  }
}
const iterated = [];
for (const m of 'abc'.matchAll(new MatcherRegExp('x', 'g'))) iterated.push(m.tag);
console.log('matchAll', iterated.join());

// RegExp.prototype[@@split]: a match object while `lastIndex`'s
// `valueOf` runs (a species constructor makes the splitter).
class SplitterRegExp extends RegExp {
  static get [Symbol.species]() { return SplitterRegExp; }
  exec(s) {
    const r = super.exec(s);
    if (r === null) return null;
    const end = this.lastIndex;
    this.lastIndex = { valueOf() { churn(); return end; } };
    return { length: 2, 0: r[0], 1: { v: 'capture' + r.index }, index: r.index };
  }
}
console.log('@@split', 'a,b,c'.split(new SplitterRegExp(',')).map((x) => (typeof x === 'string' ? x : x.v)).join('|'));

// Error.prototype.toString: the name while the message getter runs.
const errorLike = {
  get name() { return { toString() { return 'Na' + 'me'.repeat(2); } }; },
  get message() { churn(); return 'msg'; },
};
console.log('Error#toString', Error.prototype.toString.call(errorLike));

// process.hrtime(previous): the seconds while the nanoseconds' getter runs.
const previousTime = [];
Object.defineProperty(previousTime, 0, { get() { return { valueOf() { return -1e6; } }; } });
Object.defineProperty(previousTime, 1, { get() { churn(); return 0; } });
console.log('hrtime', process.hrtime(previousTime)[0] > 1e5);

// new String(value) with a proxy new.target: the string while the
// `prototype` trap runs.
const newTarget = new Proxy(function () {}, { get(t, k) { churn(); return k === 'prototype' ? String.prototype : t[k]; } });
const boxed = Reflect.construct(String, [{ toString() { return 'bo' + 'x'.repeat(3); } }], newTarget);
console.log('new String', String(boxed), boxed.length);

// (The Set methods' case is a unit test in `set_methods.rs`: Node 20 has
// no Set methods.)
