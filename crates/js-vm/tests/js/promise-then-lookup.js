// Resolving a promise with an object looks up its `then` exactly once:
// plain objects and arrays whose shapes hold no `then` answer without a
// lookup, which must notice a `then` added later to the object, to
// Object.prototype, or to another shape.
"use strict";
const log = [];
const resolveWith = (label, value) =>
  Promise.resolve().then(() => value).then((v) => log.push(label + ": " + (v === value ? "same object" : String(v))));

async function main() {
  const plain = () => ({ a: 1 });
  await resolveWith("plain", plain());
  await resolveWith("plain again", plain());
  await resolveWith("array", [1, 2]);

  const withOwn = plain();
  withOwn.then = (resolve) => resolve("own then");
  await resolveWith("own then added", withOwn);

  const ownUndefined = { a: 1, then: undefined };
  await resolveWith("own then undefined", ownUndefined);

  Object.prototype.then = function (resolve) { resolve("inherited then"); };
  await resolveWith("inherited", plain());
  await resolveWith("inherited array", [3]);
  delete Object.prototype.then;
  await resolveWith("deleted again", plain());

  let reads = 0;
  Object.defineProperty(Object.prototype, "then", { configurable: true, get() { reads++; return undefined; } });
  await resolveWith("getter", plain());
  log.push("getter reads: " + reads);
  delete Object.prototype.then;

  const nullProto = Object.create(null);
  await resolveWith("null prototype", nullProto);
  const inheritsThen = Object.create({ then(resolve) { resolve("from a prototype object"); } });
  await resolveWith("other prototype", inheritsThen);

  async function returnsObject() { return { done: true }; }
  log.push("async result: " + JSON.stringify(await returnsObject()));
  const it = (async function* () { yield 1; })();
  log.push("async iterator: " + JSON.stringify(await it.next()));
}
main().then(() => console.log(log.join("\n")));
