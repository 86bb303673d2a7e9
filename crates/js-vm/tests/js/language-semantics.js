// Language semantics the compiler gets from the spec rather than from
// oxc's scope tree: class inner name bindings, parameter TDZ, Annex B.3.4
// catch-parameter redeclarations, literal keys with lone surrogates,
// completion values, destructuring iterator closing.

function outcome(f) {
  try {
    return "returned " + String(f());
  } catch (e) {
    return "threw " + e.constructor.name;
  }
}

// ---- a class's own name is an immutable binding inside its body ----
{
  class C {
    static f() { C = null; }
    static get() { return C; }
  }
  console.log("class decl assign:", outcome(() => C.f()));
  const D = class D { m() { D = 1; } n() { return typeof D; } };
  console.log("class expr assign:", outcome(() => new D().m()));
  console.log("class expr read:", new D().n());
  // The inner binding is separate from the outer one.
  class E { static inner() { return E; } }
  const saved = E;
  E = 42;
  console.log("inner independent:", saved.inner() === saved, E);
  // The heritage runs with the inner binding in its TDZ.
  console.log("heritage tdz:", outcome(() => { class F extends F {} }));
  console.log("computed key tdz:", outcome(() => { class G { [G]() {} } }));
  var probe;
  class H extends (probe = () => H, Object) {}
  console.log("heritage closure sees inner:", probe() === H);
  // Compound and update assignments are rejected too.
  class I { static inc() { I++; } static add() { I += 1; } }
  console.log("update:", outcome(() => I.inc()), outcome(() => I.add()));
  // Sloppy code outside still assigns the outer binding.
  class J {}
  J = "reassigned";
  console.log("outer assign:", J);
}

// ---- default parameters have a TDZ ----
console.log("ref later:", outcome(() => (function (a = b, b = 1) { return a; })()));
console.log("ref self:", outcome(() => (function (a = a) { return a; })()));
console.log("ref earlier:", outcome(() => (function (a = 1, b = a + 1) { return b; })()));
console.log("arrow ref later:", outcome(() => ((a = b, b) => a)()));
console.log("method ref self:", outcome(() => ({ m(x = x) { return x; } }).m()));
console.log("pattern ref later:", outcome(() => (function ({ p } = { p: q }, q) { return p; })()));
console.log("pattern ref earlier:", outcome(() => (function ({ p, r = p }) { return r; })({ p: 5 })));
console.log("passed value skips default:", outcome(() => (function (a = b, b) { return a; })(7)));
console.log("closure in default:", outcome(() => (function (a = () => b, b = 3) { return a(); })()));
console.log("rest tdz:", outcome(() => (function (a = r, ...r) { return a; })()));
(async function (a = b, b) {})().catch((e) => console.log("async ref later:", e.constructor.name));
(async (x = x) => x)().catch((e) => console.log("async arrow ref self:", e.constructor.name));

// ---- B.3.4: var redeclaring a catch parameter ----
function catchVar() {
  try { throw "p"; } catch (err) { var err = "x"; }
  return typeof err;
}
console.log("catch var:", catchVar());
function catchVarCaptured() {
  var read = function () { return err; };
  err = "before";
  try { throw new Error(); } catch (err) { var err = "in catch"; }
  return read();
}
console.log("catch var captured:", catchVarCaptured());
function catchVarInside() {
  var seen;
  try { throw "thrown"; } catch (err) { var err = "assigned"; seen = err; }
  return seen;
}
console.log("catch var inside:", catchVarInside());
function catchVarLater() {
  try { throw 1; } catch (e) { var e = 2; }
  var e = 3;
  return e;
}
console.log("catch var later:", catchVarLater());
function catchForIn() {
  try { throw "t"; } catch (k) { for (var k in { a: 1, b: 2 }) {} var last = k; }
  return [typeof k, last].join();
}
console.log("catch for-in:", catchForIn());

