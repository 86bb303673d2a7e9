//! Explicit resource management (ES2026): `using`/`await using`,
//! `DisposableStack`, `AsyncDisposableStack`, `SuppressedError`. Node 20
//! lacks all of it, so these are Rust tests of printed output rather than
//! node-differential programs in `tests/js`. The expected output follows the
//! spec's `DisposeResources` (reverse order, `SuppressedError` chains, the
//! `needsAwait`/`hasAwaited` rule for `await using`).

mod support;

/// Sync `using`: every way out of a block, function, loop head or generator
/// disposes in reverse order; errors chain into `SuppressedError`s.
#[test]
fn using_disposes_on_every_exit_in_reverse_order() {
    let out = support::run_capturing(
        "a.js",
        r#"
const log = [];
const res = (name, fail) => ({ [Symbol.dispose]() { log.push(name); if (fail) throw new Error(name); } });
function exits(kind) {
  for (const i of [1, 2]) {
    using a = res("a" + i);
    {
      using b = res("b" + i), c = null, d = undefined;
      if (kind === "break") break;
      if (kind === "continue") continue;
      if (kind === "return") return "returned";
    }
    log.push("end " + i);
  }
  return "done";
}
for (const kind of ["normal", "break", "continue", "return"]) {
  log.length = 0;
  console.log(kind, exits(kind), log.join(" "));
}
log.length = 0;
try {
  using x = res("x", true);
  using y = res("y", true);
  throw new Error("body");
} catch (e) {
  console.log(e instanceof SuppressedError, e.error.message, e.suppressed instanceof SuppressedError,
    e.suppressed.error.message, e.suppressed.suppressed.message, log.join(" "));
}
try { using z = res("z", true); } catch (e) { console.log("alone", e.message, e instanceof SuppressedError); }
try { using bad = 1; } catch (e) { console.log(e.constructor.name); }
try { using bad = {}; } catch (e) { console.log(e.constructor.name); }
try { (() => { using q = res("q"); q = 1; })(); } catch (e) { console.log(e.constructor.name, log.at(-1)); }
log.length = 0;
for (using it of [res("i1"), res("i2")]) log.push("body");
for (let n = 0, stop = false; !stop; stop = true) { using h = res("h"); }
for (using f = res("for-head"); log.length < 6; ) log.push("loop");
console.log(log.join(" "));
function* gen() { using g = res("gen"); yield 1; yield 2; }
const it = gen(); it.next(); it.return(); console.log(log.at(-1));
console.log([1, 2, 3].values()[Symbol.dispose]?.name, typeof Iterator.prototype[Symbol.dispose]);
let returned = 0;
const iter = { __proto__: Iterator.prototype, next() { return { done: false }; }, return() { returned++; return {}; } };
{ using i = iter; }
console.log("returned", returned);
"#,
    );
    assert_eq!(
        out,
        concat!(
            "normal done b1 end 1 a1 b2 end 2 a2\n",
            "break done b1 a1\n",
            "continue done b1 a1 b2 a2\n",
            "return returned b1 a1\n",
            "true x true y body y x\n",
            "alone z false\n",
            "TypeError\n",
            "TypeError\n",
            "TypeError q\n",
            "body i1 body i2 h loop for-head\n",
            "gen\n",
            "[Symbol.dispose] function\n",
            "returned 1\n",
        )
    );
}

/// `await using`: each disposal is awaited (once for null resources, never
/// for an unevaluated declaration), in async functions, async generators and
/// `for await` heads; `AsyncDisposableStack` and
/// `%AsyncIteratorPrototype%[Symbol.asyncDispose]`.
#[test]
fn await_using_awaits_each_disposal() {
    let out = support::run_capturing(
        "b.js",
        r#"
const log = [];
const tick = (name) => Promise.resolve().then(() => log.push(name));
const asyncRes = (name, fail) => ({
  async [Symbol.asyncDispose]() { log.push("dispose " + name); if (fail) throw new Error(name); },
});
const syncRes = (name) => ({ [Symbol.dispose]() { log.push("sync " + name); return "ignored"; } });
async function main() {
  {
    await using a = asyncRes("a"), b = syncRes("b"), n = null;
    log.push("body");
  }
  log.push("after block");
  console.log(log.join(", "));
  log.length = 0;
  // A null resource alone still awaits once: the tick runs first.
  tick("tick");
  const p = (async () => { { await using n = null; } log.push("after null"); })();
  await p;
  console.log(log.join(", "));
  log.length = 0;
  // An await using that never ran its declaration does not await.
  tick("tick2");
  const q = (async () => { { if (true) {} else { await using never = null; } } log.push("no await"); })();
  await q;
  console.log(log.join(", "));
  log.length = 0;
  try {
    await using x = asyncRes("x", true), y = asyncRes("y", true);
    throw new Error("body");
  } catch (e) {
    console.log(e.constructor.name, e.error.message, e.suppressed.error.message, e.suppressed.suppressed.message);
  }
  async function* agen() { await using r = asyncRes("gen"); yield 1; log.push("unreached"); }
  const g = agen();
  await g.next();
  await g.return(5);
  for await (await using v of [asyncRes("v1"), asyncRes("v2")]) log.push("iter");
  console.log(log.join(", "));
  const stack = new AsyncDisposableStack();
  stack.use(asyncRes("s1"));
  stack.use(syncRes("s2"));
  stack.defer(async () => log.push("deferred"));
  const v = stack.adopt(42, async (x) => log.push("adopted " + x));
  log.length = 0;
  const moved = stack.move();
  console.log(v, stack.disposed, moved.disposed, Object.prototype.toString.call(moved));
  await moved[Symbol.asyncDispose]();
  console.log(log.join(", "), moved.disposed);
  try { moved.use(null); } catch (e) { console.log(e.constructor.name); }
  const failing = new AsyncDisposableStack();
  failing.defer(() => { throw new Error("first"); });
  failing.defer(() => Promise.reject(new Error("second")));
  await failing.disposeAsync().catch((e) => console.log(e.constructor.name, e.error.message, e.suppressed.message));
  let closed = 0;
  const aiter = { __proto__: Object.getPrototypeOf(Object.getPrototypeOf((async function* () {})())),
    async return() { closed++; return { done: true }; } };
  console.log(await aiter[Symbol.asyncDispose](), closed);
}
main().then(() => console.log("main done"), (e) => console.log("main failed", e));
"#,
    );
    assert_eq!(
        out,
        concat!(
            "body, sync b, dispose a, after block\n",
            "tick, after null\n",
            "no await, tick2\n",
            "SuppressedError x y body\n",
            "dispose y, dispose x, dispose gen, iter, dispose v1, iter, dispose v2\n",
            "42 true false [object AsyncDisposableStack]\n",
            "adopted 42, deferred, sync s2, dispose s1 true\n",
            "ReferenceError\n",
            "SuppressedError first second\n",
            "undefined 1\n",
            "main done\n",
        )
    );
}

