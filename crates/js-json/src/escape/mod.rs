//! Escaping of string contents for JSON (`QuoteJSONString` without the
//! quotes), for Latin-1 and UTF-16 input into 8-bit or 16-bit output.
//!
//! Four kernels cover the input and output widths; each exists as a scalar
//! reference ([`scalar`]) and as SIMD kernels (one file per instruction set,
//! all running the block algorithm of [`block`]). The best kernel set for the
//! running CPU is chosen once, on first use, and kept in a [`OnceLock`].
//! A NEON kernel slots in as `neon.rs` implementing [`block::Block`] and one
//! more arm in [`detect`].

mod block;
mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod sse2;

#[cfg(test)]
mod tests;

use std::sync::OnceLock;

pub(crate) use scalar::is_whitespace;

/// An output code unit: `u8` for Latin-1 output, `u16` for UTF-16 output.
trait Unit: Copy + From<u8> {
    /// Stores a block of Latin-1 characters widened to this unit.
    ///
    /// # Safety
    ///
    /// `dst` must be valid for writes of `B::LANES` units, and the CPU must
    /// support the instruction set of `B`.
    unsafe fn store_block<B: block::Block>(block: B, dst: *mut Self);

    /// Stores the escape sequence of `byte` (a character that needs
    /// escaping) and returns its length (2 or 6); up to 8 units are written.
    ///
    /// # Safety
    ///
    /// `dst` must be valid for writes of 8 units.
    unsafe fn store_escape(byte: u8, dst: *mut Self) -> usize;
}

impl Unit for u8 {
    #[allow(clippy::inline_always)] // must inline into the `#[target_feature]` kernel
    #[inline(always)]
    unsafe fn store_block<B: block::Block>(block: B, dst: *mut Self) {
        // SAFETY: the caller passes on `store_latin1`'s contract.
        unsafe { block.store_latin1(dst) }
    }

    #[allow(clippy::inline_always)] // must inline into the `#[target_feature]` kernel
    #[inline(always)]
    unsafe fn store_escape(byte: u8, dst: *mut Self) -> usize {
        let (sequence, len) = scalar::escaped(byte);
        // SAFETY: the caller guarantees 8 writable bytes.
        unsafe { std::ptr::copy_nonoverlapping(sequence.as_ptr(), dst, 6) };
        usize::from(len)
    }
}

impl Unit for u16 {
    #[allow(clippy::inline_always)] // must inline into the `#[target_feature]` kernel
    #[inline(always)]
    unsafe fn store_block<B: block::Block>(block: B, dst: *mut Self) {
        // SAFETY: the caller passes on `store_utf16`'s contract.
        unsafe { block.store_utf16(dst) }
    }

    #[allow(clippy::inline_always)] // must inline into the `#[target_feature]` kernel
    #[inline(always)]
    unsafe fn store_escape(byte: u8, dst: *mut Self) -> usize {
        let entry = &scalar::ESCAPED_WIDE[usize::from(byte)];
        // SAFETY: the caller guarantees 8 writable units; the length unit
        // stored after the sequence is past the returned length, in spare
        // room.
        unsafe { std::ptr::copy_nonoverlapping(entry.as_ptr(), dst, 8) };
        usize::from(entry[7])
    }
}

/// A UTF-16 string met a character that 8-bit output cannot hold.
///
/// Everything before `consumed` has been escaped onto the output; the caller
/// widens its output and continues with the 16-bit kernel at `consumed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedsWide {
    /// Input code units escaped before the wide character.
    pub consumed: usize,
}

/// Where a scan over UTF-16 string contents stopped, and whether it met a
/// character above U+00FF on the way: the string's width is decided by the
/// same pass that finds its end, so it is never re-read to narrow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Index of the unit the scan stopped at (or the input length).
    pub stop: usize,
    /// Whether a unit read (for `find_utf16`) or written (for
    /// `unescape_utf16`) before `stop` is above U+00FF.
    pub wide: bool,
}

/// An instruction set an escape kernel set is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isa {
    /// The portable scalar reference.
    Scalar,
    /// x86-64 SSE2 (16-byte blocks), present on every x86-64 CPU.
    Sse2,
    /// x86-64 AVX2 (32-byte blocks), detected at run time.
    Avx2,
    /// x86-64 AVX-512BW (64-byte blocks), detected at run time.
    Avx512,
    /// AVX-512BW plus VBMI2, detected at run time: the AVX-512BW kernels,
    /// except that unescaping UTF-16 removes the backslashes of a block's
    /// two-character escapes with one compress per register.
    Avx512Vbmi2,
}

