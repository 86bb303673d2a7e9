//! Iterator proposals and `Array.fromAsync`, which node 20 lacks (so the
//! node-differential programs can't check them): `Iterator.concat`,
//! `Iterator.zip`/`zipKeyed`, `chunks`/`windows`, `includes`, `join`.

mod support;

#[test]
fn concat_opens_each_iterable_lazily_and_forwards_return() {
    let out = support::run_capturing(
        "concat.js",
        r#"
const log = [];
function tracked(name, values) {
  return {
    [Symbol.iterator]() {
      log.push("open " + name);
      const it = values[Symbol.iterator]();
      return { next: () => it.next(), return() { log.push("return " + name); return {}; } };
    },
  };
}
const c = Iterator.concat(tracked("a", [1, 2]), tracked("b", [3]));
console.log(log.join(","));
console.log(c.next().value, c.next().value, c.next().value, log.join(","));
console.log(JSON.stringify(c.return()), log.join(","));
console.log([...Iterator.concat([1], new String("xy"), new Set([2]))].join(" "));
try { Iterator.concat([1], 2); } catch (e) { console.log(e.constructor.name); }
console.log(JSON.stringify(Iterator.concat().next()));
"#,
    );
    assert_eq!(
        out,
        "\n1 2 3 open a,open b\n{\"done\":true} open a,open b,return b\n1 x y 2\nTypeError\n{\"done\":true}\n"
    );
}

#[test]
fn zip_modes_and_padding() {
    let out = support::run_capturing(
        "zip.js",
        r#"
const show = (it) => JSON.stringify([...it]);
console.log(show(Iterator.zip([[1, 2, 3], ["a", "b"]])));
console.log(show(Iterator.zip([[1, 2, 3], ["a"]], { mode: "longest" })));
console.log(show(Iterator.zip([[1, 2, 3], ["a"]], { mode: "longest", padding: [0, "z"] })));
console.log(show(Iterator.zip([[1, 2], ["a", "b"]], { mode: "strict" })));
try { [...Iterator.zip([[1, 2], ["a"]], { mode: "strict" })]; } catch (e) { console.log(e.constructor.name); }
try { Iterator.zip([], { mode: "bogus" }); } catch (e) { console.log(e.constructor.name); }
const keyed = [...Iterator.zipKeyed({ x: [1, 2], y: ["a", "b", "c"] }, { mode: "longest", padding: { x: 9 } })];
console.log(JSON.stringify(keyed), Object.getPrototypeOf(keyed[0]));
let closed = 0;
const endless = { next: () => ({ value: 7, done: false }), return() { closed++; return {}; } };
console.log(show(Iterator.zip([endless, [1]])), closed);
"#,
    );
    assert_eq!(
        out,
        concat!(
            "[[1,\"a\"],[2,\"b\"]]\n",
            "[[1,\"a\"],[2,null],[3,null]]\n",
            "[[1,\"a\"],[2,\"z\"],[3,\"z\"]]\n",
            "[[1,\"a\"],[2,\"b\"]]\n",
            "TypeError\n",
            "TypeError\n",
            "[{\"x\":1,\"y\":\"a\"},{\"x\":2,\"y\":\"b\"},{\"x\":9,\"y\":\"c\"}] null\n",
            "[[7,1]] 1\n",
        )
    );
}

#[test]
fn chunks_windows_includes_join() {
    let out = support::run_capturing(
        "chunking.js",
        r#"
const digits = () => [0, 1, 2, 3, 4].values();
console.log(JSON.stringify(digits().chunks(2).toArray()));
console.log(JSON.stringify(digits().windows(3).toArray()));
console.log(JSON.stringify([1, 2].values().windows(3).toArray()));
console.log(JSON.stringify([1, 2].values().windows(3, "allow-partial").toArray()));
try { digits().chunks(0); } catch (e) { console.log(e.constructor.name); }
try { digits().chunks("2"); } catch (e) { console.log(e.constructor.name); }
console.log(digits().includes(3), digits().includes(3, 4), [NaN].values().includes(NaN));
try { digits().includes(1, -1); } catch (e) { console.log(e.constructor.name); }
console.log(digits().join(), digits().join(" - "), [null, undefined, "x"].values().join("|"));
"#,
    );
    assert_eq!(
        out,
        concat!(
            "[[0,1],[2,3],[4]]\n",
            "[[0,1,2],[1,2,3],[2,3,4]]\n",
            "[]\n",
            "[[1,2]]\n",
            "RangeError\n",
            "TypeError\n",
            "true false true\n",
            "RangeError\n",
            "0,1,2,3,4 0 - 1 - 2 - 3 - 4 ||x\n",
        )
    );
}

#[test]
fn array_from_async_awaits_values_and_mapper() {
    let out = support::run_capturing(
        "from-async.js",
        r#"
async function* gen() { yield 1; yield Promise.resolve(2); }
Array.fromAsync(gen()).then((a) => console.log("async iterable", JSON.stringify(a)));
Array.fromAsync([Promise.resolve("a"), "b"]).then((a) => console.log("sync iterable", JSON.stringify(a)));
Array.fromAsync({ length: 2, 0: 5, 1: Promise.resolve(6) }, async (v, i) => v * 10 + i)
  .then((a) => console.log("array-like", JSON.stringify(a)));
class Box { constructor() { this.made = true; } }
Array.fromAsync.call(Box, [1, 2]).then((b) => console.log(b instanceof Box, b.length, b[1]));
Array.fromAsync([1], 5).catch((e) => console.log("rejects", e.constructor.name));
Array.fromAsync(null).catch((e) => console.log("rejects", e.constructor.name));
let closed = false;
const it = {
  [Symbol.asyncIterator]() {
    return { next: async () => ({ value: 1, done: false }), return: async () => { closed = true; return {}; } };
  },
};
Array.fromAsync(it, () => { throw new Error("boom"); }).catch((e) => console.log(e.message, closed));
console.log("sync part done");
"#,
    );
    let mut lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.remove(0), "sync part done");
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "array-like [50,61]",
            "async iterable [1,2]",
            "boom true",
            "rejects TypeError",
            "rejects TypeError",
            "sync iterable [\"a\",\"b\"]",
            "true 2 2",
        ]
    );
}
