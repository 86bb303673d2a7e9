//! The block algorithm every SIMD kernel runs, generic over the instruction
//! set's [`Block`].
//!
//! Escaping is done in segments: a block with nothing to escape is stored
//! whole; otherwise the block is stored anyway, the output length is advanced
//! only over its clean prefix, the one character at the first mark is
//! escaped by the scalar step, and the next block is loaded right after it.
//! There is no "scalar for the rest of the string" fallback.
//!
//! Output space: on entry to each loop iteration the output has spare
//! capacity for `LANES` units more than the remaining input, so a block can
//! be stored before we know how much of it is kept.

// Kernel helpers must inline into the `#[target_feature]` function that
// instantiates them, or their intrinsics are not inlined at all.
#![allow(clippy::inline_always)]

use super::{NeedsWide, Run, Unit, scalar};

/// Bit masks over the characters of one UTF-16 block (bit `i` is
/// character `i`).
#[derive(Clone, Copy)]
pub(super) struct Utf16Masks {
    /// `"`, `\` and characters below U+0020.
    pub escape: u64,
    /// High (leading) surrogates.
    pub high: u64,
    /// Low (trailing) surrogates.
    pub low: u64,
}

/// One SIMD register's worth of Latin-1 characters, and the UTF-16
/// operations over the same number of characters.
///
/// Implementations are `#[inline(always)]` so that they inline into the
/// `#[target_feature]` kernel that instantiates the generic algorithm.
pub(super) trait Block: Copy {
    /// Characters per block.
    const LANES: usize;

    /// Loads `LANES` bytes.
    ///
    /// # Safety
    ///
    /// `src` is valid for reads of `LANES` bytes; the CPU supports the ISA.
    unsafe fn load_latin1(src: *const u8) -> Self;

    /// Loads `LANES` UTF-16 units and narrows them to bytes, or returns
    /// `None` if one of them is above U+00FF.
    ///
    /// # Safety
    ///
    /// `src` is valid for reads of `LANES` units; the CPU supports the ISA.
    unsafe fn load_utf16_narrowed(src: *const u16) -> Option<Self>;

    /// Masks of the characters that need attention in `LANES` UTF-16 units.
    ///
    /// # Safety
    ///
    /// `src` is valid for reads of `LANES` units; the CPU supports the ISA.
    unsafe fn utf16_masks(src: *const u16) -> Utf16Masks;

    /// Copies `LANES` UTF-16 units (loading them once) and returns a mask
    /// with bit `i` set when unit `i` needs escaping or is a surrogate (of
    /// either kind): a zero result means the block was copied whole.
    ///
    /// # Safety
    ///
    /// `src` is valid for reads and `dst` for writes of `LANES` units, and
    /// they do not overlap; the CPU supports the ISA.
    unsafe fn utf16_copy_attention(src: *const u16, dst: *mut u16) -> u64;

    /// Loads `LANES` UTF-16 units once and returns two masks: units that
    /// need escaping (`"`, `\\`, below U+0020: the characters that end a
    /// clean run inside a JSON string) and units above U+00FF.
    ///
    /// # Safety
    ///
    /// `src` is valid for reads of `LANES` units; the CPU supports the ISA.
    unsafe fn utf16_escape_wide_masks(src: *const u16) -> [u64; 2];

    /// Copies `LANES` UTF-16 units (loading them once) and returns the
    /// masks of [`Block::utf16_escape_wide_masks`].
    ///
    /// # Safety
    ///
    /// `src` is valid for reads and `dst` for writes of `LANES` units, and
    /// they do not overlap; the CPU supports the ISA.
    unsafe fn utf16_copy_escape_wide_masks(src: *const u16, dst: *mut u16) -> [u64; 2];

    /// Unescapes `LANES` UTF-16 units of string contents in one step when
    /// that is simple: no quote or control character that ends the string,
    /// and only two-character escapes other than `\\` with both
    /// characters inside the block. Stores the decoded units at `dst` and
    /// returns how many there are (at most `LANES`; the rest of the
    /// `LANES` stored units mean nothing) and the mask of input units
    /// above U+00FF; `None` (nothing stored) leaves the block to the
    /// one-escape-at-a-time step. Only called by kernels that pass
    /// `COMPRESS = true` to [`unescape_utf16`]; the default never takes
    /// the block.
    ///
    /// # Safety
    ///
    /// `src` is valid for reads and `dst` for writes of `LANES` units, and
    /// they do not overlap; the CPU supports the ISA and whatever extra
    /// instructions the implementation documents.
    #[inline(always)]
    unsafe fn utf16_unescape_block(src: *const u16, dst: *mut u16) -> Option<(usize, u64)> {
        let _ = (src, dst);
        None
    }

