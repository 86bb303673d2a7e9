//! String comparison for `String.prototype.localeCompare` (§22.1.3.12) with
//! `icu_collator`'s root collation, which is also en's: tertiary strength,
//! canonically equivalent strings compare equal, `a < A < b < B`.
//!
//! The collator is built from the root data alone (`new_root`, a const
//! constructor), so the tailorings of other locales are not linked in.
//! Of the Intl.Collator options, `sensitivity` and `ignorePunctuation`
//! change the comparison; `usage`, `localeMatcher`, `collation`, `numeric`
//! and `caseFirst` are read and checked but, needing locale-resolved
//! collation data, do not change it.

use std::cmp::Ordering;

use icu_collator::CollatorBorrowed;
use icu_collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};

use super::OptionReader;
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The root collator with the default options, built at compile time.
const ROOT: CollatorBorrowed<'static> = CollatorBorrowed::new_root(CollatorOptions::default());

/// The collator `localeCompare(that, locales, options)` compares with:
/// InitializeCollator's reading of `locales` and `options` (ECMA-402
/// §10.1.2), in its order.
pub(crate) fn collator(vm: &mut Vm, locales: Value, options: Value) -> JsResult<CollatorBorrowed<'static>> {
    super::canonicalize_locale_list(vm, locales)?;
    if options.is_undefined() {
        return Ok(ROOT);
    }
    let reader = OptionReader::new(vm, options, "String.prototype.localeCompare")?;
    reader.string(vm, "usage", &["sort", "search"], 0)?;
    reader.string(vm, "localeMatcher", &["lookup", "best fit"], 1)?;
    if let Some(collation) = reader.free_string(vm, "collation")?
        && !super::is_unicode_type_sequence(&collation)
    {
        return Err(vm.range_error(&format!("Invalid collation : {collation}")));
    }
    reader.boolean(vm, "numeric")?;
    reader.string(vm, "caseFirst", &["upper", "lower", "false"], 2)?;
    let sensitivity = reader.string(vm, "sensitivity", &["base", "accent", "case", "variant"], 3)?;
    let ignore_punctuation = reader.boolean(vm, "ignorePunctuation")?.unwrap_or(false);
    let mut options = CollatorOptions::default();
    // base: letters only; accent: and accents; case: letters and case;
    // variant: everything (tertiary, the default).
    match sensitivity {
        0 => options.strength = Some(Strength::Primary),
        1 => options.strength = Some(Strength::Secondary),
        2 => {
            options.strength = Some(Strength::Primary);
            options.case_level = Some(CaseLevel::On);
        }
        _ => {}
    }
    if ignore_punctuation {
        options.alternate_handling = Some(AlternateHandling::Shifted);
    }
    Ok(CollatorBorrowed::new_root(options))
}

/// Compares two strings with `collator`.
pub(crate) fn compare(collator: &CollatorBorrowed<'static>, a: JsStr<'_>, b: JsStr<'_>) -> Ordering {
    match (a, b) {
        (JsStr::Latin1(a), JsStr::Latin1(b)) => collator.compare_latin1(a, b),
        (JsStr::Latin1(a), JsStr::Utf16(b)) => collator.compare_latin1_utf16(a, b),
        (JsStr::Utf16(a), JsStr::Latin1(b)) => collator.compare_latin1_utf16(b, a).reverse(),
        (JsStr::Utf16(a), JsStr::Utf16(b)) => {
            collator.compare_utf16(a, b).then_with(|| replacement_order(a).cmp(&replacement_order(b)))
        }
    }
}

/// ICU4X compares a lone surrogate as U+FFFD; ICU4C (node) gives each its
/// own weight as an unassigned code point, ordered by value and below
/// U+FFFD. When the strings tie, their lone surrogates and U+FFFDs, in
/// order, decide as those weights would.
fn replacement_order(units: &[u16]) -> Vec<u16> {
    char::decode_utf16(units.iter().copied())
        .filter_map(|c| match c {
            Err(lone) => Some(lone.unpaired_surrogate()),
            Ok('\u{FFFD}') => Some(0xFFFD),
            Ok(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(a: &str, b: &str) -> Ordering {
        let a: Vec<u16> = a.encode_utf16().collect();
        let b: Vec<u16> = b.encode_utf16().collect();
        compare(&ROOT, JsStr::Utf16(&a), JsStr::Utf16(&b))
    }

    #[test]
    fn root_order() {
        assert_eq!(cmp("a", "B"), Ordering::Less);
        assert_eq!(cmp("a", "A"), Ordering::Less);
        assert_eq!(cmp("résumé", "resume"), Ordering::Greater);
        assert_eq!(cmp("e\u{301}", "\u{e9}"), Ordering::Equal);
        assert_eq!(cmp("10", "9"), Ordering::Less);
        assert_eq!(compare(&ROOT, JsStr::Latin1(b"\xe9"), JsStr::Latin1(b"f")), Ordering::Less);
        assert_eq!(compare(&ROOT, JsStr::Latin1(b"z"), JsStr::Utf16(&[0x3B1])), Ordering::Less);
    }

    #[test]
    fn lone_surrogates_order_by_value_below_the_replacement_character() {
        let utf16 = |a: &[u16], b: &[u16]| compare(&ROOT, JsStr::Utf16(a), JsStr::Utf16(b));
        assert_eq!(utf16(&[0xD800], &[0xD801]), Ordering::Less);
        assert_eq!(utf16(&[0xDC00], &[0xFFFD]), Ordering::Less);
        assert_eq!(utf16(&[0xFFFD], &[0xD800]), Ordering::Greater);
        assert_eq!(utf16(&[0x65, 0x301, 0xD800], &[0xE9, 0xD800]), Ordering::Equal);
    }
}
