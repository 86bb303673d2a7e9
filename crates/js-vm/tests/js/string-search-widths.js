// String.prototype's searching and slicing methods over Latin-1 and UTF-16
// receivers and needles, out-of-range positions, and a long receiver
// (each call reads only what it needs of it), compared with node.
const cases = ["abcabc", "a\u2192bca\u2192bc", "", "  \t x y \n", "\u00e9t\u00e9"];
const needles = ["", "c", "ca", "\u2192b", "abcabcx", "bc", "\u00e9", " "];
for (const s of cases) {
  const out = [];
  for (const n of needles) {
    out.push(s.indexOf(n), s.indexOf(n, 2), s.indexOf(n, 99), s.lastIndexOf(n), s.lastIndexOf(n, 1), s.lastIndexOf(n, -5),
      s.includes(n), s.includes(n, 3), s.startsWith(n), s.startsWith(n, 3), s.endsWith(n), s.endsWith(n, 4), s.endsWith(n, 0));
  }
  out.push(s.slice(1, -1), s.slice(-3), s.substring(4, 1), s.substring(2), s.substr(-4, 2), s.substr(1), s.trim(), s.trimStart(), s.trimEnd());
  console.log(JSON.stringify(out));
}
const long = "x".repeat(100000) + "\u2192" + "y".repeat(10);
let total = 0;
for (let i = 0; i < 2000; i++) total += long.substring(i, i + 5).length + long.indexOf("y", i) + (long.startsWith("xx", i) ? 1 : 0);
console.log(total, long.slice(99998, 100003), long.endsWith("\u2192y", 100002));
console.log("abc".endsWith("c", { valueOf() { console.log("valueOf"); return 3; } }));

// split and replace over both widths, with empty, absent and repeated separators.
for (const s of ["a,b,,c", "", "abc", "a\u2192b\u2192", "\u2192", ",,"]) {
  for (const sep of [",", "", "\u2192", "b", "zz", ",,"]) {
    console.log(JSON.stringify([s.split(sep), s.split(sep, 2), s.split(sep, 0), s.replace(sep, "[$&]"), s.replaceAll(sep, "<$`>"), s.replace(sep, (m, p) => p + "!")]));
  }
}
