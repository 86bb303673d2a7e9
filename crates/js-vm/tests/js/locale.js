// Locale-sensitive built-ins in the default locale (en-US), diffed against
// node: toLocaleString of numbers, BigInts, arrays, typed arrays and dates;
// localeCompare; toLocaleUpperCase/LowerCase; normalize.

function show(label, f) {
  try {
    console.log(label, JSON.stringify(f()));
  } catch (e) {
    console.log(label, e.constructor.name + ": " + e.message);
  }
}

// Number.prototype.toLocaleString
const numbers = [0, -0, 1, -1, 0.5, 1.5, 2.5, -2.5, 1.005, 0.125, 1234.5, 1234567.891, 123456789012345680000,
  1e21, 1.5e300, 1e-7, 0.000123, 9.9995, 999.9995, NaN, Infinity, -Infinity, -0.0001, 255, 1 / 3];
for (const x of numbers) show("number " + x, () => x.toLocaleString());
const optionSets = [
  undefined,
  { minimumFractionDigits: 2 },
  { maximumFractionDigits: 0 },
  { maximumFractionDigits: 2 },
  { minimumFractionDigits: 5 },
  { minimumFractionDigits: 1, maximumFractionDigits: 1 },
  { maximumFractionDigits: 1, minimumFractionDigits: undefined },
  { useGrouping: false },
  { useGrouping: "min2" },
  { useGrouping: "always" },
  { useGrouping: "false" },
  { useGrouping: 0 },
  { minimumIntegerDigits: 5 },
  { maximumSignificantDigits: 2 },
  { minimumSignificantDigits: 8 },
  { minimumSignificantDigits: 2, maximumSignificantDigits: 4 },
  { roundingPriority: "morePrecision", maximumSignificantDigits: 2, maximumFractionDigits: 3 },
  { roundingPriority: "lessPrecision", maximumSignificantDigits: 2, maximumFractionDigits: 3 },
  { roundingIncrement: 5, maximumFractionDigits: 2, minimumFractionDigits: 2 },
  { roundingIncrement: 25, maximumFractionDigits: 2, minimumFractionDigits: 2 },
  { roundingIncrement: 50, maximumFractionDigits: 1, minimumFractionDigits: 1 },
  { trailingZeroDisplay: "stripIfInteger", minimumFractionDigits: 2 },
  { style: "percent" },
  { style: "percent", maximumFractionDigits: 1 },
  { notation: "scientific" },
  { notation: "engineering" },
  { notation: "scientific", maximumSignificantDigits: 2 },
  { signDisplay: "always" },
  { signDisplay: "exceptZero" },
  { signDisplay: "negative" },
  { signDisplay: "never" },
];
const roundingModes = ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"];
for (const mode of roundingModes) optionSets.push({ roundingMode: mode, maximumFractionDigits: 0 });
const sample = [0, -0, 1, -1, 0.5, 2.5, -2.5, 1.005, 0.125, 1234.5678, -1234.5678, 0.000123, 9.9999, 12345.678, 1e21,
  NaN, Infinity, -Infinity, -0.0001];
for (const options of optionSets) {
  const text = JSON.stringify(options);
  show("options " + text, () => sample.map((x) => x.toLocaleString(undefined, options)).join(" | "));
}
show("en-US", () => (255).toLocaleString("en-US"));
show("list", () => (1234.5).toLocaleString(["en-US", "de"]));
show("duplicate list", () => (1).toLocaleString(["en", "en"]));
show("number as locales", () => (1).toLocaleString(16));
show("empty object as locales", () => (1).toLocaleString({}));
show("null locales", () => (1).toLocaleString(null));
// V8 words some of these RangeErrors differently; the kind is what counts.
for (const tag of ["x_y", "en_US", "", "root", "en-", "de-1996-1996", "a", "toolongtag1", "en-u", "1234"]) {
  show("bad tag " + JSON.stringify(tag), () => {
    try {
      return (1).toLocaleString(tag);
    } catch (e) {
      return e.name;
    }
  });
}
show("non-string element", () => (1).toLocaleString([16]));
show("String object as locales", () => (1).toLocaleString(Object("de")));
const badOptions = [
  { maximumFractionDigits: 101 },
  { minimumFractionDigits: -1 },
  { minimumFractionDigits: 3, maximumFractionDigits: 2 },
  { minimumFractionDigits: "abc" },
  { minimumIntegerDigits: 0 },
  { minimumIntegerDigits: 22 },
  { maximumSignificantDigits: 22 },
  { minimumSignificantDigits: 0 },
  { roundingIncrement: 3 },
  { roundingIncrement: 5, maximumFractionDigits: 1 },
  { roundingIncrement: 5, maximumSignificantDigits: 2 },
  { style: "bogus" },
  { style: "currency" },
  { style: "currency", currency: "US" },
  { style: "unit" },
  { useGrouping: "bogus" },
  { signDisplay: "bogus" },
  { roundingMode: "up" },
  { localeMatcher: "bogus" },
  { numberingSystem: "a" },
  { notation: "bogus" },
];
for (const options of badOptions) show("bad options " + JSON.stringify(options), () => (1.23).toLocaleString(undefined, options));
show("null options", () => (1).toLocaleString(undefined, null));
show("primitive options", () => (1).toLocaleString(undefined, 5));
show("non-number this", () => Number.prototype.toLocaleString.call("1"));
show("Number object", () => new Number(1234.5).toLocaleString());

