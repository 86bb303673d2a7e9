// Annex B web-legacy built-ins, ES2023 Array.prototype.toSpliced and
// Function.prototype.toString of methods: what node prints.

// escape / unescape (B.2.1)
console.log(escape("abc XYZ 019 @*_+-./ ~!é\u0100\ud83d\ude00"));
console.log(unescape("%41%u0042%zz%u00"), unescape("%4"), unescape("%%u12x"), unescape(escape("ünï©ødé \u2028")) === "ünï©ødé \u2028");
console.log(escape.length, unescape.length, typeof escape(), escape(null), unescape(12));

// String.prototype HTML methods (B.2.2)
const s = "t";
console.log(s.anchor('a"b'), s.big(), s.blink(), s.bold(), s.fixed());
console.log(s.fontcolor("red"), s.fontsize(7), s.italics(), s.link("u?a=\"1\""), s.small());
console.log(s.strike(), s.sub(), s.sup(), String.prototype.anchor.call(42), "x".anchor());
console.log(String.prototype.trimLeft === String.prototype.trimStart, String.prototype.trimRight === String.prototype.trimEnd);
console.log("abcdef".substr(-3, 2), "abcdef".substr(1), "abcdef".substr(2, -1), "abcdef".substr(NaN, 2));
try {
  String.prototype.bold.call(null);
} catch (e) {
  console.log(e instanceof TypeError);
}

// RegExp legacy statics, updated by a successful match only
/(\d+)-(\d+)(x)?/.exec("call 555-1234 now");
console.log(RegExp.$1, RegExp.$2, JSON.stringify(RegExp.$3), JSON.stringify(RegExp.$9));
console.log(RegExp.lastMatch, RegExp["$&"], JSON.stringify(RegExp.lastParen), RegExp.leftContext, RegExp.rightContext);
console.log(RegExp.input, RegExp.$_, RegExp["$`"], RegExp["$'"], RegExp["$+"]);
/nomatch/.exec("zzz");
console.log(RegExp.$1, RegExp.input);
"a1b22c333".replace(/(\d)(\d)*/g, "-");
console.log(RegExp.lastMatch, RegExp.$1, RegExp.$2, RegExp.leftContext);
RegExp.input = "changed";
console.log(RegExp.input, RegExp.$_, RegExp.lastMatch);
"xy".match(/(?<first>x)(y)/);
console.log(RegExp.$1, RegExp.$2, RegExp.lastParen);
const desc = Object.getOwnPropertyDescriptor(RegExp, "$1");
console.log(typeof desc.get, desc.enumerable, desc.configurable);

// RegExp.prototype.compile (B.2.4.1)
const re = /a/g;
re.lastIndex = 3;
console.log(re.compile("b+", "i") === re, re.source, re.flags, re.lastIndex, re.test("xBB"));
re.compile(/c/m);
console.log(String(re), re.compile().source, String(re.compile(undefined, "y")));
try {
  re.compile(/c/, "g");
} catch (e) {
  console.log(e.constructor.name);
}
try {
  re.compile("(", "");
} catch (e) {
  console.log(e.constructor.name);
}
console.log(RegExp.prototype.compile.length, RegExp.prototype.compile.name);

// Array.prototype.toSpliced (ES2023)
const arr = [1, 2, 3, 4, 5];
console.log(arr.toSpliced(1, 2, "a", "b", "c"), arr);
console.log(arr.toSpliced(), arr.toSpliced(2), arr.toSpliced(-2, 1), arr.toSpliced(1, -5, 0));
console.log([, 1].toSpliced(0, 0), Array.prototype[Symbol.unscopables].toSpliced);
console.log(Array.prototype.toSpliced.call({ length: 3, 0: "x", 2: "z" }, 1, 1, "y"));

// Math.round near 2^53
console.log(Math.round(-(2 / Number.EPSILON - 1)), Math.round(2 / Number.EPSILON - 1), Math.round(-2.5), Math.round(2.5));
console.log(Math.round(0.49999999999999994), Math.round(-0.5), Object.is(Math.round(-0.2), -0));

// Function.prototype.toString of methods, accessors and classes
const o = {
  f /* a */ () {},
  get /* b */ g() { return 1; },
  set h(v) {},
  async * i() {},
  ["j" + 1]() {},
};
console.log(o.f.toString(), "|", Object.getOwnPropertyDescriptor(o, "g").get.toString());
console.log(Object.getOwnPropertyDescriptor(o, "h").set.toString(), "|", o.i.toString(), "|", o.j1.toString());
class K {
  constructor(a) { this.a = a; }
  static /* s */ m() {}
  static get n() { return 2; }
  #p() {}
  q() { return this.#p; }
}
console.log(K.toString());
console.log(K.m.toString(), "|", Object.getOwnPropertyDescriptor(K, "n").get.toString(), "|", new K().q().toString());

// Object.fromEntries closes the iterator on a bad entry
let closed = 0;
const entries = {
  [Symbol.iterator]() {
    return { next: () => ({ value: 1, done: false }), return() { closed++; return {}; } };
  },
};
try {
  Object.fromEntries(entries);
} catch (e) {
  console.log(e.constructor.name, closed);
}

// String.prototype.replaceAll rejects a non-global RegExp first
try {
  "aa".replaceAll(/a/, "b");
} catch (e) {
  console.log(e.constructor.name, "aa".replaceAll(/a/g, "b"));
}

// Object.prototype's [[Prototype]] is immutable; array length checks come first
try {
  Object.setPrototypeOf(Object.prototype, {});
} catch (e) {
  console.log(e.constructor.name, Reflect.setPrototypeOf(Object.prototype, null));
}
try {
  Object.defineProperty([], "length", { value: -1, configurable: true });
} catch (e) {
  console.log(e.constructor.name);
}

// Final sigma in toLowerCase
console.log("ΌΣΟΣ ΣΑΣ. AΣ'Σ Σ AΣb A\u180EΣ".toLowerCase(), "ΣΑΣ".toLocaleLowerCase());
