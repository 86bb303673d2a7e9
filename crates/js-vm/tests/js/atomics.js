// Atomics on ordinary and shared buffers: read-modify-write wrapping, compareExchange, store's
// return value, notify with no waiters, and the argument checks.
const i8 = new Int8Array(4);
console.log(Atomics.add(i8, 0, 127), Atomics.add(i8, 0, 1), i8[0], Atomics.sub(i8, 1, 1), i8[1]);
const u16 = new Uint16Array(new SharedArrayBuffer(8));
console.log(Atomics.store(u16, 0, -1.9), u16[0], Atomics.store(u16, 1, -0), Object.is(Atomics.store(u16, 1, -0), 0));
console.log(Atomics.and(u16, 0, 0xff0f), Atomics.or(u16, 0, 0xf0), Atomics.xor(u16, 0, 0xffff), Atomics.load(u16, 0));
console.log(Atomics.exchange(u16, 2, 70000), u16[2], Atomics.compareExchange(u16, 2, 4464, 9), u16[2], Atomics.compareExchange(u16, 2, 1, 2), u16[2]);
const u32 = new Uint32Array(2);
console.log(Atomics.sub(u32, 0, 1), u32[0], Atomics.add(u32, 0, 2), u32[0]);
const i32 = new Int32Array(new SharedArrayBuffer(8));
console.log(Atomics.notify(i32, 0, 1), Atomics.notify(new Int32Array(4), 0), Atomics.isLockFree(4), Atomics.isLockFree(3));
for (const bad of [() => Atomics.add(new Float64Array(1), 0, 1), () => Atomics.load(new Uint8ClampedArray(1), 0), () => Atomics.load(i8, 4), () => Atomics.notify(i8, 0), () => Atomics.wait(new Int32Array(4), 0, 0, 0), () => Atomics.store([], 0, 0)]) {
  try { bad(); } catch (e) { console.log(e.constructor.name); }
}
console.log(Object.prototype.toString.call(Atomics), Atomics.add.length, Atomics.compareExchange.length, Atomics.wait.length);
