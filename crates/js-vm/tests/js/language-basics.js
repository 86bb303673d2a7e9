function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
console.log("fib", fib(12));
let o = { a: 1, b: "two", c: [1, 2, 3], d: { e: null } };
console.log(o);
const xs = [];
for (let i = 0; i < 5; i++) xs.push(() => i);
console.log(xs.map(f => f()));
class A { constructor(x) { this.x = x; } get double() { return this.x * 2; } static make() { return new A(21); } }
class B extends A { constructor() { super(5); this.y = 1; } toString() { return `B(${this.x}, ${this.y})`; } }
console.log(A.make().double, String(new B()), new B());
try { null.x } catch (e) { console.log(e.message, e instanceof TypeError); }
let { a, ...rest } = o; console.log(a, rest);
const [p, , q = 9, ...r] = [1, 2, undefined, 4, 5]; console.log(p, q, r);
label: for (const x of [1,2,3]) { for (const y of [1,2]) { if (x == 2) continue label; if (x == 3) break label; console.log(x, y); } }
function f() { try { return 1; } finally { console.log("finally"); } }
console.log(f());
console.log(typeof undefinedVar, [1,2,3].indexOf(2), "abc".toUpperCase(), Math.max(1, 5, 3));
