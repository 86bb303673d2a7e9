//! Behaviour the current spec and proposals require where node 20 differs
//! or has nothing (so the node-differential programs can't check it):
//! `Math.sumPrecise` (node 20 lacks it) and the legacy-RegExp-features
//! proposal's receiver, subclass and realm rules (V8 does not throw),
//! and `super()` in an arrow run by `finally` before a derived
//! constructor returns.

mod support;

#[test]
fn sum_precise_sums_an_iterable_exactly() {
    let out = support::run_capturing(
        "sum-precise.js",
        r#"
console.log(Math.sumPrecise([1e20, 0.1, -1e20]), Math.sumPrecise([0.1, 0.2, 0.3]));
console.log(Object.is(Math.sumPrecise([]), -0), Object.is(Math.sumPrecise([-0, 0]), 0));
console.log(Math.sumPrecise([Number.MAX_VALUE, Number.MAX_VALUE]), Math.sumPrecise([Infinity, -Infinity]));
console.log(Math.sumPrecise(new Set([1, 2, 3])), Math.sumPrecise.length, Math.sumPrecise.name);
let closed = 0;
const items = {
  [Symbol.iterator]() {
    let i = 0;
    return { next: () => ({ value: i++ ? "2" : 1, done: false }), return() { closed++; return {}; } };
  },
};
try { Math.sumPrecise(items); } catch (e) { console.log(e.constructor.name, closed); }
try { Math.sumPrecise(); } catch (e) { console.log(e.constructor.name); }
try { Math.sumPrecise(1); } catch (e) { console.log(e.constructor.name); }
"#,
    );
    assert_eq!(out, "0.1 0.6\ntrue true\nInfinity NaN\n6 1 sumPrecise\nTypeError 1\nTypeError\nTypeError\n");
}

#[test]
fn legacy_regexp_statics_follow_the_proposal_rules() {
    let out = support::run_capturing(
        "legacy-statics.js",
        r#"
class Sub extends RegExp {}
const get = (name, receiver) => {
  try { return Reflect.get(RegExp, name, receiver); } catch (e) { return e.constructor.name; }
};
/(a)/.exec("xa");
console.log(get("$1", RegExp), get("$1", Sub), get("lastMatch", {}), get("input", RegExp));
new Sub("(b)").exec("b");
console.log(get("$1", RegExp), get("input", RegExp), get("leftContext", RegExp));
RegExp.input = "again";
console.log(get("input", RegExp), get("lastMatch", RegExp));
/(c)d/.exec("cd");
console.log(get("$1", RegExp), get("rightContext", RegExp), get("lastParen", RegExp));
try { new Sub("x").compile("y"); } catch (e) { console.log(e.constructor.name); }
try { RegExp.prototype.compile.call({}); } catch (e) { console.log(e.constructor.name); }
const re = /q/;
Object.defineProperty(re, "lastIndex", { value: 1, writable: false });
try { re.compile("r", "g"); } catch (e) { console.log(e.constructor.name, re.source, re.flags); }
"#,
    );
    assert_eq!(
        out,
        "a TypeError TypeError xa\nTypeError TypeError TypeError\nagain TypeError\nc  c\nTypeError\nTypeError\nTypeError r g\n"
    );
}

/// Node 20 throws "Must call super constructor" here: V8 checks `this`
/// when `return` starts, before the `finally` block runs `super()` in an
/// arrow. §14.15.3 completes the return only after the `finally` block,
/// and the constructor's `this` is read then (test262's
/// derived-class-return-override-finally-super-arrow).
#[test]
fn super_in_an_arrow_run_by_finally_binds_this_before_the_constructor_returns() {
    let out = support::run_capturing(
        "finally-super-arrow.js",
        "
class A { constructor(v) { this.v = v; } }
class D extends A { constructor() { const f = () => super(3); try { return; } finally { f(); } } }
console.log(new D().v);
",
    );
    assert_eq!(out, "3\n");
}
