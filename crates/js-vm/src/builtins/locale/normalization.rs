//! `String.prototype.normalize` (§22.1.3.15) with `icu_normalizer`.

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};

/// A Unicode normalization form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NormalizationForm {
    /// Canonical composition.
    Nfc,
    /// Canonical decomposition.
    Nfd,
    /// Compatibility composition.
    Nfkc,
    /// Compatibility decomposition.
    Nfkd,
}

impl NormalizationForm {
    /// The form `normalize` names by `"NFC"`, `"NFD"`, `"NFKC"` or `"NFKD"`.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "NFC" => Some(Self::Nfc),
            "NFD" => Some(Self::Nfd),
            "NFKC" => Some(Self::Nfkc),
            "NFKD" => Some(Self::Nfkd),
            _ => None,
        }
    }

    fn normalize_well_formed(self, units: &[u16], out: &mut Vec<u16>) {
        let normalized = match self {
            Self::Nfc => ComposingNormalizerBorrowed::new_nfc().normalize_utf16(units),
            Self::Nfkc => ComposingNormalizerBorrowed::new_nfkc().normalize_utf16(units),
            Self::Nfd => DecomposingNormalizerBorrowed::new_nfd().normalize_utf16(units),
            Self::Nfkd => DecomposingNormalizerBorrowed::new_nfkd().normalize_utf16(units),
        };
        out.extend_from_slice(&normalized);
    }

    /// `units` normalized. The spec reads the string as code points, a lone
    /// surrogate being one, so it is kept (ICU4X would make it U+FFFD). A
    /// lone surrogate is a starter that neither composes nor reorders
    /// with its neighbours, so normalizing the runs between them one by
    /// one gives the same result as normalizing the whole.
    pub(crate) fn normalize(self, units: &[u16]) -> Vec<u16> {
        let mut out = Vec::with_capacity(units.len());
        let mut start = 0;
        let mut i = 0;
        while i < units.len() {
            let u = units[i];
            let paired =
                (0xD800..0xDC00).contains(&u) && units.get(i + 1).is_some_and(|n| (0xDC00..0xE000).contains(n));
            if paired {
                i += 2;
                continue;
            }
            if (0xD800..0xE000).contains(&u) {
                self.normalize_well_formed(&units[start..i], &mut out);
                out.push(u);
                start = i + 1;
            }
            i += 1;
        }
        self.normalize_well_formed(&units[start..], &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn the_four_forms() {
        assert_eq!(NormalizationForm::Nfc.normalize(&units("e\u{301}")), units("\u{e9}"));
        assert_eq!(NormalizationForm::Nfd.normalize(&units("\u{e9}")), units("e\u{301}"));
        assert_eq!(NormalizationForm::Nfkc.normalize(&units("\u{fb01}\u{b2}")), units("fi2"));
        assert_eq!(NormalizationForm::Nfkd.normalize(&units("\u{1e9b}\u{323}")), units("s\u{323}\u{307}"));
        assert_eq!(NormalizationForm::Nfc.normalize(&units("\u{1d15e}")), units("\u{1d157}\u{1d165}"));
    }

    #[test]
    fn lone_surrogates_are_kept() {
        let mut input = units("e\u{301}");
        input.insert(0, 0xDC00);
        input.push(0xD800);
        let mut expected = vec![0xDC00, 0xE9];
        expected.push(0xD800);
        assert_eq!(NormalizationForm::Nfc.normalize(&input), expected);
        assert_eq!(NormalizationForm::Nfd.normalize(&[0xD800, 0x301, 0x323]), [0xD800, 0x323, 0x301]);
    }
}
