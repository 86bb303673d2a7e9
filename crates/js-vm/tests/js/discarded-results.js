// Updates and assignments whose value is unused (expression statements,
// `for` heads, comma operands) write only their binding's register; a
// `return x` returns the register in place; a lexical binding read only
// after its declaration skips the TDZ marker. Each case here is one the
// shortcut must not change: conversions run once, reads see the old value,
// the TDZ and const errors stay, a `finally` still sees its own writes.
"use strict";

const log = [];
function show(label, value) {
  log.push(label + ": " + (typeof value === "bigint" ? value + "n" : String(value)));
}
function thrown(label, f) {
  try {
    f();
    show(label, "no error");
  } catch (e) {
    show(label, e.constructor.name);
  }
}

// ToNumeric runs once, postfix or prefix, on strings, objects and BigInts.
(function () {
  let s = "41";
  s++;
  show("string++", s);
  let t = "x";
  --t;
  show("--string", t);
  let calls = 0;
  let o = { valueOf() { calls++; return 6; } };
  o++;
  show("object++", o + " after " + calls + " valueOf");
  let b = 9n;
  b++;
  b--;
  --b;
  show("bigint", b);
  let n = null;
  n++;
  show("null++", n);
  let u;
  u++;
  show("undefined++", u);
})();

// Compound assignments in statement position.
(function () {
  let sum = 0, text = "", bits = 0xff;
  for (let i = 0; i < 5; i++) {
    sum += i;
    text += i;
    bits &= ~(1 << i);
  }
  show("sum", sum);
  show("text", text);
  show("bits", bits);
  let x = 2;
  x **= 10;
  x %= 1000;
  x >>>= 1;
  show("x", x);
})();

// `x = e` straight into x's register: e reads the old x first.
(function () {
  function f(v) { return v * 10; }
  function C(v) { this.v = v; }
  let x = 3;
  x = f(x);
  show("x = f(x)", x);
  x = new C(x);
  show("x = new C(x)", x.v);
  x = x.v;
  show("x = x.v", x);
  let list = { value: 1, next: { value: 2, next: null } };
  let values = [];
  while (list) {
    values.push(list.value);
    list = list.next;
  }
  show("list walk", values.join());
  const table = ["zero", "one", "two"];
  let k = 2;
  k = table[k];
  show("k = table[k]", k);
  let y = 1;
  y = y + (y = 5);
  show("y = y + (y = 5)", y);
  let z = 1;
  z = 10 + (z = 5) + z;
  show("z = 10 + (z = 5) + z", z);
  let w = 4;
  w = w;
  show("w = w", w);
  let m = 7;
  m = [m, m];
  show("m = [m, m]", m.join());
  let q = 1;
  q = { q };
  show("q = { q }", q.q);
  let c = 2;
  c = c > 1 ? c * 2 : c;
  show("conditional", c);
})();

// A left operand read from its register while the right one runs: only
// an assignment or update inside the right operand can change it.
(function () {
  const id = (v) => v;
  let x = 1;
  x += id(x = 10);
  show("x += id(x = 10)", x);
  let y = 2;
  show("y < (y = 1, 3)", y < (y = 1, 3));
  let z = 3;
  show("z * id(z++)", z * id(z++) + " then " + z);
  let w = 4;
  w -= id(w) + id(--w);
  show("w -= id(w) + id(--w)", w);
  let v = 5;
  const calls = [];
  v += (calls.push(v), id(v)) + (v > 4 ? v : 0);
  show("v +=", v + " " + calls);
})();

// An operand stays in its register unless a later operand assigns that
// very binding (other names, and properties, leave it alone).
(function () {
  let a = 1, b = 0, i = 0;
  const x = [10, 20, 30, 40, 50];
  show("a + (b = 2)", a + (b = 2));
  show("a + (a = 5) + a", a + (a = 5) + a);
  i = 0;
  show("x[i] + x[++i] + x[++i]", x[i] + x[++i] + x[++i] + " i " + i);
  i = 0;
  show("++i + i++ + i", ++i + i++ + i);
  i = 1;
  show("(++i) * (i = 10)", (++i) * (i = 10));
  i = 0;
  const y = [0, 0, 0, 0];
  y[++i] = ++i;
  show("y[++i] = ++i", y.join());
  let c = 3;
  c *= (b = 4) + c;
  show("c *= (b = 4) + c", c);
  let d = 2;
  d += (d = 10) + d;
  show("d += (d = 10) + d", d);
  let o = { v: 1 };
  show("o.v + (o.v = 7)", o.v + (o.v = 7));
  let e = 3;
  show("e < (e = 1)", e < (e = 1));
  let f = 1;
  show("f == (f = 2)", f == (f = 2) ? "equal" : "different");
})();