    /// Bit `i` set when byte `i` needs escaping (`"`, `\`, below 0x20).
    fn escape_mask(self) -> u64;

    /// Bit `i` set when byte `i` is JSON whitespace (space, tab, LF, CR).
    fn whitespace_mask(self) -> u64;

    /// Stores the bytes.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of `LANES` bytes; the CPU supports the ISA.
    unsafe fn store_latin1(self, dst: *mut u8);

    /// Stores the bytes widened to 16 bits.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of `LANES` units; the CPU supports the ISA.
    unsafe fn store_utf16(self, dst: *mut u16);
}

/// Makes room for the remaining input plus one block of slack.
#[inline(always)]
fn reserve_rest<T>(out: &mut Vec<T>, remaining: usize, lanes: usize) {
    out.reserve(remaining + lanes);
}

/// Escapes Latin-1 `input` onto `out`.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn latin1_to<B: Block, T: Unit>(input: &[u8], out: &mut Vec<T>) {
    let len = input.len();
    let mut pos = 0;
    reserve_rest(out, len, B::LANES);
    while pos + B::LANES <= len {
        // SAFETY: `pos + LANES <= len`, so the block is inside `input`.
        let block = unsafe { B::load_latin1(input.as_ptr().add(pos)) };
        // SAFETY: the capacity invariant (module docs) leaves `LANES` units
        // of spare room after `out.len()`.
        unsafe { T::store_block(block, out.as_mut_ptr().add(out.len())) };
        let mask = block.escape_mask();
        if mask == 0 {
            // SAFETY: the `LANES` units were just written.
            unsafe { out.set_len(out.len() + B::LANES) };
            pos += B::LANES;
        } else {
            let clean = mask.trailing_zeros() as usize;
            // SAFETY: the first `clean` of the stored units are initialised.
            unsafe { out.set_len(out.len() + clean) };
            // SAFETY: the capacity invariant leaves `LANES - clean + (the
            // rest of the input)` spare units; the escaped character is
            // part of the rest, and `LANES >= 16`, so 8 units fit.
            unsafe { scalar::write_escape(input[pos + clean], out) };
            pos += clean + 1;
            reserve_rest(out, len - pos, B::LANES);
        }
    }
    scalar::latin1_to(&input[pos..], out);
}

