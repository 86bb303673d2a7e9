//! AVX2 kernels: 32 characters per block, handed out only after run-time
//! detection.
//!
//! An [`Avx2`] value only comes from one of the `load_*` functions, whose
//! contract requires an AVX2 CPU; so its safe methods may use AVX2.

// Kernel helpers must inline into the `#[target_feature]` function that
// instantiates them, or their intrinsics are not inlined at all.
#![allow(clippy::inline_always)]

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_cmpeq_epi16, _mm256_cvtepu8_epi16,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_packs_epi16, _mm256_packus_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi8, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_subs_epu16, _mm256_testz_si256,
};

use super::block::{self, Block, Utf16Masks};
use super::{Isa, Kernels, NeedsWide, Run};

/// Thirty-two Latin-1 characters in an AVX register.
#[derive(Clone, Copy)]
pub(super) struct Avx2(__m256i);

/// `packs`/`packus` work per 128-bit half; this puts the four 64-bit
/// quarters back in order (0, 2, 1, 3).
const UNINTERLEAVE: i32 = 0b11_01_10_00;

/// `0xFFFF` lanes where a 16-bit unit needs escaping, is a high surrogate,
/// or is a low surrogate.
///
/// # Safety
///
/// The CPU supports AVX2.
#[inline(always)]
unsafe fn utf16_lane_masks(x: __m256i) -> [__m256i; 3] {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        let zero = _mm256_setzero_si256();
        let control = _mm256_cmpeq_epi16(_mm256_subs_epu16(x, _mm256_set1_epi16(0x1F)), zero);
        let quote = _mm256_cmpeq_epi16(x, _mm256_set1_epi16(i16::from(b'"')));
        let backslash = _mm256_cmpeq_epi16(x, _mm256_set1_epi16(i16::from(b'\\')));
        let top = _mm256_and_si256(x, _mm256_set1_epi16(0xFC00_u16.cast_signed()));
        [
            _mm256_or_si256(_mm256_or_si256(control, quote), backslash),
            _mm256_cmpeq_epi16(top, _mm256_set1_epi16(0xD800_u16.cast_signed())),
            _mm256_cmpeq_epi16(top, _mm256_set1_epi16(0xDC00_u16.cast_signed())),
        ]
    }
}

/// `0xFFFF` lanes where a 16-bit unit needs escaping or is a surrogate.
///
/// # Safety
///
/// The CPU supports AVX2.
#[inline(always)]
unsafe fn utf16_lane_attention(x: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        let zero = _mm256_setzero_si256();
        let control = _mm256_cmpeq_epi16(_mm256_subs_epu16(x, _mm256_set1_epi16(0x1F)), zero);
        let quote = _mm256_cmpeq_epi16(x, _mm256_set1_epi16(i16::from(b'"')));
        let backslash = _mm256_cmpeq_epi16(x, _mm256_set1_epi16(i16::from(b'\\')));
        let top = _mm256_and_si256(x, _mm256_set1_epi16(0xF800_u16.cast_signed()));
        let surrogate = _mm256_cmpeq_epi16(top, _mm256_set1_epi16(0xD800_u16.cast_signed()));
        _mm256_or_si256(_mm256_or_si256(control, quote), _mm256_or_si256(backslash, surrogate))
    }
}

/// The escape and wide (above U+00FF) masks of 32 UTF-16 units in two
/// registers.
///
/// # Safety
///
/// The CPU supports AVX2.
#[inline(always)]
unsafe fn utf16_escape_wide(a: __m256i, b: __m256i) -> [u64; 2] {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        let [escape_a, _, _] = utf16_lane_masks(a);
        let [escape_b, _, _] = utf16_lane_masks(b);
        // A unit is narrow when its high byte is zero.
        let high_byte = _mm256_set1_epi16(0xFF00_u16.cast_signed());
        let zero = _mm256_setzero_si256();
        let narrow_a = _mm256_cmpeq_epi16(_mm256_and_si256(a, high_byte), zero);
        let narrow_b = _mm256_cmpeq_epi16(_mm256_and_si256(b, high_byte), zero);
        [pack_mask(escape_a, escape_b), !pack_mask(narrow_a, narrow_b) & 0xFFFF_FFFF]
    }
}

