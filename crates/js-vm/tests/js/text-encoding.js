// TextEncoder and TextDecoder: what node prints for encoding, decoding,
// streaming, BOMs, fatal mode, labels and encodeInto.

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
const codes = (s) => Array.from(s, (c) => c.codePointAt(0).toString(16)).join(' ');

const enc = new TextEncoder();
console.log(enc.encoding, Object.prototype.toString.call(enc));
console.log(hex(enc.encode()), hex(enc.encode('')), hex(enc.encode(undefined)));
console.log(hex(enc.encode('héllo → 😀')));
console.log(hex(enc.encode('\ud800 \udc00 \ud83d\ude00 \ude00\ud83d')));
console.log(hex(enc.encode(12.5)), hex(enc.encode(null)), hex(enc.encode({ toString: () => 'ok' })));
console.log(enc.encode('abc') instanceof Uint8Array, enc.encode('abc').buffer.byteLength);

// A rope of Latin-1 and UTF-16 pieces, a surrogate pair split between two.
let rope = 'x'.repeat(70);
rope += '\ud83d';
rope += '\ude00' + 'y'.repeat(70);
rope += 'é'.repeat(64);
const ropeBytes = enc.encode(rope);
console.log(ropeBytes.length, hex(ropeBytes.subarray(68, 76)), hex(ropeBytes.subarray(-4)));
let lone = 'a'.repeat(80);
lone += '\ud800';
lone += 'b'.repeat(80);
console.log(hex(enc.encode(lone).subarray(78, 85)));

// encodeInto: whole code points only.
for (const [text, size] of [['hello', 3], ['h€llo', 3], ['😀😀', 5], ['é', 1], ['a\ud800b', 8], [rope, 300]]) {
  const dest = new Uint8Array(size);
  const { read, written } = enc.encodeInto(text, dest);
  console.log(JSON.stringify(text.slice(0, 6)), size, read, written, hex(dest.subarray(0, Math.min(written, 8))));
}
const view = new Uint8Array(new ArrayBuffer(10), 2, 4);
console.log(JSON.stringify(enc.encodeInto('abcdef', view)), hex(new Uint8Array(view.buffer)));
console.log(Object.keys(enc.encodeInto('', new Uint8Array(1))).join());
for (const bad of [new Int8Array(4), new Uint8ClampedArray(4), new ArrayBuffer(4), null, 'str']) {
  try {
    enc.encodeInto('a', bad);
    console.log('no error');
  } catch (e) {
    console.log('encodeInto', e.name);
  }
}

// Decoding.
const dec = new TextDecoder();
console.log(dec.encoding, dec.fatal, dec.ignoreBOM, Object.prototype.toString.call(dec));
console.log(dec.decode(), JSON.stringify(dec.decode(new Uint8Array([]))));
console.log(dec.decode(enc.encode('héllo → 😀')));
console.log(codes(dec.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62, 0xc3]))));
console.log(codes(new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))));
console.log(dec.decode(new Uint8Array([0x61, 0x62, 0x63, 0x64]).buffer));
console.log(dec.decode(new DataView(new Uint8Array([0x61, 0x62, 0x63, 0x64]).buffer, 1, 2)));
console.log(dec.decode(new Uint16Array([0x6261, 0x6463])));

// Streaming: a code point split across calls.
const euro = enc.encode('€€');
const sd = new TextDecoder();
const parts = [];
for (let i = 0; i < euro.length; i++) parts.push(sd.decode(euro.subarray(i, i + 1), { stream: true }));
parts.push(sd.decode());
console.log(JSON.stringify(parts));
console.log(codes(sd.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) + '|' + sd.decode()));

// Fatal mode.
const fatal = new TextDecoder('utf-8', { fatal: true });
for (const bytes of [[0x61, 0xff], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0x61]]) {
  try {
    console.log('fatal ok', fatal.decode(new Uint8Array(bytes)));
  } catch (e) {
    console.log('fatal', e.name, e instanceof TypeError);
  }
}
console.log(fatal.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) === '', fatal.decode(new Uint8Array([0xac])));

// Labels and other encodings.
for (const label of ['utf8', ' UTF-8\n', 'unicode-1-1-utf-8', 'latin1', 'ascii', 'utf-16', 'utf-16be', 'sjis', 'gbk', 'koi8-r']) {
  console.log(JSON.stringify(label), new TextDecoder(label).encoding);
}
for (const label of ['replacement', 'iso-2022-kr', 'utf-7', 'nope', '']) {
  try {
    new TextDecoder(label);
    console.log('accepted', label);
  } catch (e) {
    console.log('rejected', JSON.stringify(label), e.name);
  }
}
console.log(new TextDecoder('utf-16le').decode(new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x3d, 0xd8, 0x00, 0xde])));
console.log(codes(new TextDecoder('utf-16be').decode(new Uint8Array([0x00, 0x41, 0xd8, 0x00]))));
console.log(new TextDecoder('windows-1252').decode(new Uint8Array([0xe9, 0x41])));
console.log(new TextDecoder('iso-8859-2').decode(new Uint8Array([0xa1, 0xb1])));
console.log(new TextDecoder('shift_jis').decode(new Uint8Array([0x82, 0xa0, 0x82, 0xa2])));
console.log(new TextDecoder('euc-kr').decode(new Uint8Array([0xb0, 0xa1])));

// Argument checking.
for (const [what, f] of [
  ['decode(1)', () => dec.decode(1)],
  ['decode("s")', () => dec.decode('s')],
  ['decode({})', () => dec.decode({})],
  ['options 1', () => new TextDecoder('utf-8', 1)],
  ['call', () => TextDecoder()],
  ['encode this', () => TextEncoder.prototype.encode.call({}, 'a')],
  ['decode this', () => TextDecoder.prototype.decode.call(enc)],
]) {
  try {
    f();
    console.log(what, 'no error');
  } catch (e) {
    console.log(what, e.name);
  }
}
// (Node reads the options twice and accepts non-object decode options:
// the spec's one read and TypeError are tested by WPT instead.)
console.log(new TextDecoder('utf-8', { fatal: 'yes' }).fatal, new TextDecoder(undefined, null).encoding);
console.log(Object.getOwnPropertyNames(TextDecoder.prototype).sort().join(), TextDecoder.length, TextEncoder.length);
