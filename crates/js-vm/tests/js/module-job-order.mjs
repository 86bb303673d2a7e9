// A module without top-level await: Node evaluates it inside a promise
// job, so its microtasks run before its nextTick callbacks (the reverse
// of a CommonJS script).
process.nextTick(() => console.log('nextTick 1'));
Promise.resolve().then(() => {
  console.log('microtask 1');
  process.nextTick(() => console.log('nextTick from microtask'));
});
queueMicrotask(() => console.log('microtask 2'));
console.log('sync');
