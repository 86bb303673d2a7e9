var o = { a: 1, f() { return this === o; } };
var a = "global";
with (o) { console.log(a, f()); a = 2; b = 3; }
console.log(o.a, typeof b, b);
function g(obj) { var x = "local"; with (obj) { return [x, typeof y]; } }
console.log(g({ x: "obj" }), g({}));
var arr = [1, 2]; with (arr) { console.log(length, typeof includes); }
var u = { k: 1, [Symbol.unscopables]: { k: true } }; var k = "outer"; with (u) { console.log(k); }

// Closures made inside a `with` body see its object; each run of the body
// has its own.
var shared = { x: 1, y: 10 };
var x = 'global';
with (shared) {
  var readX = function () { return x; };
  var readXPlusOne = () => x + 1;
  x += 5;
  y *= 2;
}
console.log(readX(), readXPlusOne(), shared.x, shared.y, x);
var perRun = [];
for (var i = 0; i < 3; i++) with ({ v: i }) { perRun.push(() => v); }
console.log(perRun.map((f) => f()).join());
with (shared) { (function () { x = 42; })(); }
console.log(shared.x, x);
with ({ a: 1 }) { with ({ b: 2 }) { console.log((() => a + b)()); } }

// Bindings declared inside the body are not looked up on the object; a
// `var` initialiser assigns through it.
with ({ inner: 'object', y: 1 }) {
  let inner = 'let';
  var y = 2;
  console.log(inner, y);
}
console.log(typeof y, y);
with ({ q: 5 }) { console.log(typeof q, typeof notThere, delete q, typeof q); }
var method = { m() { return this === method; } };
with (method) { console.log(m(), (() => m())()); }
