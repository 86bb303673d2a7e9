const log = (...a) => console.log(...a);
async function* gen() {
  log('gen start');
  const x = yield 1;
  log('got', x);
  yield Promise.resolve(2);
  try { yield 3; } finally { log('cleanup'); }
  return 'end';
}
async function main() {
  const g = gen();
  log(Object.prototype.toString.call(g), typeof g[Symbol.asyncIterator]);
  log(await g.next('ignored'));
  log(await g.next('hello'));
  log(await g.next());
  log(await g.return('early'));
  log(await g.next());
  for await (const v of gen()) log('loop', v);
  const g2 = gen();
  const ps = [g2.next(), g2.next('a'), g2.next('b'), g2.next(), g2.next()];
  log(await Promise.all(ps));
  const g3 = gen();
  try { await g3.throw(new Error('before start')); } catch (e) { log('throw at start:', e.message); }
  async function* failing() { yield 1; throw new Error('inner'); }
  try { for await (const v of failing()) log('f', v); } catch (e) { log('caught', e.message); }
  async function* awaiting() { const a = await Promise.resolve(10); yield a + (await 5); }
  for await (const v of awaiting()) log('awaiting', v);
}
main().then(() => log('done'));
Promise.resolve().then(() => log('t1')).then(() => log('t2')).then(() => log('t3')).then(() => log('t4')).then(() => log('t5'));
async function* inner() { try { const x = yield 'a'; log('inner got', x); yield 'b'; return 'inner-ret'; } finally { log('inner finally'); } }
async function* outer() { const r = yield* inner(); log('r', r); yield* [1, Promise.resolve(2)]; }
async function main2() {
  for await (const v of outer()) log('v', v);
  const g = outer(); log(await g.next()); log(await g.next('X')); log(await g.return('R')); log(await g.next());
}
main2().then(() => log('done'));

