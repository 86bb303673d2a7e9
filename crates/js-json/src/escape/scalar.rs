//! The scalar reference kernels, and the one-character steps the SIMD kernels
//! fall back to between clean runs.
//!
//! These loops are written to be obviously right, one character at a time;
//! every SIMD kernel is tested for byte-for-byte agreement with them.

use super::{Kernels, NeedsWide, Run, Unit};

/// What a Latin-1 or ASCII character becomes inside a JSON string: `0` when
/// it is copied as is, `b'u'` for a `\u00XX` escape, otherwise the letter
/// after the backslash.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 0x20 {
        table[c] = b'u';
        c += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The escape sequence of every Latin-1 character that needs one, padded
/// to six characters, and its length (0 for characters copied as is).
static ESCAPED: [([u8; 6], u8); 256] = {
    let mut table = [([0u8; 6], 0u8); 256];
    let mut c = 0;
    while c < 256 {
        table[c] = match ESCAPE[c] {
            0 => ([0; 6], 0),
            b'u' => ([b'\\', b'u', b'0', b'0', HEX[c >> 4], HEX[c & 0xF]], 6),
            letter => ([b'\\', letter, 0, 0, 0, 0], 2),
        };
        c += 1;
    }
    table
};

/// [`ESCAPED`] widened to 16-bit units: the sequence in the first six
/// units, its length in the last, so an escape is one 16-byte load and
/// store instead of a widening of six bytes.
pub(super) static ESCAPED_WIDE: [[u16; 8]; 256] = {
    let mut table = [[0u16; 8]; 256];
    let mut c = 0;
    while c < 256 {
        let (sequence, len) = ESCAPED[c];
        let mut i = 0;
        while i < 6 {
            table[c][i] = sequence[i] as u16;
            i += 1;
        }
        table[c][7] = len as u16;
        c += 1;
    }
    table
};

/// The escape sequence of `byte` padded to six characters, and its length.
#[inline]
pub(super) fn escaped(byte: u8) -> ([u8; 6], u8) {
    ESCAPED[usize::from(byte)]
}

/// Appends the escape sequence of `byte`, which must need escaping, with
/// one unchecked store.
///
/// # Safety
///
/// `out` has spare capacity for at least 8 units.
#[inline]
pub(super) unsafe fn write_escape<T: Unit>(byte: u8, out: &mut Vec<T>) {
    debug_assert!(needs_escape(byte) && out.capacity() - out.len() >= 8);
    // SAFETY: the caller guarantees 8 spare units, which `store_escape`
    // needs; it initialises the `len` units it returns.
    unsafe {
        let len = T::store_escape(byte, out.as_mut_ptr().add(out.len()));
        out.set_len(out.len() + len);
    }
}

/// The kernels of this file, as the dispatch table holds them.
pub(super) static KERNELS: Kernels = Kernels {
    isa: super::Isa::Scalar,
    latin1_to_latin1: latin1_to::<u8>,
    latin1_to_utf16: latin1_to::<u16>,
    utf16_to_utf16,
    utf16_to_latin1,
    find_latin1: find_latin1_special,
    find_utf16: find_utf16_run,
    skip_whitespace_latin1,
    skip_whitespace_utf16,
    unescape_latin1: unescape::<u8>,
    unescape_utf16: unescape_utf16_run,
};

/// Whether a Latin-1 character needs escaping.
#[inline]
pub(crate) fn needs_escape(byte: u8) -> bool {
    ESCAPE[usize::from(byte)] != 0
}

/// Appends the escape sequence of `byte`, which must need escaping.
#[inline]
pub(super) fn push_escape<T: Unit>(byte: u8, out: &mut Vec<T>) {
    match ESCAPE[usize::from(byte)] {
        b'u' => push_ascii(out, &[b'\\', b'u', b'0', b'0', HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xF)]]),
        letter => push_ascii(out, &[b'\\', letter]),
    }
}

/// Appends a character of any width that `ESCAPE` says to escape, or a lone
/// surrogate, as a `\u` escape or a two-character escape.
#[inline]
fn push_escape_unit<T: Unit>(unit: u16, out: &mut Vec<T>) {
    if let Ok(byte) = u8::try_from(unit) {
        push_escape(byte, out);
    } else {
        let hex = |shift: u16| HEX[usize::from((unit >> shift) & 0xF)];
        push_ascii(out, &[b'\\', b'u', hex(12), hex(8), hex(4), hex(0)]);
    }
}

