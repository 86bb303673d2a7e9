// Sloppy-mode function declarations in blocks (Annex B.3.2) and the
// declarations of direct eval code, as node runs them.

function show(label, f) {
  try {
    console.log(label, f());
  } catch (e) {
    console.log(label, e.constructor.name);
  }
}

// The var binding exists (undefined) before the block runs and takes the
// function when the declaration is evaluated.
show("before and after", () => {
  const before = typeof f;
  {
    function f() { return "inner"; }
  }
  return [before, typeof f, f()].join(" ");
});

// Inside the block, the function is there from the block's start.
show("hoisted in the block", () => {
  {
    const early = g();
    function g() { return "early"; }
    return early;
  }
});

// The block binding and the var binding are separate.
show("independent bindings", () => {
  let seen;
  {
    function h() { return 1; }
    h = 2;
    seen = h;
  }
  return [seen, typeof h].join(" ");
});

// A later block's declaration updates the var binding again.
show("second block", () => {
  { function k() { return "first"; } }
  const first = k();
  { function k() { return "second"; } }
  return [first, k()].join(" ");
});

// An existing var or function is the binding that gets updated.
show("existing var", () => {
  var m = "var";
  const before = m;
  { function m() { return "fn"; } }
  return [before, m()].join(" ");
});

// Skipped when a lexical declaration in between would make `var` an error.
show("skipped for let", () => {
  {
    let n = "let";
    { function n() {} }
  }
  return typeof n;
});

// Skipped for a parameter of the same name.
show("skipped for a parameter", () => (function (p) {
  { function p() {} }
  return typeof p;
})(42));

// A plain catch parameter does not prevent it (B.3.5).
show("catch parameter", () => {
  try {
    throw null;
  } catch (q) {
    { function q() { return "from catch"; } }
  }
  return q();
});

// switch clauses and if branches (B.3.4).
show("switch case", () => {
  switch (1) {
    case 1:
      function s() { return "case"; }
  }
  return s();
});
show("if branch", () => {
  if (true) function t() { return "then"; } else function u() {}
  return [t(), typeof u].join(" ");
});

// Direct eval: `var`s of the caller's variable environment are reused.
show("eval reuses a var", () => {
  var v = 1;
  eval("var v = 2");
  return v;
});
show("eval reuses a parameter", () => (function (a) {
  eval("var a = 'changed'");
  return a;
})("param"));

// A `var` may not hoist over a lexical declaration of the caller.
show("eval var over let", () => {
  let w = 1;
  eval("var w = 2");
  return w;
});
show("eval var over block let", () => {
  {
    let w = 1;
    eval("{ var w = 2; }");
  }
  return "no error";
});
show("eval function over let", () => {
  const c = 1;
  eval("function c() {}");
  return c;
});
show("eval var over catch parameter", () => {
  try {
    throw 1;
  } catch (e) {
    eval("var e = 2");
    return e;
  }
});

// Block functions inside eval code follow the same rules.
show("eval block function", () => {
  eval("{ function ef() { return 'from eval'; } }");
  return ef();
});
show("eval block function skipped", () => {
  let eg = "outer let";
  eval("{ function eg() {} }");
  return eg;
});

// Eval code's own lexical declarations start in their TDZ.
show("eval TDZ", () => eval("typeof x; let x;"));
