function f(a, b) { arguments[0] = 10; b = 20; return [a, arguments[1], arguments.length, arguments.callee === f]; }
console.log(f(1, 2), f(1));
function g(a) { "use strict"; arguments[0] = 5; return a; }
console.log(g(1));
function h(a) { delete arguments[0]; arguments[0] = 7; return a; }
console.log(h(1));
function k(a, a) { arguments[1] = 9; return a; }
console.log(k(1, 2));
function m(a) { Object.defineProperty(arguments, "0", { value: 3, writable: false }); a = 4; return [a, arguments[0]]; }
console.log(m(1), Object.prototype.toString.call((function () { return arguments; })()));
function n(x) { var inner = () => arguments[0]; x = 8; return inner(); }
console.log(n(1));