// ---- literal keys keep lone surrogates ----
console.log(JSON.stringify({ "\ud800": 1 }));
console.log(JSON.stringify(Object.keys({ "\udc00x": 1, "a\ud83d": 2 })));
console.log(JSON.stringify(Object.keys(class { static "\ud800"() {} static get "\udbff"() { return 1; } })));
{
  const o = { "\ud800": function () {}, "\udc01": () => 0, "\ud801"() {} };
  const names = Object.keys(o).map((k) => JSON.stringify(o[k].name));
  console.log("function names:", names.join(" "));
  class K { static "\ud802" = () => 0; "\ud803" = function () {}; }
  console.log("field names:", JSON.stringify(K["\ud802"].name), JSON.stringify(new K()["\ud803"].name));
  const { "\ud800": destructured } = { "\ud800": "found" };
  console.log("destructured:", destructured);
  let assigned;
  ({ "\ud800": assigned } = { "\ud800": "assigned" });
  console.log("assigned:", assigned);
  console.log("in:", "\ud800" in o, delete o["\ud800"], "\ud800" in o);
  console.log("json parse:", JSON.stringify(Object.keys(JSON.parse('{"\\ud800":1}'))));
  console.log("template:", JSON.stringify(`\ud800`), JSON.stringify(String.raw`\ud800`));
  console.log("private:", (class { static #f = () => 0; static n() { return this.#f.name; } }).n());
}

// ---- completion values ----
const completions = [
  "1; if (true) {}",
  "1; if (false) 2;",
  "1; while (false);",
  "1; do { 2; break; } while (false)",
  "1; do { 2; if (true) { break; } 3; } while (false)",
  "1; for (var i = 0; i < 2; i++) { if (i) { try {} finally { break; } } 'bad'; }",
  "1; for (var x of []) ;",
  "1; for (var y in {}) ;",
  "1; switch (1) { case 1: }",
  "1; switch (2) { default: case 1: 5; case 2: }",
  "1; try { 2; } finally { 3; }",
  "1; try { throw 0; } catch (e) { } finally { 4; }",
  "1; try { throw 0; } catch (e) { 5; } finally { 6; }",
  "1; try { 2; throw 0; } catch (e) { }",
  "99; do { -99; try { 39 } catch (e) { -1 } finally { 42; break; -2 }; } while (false);",
  "99; do { -99; try { 39 } catch (e) { -1 } finally { break; -2 }; } while (false);",
  "1; with ({}) {}",
  "1; l: { 2; break l; }",
];
for (const source of completions) {
  console.log(JSON.stringify(source), "=>", String(eval(source)));
}

// ---- for-in/of heads see their own bindings in the TDZ ----
console.log("for-of head tdz:", outcome(() => { let x = 1; for (let x of [x]) {} }));
console.log("for-in head tdz:", outcome(() => { let x = {}; for (const x in x) {} }));
{
  let probe;
  for (let z of (probe = () => typeof z, [1])) {}
  console.log("for-of head closure:", outcome(probe));
}

// ---- destructuring closes its iterator on abrupt exits ----
function tracked(values) {
  const log = [];
  const iterable = {
    [Symbol.iterator]() {
      let i = 0;
      return {
        next() { log.push("next"); return i < values.length ? { value: values[i++], done: false } : { done: true }; },
        return() { log.push("return"); return {}; },
      };
    },
  };
  return { log, iterable };
}
{
  const { log, iterable } = tracked([1, 2, 3]);
  const thrower = () => { throw new Error("target"); };
  console.log(outcome(() => { [{}[thrower()]] = iterable; }), log.join());
}
{
  const { log, iterable } = tracked([undefined, 2]);
  console.log(outcome(() => { const [a = (() => { throw new Error("default"); })()] = iterable; return a; }), log.join());
}
{
  const { log, iterable } = tracked([1]);
  console.log(outcome(() => { let a, b; [a, b] = iterable; return b; }), log.join());
}
{
  const { log, iterable } = tracked([1, 2]);
  function* g() { let a; [a = yield] = iterable; }
  const it = g();
  const { log: log2, iterable: it2 } = tracked([undefined]);
  function* h() { let a; [a = yield] = it2; }
  const it3 = h();
  it3.next();
  console.log("generator return closes:", JSON.stringify(it3.return(7)), log2.join());
  it.next();
  console.log("not closed while suspended:", log.join());
}
{
  // The target reference is evaluated before the iterator steps.
  const order = [];
  const target = { set q(v) { order.push("set " + v); } };
  const source = {
    [Symbol.iterator]() {
      return { next() { order.push("step"); return { value: 1, done: false }; }, return() { return {}; } };
    },
  };
  [(order.push("target"), target)[(order.push("key"), "q")]] = source;
  console.log("element order:", order.join());
  const order2 = [];
  const obj = { get p() { order2.push("get"); return 2; } };
  ({ p: (order2.push("target"), target)[(order2.push("key"), "q")] } = obj);
  console.log("property order:", order2.join());
}

// ---- super in arrow functions ----
{
  class Base { greet() { return "base"; } static make() { return "static base"; } }
  class Derived extends Base {
    greet() { return (() => super.greet() + "!")(); }
    static make() { const f = () => () => super.make(); return f()(); }
    field = (() => super.greet())();
  }
  console.log("super in arrow:", new Derived().greet(), Derived.make(), new Derived().field);
  const obj = { __proto__: { hi() { return "proto hi"; } }, hi() { return [1].map(() => super.hi())[0]; } };
  console.log("super in arrow of object method:", obj.hi());
}

// ---- class element definitions that cannot be made throw ----
console.log("static prototype method:", outcome(() => class { static ["prototype"]() {} }));
console.log("static prototype getter:", outcome(() => class { static get ["prototype"]() { return 1; } }));

// ---- template objects are made once per site and frozen ----
{
  const tag = (strings) => strings;
  const site = () => tag`a${1}b\u0041`;
  const first = site();
  const raw = Object.getOwnPropertyDescriptor(first, "raw");
  console.log("template cached:", first === site(), Object.isFrozen(first), Object.isFrozen(first.raw));
  console.log("raw descriptor:", raw.writable, raw.enumerable, raw.configurable, JSON.stringify(first.raw));
  console.log("other site:", first !== tag`a${1}b\u0041`, eval("tag`x`") !== eval("tag`x`"));
}

// ---- small reference forms ----
{
  const a = { b() { return this._b; }, _b: { c: 42 } };
  console.log("parenthesised chain call:", (a?.b)().c, (a?.b)?.().c, (a?.x)?.());
  console.log("typeof parenthesised:", typeof (undeclaredThing));
  (function () {
    console.log("arguments.callee:", typeof arguments.callee, delete arguments.callee, arguments.callee);
  })();
  var fn;
  (fn) = function () {};
  var named = function () {};
  console.log("parenthesised target names nothing:", JSON.stringify(fn.name), named.name);
  class B { get x() { return "bx"; } }
  class D extends B {
    constructor() {
      try { super[(() => { throw new Error("key"); })()]; } catch (e) { console.log("super key before this:", e.constructor.name); }
      super();
      console.log("super get:", super.x);
    }
    m() { delete super.x; }
  }
  console.log("delete super:", outcome(() => new D().m()));
  let probe;
  try { throw ["inside"]; } catch ([x, _ = (probe = function () { return x; })]) {}
  console.log("catch parameter default closure:", probe());
  console.log("for-in var initializer:", eval("for (var q = 5 in {}); q"));
}

// ---- every non-arrow function has its own `arguments` ----
{
  function shadowed() { var arguments = undefined; return (function () { return arguments.length; })(1, 2); }
  function deleted() { return delete arguments; }
  function parameter(arguments) { return [arguments, (function () { return arguments.length; })()].join(); }
  console.log("own arguments:", shadowed(), deleted(), parameter(5));
}
