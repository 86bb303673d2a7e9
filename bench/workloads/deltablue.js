// An incremental one-way constraint solver after the DeltaBlue algorithm
// (Freeman-Benson, Maloney, Borning): constraints with strengths, walkabout
// strengths, incremental planning, chain and projection tests. Written for
// this project; checks its result.
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

const REQUIRED = 0, STRONG_PREFERRED = 1, PREFERRED = 2, STRONG_DEFAULT = 3, NORMAL = 4, WEAK_DEFAULT = 5, WEAKEST = 6;
const stronger = (a, b) => a < b;
const weaker = (a, b) => a > b;
const weakestOf = (a, b) => (weaker(a, b) ? a : b);

class Variable {
  constructor(name, value = 0) {
    this.name = name;
    this.value = value;
    this.constraints = [];
    this.determinedBy = null;
    this.mark = 0;
    this.walkStrength = WEAKEST;
    this.stay = true;
  }
  addConstraint(c) { this.constraints.push(c); }
  removeConstraint(c) {
    this.constraints = this.constraints.filter((x) => x !== c);
    if (this.determinedBy === c) this.determinedBy = null;
  }
}

class Constraint {
  constructor(strength) { this.strength = strength; }
  addConstraint(planner) { this.addToGraph(); planner.incrementalAdd(this); }
  satisfy(mark, planner) {
    this.chooseMethod(mark);
    if (!this.isSatisfied()) {
      if (this.strength === REQUIRED) throw new Error("could not satisfy a required constraint");
      return null;
    }
    this.markInputs(mark);
    const out = this.output();
    const overridden = out.determinedBy;
    if (overridden !== null) overridden.markUnsatisfied();
    out.determinedBy = this;
    if (!planner.addPropagate(this, mark)) throw new Error("cycle encountered");
    out.mark = mark;
    return overridden;
  }
  destroyConstraint(planner) {
    if (this.isSatisfied()) planner.incrementalRemove(this);
    else this.removeFromGraph();
  }
  isInput() { return false; }
}

class UnaryConstraint extends Constraint {
  constructor(v, strength, planner) {
    super(strength);
    this.myOutput = v;
    this.satisfied = false;
    this.addConstraint(planner);
  }
  addToGraph() { this.myOutput.addConstraint(this); this.satisfied = false; }
  chooseMethod(mark) { this.satisfied = this.myOutput.mark !== mark && stronger(this.strength, this.myOutput.walkStrength); }
  isSatisfied() { return this.satisfied; }
  markInputs() {}
  output() { return this.myOutput; }
  recalculate() {
    this.myOutput.walkStrength = this.strength;
    this.myOutput.stay = !this.isInput();
    if (this.myOutput.stay) this.execute();
  }
  markUnsatisfied() { this.satisfied = false; }
  inputsKnown() { return true; }
  removeFromGraph() { this.myOutput.removeConstraint(this); this.satisfied = false; }
}

class StayConstraint extends UnaryConstraint {
  execute() {}
}

class EditConstraint extends UnaryConstraint {
  isInput() { return true; }
  execute() {}
}

const NONE = 0, FORWARD = 1, BACKWARD = 2;

class BinaryConstraint extends Constraint {
  constructor(a, b, strength, planner) {
    super(strength);
    this.v1 = a;
    this.v2 = b;
    this.direction = NONE;
    this.addConstraint(planner);
  }
  chooseMethod(mark) {
    if (this.v1.mark === mark) {
      this.direction = this.v2.mark !== mark && stronger(this.strength, this.v2.walkStrength) ? FORWARD : NONE;
    } else if (this.v2.mark === mark) {
      this.direction = this.v1.mark !== mark && stronger(this.strength, this.v1.walkStrength) ? BACKWARD : NONE;
    } else if (weaker(this.v1.walkStrength, this.v2.walkStrength)) {
      this.direction = stronger(this.strength, this.v1.walkStrength) ? BACKWARD : NONE;
    } else {
      this.direction = stronger(this.strength, this.v2.walkStrength) ? FORWARD : BACKWARD;
    }
  }
  addToGraph() { this.v1.addConstraint(this); this.v2.addConstraint(this); this.direction = NONE; }
  isSatisfied() { return this.direction !== NONE; }
  markInputs(mark) { this.input().mark = mark; }
  input() { return this.direction === FORWARD ? this.v1 : this.v2; }
  output() { return this.direction === FORWARD ? this.v2 : this.v1; }
  recalculate() {
    const ihn = this.input(), out = this.output();
    out.walkStrength = weakestOf(this.strength, ihn.walkStrength);
    out.stay = ihn.stay;
    if (out.stay) this.execute();
  }
  markUnsatisfied() { this.direction = NONE; }
  inputsKnown(mark) { const i = this.input(); return i.mark === mark || i.stay || i.determinedBy === null; }
  removeFromGraph() {
    if (this.v1 !== null) this.v1.removeConstraint(this);
    if (this.v2 !== null) this.v2.removeConstraint(this);
    this.direction = NONE;
  }
}

class EqualityConstraint extends BinaryConstraint {
  execute() { this.output().value = this.input().value; }
}