// BigInt.prototype.toLocaleString
for (const n of [0n, 1n, -12345n, 12345678901234567890n, 10n ** 30n]) show("bigint " + n, () => n.toLocaleString());
show("bigint fraction digits", () => (12345n).toLocaleString(undefined, { minimumFractionDigits: 2 }));
show("bigint significant digits", () => (12345n).toLocaleString(undefined, { maximumSignificantDigits: 2 }));
show("bigint no grouping", () => (12345n).toLocaleString("en-US", { useGrouping: false }));
show("bigint bad tag", () => (12345n).toLocaleString("x_y"));

// Array.prototype.toLocaleString and %TypedArray%.prototype.toLocaleString
show("array", () => [1234.5, null, undefined, "x", { toLocaleString() { return "L"; } }, [5678, 0.5]].toLocaleString());
show("array holes", () => [1, , 3].toLocaleString());
show("array of BigInts", () => [1234n, -5678n].toLocaleString());
show("array of dates", () => [new Date(2026, 0, 2, 3, 4, 5)].toLocaleString());
const cyclic = [1, 2];
cyclic.push(cyclic);
show("cyclic array", () => cyclic.toLocaleString());
show("array-like", () => Array.prototype.toLocaleString.call({ length: 2, 0: 1000, 1: 2000 }));
show("element without toLocaleString", () => {
  try {
    return [Object.create(null)].toLocaleString();
  } catch (e) {
    return e.name;
  }
});
show("throwing element", () => [{ toLocaleString() { throw new RangeError("inner"); } }].toLocaleString());
show("Float64Array", () => new Float64Array([1234.5, 2, -0.5]).toLocaleString());
show("Int32Array", () => new Int32Array([1000000, -2]).toLocaleString());
show("BigInt64Array", () => new BigInt64Array([1000000n, -2n]).toLocaleString());

// Date.prototype.toLocale*String in en-US form.
const date = new Date(2026, 11, 1, 21, 31, 41);
show("date", () => date.toLocaleString());
show("date date", () => date.toLocaleDateString());
show("date time", () => date.toLocaleTimeString());
show("midnight", () => new Date(2026, 0, 1, 0, 5, 0).toLocaleTimeString());
show("noon", () => new Date(2026, 0, 1, 12, 0, 0).toLocaleString());
show("invalid date", () => new Date(NaN).toLocaleString());
show("invalid date, bad tag", () => new Date(NaN).toLocaleString("x_y"));
show("date, en-US", () => date.toLocaleString("en-US"));
for (const method of ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]) {
  show("date bad tag " + method, () => {
    try {
      return date[method]("x_y");
    } catch (e) {
      return e.name;
    }
  });
  show("date non-string element " + method, () => {
    try {
      return date[method](["en", 5]);
    } catch (e) {
      return e.name;
    }
  });
}

