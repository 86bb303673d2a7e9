// Binary data: ArrayBuffer, SharedArrayBuffer, typed arrays and DataView.
'use strict';

const u8 = new Uint8Array([1, 2, 3, 255, 256, -1]);
console.log(u8, u8.length, u8.byteLength, u8.byteOffset);
console.log(new Int8Array([127, 128, -129, 1.9, -1.9, NaN]));
console.log(new Uint8ClampedArray([-5, 0.5, 1.5, 2.5, 254.5, 300, NaN]));
console.log(new Int16Array([32767, 32768, -32769]), new Uint16Array([-1, 65536]));
console.log(new Int32Array([2 ** 31, -(2 ** 31) - 1]), new Uint32Array([-1, 2 ** 32 + 5]));
console.log(new Float32Array([1.1, 0.1, 1e40, -0]), new Float64Array([Math.PI, -0, NaN]));
console.log(Object.prototype.toString.call(new Float64Array(1)), String(new Uint8Array([4, 5])));

// Constructor forms.
const buf = new ArrayBuffer(16);
const whole = new Uint8Array(buf);
const mid = new Uint16Array(buf, 4, 3);
mid[0] = 0x0102;
mid[2] = 0xffff;
console.log(whole.join(' '), mid.byteOffset, mid.byteLength, mid.buffer === buf);
console.log(new Int16Array(new Uint8Array([200, 100])), new Float32Array(new Set([1, 2, 3])));
console.log(new Uint8Array({ length: 3, 0: 7, 2: 9 }), new Uint8Array(4).fill(3, 1, 3));
for (const bad of [() => new Uint16Array(buf, 1), () => new Uint32Array(buf, 0, 5), () => new Uint8Array(-1), () => Uint8Array(1)]) {
  try {
    bad();
  } catch (e) {
    console.log(e.constructor.name);
  }
}

// Exotic indexing.
const ta = new Int8Array(4);
ta[1] = 5;
ta[10] = 1;
ta['-0'] = 1;
ta['1.5'] = 1;
ta.foo = 'bar';
console.log(ta[1], ta[10], ta['-0'], '1.5' in ta, 10 in ta, 3 in ta, Object.keys(ta), delete ta[10], Reflect.deleteProperty(ta, 0));
console.log(Object.getOwnPropertyDescriptor(ta, 1), Reflect.defineProperty(ta, 0, { value: 9 }), ta[0]);
console.log(Reflect.defineProperty(ta, 0, { value: 1, writable: false }), JSON.stringify(ta));

// Prototype methods.
const f = Float64Array.from([5, 1, NaN, -0, 0, -3, 10], (x) => x * 2);
console.log(f.toSorted(), f.toReversed(), f.with(0, 42), f.at(-1));
console.log(f.indexOf(0), f.lastIndexOf(0), f.includes(NaN), f.indexOf(NaN), f.join('|'));
console.log(new Int32Array([5, 1, 4]).sort((a, b) => b - a), Int16Array.of(1, 2, 3).reverse());
const nums = new Int16Array([1, 2, 3, 4, 5, 6]);
console.log(nums.map((x) => x * x), nums.filter((x) => x % 2), nums.reduce((a, b) => a + b), nums.reduceRight((a, b) => a + '' + b));
console.log(nums.slice(1, -1), nums.subarray(2, 4), nums.subarray(-2).byteOffset, nums.copyWithin(0, 3));
console.log(nums.find((x) => x > 4), nums.findIndex((x) => x > 4), nums.findLast((x) => x < 3), nums.findLastIndex((x) => x > 100));
console.log(nums.every((x) => x > 0), nums.some((x) => x > 5), [...nums.keys()], [...nums.entries()].slice(0, 2));
const target = new Uint8Array(6);
target.set([1, 2], 1);
target.set(new Float32Array([3.7, 300]), 4);
console.log(target, [...target.values()], Array.from(target.subarray(1, 3)));
nums.forEach((x, i) => { if (i === 0) console.log('forEach', x); });
console.log(Object.getPrototypeOf(Int8Array) === Object.getPrototypeOf(Uint8Array), Int8Array.BYTES_PER_ELEMENT, Float64Array.prototype.BYTES_PER_ELEMENT);
console.log(Uint8Array.prototype.toString === Array.prototype.toString, new Uint8Array(200).length);