/// Escapes UTF-16 `input` onto 16-bit `out`.
///
/// One pass over 16-bit lanes serves both kinds of block: a block that is
/// all Latin-1 and a block with wider characters are both copied whole when
/// their masks are clear.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn utf16_to_utf16<B: Block>(input: &[u16], out: &mut Vec<u16>) {
    let len = input.len();
    let mut pos = 0;
    reserve_rest(out, len, B::LANES);
    while pos + B::LANES <= len {
        // SAFETY: `pos + LANES <= len`.
        let src = unsafe { input.as_ptr().add(pos) };
        // SAFETY: `src` and the spare capacity are valid for `LANES` units
        // (capacity invariant) and do not overlap (`out` is not `input`).
        let attention = unsafe { B::utf16_copy_attention(src, out.as_mut_ptr().add(out.len())) };
        if attention == 0 {
            // SAFETY: the `LANES` units were just written.
            unsafe { out.set_len(out.len() + B::LANES) };
            pos += B::LANES;
            continue;
        }
        // The usual first mark is a Latin-1 character to escape (the other
        // kind is a surrogate, which is above U+00FF): every unit before it
        // was copied, so escape it without computing the block's masks.
        let clean = attention.trailing_zeros() as usize;
        if let Ok(byte) = u8::try_from(input[pos + clean]) {
            // SAFETY: the first `clean` of the copied units are initialised.
            unsafe { out.set_len(out.len() + clean) };
            // SAFETY: as in `latin1_to`: at least 8 spare units remain.
            unsafe { scalar::write_escape(byte, out) };
            pos += clean + 1;
            reserve_rest(out, len - pos, B::LANES);
            continue;
        }
        // SAFETY: `src` is valid for `LANES` units.
        let masks = unsafe { B::utf16_masks(src) };
        // A high surrogate not followed by a low one (including one in the
        // last lane, whose partner is in the next block) and a low surrogate
        // not preceded by a high one are handed to the scalar step.
        let unpaired = (masks.high & !(masks.low >> 1)) | (masks.low & !(masks.high << 1));
        let stops = masks.escape | unpaired;
        if stops == 0 {
            // SAFETY: the `LANES` units were just written.
            unsafe { out.set_len(out.len() + B::LANES) };
            pos += B::LANES;
        } else {
            let clean = stops.trailing_zeros() as usize;
            // SAFETY: the first `clean` of the copied units are initialised.
            unsafe { out.set_len(out.len() + clean) };
            if masks.escape >> clean & 1 == 1 {
                // A Latin-1 character to escape.
                // SAFETY: as in `latin1_to`: at least 8 spare units remain.
                unsafe { scalar::write_escape(input[pos + clean] as u8, out) };
                pos += clean + 1;
            } else {
                pos = scalar::step_utf16_to_utf16(input, pos + clean, out);
            }
            reserve_rest(out, len - pos, B::LANES);
        }
    }
    while pos < len {
        pos = scalar::step_utf16_to_utf16(input, pos, out);
    }
}

/// Escapes UTF-16 `input` onto 8-bit `out`: blocks that are all Latin-1 are
/// narrowed and take the 8-bit path; the first other block is walked one
/// character at a time up to its wide character.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn utf16_to_latin1<B: Block>(input: &[u16], out: &mut Vec<u8>) -> Result<(), NeedsWide> {
    let len = input.len();
    let mut pos = 0;
    reserve_rest(out, len, B::LANES);
    while pos + B::LANES <= len {
        // SAFETY: `pos + LANES <= len`.
        let narrowed = unsafe { B::load_utf16_narrowed(input.as_ptr().add(pos)) };
        let Some(block) = narrowed else {
            let end = pos + B::LANES;
            while pos < end {
                pos = scalar::step_utf16_to_latin1(input, pos, out)?;
            }
            reserve_rest(out, len - pos, B::LANES);
            continue;
        };
        // SAFETY: capacity invariant.
        unsafe { block.store_latin1(out.as_mut_ptr().add(out.len())) };
        let mask = block.escape_mask();
        if mask == 0 {
            // SAFETY: the `LANES` bytes were just written.
            unsafe { out.set_len(out.len() + B::LANES) };
            pos += B::LANES;
        } else {
            let clean = mask.trailing_zeros() as usize;
            // SAFETY: the first `clean` stored bytes are initialised.
            unsafe { out.set_len(out.len() + clean) };
            // The character is Latin-1: the block narrowed.
            // SAFETY: as in `latin1_to`: at least 8 spare units remain.
            unsafe { scalar::write_escape(input[pos + clean] as u8, out) };
            pos += clean + 1;
            reserve_rest(out, len - pos, B::LANES);
        }
    }
    while pos < len {
        pos = scalar::step_utf16_to_latin1(input, pos, out)?;
    }
    Ok(())
}

/// The index of the first `"`, `\` or control character, or the length.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn find_latin1<B: Block>(input: &[u8]) -> usize {
    let mut pos = 0;
    while pos + B::LANES <= input.len() {
        // SAFETY: `pos + LANES <= len`.
        let mask = unsafe { B::load_latin1(input.as_ptr().add(pos)) }.escape_mask();
        if mask != 0 {
            return pos + mask.trailing_zeros() as usize;
        }
        pos += B::LANES;
    }
    pos + scalar::find_latin1_special(&input[pos..])
}