// Read by the tests and, with the `bench` feature, by the benchmarks.
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
impl Isa {
    /// Every instruction set this build has kernels for.
    pub const ALL: [Isa; 5] = [Isa::Scalar, Isa::Sse2, Isa::Avx2, Isa::Avx512, Isa::Avx512Vbmi2];

    /// The kernels for this instruction set, if this CPU can run them.
    pub fn kernels(self) -> Option<&'static Kernels> {
        match self {
            Isa::Scalar => Some(&scalar::KERNELS),
            #[cfg(target_arch = "x86_64")]
            Isa::Sse2 => Some(&sse2::KERNELS),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => avx2::kernels(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => avx512::kernels(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Vbmi2 => avx512::kernels_vbmi2(),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Sse2 | Isa::Avx2 | Isa::Avx512 | Isa::Avx512Vbmi2 => None,
        }
    }
}

/// One instruction set's escape and scan kernels.
///
/// Every function pointer is safe to call: a `Kernels` value for an
/// instruction set is only handed out after the CPU was found to support it.
#[derive(Debug)]
#[cfg_attr(not(feature = "bench"), allow(dead_code))] // `isa` is read by tests and benchmarks
pub struct Kernels {
    /// The instruction set these kernels use.
    pub isa: Isa,
    /// Latin-1 into 8-bit output.
    pub latin1_to_latin1: fn(&[u8], &mut Vec<u8>),
    /// Latin-1 into 16-bit output.
    pub latin1_to_utf16: fn(&[u8], &mut Vec<u16>),
    /// UTF-16 into 16-bit output.
    pub utf16_to_utf16: fn(&[u16], &mut Vec<u16>),
    /// UTF-16 into 8-bit output, stopping at the first wide character.
    pub utf16_to_latin1: fn(&[u16], &mut Vec<u8>) -> Result<(), NeedsWide>,
    /// Index of the first `"`, `\` or control character (or the length).
    pub find_latin1: fn(&[u8]) -> usize,
    /// Index of the first `"`, `\` or control character (or the length),
    /// and whether a unit before it is above U+00FF.
    pub find_utf16: fn(&[u16]) -> Run,
    /// Index of the first character that is not JSON whitespace (or the
    /// length).
    pub skip_whitespace_latin1: fn(&[u8]) -> usize,
    /// Index of the first character that is not JSON whitespace (or the
    /// length).
    pub skip_whitespace_utf16: fn(&[u16]) -> usize,
    /// Copies JSON string contents onto the output, decoding the
    /// two-character escapes (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`,
    /// `\t`), up to the first unit it does not handle (a quote, a `\u` or
    /// invalid escape, a control character) or the end; returns that
    /// unit's index.
    pub unescape_latin1: fn(&[u8], &mut Vec<u8>) -> usize,
    /// The same for UTF-16 string contents; also says whether a unit it
    /// appended is above U+00FF.
    pub unescape_utf16: fn(&[u16], &mut Vec<u16>) -> Run,
}

static ACTIVE: OnceLock<&'static Kernels> = OnceLock::new();

/// The fastest kernels this CPU runs, detected on first use.
#[inline]
pub(crate) fn active() -> &'static Kernels {
    ACTIVE.get_or_init(detect)
}

fn detect() -> &'static Kernels {
    [Isa::Avx512Vbmi2, Isa::Avx512, Isa::Avx2, Isa::Sse2].into_iter().find_map(Isa::kernels).unwrap_or(&scalar::KERNELS)
}

/// Escapes Latin-1 `input` onto 8-bit `out` (no quotes added).
///
/// ```
/// let mut out = Vec::new();
/// js_json::escape_latin1(b"say \"hi\"\n", &mut out);
/// assert_eq!(out, br#"say \"hi\"\n"#);
/// ```
pub fn escape_latin1(input: &[u8], out: &mut Vec<u8>) {
    (active().latin1_to_latin1)(input, out);
}

/// Escapes Latin-1 `input` onto 16-bit `out` (no quotes added).
pub fn escape_latin1_to_utf16(input: &[u8], out: &mut Vec<u16>) {
    (active().latin1_to_utf16)(input, out);
}

/// Escapes UTF-16 `input` onto 16-bit `out` (no quotes added); lone
/// surrogates become `\udxxx`.
pub fn escape_utf16(input: &[u16], out: &mut Vec<u16>) {
    (active().utf16_to_utf16)(input, out);
}

/// Escapes UTF-16 `input` onto 8-bit `out` (no quotes added) until the first
/// character above U+00FF that is not a lone surrogate.
///
/// # Errors
///
/// [`NeedsWide`] says where the wide character is; everything before it has
/// been written.
pub fn escape_utf16_to_latin1(input: &[u16], out: &mut Vec<u8>) -> Result<(), NeedsWide> {
    (active().utf16_to_latin1)(input, out)
}