/// Early errors of `using`/`await using`, and `using` still an identifier
/// where no declaration can start.
#[test]
fn early_errors_and_using_as_an_identifier() {
    let out = support::run_capturing(
        "c.js",
        r#"
const cases = [
  "using x = null;",
  "{ using x; }",
  "{ using [a] = null; }",
  "{ using {a} = null; }",
  "for (using x in {}) {}",
  "switch (1) { case 1: using x = null; }",
  "switch (1) { default: using x = null; }",
  "function f() { await using x = null; }",
  "class C { static { await using x = null; } }",
  "{ using x = null, x = null; }",
];
for (const text of cases) {
  try { new Function("return " + JSON.stringify(text))(); (0, eval)(text); console.log("accepted", text); }
  catch (e) { console.log(e.constructor.name, text); }
}
try { eval("using x = null;"); } catch (e) { console.log("direct eval", e.constructor.name); }
console.log(eval("{ using x = null; 42 }"));
{ using using = null; console.log("a binding named using", using); }
let using = 1; { using \u0061 = null; }
console.log("using as identifier", using, (function () { var using; using = 2; return using; })());
"#,
    );
    assert_eq!(
        out,
        concat!(
            "SyntaxError using x = null;\n",
            "SyntaxError { using x; }\n",
            "ReferenceError { using [a] = null; }\n",
            "SyntaxError { using {a} = null; }\n",
            "SyntaxError for (using x in {}) {}\n",
            "SyntaxError switch (1) { case 1: using x = null; }\n",
            "SyntaxError switch (1) { default: using x = null; }\n",
            "SyntaxError function f() { await using x = null; }\n",
            "SyntaxError class C { static { await using x = null; } }\n",
            "SyntaxError { using x = null, x = null; }\n",
            "direct eval SyntaxError\n",
            "42\n",
            "a binding named using null\n",
            "using as identifier 1 2\n",
        )
    );
}

/// `DisposableStack`'s methods and states, its brand check, subclassing, and
/// `SuppressedError`.
#[test]
fn disposable_stack_and_suppressed_error() {
    let out = support::run_capturing(
        "s.js",
        r#"
const log = [];
const res = (name) => ({ [Symbol.dispose]() { log.push(name); } });
const s = new DisposableStack();
console.log(s.use(null), s.use(undefined), s.defer(() => log.push("deferred")));
const r = s.use(res("used"));
console.log(s.adopt(5, (v) => log.push("adopted " + v)), typeof r[Symbol.dispose]);
const moved = s.move();
console.log(s.disposed, moved.disposed, Object.prototype.toString.call(moved), moved instanceof DisposableStack);
for (const f of [() => s.use(res("late")), () => s.move(), () => s.defer(() => {})]) {
  try { f(); } catch (e) { console.log(e.constructor.name); }
}
moved[Symbol.dispose]();
moved.dispose();
console.log(log.join(", "), moved.disposed);
try { DisposableStack(); } catch (e) { console.log("call", e.constructor.name); }
try { DisposableStack.prototype.use.call(new AsyncDisposableStack(), null); } catch (e) { console.log("brand", e.constructor.name); }
class Sub extends DisposableStack {}
const sub = new Sub();
console.log(sub instanceof Sub, sub.move() instanceof Sub, DisposableStack.prototype[Symbol.dispose] === DisposableStack.prototype.dispose);
const failing = new DisposableStack();
failing.defer(() => { throw new Error("one"); });
failing.defer(() => { throw new Error("two"); });
try { failing.dispose(); } catch (e) { console.log(e.name, e.error.message, e.suppressed.message, Object.keys(e).length); }
const se = new SuppressedError("err", "sup", "msg");
console.log(se.message, se.error, se.suppressed, SuppressedError.length, Object.getPrototypeOf(SuppressedError) === Error);
"#,
    );
    assert_eq!(
        out,
        concat!(
            "null undefined undefined\n",
            "5 function\n",
            "true false [object DisposableStack] true\n",
            "ReferenceError\n",
            "ReferenceError\n",
            "ReferenceError\n",
            "adopted 5, used, deferred true\n",
            "call TypeError\n",
            "brand TypeError\n",
            "true false true\n",
            "SuppressedError one two 0\n",
            "msg err sup 3 true\n",
        )
    );
}
