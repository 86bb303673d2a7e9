//! AVX-512BW kernels: 64 characters per block, handed out only after
//! run-time detection. Compares write mask registers directly, so a block's
//! 64 lanes map onto the `u64` masks of the block algorithm one to one.
//!
//! An [`Avx512`] value only comes from one of the `load_*` functions, whose
//! contract requires an AVX-512BW CPU; so its safe methods may use AVX-512BW.

// Kernel helpers must inline into the `#[target_feature]` function that
// instantiates them, or their intrinsics are not inlined at all.
#![allow(clippy::inline_always)]

use std::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_castsi256_si512, _mm512_castsi512_si256, _mm512_cmpeq_epi8_mask,
    _mm512_cmpeq_epi16_mask, _mm512_cmplt_epu16_mask, _mm512_cvtepi16_epi8, _mm512_cvtepu8_epi16,
    _mm512_extracti64x4_epi64, _mm512_inserti64x4, _mm512_loadu_si512, _mm512_mask_blend_epi16,
    _mm512_maskz_compress_epi16, _mm512_min_epu8, _mm512_min_epu16, _mm512_or_si512, _mm512_permutexvar_epi16,
    _mm512_set1_epi8, _mm512_set1_epi16, _mm512_srli_epi16, _mm512_storeu_si512, _mm512_ternarylogic_epi32,
    _mm512_test_epi16_mask, _mm512_testn_epi8_mask, _mm512_testn_epi16_mask, _mm512_xor_si512,
};

use super::block::{self, Block, Utf16Masks};
use super::{Isa, Kernels, NeedsWide, Run};

/// Sixty-four Latin-1 characters in an AVX-512 register.
#[derive(Clone, Copy)]
pub(super) struct Avx512(__m512i);

/// Lane masks (32 lanes) of one register of UTF-16 units: needs escaping,
/// high surrogate, low surrogate, any surrogate.
///
/// # Safety
///
/// The CPU supports AVX-512BW.
#[inline(always)]
unsafe fn utf16_lane_masks(x: __m512i) -> [u32; 4] {
    // SAFETY: the caller guarantees AVX-512BW.
    unsafe {
        let escape = _mm512_cmplt_epu16_mask(x, _mm512_set1_epi16(0x20))
            | _mm512_cmpeq_epi16_mask(x, _mm512_set1_epi16(i16::from(b'"')))
            | _mm512_cmpeq_epi16_mask(x, _mm512_set1_epi16(i16::from(b'\\')));
        let top6 = _mm512_and_si512(x, _mm512_set1_epi16(0xFC00_u16.cast_signed()));
        let top5 = _mm512_and_si512(x, _mm512_set1_epi16(0xF800_u16.cast_signed()));
        [
            escape,
            _mm512_cmpeq_epi16_mask(top6, _mm512_set1_epi16(0xD800_u16.cast_signed())),
            _mm512_cmpeq_epi16_mask(top6, _mm512_set1_epi16(0xDC00_u16.cast_signed())),
            _mm512_cmpeq_epi16_mask(top5, _mm512_set1_epi16(0xD800_u16.cast_signed())),
        ]
    }
}

/// A register that is zero exactly in the lanes whose unit needs escaping
/// or is a surrogate: built from vector minimums, so that a clean block
/// costs one mask test instead of four compares and three mask ORs per
/// register.
///
/// # Safety
///
/// The CPU supports AVX-512BW.
#[inline(always)]
unsafe fn utf16_lane_calm(x: __m512i) -> __m512i {
    // SAFETY: the caller guarantees AVX-512BW.
    unsafe {
        let quote = _mm512_xor_si512(x, _mm512_set1_epi16(i16::from(b'"')));
        let backslash = _mm512_xor_si512(x, _mm512_set1_epi16(i16::from(b'\\')));
        // (x & 0xF800) ^ 0xD800: zero for surrogates.
        let surrogate = _mm512_ternarylogic_epi32::<0x6A>(
            x,
            _mm512_set1_epi16(0xF800_u16.cast_signed()),
            _mm512_set1_epi16(0xD800_u16.cast_signed()),
        );
        // x >> 5: zero below U+0020.
        let control = _mm512_srli_epi16::<5>(x);
        _mm512_min_epu16(_mm512_min_epu16(quote, backslash), _mm512_min_epu16(surrogate, control))
    }
}