/// The index of the first `"`, `\` or control character, or the length,
/// and whether a unit before it is above U+00FF (from the same loads).
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn find_utf16<B: Block>(input: &[u16]) -> Run {
    let mut pos = 0;
    let mut wide = 0;
    while pos + B::LANES <= input.len() {
        // SAFETY: `pos + LANES <= len`.
        let [escape, wide_lanes] = unsafe { B::utf16_escape_wide_masks(input.as_ptr().add(pos)) };
        if escape != 0 {
            let clean = escape.trailing_zeros() as usize;
            wide |= wide_lanes & below(clean);
            return Run { stop: pos + clean, wide: wide != 0 };
        }
        wide |= wide_lanes;
        pos += B::LANES;
    }
    let rest = scalar::find_utf16_run(&input[pos..]);
    Run { stop: pos + rest.stop, wide: wide != 0 || rest.wide }
}

/// The lanes below `lane` (which is below 64).
#[inline(always)]
fn below(lane: usize) -> u64 {
    (1 << lane) - 1
}

/// All lanes of a block set.
#[inline(always)]
fn full_mask<B: Block>() -> u64 {
    u64::MAX >> (64 - B::LANES)
}

/// The index of the first character that is not JSON whitespace, or the
/// length.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn skip_whitespace_latin1<B: Block>(input: &[u8]) -> usize {
    let mut pos = 0;
    while pos + B::LANES <= input.len() {
        // SAFETY: `pos + LANES <= len`.
        let whitespace = unsafe { B::load_latin1(input.as_ptr().add(pos)) }.whitespace_mask();
        if whitespace != full_mask::<B>() {
            return pos + (!whitespace).trailing_zeros() as usize;
        }
        pos += B::LANES;
    }
    pos + scalar::skip_whitespace_latin1(&input[pos..])
}

/// The index of the first character that is not JSON whitespace, or the
/// length. A block that does not narrow to Latin-1 holds a character that
/// is not whitespace; the scalar loop finds it.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn skip_whitespace_utf16<B: Block>(input: &[u16]) -> usize {
    let mut pos = 0;
    while pos + B::LANES <= input.len() {
        // SAFETY: `pos + LANES <= len`.
        let Some(block) = (unsafe { B::load_utf16_narrowed(input.as_ptr().add(pos)) }) else { break };
        let whitespace = block.whitespace_mask();
        if whitespace != full_mask::<B>() {
            return pos + (!whitespace).trailing_zeros() as usize;
        }
        pos += B::LANES;
    }
    pos + scalar::skip_whitespace_utf16(&input[pos..])
}

/// Makes room on `out` for one block and the unit after it. The check is
/// inline; growing (amortized doubling) is not.
#[inline(always)]
fn reserve_block<T>(out: &mut Vec<T>, lanes: usize) {
    if out.capacity() - out.len() <= lanes {
        grow(out, lanes);
    }
}

#[cold]
#[inline(never)]
fn grow<T>(out: &mut Vec<T>, lanes: usize) {
    out.reserve(lanes + 1);
}

/// Decodes the two-character escape at `pos` (a backslash and a letter)
/// into `dst`; returns the position after it, or `None` when `pos` holds
/// anything else (a quote, a control character, a `\u` or invalid
/// escape), which the caller hands back. A table load, not a jump table.
///
/// # Safety
///
/// `dst` is valid for a write of one unit.
#[inline(always)]
unsafe fn decode_escape_into<U: Copy + Into<u16> + TryFrom<u16>>(
    input: &[U],
    pos: usize,
    dst: *mut U,
) -> Option<usize> {
    if input[pos].into() != u16::from(b'\\') {
        return None;
    }
    let decoded = scalar::simple_escape_fast((*input.get(pos + 1)?).into())?;
    // SAFETY: the caller guarantees one writable unit at `dst`; an escape
    // decodes to ASCII, which fits either unit.
    unsafe { dst.write(U::try_from(decoded).ok()?) };
    Some(pos + 2)
}

