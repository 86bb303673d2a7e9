function f(a) { let x = 1; const c = 2; var v = 3; eval("x = x + a; v++"); return [x, v, eval("c + x"), eval("arguments.length"), eval("typeof a")]; }
console.log(f(10));
function g() { let y = 5; return eval("(() => y * 2)()"); }
console.log(g());
function h() { "use strict"; let z = 1; eval("var w = z + 1"); return typeof w; }
console.log(h());
function k() { const q = 1; try { eval("q = 2"); } catch (e) { return e.constructor.name; } }
console.log(k());
var gl = 1; console.log(eval("gl + 1"), (function () { return eval("this"); }).call({ t: 1 }));
function n() { let a = 1; return eval("let a = 2; eval('a + 10')"); } console.log(n());
