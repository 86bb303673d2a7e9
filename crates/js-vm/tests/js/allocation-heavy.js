let keep = [];
for (let i = 0; i < 3000; i++) {
  const o = { i, s: "x" + i, arr: [i, i + 1] };
  if (i % 100 === 0) keep.push(o);
}
let s = "";
for (let i = 0; i < 2000; i++) s += String.fromCharCode(65 + i % 26);
console.log(keep.length, keep[15].s, keep[29].arr[1], s.length, s.slice(0, 30));
class P { constructor(x) { this.x = x; } } const ps = []; for (let i = 0; i < 2000; i++) ps.push(new P(i)); console.log(ps.reduce((a, p) => a + p.x, 0));
