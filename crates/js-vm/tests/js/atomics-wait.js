// Atomics.wait and Atomics.waitAsync on one thread (node's main thread can block; the test runner's
// VM is made as jsvm makes it): values that differ, zero and short timeouts, notify waking async
// waiters oldest first, and argument checks.
const i32 = new Int32Array(new SharedArrayBuffer(16));
console.log(Atomics.wait(i32, 0, 1), Atomics.wait(i32, 0, 0, 0), Atomics.wait(i32, 0, 0, 5));
const start = Date.now();
Atomics.wait(i32, 1, 0, 30);
console.log(Date.now() - start >= 25);
const differs = Atomics.waitAsync(i32, 0, 1);
const immediate = Atomics.waitAsync(i32, 0, 0, 0);
console.log(differs.async, differs.value, immediate.async, immediate.value);
const first = Atomics.waitAsync(i32, 0, 0);
console.log(first.async, Object.prototype.toString.call(first.value));
const second = Atomics.waitAsync(i32, 0, 0, 10);
const other = Atomics.waitAsync(i32, 2, 0);
console.log(Atomics.notify(i32, 0, 1), Atomics.notify(i32, 3));
first.value.then((v) => console.log('first', v));
// The timer keeps the loop alive past `second`'s timeout; a waiter still pending when nothing else
// is left does not (as in node).
second.value.then((v) => console.log('second', v));
other.value.then((v) => console.log('other', v));
setTimeout(() => console.log('timer', Atomics.notify(i32, 2)), 40);
Atomics.waitAsync(i32, 3, 0).value.then((v) => console.log('never', v));
const big = new BigInt64Array(new SharedArrayBuffer(16));
console.log(Atomics.wait(big, 0, 1n), Atomics.waitAsync(big, 0, 0n, 0).value, Atomics.wait(big, 1, 0n, 1));
for (const bad of [() => Atomics.waitAsync(new Int32Array(4), 0, 0), () => Atomics.waitAsync(new Int16Array(new SharedArrayBuffer(4)), 0, 0), () => Atomics.waitAsync(i32, 4, 0), () => Atomics.wait(big, 0, 0)]) {
  try {
    bad();
  } catch (e) {
    console.log(e.constructor.name);
  }
}
console.log(Atomics.waitAsync.length, Atomics.waitAsync.name);
