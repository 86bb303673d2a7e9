// RegExp @@split: pieces, captures, limits, empty matches and the legacy
// statics the last successful match leaves, on plain and subclassed RegExps.
console.log("a,b,,c".split(/,/), "abc".split(/(?:)/), "a1b2c3".split(/(\d)/), "a1b2c3".split(/(\d)/, 3));
console.log("".split(/x/), "".split(/(?:)/), "abc".split(/$/), "abc".split(/x*/), "test".split(/(t)?/));
"x-y-z".split(/(-)/);
console.log(RegExp.$1, RegExp.lastMatch, RegExp.leftContext, RegExp.rightContext);
"aXbXc".split(/X|$/);
console.log(RegExp.lastMatch, RegExp.leftContext);
"ab".split(/(?:)/);
console.log(JSON.stringify(RegExp.lastMatch), RegExp.leftContext);
"no match here".split(/q/);
console.log(JSON.stringify(RegExp.lastMatch));
"\ud83d\ude00\ud83d\ude00".split(/(?:)/u).forEach((x) => console.log(x.length));
console.log("a b  c".split(/\s+/, 2), "A<b>B</b>".split(/<(\/)?([^<>]+)>/), "a1b".split(/(\d)/, 1));
class R extends RegExp {}
console.log("1,2".split(new R(",")));
class NotSticky extends RegExp {
  static get [Symbol.species]() {
    return function (source) {
      return new RegExp(source, "g");
    };
  }
}
console.log("a,b,c".split(new NotSticky(",")));
let calls = 0;
const limit = { valueOf() { calls++; return 2; } };
console.log("p;q;r".split(/;/, limit), calls);
