// A tour of what jsvm runs today: classes, closures, destructuring,
// iteration, and Node-style console output.
class Shape {
  constructor(name) { this.name = name; }
  area() { return 0; }
  toString() { return `${this.name} with area ${this.area().toFixed(2)}`; }
}
class Circle extends Shape {
  constructor(r) { super("circle"); this.r = r; }
  area() { return Math.PI * this.r ** 2; }
}
class Rect extends Shape {
  constructor(w, h) { super("rect"); Object.assign(this, { w, h }); }
  area() { return this.w * this.h; }
}

const shapes = [new Circle(1), new Rect(2, 3), new Circle(0.5)];
for (const s of shapes) console.log(String(s));

const byName = {};
for (const { name, ...rest } of shapes) (byName[name] ??= []).push(rest);
console.log(byName);

const counter = (() => { let n = 0; return { next: () => ++n, reset() { n = 0; } }; })();
console.log([counter.next(), counter.next(), counter.next()]);

const words = "the quick brown fox jumps over the lazy dog".split(" ");
const freq = words.reduce((m, w) => ({ ...m, [w]: (m[w] ?? 0) + 1 }), {});
console.log(Object.entries(freq).filter(([, n]) => n > 1), words.toSorted().at(-1));

try {
  null.property;
} catch (e) {
  console.log(`${e.name}: ${e.message}`);
}

// Async work in Node's order, a request id that follows it through awaits
// and timers (AsyncLocalStorage), and JSON with a reviver.
const { AsyncLocalStorage } = require("node:async_hooks");
const requestId = new AsyncLocalStorage();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function handle(id, body) {
  return requestId.run(id, async () => {
    await sleep(5 * id);
    const data = JSON.parse(body, (key, value) => (key === "qty" ? value * 2 : value));
    console.log(`request ${requestId.getStore()}:`, JSON.stringify(data));
    return data.qty;
  });
}

Promise.all([handle(2, '{"item":"tea","qty":1}'), handle(1, '{"item":"→ coffee","qty":3}')])
  .then((quantities) => console.log("total", quantities.reduce((a, b) => a + b)));
process.nextTick(() => console.log("nextTick runs before promise jobs"));
