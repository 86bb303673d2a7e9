//! The two widths of JSON source text, behind one trait, and the buffer
//! that decoded string contents are built in.

use crate::escape::{Kernels, Run};
use crate::text::JsStr;

/// A code unit of JSON source text: `u8` for Latin-1 text, `u16` for UTF-16.
pub(super) trait SourceUnit: Copy + Into<u16> + 'static {
    /// Index of the first `"`, `\` or control character, or the length,
    /// and whether a unit before it is above U+00FF.
    fn find_special(kernels: &Kernels, units: &[Self]) -> Run;

    /// Index of the first character that is not whitespace, or the length.
    fn skip_whitespace(kernels: &Kernels, units: &[Self]) -> usize;

    /// Contents with no escapes, as the narrowest string: Latin-1 source is
    /// borrowed; UTF-16 source that fits (`wide` is false) is narrowed into
    /// `scratch`.
    fn string_contents<'a>(units: &'a [Self], wide: bool, scratch: &'a mut Vec<u8>) -> JsStr<'a>;

    /// Appends source units to a decoded string; `wide` says whether one of
    /// them is above U+00FF.
    fn append_to(units: &[Self], wide: bool, decoded: &mut Decoded);

    /// Decodes string contents onto `decoded` with the unescape kernel up
    /// to the first unit it does not handle (a quote, a `\u` or invalid
    /// escape, a control character) or the end; returns that unit's index.
    fn unescape(kernels: &Kernels, units: &[Self], decoded: &mut Decoded) -> usize;
}

impl SourceUnit for u8 {
    #[inline]
    fn find_special(kernels: &Kernels, units: &[u8]) -> Run {
        Run { stop: (kernels.find_latin1)(units), wide: false }
    }

    #[inline]
    fn skip_whitespace(kernels: &Kernels, units: &[u8]) -> usize {
        (kernels.skip_whitespace_latin1)(units)
    }

    #[inline]
    fn string_contents<'a>(units: &'a [u8], _wide: bool, _scratch: &'a mut Vec<u8>) -> JsStr<'a> {
        JsStr::Latin1(units)
    }

    #[inline]
    fn append_to(units: &[u8], _wide: bool, decoded: &mut Decoded) {
        decoded.extend_latin1(units);
    }

    #[inline]
    fn unescape(kernels: &Kernels, units: &[u8], decoded: &mut Decoded) -> usize {
        if decoded.is_wide {
            // A `\u` escape above U+00FF widened the string: copy the next
            // clean run; the lexer decodes the escape after it.
            let clean = (kernels.find_latin1)(units);
            decoded.extend_latin1(&units[..clean]);
            clean
        } else {
            (kernels.unescape_latin1)(units, &mut decoded.narrow)
        }
    }
}

impl SourceUnit for u16 {
    #[inline]
    fn find_special(kernels: &Kernels, units: &[u16]) -> Run {
        (kernels.find_utf16)(units)
    }

    #[inline]
    fn skip_whitespace(kernels: &Kernels, units: &[u16]) -> usize {
        (kernels.skip_whitespace_utf16)(units)
    }

    #[inline]
    fn string_contents<'a>(units: &'a [u16], wide: bool, scratch: &'a mut Vec<u8>) -> JsStr<'a> {
        debug_assert_eq!(wide, !fits_latin1(units));
        if wide {
            JsStr::Utf16(units)
        } else {
            narrow_into(units, scratch);
            JsStr::Latin1(scratch)
        }
    }

    #[inline]
    fn append_to(units: &[u16], wide: bool, decoded: &mut Decoded) {
        decoded.extend_utf16(units, wide);
    }

    #[inline]
    fn unescape(kernels: &Kernels, units: &[u16], decoded: &mut Decoded) -> usize {
        if !decoded.is_wide {
            decoded.widen();
        }
        let run = (kernels.unescape_utf16)(units, &mut decoded.wide);
        decoded.any_wide |= run.wide;
        run.stop
    }
}

/// Whether every unit is at most U+00FF (for debug assertions).
fn fits_latin1(units: &[u16]) -> bool {
    units.iter().all(|&unit| unit <= 0xFF)
}

/// Replaces `narrow` with `units`, which are all at most U+00FF.
#[inline]
fn narrow_into(units: &[u16], narrow: &mut Vec<u8>) {
    narrow.clear();
    narrow.extend(units.iter().map(|&unit| unit as u8));
}

/// String contents with escapes decoded: 8-bit until the first code unit
/// above U+00FF. Both buffers are kept between strings for their capacity.
///
/// UTF-16 source is copied into the wide buffer as it is (a plain copy per
/// segment) and narrowed once at the end if it fits; whether it fits is
/// known from the scans that copied it (`any_wide`), not by reading it
/// again.
#[derive(Default)]
pub(super) struct Decoded {
    narrow: Vec<u8>,
    wide: Vec<u16>,
    is_wide: bool,
    /// Whether a unit in `wide` is above U+00FF.
    any_wide: bool,
}

impl Decoded {
    /// Empties the buffer and makes it 8-bit again.
    pub(super) fn clear(&mut self) {
        self.narrow.clear();
        self.wide.clear();
        self.is_wide = false;
        self.any_wide = false;
    }

    fn widen(&mut self) {
        self.wide.extend(self.narrow.iter().map(|&b| u16::from(b)));
        self.narrow.clear();
        self.is_wide = true;
    }

    /// Appends one code unit.
    pub(super) fn push(&mut self, unit: u16) {
        if !self.is_wide {
            if let Ok(byte) = u8::try_from(unit) {
                self.narrow.push(byte);
                return;
            }
            self.widen();
        }
        self.any_wide |= unit > 0xFF;
        self.wide.push(unit);
    }

    /// Appends Latin-1 characters.
    pub(super) fn extend_latin1(&mut self, bytes: &[u8]) {
        if self.is_wide {
            self.wide.extend(bytes.iter().map(|&b| u16::from(b)));
        } else {
            self.narrow.extend_from_slice(bytes);
        }
    }

    /// Appends UTF-16 code units; `wide` says whether one of them is above
    /// U+00FF.
    pub(super) fn extend_utf16(&mut self, units: &[u16], wide: bool) {
        if !self.is_wide {
            self.widen();
        }
        self.any_wide |= wide;
        self.wide.extend_from_slice(units);
    }

    /// The contents, in the narrowest width that holds them.
    pub(super) fn as_js_str(&mut self) -> JsStr<'_> {
        if !self.is_wide {
            return JsStr::Latin1(&self.narrow);
        }
        debug_assert_eq!(self.any_wide, !fits_latin1(&self.wide));
        if !self.any_wide {
            narrow_into(&self.wide, &mut self.narrow);
            return JsStr::Latin1(&self.narrow);
        }
        JsStr::Utf16(&self.wide)
    }
}
