// The RegExp fast paths (a compiled program shared per source and flags,
// lastIndex in its slot, result arrays built in their final shape, the
// protocols skipping the intrinsic getters) must stay unobservable: each
// case below changes one thing a fast path assumes and prints what the
// spec's steps give.
"use strict";

// A literal in a loop: a new object each evaluation, sharing nothing
// observable.
const made = [];
for (let i = 0; i < 3; i++) made.push(/a(b)?/g);
console.log(made[0] === made[1], made[1].lastIndex, made[0].exec("xab").index, made[0].lastIndex, made[1].lastIndex);

// The same pattern with other flags is another program.
console.log(/k/.test("K"), /k/i.test("K"), new RegExp("k", "i").test("K"), new RegExp("k").test("K"));

// Match arrays: elements, then index, input, groups, in that order.
const m = /(\d+)-(\d+)?/.exec("on 12- we");
console.log(JSON.stringify(m), m.index, m.input, m.groups, Object.keys(m).join(","));
const named = /(?<year>\d{4})-(?<month>\d\d)/d.exec("x 2024-05");
console.log(JSON.stringify(named.groups), JSON.stringify(named.indices), JSON.stringify(named.indices.groups));
console.log(Object.getOwnPropertyNames(named).join(","));

// A user exec on the instance, and on the prototype.
const own = /a/g;
own.exec = function (s) {
  console.log("own exec", s);
  return null;
};
console.log(own.test("aaa"), "aaa".replace(own, "b"), "aaa".match(own));
const saved = RegExp.prototype.exec;
RegExp.prototype.exec = function (s) {
  console.log("proto exec", this.source, s);
  return saved.call(this, s);
};
console.log(/b/.test("abc"), "abab".replace(/b/g, "-"), JSON.stringify("abab".match(/b/g)));
RegExp.prototype.exec = saved;

// A flag getter that says something else. (An own `flags` property is
// tested in the engine's unit tests: node 20 still reads `global` there.)
const globalGetter = Object.getOwnPropertyDescriptor(RegExp.prototype, "global");
Object.defineProperty(RegExp.prototype, "global", {
  get() {
    console.log("global read");
    return false;
  },
  configurable: true,
});
console.log("aaa".replace(/a/g, "b"), /a/g.flags, JSON.stringify("a-a".split(/-/g)));
Object.defineProperty(RegExp.prototype, "global", globalGetter);
console.log("aaa".replace(/a/g, "b"), /a/gimsuyd.flags);

// lastIndex: an object (valueOf runs), non-writable, an accessor.
const li = /a/y;
li.lastIndex = {
  valueOf() {
    console.log("valueOf");
    return 1;
  },
};
console.log(li.test("ba"), li.lastIndex);
const frozen = /a/g;
Object.defineProperty(frozen, "lastIndex", { writable: false, value: 0 });
try {
  "aaa".replace(frozen, "b");
} catch (e) {
  console.log(e.constructor.name);
}
const sticky = /a/y;
sticky.lastIndex = 1;
console.log(sticky.exec("aab") !== null, sticky.lastIndex, sticky.exec("aab"), sticky.lastIndex);

// A replacer sees lastIndex and the legacy statics as they are after the
// last match, and is called once per match in order.
const rx = /(\w)(\d)?/g;
const out = "a1 b c3".replace(rx, function (match, p1, p2, offset, string) {
  return "[" + [match, p1, p2, offset, string.length, rx.lastIndex, RegExp.$1, RegExp.lastMatch].join("|") + "]";
});
console.log(out);
console.log("x-y-z".replace(/-/g, "$&$`$'$$"), "2024-05".replace(/(?<y>\d+)-(?<m>\d+)/, "$<m>/$<y> $2$1 $3 $0"));
console.log("aaa".replace(/a*/g, "X"), "abc".replace(/(?:)/g, "-"), "\u{1F600}x".replace(/(?:)/gu, "-"));
console.log("abc".replace(/b/, () => ({ toString: () => "B" })), "abc".replace(/z/g, "Q"));
console.log(JSON.stringify("a1b22c".match(/\d+/g)), "abc".match(/z/g), JSON.stringify("".match(/(?:)/g)));
console.log(JSON.stringify("aXbxc".split(/x/i)), JSON.stringify("a1b2c".split(/(\d)/, 3)), "abc".search(/c/));
console.log([..."a1b2".matchAll(/[a-z](\d)/g)].map((x) => x[1] + "@" + x.index).join(" "));

// Case-insensitive and unicode start positions.
console.log(/WORLD/i.exec("hello world").index, /\bfoo\b/.exec("a foo b").index, /é/.exec("caféé").index);
console.log(/^ba/.test("ba"), /^ba/.test("aba"), /^b/m.exec("a\nb").index, /(?<=a)b/.exec("cbab").index);
console.log(/\u{1F600}/u.exec("x\u{1F600}").index, /[^x]/u.exec("x\u{1F600}")[0].length, /[é]/i.exec("xÉ").index);
