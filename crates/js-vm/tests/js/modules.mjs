// ES modules: live and immutable import bindings, default exports and
// their names, cycles with hoisted functions and TDZ, namespaces (keys,
// internals, ambiguous star exports), top-level await ordering, dynamic
// import (caching, errors), import.meta and built-in node: modules.
import { counter, increment, reset } from './fixtures/modules/counter.mjs';
import * as counterNs from './fixtures/modules/counter.mjs';
import defaultFunction, { named } from './fixtures/modules/defaults.mjs';
import DefaultClass from './fixtures/modules/default-class.mjs';
import defaultArrow from './fixtures/modules/default-arrow.mjs';
import { evenCheck } from './fixtures/modules/cycle-a.mjs';
import { log } from './fixtures/modules/order-log.mjs';
import './fixtures/modules/tla-slow.mjs';
import './fixtures/modules/tla-sync.mjs';
import * as reexports from './fixtures/modules/reexports.mjs';
import { evaluations } from './fixtures/modules/evaluated-once.mjs';
import { evaluations as again } from './fixtures/modules/evaluated-once.mjs';
import { AsyncLocalStorage } from 'node:async_hooks';
import asyncHooks from 'node:async_hooks';
import process, { nextTick } from 'node:process';

console.log('this at top level:', this);

// Live bindings: the importer sees the exporter's assignments.
console.log('counter', counter, counterNs.counter);
increment();
increment();
console.log('counter after two increments', counter, counterNs.counter, reexports.liveCounter);
reset();
console.log('counter after reset', counter);

// Imports are immutable.
try {
  counter = 10;
} catch (e) {
  console.log(e.name, e.message);
}

// Default exports and their names.
console.log(defaultFunction(), defaultFunction.name, named);
console.log(new DefaultClass().hello(), DefaultClass.name);
console.log(defaultArrow(), defaultArrow.name);

// A cycle: functions are hoisted at instantiation, `let`s are not.
console.log('cycle', evenCheck);

// Namespaces.
console.log(Object.keys(counterNs));
console.log(Object.keys(reexports));
console.log(Object.keys(reexports.defaultsNs), reexports.renamedNamed, reexports.defaultFromDefaults.name);
console.log(Object.prototype.toString.call(counterNs), counterNs[Symbol.toStringTag]);
console.log(Object.getPrototypeOf(counterNs), Object.isExtensible(counterNs), Object.isFrozen(counterNs));
console.log(Object.getOwnPropertyDescriptor(counterNs, 'counter'));
console.log('counter' in counterNs, 'missing' in counterNs, counterNs.missing);
console.log(Reflect.set(counterNs, 'counter', 5), Reflect.deleteProperty(counterNs, 'counter'));
console.log(Reflect.deleteProperty(counterNs, 'missing'), Reflect.ownKeys(counterNs).length);
try {
  counterNs.counter = 1;
} catch (e) {
  console.log(e.name);
}
try {
  delete counterNs.counter;
} catch (e) {
  console.log(e.name);
}
console.log('dup' in reexports, reexports.onlyA, reexports.onlyB);

// Each module evaluates once, however often it is imported.
console.log('evaluations', evaluations, again);

// Top-level await: dependencies without TLA ran while tla-slow waited,
// and this module ran after tla-slow finished.
console.log(log);

// import.meta.
console.log(typeof import.meta, Object.getPrototypeOf(import.meta));
console.log(import.meta.url.startsWith('file:///'), import.meta.url.endsWith('/tests/js/modules.mjs'));
console.log(Object.keys(import.meta), import.meta.resolve.name, import.meta.resolve.length);
console.log(import.meta.filename.endsWith('/tests/js/modules.mjs'), import.meta.dirname.endsWith('/tests/js'));
console.log(import.meta.url === import.meta.resolve('./modules.mjs'));
console.log(import.meta.resolve('./fixtures/not-there.mjs').endsWith('/tests/js/fixtures/not-there.mjs'));
console.log(import.meta.resolve('node:fs'), import.meta.resolve('async_hooks'));
try {
  import.meta.resolve('no-such-package');
} catch (e) {
  console.log(e.code, e.message.startsWith("Cannot find package 'no-such-package' imported from"));
}

// Built-in modules.
const storage = new AsyncLocalStorage();
storage.run('stored', () => console.log('AsyncLocalStorage', storage.getStore()));
console.log(asyncHooks.AsyncLocalStorage === AsyncLocalStorage, nextTick === process.nextTick);

// Dynamic import: the same namespace, a promise, errors as rejections.
const dynamic = import('./fixtures/modules/counter.mjs');
console.log(dynamic instanceof Promise);
console.log('same namespace', (await dynamic) === counterNs);
const first = await import('./fixtures/modules/throws.mjs').catch((e) => e);
const second = await import('./fixtures/modules/throws.mjs').catch((e) => e);
console.log(first.name, first.message, first === second);
const missing = await import('./fixtures/modules/missing.mjs').catch((e) => e);
console.log(missing.name, missing.code);
const syntax = await import('./fixtures/modules/bad-syntax.mjs').catch((e) => e);
console.log(syntax.name, syntax.message);
const specifierError = await import({
  toString() {
    throw new Error('bad specifier');
  },
}).catch((e) => e.message);
console.log(specifierError);
const builtin = await import('node:async_hooks');
console.log(Object.keys(builtin).includes('AsyncLocalStorage'), builtin.default === asyncHooks);

// Microtasks queued by a module run before nextTick callbacks.
process.nextTick(() => console.log('nextTick'));
Promise.resolve().then(() => console.log('microtask'));
console.log('end of module');
