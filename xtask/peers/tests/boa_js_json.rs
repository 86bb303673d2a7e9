//! Boa with js-json under `JSON` prints what Boa with its own `JSON`
//! prints: on the node-compared test programs that use JSON, and on the
//! bench workload's bodies, compared text for text in one realm.
//!
//! Run with `cargo test --release --manifest-path xtask/peers/Cargo.toml
//! --features boa`.
#![cfg(feature = "boa")]

use std::path::PathBuf;

use boa_engine::{Context, Source};

const BOA: &str = env!("CARGO_BIN_EXE_jsvm-peer-boa");
const BOA_JS_JSON: &str = env!("CARGO_BIN_EXE_jsvm-peer-boa-js-json");

mod common;
use common::{root, run, stderr_of, test_programs};

/// Test programs on which Boa's own `JSON.parse` throws where the spec (and
/// node, and js-json) does not: it rejects the escape of a lone surrogate,
/// `JSON.parse('{"\\ud800":1}')`, with this message.
const BOA_JSON_BUGS: &[(&str, &str)] = &[("language-semantics.js", "unexpected end of hex escape")];

#[test]
fn test_programs_using_json_print_the_same() {
    let dir = root().join("crates/js-vm/tests/js");
    let programs: Vec<PathBuf> = test_programs()
        .into_iter()
        .filter(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains("JSON.")))
        .collect();
    assert!(programs.len() > 10, "found {} programs", programs.len());
    let mut ran_to_the_end = 0;
    for program in &programs {
        let (ours, theirs) = (run(BOA_JS_JSON, program), run(BOA, program));
        let name = program.file_name().unwrap().to_string_lossy();
        if let Some(&(_, boa_error)) = BOA_JSON_BUGS.iter().find(|(file, _)| *file == name) {
            // Boa's own JSON stops the program; up to there, the output
            // is the same.
            let (ours, theirs) = (String::from_utf8_lossy(&ours.stdout), String::from_utf8_lossy(&theirs.stdout));
            assert!(stderr_of(&run(BOA, program), BOA).contains(boa_error), "{name}: Boa's JSON no longer fails");
            assert!(ours.starts_with(&*theirs), "{name}: stdout differs before Boa's JSON fails");
            continue;
        }
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "{name}: stdout differs"
        );
        assert_eq!(ours.status.code(), theirs.status.code(), "{name}: exit status differs");
        assert_eq!(stderr_of(&ours, BOA_JS_JSON), stderr_of(&theirs, BOA), "{name}: stderr differs");
        if theirs.status.success() {
            ran_to_the_end += 1;
        }
    }
    // Most programs need node's host APIs and stop early on Boa (the same
    // way on both); json.js runs to the end.
    assert!(ran_to_the_end >= 1, "no program ran to the end");
    let json = run(BOA_JS_JSON, &dir.join("json.js"));
    assert!(json.status.success(), "json.js: {}", String::from_utf8_lossy(&json.stderr));
}

/// What the workload's values give under both `JSON`s, compared in the
/// realm that made them: `stringify` plain and indented, and `parse` of
/// Boa's text, read back through Boa's `stringify`. A lone surrogate is
/// only stringified: Boa's own `JSON.parse` rejects the `\ud800` escape
/// its `stringify` writes (a `SyntaxError`, "unexpected end of hex escape"),
/// which js-json parses as the spec says.
const COMPARE: &str = r#"
const differences = [];
const values = { source, asciiBody, wideBody, data: { n: [1, -0, 1e21, 0.1], s: "\u2028\"\\", u: undefined, f() {} } };
for (const value of ["\ud800", ["a\udc00b"], { k: "\ud83d" }]) {
  if (JSON.stringify(value) !== BoaJSON.stringify(value)) differences.push(`stringify ${BoaJSON.stringify(value)}`);
}
for (const [name, value] of Object.entries(values)) {
  for (const space of [undefined, 2, "\t"]) {
    const ours = JSON.stringify(value, null, space), theirs = BoaJSON.stringify(value, null, space);
    if (ours !== theirs) differences.push(`stringify ${name} space ${space}: ${ours.length} vs ${theirs.length}`);
  }
  const text = BoaJSON.stringify(value);
  const ours = BoaJSON.stringify(JSON.parse(text)), theirs = BoaJSON.stringify(BoaJSON.parse(text));
  if (ours !== theirs) differences.push(`parse ${name}: ${ours.length} vs ${theirs.length}`);
}
for (const text of [asciiText, wideText]) {
  if (JSON.stringify(JSON.parse(text)) !== text) differences.push("round trip of a body");
}
differences.join("\n");
"#;