#[inline]
fn push_ascii<T: Unit>(out: &mut Vec<T>, ascii: &[u8]) {
    out.extend(ascii.iter().map(|&b| T::from(b)));
}

#[inline]
fn is_high_surrogate(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

#[inline]
fn is_low_surrogate(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

/// Escapes Latin-1 `input` onto `out`.
pub(super) fn latin1_to<T: Unit>(input: &[u8], out: &mut Vec<T>) {
    out.reserve(input.len());
    for &byte in input {
        if needs_escape(byte) {
            push_escape(byte, out);
        } else {
            out.push(T::from(byte));
        }
    }
}

/// Escapes the character (or surrogate pair) of `input` at `pos` onto 16-bit
/// `out`; returns the position after it.
#[inline]
pub(super) fn step_utf16_to_utf16(input: &[u16], pos: usize, out: &mut Vec<u16>) -> usize {
    let unit = input[pos];
    if let Ok(byte) = u8::try_from(unit) {
        if needs_escape(byte) {
            push_escape(byte, out);
        } else {
            out.push(unit);
        }
        pos + 1
    } else if is_high_surrogate(unit) && input.get(pos + 1).copied().is_some_and(is_low_surrogate) {
        out.extend_from_slice(&input[pos..pos + 2]);
        pos + 2
    } else if is_high_surrogate(unit) || is_low_surrogate(unit) {
        push_escape_unit(unit, out);
        pos + 1
    } else {
        out.push(unit);
        pos + 1
    }
}

/// Escapes the character of `input` at `pos` onto 8-bit `out`; returns the
/// position after it, or `NeedsWide` when the character is above U+00FF and
/// is not a lone surrogate (which escapes to ASCII).
#[inline]
pub(super) fn step_utf16_to_latin1(input: &[u16], pos: usize, out: &mut Vec<u8>) -> Result<usize, NeedsWide> {
    let unit = input[pos];
    if let Ok(byte) = u8::try_from(unit) {
        if needs_escape(byte) {
            push_escape(byte, out);
        } else {
            out.push(byte);
        }
        Ok(pos + 1)
    } else if is_low_surrogate(unit)
        || (is_high_surrogate(unit) && !input.get(pos + 1).copied().is_some_and(is_low_surrogate))
    {
        push_escape_unit(unit, out);
        Ok(pos + 1)
    } else {
        Err(NeedsWide { consumed: pos })
    }
}

/// Escapes UTF-16 `input` onto 16-bit `out`.
pub(super) fn utf16_to_utf16(input: &[u16], out: &mut Vec<u16>) {
    out.reserve(input.len());
    let mut pos = 0;
    while pos < input.len() {
        pos = step_utf16_to_utf16(input, pos, out);
    }
}

/// Escapes UTF-16 `input` onto 8-bit `out`, stopping before the first
/// character that 8 bits cannot hold.
pub(super) fn utf16_to_latin1(input: &[u16], out: &mut Vec<u8>) -> Result<(), NeedsWide> {
    out.reserve(input.len());
    let mut pos = 0;
    while pos < input.len() {
        pos = step_utf16_to_latin1(input, pos, out)?;
    }
    Ok(())
}

/// The index of the first `"`, `\` or control character of `input`, or its
/// length.
pub(super) fn find_latin1_special(input: &[u8]) -> usize {
    input.iter().position(|&b| needs_escape(b)).unwrap_or(input.len())
}

/// The index of the first `"`, `\` or control character of `input`, or its
/// length.
pub(super) fn find_utf16_special(input: &[u16]) -> usize {
    input.iter().position(|&u| u8::try_from(u).is_ok_and(needs_escape)).unwrap_or(input.len())
}

/// [`find_utf16_special`], and whether a unit before the stop is above
/// U+00FF.
pub(super) fn find_utf16_run(input: &[u16]) -> Run {
    let stop = find_utf16_special(input);
    Run { stop, wide: input[..stop].iter().any(|&unit| unit > 0xFF) }
}

/// [`unescape`] of UTF-16, and whether a unit it appended is above U+00FF.
pub(super) fn unescape_utf16_run(input: &[u16], out: &mut Vec<u16>) -> Run {
    let start = out.len();
    let stop = unescape(input, out);
    Run { stop, wide: out[start..].iter().any(|&unit| unit > 0xFF) }
}

/// Whether `unit` is JSON whitespace: space, tab, LF or CR.
#[inline]
pub(crate) fn is_whitespace(unit: u16) -> bool {
    matches!(unit, 0x20 | 0x09 | 0x0A | 0x0D)
}

/// The index of the first character that is not JSON whitespace, or the
/// length.
pub(super) fn skip_whitespace_latin1(input: &[u8]) -> usize {
    input.iter().position(|&b| !is_whitespace(u16::from(b))).unwrap_or(input.len())
}

/// The index of the first character that is not JSON whitespace, or the
/// length.
pub(super) fn skip_whitespace_utf16(input: &[u16]) -> usize {
    input.iter().position(|&u| !is_whitespace(u)).unwrap_or(input.len())
}

/// What each Latin-1 letter after a backslash decodes to, `0` when
/// `\letter` is not a two-character escape (`\u` included): one load
/// instead of a jump table in the SIMD kernels' escape step.
static UNESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'/' as usize] = b'/';
    table[b'b' as usize] = 0x08;
    table[b'f' as usize] = 0x0C;
    table[b'n' as usize] = b'\n';
    table[b'r' as usize] = b'\r';
    table[b't' as usize] = b'\t';
    table
};

