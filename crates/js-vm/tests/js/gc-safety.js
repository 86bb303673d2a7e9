// Paths where native code holds values while user code runs (and, under
// gc-stress, collects at every loop back-edge and call).
const churn = () => { const junk = []; for (let i = 0; i < 50; i++) junk.push({ i, s: "s" + i }); return junk.length; };
const left = { valueOf() { return "left-" + "x".repeat(70); } };
const right = { valueOf() { churn(); return "-right"; } };
console.log((left + right).length, left < right, right > left);
const getters = Object.defineProperty({}, "a", { enumerable: true, get() { churn(); return "A"; } });
console.log(Object.keys(getters), Object.entries(getters), Object.assign({}, "ab", getters));
console.log(Array.from({ length: 3, get 0() { churn(); return "zero"; } }));
function* gen() { yield churn(); yield* [churn(), "done"]; }
console.log([...gen()]);
console.log("a-b-c".replace(/-/g, () => churn() + ""), JSON.stringify({ toJSON() { churn(); return [1, { k: "v" }]; } }));
console.log([3, 1, 2].sort((x, y) => churn() && x - y), String([1, [2, { toString() { churn(); return "t"; } }]]));
