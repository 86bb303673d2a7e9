//! Locale-sensitive operations backed by ICU4X with compiled data:
//! number formatting (`icu_decimal`), collation (`icu_collator`), case
//! mapping (`icu_casemap`) and normalization (`icu_normalizer`).
//!
//! The engine has no `Intl` object yet; these are the pieces the built-in
//! `toLocaleString`, `localeCompare`, `toLocaleUpperCase`/`LowerCase` and
//! `normalize` methods need, shaped after ECMA-402 so that a later `Intl`
//! can build on them.
//!
//! Locales: a `locales` argument is checked and canonicalized as
//! ECMA-402's CanonicalizeLocaleList does (a malformed tag is a RangeError,
//! a non-string element a TypeError), but every locale formats and collates
//! as `en` (root collation, en-US number symbols and grouping) — the only
//! locale whose data the binary carries. Case mapping is the exception: it
//! honours the language-specific rules of tr, az, lt and el, which ICU4X's
//! case-mapping data holds for every locale at no extra size.

pub(crate) mod case_mapping;
pub(crate) mod collation;
pub(crate) mod normalization;
pub(crate) mod number_format;

use icu_locale_core::Locale;
use js_gc::Gc;

use crate::object::JsObject;
use crate::object::internal_methods::{get, has_property, length_of_array_like};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Reads the options object one property at a time, as GetOption does.
pub(crate) struct OptionReader<'a> {
    options: Option<Gc<JsObject>>,
    /// The method the options belong to, for error messages.
    method: &'a str,
}

impl<'a> OptionReader<'a> {
    /// CoerceOptionsToObject(options): undefined reads as an empty object.
    pub(crate) fn new(vm: &mut Vm, options: Value, method: &'a str) -> JsResult<Self> {
        if options.is_undefined() {
            return Ok(Self { options: None, method });
        }
        if options.is_null() {
            return Err(vm.type_error(&format!("{method} called on null or undefined")));
        }
        let o = crate::abstract_ops::to_object(vm, options)?;
        vm.keep_alive(Value::object(o));
        Ok(Self { options: Some(o), method })
    }

    /// The method the options belong to.
    pub(crate) fn method(&self) -> &'a str {
        self.method
    }

    /// GetOption(options, name, boolean, empty, undefined).
    pub(crate) fn boolean(&self, vm: &mut Vm, name: &str) -> JsResult<Option<bool>> {
        let value = self.get(vm, name)?;
        Ok(if value.is_undefined() { None } else { Some(crate::abstract_ops::to_boolean(vm, value)) })
    }

    /// `Get(options, name)`.
    pub(crate) fn get(&self, vm: &mut Vm, name: &str) -> JsResult<Value> {
        let Some(o) = self.options else { return Ok(Value::UNDEFINED) };
        let key = vm.key(name);
        get(vm, o, key, Value::object(o))
    }

    /// GetOption(options, name, string, values, fallback), as an index
    /// into `values`.
    pub(crate) fn string(&self, vm: &mut Vm, name: &str, values: &[&str], fallback: usize) -> JsResult<usize> {
        let value = self.get(vm, name)?;
        if value.is_undefined() {
            return Ok(fallback);
        }
        let text = vm.rust_string(value)?;
        values.iter().position(|v| *v == text).ok_or_else(|| {
            vm.range_error(&format!("Value {text} out of range for {} options property {name}", self.method))
        })
    }

    /// GetOption(options, name, string, empty, undefined).
    pub(crate) fn free_string(&self, vm: &mut Vm, name: &str) -> JsResult<Option<String>> {
        let value = self.get(vm, name)?;
        if value.is_undefined() { Ok(None) } else { vm.rust_string(value).map(Some) }
    }
}

/// CanonicalizeLocaleList(locales) (ECMA-402 §9.2.1): the requested
/// locales, canonicalized, without duplicates, in order.
pub(crate) fn canonicalize_locale_list(vm: &mut Vm, locales: Value) -> JsResult<Vec<Locale>> {
    if locales.is_undefined() {
        return Ok(Vec::new());
    }
    if locales.is_string() {
        let tag = vm.rust_string(locales)?;
        return Ok(vec![parse_language_tag(vm, &tag)?]);
    }
    let o = crate::abstract_ops::to_object(vm, locales)?;
    vm.keep_alive(Value::object(o));
    let len = length_of_array_like(vm, o)?;
    let mut seen: Vec<Locale> = Vec::new();
    let mut k = 0.0;
    while k < len {
        let key = super::function::index_key(vm, k as u64);
        if has_property(vm, o, key)? {
            let value = get(vm, o, key, Value::object(o))?;
            if !value.is_string() && !value.is_object() {
                return Err(vm.type_error("Language ID should be string or object."));
            }
            let tag = vm.rust_string(value)?;
            let locale = parse_language_tag(vm, &tag)?;
            if !seen.contains(&locale) {
                seen.push(locale);
            }
        }
        k += 1.0;
    }
    Ok(seen)
}

/// IsStructurallyValidLanguageTag and CanonicalizeUnicodeLocaleId: ICU4X
/// parses exactly the BCP 47 form of a Unicode locale identifier (`-`
/// separators only) and canonicalizes subtag case and order.
fn parse_language_tag(vm: &mut Vm, tag: &str) -> JsResult<Locale> {
    match Locale::try_from_str(tag) {
        Ok(locale) if !has_duplicate_variants(&locale) => Ok(locale),
        _ => Err(vm.range_error("Incorrect locale information provided")),
    }
}

/// ECMA-402 rejects a tag that repeats a variant subtag (`de-1996-1996`).
fn has_duplicate_variants(locale: &Locale) -> bool {
    let variants = &locale.id.variants;
    variants.iter().enumerate().any(|(i, v)| variants.iter().skip(i + 1).any(|w| w == v))
}

/// The language of the first requested locale, the one TransformCase
/// (ECMA-402 §19.1.2.1) maps case for; `None` for the default locale.
pub(crate) fn requested_language(vm: &mut Vm, locales: Value) -> JsResult<Option<icu_locale_core::subtags::Language>> {
    Ok(canonicalize_locale_list(vm, locales)?.first().map(|l| l.id.language))
}

/// `(3*8alphanum) *("-" (3*8alphanum))`: the form of a numberingSystem or collation.
pub(crate) fn is_unicode_type_sequence(s: &str) -> bool {
    s.split('-').all(|part| (3..=8).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_alphanumeric()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_tags_are_checked_and_canonicalized() {
        let mut vm = Vm::new();
        for good in ["en", "en-US", "tr", "zh-Hant-TW", "de-u-co-phonebk", "und", "sr-Latn-RS-1996"] {
            assert!(parse_language_tag(&mut vm, good).is_ok(), "{good}");
        }
        for bad in ["x_y", "en_US", "", "root", "en-", "de-1996-1996", "a", "toolongtag1"] {
            assert!(parse_language_tag(&mut vm, bad).is_err(), "{bad}");
        }
        let canonical = parse_language_tag(&mut vm, "EN-latn-us").map(|l| l.to_string()).unwrap_or_default();
        assert_eq!(canonical, "en-Latn-US");
    }

    #[test]
    fn numbering_systems_are_unicode_type_sequences() {
        assert!(is_unicode_type_sequence("latn"));
        assert!(is_unicode_type_sequence("abc-defghijk"));
        assert!(!is_unicode_type_sequence("a"));
        assert!(!is_unicode_type_sequence("latn_x"));
    }
}
