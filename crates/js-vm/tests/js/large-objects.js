// Objects with hundreds of properties added by static names stay correct
// as they grow (they keep a shape past the generic limit): assignments
// shadow a writable inherited property, are refused by a read-only one,
// call an inherited setter, and objects filled through computed keys and
// deletes behave the same.
"use strict";
const fields = [];
for (let i = 0; i < 300; i++) fields.push(`this.f${i} = ${i} * 2;`);
const Big = new Function(fields.join("\n"));
Big.prototype.f10 = "inherited";
Big.prototype.sum = function () { let s = 0; for (let i = 0; i < 300; i++) s += this["f" + i]; return s; };
const a = new Big(), b = new Big();
console.log(a.sum(), b.f299, Object.hasOwn(a, "f10"), a.f10, Object.keys(b).length);

const seen = [];
function Late() { for (let i = 0; i < 100; i++) this["x" + i] = i; }
Late.prototype = Object.create(null, {
  guarded: { set(v) { seen.push(v); }, configurable: true },
  fixed: { value: "ro", writable: false },
  open: { value: "w", writable: true },
});
const grow = new Function("o", "'use strict'; o.a1 = 1; o.a2 = 2; o.guarded = 'set'; o.open = 'own'; try { o.fixed = 'no'; } catch (e) { o.error = e.constructor.name; } return o;");
for (let round = 0; round < 3; round++) {
  const o = grow(new Late());
  console.log(round, o.a2, Object.hasOwn(o, "guarded"), o.open, Object.hasOwn(o, "open"), o.fixed, o.error, seen.length);
}

const literal = eval("({" + Array.from({ length: 200 }, (_, i) => `k${i}: ${i}`).join(",") + "})");
literal.k199 += 1;
delete literal.k0;
literal.extra = "e";
console.log(Object.keys(literal).length, literal.k199, literal.k0, literal.extra, Object.keys(literal).slice(-2).join());

const map = {};
for (let i = 0; i < 1000; i++) map["key" + (i % 700)] = i;
console.log(Object.keys(map).length, map.key0, map.key699);
Object.freeze(b);
try { b.f1 = 0; } catch (e) { console.log(e.constructor.name, b.f1); }
