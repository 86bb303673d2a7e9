const log = (...a) => console.log(...a);
async function main() {
  for await (const x of [1, Promise.resolve(2), 3]) log('sync src', x);
  const asyncIterable = { [Symbol.asyncIterator]() { let i = 0; return { next() { i++; return Promise.resolve({ value: i, done: i > 3 }); }, return() { log('return called'); return Promise.resolve({}); } }; } };
  for await (const y of asyncIterable) { log('async src', y); if (y === 2) break; }
  try { for await (const z of asyncIterable) { throw new Error('in body ' + z); } } catch (e) { log('caught', e.message); }
  const it = { [Symbol.iterator]() { return { next() { return { value: 1, done: false }; }, return() { log('sync closed'); return {}; } }; } };
  try { for (const w of it) throw 1; } catch { log('caught sync'); }
  for (const w of it) { log('w', w); break; }
}
main().then(() => log('done'));
Promise.resolve().then(() => log('t1')).then(() => log('t2')).then(() => log('t3')).then(() => log('t4'));