// Property references keep their base and key in the binding's register
// only when nothing before the write can assign the binding.
(function () {
  const first = { name: "first" }, second = { name: "second" };
  let o = first;
  o.x = (o = second, 5);
  show("o.x = (o = second, 5)", "first.x " + first.x + ", second.x " + second.x);
  o = first;
  o.y += (o = second, 1);
  show("o.y += (o = second, 1)", "first.y " + first.y + ", second.y " + second.y);
  let k = "a";
  const t = {};
  t[k] = (k = "b", 1);
  show("t[k] = (k = 'b', 1)", JSON.stringify(t));
  let n = 0;
  const counter = { count: 1 };
  counter.count++;
  counter["count"] += 2;
  counter[n]++;
  show("counter", JSON.stringify(counter));
  function Box(v) { this.v = v; this.w = this.v * 2; }
  show("this.v", JSON.stringify(new Box(3)));
})();

// == and != as a branch condition: IsLooselyEqual's conversions, once each.
(function () {
  const calls = [];
  const boxed = { valueOf() { calls.push("valueOf"); return 1; } };
  const results = [];
  for (const [a, b] of [[null, undefined], [0, ""], [NaN, NaN], ["1", 1], [boxed, 1], [1n, 1], [null, 0], [{}, {}]]) {
    if (a == b) results.push("==");
    else results.push("!=");
    if (a != b) results.push("!=");
    else results.push("==");
  }
  show("loose branches", results.join(" ") + " / " + calls.join());
  let node = { next: { next: { next: null } } }, hops = 0;
  while (node.next != null) { node = node.next; hops++; }
  show("while (node.next != null)", hops);
})();

// Sequences and `for` heads.
(function () {
  let a = 0, b = 0, c;
  c = (a++, b += 2, a + b);
  show("sequence", [a, b, c].join());
  let i, j, steps = 0;
  for (i = 0, j = 10; i < j; i++, j--) steps++;
  show("for heads", [i, j, steps].join());
})();

// TDZ and const errors are kept.
thrown("write before let", () => {
  x = 1;
  let x;
});
thrown("update before let", () => {
  x++;
  let x = 0;
});
thrown("compound before let", () => {
  x += 1;
  let x = 0;
});
thrown("let x = x", () => {
  let x = x;
});
thrown("switch case skips the declaration", () => {
  switch (1) {
    case 0:
      let y = 1;
    case 1:
      y = 2;
  }
});
thrown("switch case reads", () => {
  switch (1) {
    case 0:
      let y = 1;
    case 1:
      return y;
  }
});
thrown("const assignment", () => {
  const c = 1;
  c = 2;
});
thrown("const update", () => {
  const c = 1;
  c++;
});
thrown("read in a loop before the declaration", () => {
  for (let i = 0; i < 2; i++) {
    if (i === 1) show("never", v);
    let v = i;
  }
});
(function () {
  // The binding is fresh, and uninitialized, on every iteration.
  const seen = [];
  for (let i = 0; i < 3; i++) {
    let v;
    seen.push(v);
    v = i;
    seen.push(v);
  }
  show("fresh per iteration", seen.join("|"));
})();
(function () {
  // A named function expression's own name is read-only (sloppy: silently).
  for (const body of ["f = 1; f++;", "++f;", "f += 1;", "f -= 1, f **= 2;", "var r = f++; if (r === r) throw 0;"]) {
    const g = Function("return function f() { " + body + " return typeof f; }")();
    show("function name after " + body, g());
  }
})();

// `return x` in place, and with a finally block that writes x.
(function () {
  function plain() {
    let x = 1;
    x = x + 1;
    return x;
  }
  function withFinally() {
    let x = 1;
    try {
      return x;
    } finally {
      x = 2;
    }
  }
  function nestedFinally() {
    let x = "a";
    try {
      try {
        return x;
      } finally {
        x += "b";
      }
    } finally {
      x += "c";
    }
  }
  function throughIterator() {
    let x = "kept";
    const iterable = {
      [Symbol.iterator]() {
        return { next: () => ({ value: 1, done: false }), return() { x = "changed"; return {}; } };
      },
    };
    for (const v of iterable) return x;
  }
  show("plain", plain());
  show("withFinally", withFinally());
  show("nestedFinally", nestedFinally());
  show("throughIterator", throughIterator());
})();

console.log(log.join("\n"));
