//! js-json benchmarks: escape kernels beside memcpy, `serde_json` and
//! `sonic-rs`; stringify and parse of a 9 MB request-shaped body beside
//! `serde_json::Value` and `sonic_rs::Value`. Run with
//! `cargo xtask bench json` (needs the `bench` feature for the per-ISA
//! kernels).
//!
//! Throughput is counted in input bytes of the engine's representation for
//! the escape groups (2 bytes per UTF-16 unit), and in UTF-8 bytes of the
//! JSON text for stringify and parse; within a group every entry does the
//! same work on the same text, so the "× fastest" column compares times.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, Throughput, measurement::WallTime};
use js_json::reference::{ReferenceHost, Value};
use js_json::{Isa, JsStr, JsonText, Kernels, Limits, NeedsWide};

/// Characters in each escape input (the size of the one-arrow source file
/// that took JSC from 0.5 to 3 GB/s).
const ESCAPE_CHARS: usize = 163_000;
/// Size of the request-shaped body.
const BODY_BYTES: usize = 9 * 1024 * 1024;

/// A deterministic generator (xorshift64).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const WORDS: [&str; 24] = [
    "the", "request", "value", "engine", "string", "message", "content", "model", "return", "object", "café", "naïve",
    "données", "über", "function", "stream", "token", "escape", "buffer", "parse", "array", "with", "and", "of",
];

/// Latin-1 prose with no character that needs escaping.
fn latin1_prose(chars: usize) -> String {
    let mut draw = Draw(0x9E37_79B9_7F4A_7C15);
    let mut text = String::new();
    while text.chars().count() < chars {
        text.push_str(draw.pick(&WORDS));
        text.push_str(draw.pick(&[" ", " ", " ", ", ", ". "]));
    }
    text.chars().take(chars).collect()
}

/// JavaScript-like source: lines of about 40 characters (each newline is
/// an escape), some double-quoted strings.
fn source_text(chars: usize) -> String {
    const LINES: [&str; 10] = [
        "  const value = parseRequest(request.body, options);",
        "  if (value.items.length > options.limit) {",
        "    throw new RangeError(\"too many items in cart\");",
        "  } else if (value.items.length === 0) { return null; }",
        "  for (let index = 0; index < items.length; index++) {",
        "    total += items[index].price * items[index].count;",
        "  return { status: 'ok', total, currency: value.currency };",
        "export function handleRequest(request, response) {",
        "// Sums the prices of the items in the shopping cart.",
        "export default { handleRequest, parseRequest };",
    ];
    let mut draw = Draw(0x0BAD_5EED_1234_5678);
    let mut text = String::new();
    while text.len() < chars {
        text.push_str(draw.pick(&LINES));
        text.push('\n');
    }
    text.truncate(chars);
    text
}

/// Chinese prose: CJK characters and CJK punctuation, nothing to escape
/// (the wide counterpart of the Latin-1 input without escapes).
fn cjk_text(chars: usize) -> String {
    let mut draw = Draw(0x1357_9BDF_2468_ACE0);
    let mut text = String::new();
    let mut count = 0;
    while count < chars {
        let c = match draw.next() % 100 {
            0..=6 => '，',
            7..=9 => '。',
            _ => char::from_u32(0x4E00 + (draw.next() % 0x5000) as u32).unwrap(),
        };
        text.push(c);
        count += 1;
    }
    text
}

fn latin1_bytes(text: &str) -> Vec<u8> {
    text.chars().map(|c| u8::try_from(u32::from(c)).expect("Latin-1 text")).collect()
}

fn utf16(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

fn kernel_sets() -> Vec<&'static Kernels> {
    Isa::ALL.into_iter().filter_map(Isa::kernels).collect()
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>, bytes: usize) {
    group.throughput(Throughput::Bytes(bytes as u64));
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
}

