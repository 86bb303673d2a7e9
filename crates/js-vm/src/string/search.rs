//! Slicing and searching a flat string in the width it is stored in.
//!
//! The String.prototype methods read their receiver through these instead
//! of copying it into a `Vec<u16>` first: that copy made `s.substring(a, b)`
//! and `s.indexOf(t, i)` cost the whole length of `s` on every call, which
//! a scanner walking a long source text (TypeScript's, in Octane) pays once
//! per token.

use super::{JsStr, JsString};

impl<'a> JsStr<'a> {
    /// Code units `from..to`, in the same width. Panics if the range is out
    /// of bounds, as slicing does.
    pub fn slice(self, from: usize, to: usize) -> JsStr<'a> {
        match self {
            JsStr::Latin1(b) => JsStr::Latin1(&b[from..to]),
            JsStr::Utf16(u) => JsStr::Utf16(&u[from..to]),
        }
    }

    /// The first index at or after `from` where `needle` occurs
    /// (`StringIndexOf`, §6.1.4.1): `from` itself for an empty needle that
    /// fits, `None` when there is none.
    pub fn find(self, needle: JsStr<'_>, from: usize) -> Option<usize> {
        let last = self.len().checked_sub(needle.len())?;
        if from > last {
            return None;
        }
        (from..=last).find(|&i| self.matches_at(needle, i))
    }

    /// The last index at or before `max_start` where `needle` occurs.
    pub fn rfind(self, needle: JsStr<'_>, max_start: usize) -> Option<usize> {
        let last = self.len().checked_sub(needle.len())?;
        (0..=max_start.min(last)).rev().find(|&i| self.matches_at(needle, i))
    }

    /// Whether `needle` occurs at index `at` (false when it would run past
    /// the end).
    pub fn matches_at(self, needle: JsStr<'_>, at: usize) -> bool {
        if at.checked_add(needle.len()).is_none_or(|end| end > self.len()) {
            return false;
        }
        match (self, needle) {
            (JsStr::Latin1(h), JsStr::Latin1(n)) => &h[at..at + n.len()] == n,
            (JsStr::Utf16(h), JsStr::Utf16(n)) => &h[at..at + n.len()] == n,
            (JsStr::Latin1(h), JsStr::Utf16(n)) => h[at..at + n.len()].iter().zip(n).all(|(&a, &b)| u16::from(a) == b),
            (JsStr::Utf16(h), JsStr::Latin1(n)) => h[at..at + n.len()].iter().zip(n).all(|(&a, &b)| a == u16::from(b)),
        }
    }
}

impl JsString {
    /// A new string with the contents of `s`, copied in its width (and
    /// narrowed to Latin-1 when a UTF-16 piece fits, as every string is).
    pub fn from_js_str(s: JsStr<'_>) -> Self {
        match s {
            JsStr::Latin1(b) => Self::from_latin1(b),
            JsStr::Utf16(u) => Self::from_utf16(u),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn find_agrees_across_widths() {
        let (h8, h16) = (b"abcabc".as_slice(), wide("abcabc"));
        let (n8, n16) = (b"ca".as_slice(), wide("ca"));
        for h in [JsStr::Latin1(h8), JsStr::Utf16(&h16)] {
            for n in [JsStr::Latin1(n8), JsStr::Utf16(&n16)] {
                assert_eq!(h.find(n, 0), Some(2));
                assert_eq!(h.find(n, 3), None);
                assert_eq!(h.rfind(n, 6), Some(2));
                assert!(h.matches_at(n, 2) && !h.matches_at(n, 5));
            }
            assert_eq!(h.find(JsStr::Latin1(b""), 6), Some(6));
            assert_eq!(h.find(JsStr::Latin1(b""), 7), None);
            assert_eq!(h.rfind(JsStr::Latin1(b""), 9), Some(6));
        }
    }

    #[test]
    fn a_needle_longer_than_the_rest_is_not_found() {
        let h = JsStr::Latin1(b"ab");
        assert_eq!(h.find(JsStr::Latin1(b"abc"), 0), None);
        assert_eq!(h.rfind(JsStr::Latin1(b"abc"), 0), None);
        assert!(!h.matches_at(JsStr::Latin1(b"b"), usize::MAX));
    }

    #[test]
    fn a_wide_slice_that_fits_is_narrowed() {
        let units = wide("a\u{2192}b");
        let s = JsString::from_js_str(JsStr::Utf16(&units).slice(2, 3));
        assert!(matches!(s.flat(), JsStr::Latin1(b"b")));
        let s = JsString::from_js_str(JsStr::Utf16(&units).slice(0, 2));
        assert!(matches!(s.flat(), JsStr::Utf16(_)));
    }
}