// Species.
class MyArray extends Uint8Array {}
const mine = new MyArray([1, 2, 3]);
console.log(mine.map((x) => x + 1) instanceof MyArray, mine.slice(1) instanceof MyArray, mine.subarray(1).constructor.name);

// ArrayBuffer.
const ab = new ArrayBuffer(4, { maxByteLength: 12 });
const tracking = new Uint8Array(ab);
const fixed = new Uint8Array(ab, 0, 4);
console.log(ab.resizable, ab.maxByteLength, tracking.length);
ab.resize(8);
console.log(ab.byteLength, tracking.length, fixed.length);
ab.resize(2);
console.log(tracking.length, fixed.length, fixed.byteOffset, fixed[0]);
console.log(ArrayBuffer.isView(tracking), ArrayBuffer.isView(new DataView(ab)), ArrayBuffer.isView(ab));
const src = new Uint8Array([9, 8, 7, 6]).buffer;
console.log(src.slice(1, 3), src.slice(-1).byteLength);
// transfer() is not in Node 20, so detachment is left to test262.
console.log(new ArrayBuffer(3), new ArrayBuffer(0));

// SharedArrayBuffer.
const sab = new SharedArrayBuffer(2, { maxByteLength: 4 });
sab.grow(4);
console.log(sab.byteLength, sab.growable, Object.prototype.toString.call(sab), new Int8Array(sab).length);

// DataView.
const dv = new DataView(new ArrayBuffer(18), 2);
dv.setInt16(0, -2);
dv.setUint16(2, 0x1234, true);
dv.setFloat32(4, 1.5);
dv.setFloat64(8, -Math.E, true);
console.log(dv.getInt16(0), dv.getUint16(0), dv.getUint16(2), dv.getUint16(2, true), dv.getFloat32(4), dv.getFloat64(8, true));
dv.setUint32(0, 0xdeadbeef);
console.log(dv.getUint32(0).toString(16), dv.getInt32(0), dv.getInt8(0), dv.getUint8(1), dv.byteLength, dv.byteOffset);
try {
  dv.getFloat64(9);
} catch (e) {
  console.log(e.constructor.name);
}
console.log(new Uint8Array(dv.buffer, 2, 6));

// How console.log shows binary data (Node util.inspect).
{
  console.log(new Uint8Array(0), new Float64Array([-0, 0.1, 1e21, NaN]));
  console.log(new Uint8Array(120));
  const big = new Int16Array(300);
  big[299] = 7;
  console.log(big);
  const withProp = new Uint8Array(2); withProp.foo = 1; console.log(withProp);
  console.log({ a: new Uint8Array([1]), b: [new Int8Array(2)] });
  console.log(new SharedArrayBuffer(3));
  const dv2 = new DataView(new ArrayBuffer(4), 1, 2); console.log(dv2);
  console.log(new ArrayBuffer(60));
  console.log([new ArrayBuffer(1)]);
  console.log(new Float32Array([1.1, 2.5]));
  class Sub extends Uint8Array {}
  console.log(new Sub(2));
  const ab2 = new ArrayBuffer(2, { maxByteLength: 4 }); console.log(ab2);
  console.log(Object.keys(new Uint8Array(3)), Object.getOwnPropertyNames(new Uint8Array(2)));
  console.log(String(new Float64Array([1.5, -0])), new Uint8Array([1,2]).toString());
  console.log(Uint8Array.name, Uint8Array.length, Object.getPrototypeOf(Uint8Array).name);
  console.log(new Uint8Array([1,2,3]).subarray(1), new Uint8Array(new ArrayBuffer(8), 2, 3));
  const u = new Uint16Array(4); console.log(u.buffer);
  console.log(new Uint8Array(7000).buffer);
  console.log([new Uint8Array([1, 2]), new Float64Array(2)], { x: { y: { z: new Uint8Array(1) } } });
  class A extends Array {}
  console.log({ x: { y: { z: new Sub(1), a: new A(), b: new A(1), q: [], w: [1], t: new Uint8Array(0), u: new Uint8Array(1) } } });
}

