// A tour of the core builtins; output compared with node.
const a = [5, 1, 4, 2, 3];
console.log(a.slice().sort(), a.toSorted((x, y) => y - x), a.indexOf(4), a.includes(9));
console.log(a.map(x => x * 2).filter(x => x > 4).reduce((s, x) => s + x, 0));
console.log([1, [2, [3, [4]]]].flat(Infinity), [[1, 2], [3]].flatMap(x => x));
console.log(Array.from("héllo"), Array.of(7, 8), [..."ab"].entries().next());
console.log(Object.entries({ x: 1, y: 2 }), Object.fromEntries([["a", 1]]), Object.keys("ab"));

console.log("Hello, World".split(", "), "abc".padStart(6, "-"), "x".repeat(3), " t ".trim());
console.log("ß→x".toUpperCase(), "ABC".toLowerCase(), "abcdef".slice(-3, -1), "abc".at(-1));
console.log("a-b-c".replaceAll("-", "+"), "aaa".replace("a", "$&$&"), "abc".codePointAt(1));
console.log(parseInt("0x1f"), parseFloat("3.14abc"), Number("  12  "), (255).toString(16), (0.1 + 0.2).toFixed(2));
console.log((1234.5678).toPrecision(6), (1e21).toString(), Number.MAX_SAFE_INTEGER, Number.isInteger(5.0));
console.log(Math.max(), Math.min(1, -0), Math.round(-2.5), Math.sign(-3), Math.hypot(3, 4), Math.trunc(-4.7));
console.log(String(Symbol("s")), Symbol.for("k") === Symbol.for("k"), Symbol.keyFor(Symbol.for("k")));
const e = new RangeError("bad", { cause: 42 }); console.log(e.name, e.message, e.cause, e instanceof Error);
console.log(Reflect.ownKeys({ b: 1, a: 2, 1: 3, [Symbol.toStringTag]: "T" }));
console.log(Object.getOwnPropertyDescriptor({ get x() { return 1; } }, "x"));
const frozen = Object.freeze({ q: 1 }); console.log(Object.isFrozen(frozen), Object.isSealed(frozen));
function f(a, b = 2, ...rest) { return [a, b, rest, arguments.length]; } console.log(f(1), f(1, undefined, 3, 4));
console.log(encodeURIComponent("a b&c/é"), decodeURIComponent("%E2%82%AC"), isNaN("x"), isFinite("12"));
const bound = function (x, y) { return [this.v, x, y]; }.bind({ v: 1 }, 2); console.log(bound(3), bound.name, bound.length);
console.log([3, 1, 2].toString(), String([1, [2, 3]]), `${[1, 2]}`, [] + {}, typeof null, typeof function () {});
