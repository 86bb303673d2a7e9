class A { constructor(v) { this.v = v; } m() { return 'A.m:' + this.v; } }
class B extends A {
  constructor() {
    const f = () => super(1);
    const g = () => this;
    try { g(); } catch (e) { console.log('before', e.constructor.name); }
    f();
    this.x = 1;
    console.log('after', g() === this, this.v, this.x);
    const h = () => () => super.m();
    console.log(h()());
    try { f(); } catch (e) { console.log('twice', e.constructor.name); }
  }
}
new B();
class C extends A {
  constructor() { const k = () => { (() => super(2))(); return this; }; const t = k(); console.log(t === this, this.v); }
  m() { return (() => super.m())(); }
}
console.log(new C().m());
class E extends A { constructor() { const f = () => 1; } }
try { new E(); } catch (e) { console.log('E', e.constructor.name); }
class F extends A { x = this.v + 10; constructor() { const f = () => super(4); f(); console.log(this.x); } }
new F();
class G extends A { constructor() { super(5); this.af = () => super(); } }
const g = new G(); try { g.af(); } catch (e) { console.log('G', e.constructor.name, e.message); }
