// Proxy exotic objects: trap calls, invariants, revocation, callable and
// constructable proxies, and the operations that look through proxies.

const log = [];
function logged(target) {
  const handler = {};
  for (const trap of ["get", "set", "has", "deleteProperty", "ownKeys", "getOwnPropertyDescriptor",
    "defineProperty", "getPrototypeOf", "setPrototypeOf", "isExtensible", "preventExtensions",
    "apply", "construct"]) {
    handler[trap] = function (...args) {
      const shown = args.slice(1).map((a) =>
        typeof a === "symbol" ? a.toString() : typeof a === "object" && a !== null ? "obj" :
          typeof a === "function" ? "fn" : String(a));
      log.push(trap + "(" + shown.join(",") + ")");
      return Reflect[trap](...args);
    };
  }
  return new Proxy(target, handler);
}
function flush(label) {
  console.log(label + ": " + log.join(" "));
  log.length = 0;
}
function errorName(f) {
  try {
    f();
    return "no error";
  } catch (e) {
    return e.constructor.name;
  }
}

// Property access through every trap.
const p = logged({ a: 1, b: 2 });
console.log(p.a, p.missing);
flush("get");
p.c = 3;
flush("set");
console.log("a" in p, "zz" in p);
flush("has");
console.log(delete p.a, Object.keys(p).join());
flush("delete+keys");
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(p, "b")));
flush("gOPD");
Object.defineProperty(p, "d", { value: 4, configurable: true });
flush("defineProperty");
console.log(Object.getPrototypeOf(p) === Object.prototype, Object.isExtensible(p));
flush("proto+ext");
Object.preventExtensions(p);
flush("preventExtensions");
const forIn = [];
for (const k in logged({ x: 1, y: 2 })) forIn.push(k);
console.log(forIn.join());
flush("for-in");
const spread = { ...logged({ s: 1, t: 2 }) };
console.log(JSON.stringify(spread));
flush("spread");
const { s, ...rest } = logged({ s: 1, t: 2, u: 3 });
console.log(s, JSON.stringify(rest));
flush("rest");
console.log(Object.entries(logged({ e: 5 })).join());
flush("entries");
console.log(JSON.stringify(Object.assign({}, logged({ f: 6 }))));
flush("assign");
Object.setPrototypeOf(logged({}), null);
flush("setPrototypeOf");
console.log(({}) instanceof Object, logged({}) instanceof Object);
flush("instanceof");

// Receivers: a proxy on the prototype chain sees the original receiver.
const child = Object.create(logged({ inherited: "yes" }));
console.log(child.inherited, "inherited" in child);
child.own = 1;
flush("prototype chain");

// Callable and constructable proxies.
function Point(x, y) {
  this.x = x;
  this.y = y;
}
const P = logged(Point);
console.log(typeof P, typeof logged({}));
const pt = new P(1, 2);
console.log(pt.x, pt.y, pt instanceof Point);
flush("construct");
const add = logged((a, b) => a + b);
console.log(add(2, 3), add.call(null, 4, 5), add.apply(null, [6, 7]), Reflect.apply(add, null, [1, 1]));
flush("apply");
console.log(errorName(() => new (new Proxy(() => 1, {}))()), errorName(() => new Proxy({}, {})()));
console.log(errorName(() => Proxy({}, {})), errorName(() => new Proxy(1, {})), errorName(() => new Proxy({}, null)));
const bound = P.bind(null, 10);
console.log(new bound(20).y, bound.name, bound.length);
log.length = 0;

// Traps that change behaviour.
const defaults = new Proxy({}, { get: (t, k) => (k in t ? t[k] : "default:" + String(k)) });
console.log(defaults.anything, defaults[5]);
const hidden = new Proxy({ public: 1, _secret: 2 }, {
  has: (t, k) => !k.startsWith("_") && k in t,
  ownKeys: (t) => Reflect.ownKeys(t).filter((k) => !k.startsWith("_")),
});
console.log("_secret" in hidden, Object.keys(hidden).join(), JSON.stringify(hidden));
const validator = new Proxy({}, {
  set(t, k, v) {
    if (typeof v !== "number") return false;
    t[k] = v;
    return true;
  },
});
validator.n = 1;
validator.s = "no";
console.log(JSON.stringify(validator));
console.log(errorName(() => { "use strict"; validator.s = "no"; }));

