// Number.prototype.toFixed / toPrecision / toExponential on many doubles,
// diffed byte for byte against node. The doubles come from a fixed-seed
// PRNG, so every run prints the same lines; they cover random bit patterns,
// random mantissas at every exponent, exact halfway cases (k + 0.5, k/8,
// k/1024), integers around 2^53, subnormals and values near the 1e21
// toFixed boundary. Every digits argument (0..100, 1..100) is used.

let state = 0x9e3779b9;
function next32() {
  // xorshift32: deterministic and the same in every engine.
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state;
}
function below(n) {
  return next32() % n;
}

const view = new DataView(new ArrayBuffer(8));
function randomBits() {
  for (;;) {
    view.setUint32(0, next32());
    view.setUint32(4, next32());
    const x = view.getFloat64(0);
    if (Number.isFinite(x)) return x;
  }
}
// Only exact operations build the doubles (bit patterns, decimal strings,
// products of powers of two): Math.pow is not correctly rounded, and the
// engines may differ in its last bit.
function fromBits(biasedExponent) {
  view.setUint32(0, ((biasedExponent & 0x7ff) << 20) | (next32() & 0xfffff));
  view.setUint32(4, next32());
  return view.getFloat64(0);
}
function randomMantissa() {
  return fromBits(1023 - 140 + below(200));
}
function decimalScaled() {
  return Number(next32() + "e" + (below(50) - 32));
}
const powersOfTwo = [1];
for (let i = 1; i <= 30; i++) powersOfTwo.push(powersOfTwo[i - 1] * 2);
function halfway() {
  const k = below(100000);
  switch (below(4)) {
    case 0: return k + 0.5;
    case 1: return k / 8;
    case 2: return k / 1024;
    default: return (k * 2 + 1) / powersOfTwo[below(20) + 1];
  }
}
function nearTwoTo53() {
  return 9007199254740992 + (below(64) - 32) * (below(2) ? 1 : 2);
}
function tiny() {
  return below(2) ? fromBits(0) : fromBits(1 + below(52));
}
function huge() {
  switch (below(3)) {
    case 0: return Number(below(1000000) + "e" + (15 + below(3)));
    case 1: return Number(next32() + "" + next32() + "e" + below(290));
    default: return fromBits(1023 + 60 + below(960));
  }
}

const generators = [randomBits, randomMantissa, decimalScaled, halfway, nearTwoTo53, tiny, huge];
const lines = [];
for (let i = 0; i < 1400; i++) {
  let x = generators[i % generators.length]();
  if (below(2)) x = -x;
  const fixedDigits = i % 101;
  const precision = 1 + (i % 100);
  const small = below(21);
  lines.push(
    [
      x,
      x.toFixed(fixedDigits),
      x.toFixed(small),
      x.toPrecision(precision),
      x.toPrecision(small + 1),
      x.toExponential(fixedDigits),
      x.toExponential(small),
      x.toExponential(),
    ].join(" "),
  );
}
console.log(lines.join("\n"));

// The cases named in the spec's notes and the edges of each argument range.
const fixed = [
  [0.5, 0], [2.5, 0], [-2.5, 0], [1.5, 0], [-0.0001, 2], [-0, 2], [0, 0], [1.005, 2],
  [1e21, 2], [-1e21, 2], [999999999999999900000, 2], [123.456, 100], [0.000001, 7],
  [1.45, 1], [1.55, 1], [8.345, 2], [8.335, 2], [1.0e-10, 20], [5e-324, 100],
  [NaN, 2], [Infinity, 1], [-Infinity, 0], [42, undefined], [42.5, "0"], [42.5, 1.9],
];
for (const [x, d] of fixed) console.log("toFixed", x, d, x.toFixed(d));
const precise = [
  [0, 1], [0, 5], [-0, 3], [123.456, 1], [123.456, 3], [123.456, 4], [9.96, 2], [0.000001234, 2],
  [0.0000001234, 2], [1e21, 21], [1e21, 22], [2.5, 1], [-2.5, 1], [0.125, 2], [5e-324, 100],
  [NaN, 2], [Infinity, 200], [12345, undefined],
];
for (const [x, p] of precise) console.log("toPrecision", x, p, x.toPrecision(p));
const exponential = [
  [0, 0], [0, 3], [-0, undefined], [0, undefined], [123456, undefined], [123456, 2], [2.5, 0],
  [-2.5, 0], [1.25, 1], [9.99, 1], [1e-7, 3], [5e-324, undefined], [1.7976931348623157e308, 20],
  [NaN, 200], [-Infinity, -5],
];
for (const [x, f] of exponential) console.log("toExponential", x, f, x.toExponential(f));
for (const [name, args] of [
  ["toFixed", [-1]], ["toFixed", [101]], ["toFixed", [Infinity]], ["toPrecision", [0]],
  ["toPrecision", [101]], ["toExponential", [-1]], ["toExponential", [101]],
]) {
  try {
    (1.5)[name](...args);
    console.log(name, args, "no error");
  } catch (e) {
    console.log(name, args, e.name);
  }
}
try {
  Number.prototype.toFixed.call("1", 2);
} catch (e) {
  console.log("toFixed on a string:", e.name);
}
console.log(new Number(2.5).toFixed(0), Number.prototype.toPrecision.call(new Number(0.125), 2));
