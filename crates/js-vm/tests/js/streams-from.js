// ReadableStream.from: arrays, async generators, return() on cancel, bad
// iterables and next() results.
const log = [];
const note = (s) => log.push(s);
(async () => {
  const out = [];
  for await (const x of ReadableStream.from([1, 2, 3])) out.push(x);
  note('array ' + out.join(','));
  async function* gen() { yield 'a'; yield 'b'; }
  const r = ReadableStream.from(gen()).getReader();
  note(JSON.stringify(await r.read()) + JSON.stringify(await r.read()) + JSON.stringify(await r.read()));
  const it = { [Symbol.asyncIterator]() { return { next() { return Promise.resolve({ value: 1, done: false }); }, return(reason) { note('return ' + reason); return { done: true }; } }; } };
  const s = ReadableStream.from(it);
  const rd = s.getReader();
  note('first ' + (await rd.read()).value);
  await rd.cancel('stop').then(() => note('cancelled'));
  try { ReadableStream.from(5); } catch (e) { note('from 5 ' + e.name); }
  const bad = { [Symbol.asyncIterator]() { return { next() { return 42; } }; } };
  await ReadableStream.from(bad).getReader().read().catch((e) => note('bad next ' + e.name));
  console.log(log.join(' | '));
})();