// Invariants: each broken one is a TypeError.
const frozen = Object.freeze({ k: 1 });
const sealedGetter = {};
Object.defineProperty(sealedGetter, "g", { set() {}, configurable: false });
const nonExt = Object.preventExtensions({ k: 1 });
console.log([
  errorName(() => new Proxy(frozen, { get: () => 2 }).k),
  errorName(() => new Proxy(sealedGetter, { get: () => 2 }).g),
  errorName(() => { new Proxy(frozen, { set: () => true }).k = 5; }),
  errorName(() => "k" in new Proxy(frozen, { has: () => false })),
  errorName(() => delete new Proxy(frozen, { deleteProperty: () => true }).k),
  errorName(() => Object.keys(new Proxy(frozen, { ownKeys: () => [] }))),
  errorName(() => Object.keys(new Proxy({}, { ownKeys: () => ["a", "a"] }))),
  errorName(() => Object.keys(new Proxy({}, { ownKeys: () => [1] }))),
  errorName(() => Object.keys(new Proxy(nonExt, { ownKeys: () => ["k", "extra"] }))),
  errorName(() => Object.getOwnPropertyDescriptor(new Proxy(frozen, { getOwnPropertyDescriptor: () => undefined }), "k")),
  errorName(() => Object.getOwnPropertyDescriptor(new Proxy({}, { getOwnPropertyDescriptor: () => ({ value: 1, configurable: false }) }), "k")),
  errorName(() => Object.defineProperty(new Proxy(nonExt, { defineProperty: () => true }), "new", { value: 1 })),
  errorName(() => Object.getPrototypeOf(new Proxy({}, { getPrototypeOf: () => 1 }))),
  errorName(() => Object.getPrototypeOf(new Proxy(nonExt, { getPrototypeOf: () => Array.prototype }))),
  errorName(() => Object.setPrototypeOf(new Proxy(nonExt, { setPrototypeOf: () => true }), null)),
  errorName(() => Object.isExtensible(new Proxy({}, { isExtensible: () => false }))),
  errorName(() => Object.preventExtensions(new Proxy({}, { preventExtensions: () => true }))),
  errorName(() => new (new Proxy(function () {}, { construct: () => 1 }))()),
  errorName(() => new Proxy({}, { get: 5 }).x),
].join(" "));
console.log(Reflect.defineProperty(new Proxy({}, { defineProperty: () => false }), "x", { value: 1 }),
  Reflect.set(new Proxy({}, { set: () => false }), "x", 1),
  Reflect.deleteProperty(new Proxy({}, { deleteProperty: () => false }), "x"),
  Reflect.preventExtensions(new Proxy({}, { preventExtensions: () => false })),
  errorName(() => Object.preventExtensions(new Proxy({}, { preventExtensions: () => false }))),
  errorName(() => Object.freeze(new Proxy({}, { preventExtensions: () => false }))));

// Revocation.
const { proxy: revocableProxy, revoke } = Proxy.revocable({ r: 1 }, {});
console.log(revocableProxy.r, typeof revoke, revoke.length, JSON.stringify(revoke.name));
console.log(revoke(), revoke());
console.log([
  errorName(() => revocableProxy.r),
  errorName(() => { revocableProxy.r = 2; }),
  errorName(() => "r" in revocableProxy),
  errorName(() => Object.keys(revocableProxy)),
  errorName(() => Array.isArray(revocableProxy)),
  errorName(() => Object.prototype.toString.call(revocableProxy)),
  errorName(() => Object.getPrototypeOf(revocableProxy)),
  errorName(() => new Proxy(revocableProxy, {})),
].join(" "));
const revocableFn = Proxy.revocable(function () {}, {});
revocableFn.revoke();
console.log(typeof revocableFn.proxy, errorName(() => revocableFn.proxy()));
const selfRevoking = Proxy.revocable({ v: 7 }, {
  get(t, k) {
    selfRevoking.revoke();
    return t[k];
  },
});
console.log(selfRevoking.proxy.v, errorName(() => selfRevoking.proxy.v));

// IsArray and friends see through proxies.
const arrayProxy = new Proxy([1, 2, 3], {});
console.log(Array.isArray(arrayProxy), Array.isArray(new Proxy({}, {})), Array.isArray(new Proxy(arrayProxy, {})));
console.log(Object.prototype.toString.call(arrayProxy), Object.prototype.toString.call(new Proxy(function () {}, {})),
  Object.prototype.toString.call(new Proxy(new Date(0), {})));
console.log(JSON.stringify(arrayProxy), JSON.stringify({ list: new Proxy([1, { a: 2 }], {}) }));
console.log([0].concat(arrayProxy).join(), [...arrayProxy].join(), arrayProxy.map((x) => x * 2).join());
console.log(JSON.stringify([[1, [2]], new Proxy([3, [4]], {})].flat(2)));

// Reflect over proxies.
const target = { x: 1 };
const reflected = new Proxy(target, {});
console.log(Reflect.get(reflected, "x"), Reflect.set(reflected, "y", 2), target.y, Reflect.has(reflected, "y"),
  Reflect.ownKeys(reflected).join(), Reflect.getPrototypeOf(reflected) === Object.prototype,
  Reflect.isExtensible(reflected), Reflect.deleteProperty(reflected, "y"), "y" in target);
const receiverLog = [];
const receiverProxy = new Proxy({}, {
  get(t, k, r) {
    receiverLog.push(r === receiverTarget);
    return 1;
  },
});
const receiverTarget = {};
Reflect.get(receiverProxy, "k", receiverTarget);
console.log(receiverLog.join());

// with-statement bindings go through the has trap (how often is left out:
// Node asks fewer times than the specification).
var shadowed = "outer";
const scope = new Proxy({ w: 1, shadowed: "inner" }, { has: (t, k) => k !== "shadowed" && k in t });
with (scope) {
  w = w + 1;
  console.log(shadowed);
}
console.log(scope.w);

// A proxy prints as its target; a revoked one as <Revoked Proxy>.
console.log(new Proxy({ shown: 1 }, { get: () => "trap" }), new Proxy([1, 2], {}), revocableProxy);
