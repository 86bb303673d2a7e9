//! `TextEncoderStream` and `TextDecoderStream` behaviour that node 20 does
//! not follow (so `tests/js/text-encoding-streams.js` cannot show it): a
//! chunk that is not a string (encoder: `ToString` throws on a Symbol) or
//! not a buffer source (decoder: `undefined` too) errors the stream; the
//! classes have `@@toStringTag`; the decoder options are read once, in
//! the order the IDL dictionary gives.

mod support;

const PROGRAM: &str = r"
async function run(stream, chunk) {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const written = writer.write(chunk).then(() => 'written', (e) => e.constructor.name);
  const read = reader.read().then(() => 'read', (e) => e.constructor.name);
  return `${await written} ${await read}`;
}
(async () => {
  console.log('encoder symbol:', await run(new TextEncoderStream(), Symbol('s')));
  console.log('decoder undefined:', await run(new TextDecoderStream(), undefined));
  console.log(Object.prototype.toString.call(new TextEncoderStream()), Object.prototype.toString.call(new TextDecoderStream()));
  const order = [];
  new TextDecoderStream({ toString() { order.push('label'); return 'utf-8'; } },
    { get ignoreBOM() { order.push('ignoreBOM'); return true; }, get fatal() { order.push('fatal'); return false; } });
  console.log(order.join(','));
})();
";

#[test]
fn encoding_streams_follow_the_spec_where_node_does_not() {
    let out = support::run_capturing("text-encoding-streams-spec.js", PROGRAM);
    assert_eq!(
        out,
        "encoder symbol: TypeError TypeError\n\
         decoder undefined: TypeError TypeError\n\
         [object TextEncoderStream] [object TextDecoderStream]\n\
         label,fatal,ignoreBOM\n"
    );
}
