// BigInt (ECMA-262 §6.1.6.2, §21.2): literals, operators, comparisons,
// conversions, wrappers, the BigInt function and its prototype, and how
// console.log shows them.

function attempt(label, f) {
  try {
    console.log(label, f());
  } catch (e) {
    console.log(label, 'threw', e.constructor.name);
  }
}

// Literals in every base, with separators.
console.log(0n, 1n, -1n, 0x1fn, 0XFFn, 0o17n, 0b1011n, 1_000_000n, 0xdead_beefn);
console.log(123456789012345678901234567890n);
console.log(typeof 1n, typeof Object(1n), typeof BigInt);

// Arithmetic.
console.log(2n + 3n, 2n - 3n, 6n * 7n, 7n / 2n, -7n / 2n, 7n % 2n, -7n % 2n, 7n % -2n);
console.log(2n ** 100n, (-2n) ** 3n, 0n ** 0n, 10n ** 0n);
console.log(1n << 70n, -5n >> 1n, 5n >> 1n, 5n << -1n, -1n >> 1000n, 3n >> 100000000000n);
console.log(6n & 3n, 6n | 3n, 6n ^ 3n, -6n & 5n, -6n | 5n, ~5n, ~-1n, -(-5n), -0n);
let counter = 9n;
counter++;
++counter;
console.log(counter, counter--, --counter, counter);
let acc = 1n;
for (let i = 0n; i < 30n; i += 1n) acc *= 3n;
console.log(acc);
const obj = { valueOf() { return 40n; } };
console.log(obj + 2n, obj * 2n, -obj);

// Errors.
attempt('1n + 1', () => 1n + 1);
attempt('1 * 1n', () => 1 * 1n);
attempt('+1n', () => +1n);
attempt('1n / 0n', () => 1n / 0n);
attempt('1n % 0n', () => 1n % 0n);
attempt('2n ** -1n', () => 2n ** -1n);
attempt('1n >>> 0n', () => 1n >>> 0n);
attempt('new BigInt(1)', () => new BigInt(1));
attempt('Math.abs(1n)', () => Math.abs(1n));
attempt('Math.max(1n)', () => Math.max(1n));
attempt('isNaN(1n)', () => isNaN(1n));
attempt('Number.isNaN(1n)', () => Number.isNaN(1n));
attempt('JSON.stringify(1n)', () => JSON.stringify(1n));
attempt('JSON.stringify([Object(1n)])', () => JSON.stringify([Object(1n)]));
attempt('1n + Symbol()', () => 1n + Symbol());
attempt('1n < Symbol()', () => 1n < Symbol());
attempt('2n ** 10000000000n', () => 2n ** 10000000000n);

// Mixing with strings concatenates.
console.log(1n + '', '' + -12n, `${2n ** 64n}`, String(7n), [1n, 2n].join());

// Comparisons across types.
console.log(1n < 2, 2n > 1.5, 1n < 1.5, -1n < -0.5, 3n <= 3, 3n >= 3.5);
console.log(1n < NaN, 1n > NaN, 1n < Infinity, 1n > -Infinity, 10n ** 400n < Infinity);
console.log('10' > 9n, '0x10' == 16n, 'x' < 1n, 'x' >= 1n, '1.5' == 1n, ' 12 ' == 12n);
console.log(1n == 1, 1n === 1, 1n == 1n, 1n === 1n, 0n == -0, 0n == false, 1n == true, 2n == true);
console.log(1n == '1', 1n != '2', 1n == Object(1n), Object.is(0n, -0n), Object.is(5n, 5n));
console.log(9007199254740993n == 9007199254740992, 9007199254740993n > 9007199254740992);
console.log([1n, 2n, 3n].includes(2n), [1n, 2n].indexOf(2n), [0n].includes(-0n));

// Truthiness.
console.log(!!0n, !!1n, 0n ? 'yes' : 'no', 0n || 'fallback', 5n && 'and');

// Conversions.
console.log(BigInt(10), BigInt(-0), BigInt(true), BigInt(false), BigInt('  42  '), BigInt(''));
console.log(BigInt('0x1f'), BigInt('0o17'), BigInt('0b11'), BigInt('-99'), BigInt(Number.MAX_SAFE_INTEGER));
console.log(BigInt(1e21), BigInt({ valueOf: () => 3 }), BigInt({ [Symbol.toPrimitive]: () => '77' }));
attempt('BigInt(1.5)', () => BigInt(1.5));
attempt('BigInt(NaN)', () => BigInt(NaN));
attempt('BigInt(Infinity)', () => BigInt(Infinity));
attempt("BigInt('1.5')", () => BigInt('1.5'));
attempt("BigInt('1n')", () => BigInt('1n'));
attempt("BigInt('-0x1')", () => BigInt('-0x1'));
attempt('BigInt(undefined)', () => BigInt(undefined));
attempt('BigInt(null)', () => BigInt(null));
attempt('BigInt(Symbol())', () => BigInt(Symbol()));
console.log(Number(12n), Number(-(2n ** 64n)), Number(2n ** 53n + 1n), Number(2n ** 1024n), +Number(1n));
console.log(parseInt('12n'), parseFloat('3n'), Number('1n'));

