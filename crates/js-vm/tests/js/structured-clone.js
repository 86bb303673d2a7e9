// structuredClone: what is copied, what keeps its identity, what throws.
const show = (label, v) => console.log(label, JSON.stringify(v));

// Primitives come back as they are.
for (const v of [1, -0, NaN, "s", true, null, undefined]) {
  const c = structuredClone(v);
  console.log(typeof c, Object.is(c, v));
}

// Plain objects and arrays are deep copies.
const source = { a: 1, nested: { b: [1, 2, { c: 3 }] } };
const copy = structuredClone(source);
show("deep", copy);
console.log(copy !== source, copy.nested !== source.nested, copy.nested.b[2] !== source.nested.b[2]);

// Holes stay holes; extra string keys are kept; symbol keys are not.
const sparse = [1, , 3];
sparse.extra = "x";
sparse[Symbol("s")] = 1;
const sparseCopy = structuredClone(sparse);
console.log(sparseCopy.length, 1 in sparseCopy, sparseCopy.extra, Object.getOwnPropertySymbols(sparseCopy).length);
console.log(Array.isArray(sparseCopy), Object.keys(sparseCopy).join());

// Getters are read; the copy has data properties and Object.prototype.
class Point {
  constructor() { this.x = 1; }
  get y() { return 2; }
}
const p = structuredClone(new Point());
console.log(Object.getPrototypeOf(p) === Object.prototype, p.x, p.y);
const withGetter = { get g() { return "got"; } };
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(structuredClone(withGetter), "g")));
const hidden = Object.defineProperty({ shown: 1 }, "hidden", { value: 2, enumerable: false });
console.log(Object.keys(structuredClone(hidden)).join(), "hidden" in structuredClone(hidden));

// Cycles and shared references keep their shape.
const node = { name: "n" };
node.self = node;
node.pair = [node, node];
const nodeCopy = structuredClone(node);
console.log(nodeCopy.self === nodeCopy, nodeCopy.pair[0] === nodeCopy, nodeCopy.pair[1] === nodeCopy, nodeCopy !== node);
const shared = { v: 1 };
const both = structuredClone({ left: shared, right: shared });
console.log(both.left === both.right, both.left !== shared);

// Wrapper objects, Date, RegExp.
const wrappers = structuredClone([new Number(3), new String("str"), new Boolean(false)]);
console.log(wrappers.map((w) => typeof w).join(), wrappers.map((w) => w.valueOf()).join());
console.log(wrappers[0] instanceof Number, wrappers[1] instanceof String, wrappers[1].length);
const date = new Date(86400000);
const dateCopy = structuredClone(date);
console.log(dateCopy instanceof Date, dateCopy !== date, dateCopy.getTime(), dateCopy.toISOString());
console.log(structuredClone(new Date(NaN)).getTime());
const re = /ab+c/gi;
re.lastIndex = 4;
re.custom = 1;
const reCopy = structuredClone(re);
console.log(reCopy instanceof RegExp, reCopy.source, reCopy.flags, reCopy.lastIndex, reCopy.custom, reCopy.test("xABBC"));

// Map and Set, with objects as keys and values.
const key = { k: 1 };
const map = new Map([[key, { v: 1 }], ["s", key]]);
const mapCopy = structuredClone(map);
const [[k0, v0], [k1, v1]] = mapCopy;
console.log(mapCopy instanceof Map, mapCopy.size, k0 !== key, v1 === k0, JSON.stringify(v0), k1);
const set = new Set([1, "a", key, key]);
const setCopy = structuredClone(set);
console.log(setCopy instanceof Set, setCopy.size, [...setCopy].map((v) => typeof v).join());

// Errors: the prototype follows `name`, message/cause/stack are copied.
const err = new RangeError("boom", { cause: { why: "x" } });
err.extra = 1;
const errCopy = structuredClone(err);
console.log(errCopy instanceof RangeError, errCopy.name, errCopy.message, JSON.stringify(errCopy.cause), errCopy.extra);
console.log(errCopy.stack === err.stack, errCopy !== err);
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(errCopy, "message")));
console.log(Object.getOwnPropertyDescriptor(errCopy, "cause").enumerable);
class MyError extends TypeError {
  constructor(m) { super(m); this.name = "MyError"; }
}
const mine = structuredClone(new MyError("m"));
console.log(mine.constructor.name, mine.name, mine.message, mine instanceof TypeError);
const renamed = new Error("r");
renamed.name = "SyntaxError";
console.log(structuredClone(renamed) instanceof SyntaxError);
console.log("message" in structuredClone(new Error()), structuredClone(new Error()).message === "");
const errInObject = structuredClone({ e: new TypeError("t") });
console.log(errInObject.e instanceof TypeError, errInObject.e.message);

// What cannot be cloned.
function report(label, f) {
  try {
    f();
    console.log(label, "cloned");
  } catch (e) {
    console.log(label, e.name, e.message, e.code, e instanceof Error, e instanceof DOMException);
  }
}
report("arrow", () => structuredClone(() => {}));
report("function", () => structuredClone({ f: function f() {} }));
report("symbol", () => structuredClone(Symbol("x")));
report("symbol in array", () => structuredClone([Symbol("y")]));
report("weakmap", () => structuredClone(new WeakMap()));
report("weakset", () => structuredClone(new WeakSet()));
report("promise", () => structuredClone(Promise.resolve()));
report("no argument", () => structuredClone());
report("bad options", () => structuredClone(1, 5));
report("null options", () => structuredClone(1, null));
report("empty transfer", () => structuredClone(1, { transfer: [] }));
report("bad transfer", () => structuredClone(1, { transfer: 5 }));
report("untransferable", () => structuredClone(1, { transfer: [{}] }));

// DOMException itself.
const dom = new DOMException("msg", "DataCloneError");
console.log(dom.name, dom.message, dom.code, String(dom), Object.prototype.toString.call(dom));
const plain = new DOMException();
console.log(JSON.stringify(plain.name), JSON.stringify(plain.message), plain.code, new DOMException("a", "NotFoundError").code);

{
  // Binary data: views of one buffer keep sharing it; resizable buffers
  // stay resizable; a transferred buffer moves and is detached.
  const buf = new ArrayBuffer(8);
  const u8 = new Uint8Array(buf, 2, 4); u8.set([1, 2, 3, 4]);
  const dv = new DataView(buf, 1, 3);
  const c = structuredClone({ buf, u8, dv, f: new Float64Array([1.5, -2]) });
  console.log(c.buf.byteLength, c.u8, c.u8.buffer === c.buf, c.dv.buffer === c.buf, c.dv.byteOffset, c.dv.byteLength, c.f);
  c.u8[0] = 99; console.log(u8[0], new Uint8Array(c.buf)[2]);
  const r = new ArrayBuffer(4, { maxByteLength: 16 });
  const rc = structuredClone(r); console.log(rc.resizable, rc.maxByteLength);
  const t = new ArrayBuffer(3); new Uint8Array(t)[0] = 7;
  const moved = structuredClone(t, { transfer: [t] });
  console.log(t.byteLength, moved.byteLength, new Uint8Array(moved)[0]);
  try { structuredClone(t); } catch (e) { console.log(e.name, e.message); }
  try { const x = new ArrayBuffer(1); structuredClone(x, { transfer: [x, x] }); } catch (e) { console.log(e.name, e.message); }
  try { structuredClone(1, { transfer: [t] }); } catch (e) { console.log(e.name, e.message); }
  const big = structuredClone(new BigInt64Array([5n, -1n])); console.log(big);
}
