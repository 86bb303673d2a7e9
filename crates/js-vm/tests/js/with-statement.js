var o = { a: 1, f() { return this === o; } };
var a = "global";
with (o) { console.log(a, f()); a = 2; b = 3; }
console.log(o.a, typeof b, b);
function g(obj) { var x = "local"; with (obj) { return [x, typeof y]; } }
console.log(g({ x: "obj" }), g({}));
var arr = [1, 2]; with (arr) { console.log(length, typeof includes); }
var u = { k: 1, [Symbol.unscopables]: { k: true } }; var k = "outer"; with (u) { console.log(k); }
