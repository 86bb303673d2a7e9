// JSON.stringify and JSON.parse at the sizes real servers see: a 163,000
// character program source as one string (a single `→` makes it a
// two-byte string, as one stray character does in practice), and a
// request-shaped body of 35,000 records in two flavours: all-ASCII (9.0 MB)
// and with non-Latin-1 text (8.4 million characters, 10.3 MB as UTF-8).
// Lengths are checked exactly, parses by their records.
"use strict";

// ---- bench protocol (the same few lines in every workload; bench/README.md) ----
// Each case warms up, then runs batches until MEASURE_MS have passed and
// prints {"bench":NAME,"ops":N,"ms":ELAPSED}; `check` throws on a wrong result.
const WARMUP_MS = 40, MEASURE_MS = 200;
// Under `cargo xtask bench --instructions` (jsvm only) the environment picks
// one case and fixes its batch count, so two runs' instruction counts can be
// subtracted; everywhere else `process` may not even exist.
const ENV = typeof process === "object" && process !== null && process.env ? process.env : {};
const ONLY_CASE = ENV.JSVM_BENCH_CASE || "", FIXED_BATCHES = Number(ENV.JSVM_BENCH_BATCHES || 0);
function report(name, ops, ms) {
  console.log(JSON.stringify({ bench: name, ops: ops, ms: Math.round(ms * 1000) / 1000 }));
}
function bench(name, opsPerBatch, batch, check) {
  if (ONLY_CASE !== "" && ONLY_CASE !== name) return;
  let start = performance.now();
  check(batch());
  let ops = 0, elapsed = performance.now() - start;
  // An engine that needs the whole measuring time for one batch gains
  // nothing from warming up: that batch is the measurement.
  if (FIXED_BATCHES === 0 && elapsed >= MEASURE_MS) return report(name, opsPerBatch, elapsed);
  while (FIXED_BATCHES === 0 && performance.now() - start < WARMUP_MS) check(batch());
  start = performance.now();
  do {
    check(batch());
    ops += opsPerBatch;
    elapsed = performance.now() - start;
  } while (FIXED_BATCHES === 0 ? elapsed < MEASURE_MS : ops < FIXED_BATCHES * opsPerBatch);
  report(name, ops, elapsed);
}
function expectEqual(actual, expected, what) {
  if (actual !== expected) throw new Error(what + ": expected " + expected + ", got " + actual);
}
// ---- end of protocol ----

// A program source of exactly `length` characters: typical lines with
// quotes, backslashes, tabs and newlines to escape, and one `→` in the middle.
function sourceText(length) {
  const lines = [
    "function escapeHtml(text) {",
    "\treturn text.replace(/[&<>\"']/g, (c) => \"&#\" + c.charCodeAt(0) + \";\");",
    "}",
    "const path = \"C:\\\\Users\\\\build\\\\out\"; // a Windows path",
    "\tif (options.verbose) console.log(`step ${index}: ${name}`);",
    "export default { name: 'bench', version: \"1.0.0\", files: [\"a.js\", \"b.js\"] };",
  ];
  let text = "";
  for (let i = 0; text.length < length; i++) text += lines[i % lines.length] + "\n";
  const middle = length >> 1;
  return text.slice(0, middle) + "\u2192" + text.slice(middle + 1, length);
}

// A request body: a batch of records with ids, names, emails, tags, a note,
// numbers and booleans; `note` and `city` carry the flavour's text.
function requestBody(records, nonLatin1) {
  const cities = nonLatin1 ? ["Zürich", "Москва", "東京", "Αθήνα", "São Paulo"] : ["Zurich", "Moscow", "Tokyo", "Athens", "Sao Paulo"];
  const note = nonLatin1
    ? "Заказ подтверждён — доставка 3–5 дней. 注文を確認しました。"
    : "Order confirmed - delivery in 3-5 days. Thank you for your order.";
  const items = [];
  for (let i = 0; i < records; i++) {
    items.push({
      id: i,
      uuid: "req-" + (100000 + i) + "-" + ((i * 7919) % 100003),
      user: { name: "user" + i, email: "user" + i + "@example.com", city: cities[i % cities.length] },
      tags: ["t" + (i % 7), "t" + (i % 11), "t" + (i % 13)],
      score: (i % 1000) / 8,
      active: i % 3 !== 0,
      note: note,
      parent: i % 5 === 0 ? null : i - 1,
    });
  }
  return { method: "POST", path: "/api/v2/orders/batch", headers: { "content-type": "application/json", "x-request-id": "bench" }, items: items };
}

const RECORDS = 35000;
const source = sourceText(163000);
expectEqual(source.length, 163000, "source length");
const asciiBody = requestBody(RECORDS, false);
const wideBody = requestBody(RECORDS, true);
const asciiText = JSON.stringify(asciiBody);
const wideText = JSON.stringify(wideBody);

// The source makes one exact round trip before timing (the bodies' parses
// are checked as they are measured: a round trip each would double the
// setup time of the slowest engines).
expectEqual(JSON.parse(JSON.stringify(source)), source, "source round trip");

const length = (expected, what) => (text) => expectEqual(text.length, expected, what);
const parsed = (original) => (body) => {
  expectEqual(body.items.length, RECORDS, "parsed records");
  expectEqual(body.items[RECORDS - 1].user.city, original.items[RECORDS - 1].user.city, "parsed city");
};
bench("json-stringify-source", 1, () => JSON.stringify(source), length(177925, "stringified source length"));
bench("json-stringify-body-ascii", 1, () => JSON.stringify(asciiBody), length(8983146, "ASCII body length"));
bench("json-stringify-body-non-latin1", 1, () => JSON.stringify(wideBody), length(8395146, "non-Latin-1 body length"));
bench("json-parse-body-ascii", 1, () => JSON.parse(asciiText), parsed(asciiBody));
bench("json-parse-body-non-latin1", 1, () => JSON.parse(wideText), parsed(wideBody));
