function* g(a) { const x = yield a; try { yield x * 2; } finally { console.log("cleanup"); } return 9; }
const it = g(1);
console.log(it.next(), it.next(5), it.return(7), it.next());
function* inner() { yield 1; yield 2; return "r"; }
function* outer() { const r = yield* inner(); yield r; yield* [10, 20]; }
console.log([...outer()]);
const o = { *m() { yield* "ab"; } }; console.log(Array.from(o.m()));
class C { static *range(n) { for (let i = 0; i < n; i++) yield i; } }
for (const v of C.range(3)) console.log(v);
function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }
const f = fib(); const first = []; for (const v of f) { if (v > 50) break; first.push(v); } console.log(first, f.next());
const t = g(0); t.next(); try { t.throw(new Error("boom")); } catch (e) { console.log("caught", e.message); }
console.log(Object.getPrototypeOf(g) === Object.getPrototypeOf(function*(){}), typeof g.prototype, g.prototype.constructor === undefined);
