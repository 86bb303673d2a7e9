//! JSON for JavaScript engines: SIMD string escaping for Latin-1 and UTF-16
//! strings, `JSON.stringify` and `JSON.parse` over a narrow host trait.
//!
//! # What the crate owns
//!
//! * **Escape kernels** ([`escape_latin1`], [`escape_utf16`], …): Latin-1
//!   (`&[u8]`) or UTF-16 (`&[u16]`) input into 8-bit or 16-bit output,
//!   exactly as ECMA-262's `QuoteJSONString` escapes (lone surrogates as
//!   lowercase `\udxxx`). A scalar reference and SSE2, AVX2 and AVX-512BW
//!   kernels exist; the fastest the CPU runs is detected once. A NEON
//!   kernel slots in as one more file implementing the block trait. The
//!   parser uses the same kernels to find the end of string contents and
//!   of whitespace runs.
//! * **[`stringify`](fn@stringify)**: `JSON.stringify` exact to the spec (`toJSON`,
//!   replacer functions and lists, gaps, cycles, BigInt, boxed primitives,
//!   `JSON.rawJSON` objects), with a fast path for plain data that gives up
//!   before any user-observable step. Output stays 8-bit until the first
//!   character that needs 16 bits ([`JsonText`]).
//! * **[`parse`]**: `JSON.parse` with a reviver and `context.source`, and
//!   [`validate_raw_json`] for `JSON.rawJSON`.
//!
//! # The host trait
//!
//! The crate has no object model. An engine implements [`JsonHost`]:
//! classify a value, read strings as Latin-1 or UTF-16 slices, enumerate
//! keys, get properties (running user code), call functions, create values,
//! and make its own exception from a [`JsonError`]. [`reference`](mod@reference) is a small
//! value tree implementing it, used by the tests and benchmarks.
//!
//! ```
//! use js_json::reference::{ReferenceHost, Value};
//! use js_json::{JsStr, Limits};
//!
//! let mut host = ReferenceHost::new();
//! let parsed = js_json::parse(&mut host, JsStr::Latin1(br#"{"a":[1,"\u2192"]}"#), &Value::Undefined, Limits::default())
//!     .unwrap();
//! let text = js_json::stringify(&mut host, &parsed, &Value::Undefined, &Value::Undefined, Limits::default())
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(text.to_string_lossy(), "{\"a\":[1,\"→\"]}");
//! ```
//!
//! # Performance decisions
//!
//! Escaping works in segments: clean blocks are stored whole, an escape is
//! written by the scalar step, and the SIMD loop resumes right after it.
//! UTF-16 blocks that are all Latin-1 take the 8-bit path when writing 8-bit
//! output. Neither serializer nor parser recurses on the native stack.
//!
//! AVX-512BW is used where present. On the development machine (AMD EPYC,
//! `cargo xtask bench json`) it escapes Latin-1 text without escapes at 67%
//! of memcpy's throughput (AVX2: 42%), UTF-16 text without escapes at 63–71%
//! (AVX2: 40–50%), and the 163,000-character one-arrow source file 8.5x
//! faster than the scalar kernel. Its clean-block test combines `xor`,
//! `and` and unsigned `min` in vector registers and tests the result once,
//! instead of three or four compares and mask ORs per register.
//!
//! JSON.parse of UTF-16 text reads and writes twice the bytes that a UTF-8
//! parser does, so string contents are touched once: the scan that finds a
//! string's end also copies it, decodes its escapes and learns whether it
//! fits in Latin-1 (an OR of the high bytes), and the host is told the
//! width ([`JsonHost::create_string_narrowest`]) instead of checking it
//! again. With AVX-512 VBMI2, a block of string contents whose escapes are
//! two-character ones is unescaped with no branch per escape (a `vpermw`
//! table decodes the letters, a compress per register drops the
//! backslashes); escapes every few dozen characters had cost a
//! mispredicted branch each. On a 9 MB body with non-Latin-1 text parse
//! runs at about 1.05x `serde_json` (was 0.9x before these; Latin-1
//! text: about 1.3x).
//!
//! JSON.stringify of a large text with non-Latin-1 characters writes a
//! UTF-16 buffer twice the size of a UTF-8 serializer's; faulting that
//! fresh buffer in 4 KiB at a time cost more than writing the text (on a
//! 9 MB body, about 8 ms of 12 on the development VM). On Linux a buffer
//! of 4 MiB or more is advised onto transparent huge pages
//! (`MADV_HUGEPAGE`, effective when THP is `madvise` or `always`), and
//! stringify of that body runs at about 2x `serde_json` (was 0.8-0.9x).
//! In the UTF-16 escape loop, a block's first mark that is a Latin-1
//! character is escaped at once (surrogate masks only for a surrogate),
//! from a table of pre-widened sequences.
//!
//! # Limits
//!
//! [`Limits::max_depth`] bounds nesting (default 100,000); deeper input is a
//! RangeError from the host, never a stack overflow.

// ECMAScript names (TypeError, BigInt, RangeError) are prose in these docs,
// not Rust items to put in backticks.
#![allow(clippy::doc_markdown)]

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod error;
mod escape;
mod host;
mod limits;
mod parse;
pub mod reference;
mod stringify;
mod text;

pub use error::{ErrorKind, JsonError, SyntaxError, SyntaxErrorKind};
#[cfg(feature = "bench")]
pub use escape::{Isa, Kernels, Run};
pub use escape::{NeedsWide, escape_latin1, escape_latin1_to_utf16, escape_utf16, escape_utf16_to_latin1};
pub use host::{JsonHost, Kind, ObjectClass, Plain, PropertyKey};
pub use limits::Limits;
pub use parse::{parse, validate_raw_json};
pub use stringify::stringify;
pub use text::{JsStr, JsonText};