// Integer-indexed exotic behaviour, length tracking and conversions.
{
  const ta = new Float64Array([1, 2]);
  ta['1e2'] = 5; ta.Infinity = 6; ta['-Infinity'] = 7; ta.NaN = 8; ta['0.0'] = 9; ta['+1'] = 10;
  console.log(Object.keys(ta), ta['1e2'], ta.Infinity, ta.NaN, ta['0.0'], ta['+1']);
  const child = Object.create(ta);
  child[0] = 42; child[5] = 1;
  console.log(ta[0], Object.keys(child), child[0], child[5]);
  console.log(Reflect.set(ta, 0, 3, {}), Reflect.set(ta, 9, 3), ta[0], Reflect.get(ta, 1, {}));
  for (const k in new Int8Array(3)) console.log('key', k, typeof k);
  try { Object.freeze(new Uint8Array(1)); } catch (e) { console.log(e.constructor.name); }
  console.log(Object.isFrozen(Object.freeze(new Uint8Array(0))), Object.isSealed(new Uint8Array(2)), Object.isExtensible(new Uint8Array(2)));
  // V8 lets Object.seal pass on a typed array with elements; the spec refuses.
  console.log([...new Uint8Array([5, 6])], Array.prototype.map.call(new Int8Array([1, -1]), (x) => x * 2));
  console.log(Array.prototype.slice.call(new Uint16Array([1, 2, 3]), 1), Array.from(new Uint8Array([9, 8])));
  console.log(JSON.stringify({ t: new Int8Array([1, -2]) }), Array.isArray(new Uint8Array(1)));
  console.log(Object.getOwnPropertyDescriptor(new Int8Array([7]), '0'), Object.getOwnPropertyDescriptor(new Int8Array(1), '1'));
  console.log(Object.entries(new Uint8Array([3, 4])), '0' in new Uint8Array(0), -0 in new Uint8Array(1));
  const detachable = new ArrayBuffer(8, { maxByteLength: 16 });
  const view = new Int32Array(detachable, 4);
  detachable.resize(2);
  console.log(view.length, view.byteOffset, view.byteLength, view[0], Object.keys(view));
  try { view.fill(1); } catch (e) { console.log(e.constructor.name); }
  detachable.resize(16);
  console.log(view.length, view.byteOffset);
  const dv = new DataView(detachable, 8);
  detachable.resize(4);
  try { dv.byteLength; } catch (e) { console.log(e.constructor.name); }
  try { new DataView(detachable, 5); } catch (e) { console.log(e.constructor.name); }
  try { new Uint8Array(new ArrayBuffer(4), 5); } catch (e) { console.log(e.constructor.name); }
  console.log(new Uint8Array([1, 2, 3, 4]).lastIndexOf(3, -2), new Int8Array([1, 2]).indexOf(2, -1));
  console.log(new Float32Array([NaN]).includes(NaN), new Float32Array([NaN]).indexOf(NaN), new Uint8Array([1,2,3]).at(-4));
  console.log(Uint8Array.from({ length: 2, 0: '7' }), Uint8Array.from(new Set([3, 4]), (x, i) => x + i));
  console.log(new Uint8ClampedArray([1.5, 2.5, -1, 300]), new Int8Array(new Float64Array([1.9, -1.9, 300])));
  console.log(new Uint8Array([3, 1, 2]).sort(), new Float64Array([3, -0, 0, NaN, -Infinity]).sort());
  console.log(new Uint8Array([1, 2, 3, 4, 5]).copyWithin(1, 0, 3), new Uint8Array([1, 2, 3]).toLocaleString());
}

