//! SSE2 kernels: 16 characters per block. SSE2 is part of the x86-64
//! baseline, so these need no run-time detection.

// Kernel helpers must inline into the `#[target_feature]` function that
// instantiates them, or their intrinsics are not inlined at all.
#![allow(clippy::inline_always)]

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
    _mm_or_si128, _mm_packs_epi16, _mm_packus_epi16, _mm_set1_epi8, _mm_set1_epi16, _mm_setzero_si128,
    _mm_storeu_si128, _mm_subs_epu16, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
};

use super::block::{self, Block, Utf16Masks};
use super::{Isa, Kernels, NeedsWide, Run};

/// Sixteen Latin-1 characters in an SSE register.
#[derive(Clone, Copy)]
pub(super) struct Sse2(__m128i);

/// `0xFFFF` lanes where a 16-bit unit needs escaping, is a high surrogate,
/// or is a low surrogate.
#[inline(always)]
fn utf16_lane_masks(x: __m128i) -> [__m128i; 3] {
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe {
        let zero = _mm_setzero_si128();
        let control = _mm_cmpeq_epi16(_mm_subs_epu16(x, _mm_set1_epi16(0x1F)), zero);
        let quote = _mm_cmpeq_epi16(x, _mm_set1_epi16(i16::from(b'"')));
        let backslash = _mm_cmpeq_epi16(x, _mm_set1_epi16(i16::from(b'\\')));
        let top = _mm_and_si128(x, _mm_set1_epi16(0xFC00_u16.cast_signed()));
        [
            _mm_or_si128(_mm_or_si128(control, quote), backslash),
            _mm_cmpeq_epi16(top, _mm_set1_epi16(0xD800_u16.cast_signed())),
            _mm_cmpeq_epi16(top, _mm_set1_epi16(0xDC00_u16.cast_signed())),
        ]
    }
}

/// `0xFFFF` lanes where a 16-bit unit needs escaping or is a surrogate.
#[inline(always)]
fn utf16_lane_attention(x: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe {
        let zero = _mm_setzero_si128();
        let control = _mm_cmpeq_epi16(_mm_subs_epu16(x, _mm_set1_epi16(0x1F)), zero);
        let quote = _mm_cmpeq_epi16(x, _mm_set1_epi16(i16::from(b'"')));
        let backslash = _mm_cmpeq_epi16(x, _mm_set1_epi16(i16::from(b'\\')));
        let top = _mm_and_si128(x, _mm_set1_epi16(0xF800_u16.cast_signed()));
        let surrogate = _mm_cmpeq_epi16(top, _mm_set1_epi16(0xD800_u16.cast_signed()));
        _mm_or_si128(_mm_or_si128(control, quote), _mm_or_si128(backslash, surrogate))
    }
}

/// The escape and wide (above U+00FF) masks of 16 UTF-16 units in two
/// registers.
#[inline(always)]
fn utf16_escape_wide(a: __m128i, b: __m128i) -> [u64; 2] {
    let [escape_a, _, _] = utf16_lane_masks(a);
    let [escape_b, _, _] = utf16_lane_masks(b);
    // SAFETY: SSE2 is part of the x86-64 baseline.
    let (narrow_a, narrow_b) = unsafe {
        // A unit is narrow when its high byte is zero.
        let high_byte = _mm_set1_epi16(0xFF00_u16.cast_signed());
        let zero = _mm_setzero_si128();
        (_mm_cmpeq_epi16(_mm_and_si128(a, high_byte), zero), _mm_cmpeq_epi16(_mm_and_si128(b, high_byte), zero))
    };
    [pack_mask(escape_a, escape_b), !pack_mask(narrow_a, narrow_b) & 0xFFFF]
}

/// One bit per 16-bit lane of two registers of lane masks.
#[inline(always)]
fn pack_mask(a: __m128i, b: __m128i) -> u64 {
    // SAFETY: SSE2 is part of the x86-64 baseline.
    u64::from(unsafe { _mm_movemask_epi8(_mm_packs_epi16(a, b)) }.cast_unsigned())
}

impl Block for Sse2 {
    const LANES: usize = 16;

    #[inline(always)]
    unsafe fn load_latin1(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes.
        Sse2(unsafe { _mm_loadu_si128(src.cast()) })
    }

    #[inline(always)]
    unsafe fn load_utf16_narrowed(src: *const u16) -> Option<Self> {
        // SAFETY: the caller guarantees 16 readable units (32 bytes); SSE2
        // is baseline.
        unsafe {
            let (a, b) = (_mm_loadu_si128(src.cast()), _mm_loadu_si128(src.add(8).cast()));
            let high_bytes = _mm_and_si128(_mm_or_si128(a, b), _mm_set1_epi16(0xFF00_u16.cast_signed()));
            let latin1 = _mm_movemask_epi8(_mm_cmpeq_epi8(high_bytes, _mm_setzero_si128())) == 0xFFFF;
            latin1.then(|| Sse2(_mm_packus_epi16(a, b)))
        }
    }