class ScaleConstraint extends BinaryConstraint {
  constructor(src, scale, offset, dest, strength, planner) {
    super(src, dest, strength, planner);
    this.scale = scale;
    this.offset = offset;
    this.direction = NONE;
    BinaryConstraint.prototype.addToGraph.call(this);
    this.scale.addConstraint(this);
    this.offset.addConstraint(this);
    planner.incrementalAdd(this);
  }
  addConstraint() {}
  markInputs(mark) { super.markInputs(mark); this.scale.mark = this.offset.mark = mark; }
  execute() {
    if (this.direction === FORWARD) this.v2.value = this.v1.value * this.scale.value + this.offset.value;
    else this.v1.value = (this.v2.value - this.offset.value) / this.scale.value;
  }
  recalculate() {
    const ihn = this.input(), out = this.output();
    out.walkStrength = weakestOf(this.strength, ihn.walkStrength);
    out.stay = ihn.stay && this.scale.stay && this.offset.stay;
    if (out.stay) this.execute();
  }
  removeFromGraph() {
    super.removeFromGraph();
    this.scale.removeConstraint(this);
    this.offset.removeConstraint(this);
  }
}

class Plan {
  constructor() { this.constraints = []; }
  add(c) { this.constraints.push(c); }
  execute() { for (const c of this.constraints) c.execute(); }
}

class Planner {
  constructor() { this.currentMark = 0; }
  newMark() { return ++this.currentMark; }
  incrementalAdd(c) {
    const mark = this.newMark();
    let overridden = c.satisfy(mark, this);
    while (overridden !== null) overridden = overridden.satisfy(mark, this);
  }
  incrementalRemove(c) {
    const out = c.output();
    c.markUnsatisfied();
    c.removeFromGraph();
    const unsatisfied = this.removePropagateFrom(out);
    for (let strength = REQUIRED; strength <= WEAKEST; strength++) {
      for (const u of unsatisfied) if (u.strength === strength) this.incrementalAdd(u);
    }
  }
  makePlan(sources) {
    const mark = this.newMark();
    const plan = new Plan();
    const todo = sources.slice();
    while (todo.length > 0) {
      const c = todo.pop();
      if (c.output().mark !== mark && c.inputsKnown(mark)) {
        plan.add(c);
        c.output().mark = mark;
        this.addConstraintsConsumingTo(c.output(), todo);
      }
    }
    return plan;
  }
  extractPlanFromConstraints(constraints) {
    return this.makePlan(constraints.filter((c) => c.isInput() && c.isSatisfied()));
  }
  addPropagate(c, mark) {
    const todo = [c];
    while (todo.length > 0) {
      const d = todo.pop();
      if (d.output().mark === mark) { this.incrementalRemove(c); return false; }
      d.recalculate();
      this.addConstraintsConsumingTo(d.output(), todo);
    }
    return true;
  }
  removePropagateFrom(out) {
    out.determinedBy = null;
    out.walkStrength = WEAKEST;
    out.stay = true;
    const unsatisfied = [];
    const todo = [out];
    while (todo.length > 0) {
      const v = todo.pop();
      for (const c of v.constraints) if (!c.isSatisfied()) unsatisfied.push(c);
      const determining = v.determinedBy;
      for (const next of v.constraints) {
        if (next !== determining && next.isSatisfied()) {
          next.recalculate();
          todo.push(next.output());
        }
      }
    }
    return unsatisfied;
  }
  addConstraintsConsumingTo(v, coll) {
    const determining = v.determinedBy;
    for (const c of v.constraints) if (c !== determining && c.isSatisfied()) coll.push(c);
  }
}

function change(planner, v, newValue) {
  const edit = new EditConstraint(v, PREFERRED, planner);
  const plan = planner.extractPlanFromConstraints([edit]);
  for (let i = 0; i < 10; i++) { v.value = newValue; plan.execute(); }
  edit.destroyConstraint(planner);
}

function chainTest(n) {
  const planner = new Planner();
  let prev = null, first = null, last = null;
  for (let i = 0; i <= n; i++) {
    const v = new Variable("v" + i);
    if (prev !== null) new EqualityConstraint(prev, v, REQUIRED, planner);
    if (i === 0) first = v;
    if (i === n) last = v;
    prev = v;
  }
  new StayConstraint(last, STRONG_DEFAULT, planner);
  const edit = new EditConstraint(first, PREFERRED, planner);
  const plan = planner.extractPlanFromConstraints([edit]);
  let sum = 0;
  for (let i = 0; i < 100; i++) {
    first.value = i;
    plan.execute();
    if (last.value !== i) throw new Error("chain test failed");
    sum += last.value;
  }
  return sum;
}

function projectionTest(n) {
  const planner = new Planner();
  const scale = new Variable("scale", 10), offset = new Variable("offset", 1000);
  let src = null, dst = null;
  const dests = [];
  for (let i = 0; i < n; i++) {
    src = new Variable("src" + i, i);
    dst = new Variable("dst" + i, i);
    dests.push(dst);
    new StayConstraint(src, NORMAL, planner);
    new ScaleConstraint(src, scale, offset, dst, REQUIRED, planner);
  }
  change(planner, src, 17);
  if (dst.value !== 1170) throw new Error("projection 1 failed");
  change(planner, dst, 1050);
  if (src.value !== 5) throw new Error("projection 2 failed");
  change(planner, scale, 5);
  for (let i = 0; i < n - 1; i++) if (dests[i].value !== i * 5 + 1000) throw new Error("projection 3 failed");
  change(planner, offset, 2000);
  for (let i = 0; i < n - 1; i++) if (dests[i].value !== i * 5 + 2000) throw new Error("projection 4 failed");
  return dests.reduce((s, d) => s + d.value, 0);
}

bench("deltablue", 1, () => chainTest(100) + projectionTest(100), (sum) => expectEqual(sum, 229230, "deltablue sum"));
