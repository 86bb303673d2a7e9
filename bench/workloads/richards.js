// A Richards-style operating-system scheduler simulation: tasks of four
// kinds pass packets through a priority-ordered run queue. Written for this
// project in the spirit of the classic benchmark; checks its result.
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

const IDLE = 0, WORKER = 1, HANDLER_A = 2, HANDLER_B = 3, DEVICE_A = 4, DEVICE_B = 5;
const KIND_DEVICE = 0, KIND_WORK = 1;
const DATA_SIZE = 4;

class Packet {
  constructor(link, id, kind) {
    this.link = link;
    this.id = id;
    this.kind = kind;
    this.count = 0;
    this.data = new Array(DATA_SIZE).fill(0);
  }
  appendTo(queue) {
    this.link = null;
    if (queue === null) return this;
    let last = queue;
    while (last.link !== null) last = last.link;
    last.link = this;
    return queue;
  }
}

class Task {
  constructor(scheduler, id, priority, queue, state) {
    this.scheduler = scheduler;
    this.id = id;
    this.priority = priority;
    this.queue = queue;
    this.waiting = state.waiting;
    this.held = state.held;
    this.hasPacket = queue !== null;
    this.next = null;
  }
  receive(packet) {
    if (this.queue === null) {
      this.queue = packet;
      this.hasPacket = true;
      if (this.priority > this.scheduler.current.priority) return this;
    } else {
      this.queue = packet.appendTo(this.queue);
    }
    return this.scheduler.current;
  }
  takePacket() {
    const p = this.queue;
    this.queue = p.link;
    this.hasPacket = this.queue !== null;
    return p;
  }
}

class IdleTask extends Task {
  constructor(s, id, pri, q, state, count) { super(s, id, pri, q, state); this.seed = 1; this.count = count; }
  run() {
    if (--this.count === 0) return this.scheduler.holdSelf();
    if ((this.seed & 1) === 0) {
      this.seed = this.seed >> 1;
      return this.scheduler.release(DEVICE_A);
    }
    this.seed = (this.seed >> 1) ^ 0xD008;
    return this.scheduler.release(DEVICE_B);
  }
}

class WorkerTask extends Task {
  constructor(s, id, pri, q, state) { super(s, id, pri, q, state); this.destination = HANDLER_A; this.n = 0; }
  run(packet) {
    if (packet === null) return this.scheduler.waitForPacket();
    this.destination = this.destination === HANDLER_A ? HANDLER_B : HANDLER_A;
    packet.id = this.destination;
    packet.count = 0;
    for (let i = 0; i < DATA_SIZE; i++) {
      if (++this.n > 26) this.n = 1;
      packet.data[i] = this.n;
    }
    return this.scheduler.queuePacket(packet);
  }
}

class HandlerTask extends Task {
  constructor(s, id, pri, q, state) { super(s, id, pri, q, state); this.work = null; this.devices = null; }
  run(packet) {
    if (packet !== null) {
      if (packet.kind === KIND_WORK) this.work = packet.appendTo(this.work);
      else this.devices = packet.appendTo(this.devices);
    }
    if (this.work !== null) {
      const count = this.work.count;
      if (count < DATA_SIZE) {
        if (this.devices !== null) {
          const device = this.devices;
          this.devices = device.link;
          device.count = this.work.data[count];
          this.work.count = count + 1;
          return this.scheduler.queuePacket(device);
        }
      } else {
        const work = this.work;
        this.work = work.link;
        return this.scheduler.queuePacket(work);
      }
    }
    return this.scheduler.waitForPacket();
  }
}

class DeviceTask extends Task {
  constructor(s, id, pri, q, state) { super(s, id, pri, q, state); this.pending = null; }
  run(packet) {
    if (packet === null) {
      if (this.pending === null) return this.scheduler.waitForPacket();
      const p = this.pending;
      this.pending = null;
      return this.scheduler.queuePacket(p);
    }
    this.pending = packet;
    this.scheduler.holdCount++;
    return this.scheduler.holdSelf();
  }
}

class Scheduler {
  constructor() {
    this.queueCount = 0;
    this.holdCount = 0;
    this.tasks = new Array(6).fill(null);
    this.list = null;
    this.current = null;
  }
  add(task) {
    this.tasks[task.id] = task;
    // Keep the list ordered by descending priority.
    if (this.list === null || task.priority > this.list.priority) {
      task.next = this.list;
      this.list = task;
      return;
    }
    let t = this.list;
    while (t.next !== null && t.next.priority >= task.priority) t = t.next;
    task.next = t.next;
    t.next = task;
  }
  schedule() {
    this.current = this.list;
    while (this.current !== null) {
      const t = this.current;
      if (t.held || (t.waiting && !t.hasPacket)) {
        this.current = t.next;
        continue;
      }
      let packet = null;
      if (t.waiting) {
        packet = t.takePacket();
        t.waiting = false;
      }
      this.current = t.run(packet);
    }
  }
  release(id) {
    const t = this.tasks[id];
    if (t === null) return t;
    t.held = false;
    return t.priority > this.current.priority ? t : this.current;
  }
  holdSelf() {
    this.holdCount++;
    this.current.held = true;
    return this.current.next;
  }
  waitForPacket() {
    this.current.waiting = true;
    return this.current;
  }
  queuePacket(packet) {
    const t = this.tasks[packet.id];
    if (t === null) return t;
    this.queueCount++;
    packet.link = null;
    packet.id = this.current.id;
    return t.receive(packet);
  }
}

function runRichards(count) {
  const s = new Scheduler();
  const running = { waiting: false, held: false };
  const waitingWithPacket = { waiting: true, held: false };
  s.add(new IdleTask(s, IDLE, 0, null, running, count));
  let q = new Packet(null, WORKER, KIND_WORK);
  q = new Packet(q, WORKER, KIND_WORK);
  s.add(new WorkerTask(s, WORKER, 1000, q, waitingWithPacket));
  q = new Packet(null, DEVICE_A, KIND_DEVICE);
  q = new Packet(q, DEVICE_A, KIND_DEVICE);
  q = new Packet(q, DEVICE_A, KIND_DEVICE);
  s.add(new HandlerTask(s, HANDLER_A, 2000, q, waitingWithPacket));
  q = new Packet(null, DEVICE_B, KIND_DEVICE);
  q = new Packet(q, DEVICE_B, KIND_DEVICE);
  q = new Packet(q, DEVICE_B, KIND_DEVICE);
  s.add(new HandlerTask(s, HANDLER_B, 3000, q, waitingWithPacket));
  s.add(new DeviceTask(s, DEVICE_A, 4000, null, waitingWithPacket));
  s.add(new DeviceTask(s, DEVICE_B, 5000, null, waitingWithPacket));
  s.schedule();
  return [s.queueCount, s.holdCount];
}

bench("richards", 1, () => runRichards(1000), ([queued, held]) => {
  expectEqual(queued, 2322, "richards queue count");
  expectEqual(held, 1855, "richards hold count");
});