// BigInt64Array and BigUint64Array.
{
  const a = new BigInt64Array([1n, -2n, 2n ** 63n, -(2n ** 64n) - 3n]);
  console.log(a, a.length, a.byteLength, BigInt64Array.BYTES_PER_ELEMENT, BigUint64Array.prototype.BYTES_PER_ELEMENT);
  const u = new BigUint64Array([1n, -1n, 2n ** 64n + 5n]);
  console.log(u, u[1], typeof u[0], Object.prototype.toString.call(u), BigInt64Array.name, BigUint64Array.length);
  try { a[0] = 1; } catch (e) { console.log(e.constructor.name); }
  try { new BigInt64Array([1]); } catch (e) { console.log(e.constructor.name); }
  try { new BigInt64Array(new Uint8Array(2)); } catch (e) { console.log(e.constructor.name); }
  try { new Float64Array(new BigInt64Array(2)); } catch (e) { console.log(e.constructor.name); }
  try { new Int8Array(2).set(new BigInt64Array(1)); } catch (e) { console.log(e.constructor.name); }
  try { new BigUint64Array(2).set(new Uint8Array(1)); } catch (e) { console.log(e.constructor.name); }
  a[0] = true; a[1] = '12345678901234567890';
  console.log(a[0], a[1], a.join('|'), a.toString(), new BigInt64Array([5n, -3n]).toLocaleString());
  console.log(new BigUint64Array(new BigInt64Array([-1n, 3n])), new BigInt64Array(u));
  const b = new BigInt64Array(3);
  b.set(new BigUint64Array([2n ** 64n - 7n]), 1);
  b.set([4n], 0);
  console.log(b, b.includes(-7n), b.includes(-7), b.indexOf(4n), b.lastIndexOf(0n), b.at(-1));
  console.log(new BigInt64Array([3n, -5n, 2n ** 62n, 0n, -(2n ** 62n)]).sort(), new BigUint64Array([3n, 2n ** 64n - 1n, 1n]).sort());
  console.log(new BigInt64Array([1n, 3n, 2n]).sort((x, y) => (x < y ? 1 : x > y ? -1 : 0)), new BigInt64Array([5n, 1n]).toSorted());
  console.log(new BigInt64Array(4).fill(9n, 1, 3), new BigUint64Array([1n, 2n, 3n, 4n]).filter((x) => x % 2n === 0n));
  console.log(new BigInt64Array([1n, 2n]).map((x) => x * 10n), new BigInt64Array([1n, 2n, 3n]).reduce((s, x) => s + x));
  console.log(new BigInt64Array([1n, 2n, 3n]).slice(1), new BigInt64Array([1n, 2n, 3n]).subarray(1, 2), new BigInt64Array([7n, 8n]).with(0, -1n));
  console.log(new BigInt64Array([1n, 2n]).toReversed(), [...new BigUint64Array([5n, 6n]).entries()], new BigInt64Array([1n, 5n]).find((x) => x > 1n));
  console.log(BigInt64Array.from([1n, 2n], (x) => x * x), BigUint64Array.of(7n, 8n), Object.getOwnPropertyDescriptor(u, '0'));
  class Big extends BigInt64Array {}
  console.log(new Big([1n]).map((x) => x + 1n) instanceof Big);
  try { new BigInt64Array([1n]).map.call(new Float64Array(1), () => 1n); } catch (e) { console.log(e.constructor.name); }
  const dv = new DataView(new ArrayBuffer(16));
  dv.setBigInt64(0, -2n);
  dv.setBigUint64(8, 2n ** 64n - 2n, true);
  console.log(dv.getBigInt64(0), dv.getBigUint64(0), dv.getBigInt64(8, true), dv.getBigUint64(8), dv.getUint8(7), dv.getUint8(8));
  try { dv.setBigInt64(0, 1); } catch (e) { console.log(e.constructor.name); }
  try { dv.getBigInt64(9); } catch (e) { console.log(e.constructor.name); }
  console.log(DataView.prototype.getBigInt64.length, DataView.prototype.setBigUint64.length);
  const shared = new BigInt64Array(new SharedArrayBuffer(16));
  console.log(Atomics.store(shared, 0, 5n), Atomics.add(shared, 0, 2n), Atomics.sub(shared, 0, 10n), Atomics.load(shared, 0));
  console.log(Atomics.exchange(shared, 1, 2n ** 63n), Atomics.compareExchange(shared, 1, -(2n ** 63n), 4n), Atomics.load(shared, 1));
  const su = new BigUint64Array(2);
  console.log(Atomics.sub(su, 0, 1n), Atomics.or(su, 1, 6n), Atomics.and(su, 1, 3n), Atomics.xor(su, 1, 1n), su);
  try { Atomics.add(su, 0, 1); } catch (e) { console.log(e.constructor.name); }
  console.log(new Float64Array(new BigInt64Array([9n, 8n]).buffer)[0] > 0, new Uint8Array(new BigUint64Array([258n]).buffer));
  console.log({ t: new BigInt64Array(0), u: new BigUint64Array([1n]) }, [new BigInt64Array([3n])]);
}
