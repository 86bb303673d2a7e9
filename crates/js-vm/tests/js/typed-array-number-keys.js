// Typed-array element reads and writes with Number keys: integers in and
// out of range, -0, fractions, NaN, infinities, keys past 2^32, values whose
// conversion runs code, BigInt arrays, and a prototype that holds numeric
// properties (a typed array never reads them), compared with node.
Object.prototype[5] = "from Object.prototype";
Object.prototype["1.5"] = "fraction on the prototype";
const keys = [0, 1, -0, 1.5, -1, NaN, Infinity, -Infinity, 2 ** 32, 2 ** 53, 5, 3];
for (const T of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array]) {
  const a = new T(4);
  const written = [];
  for (const k of keys) {
    a[k] = 300.7;
    written.push(String(a[k]));
  }
  a[2] = -129.5;
  a[3] = { valueOf() { written.push("valueOf"); return 65; } };
  console.log(T.name, written.join(","), Array.from(a).join(","), Object.keys(a).join(","), a.length);
}
const big = new BigInt64Array(2);
big[0] = 2n ** 63n;
big[-0] = big[0] + 1n;
console.log(String(big[0]), String(big[1]), String(big[1.5]), String(big[7]));
try {
  big[1] = 1;
} catch (e) {
  console.log(e.constructor.name);
}
const view = new Uint8Array(new ArrayBuffer(8), 2, 4);
for (let i = 0; i < 6; i++) view[i] = i * 100;
console.log(Array.from(view).join(","), view[4], view[-0]);
let sum = 0;
const heap = new Int32Array(1024);
for (let i = 0; i < 100000; i++) {
  heap[i & 1023] = heap[(i * 7) & 1023] + i;
  sum = (sum + heap[i & 1023]) | 0;
}
console.log(sum);
"use strict";
console.log((function () { "use strict"; const t = new Uint8Array(1); t[10] = 1; t[-1] = 2; t[0.5] = 3; return Object.keys(t).join(); })());
// Values on both sides of the int32 and uint32 ranges, through each
// integer element type's wrap.
const edges = [2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 3, -(2 ** 31), -(2 ** 31) - 1, -1.5, 1e20, -1e20];
for (const T of [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array]) {
  const a = new T(edges.length);
  for (let i = 0; i < edges.length; i++) a[i] = edges[i];
  console.log(T.name, Array.from(a).join(","));
}
// A length-tracking view over a resizable buffer: writes past a shrink
// are dropped, reads past it are undefined, a grow brings the index back.
const resizable = new ArrayBuffer(8, { maxByteLength: 16 });
const tracking = new Int16Array(resizable);
const fixed = new Int16Array(resizable, 2, 2);
for (let i = 0; i < 4; i++) tracking[i] = i + 10;
resizable.resize(4);
tracking[3] = 99;
fixed[1] = 98;
console.log(tracking.length, tracking[1], tracking[3], fixed[0], fixed.length);
resizable.resize(16);
tracking[7] = 7;
console.log(tracking.length, Array.from(tracking).join(","), fixed[0], fixed[1]);