/// A register that is zero exactly in the lanes whose unit needs escaping
/// (surrogates are not looked at).
///
/// # Safety
///
/// The CPU supports AVX-512BW.
#[inline(always)]
unsafe fn utf16_lane_calm_escape(x: __m512i) -> __m512i {
    // SAFETY: the caller guarantees AVX-512BW.
    unsafe {
        let quote = _mm512_xor_si512(x, _mm512_set1_epi16(i16::from(b'"')));
        let backslash = _mm512_xor_si512(x, _mm512_set1_epi16(i16::from(b'\\')));
        let control = _mm512_srli_epi16::<5>(x);
        _mm512_min_epu16(_mm512_min_epu16(quote, backslash), control)
    }
}

/// The escape and wide (above U+00FF) masks of 64 UTF-16 units in two
/// registers.
///
/// # Safety
///
/// The CPU supports AVX-512BW.
#[inline(always)]
unsafe fn utf16_escape_wide(a: __m512i, b: __m512i) -> [u64; 2] {
    // SAFETY: the caller guarantees AVX-512BW.
    unsafe {
        let high_byte = _mm512_set1_epi16(0xFF00_u16.cast_signed());
        let wide = join(_mm512_test_epi16_mask(a, high_byte), _mm512_test_epi16_mask(b, high_byte));
        let (calm_a, calm_b) = (utf16_lane_calm_escape(a), utf16_lane_calm_escape(b));
        let both = _mm512_min_epu16(calm_a, calm_b);
        if _mm512_testn_epi16_mask(both, both) == 0 {
            return [0, wide];
        }
        [join(_mm512_testn_epi16_mask(calm_a, calm_a), _mm512_testn_epi16_mask(calm_b, calm_b)), wide]
    }
}

/// Two-character escape letters by their low five bits (`x & 31`, the
/// index `vpermw` uses): the letter that belongs in each slot, or a value
/// whose low five bits differ from the slot's (so nothing matches it).
/// `"` shares slot 2 with `b` and is checked separately.
const LETTER_SLOTS: [u16; 32] = {
    let mut table = [0u16; 32];
    let mut slot = 0;
    while slot < 32 {
        table[slot] = (slot ^ 1) as u16;
        slot += 1;
    }
    table[b'b' as usize & 31] = b'b' as u16;
    table[b'f' as usize & 31] = b'f' as u16;
    table[b'n' as usize & 31] = b'n' as u16;
    table[b'r' as usize & 31] = b'r' as u16;
    table[b't' as usize & 31] = b't' as u16;
    table[b'/' as usize & 31] = b'/' as u16;
    table
};

/// What the letter in each slot of [`LETTER_SLOTS`] decodes to.
const DECODED_SLOTS: [u16; 32] = {
    let mut table = [0u16; 32];
    table[b'b' as usize & 31] = 0x08;
    table[b'f' as usize & 31] = 0x0C;
    table[b'n' as usize & 31] = 0x0A;
    table[b'r' as usize & 31] = 0x0D;
    table[b't' as usize & 31] = 0x09;
    table[b'/' as usize & 31] = b'/' as u16;
    table
};

/// One register of string contents unescaped in place: the lanes in
/// `letters` (units after a backslash) decoded. Returns the register and
/// the mask of `letters` lanes that are not a two-character escape letter
/// (`\\` is not looked for here; the caller rules it out).
///
/// # Safety
///
/// The CPU supports AVX-512BW.
#[inline(always)]
unsafe fn decode_letters(x: __m512i, letters: u32) -> (__m512i, u32) {
    // SAFETY: the caller guarantees AVX-512BW; the tables are 64 bytes.
    unsafe {
        let expected = _mm512_permutexvar_epi16(x, _mm512_loadu_si512(LETTER_SLOTS.as_ptr().cast()));
        let decoded = _mm512_permutexvar_epi16(x, _mm512_loadu_si512(DECODED_SLOTS.as_ptr().cast()));
        let quote = _mm512_cmpeq_epi16_mask(x, _mm512_set1_epi16(i16::from(b'"')));
        let valid = _mm512_cmpeq_epi16_mask(x, expected) | quote;
        (_mm512_mask_blend_epi16(letters & !quote, x, decoded), letters & !valid)
    }
}

/// Lanes holding a backslash.
///
/// # Safety
///
/// The CPU supports AVX-512BW.
#[inline(always)]
unsafe fn backslash_lanes(x: __m512i) -> u32 {
    // SAFETY: the caller guarantees AVX-512BW.
    unsafe { _mm512_cmpeq_epi16_mask(x, _mm512_set1_epi16(i16::from(b'\\'))) }
}