/// Copies Latin-1 string contents onto `out`, decoding two-character
/// escapes, up to the first unit it does not handle; returns its index.
///
/// Each block is stored whole at the output position and the output
/// advances over its clean prefix; a two-character escape there is decoded
/// with a table load, and the next block starts right after it. The
/// branch on "clean block" is kept (not made branch-free): predicted, it
/// lets the next blocks' loads start before this block's mask is known.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set.
#[inline(always)]
pub(super) unsafe fn unescape_latin1<B: Block>(input: &[u8], out: &mut Vec<u8>) -> usize {
    let len = input.len();
    let mut pos = 0;
    while pos + B::LANES <= len {
        reserve_block(out, B::LANES);
        let written = out.len();
        // SAFETY: `reserve_block` left more than `LANES` spare bytes.
        let dst = unsafe { out.as_mut_ptr().add(written) };
        // SAFETY: `pos + LANES <= len`.
        let block = unsafe { B::load_latin1(input.as_ptr().add(pos)) };
        // SAFETY: `LANES` spare bytes at `dst`.
        unsafe { block.store_latin1(dst) };
        let escape = block.escape_mask();
        if escape == 0 {
            // SAFETY: the `LANES` bytes were just stored.
            unsafe { out.set_len(written + B::LANES) };
            pos += B::LANES;
            continue;
        }
        let clean = escape.trailing_zeros() as usize;
        pos += clean;
        // SAFETY: `clean < LANES`, so the spare room holds the unit at
        // `clean`.
        let next = unsafe { decode_escape_into(input, pos, dst.add(clean)) };
        let Some(next) = next else {
            // SAFETY: the first `clean` stored bytes are initialised.
            unsafe { out.set_len(written + clean) };
            return pos;
        };
        // SAFETY: the clean prefix and the decoded unit are initialised.
        unsafe { out.set_len(written + clean + 1) };
        pos = next;
    }
    pos + scalar::unescape(&input[pos..], out)
}

/// Copies UTF-16 string contents onto `out`, decoding two-character
/// escapes, up to the first unit it does not handle; returns its index and
/// whether a unit appended is above U+00FF, found from the same loads as
/// the escapes (so the caller need not re-read the string to narrow it).
///
/// The block loop is that of [`unescape_latin1`]. With `COMPRESS`, a
/// block that [`Block::utf16_unescape_block`] takes is done in one step,
/// so the escapes in the middle of a long string cost no branches at all;
/// the block with the closing quote takes the step above.
///
/// # Safety
///
/// The CPU supports `B`'s instruction set (and, with `COMPRESS`, what
/// `B::utf16_unescape_block` needs).
#[inline(always)]
pub(super) unsafe fn unescape_utf16<B: Block, const COMPRESS: bool>(input: &[u16], out: &mut Vec<u16>) -> Run {
    let len = input.len();
    let mut pos = 0;
    let mut wide = 0;
    while pos + B::LANES <= len {
        reserve_block(out, B::LANES);
        let written = out.len();
        // SAFETY: `reserve_block` left more than `LANES` spare units.
        let dst = unsafe { out.as_mut_ptr().add(written) };
        if COMPRESS {
            // SAFETY: as below; the caller passes on the CPU guarantee.
            if let Some((decoded, wide_lanes)) = unsafe { B::utf16_unescape_block(input.as_ptr().add(pos), dst) } {
                wide |= wide_lanes;
                // SAFETY: the first `decoded` units were just stored.
                unsafe { out.set_len(written + decoded) };
                pos += B::LANES;
                continue;
            }
        }
        // SAFETY: `pos + LANES <= len`, the spare room holds `LANES` units,
        // and `out` is not `input`.
        let [escape, wide_lanes] = unsafe { B::utf16_copy_escape_wide_masks(input.as_ptr().add(pos), dst) };
        if escape == 0 {
            wide |= wide_lanes;
            // SAFETY: the `LANES` units were just stored.
            unsafe { out.set_len(written + B::LANES) };
            pos += B::LANES;
            continue;
        }
        // The lanes below the first escape.
        wide |= wide_lanes & escape.wrapping_sub(1) & !escape;
        let clean = escape.trailing_zeros() as usize;
        pos += clean;
        // SAFETY: `clean < LANES`, so the spare room holds the unit at
        // `clean`.
        let next = unsafe { decode_escape_into(input, pos, dst.add(clean)) };
        let Some(next) = next else {
            // SAFETY: the first `clean` stored units are initialised.
            unsafe { out.set_len(written + clean) };
            return Run { stop: pos, wide: wide != 0 };
        };
        // SAFETY: the clean prefix and the decoded unit are initialised.
        unsafe { out.set_len(written + clean + 1) };
        pos = next;
    }
    let rest = scalar::unescape_utf16_run(&input[pos..], out);
    Run { stop: pos + rest.stop, wide: wide != 0 || rest.wide }
}
