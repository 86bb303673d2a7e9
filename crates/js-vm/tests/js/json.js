const data = { name: "jsvm", nums: [1, 2.5, -0, 1e21], nested: { ok: true, nil: null, u: undefined, f() {} }, "quo\"te": "→ arrow \u2028", s: "x".repeat(70) + "y" };
console.log(JSON.stringify(data));
console.log(JSON.stringify(data, null, 2));
console.log(JSON.stringify([new Number(3), new String("s"), new Boolean(false), { toJSON() { return "custom"; } }]));
console.log(JSON.stringify({ a: 1, b: [1, 2], c: "x" }, ["a", "c"]), JSON.stringify({ a: 1, b: 2 }, (k, v) => (k === "b" ? undefined : v)));
const parsed = JSON.parse('{"a":[1,2,{"b":"\\u00e9\\ud83d\\ude00"}],"__proto__":1,"a":"last"}');
console.log(parsed, Object.keys(parsed));
console.log(JSON.parse("[1,2,3]", (k, v) => (typeof v === "number" ? v * 10 : v)));
for (const bad of ["{", "[1,]", "nul", '"\\x"', "1 2"]) { try { JSON.parse(bad); } catch (e) { console.log(e.name); } }
const cyc = {}; cyc.self = cyc; try { JSON.stringify(cyc); } catch (e) { console.log(e.name); }
console.log(JSON.stringify("\ud800"), JSON.stringify({ [Symbol()]: 1, k: Symbol() }), JSON.stringify(undefined));

// Records sharing their keys (the per-parse key cache), with array-index
// keys, a repeated key and non-Latin-1 keys among them.
const records = JSON.parse('[{"id":1,"0":"x","name":"a","id":9},{"id":2,"0":"y","name":"b"},{"\u00e9\u2192":3,"id":4}]');
console.log(JSON.stringify(records), Object.keys(records[0]).join(), Object.keys(records[2]).join());