/// Lanes holding a quote or a control character.
///
/// # Safety
///
/// The CPU supports AVX-512BW.
#[inline(always)]
unsafe fn end_lanes(x: __m512i) -> u32 {
    // SAFETY: the caller guarantees AVX-512BW.
    unsafe {
        _mm512_cmplt_epu16_mask(x, _mm512_set1_epi16(0x20))
            | _mm512_cmpeq_epi16_mask(x, _mm512_set1_epi16(i16::from(b'"')))
    }
}

/// [`Block::utf16_unescape_block`] with a compress per register.
///
/// # Safety
///
/// As for `utf16_unescape_block`; the CPU supports AVX-512BW and VBMI2.
#[inline(always)]
unsafe fn unescape_block_vbmi2(src: *const u16, dst: *mut u16) -> Option<(usize, u64)> {
    // SAFETY: the caller guarantees AVX-512BW and VBMI2, 64 readable units
    // at `src` and 64 writable units at `dst`.
    unsafe {
        let a = _mm512_loadu_si512(src.cast());
        let b = _mm512_loadu_si512(src.add(32).cast());
        let backslashes = join(backslash_lanes(a), backslash_lanes(b));
        let letters = backslashes << 1;
        // A quote or control character that is not an escape's letter
        // ends the string; `\\` (whose second backslash is a letter, not
        // an escape) and a backslash in the last lane go to the step.
        let simple = (join(end_lanes(a), end_lanes(b)) & !letters) | (backslashes & letters) | (backslashes >> 63) == 0;
        if !simple {
            return None;
        }
        let (decoded_a, invalid_a) = decode_letters(a, letters as u32);
        let (decoded_b, invalid_b) = decode_letters(b, (letters >> 32) as u32);
        if invalid_a | invalid_b != 0 {
            return None;
        }
        let keep = !backslashes;
        let (keep_a, keep_b) = (keep as u32, (keep >> 32) as u32);
        _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi16(keep_a, decoded_a));
        let kept_a = keep_a.count_ones() as usize;
        _mm512_storeu_si512(dst.add(kept_a).cast(), _mm512_maskz_compress_epi16(keep_b, decoded_b));
        let high_byte = _mm512_set1_epi16(0xFF00_u16.cast_signed());
        let wide = join(_mm512_test_epi16_mask(a, high_byte), _mm512_test_epi16_mask(b, high_byte));
        Some((kept_a + keep_b.count_ones() as usize, wide))
    }
}

/// Two 32-lane masks as one 64-lane mask.
#[inline(always)]
fn join(low: u32, high: u32) -> u64 {
    u64::from(low) | u64::from(high) << 32
}

impl Block for Avx512 {
    const LANES: usize = 64;

    #[inline(always)]
    unsafe fn load_latin1(src: *const u8) -> Self {
        // SAFETY: the caller guarantees AVX-512BW and 64 readable bytes.
        Avx512(unsafe { _mm512_loadu_si512(src.cast()) })
    }

