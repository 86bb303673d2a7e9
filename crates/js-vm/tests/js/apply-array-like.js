// Function.prototype.apply and Reflect.apply over arrays and arguments
// objects: the dense fast path must give what CreateListFromArrayLike's
// [[Get]] per index gives (mapped parameters, holes read through the
// prototype, a changed or accessor length, getters on elements).
function show(...xs) { return JSON.stringify(xs.map((x) => (x === undefined ? "u" : x))); }

function mapped(a, b) { a = "A"; return show.apply(null, arguments); }
console.log("mapped", mapped(1, 2, 3));
function mappedDeleted(a, b) { delete arguments[0]; return show.apply(null, arguments); }
console.log("mapped deleted", mappedDeleted(1, 2));
function strict(a, b) { "use strict"; a = "A"; return show.apply(null, arguments); }
console.log("strict", strict(1, 2, 3));
function longer() { arguments.length = 4; return show.apply(null, arguments); }
console.log("longer", longer(1, 2));
function shorter() { arguments.length = 1; return show.apply(null, arguments); }
console.log("shorter", shorter(1, 2));
function fractional() { arguments.length = 1.5; return show.apply(null, arguments); }
console.log("fractional", fractional(1, 2));
function getterLength() {
  Object.defineProperty(arguments, "length", { get() { return 2; } });
  return show.apply(null, arguments);
}
console.log("getter length", getterLength(7, 8, 9));
function getterElement() {
  Object.defineProperty(arguments, "1", { get() { return "g"; } });
  return show.apply(null, arguments);
}
console.log("getter element", getterElement(7, 8, 9));
function grown() { arguments[3] = "x"; arguments.length = 4; return show.apply(null, arguments); }
console.log("grown", grown(1));

Array.prototype[1] = "proto";
console.log("hole", show.apply(null, [0, , 2]));
delete Array.prototype[1];
console.log("hole gone", show.apply(null, [0, , 2]));
const a = [1, 2, 3];
a.length = 5;
console.log("trailing holes", show.apply(null, a));
console.log("reflect", Reflect.apply(show, null, [4, 5]));
console.log("array-like", show.apply(null, { length: 2, 0: "p", 1: "q" }));

// The arguments objects' own properties, in order, with their attributes.
function describe() { return Reflect.ownKeys(arguments).map(String).join(); }
console.log("keys", describe(1, 2));
function describeStrict() { "use strict"; return Reflect.ownKeys(arguments).map(String).join(); }
console.log("strict keys", describeStrict(1));
function attrs() {
  const d = Object.getOwnPropertyDescriptors(arguments);
  return [d.length.writable, d.length.enumerable, d.callee.value === attrs, d[Symbol.iterator].value === [][Symbol.iterator]].join();
}
console.log("attrs", attrs(1));
function strictCallee() {
  "use strict";
  const d = Object.getOwnPropertyDescriptor(arguments, "callee");
  try { arguments.callee; } catch (e) { return [typeof d.get, d.get === d.set, d.enumerable, d.configurable, e.constructor.name].join(); }
}
console.log("strict callee", strictCallee());
function lengthInLoop() { let n = 0; for (let i = 0; i < 3; i++) n += arguments.length; return n; }
console.log("length ic", lengthInLoop(1, 2), lengthInLoop(), lengthInLoop(1, 2, 3, 4));

// Adding a property along a cached transition meets a setter or a
// read-only property added later to the prototype.
function P(v) { this.v = v; }
const seen = [];
for (let i = 0; i < 3; i++) {
  if (i === 1) Object.defineProperty(P.prototype, "v", { set(x) { seen.push(x); }, configurable: true });
  if (i === 2) Object.defineProperty(P.prototype, "v", { value: "ro", writable: false });
  const p = new P(i);
  seen.push(Object.hasOwn(p, "v") + ":" + p.v);
}
console.log("transition", seen.join());
