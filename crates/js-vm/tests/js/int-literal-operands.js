// Binary operators whose right operand is an int32 literal compile to
// instructions that carry the literal inline (AddInt, BitAndInt, ...).
// Every kind of left operand must still give the general operator's result.
"use strict";

const lefts = [
  0, -0, 1, -1, 7, -7, 2147483647, -2147483648, 4294967295, 4294967296, 0.5, -2.5,
  1e21, NaN, Infinity, -Infinity, "12", "x", "", true, false, null, undefined,
  [], [3], {}, 10n,
];

function show(v) {
  if (typeof v === "bigint") return v + "n";
  if (Object.is(v, -0)) return "-0";
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}

function attempt(f) {
  try {
    return show(f());
  } catch (e) {
    return e.constructor.name;
  }
}

for (const x of lefts) {
  const row = [
    attempt(() => x + 1), attempt(() => x + 0), attempt(() => x - 1), attempt(() => x - 0),
    attempt(() => x * 3), attempt(() => x * 0), attempt(() => x * -1), attempt(() => x % 7),
    attempt(() => x % 1), attempt(() => x % 0), attempt(() => x & 1023), attempt(() => x & -1),
    attempt(() => x | 0), attempt(() => x ^ 255), attempt(() => x << 3), attempt(() => x << 33),
    attempt(() => x >> 1), attempt(() => x >> 31), attempt(() => x >>> 0), attempt(() => x >>> 28),
    attempt(() => x + 2147483647), attempt(() => x - 2147483647),
  ];
  console.log(show(x).padEnd(12), row.join(" "));
}

// The literal is the right operand: the left one converts first, once.
const log = [];
const valued = { valueOf() { log.push("valueOf"); return 5; }, toString() { log.push("toString"); return "s"; } };
console.log(valued + 1, valued - 1, valued & 3, valued >>> 1, valued % 2, log.join(","));
const stringy = { [Symbol.toPrimitive](hint) { log.push(hint); return "7"; } };
log.length = 0;
console.log(stringy + 1, stringy * 2, stringy | 0, log.join(","));

// Chains and compound uses mix inline literals with registers.
let h = 0;
for (let i = 0; i < 100; i++) h = ((h << 5) - h + i * 31) | 0;
console.log(h, (h >>> 0) % 1000, h & 0xffff, (h ^ 0x5555) >> 2);
let s = "";
for (let i = 0; i < 5; i++) s = s + 1 + 2;
console.log(s, 1 + 2 + "3" + 4 + 5);
// Literals that are not int32 stay in registers.
console.log(3 + 0.5, 3 - 1e10, 3 * 4294967296, 10 % 2.5, 1 << 4294967297, 5 - -0);

// Conditions comparing with an int32 literal branch on it directly.
for (const x of lefts) {
  const seen = [];
  if (x < 1) seen.push("<1");
  if (x <= 0) seen.push("<=0");
  if (x > -1) seen.push(">-1");
  if (x >= 7) seen.push(">=7");
  if (x === 0) seen.push("===0");
  if (x !== 1) seen.push("!==1");
  if (x == 0) seen.push("==0");
  if (x != 12) seen.push("!=12");
  console.log(show(x).padEnd(12), seen.join(" "));
}
const ordered = { valueOf() { log.push("ordered"); return 3; } };
log.length = 0;
let count = 0;
while (count < 5) count++;
if (ordered > 2 && ordered == 3 && !(ordered === 3)) console.log("compared", count, log.join(","));
try {
  if (Symbol() < 1) console.log("unreachable");
} catch (e) {
  console.log(e.constructor.name);
}

// Compound assignments with an int32 literal: locals, properties, elements
// and globals, on numbers, strings and objects.
let local = 5, text = "t";
local += 3; local -= 1; local *= 2; local %= 9; local <<= 4; local >>= 1; local >>>= 0; local |= 1; local &= 0xff; local ^= 3;
text += 1; text -= 0;
const holder = { n: 7, s: "s", o: { valueOf() { log.push("holder.o"); return 2; } } };
log.length = 0;
holder.n += 10; holder.n &= 12; holder.s += 2; holder.o *= 3;
const cells = [1, 2, 3];
cells[0] += 1; cells[1] <<= 2; cells[2] -= 4;
globalThis.counter = 0;
for (let i = 0; i < 4; i++) globalThis.counter += 2;
console.log(local, text, holder.n, holder.s, holder.o, cells.join(","), globalThis.counter, log.join(","));
let big = 10n;
try {
  big += 1;
} catch (e) {
  console.log(e.constructor.name, big);
}
