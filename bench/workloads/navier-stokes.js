// A two-dimensional incompressible fluid on a square grid, advanced with the
// "stable fluids" method: sources are added, velocity and density diffuse
// (Gauss–Seidel relaxation), are carried along the velocity field
// (semi-Lagrangian back-tracing with bilinear interpolation), and the
// velocity is projected onto its divergence-free part. Written for this
// project; only + - * / and Math.floor are used, so every engine computes
// bit-identical results, and the density total is checked exactly.
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

class Fluid {
  constructor(size, dt, diffusion, viscosity) {
    this.n = size;
    this.dt = dt;
    this.diffusion = diffusion;
    this.viscosity = viscosity;
    const cells = (size + 2) * (size + 2);
    this.u = new Float64Array(cells);
    this.v = new Float64Array(cells);
    this.uPrev = new Float64Array(cells);
    this.vPrev = new Float64Array(cells);
    this.density = new Float64Array(cells);
    this.densityPrev = new Float64Array(cells);
  }

  index(i, j) {
    return i + (this.n + 2) * j;
  }

  // Boundary cells mirror their inner neighbour; for the velocity component
  // normal to a wall (`kind` 1: u at the left/right walls, 2: v at the
  // top/bottom walls) the mirror is negated so nothing flows through it.
  setBoundary(kind, x) {
    const n = this.n, row = n + 2;
    for (let i = 1; i <= n; i++) {
      x[i * row] = kind === 1 ? -x[1 + i * row] : x[1 + i * row];
      x[n + 1 + i * row] = kind === 1 ? -x[n + i * row] : x[n + i * row];
      x[i] = kind === 2 ? -x[i + row] : x[i + row];
      x[i + (n + 1) * row] = kind === 2 ? -x[i + n * row] : x[i + n * row];
    }
    x[0] = 0.5 * (x[1] + x[row]);
    x[(n + 1) * row] = 0.5 * (x[1 + (n + 1) * row] + x[n * row]);
    x[n + 1] = 0.5 * (x[n] + x[n + 1 + row]);
    x[n + 1 + (n + 1) * row] = 0.5 * (x[n + (n + 1) * row] + x[n + 1 + n * row]);
  }

  // Solves x = (x0 + a * (sum of the four neighbours of x)) / c by
  // Gauss–Seidel relaxation, a fixed number of sweeps.
  relax(kind, x, x0, a, c) {
    const n = this.n, row = n + 2, inverse = 1 / c;
    for (let sweep = 0; sweep < 20; sweep++) {
      for (let j = 1; j <= n; j++) {
        let at = 1 + j * row;
        for (let i = 1; i <= n; i++, at++) {
          x[at] = (x0[at] + a * (x[at - 1] + x[at + 1] + x[at - row] + x[at + row])) * inverse;
        }
      }
      this.setBoundary(kind, x);
    }
  }

  diffuse(kind, x, x0, rate) {
    const a = this.dt * rate * this.n * this.n;
    this.relax(kind, x, x0, a, 1 + 4 * a);
  }

  // Each cell takes the value found where its contents came from one time
  // step ago, interpolated between the four surrounding cells.
  advect(kind, d, d0, u, v) {
    const n = this.n, row = n + 2, step = this.dt * n;
    for (let j = 1; j <= n; j++) {
      for (let i = 1; i <= n; i++) {
        const at = i + j * row;
        let x = i - step * u[at];
        let y = j - step * v[at];
        if (x < 0.5) x = 0.5;
        if (x > n + 0.5) x = n + 0.5;
        if (y < 0.5) y = 0.5;
        if (y > n + 0.5) y = n + 0.5;
        const i0 = Math.floor(x), j0 = Math.floor(y);
        const s1 = x - i0, s0 = 1 - s1, t1 = y - j0, t0 = 1 - t1;
        const base = i0 + j0 * row;
        d[at] = s0 * (t0 * d0[base] + t1 * d0[base + row]) + s1 * (t0 * d0[base + 1] + t1 * d0[base + 1 + row]);
      }
    }
    this.setBoundary(kind, d);
  }

  // Subtracts the gradient of the pressure field that makes the velocity
  // divergence-free (mass conserving), the pressure found by relaxation.
  project(u, v, pressure, divergence) {
    const n = this.n, row = n + 2, h = 1 / n;
    for (let j = 1; j <= n; j++) {
      for (let i = 1; i <= n; i++) {
        const at = i + j * row;
        divergence[at] = -0.5 * h * (u[at + 1] - u[at - 1] + v[at + row] - v[at - row]);
        pressure[at] = 0;
      }
    }
    this.setBoundary(0, divergence);
    this.setBoundary(0, pressure);
    this.relax(0, pressure, divergence, 1, 4);
    for (let j = 1; j <= n; j++) {
      for (let i = 1; i <= n; i++) {
        const at = i + j * row;
        u[at] -= (0.5 * (pressure[at + 1] - pressure[at - 1])) / h;
        v[at] -= (0.5 * (pressure[at + row] - pressure[at - row])) / h;
      }
    }
    this.setBoundary(1, u);
    this.setBoundary(2, v);
  }

  addSources(x, sources) {
    for (let k = 0; k < x.length; k++) x[k] += this.dt * sources[k];
  }

  velocityStep() {
    this.addSources(this.u, this.uPrev);
    this.addSources(this.v, this.vPrev);
    [this.u, this.uPrev] = [this.uPrev, this.u];
    this.diffuse(1, this.u, this.uPrev, this.viscosity);
    [this.v, this.vPrev] = [this.vPrev, this.v];
    this.diffuse(2, this.v, this.vPrev, this.viscosity);
    this.project(this.u, this.v, this.uPrev, this.vPrev);
    [this.u, this.uPrev] = [this.uPrev, this.u];
    [this.v, this.vPrev] = [this.vPrev, this.v];
    this.advect(1, this.u, this.uPrev, this.uPrev, this.vPrev);
    this.advect(2, this.v, this.vPrev, this.uPrev, this.vPrev);
    this.project(this.u, this.v, this.uPrev, this.vPrev);
  }

  densityStep() {
    this.addSources(this.density, this.densityPrev);
    [this.density, this.densityPrev] = [this.densityPrev, this.density];
    this.diffuse(0, this.density, this.densityPrev, this.diffusion);
    [this.density, this.densityPrev] = [this.densityPrev, this.density];
    this.advect(0, this.density, this.densityPrev, this.u, this.v);
  }

  // One frame: a puff of dye and an upward push at the centre, then a step.
  frame(frameNumber) {
    this.uPrev.fill(0);
    this.vPrev.fill(0);
    this.densityPrev.fill(0);
    const centre = this.index(this.n >> 1, this.n >> 1);
    this.densityPrev[centre] = 100;
    this.vPrev[centre] = frameNumber % 2 === 0 ? 20 : 10;
    this.uPrev[centre] = frameNumber % 3 === 0 ? 5 : -5;
    this.velocityStep();
    this.densityStep();
  }

  totalDensity() {
    let sum = 0;
    for (let j = 1; j <= this.n; j++) for (let i = 1; i <= this.n; i++) sum += this.density[this.index(i, j)];
    return sum;
  }
}

// One batch: a fresh 16×16 fluid advanced four frames.
function simulate() {
  const fluid = new Fluid(16, 0.1, 0.0001, 0.0001);
  for (let frame = 0; frame < 4; frame++) fluid.frame(frame);
  return fluid.totalDensity();
}

bench("navier-stokes", 1, simulate, (total) => expectEqual(total, 27.650602771185063, "navier-stokes total density"));