#[test]
fn workload_bodies_stringify_and_parse_the_same() {
    let mut context: Context =
        js_peers::boa_runner::context(js_peers::boa_runner::Adopted::default()).expect("a context");
    context
        .eval(Source::from_bytes("globalThis.BoaJSON = { stringify: JSON.stringify, parse: JSON.parse };"))
        .expect("Boa's JSON saved");
    js_peers::boa_json::install(&mut context).expect("js-json installed");
    let workload = root().join("bench/workloads/json.js");
    let source = std::fs::read_to_string(&workload).expect("the workload");
    context.eval(Source::from_bytes(source.as_bytes())).expect("the workload runs with js-json");
    let differences = context.eval(Source::from_bytes(COMPARE)).expect("the comparison runs");
    let differences = differences.to_string(&mut context).expect("a string").to_std_string_escaped();
    assert_eq!(differences, "", "js-json and Boa's JSON differ");
    // And js-json is what `JSON` now is.
    let native = context.eval(Source::from_bytes("JSON.stringify === BoaJSON.stringify")).expect("compare");
    assert_eq!(native.as_boolean(), Some(false));
}

/// Edge cases of both paths, each made afresh for each `JSON` (a case may
/// change its values): the result text, or the name of what was thrown.
const EDGE_CASES: &str = r#"
const cases = [
  (J) => J.stringify({ get a() { return 1; }, b: 2 }),
  (J) => J.stringify(Object.defineProperty({ a: 1 }, "h", { value: 2, enumerable: false })),
  (J) => J.stringify({ [Symbol("s")]: 1, k: 2, 2: "two", 1: "one" }),
  (J) => { const o = { a: 1, b: 2, c: 3 }; delete o.b; o.d = 4; return J.stringify(o); },
  (J) => J.stringify([1, , 3, undefined, () => 1, Symbol()]),
  (J) => { const a = [1, 2]; a.length = 4; return J.stringify(a); },
  (J) => { Array.prototype[1] = "proto"; try { return J.stringify([0, , 2]); } finally { delete Array.prototype[1]; } },
  (J) => { Object.prototype.toJSON = function () { return "P"; }; try { return J.stringify({ a: [1] }); } finally { delete Object.prototype.toJSON; } },
  (J) => J.stringify(Object.create({ inherited: 1 }, { own: { value: 2, enumerable: true } })),
  (J) => J.stringify(new Proxy({ a: 1, b: [2] }, {})),
  (J) => J.stringify(new Proxy([1, 2], { get(t, k) { return k === "length" ? 2 : "x" + String(k); } })),
  (J) => J.stringify([new Number(1), new String("s"), new Boolean(true), Object(1n) === 0]),
  (J) => J.stringify({ big: 1n }),
  (J) => J.stringify(JSON.rawJSON("1e1000")),
  (J) => J.stringify({ r: JSON.rawJSON('"x"'), d: new Date(0), m: new Map([[1, 2]]), re: /x/g }),
  (J) => J.stringify({ a: 1, b: { c: 2 } }, (k, v) => (typeof v === "number" ? v + 1 : v), "--"),
  (J) => J.stringify({ a: 1, b: 2, c: { a: 3, d: 4 } }, ["a", "c", 1]),
  (J) => J.stringify({ a: [{}, []] }, null, 20),
  (J) => J.stringify({ a: "\u0000\u001f\u007f\u2028\u2029\ud834\udd1e\udc00" }),
  (J) => J.stringify([-0, NaN, Infinity, 1e-7, 123456789012345680000, 0.1 + 0.2]),
  (J) => { const o = {}; o.o = { p: o }; return J.stringify(o); },
  (J) => J.stringify(Object.assign(Object.create(null), { n: null })),
  (J) => J.stringify(function () {}) + "|" + J.stringify(Symbol()) + "|" + J.stringify(undefined),
  (J) => BoaJSON.stringify(J.parse('{"b":1,"a":2,"1":3,"0":4,"b":5}')),
  (J) => BoaJSON.stringify(J.parse('[1,{"x":[true,false,null]}]', function (k, v) { return Array.isArray(v) ? v.length : v; })),
  (J) => BoaJSON.stringify(J.parse('{"a":{"b":1}}', function (k, v) { if (k === "a") { delete this.a; } return v; })),
  (J) => BoaJSON.stringify(J.parse(' \t\n\r"\\u00e9\\n\\/" ')),
  (J) => J.parse("-0") + "|" + (1 / J.parse("-0")) + "|" + J.parse("1e308"),
  (J) => J.parse("[1,]"),
  (J) => J.parse('{"a":1,}'),
  (J) => J.parse("01"),
  (J) => J.parse('"\u0001"'),
  (J) => J.parse({ toString() { return "[7]"; } })[0],
  (J) => J.stringify({ toJSON(key) { return "key:" + key; } }),
  (J) => J.stringify({ a: { toJSON() { throw new RangeError("inner"); } } }),
  (J) => J.stringify({ get a() { throw new TypeError("getter"); } }),
];
const results = [];
cases.forEach((make, index) => {
  const run = (J) => { try { return "= " + String(make(J)); } catch (e) { return "! " + (e && e.name); } };
  const ours = run(JSON), theirs = run(BoaJSON);
  if (ours !== theirs) results.push(`case ${index}: js-json ${ours} | Boa ${theirs}`);
});
results.join("\n");
"#;