/// memcpy of the input bytes, and `serde_json`/`sonic-rs` escaping the
/// same text as UTF-8.
fn baselines<T: Copy + Default>(group: &mut BenchmarkGroup<'_, WallTime>, input: &[T], text: &str) {
    let mut copy = vec![T::default(); input.len()];
    group.bench_function("memcpy", |b| {
        b.iter(|| {
            copy.copy_from_slice(black_box(input));
            black_box(&copy);
        });
    });
    let mut out = Vec::with_capacity(text.len() * 2);
    group.bench_function("serde_json (UTF-8)", |b| {
        b.iter(|| {
            out.clear();
            serde_json::to_writer(&mut out, black_box(text)).unwrap();
            black_box(&out);
        });
    });
    group.bench_function("sonic-rs (UTF-8)", |b| {
        b.iter(|| {
            out.clear();
            sonic_rs::to_writer(&mut out, black_box(text)).unwrap();
            black_box(&out);
        });
    });
}

fn escape_latin1_group(c: &mut Criterion, name: &str, text: &str) {
    let input = latin1_bytes(text);
    let mut group = c.benchmark_group(format!("json/escape-{name}"));
    configure(&mut group, input.len());
    baselines(&mut group, &input, text);
    let mut out = Vec::with_capacity(input.len() * 2);
    for kernels in kernel_sets() {
        group.bench_function(format!("{:?} →8-bit", kernels.isa), |b| {
            b.iter(|| {
                out.clear();
                (kernels.latin1_to_latin1)(black_box(&input), &mut out);
                black_box(&out);
            });
        });
    }
    group.finish();
}

/// What stringify's output buffer does with a UTF-16 string: 8-bit output
/// until the first wide character, then widen and continue.
fn escape_narrow_until_wide(kernels: &Kernels, input: &[u16], narrow: &mut Vec<u8>, wide: &mut Vec<u16>) {
    narrow.clear();
    wide.clear();
    if let Err(NeedsWide { consumed }) = (kernels.utf16_to_latin1)(input, narrow) {
        wide.extend(narrow.iter().map(|&b| u16::from(b)));
        (kernels.utf16_to_utf16)(&input[consumed..], wide);
    }
}

fn escape_utf16_group(c: &mut Criterion, name: &str, text: &str) {
    let input = utf16(text);
    let mut group = c.benchmark_group(format!("json/escape-{name}"));
    configure(&mut group, input.len() * 2);
    baselines(&mut group, &input, text);
    let mut narrow = Vec::with_capacity(input.len() * 2);
    let mut wide = Vec::with_capacity(input.len() * 2);
    for kernels in kernel_sets() {
        group.bench_function(format!("{:?} →16-bit", kernels.isa), |b| {
            b.iter(|| {
                wide.clear();
                (kernels.utf16_to_utf16)(black_box(&input), &mut wide);
                black_box(&wide);
            });
        });
        group.bench_function(format!("{:?} 8-bit until wide", kernels.isa), |b| {
            b.iter(|| {
                escape_narrow_until_wide(kernels, black_box(&input), &mut narrow, &mut wide);
                black_box((&narrow, &wide));
            });
        });
    }
    group.finish();
}

fn escape(c: &mut Criterion) {
    let prose = latin1_prose(ESCAPE_CHARS);
    let source = source_text(ESCAPE_CHARS);
    let escapes = source.bytes().filter(|&b| b == b'\n' || b == b'"').count();
    println!(
        "fact: escape inputs are {ESCAPE_CHARS} characters; source text has an escape every {:.1} characters",
        ESCAPE_CHARS as f64 / escapes as f64
    );
    escape_latin1_group(c, "latin1-no-escapes", &prose);
    escape_latin1_group(c, "latin1-source", &source);
    escape_utf16_group(c, "utf16-all-latin1", &prose);
    let mut one_arrow = source.clone();
    let middle = one_arrow.len() / 2;
    one_arrow.replace_range(middle..=middle, "→");
    escape_utf16_group(c, "utf16-source-one-arrow", &one_arrow);
    escape_utf16_group(c, "utf16-cjk", &cjk_text(ESCAPE_CHARS));
}

