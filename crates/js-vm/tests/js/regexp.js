const re = /(\d+)-(?<word>[a-z]+)/g;
const s = "12-ab 345-cde x 6-f";
console.log(s.match(re), re.lastIndex, s.replace(re, "[$<word>:$1]"), s.search(/\d{3}/));
console.log([...s.matchAll(re)].map(m => [m[0], m.index, m.groups.word]));
console.log("a,b;;c".split(/[,;]/), "abc".split(/(b)/), "AbC".replace(/b/i, x => x.toUpperCase() + "!"));
const m = /(?<y>\d{4})/.exec("in 2024 ok"); console.log(m.index, m.groups.y, m.input, String(/a\/b/gi), /x/y.flags);
console.log(/^\p{Lu}/u.test("Éa"), /a.b/s.test("a\nb"), /(?<=\$)\d+/.exec("cost $42")[0]);
try { new RegExp("("); } catch (e) { console.log(e.name); }