    #[inline(always)]
    unsafe fn load_utf16_narrowed(src: *const u16) -> Option<Self> {
        // SAFETY: the caller guarantees AVX-512BW and 64 readable units.
        unsafe {
            let a = _mm512_loadu_si512(src.cast());
            let b = _mm512_loadu_si512(src.add(32).cast());
            let wide = _mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16(0xFF00_u16.cast_signed()));
            (wide == 0).then(|| {
                let low = _mm512_castsi256_si512(_mm512_cvtepi16_epi8(a));
                Avx512(_mm512_inserti64x4::<1>(low, _mm512_cvtepi16_epi8(b)))
            })
        }
    }

    #[inline(always)]
    unsafe fn utf16_masks(src: *const u16) -> Utf16Masks {
        // SAFETY: the caller guarantees AVX-512BW and 64 readable units.
        unsafe {
            let [escape_a, high_a, low_a, _] = utf16_lane_masks(_mm512_loadu_si512(src.cast()));
            let [escape_b, high_b, low_b, _] = utf16_lane_masks(_mm512_loadu_si512(src.add(32).cast()));
            Utf16Masks { escape: join(escape_a, escape_b), high: join(high_a, high_b), low: join(low_a, low_b) }
        }
    }

    #[inline(always)]
    unsafe fn utf16_escape_wide_masks(src: *const u16) -> [u64; 2] {
        // SAFETY: the caller guarantees AVX-512BW and 64 readable units.
        unsafe { utf16_escape_wide(_mm512_loadu_si512(src.cast()), _mm512_loadu_si512(src.add(32).cast())) }
    }

    #[inline(always)]
    unsafe fn utf16_copy_escape_wide_masks(src: *const u16, dst: *mut u16) -> [u64; 2] {
        // SAFETY: the caller guarantees AVX-512BW, 64 readable units at
        // `src` and 64 writable units at `dst`.
        unsafe {
            let a = _mm512_loadu_si512(src.cast());
            let b = _mm512_loadu_si512(src.add(32).cast());
            _mm512_storeu_si512(dst.cast(), a);
            _mm512_storeu_si512(dst.add(32).cast(), b);
            utf16_escape_wide(a, b)
        }
    }

    /// Needs VBMI2 as well as AVX-512BW: only the kernels of
    /// [`kernels_vbmi2`] call it.
    #[inline(always)]
    unsafe fn utf16_unescape_block(src: *const u16, dst: *mut u16) -> Option<(usize, u64)> {
        // SAFETY: the caller passes on the contract, VBMI2 included.
        unsafe { unescape_block_vbmi2(src, dst) }
    }

    #[inline(always)]
    unsafe fn utf16_copy_attention(src: *const u16, dst: *mut u16) -> u64 {
        // SAFETY: the caller guarantees AVX-512BW, 64 readable units at
        // `src` and 64 writable units at `dst`.
        unsafe {
            let a = _mm512_loadu_si512(src.cast());
            let b = _mm512_loadu_si512(src.add(32).cast());
            _mm512_storeu_si512(dst.cast(), a);
            _mm512_storeu_si512(dst.add(32).cast(), b);
            let (calm_a, calm_b) = (utf16_lane_calm(a), utf16_lane_calm(b));
            let both = _mm512_min_epu16(calm_a, calm_b);
            if _mm512_testn_epi16_mask(both, both) == 0 {
                return 0;
            }
            join(_mm512_testn_epi16_mask(calm_a, calm_a), _mm512_testn_epi16_mask(calm_b, calm_b))
        }
    }

    #[inline(always)]
    fn escape_mask(self) -> u64 {
        let v = self.0;
        // SAFETY: an `Avx512` value proves AVX-512BW support (module docs).
        // Zero lanes exactly where a byte needs escaping: `v ^ '"'`,
        // `v ^ '\\'` and `v & 0xE0` (zero below 0x20), combined by minimum
        // and tested once.
        unsafe {
            let quote = _mm512_xor_si512(v, _mm512_set1_epi8(b'"'.cast_signed()));
            let backslash = _mm512_xor_si512(v, _mm512_set1_epi8(b'\\'.cast_signed()));
            let control = _mm512_and_si512(v, _mm512_set1_epi8(0xE0_u8.cast_signed()));
            let calm = _mm512_min_epu8(_mm512_min_epu8(quote, backslash), control);
            _mm512_testn_epi8_mask(calm, calm)
        }
    }

    #[inline(always)]
    fn whitespace_mask(self) -> u64 {
        let v = self.0;
        // SAFETY: an `Avx512` value proves AVX-512BW support (module docs).
        unsafe {
            _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b' '.cast_signed()))
                | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\t'.cast_signed()))
                | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\n'.cast_signed()))
                | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\r'.cast_signed()))
        }
    }

    #[inline(always)]
    unsafe fn store_latin1(self, dst: *mut u8) {
        // SAFETY: the caller guarantees AVX-512BW and 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.cast(), self.0) }
    }

    #[inline(always)]
    unsafe fn store_utf16(self, dst: *mut u16) {
        // SAFETY: the caller guarantees AVX-512BW and 64 writable units.
        unsafe {
            _mm512_storeu_si512(dst.cast(), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(self.0)));
            _mm512_storeu_si512(dst.add(32).cast(), _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(self.0)));
        }
    }
}