/// One bit per 16-bit lane of two registers of lane masks.
///
/// # Safety
///
/// The CPU supports AVX2.
#[inline(always)]
unsafe fn pack_mask(a: __m256i, b: __m256i) -> u64 {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        let packed = _mm256_permute4x64_epi64::<UNINTERLEAVE>(_mm256_packs_epi16(a, b));
        u64::from(_mm256_movemask_epi8(packed).cast_unsigned())
    }
}

impl Block for Avx2 {
    const LANES: usize = 32;

    #[inline(always)]
    unsafe fn load_latin1(src: *const u8) -> Self {
        // SAFETY: the caller guarantees AVX2 and 32 readable bytes.
        Avx2(unsafe { _mm256_loadu_si256(src.cast()) })
    }

    #[inline(always)]
    unsafe fn load_utf16_narrowed(src: *const u16) -> Option<Self> {
        // SAFETY: the caller guarantees AVX2 and 32 readable units.
        unsafe {
            let a = _mm256_loadu_si256(src.cast());
            let b = _mm256_loadu_si256(src.add(16).cast());
            let latin1 = _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16(0xFF00_u16.cast_signed())) == 1;
            latin1.then(|| Avx2(_mm256_permute4x64_epi64::<UNINTERLEAVE>(_mm256_packus_epi16(a, b))))
        }
    }

    #[inline(always)]
    unsafe fn utf16_masks(src: *const u16) -> Utf16Masks {
        // SAFETY: the caller guarantees AVX2 and 32 readable units.
        unsafe {
            let [escape_a, high_a, low_a] = utf16_lane_masks(_mm256_loadu_si256(src.cast()));
            let [escape_b, high_b, low_b] = utf16_lane_masks(_mm256_loadu_si256(src.add(16).cast()));
            Utf16Masks {
                escape: pack_mask(escape_a, escape_b),
                high: pack_mask(high_a, high_b),
                low: pack_mask(low_a, low_b),
            }
        }
    }

    #[inline(always)]
    unsafe fn utf16_escape_wide_masks(src: *const u16) -> [u64; 2] {
        // SAFETY: the caller guarantees AVX2 and 32 readable units.
        unsafe { utf16_escape_wide(_mm256_loadu_si256(src.cast()), _mm256_loadu_si256(src.add(16).cast())) }
    }

    #[inline(always)]
    unsafe fn utf16_copy_escape_wide_masks(src: *const u16, dst: *mut u16) -> [u64; 2] {
        // SAFETY: the caller guarantees AVX2, 32 readable units at `src` and
        // 32 writable units at `dst`.
        unsafe {
            let a = _mm256_loadu_si256(src.cast());
            let b = _mm256_loadu_si256(src.add(16).cast());
            _mm256_storeu_si256(dst.cast(), a);
            _mm256_storeu_si256(dst.add(16).cast(), b);
            utf16_escape_wide(a, b)
        }
    }

    #[inline(always)]
    unsafe fn utf16_copy_attention(src: *const u16, dst: *mut u16) -> u64 {
        // SAFETY: the caller guarantees AVX2, 32 readable units at `src` and
        // 32 writable units at `dst`.
        unsafe {
            let a = _mm256_loadu_si256(src.cast());
            let b = _mm256_loadu_si256(src.add(16).cast());
            _mm256_storeu_si256(dst.cast(), a);
            _mm256_storeu_si256(dst.add(16).cast(), b);
            pack_mask(utf16_lane_attention(a), utf16_lane_attention(b))
        }
    }

    #[inline(always)]
    fn escape_mask(self) -> u64 {
        let v = self.0;
        // SAFETY: an `Avx2` value proves AVX2 support (module docs).
        unsafe {
            let control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v);
            let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"'.cast_signed()));
            let backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\'.cast_signed()));
            u64::from(_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(control, quote), backslash)).cast_unsigned())
        }
    }

    #[inline(always)]
    fn whitespace_mask(self) -> u64 {
        let v = self.0;
        // SAFETY: an `Avx2` value proves AVX2 support (module docs).
        unsafe {
            let space = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b' '.cast_signed()));
            let tab = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\t'.cast_signed()));
            let lf = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\n'.cast_signed()));
            let cr = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\r'.cast_signed()));
            let any = _mm256_or_si256(_mm256_or_si256(space, tab), _mm256_or_si256(lf, cr));
            u64::from(_mm256_movemask_epi8(any).cast_unsigned())
        }
    }

    #[inline(always)]
    unsafe fn store_latin1(self, dst: *mut u8) {
        // SAFETY: the caller guarantees AVX2 and 32 writable bytes.
        unsafe { _mm256_storeu_si256(dst.cast(), self.0) }
    }

    #[inline(always)]
    unsafe fn store_utf16(self, dst: *mut u16) {
        // SAFETY: the caller guarantees AVX2 and 32 writable units.
        unsafe {
            let low = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(self.0));
            let high = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(self.0));
            _mm256_storeu_si256(dst.cast(), low);
            _mm256_storeu_si256(dst.add(16).cast(), high);
        }
    }
}