// String.prototype.localeCompare
const pairs = [["a", "B"], ["a", "A"], ["A", "a"], ["a", "a"], ["b", "a"], ["résumé", "resume"], ["resume", "résumé"],
  ["e\u0301", "\u00e9"], ["10", "9"], ["2", "10"], ["a b", "ab"], ["", "a"], ["ä", "b"], ["z", "\u00e9"], ["α", "z"],
  ["Ω", "ω"], ["coop", "co-op"], ["ﬁ", "fi"], ["a", "á"], ["ß", "ss"], ["\u00c5", "A\u030a"], ["x", "X"],
  ["\uD800", "\uD801"], ["\uD800", "\uFFFD"], ["\uFFFD", "\uDC00"], ["a\uD800", "a\uD800"], ["e\u0301\uD800", "\u00e9\uD800"],
  ["a\u0000", "a"], ["a\u200B", "a"], ["A", "\u00C0"], ["ㄱ", "가"], ["日", "本"], ["\uD83D\uDE00", "\uD83D\uDE01"],
  ["a", "\uD800"], ["1", "١"], ["Æ", "AE"], ["ø", "o"], ["ı", "i"], ["\t", " "]];
for (const [a, b] of pairs) show("compare " + JSON.stringify([a, b]), () => a.localeCompare(b));
show("sorted", () => ["b", "a", "B", "A", "é", "e", "E", "f", "ä", "z", "Z", "10", "9", "_", "-"].sort((x, y) => x.localeCompare(y)));
show("sensitivity base", () => ["a".localeCompare("A", undefined, { sensitivity: "base" }), "a".localeCompare("á", undefined, { sensitivity: "base" })]);
show("sensitivity accent", () => ["a".localeCompare("A", undefined, { sensitivity: "accent" }), "a".localeCompare("á", undefined, { sensitivity: "accent" })]);
show("sensitivity case", () => ["a".localeCompare("A", undefined, { sensitivity: "case" }), "a".localeCompare("á", undefined, { sensitivity: "case" })]);
show("ignorePunctuation", () => "co-op".localeCompare("coop", undefined, { ignorePunctuation: true }));
show("compare bad tag", () => "a".localeCompare("b", "x_y"));
show("compare bad sensitivity", () => "a".localeCompare("b", undefined, { sensitivity: "bogus" }));
show("compare with undefined", () => "undefined".localeCompare());
show("compare on null", () => String.prototype.localeCompare.call(null, "a"));

// toLocaleUpperCase / toLocaleLowerCase and the root mappings
const casing = [
  ["i", "tr"], ["I", "tr"], ["istanbul", "tr-TR"], ["İ", "tr"], ["i", "az"], ["I", "az"], ["i\u0307", "lt"],
  ["I\u0300", "lt"], ["i", "en"], ["I", "en"], ["ΌΣΟΣ", "el"], ["άσος", "el"], ["i", ["tr", "en"]], ["i", undefined], ["i", []],
];
for (const [s, locale] of casing) {
  show("case " + JSON.stringify([s, locale]), () => [s.toLocaleUpperCase(locale), s.toLocaleLowerCase(locale)]);
}
show("case bad tag", () => "a".toLocaleUpperCase("x_y"));
show("case non-string element", () => "a".toLocaleUpperCase([1]));
for (const s of ["straße", "ΑΣ ΑΣΑ Σ", "ὈΔΥΣΣΕΎΣ", "İstanbul", "ǅ", "ﬃ", "Ⅻ", "ŉ", "a\uD800b", "\uDC00ΑΣ", "ÿ", "µ"]) {
  show("root case " + JSON.stringify(s), () => [s.toUpperCase(), s.toLowerCase(), s.toLocaleUpperCase(), s.toLocaleLowerCase()]);
}

// String.prototype.normalize
const texts = ["e\u0301", "\u00e9", "\u1e9b\u0323", "ﬁ²", "Å", "A\u030a", "\u00c5\u0301", "한국어", "\u1100\u1161\u11a8", "café",
  "\u0041\u0327\u0301", "abc", "\u00bd\u00a0x", "\uD800e\u0301", "e\u0301\uDC00", "\uD834\uDD5E", "\u2126"];
for (const t of texts) {
  show("normalize " + JSON.stringify(t), () => ["NFC", "NFD", "NFKC", "NFKD"].map((f) => t.normalize(f)).concat([t.normalize()]));
}
show("normalize bad form", () => "a".normalize("nfc"));
show("normalize undefined form", () => "\u00e9".normalize(undefined) === "\u00e9");
show("normalize on undefined", () => String.prototype.normalize.call(undefined));
