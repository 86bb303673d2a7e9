// Array.prototype.splice on dense arrays (the in-place path) and on the
// arrays it must leave to the generic steps: holes, a prototype with
// elements, non-extensible and frozen arrays, a species constructor,
// arguments whose conversion changes the array, and array-likes. Compared
// with node.
const show = (a) => JSON.stringify(a) + "/" + a.length + "/" + Object.keys(a).join("");
let a = [1, 2, 3, 4, 5];
console.log(show(a.splice(1, 2)), show(a));
a = [1, 2, 3, 4, 5];
console.log(show(a.splice(1, 1, "x", "y", "z")), show(a));
a = [1, 2, 3];
console.log(show(a.splice(-1)), show(a), show(a.splice(0, 0, 9)), show(a), show(a.splice()), show(a));
a = [1, 2, 3];
console.log(show(a.splice(1, Infinity, "q")), show(a), show(a.splice(10, 1, "end")), show(a));
a = [1, , 3, , 5];
console.log(show(a.splice(0, 2)), show(a), 0 in a, 1 in a);
a = [1, , 3];
console.log(show(a.splice(1, 0, "in")), show(a), 2 in a);
Array.prototype[1] = "proto";
a = [0, , 2, 3];
console.log(show(a.splice(0, 3)), show(a));
delete Array.prototype[1];
a = Object.preventExtensions([1, 2, 3]);
console.log(show(a.splice(0, 1)), show(a));
try {
  Object.preventExtensions([1, 2]).splice(0, 0, "grow");
} catch (e) {
  console.log(e.constructor.name);
}
try {
  Object.freeze([1, 2]).splice(0, 1);
} catch (e) {
  console.log(e.constructor.name);
}
class Sub extends Array {}
const sub = Sub.from([1, 2, 3, 4]);
const taken = sub.splice(1, 2);
console.log(taken instanceof Sub, show(taken), show(sub));
a = [1, 2, 3, 4];
a.constructor = { [Symbol.species]: function (n) { this.made = n; } };
const odd = a.splice(1, 2);
console.log(JSON.stringify(odd), show(a));
a = [1, 2, 3, 4, 5];
const shrink = { valueOf() { a.length = 2; return 1; } };
console.log(show(a.splice(0, shrink)), show(a));
a = [1, 2, 3];
const grow = { valueOf() { a.push(4, 5); return 0; } };
console.log(show(a.splice(grow, 2)), show(a));
const like = { length: 3, 0: "a", 1: "b", 2: "c" };
console.log(JSON.stringify(Array.prototype.splice.call(like, 1, 1, "B", "C")), JSON.stringify(like));
const big = Array.from({ length: 1000 }, (_, i) => i);
let sum = 0;
for (let i = 0; i < 500; i++) {
  const [x] = big.splice(i, 1);
  big.splice(999 - i, 0, x);
  sum += big[i] + big.length;
}
console.log(sum, big.slice(0, 5).join(), big.slice(-5).join());
