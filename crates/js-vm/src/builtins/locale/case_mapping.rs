//! Full Unicode case mapping with `icu_casemap` (§22.1.3.28 toLowerCase,
//! §22.1.3.30 toUpperCase, ECMA-402 TransformCase): context-sensitive
//! rules such as the final sigma in every locale, and the tr, az, lt and el
//! rules when the locale asks for them.

use icu_casemap::CaseMapper;
use icu_locale_core::LanguageIdentifier;
use icu_locale_core::subtags::{Language, language};

/// Upper or lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Case {
    /// toUpperCase / toLocaleUpperCase.
    Upper,
    /// toLowerCase / toLocaleLowerCase.
    Lower,
}

/// The language whose case rules apply: tr, az, lt and el have rules of
/// their own (the languages V8 also honours); every other one maps as root.
pub(crate) fn case_language(requested: Option<Language>) -> LanguageIdentifier {
    const TAILORED: [Language; 4] = [language!("tr"), language!("az"), language!("lt"), language!("el")];
    match requested {
        Some(l) if TAILORED.contains(&l) => LanguageIdentifier::from(l),
        _ => LanguageIdentifier::UNKNOWN,
    }
}

/// The code units of `units` in `case`. A lone surrogate has no case and
/// is kept; it also ends every casing context (it is neither cased nor
/// case-ignorable, and has combining class 0), so the well-formed runs
/// between lone surrogates are mapped on their own.
pub(crate) fn convert_case(units: &[u16], case: Case, language: &LanguageIdentifier) -> Vec<u16> {
    let mapper = CaseMapper::new();
    let mut out = Vec::with_capacity(units.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut Vec<u16>| {
        if run.is_empty() {
            return;
        }
        let mapped = match case {
            Case::Upper => mapper.uppercase_to_string(run, language),
            Case::Lower => mapper.lowercase_to_string(run, language),
        };
        out.extend(mapped.encode_utf16());
        run.clear();
    };
    for piece in char::decode_utf16(units.iter().copied()) {
        match piece {
            Ok(c) => run.push(c),
            Err(lone) => {
                flush(&mut run, &mut out);
                out.push(lone.unpaired_surrogate());
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(s: &str, case: Case, lang: Option<Language>) -> String {
        let units: Vec<u16> = s.encode_utf16().collect();
        String::from_utf16_lossy(&convert_case(&units, case, &case_language(lang)))
    }

    #[test]
    fn full_and_contextual_mappings() {
        assert_eq!(map("straße", Case::Upper, None), "STRASSE");
        assert_eq!(map("ΑΣ ΑΣΑ Σ", Case::Lower, None), "ας ασα σ");
        assert_eq!(map("İ", Case::Lower, None), "i\u{307}");
        assert_eq!(map("i", Case::Upper, Some(language!("tr"))), "İ");
        assert_eq!(map("I", Case::Lower, Some(language!("az"))), "ı");
        assert_eq!(map("i\u{307}", Case::Upper, Some(language!("lt"))), "I");
        assert_eq!(map("i", Case::Upper, Some(language!("de"))), "I");
    }

    #[test]
    fn lone_surrogates_are_kept_and_end_the_context() {
        let units = [0x41, 0x3A3, 0xD800, 0x62];
        assert_eq!(convert_case(&units, Case::Lower, &LanguageIdentifier::UNKNOWN), [0x61, 0x3C2, 0xD800, 0x62]);
        assert_eq!(convert_case(&[0xDC00, 0x61], Case::Upper, &LanguageIdentifier::UNKNOWN), [0xDC00, 0x41]);
    }
}