static KERNELS: Kernels = Kernels {
    isa: Isa::Avx512,
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

/// The AVX-512BW kernels, if this CPU has AVX-512F and AVX-512BW. The only
/// way to reach them.
pub(super) fn kernels() -> Option<&'static Kernels> {
    (std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw"))
        .then_some(&KERNELS)
}

/// The AVX-512BW kernels with the VBMI2 unescape kernel, if this CPU has
/// AVX-512F, AVX-512BW, AVX-512 VBMI2 and POPCNT (which counts the units
/// each compress keeps). The only way to reach `unescape_utf16_vbmi2`.
pub(super) fn kernels_vbmi2() -> Option<&'static Kernels> {
    (kernels().is_some()
        && std::arch::is_x86_feature_detected!("avx512vbmi2")
        && std::arch::is_x86_feature_detected!("popcnt"))
    .then_some(&KERNELS_VBMI2)
}

static KERNELS_VBMI2: Kernels = Kernels { isa: Isa::Avx512Vbmi2, unescape_utf16: unescape_utf16_vbmi2, ..KERNELS };

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
unsafe fn unescape_utf16_vbmi2_body(input: &[u16], out: &mut Vec<u16>) -> Run {
    // SAFETY: this function is compiled for AVX-512BW, VBMI2 and POPCNT
    // and only called from its wrapper, which is only reachable through
    // `kernels_vbmi2()`.
    unsafe { block::unescape_utf16::<Avx512, true>(input, out) }
}

fn unescape_utf16_vbmi2(input: &[u16], out: &mut Vec<u16>) -> Run {
    // SAFETY: `KERNELS_VBMI2` (the only holder of this function) is handed
    // out by `kernels_vbmi2()` after AVX-512F, AVX-512BW, VBMI2 and POPCNT
    // were detected.
    unsafe { unescape_utf16_vbmi2_body(input, out) }
}

/// Instantiates the generic block algorithm for AVX-512BW twice: an
/// `unsafe` `#[target_feature]` body, and a safe wrapper for the dispatch
/// table.
macro_rules! avx512_kernel {
    ($name:ident, $body:ident, ($($arg:ident: $ty:ty),*) -> $ret:ty, $call:expr) => {
        #[target_feature(enable = "avx512f,avx512bw")]
        unsafe fn $body($($arg: $ty),*) -> $ret {
            // SAFETY: this function is compiled for AVX-512BW and only called
            // from its wrapper, which is only reachable through `kernels()`.
            unsafe { $call }
        }

        fn $name($($arg: $ty),*) -> $ret {
            // SAFETY: `KERNELS` (the only holder of this function) is handed
            // out by `kernels()` after AVX-512F and AVX-512BW were detected.
            unsafe { $body($($arg),*) }
        }
    };
}

avx512_kernel!(latin1_to_latin1, latin1_to_latin1_avx512, (input: &[u8], out: &mut Vec<u8>) -> (),
    block::latin1_to::<Avx512, u8>(input, out));
avx512_kernel!(latin1_to_utf16, latin1_to_utf16_avx512, (input: &[u8], out: &mut Vec<u16>) -> (),
    block::latin1_to::<Avx512, u16>(input, out));
avx512_kernel!(utf16_to_utf16, utf16_to_utf16_avx512, (input: &[u16], out: &mut Vec<u16>) -> (),
    block::utf16_to_utf16::<Avx512>(input, out));
avx512_kernel!(utf16_to_latin1, utf16_to_latin1_avx512, (input: &[u16], out: &mut Vec<u8>) -> Result<(), NeedsWide>,
    block::utf16_to_latin1::<Avx512>(input, out));
avx512_kernel!(find_latin1, find_latin1_avx512, (input: &[u8]) -> usize, block::find_latin1::<Avx512>(input));
avx512_kernel!(find_utf16, find_utf16_avx512, (input: &[u16]) -> Run, block::find_utf16::<Avx512>(input));
avx512_kernel!(skip_whitespace_latin1, skip_whitespace_latin1_avx512, (input: &[u8]) -> usize,
    block::skip_whitespace_latin1::<Avx512>(input));
avx512_kernel!(skip_whitespace_utf16, skip_whitespace_utf16_avx512, (input: &[u16]) -> usize,
    block::skip_whitespace_utf16::<Avx512>(input));
avx512_kernel!(unescape_latin1, unescape_latin1_avx512, (input: &[u8], out: &mut Vec<u8>) -> usize,
    block::unescape_latin1::<Avx512>(input, out));
avx512_kernel!(unescape_utf16, unescape_utf16_avx512, (input: &[u16], out: &mut Vec<u16>) -> Run,
    block::unescape_utf16::<Avx512, false>(input, out));