/// What the two-character escape `\letter` stands for, if it is one (the
/// table form of [`simple_escape`]). Letters above U+00FF read entry 0xFF,
/// which is 0.
#[allow(clippy::inline_always)] // must inline into the `#[target_feature]` kernels
#[inline(always)]
pub(super) fn simple_escape_fast(letter: u16) -> Option<u16> {
    let decoded = UNESCAPE[usize::from(letter.min(0xFF))];
    (decoded != 0).then_some(u16::from(decoded))
}

/// What the two-character escape `\letter` stands for, if it is one.
#[inline]
pub(super) fn simple_escape(letter: u16) -> Option<u16> {
    Some(match u8::try_from(letter).ok()? {
        b'"' => 0x22,
        b'\\' => 0x5C,
        b'/' => 0x2F,
        b'b' => 0x08,
        b'f' => 0x0C,
        b'n' => 0x0A,
        b'r' => 0x0D,
        b't' => 0x09,
        _ => return None,
    })
}

/// A source code unit the unescape kernels read and write.
pub(super) trait SourceUnit: Copy + Into<u16> {
    /// The unit for a decoded two-character escape (always ASCII).
    fn from_ascii(unit: u16) -> Self;
}

impl SourceUnit for u8 {
    #[inline]
    fn from_ascii(unit: u16) -> Self {
        unit as u8
    }
}

impl SourceUnit for u16 {
    #[inline]
    fn from_ascii(unit: u16) -> Self {
        unit
    }
}

/// Handles the special unit at `pos`: a two-character escape is decoded
/// onto `out` and the position after it returned; anything else is left to
/// the caller (`None`).
#[inline]
pub(super) fn unescape_step<U: SourceUnit>(input: &[U], pos: usize, out: &mut Vec<U>) -> Option<usize> {
    if input[pos].into() != 0x5C {
        return None;
    }
    let decoded = simple_escape((*input.get(pos + 1)?).into())?;
    out.push(U::from_ascii(decoded));
    Some(pos + 2)
}

/// Whether a unit ends a clean run of string contents.
#[inline]
fn is_string_special(unit: u16) -> bool {
    u8::try_from(unit).is_ok_and(needs_escape)
}

/// Copies string contents onto `out`, decoding two-character escapes, up to
/// the first unit this does not handle; returns its index.
pub(super) fn unescape<U: SourceUnit>(input: &[U], out: &mut Vec<U>) -> usize {
    let mut pos = 0;
    loop {
        while pos < input.len() && !is_string_special(input[pos].into()) {
            out.push(input[pos]);
            pos += 1;
        }
        if pos == input.len() {
            return pos;
        }
        match unescape_step(input, pos, out) {
            Some(next) => pos = next,
            None => return pos,
        }
    }
}
