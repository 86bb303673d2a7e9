// A small ray tracer: spheres and a checkered plane, point lights with
// shadows and reflections, rendered into a buffer and summed. Written for
// this project in the spirit of the classic benchmark; checks its result.
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

class Vec {
  constructor(x, y, z) { this.x = x; this.y = y; this.z = z; }
  add(v) { return new Vec(this.x + v.x, this.y + v.y, this.z + v.z); }
  sub(v) { return new Vec(this.x - v.x, this.y - v.y, this.z - v.z); }
  scale(k) { return new Vec(this.x * k, this.y * k, this.z * k); }
  dot(v) { return this.x * v.x + this.y * v.y + this.z * v.z; }
  cross(v) { return new Vec(this.y * v.z - this.z * v.y, this.z * v.x - this.x * v.z, this.x * v.y - this.y * v.x); }
  length() { return Math.sqrt(this.dot(this)); }
  norm() { return this.scale(1 / this.length()); }
}

class Color {
  constructor(r, g, b) { this.r = r; this.g = g; this.b = b; }
  add(c) { return new Color(this.r + c.r, this.g + c.g, this.b + c.b); }
  scale(k) { return new Color(this.r * k, this.g * k, this.b * k); }
  mul(c) { return new Color(this.r * c.r, this.g * c.g, this.b * c.b); }
  clamp() { const f = (x) => Math.min(1, Math.max(0, x)); return new Color(f(this.r), f(this.g), f(this.b)); }
}
const BLACK = new Color(0, 0, 0);

class Sphere {
  constructor(center, radius, surface) { this.center = center; this.radius2 = radius * radius; this.surface = surface; }
  intersect(origin, dir) {
    const eo = this.center.sub(origin);
    const v = eo.dot(dir);
    if (v < 0) return Infinity;
    const disc = this.radius2 - (eo.dot(eo) - v * v);
    if (disc < 0) return Infinity;
    return v - Math.sqrt(disc);
  }
  normal(pos) { return pos.sub(this.center).norm(); }
}

class Plane {
  constructor(normal, offset, surface) { this.n = normal; this.offset = offset; this.surface = surface; }
  intersect(origin, dir) {
    const denom = this.n.dot(dir);
    if (denom > 0) return Infinity;
    return (this.n.dot(origin) + this.offset) / -denom;
  }
  normal() { return this.n; }
}

const surfaces = {
  shiny: { diffuse: () => new Color(1, 1, 1), specular: () => new Color(0.5, 0.5, 0.5), reflect: () => 0.6, roughness: 50 },
  checker: {
    diffuse: (p) => ((Math.floor(p.z) + Math.floor(p.x)) % 2 !== 0 ? new Color(1, 1, 1) : new Color(0.1, 0.1, 0.1)),
    specular: () => new Color(1, 1, 1),
    reflect: (p) => ((Math.floor(p.z) + Math.floor(p.x)) % 2 !== 0 ? 0.1 : 0.7),
    roughness: 150,
  },
};

class Scene {
  constructor() {
    this.things = [
      new Plane(new Vec(0, 1, 0), 0, surfaces.checker),
      new Sphere(new Vec(0, 1, -0.25), 1, surfaces.shiny),
      new Sphere(new Vec(-1, 0.5, 1.5), 0.5, surfaces.shiny),
    ];
    this.lights = [
      { pos: new Vec(-2, 2.5, 0), color: new Color(0.49, 0.07, 0.07) },
      { pos: new Vec(1.5, 2.5, 1.5), color: new Color(0.07, 0.07, 0.49) },
      { pos: new Vec(1.5, 2.5, -1.5), color: new Color(0.07, 0.49, 0.071) },
      { pos: new Vec(0, 3.5, 0), color: new Color(0.21, 0.21, 0.35) },
    ];
    const pos = new Vec(3, 2, 4);
    const forward = new Vec(-1, 0.5, 0).sub(pos).norm();
    const right = forward.cross(new Vec(0, -1, 0)).norm().scale(1.5);
    const up = forward.cross(right).norm().scale(1.5);
    this.camera = { pos, forward, right, up };
  }
  nearest(origin, dir) {
    let best = Infinity;
    let hit = null;
    for (const thing of this.things) {
      const d = thing.intersect(origin, dir);
      if (d < best) { best = d; hit = thing; }
    }
    return hit === null ? null : { thing: hit, dist: best };
  }
  trace(origin, dir, depth) {
    const isect = this.nearest(origin, dir);
    return isect === null ? BLACK : this.shade(isect, origin, dir, depth);
  }
  shade(isect, origin, dir, depth) {
    const pos = origin.add(dir.scale(isect.dist));
    const normal = isect.thing.normal(pos);
    const reflectDir = dir.sub(normal.scale(2 * normal.dot(dir)));
    const surface = isect.thing.surface;
    let color = BLACK;
    for (const light of this.lights) {
      const ldis = light.pos.sub(pos);
      const livec = ldis.norm();
      const blocker = this.nearest(pos, livec);
      if (blocker !== null && blocker.dist <= ldis.length()) continue;
      const illum = livec.dot(normal);
      const lcolor = illum > 0 ? light.color.scale(illum) : BLACK;
      const spec = livec.dot(reflectDir.norm());
      const scolor = spec > 0 ? light.color.scale(Math.pow(spec, surface.roughness)) : BLACK;
      color = color.add(surface.diffuse(pos).mul(lcolor)).add(surface.specular(pos).mul(scolor));
    }
    if (depth < 3) {
      const reflected = this.trace(pos.add(reflectDir.scale(0.001)), reflectDir, depth + 1);
      color = color.add(reflected.scale(surface.reflect(pos)));
    }
    return color;
  }
  render(width, height) {
    let sum = 0;
    const cam = this.camera;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const rx = (x - width / 2) / 2 / width;
        const ry = -(y - height / 2) / 2 / height;
        const dir = cam.forward.add(cam.right.scale(rx).add(cam.up.scale(ry))).norm();
        const c = this.trace(cam.pos, dir, 0).clamp();
        sum += Math.floor(c.r * 255) + 3 * Math.floor(c.g * 255) + 7 * Math.floor(c.b * 255);
      }
    }
    return sum;
  }
}

const scene = new Scene();
bench("raytrace", 1, () => scene.render(16, 16), (sum) => expectEqual(sum, 162580, "raytrace checksum"));
