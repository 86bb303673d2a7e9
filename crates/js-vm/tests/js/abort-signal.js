// AbortController, AbortSignal, EventTarget and Event: what node prints.

const show = (label, v) => console.log(label, typeof v === 'object' && v !== null ? `${v.constructor.name}:${v.name}:${v.message}` : v);

// A controller and its signal.
const c = new AbortController();
const s = c.signal;
console.log(s === c.signal, s instanceof AbortSignal, s instanceof EventTarget, Object.prototype.toString.call(s));
console.log(s.aborted, s.reason, s.onabort);
const log = [];
s.onabort = (e) => log.push(`onabort ${e.type} ${e.target === s} ${e.isTrusted} ${e.eventPhase}`);
s.addEventListener('abort', (e) => log.push(`listener ${e.cancelable} ${e.bubbles}`));
s.addEventListener('abort', { handleEvent(e) { log.push(`handleEvent ${this !== s}`); } });
s.addEventListener('abort', () => log.push('once'), { once: true });
s.throwIfAborted();
c.abort();
console.log(log.join(' | '));
console.log(s.aborted);
show('reason', s.reason);
console.log(s.reason instanceof DOMException, s.reason.code);
c.abort('again');
show('reason after second abort', s.reason);
try {
  s.throwIfAborted();
} catch (e) {
  show('throwIfAborted', e);
}

// A custom reason, and the order: algorithms, then listeners.
const c2 = new AbortController();
c2.signal.addEventListener('abort', function () { console.log('abort with', this.reason, c2.signal.reason); });
c2.abort('custom');
const c3 = new AbortController();
const reason = new Error('boom');
c3.abort(reason);
console.log(c3.signal.reason === reason);
const c4 = new AbortController();
c4.abort(undefined);
show('undefined reason', c4.signal.reason);
const c5 = new AbortController();
c5.abort(null);
console.log('null reason', c5.signal.reason);

// Static AbortSignal.abort.
const pre = AbortSignal.abort();
console.log(pre.aborted);
show('AbortSignal.abort()', pre.reason);
console.log(AbortSignal.abort(42).reason);
try {
  new AbortSignal();
} catch (e) {
  console.log('new AbortSignal', e.name);
}

// AbortSignal.any.
const a1 = new AbortController();
const a2 = new AbortController();
const any = AbortSignal.any([a1.signal, a2.signal]);
const nested = AbortSignal.any([any]);
const events = [];
any.addEventListener('abort', () => events.push('any'));
nested.addEventListener('abort', () => events.push('nested'));
a1.signal.addEventListener('abort', () => events.push('a1'));
console.log(any.aborted, nested.aborted);
a2.abort('second');
console.log(any.aborted, any.reason, nested.reason, a1.signal.aborted, events.join());
a1.abort('first');
console.log(any.reason, events.join());
console.log(AbortSignal.any([AbortSignal.abort('x'), a1.signal]).reason);
console.log(AbortSignal.any([]).aborted);
for (const bad of [[1], 'ab', null]) {
  try {
    AbortSignal.any(bad);
    console.log('any accepted');
  } catch (e) {
    console.log('any', e.name);
  }
}

// onabort is an event handler attribute.
const h = new AbortController();
const order = [];
h.signal.addEventListener('abort', () => order.push('first listener'));
h.signal.onabort = () => order.push('handler v1');
h.signal.addEventListener('abort', () => order.push('second listener'));
h.signal.onabort = () => order.push('handler v2');
console.log(typeof h.signal.onabort);
h.abort();
console.log(order.join());
const h2 = new AbortController();
h2.signal.onabort = () => console.log('never');
h2.signal.onabort = null;
console.log(h2.signal.onabort);
h2.abort();

// EventTarget and Event.
const t = new EventTarget();
const got = [];
const f = (e) => got.push(`f:${e.type}`);
t.addEventListener('x', f);
t.addEventListener('x', f);
t.addEventListener('y', f);
t.addEventListener('x', (e) => got.push(`g:${e.defaultPrevented}`));
console.log(t.dispatchEvent(new Event('x')), got.join());
got.length = 0;
t.removeEventListener('x', f);
t.dispatchEvent(new Event('x'));
t.dispatchEvent(new Event('y'));
console.log(got.join());

const e = new Event('ping', { cancelable: true, bubbles: true });
console.log(e.type, e.bubbles, e.cancelable, e.composed, e.defaultPrevented, e.eventPhase, e.target, e.currentTarget, e.isTrusted);
console.log(typeof e.timeStamp, Event.NONE, Event.AT_TARGET, Event.length);
const t2 = new EventTarget();
t2.addEventListener('ping', (ev) => {
  ev.preventDefault();
  console.log('in listener', ev.eventPhase, ev.target === t2, ev.currentTarget === t2, ev.defaultPrevented);
});
console.log('dispatch returned', t2.dispatchEvent(e), e.defaultPrevented, e.eventPhase, e.currentTarget, e.target === t2);
const unc = new Event('ping');
unc.preventDefault();
console.log(unc.defaultPrevented);

// stopImmediatePropagation, removal during dispatch. (Node runs listeners
// added during dispatch, which the spec does not: not compared here.)
const t3 = new EventTarget();
const seq = [];
const later = () => seq.push('later');
t3.addEventListener('z', () => seq.push(1));
t3.addEventListener('z', () => { seq.push(2); t3.removeEventListener('z', later); });
t3.addEventListener('z', later);
t3.dispatchEvent(new Event('z'));
console.log(seq.join());
seq.length = 0;
t3.addEventListener('w', (ev) => { seq.push('a'); ev.stopImmediatePropagation(); });
t3.addEventListener('w', () => seq.push('b'));
t3.dispatchEvent(new Event('w'));
console.log(seq.join());

// The signal option removes a listener on abort; an aborted signal adds none.
const t4 = new EventTarget();
const lc = new AbortController();
let count = 0;
t4.addEventListener('q', () => count++, { signal: lc.signal });
t4.dispatchEvent(new Event('q'));
lc.abort();
t4.dispatchEvent(new Event('q'));
t4.addEventListener('q', () => count++, { signal: lc.signal });
t4.dispatchEvent(new Event('q'));
console.log('count', count);

// Subclasses.
class MyTarget extends EventTarget {
  constructor() {
    super();
    this.name = 'mine';
  }
}
class MyEvent extends Event {
  constructor(type, detail) {
    super(type);
    this.detail = detail;
  }
}
const mt = new MyTarget();
mt.addEventListener('custom', (ev) => console.log('custom event', ev instanceof MyEvent, ev.detail, ev.target.name));
mt.dispatchEvent(new MyEvent('custom', 7));

// Errors.
for (const [what, fn] of [
  ['dispatch non-event', () => t.dispatchEvent({ type: 'x' })],
  ['addEventListener bad signal', () => t.addEventListener('x', f, { signal: {} })],
  ['Event()', () => Event('x')],
  ['new Event()', () => new Event()],
  ['aborted getter on other', () => Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted').get.call({})],
  ['AbortController()', () => AbortController()],
]) {
  try {
    fn();
    console.log(what, 'no error');
  } catch (err) {
    console.log(what, err.name);
  }
}

// AbortSignal.timeout: a TimeoutError on the event loop.
const ts = AbortSignal.timeout(5);
console.log('timeout signal aborted now?', ts.aborted);
ts.addEventListener('abort', () => {
  show('timeout reason', ts.reason);
  console.log(ts.reason.code);
});
setTimeout(() => console.log('after timeout', ts.aborted), 30);
// An unreferenced timer does not keep the program alive.
AbortSignal.timeout(100000);
