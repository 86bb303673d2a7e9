let i = 0;
const k = () => "k" + (++i);
class A { [k()] = 1; static [k()] = 2; [k()]() { return 3; } x = this.k1 + 1; static s = A.k2 * 10; static { this.t = 5; } f = () => this.x; }
const a = new A();
console.log(a, A.k2, A.s, A.t, a.k3(), a.f(), Object.keys(a));
class B extends A { y = 7; constructor() { super(); this.z = this.y + this.x; } }
console.log(new B());
class N { static anon = function () {}; ["comp" + 1] = () => 1; }
console.log(N.anon.name, new N().comp1.name);
