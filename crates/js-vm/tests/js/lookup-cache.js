// Property reads stay right while the lookup cache and inline caches
// remember where a key was found: each case reads the same key at the same
// site before and after changing something on the receiver's prototype
// chain. Runs unchanged on node.
"use strict";

function read(o) {
  return o.key;
}
function readThen(o) {
  return o.then;
}

function show(label, f) {
  const seen = [];
  for (let i = 0; i < 3; i++) seen.push(String(f()));
  console.log(label, seen.join(" "));
}

// A property found on the prototype, then shadowed by an own property.
{
  const proto = { key: "proto" };
  const o = Object.create(proto);
  show("proto", () => read(o));
  o.key = "own";
  show("shadowed", () => read(o));
}

// A property added to the prototype of an object that missed it before.
{
  const proto = {};
  const o = Object.create(proto);
  show("absent", () => read(o));
  proto.key = "added";
  show("added to proto", () => read(o));
  Object.prototype.key = "object";
  const bare = {};
  show("added to Object.prototype", () => read(bare));
  delete Object.prototype.key;
  show("deleted from Object.prototype", () => read(bare));
}

// A value changed in place, an attribute change, a delete on the holder.
{
  const proto = { key: 1 };
  const o = Object.create(proto);
  show("before write", () => read(o));
  proto.key = 2;
  show("written", () => read(o));
  Object.defineProperty(proto, "key", { value: 3, writable: false });
  show("redefined", () => read(o));
  delete proto.key;
  show("deleted", () => read(o));
}

// The chain itself changes: setPrototypeOf on the receiver and on a
// prototype in the middle.
{
  const a = { key: "a" };
  const b = { key: "b" };
  const middle = Object.create(a);
  const o = Object.create(middle);
  show("through middle", () => read(o));
  Object.setPrototypeOf(middle, b);
  show("middle re-parented", () => read(o));
  Object.setPrototypeOf(o, a);
  show("receiver re-parented", () => read(o));
  Object.setPrototypeOf(o, null);
  show("null prototype", () => read(o));
}

// Getters on the prototype see their receiver; replacing the getter is seen.
{
  class Base {
    constructor(n) {
      this.n = n;
    }
    get key() {
      return "get " + this.n;
    }
  }
  class Derived extends Base {}
  const objects = [new Derived(1), new Derived(2), new Base(3)];
  show("getter", () => objects.map(read).join(","));
  Object.defineProperty(Base.prototype, "key", { get() { return "new " + this.n; }, configurable: true });
  show("getter replaced", () => objects.map(read).join(","));
  Object.defineProperty(Derived.prototype, "key", { value: "data", configurable: true });
  show("shadowed in Derived", () => objects.map(read).join(","));
}

// Methods on a class prototype (what an instruction's inline cache keeps):
// replaced, joined by another property, shadowed, and a re-parented
// instance of the same shape.
{
  class Point {
    constructor(x) {
      this.x = x;
    }
    key() {
      return "key " + this.x;
    }
  }
  const call = (p) => p.key();
  const points = [new Point(1), new Point(2)];
  show("method", () => points.map(call).join(","));
  Point.prototype.key = function () {
    return "replaced " + this.x;
  };
  show("method replaced", () => points.map(call).join(","));
  Point.prototype.other = 1;
  show("prototype grew", () => points.map(call).join(","));
  points[1].key = () => "own";
  show("shadowed on one", () => points.map(call).join(","));
  const stranger = new Point(3);
  Object.setPrototypeOf(stranger, { key: () => "other prototype" });
  show("same shape, other prototype", () => [points[0], stranger].map(call).join(","));
}

// Same shape, different prototypes.
{
  const p1 = { key: "p1" };
  const p2 = { key: "p2" };
  const objects = [Object.create(p1), Object.create(p2), Object.create(p1)];
  show("two prototypes", () => objects.map(read).join(","));
}

// Exotic receivers and prototypes: proxies, arrays, typed arrays, strings.
{
  const proxy = new Proxy({}, { get: (t, k) => "trap " + String(k) });
  const plain = {};
  show("plain then proxy", () => [plain, proxy, plain].map(readThen).join(","));
  const viaProxy = Object.create(proxy);
  show("proxy as prototype", () => read(viaProxy));
  const arr = [1, 2];
  Array.prototype.key = "array proto";
  show("array", () => read(arr));
  delete Array.prototype.key;
  show("array after delete", () => read(arr));
  const ta = new Uint8Array(2);
  Object.prototype.Infinity = "object";
  show("typed array Infinity", () => ta.Infinity);
  show("plain Infinity", () => ({}).Infinity);
  delete Object.prototype.Infinity;
  show("string length", () => "abc".length);
  show("String object length", () => new String("abcd").length);
}

// Promise resolution looks `then` up on every resolution value.
{
  const log = [];
  const value = { n: 1 };
  Promise.resolve(value).then((v) => log.push("plain " + (v === value)));
  const proto = {};
  const thenable = Object.create(proto);
  Promise.resolve(thenable).then(() => log.push("before then"));
  proto.then = (resolve) => resolve("via proto then");
  Promise.resolve(thenable).then((v) => log.push(v));
  // `constructor` decides whether `await` adopts a promise directly.
  const p = Promise.resolve("awaited");
  (async () => {
    log.push(await p);
    Object.defineProperty(p, "constructor", { get() { log.push("constructor read"); return Promise; } });
    log.push(await p);
  })();
  setTimeout(() => console.log(log.join("\n")), 0);
}

// Assignments that add a property the prototype declares: a writable
// default is shadowed, a read-only one or a setter stops the add — also
// once the chain's answer is cached, and after the prototype changes.
function Point(x) { this.x = x; this.label = "p" + x; }
Point.prototype.x = 0;
Point.prototype.label = "none";
const points = [];
for (let i = 0; i < 5; i++) points.push(new Point(i));
console.log(points.map((p) => p.x + ":" + Object.hasOwn(p, "x")).join(" "), Point.prototype.x);
Object.defineProperty(Point.prototype, "label", { value: "fixed", writable: false });
const frozenLabel = [];
for (let i = 0; i < 3; i++) {
  try {
    new Point(i);
  } catch (e) {
    frozenLabel.push(e.constructor.name);
  }
}
// Sloppy code: the same add fails silently.
const SloppyPoint = Function("x", "this.label = x;");
SloppyPoint.prototype = Point.prototype;
for (let i = 0; i < 3; i++) frozenLabel.push(new SloppyPoint(i).label);
console.log(frozenLabel.join(" "));
Object.defineProperty(Point.prototype, "label", { value: "open", writable: true });
let setterCalls = 0;
Object.defineProperty(Point.prototype, "x", { set(v) { setterCalls++; }, get() { return -1; }, configurable: true });
const viaSetter = [];
for (let i = 0; i < 3; i++) { const p = new Point(i); viaSetter.push(p.x + ":" + Object.hasOwn(p, "x")); }
console.log(viaSetter.join(" "), setterCalls);