// BigInt.asIntN / asUintN.
console.log(BigInt.asIntN(8, 255n), BigInt.asIntN(8, 127n), BigInt.asIntN(8, 128n), BigInt.asIntN(64, -1n));
console.log(BigInt.asUintN(8, -1n), BigInt.asUintN(64, -1n), BigInt.asUintN(0, 5n), BigInt.asIntN(3, '25'));
console.log(BigInt.asIntN(64, 2n ** 63n), BigInt.asUintN(64, 2n ** 64n + 5n));
attempt('BigInt.asIntN(-1, 1n)', () => BigInt.asIntN(-1, 1n));
attempt('BigInt.asUintN(8, 1)', () => BigInt.asUintN(8, 1));

// BigInt.prototype.
console.log((255n).toString(), (255n).toString(16), (-255n).toString(2), (35n).toString(36));
console.log((10n).valueOf(), Object(10n).valueOf() === 10n, BigInt.prototype[Symbol.toStringTag]);
console.log(Object.prototype.toString.call(1n), Object.prototype.toString.call(Object(1n)));
attempt('(1n).toString(1)', () => (1n).toString(1));
attempt('BigInt.prototype.valueOf.call(1)', () => BigInt.prototype.valueOf.call(1));
console.log(BigInt.length, BigInt.name, BigInt.asIntN.length, BigInt.prototype.toString.length);
console.log(Object.getOwnPropertyNames(BigInt.prototype).sort().join());

// Wrapper objects.
const wrapped = Object(5n);
console.log(typeof wrapped, wrapped instanceof BigInt, wrapped + 1n, wrapped == 5n, wrapped === 5n);
console.log(wrapped, [Object(-3n)]);

// Property keys.
const keyed = {};
keyed[1n] = 'one';
keyed[2n ** 64n] = 'big';
console.log(keyed, Object.keys(keyed), { 10n: 'literal' }, keyed['1']);
class WithBigKey { 7n() { return 'method'; } }
console.log(new WithBigKey()[7]());

// Map and Set keys use SameValueZero.
const map = new Map([[1n, 'a'], [2n ** 70n, 'b']]);
console.log(map.get(1n), map.get(2n ** 70n), map.has(1), new Set([1n, 1n, 1, 2n ** 70n, 2n ** 70n]).size);

// JSON: toJSON on BigInt.prototype is honoured.
BigInt.prototype.toJSON = function () { return `${this}n`; };
console.log(JSON.stringify({ a: 1n, b: [2n, Object(3n)] }));
delete BigInt.prototype.toJSON;

// console.log of nested values.
console.log({ big: 10n ** 20n, list: [1n, -2n], nested: { z: 0n } });
console.log([1n], new Map([[1n, 2n]]), new Set([3n]));

// process.hrtime.bigint() is a growing BigInt.
const t0 = process.hrtime.bigint();
const t1 = process.hrtime.bigint();
console.log(typeof t0, t1 >= t0);

// Edge cases: string forms, asIntN/asUintN widths, rounding, compound assignment.
function caught(f){try{return f()}catch(e){return e.constructor.name}}
console.log('' < 1n, '' == 0n, ' ' == 0n, '1e3' == 1000n, -1n < '-0', '0b11' == 3n, '-0x1' == -1n);
console.log(BigInt(" 0x10 "), 1n == "0x1", 1n == ({valueOf(){return 1n}}), ({toString(){return '5'}}) == 5n);
console.log(caught(()=>BigInt.asIntN(2**53, 1n)), caught(()=>BigInt.asUintN(2**53-1, -1n)), caught(()=>BigInt.asIntN(2**53-1, -(2n**64n))));
console.log(Number(-0n), Number(2n**1023n*3n), Number(2n**1023n*2n - 1n), (-(36n**3n)).toString(36));
console.log(caught(()=>1n < Symbol()), caught(()=> Symbol() < 1n), 1n < {valueOf(){return 2n}}, [3n,1n,2n].sort(), [10n, 9n, 1n].sort((a,b)=> a < b ? -1 : 1));
console.log(5n > '4.5', 5n > '4', caught(()=>BigInt('  ')), caught(()=>BigInt('0x')), BigInt('-0'), Object.is(BigInt('-0'), 0n));
console.log(typeof (1n ** 1n), 1n + 2n * 3n ** 2n, (2n ** 64n).toString(2).length, 0n === -0n, -0n);
let x = 10n; x **= 2n; x %= 7n; x <<= 3n; x >>= 1n; x &= 0xfn; x |= 16n; x ^= 1n; console.log(x);
console.log([0n, 1n].map(Boolean), !0n, !1n, 0n ?? 'n', null ?? 0n);
console.log(caught(()=>BigInt.prototype.toString.call(Object(5n), 36)), caught(()=>BigInt.prototype.toString.call('5')));
console.log(String(Object(7n)), Object(7n) + '', `${Object(8n)}`, JSON.stringify({}.x), 1n.constructor === BigInt);
console.log(Object.getOwnPropertyDescriptor(BigInt.prototype, Symbol.toStringTag), Object.getOwnPropertyDescriptor(globalThis, 'BigInt'));
console.log(new Set([0n, -0n]).size, [NaN, 0n].includes(0n), [1n].indexOf(1), 2n**64n == 18446744073709551616, 2n**64n == '18446744073709551616');
console.log(1n < 1.0000001, 1n > 0.9999, -1n > -1.5, 1n >= 1, 0n <= -0, 1n == 1.0, 9007199254740993n == 9007199254740993);
