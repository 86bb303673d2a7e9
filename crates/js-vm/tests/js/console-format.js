// console.log formatting, compared with node byte for byte.
console.log(1, -0, 0, 1.5, 1e21, 1e-7, NaN, -Infinity);
console.log("str", ["a", 'b"', `c'"`], [[1, [2, [3, [4]]]]]);
console.log({}, [], { a: undefined, b: null, "key with space": true, 3: "x" });
console.log([1, , 3], new Array(5), [undefined, null]);
console.log(Array.from({ length: 30 }, (_, i) => i * 7));
console.log(Array.from({ length: 12 }, (_, i) => "item" + i));
console.log(function named() {}, () => 1, class K {}, class extends Object {});
console.log(new Boolean(true), new Number(3), new String("s"), Symbol("d"));
console.log({ f() {}, get g() { return 1; }, set s(v) {} });
console.log({ nested: { deeper: { deepest: { gone: 1 } } } });
const long = {}; for (let i = 0; i < 12; i++) long["property" + i] = i; console.log(long);
console.log(Object.create(null), [Symbol.iterator]);