    #[inline(always)]
    unsafe fn utf16_masks(src: *const u16) -> Utf16Masks {
        // SAFETY: the caller guarantees 16 readable units (32 bytes).
        let (a, b) = unsafe { (_mm_loadu_si128(src.cast()), _mm_loadu_si128(src.add(8).cast())) };
        let [escape_a, high_a, low_a] = utf16_lane_masks(a);
        let [escape_b, high_b, low_b] = utf16_lane_masks(b);
        Utf16Masks {
            escape: pack_mask(escape_a, escape_b),
            high: pack_mask(high_a, high_b),
            low: pack_mask(low_a, low_b),
        }
    }

    #[inline(always)]
    unsafe fn utf16_escape_wide_masks(src: *const u16) -> [u64; 2] {
        // SAFETY: the caller guarantees 16 readable units (32 bytes).
        unsafe { utf16_escape_wide(_mm_loadu_si128(src.cast()), _mm_loadu_si128(src.add(8).cast())) }
    }

    #[inline(always)]
    unsafe fn utf16_copy_escape_wide_masks(src: *const u16, dst: *mut u16) -> [u64; 2] {
        // SAFETY: the caller guarantees 16 readable units at `src` and 16
        // writable units at `dst`; SSE2 is baseline.
        unsafe {
            let (a, b) = (_mm_loadu_si128(src.cast()), _mm_loadu_si128(src.add(8).cast()));
            _mm_storeu_si128(dst.cast(), a);
            _mm_storeu_si128(dst.add(8).cast(), b);
            utf16_escape_wide(a, b)
        }
    }

    #[inline(always)]
    unsafe fn utf16_copy_attention(src: *const u16, dst: *mut u16) -> u64 {
        // SAFETY: the caller guarantees 16 readable units at `src` and 16
        // writable units at `dst`; SSE2 is baseline.
        unsafe {
            let (a, b) = (_mm_loadu_si128(src.cast()), _mm_loadu_si128(src.add(8).cast()));
            _mm_storeu_si128(dst.cast(), a);
            _mm_storeu_si128(dst.add(8).cast(), b);
            pack_mask(utf16_lane_attention(a), utf16_lane_attention(b))
        }
    }

    #[inline(always)]
    fn escape_mask(self) -> u64 {
        let v = self.0;
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe {
            let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"'.cast_signed()));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\'.cast_signed()));
            u64::from(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(control, quote), backslash)).cast_unsigned())
        }
    }

    #[inline(always)]
    fn whitespace_mask(self) -> u64 {
        let v = self.0;
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe {
            let space = _mm_cmpeq_epi8(v, _mm_set1_epi8(b' '.cast_signed()));
            let tab = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\t'.cast_signed()));
            let lf = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n'.cast_signed()));
            let cr = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\r'.cast_signed()));
            u64::from(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(space, tab), _mm_or_si128(lf, cr))).cast_unsigned())
        }
    }

    #[inline(always)]
    unsafe fn store_latin1(self, dst: *mut u8) {
        // SAFETY: the caller guarantees 16 writable bytes.
        unsafe { _mm_storeu_si128(dst.cast(), self.0) }
    }

    #[inline(always)]
    unsafe fn store_utf16(self, dst: *mut u16) {
        // SAFETY: the caller guarantees 16 writable units (32 bytes); SSE2
        // is baseline.
        unsafe {
            let zero = _mm_setzero_si128();
            _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi8(self.0, zero));
            _mm_storeu_si128(dst.add(8).cast(), _mm_unpackhi_epi8(self.0, zero));
        }
    }
}

pub(super) static KERNELS: Kernels = Kernels {
    isa: Isa::Sse2,
    latin1_to_latin1,
    latin1_to_utf16,
    utf16_to_utf16,
    utf16_to_latin1,
    find_latin1,
    find_utf16,
    skip_whitespace_latin1,
    skip_whitespace_utf16,
    unescape_latin1,
    unescape_utf16,
};

fn latin1_to_latin1(input: &[u8], out: &mut Vec<u8>) {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::latin1_to::<Sse2, u8>(input, out) }
}

fn latin1_to_utf16(input: &[u8], out: &mut Vec<u16>) {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::latin1_to::<Sse2, u16>(input, out) }
}

fn utf16_to_utf16(input: &[u16], out: &mut Vec<u16>) {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::utf16_to_utf16::<Sse2>(input, out) }
}

fn utf16_to_latin1(input: &[u16], out: &mut Vec<u8>) -> Result<(), NeedsWide> {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::utf16_to_latin1::<Sse2>(input, out) }
}

fn find_latin1(input: &[u8]) -> usize {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::find_latin1::<Sse2>(input) }
}

fn find_utf16(input: &[u16]) -> Run {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::find_utf16::<Sse2>(input) }
}

fn skip_whitespace_latin1(input: &[u8]) -> usize {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::skip_whitespace_latin1::<Sse2>(input) }
}

fn skip_whitespace_utf16(input: &[u16]) -> usize {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::skip_whitespace_utf16::<Sse2>(input) }
}

fn unescape_latin1(input: &[u8], out: &mut Vec<u8>) -> usize {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::unescape_latin1::<Sse2>(input, out) }
}

fn unescape_utf16(input: &[u16], out: &mut Vec<u16>) -> Run {
    // SAFETY: SSE2 is baseline on x86-64.
    unsafe { block::unescape_utf16::<Sse2, false>(input, out) }
}
