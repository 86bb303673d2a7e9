class Counter {
  #count = 0;
  static #instances = 0;
  #secret() { return "s" + this.#count; }
  get #double() { return this.#count * 2; }
  set #double(v) { this.#count = v / 2; }
  static #make() { Counter.#instances++; return new Counter(); }
  constructor() { }
  inc() { this.#count++; return this; }
  peek() { return [this.#count, this.#double, this.#secret(), #count in this]; }
  setDouble(v) { this.#double = v; return this.#count; }
  static create() { return Counter.#make(); }
  static get instances() { return Counter.#instances; }
  static has(o) { return #count in o; }
  static name2() { return this.prototype.constructor === Counter; }
}
const c = Counter.create().inc().inc();
console.log(c.peek(), c.setDouble(10), Counter.instances, Counter.has(c), Counter.has({}));
try { Counter.prototype.peek.call({}); } catch (e) { console.log(e.constructor.name); }
console.log(Object.keys(c), Object.getOwnPropertySymbols(c));
class Sub extends Counter { #own = 1; read() { return this.#own; } }
console.log(new Sub().read(), new Sub().inc().peek());
