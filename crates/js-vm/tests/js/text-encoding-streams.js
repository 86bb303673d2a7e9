// TextEncoderStream and TextDecoderStream: chunking, surrogates split
// between chunks, streaming decode of split sequences, fatal, ignoreBOM,
// the flush at close, bad chunks, attributes and brand checks.
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join(' ');
const codes = (s) => Array.from(s, (c) => c.codePointAt(0).toString(16)).join(' ');

async function run(stream, chunks) {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const out = [];
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'closed';
      out.push(value);
    }
  })().catch((e) => `errored ${e.name}`);
  for (const chunk of chunks) writer.write(chunk).catch(() => {});
  writer.close().catch(() => {});
  const end = await reading;
  return { out, end };
}

async function encode(label, chunks) {
  const { out, end } = await run(new TextEncoderStream(), chunks);
  const shown = out.map((c) => `${c.constructor.name}[${hex(c)}]`);
  console.log(`encode ${label}: ${shown.join(' | ')} (${end})`);
}

async function decode(label, chunks, ...args) {
  const { out, end } = await run(new TextDecoderStream(...args), chunks);
  console.log(`decode ${label}: ${out.map((s) => `${typeof s}[${codes(s)}]`).join(' | ')} (${end})`);
}

const bytes = (...b) => new Uint8Array(b);

(async () => {
  await encode('ascii', ['hello', ' ', 'world']);
  await encode('latin1 and wide', ['caf\u00e9', '\u2192', '\u{1F600}']);
  await encode('empty chunks make no output', ['', 'a', '']);
  await encode('pair split between chunks', ['a\uD83D', '\uDE00b']);
  await encode('pair split around empty chunks', ['\uD83D', '', '', '\uDE00']);
  await encode('lone leading surrogate then text', ['\uD83D', 'x']);
  await encode('two leading surrogates', ['\uD83D', '\uD83D', '\uDE00']);
  await encode('lone trailing surrogate', ['\uDE00']);
  await encode('leading surrogate at the end', ['ok\uD83D']);
  await encode('non-strings', [42, null, undefined, { toString() { return 'obj'; } }]);
  // (A Symbol chunk, which ToString rejects, and an undefined chunk to
  // the decoder error the stream; node 20 accepts both: WPT covers them.)

  const euro = [0xe2, 0x82, 0xac];
  await decode('utf-8 one chunk', [bytes(0x68, 0x69, ...euro)]);
  await decode('split sequence', [bytes(0x61, euro[0]), bytes(euro[1]), bytes(euro[2], 0x62)]);
  await decode('empty chunks', [bytes(), bytes(0x61), new ArrayBuffer(0)]);
  await decode('ArrayBuffer and DataView chunks', [bytes(0x61).buffer, new DataView(bytes(0x62, 0x63).buffer, 1)]);
  await decode('incomplete at close', [bytes(0x61, 0xf0, 0x9f)]);
  await decode('incomplete at close, fatal', [bytes(0x61, 0xf0, 0x9f)], 'utf-8', { fatal: true });
  await decode('malformed, fatal', [bytes(0x61), bytes(0xff)], 'utf-8', { fatal: true });
  await decode('malformed, replacement', [bytes(0xff, 0x61)]);
  await decode('BOM removed', [bytes(0xef, 0xbb), bytes(0xbf, 0x61)]);
  await decode('BOM kept with ignoreBOM', [bytes(0xef, 0xbb, 0xbf, 0x61)], 'utf-8', { ignoreBOM: true });
  await decode('utf-16le split unit', [bytes(0x41), bytes(0x00, 0x3d, 0xd8), bytes(0x00, 0xde)], 'utf-16le');
  await decode('windows-1252', [bytes(0x80, 0xe9)], 'latin1');
  await decode('shift_jis split', [bytes(0x82), bytes(0xa0)], 'shift_jis');
  for (const bad of [null, 3, 'str', {}, [65]]) {
    await decode(`bad chunk ${Array.isArray(bad) ? 'array' : String(bad)}`, [bad]);
  }

  const tds = new TextDecoderStream('UTF-16', { fatal: 1, ignoreBOM: '' });
  console.log(tds.encoding, tds.fatal, tds.ignoreBOM, tds.readable instanceof ReadableStream, tds.writable instanceof WritableStream);
  const tes = new TextEncoderStream();
  console.log(tes.encoding, tes.readable instanceof ReadableStream, tes.writable instanceof WritableStream);
  console.log(tes.readable === tes.readable, tds.writable === tds.writable);
  for (const [name, proto] of [['TextEncoderStream', TextEncoderStream.prototype], ['TextDecoderStream', TextDecoderStream.prototype]]) {
    const names = Object.getOwnPropertyNames(proto).join(',');
    console.log(name, names, TextEncoderStream.length, TextDecoderStream.length);
    for (const key of ['encoding', 'readable', 'writable']) {
      const { get, enumerable, configurable } = Object.getOwnPropertyDescriptor(proto, key);
      let thrown = 'none';
      try { get.call({}); } catch (e) { thrown = e.constructor.name; }
      console.log(`  ${key} ${typeof get} ${enumerable} ${configurable} brand ${thrown}`);
    }
  }
  for (const make of [() => TextEncoderStream(), () => TextDecoderStream(), () => new TextDecoderStream('nope'),
    () => new TextDecoderStream('replacement'), () => new TextDecoderStream('utf-8', 5)]) {
    try { make(); console.log('no throw'); } catch (e) { console.log(e.constructor.name); }
  }
  class Sub extends TextEncoderStream {}
  const sub = new Sub();
  console.log(sub instanceof Sub, sub.encoding);

  // Through pipeThrough, both ways.
  const source = new ReadableStream({ start(c) { c.enqueue('\uD83D'); c.enqueue('\uDE00 done'); c.close(); } });
  const text = source.pipeThrough(new TextEncoderStream()).pipeThrough(new TextDecoderStream());
  let all = '';
  for await (const chunk of text) all += chunk;
  console.log('round trip', codes(all));
})();