static KERNELS: Kernels = Kernels {
    isa: Isa::Avx2,
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

/// The AVX2 kernels, if this CPU has AVX2. The only way to reach them.
pub(super) fn kernels() -> Option<&'static Kernels> {
    std::arch::is_x86_feature_detected!("avx2").then_some(&KERNELS)
}

/// Instantiates the generic block algorithm for AVX2 twice: an `unsafe`
/// `#[target_feature]` body, and a safe wrapper for the dispatch table.
macro_rules! avx2_kernel {
    ($name:ident, $body:ident, ($($arg:ident: $ty:ty),*) -> $ret:ty, $call:expr) => {
        #[target_feature(enable = "avx2")]
        unsafe fn $body($($arg: $ty),*) -> $ret {
            // SAFETY: this function is compiled for AVX2 and only called from
            // its wrapper, which is only reachable through `kernels()`.
            unsafe { $call }
        }

        fn $name($($arg: $ty),*) -> $ret {
            // SAFETY: `KERNELS` (the only holder of this function) is handed
            // out by `kernels()` after AVX2 was detected.
            unsafe { $body($($arg),*) }
        }
    };
}

avx2_kernel!(latin1_to_latin1, latin1_to_latin1_avx2, (input: &[u8], out: &mut Vec<u8>) -> (),
    block::latin1_to::<Avx2, u8>(input, out));
avx2_kernel!(latin1_to_utf16, latin1_to_utf16_avx2, (input: &[u8], out: &mut Vec<u16>) -> (),
    block::latin1_to::<Avx2, u16>(input, out));
avx2_kernel!(utf16_to_utf16, utf16_to_utf16_avx2, (input: &[u16], out: &mut Vec<u16>) -> (),
    block::utf16_to_utf16::<Avx2>(input, out));
avx2_kernel!(utf16_to_latin1, utf16_to_latin1_avx2, (input: &[u16], out: &mut Vec<u8>) -> Result<(), NeedsWide>,
    block::utf16_to_latin1::<Avx2>(input, out));
avx2_kernel!(find_latin1, find_latin1_avx2, (input: &[u8]) -> usize, block::find_latin1::<Avx2>(input));
avx2_kernel!(find_utf16, find_utf16_avx2, (input: &[u16]) -> Run, block::find_utf16::<Avx2>(input));
avx2_kernel!(skip_whitespace_latin1, skip_whitespace_latin1_avx2, (input: &[u8]) -> usize,
    block::skip_whitespace_latin1::<Avx2>(input));
avx2_kernel!(skip_whitespace_utf16, skip_whitespace_utf16_avx2, (input: &[u16]) -> usize,
    block::skip_whitespace_utf16::<Avx2>(input));
avx2_kernel!(unescape_latin1, unescape_latin1_avx2, (input: &[u8], out: &mut Vec<u8>) -> usize,
    block::unescape_latin1::<Avx2>(input, out));
avx2_kernel!(unescape_utf16, unescape_utf16_avx2, (input: &[u16], out: &mut Vec<u16>) -> Run,
    block::unescape_utf16::<Avx2, false>(input, out));
