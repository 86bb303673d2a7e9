//! JSON for JavaScript engines: SIMD string escaping for Latin-1 and UTF-16
//! strings.
//!
//! The escape kernels take Latin-1 (`&[u8]`) or UTF-16 (`&[u16]`) input and
//! write 8-bit or 16-bit output, exactly as ECMA-262's `QuoteJSONString`
//! escapes (lone surrogates as lowercase `\udxxx`). A scalar reference and
//! SSE2/AVX2 kernels exist; the fastest the CPU runs is chosen once.
//!
//! ```
//! let mut out = Vec::new();
//! js_json::escape_utf16(&"a→\"b\"".encode_utf16().collect::<Vec<_>>(), &mut out);
//! assert_eq!(String::from_utf16(&out).unwrap(), "a→\\\"b\\\"");
//! ```

mod escape;

#[cfg(feature = "bench")]
pub use escape::{Isa, Kernels};
pub use escape::{NeedsWide, escape_latin1, escape_latin1_to_utf16, escape_utf16, escape_utf16_to_latin1};