/// Where Boa's own `JSON.parse` is wrong, js-json gives the spec's (and
/// node's) answer: Boa rejects numbers that round to infinity ("number out
/// of range") and escapes of lone surrogates.
const BOA_BUGS: &str = r#"
[JSON.parse("1e400"), JSON.parse("-1E400"), JSON.parse('"\\ud800"').length, JSON.parse('"\\udc00"').charCodeAt(0)].join()
 + "|" + ["1e400", '"\\ud800"'].map((t) => { try { BoaJSON.parse(t); return "parsed"; } catch (e) { return e.name; } }).join()
"#;

#[test]
fn edge_cases_give_the_same_results() {
    let mut context: Context =
        js_peers::boa_runner::context(js_peers::boa_runner::Adopted::default()).expect("a context");
    context
        .eval(Source::from_bytes("globalThis.BoaJSON = { stringify: JSON.stringify, parse: JSON.parse };"))
        .expect("Boa's JSON saved");
    js_peers::boa_json::install(&mut context).expect("js-json installed");
    let differences = context.eval(Source::from_bytes(EDGE_CASES)).expect("the cases run");
    let differences = differences.to_string(&mut context).expect("a string").to_std_string_escaped();
    assert_eq!(differences, "", "js-json and Boa's JSON differ");
    let bugs = context.eval(Source::from_bytes(BOA_BUGS)).expect("the cases run");
    let bugs = bugs.to_string(&mut context).expect("a string").to_std_string_escaped();
    assert_eq!(bugs, "Infinity,-Infinity,1,56320|SyntaxError,SyntaxError");
}