/// A chat-completion request body of about `BODY_BYTES`: an array of
/// messages with long texts. `wide` mixes in arrows, curly quotes, em
/// dashes and CJK, so most texts are UTF-16 in an engine.
fn request_body(wide: bool) -> String {
    let mut draw = Draw(if wide { 0xFEED_FACE_0000_0001 } else { 0xFEED_FACE_0000_0002 });
    let fancy: [&str; 8] = ["→", "“quoted”", "—", "中文", "日本語", "naïve", "…", "✓"];
    let mut messages = Vec::new();
    let mut size = 0;
    while size < BODY_BYTES {
        let mut content = String::new();
        let len = 2_000 + (draw.next() % 20_000) as usize;
        while content.len() < len {
            content.push_str(draw.pick(&WORDS));
            match draw.next() % 40 {
                0 => content.push_str(".\n\n"),
                1 => content.push_str(" \"quote\" "),
                2 if wide => {
                    content.push(' ');
                    content.push_str(draw.pick(&fancy));
                    content.push(' ');
                }
                _ => content.push(' '),
            }
        }
        let role = draw.pick(&["system", "user", "assistant"]);
        let message = serde_json::json!({ "role": role, "content": content, "index": messages.len() });
        size += content.len() + 40;
        messages.push(message);
    }
    let body = serde_json::json!({
        "model": "example-model-2026",
        "stream": true,
        "temperature": 0.7,
        "max_tokens": 4096,
        "messages": messages,
    });
    // Keys in insertion order as a JavaScript object would keep them.
    serde_json::to_string(&body).unwrap()
}

fn parse_reference(text: &str) -> Value {
    let units = utf16(text);
    let mut host = ReferenceHost::new();
    if units.iter().all(|&unit| unit <= 0xFF) {
        let bytes: Vec<u8> = units.iter().map(|&unit| unit as u8).collect();
        js_json::parse(&mut host, JsStr::Latin1(&bytes), &Value::Undefined, Limits::default()).unwrap()
    } else {
        js_json::parse(&mut host, JsStr::Utf16(&units), &Value::Undefined, Limits::default()).unwrap()
    }
}

fn stringify_reference(value: &Value) -> JsonText {
    js_json::stringify(&mut ReferenceHost::new(), value, &Value::Undefined, &Value::Undefined, Limits::default())
        .unwrap()
        .unwrap()
}

fn body_groups(c: &mut Criterion, name: &str, wide: bool) {
    let text = request_body(wide);
    let value = parse_reference(&text);
    let ours = stringify_reference(&value);
    assert_eq!(ours.to_string_lossy(), text, "stringify(parse(body)) is the body");
    println!(
        "fact: {name} body is {} bytes of UTF-8; js-json output is {}",
        text.len(),
        match ours {
            JsonText::Latin1(_) => "Latin-1",
            JsonText::Utf16(_) => "UTF-16",
        }
    );
    let serde_value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sonic_value: sonic_rs::Value = sonic_rs::from_str(&text).unwrap();

    let mut group = c.benchmark_group(format!("json/stringify-{name}"));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("js-json (reference host)", |b| {
        b.iter_with_large_drop(|| stringify_reference(black_box(&value)));
    });
    group.bench_function("serde_json::Value", |b| {
        b.iter_with_large_drop(|| serde_json::to_vec(black_box(&serde_value)).unwrap());
    });
    group.bench_function("sonic_rs::Value", |b| {
        b.iter_with_large_drop(|| sonic_rs::to_vec(black_box(&sonic_value)).unwrap());
    });
    group.finish();

    let units = utf16(&text);
    let latin1: Option<Vec<u8>> = units.iter().map(|&unit| u8::try_from(unit).ok()).collect();
    let source = match &latin1 {
        Some(bytes) => JsStr::Latin1(bytes),
        None => JsStr::Utf16(&units),
    };
    let mut group = c.benchmark_group(format!("json/parse-{name}"));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    let label = if latin1.is_some() { "js-json (Latin-1 source)" } else { "js-json (UTF-16 source)" };
    group.bench_function(label, |b| {
        b.iter_with_large_drop(|| {
            js_json::parse(&mut ReferenceHost::new(), black_box(source), &Value::Undefined, Limits::default()).unwrap()
        });
    });
    group.bench_function("serde_json::Value", |b| {
        b.iter_with_large_drop(|| serde_json::from_str::<serde_json::Value>(black_box(&text)).unwrap());
    });
    group.bench_function("sonic_rs::Value", |b| {
        b.iter_with_large_drop(|| sonic_rs::from_str::<sonic_rs::Value>(black_box(&text)).unwrap());
    });
    group.finish();
}

fn body(c: &mut Criterion) {
    body_groups(c, "9mb-ascii", false);
    body_groups(c, "9mb-non-latin1", true);
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    escape(&mut criterion);
    body(&mut criterion);
    criterion.final_summary();
}
