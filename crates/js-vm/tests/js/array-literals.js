// Array literals: those made only of number, string, boolean and null
// literals are copied from the constant pool, the others are pushed
// element by element into storage sized for them. Each evaluation is a
// fresh array, whatever was done to the last one; -0, lone surrogates,
// holes and spreads keep their meaning. Compared with node.
function constants() {
  return [0, -0, 1.5, "a", "\u{1F600}", "\ud800", true, false, null, 1e21, NaN];
}
const first = constants();
first.push("pushed");
first[0] = "changed";
first.length = 3;
const second = constants();
console.log(first.length, second.length, Object.is(second[1], -0), second[0], Number.isNaN(second[10]));
console.log(JSON.stringify(second), second.map(String).join("|").length, second[5].charCodeAt(0));
console.log(constants() === constants(), Object.isFrozen(constants()), Array.isArray(constants()));
const seen = [];
for (let i = 0; i < 3; i++) {
  const row = [i, i + 1, "row"];
  const fixed = [1, 2, "row"];
  fixed.push(i);
  seen.push(row.join(), fixed.join());
}
console.log(seen.join(" "));
console.log([1, , 3].length, 1 in [1, , 3], [, "x"].length, 0 in [, "x"]);
console.log([..."ab", 1, 2], [1, 2, ...[3, 4]], [1, 2, ...""].length);
const long = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
long.push(21);
long.splice(3, 2);
console.log(long.length, long[2], long[3], long.join(""));
Array.prototype[1] = "from the prototype";
console.log([0, , 2][1], [0, 1, 2][1]);
delete Array.prototype[1];
Object.defineProperty(Array.prototype, 0, { set() { console.log("setter ran"); }, configurable: true });
console.log(JSON.stringify([7, 8]), JSON.stringify([{}, 8]));
delete Array.prototype[0];
