//! Number formatting for `Number.prototype.toLocaleString` and
//! `BigInt.prototype.toLocaleString` (ECMA-402 §20.2.1, §21.1.1): the
//! options of InitializeNumberFormat and SetNumberFormatDigitOptions, the
//! rounding of FormatNumericToString, and `icu_decimal` for the en digits,
//! grouping and signs.
//!
//! Supported: `style` "decimal" and "percent"; `notation` "standard",
//! "scientific" and "engineering"; every digit, rounding, grouping and sign
//! option. The "currency" and "unit" styles and "compact" notation are
//! validated as ECMA-402 says and then refused with a RangeError: they need
//! currency, unit and compact-pattern data the binary does not carry.

use fixed_decimal::{RoundingIncrement, Sign, SignedRoundingMode, UnsignedRoundingMode};
use icu_decimal::DecimalFormatter;
use icu_decimal::input::Decimal;
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu_locale_core::locale;
use num_bigint::BigInt;

use super::OptionReader;
use crate::abstract_ops::{to_boolean, to_number};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Which of the digit limits decide where a number is rounded
/// (`[[RoundingType]]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoundingType {
    FractionDigits,
    SignificantDigits,
    MorePrecision,
    LessPrecision,
}

/// `[[SignDisplay]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SignDisplay {
    Auto,
    Never,
    Always,
    ExceptZero,
    Negative,
}

/// `[[Notation]]`, without "compact" (refused when the options are read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Notation {
    Standard,
    Scientific,
    Engineering,
}

/// The resolved options of an ECMA-402 NumberFormat, as far as
/// formatting in en needs them.
#[derive(Debug, Clone)]
pub(crate) struct NumberFormat {
    percent: bool,
    notation: Notation,
    minimum_integer_digits: i16,
    minimum_fraction_digits: i16,
    maximum_fraction_digits: i16,
    minimum_significant_digits: i16,
    maximum_significant_digits: i16,
    rounding_type: RoundingType,
    rounding_increment: u16,
    rounding_mode: SignedRoundingMode,
    strip_if_integer: bool,
    grouping: GroupingStrategy,
    sign_display: SignDisplay,
}

/// DefaultNumberOption(value, minimum, maximum, fallback).
fn default_number_option(vm: &mut Vm, value: Value, name: &str, range: (i16, i16)) -> JsResult<Option<i16>> {
    if value.is_undefined() {
        return Ok(None);
    }
    let n = to_number(vm, value)?;
    if n.is_nan() || n < f64::from(range.0) || n > f64::from(range.1) {
        return Err(vm.range_error(&format!("{name} value is out of range.")));
    }
    Ok(Some(n.floor() as i16))
}

/// The values `roundingIncrement` may take (SetNumberFormatDigitOptions
/// step 8).
const ROUNDING_INCREMENTS: [u16; 15] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000];

/// The `roundingMode` names, in the order of [`ROUNDING_MODES`].
const ROUNDING_MODE_NAMES: [&str; 9] =
    ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"];

/// The rounding modes, in fixed_decimal's signed terms (it applies the
/// sign itself, as GetUnsignedRoundingMode would).
const ROUNDING_MODES: [SignedRoundingMode; 9] = [
    SignedRoundingMode::Ceil,
    SignedRoundingMode::Floor,
    SignedRoundingMode::Unsigned(UnsignedRoundingMode::Expand),
    SignedRoundingMode::Unsigned(UnsignedRoundingMode::Trunc),
    SignedRoundingMode::HalfCeil,
    SignedRoundingMode::HalfFloor,
    SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand),
    SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfTrunc),
    SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfEven),
];

impl NumberFormat {
    /// InitializeNumberFormat(locales, options) for the en formatter every
    /// locale uses here; `method` names the caller in error messages.
    pub(crate) fn new(vm: &mut Vm, locales: Value, options: Value, method: &str) -> JsResult<Self> {
        super::canonicalize_locale_list(vm, locales)?;
        let reader = OptionReader::new(vm, options, method)?;
        reader.string(vm, "localeMatcher", &["lookup", "best fit"], 1)?;
        if let Some(system) = reader.free_string(vm, "numberingSystem")?
            && !super::is_unicode_type_sequence(&system)
        {
            return Err(vm.range_error(&format!("Invalid numberingSystem : {system}")));
        }
        let style = read_unit_options(vm, &reader)?;
        let notation = reader.string(vm, "notation", &["standard", "scientific", "engineering", "compact"], 0)?;
        let (fraction_default_max, percent) = match style {
            Style::Percent => (0, true),
            Style::Decimal => (3, false),
        };
        let mut format = Self {
            percent,
            notation: match notation {
                0 => Notation::Standard,
                1 => Notation::Scientific,
                2 => Notation::Engineering,
                _ => return Err(vm.range_error("notation \"compact\" is not supported")),
            },
            minimum_integer_digits: 1,
            minimum_fraction_digits: 0,
            maximum_fraction_digits: fraction_default_max,
            minimum_significant_digits: 1,
            maximum_significant_digits: 21,
            rounding_type: RoundingType::FractionDigits,
            rounding_increment: 1,
            rounding_mode: ROUNDING_MODES[6],
            strip_if_integer: false,
            grouping: GroupingStrategy::Auto,
            sign_display: SignDisplay::Auto,
        };
        format.read_digit_options(vm, &reader, 0, fraction_default_max)?;
        reader.string(vm, "compactDisplay", &["short", "long"], 0)?;
        format.grouping = read_use_grouping(vm, &reader)?;
        let sign = reader.string(vm, "signDisplay", &["auto", "never", "always", "exceptZero", "negative"], 0)?;
        format.sign_display = [
            SignDisplay::Auto,
            SignDisplay::Never,
            SignDisplay::Always,
            SignDisplay::ExceptZero,
            SignDisplay::Negative,
        ][sign];
        Ok(format)
    }

    /// SetNumberFormatDigitOptions(intlObj, options, mnfdDefault,
    /// mxfdDefault, notation) for a notation other than "compact".
    fn read_digit_options(
        &mut self,
        vm: &mut Vm,
        reader: &OptionReader<'_>,
        fraction_default_min: i16,
        mut fraction_default_max: i16,
    ) -> JsResult<()> {
        let mnid = reader.get(vm, "minimumIntegerDigits")?;
        self.minimum_integer_digits = default_number_option(vm, mnid, "minimumIntegerDigits", (1, 21))?.unwrap_or(1);
        let mnfd = reader.get(vm, "minimumFractionDigits")?;
        let mxfd = reader.get(vm, "maximumFractionDigits")?;
        let mnsd = reader.get(vm, "minimumSignificantDigits")?;
        let mxsd = reader.get(vm, "maximumSignificantDigits")?;
        let increment = reader.get(vm, "roundingIncrement")?;
        let increment = default_number_option(vm, increment, "roundingIncrement", (1, 5000))?.unwrap_or(1);
        let increment = increment as u16;
        if !ROUNDING_INCREMENTS.contains(&increment) {
            return Err(vm.range_error("roundingIncrement value is out of range."));
        }
        self.rounding_increment = increment;
        self.rounding_mode = ROUNDING_MODES[reader.string(vm, "roundingMode", &ROUNDING_MODE_NAMES, 6)?];
        let priority = reader.string(vm, "roundingPriority", &["auto", "morePrecision", "lessPrecision"], 0)?;
        self.strip_if_integer = reader.string(vm, "trailingZeroDisplay", &["auto", "stripIfInteger"], 0)? == 1;
        if increment != 1 {
            fraction_default_max = fraction_default_min;
        }
        let has_sd = !mnsd.is_undefined() || !mxsd.is_undefined();
        let has_fd = !mnfd.is_undefined() || !mxfd.is_undefined();
        // roundingPriority "auto" uses one kind of limit; the others both.
        let need_sd = priority != 0 || has_sd;
        let need_fd = priority != 0 || !has_sd;
        if need_sd && has_sd {
            let min = default_number_option(vm, mnsd, "minimumSignificantDigits", (1, 21))?.unwrap_or(1);
            let max = default_number_option(vm, mxsd, "maximumSignificantDigits", (min, 21))?.unwrap_or(21);
            self.minimum_significant_digits = min;
            self.maximum_significant_digits = max;
        }
        if need_fd {
            if has_fd {
                let min = default_number_option(vm, mnfd, "minimumFractionDigits", (0, 100))?;
                let max = default_number_option(vm, mxfd, "maximumFractionDigits", (0, 100))?;
                let (min, max) = match (min, max) {
                    (None, Some(max)) => (fraction_default_min.min(max), max),
                    (Some(min), None) => (min, fraction_default_max.max(min)),
                    (Some(min), Some(max)) if min > max => {
                        return Err(vm.range_error("maximumFractionDigits value is out of range."));
                    }
                    (min, max) => (min.unwrap_or(fraction_default_min), max.unwrap_or(fraction_default_max)),
                };
                self.minimum_fraction_digits = min;
                self.maximum_fraction_digits = max;
            } else {
                self.minimum_fraction_digits = fraction_default_min;
                self.maximum_fraction_digits = fraction_default_max;
            }
        }
        self.rounding_type = match priority {
            0 if need_sd => RoundingType::SignificantDigits,
            0 => RoundingType::FractionDigits,
            1 => RoundingType::MorePrecision,
            _ => RoundingType::LessPrecision,
        };
        if increment != 1 {
            if self.rounding_type != RoundingType::FractionDigits {
                return Err(vm.type_error("RoundingType is not fractionDigits"));
            }
            if self.maximum_fraction_digits != self.minimum_fraction_digits {
                return Err(vm.range_error("maximumFractionDigits not equal to minimumFractionDigits"));
            }
        }
        Ok(())
    }

    /// FormatNumeric(numberFormat, x) for a Number.
    pub(crate) fn format_number(&self, x: f64) -> String {
        if x.is_nan() {
            return self.decorate("NaN", self.sign_for(false, false, true));
        }
        let negative = x.is_sign_negative();
        if x.is_infinite() {
            return self.decorate("∞", self.sign_for(negative, false, false));
        }
        // ToIntlMathematicalValue reads a Number through Number::toString,
        // so 1.005 formats as the decimal 1.005, not the double's exact value.
        let mut decimal = if x == 0.0 {
            Decimal::from(0u8)
        } else {
            let (digits, exponent) = crate::builtins::exact_decimal::shortest_digits(x.abs());
            let text = String::from_utf8_lossy(&digits);
            let mut d = Decimal::try_from_str(&text).unwrap_or_else(|_| Decimal::from(0u8));
            d.multiply_pow10((exponent + 1 - digits.len() as i32) as i16);
            d
        };
        if negative {
            decimal.sign = Sign::Negative;
        }
        self.format_decimal(decimal)
    }

    /// FormatNumeric(numberFormat, x) for a BigInt; `None` when it has more
    /// digits than a decimal can hold (about 32 000).
    pub(crate) fn format_bigint(&self, n: &BigInt) -> Option<String> {
        let mut decimal = Decimal::try_from_str(&n.magnitude().to_string()).ok()?;
        if n.sign() == num_bigint::Sign::Minus {
            decimal.sign = Sign::Negative;
        }
        Some(self.format_decimal(decimal))
    }

    /// PartitionNumberPattern for a finite decimal carrying its sign.
    fn format_decimal(&self, mut x: Decimal) -> String {
        // The sign stays on while rounding: ceil and floor depend on it.
        let negative = x.sign == Sign::Negative;
        if self.percent {
            x.multiply_pow10(2);
        }
        let exponent = self.compute_exponent(&x);
        x.multiply_pow10(-exponent);
        self.round(&mut x);
        if self.strip_if_integer && x.nonzero_magnitude_end() >= 0 {
            x.trim_end();
        }
        x.pad_start(self.minimum_integer_digits);
        x.sign = self.sign_for(negative, x.is_zero(), false);
        let mut options = DecimalFormatterOptions::default();
        options.grouping_strategy = Some(self.grouping);
        let Ok(formatter) = DecimalFormatter::try_new(locale!("en").into(), options) else {
            // The en data is compiled in; without it, the plain digits.
            return x.to_string();
        };
        let mut text = formatter.format_to_string(&x);
        if self.notation != Notation::Standard {
            text.push('E');
            text.push_str(&exponent.to_string());
        }
        if self.percent {
            text.push('%');
        }
        text
    }

    /// The sign to show (GetNumberFormatPattern's choice of pattern).
    fn sign_for(&self, negative: bool, zero: bool, nan: bool) -> Sign {
        let shown = match self.sign_display {
            SignDisplay::Never => false,
            SignDisplay::Auto | SignDisplay::Always => true,
            SignDisplay::ExceptZero => !zero && !nan,
            SignDisplay::Negative => negative && !zero,
        };
        let plus = matches!(self.sign_display, SignDisplay::Always | SignDisplay::ExceptZero);
        if !shown {
            Sign::None
        } else if negative {
            Sign::Negative
        } else if plus {
            Sign::Positive
        } else {
            Sign::None
        }
    }

    /// NaN and ∞ with the sign the pattern gives them.
    fn decorate(&self, body: &str, sign: Sign) -> String {
        let sign = match sign {
            Sign::Negative => "-",
            Sign::Positive => "+",
            Sign::None => "",
        };
        let percent = if self.percent { "%" } else { "" };
        format!("{sign}{body}{percent}")
    }

    /// ComputeExponent(numberFormat, x): the power of ten the scientific
    /// and engineering notations factor out (0 for standard notation),
    /// taking into account that rounding may carry into a new digit.
    fn compute_exponent(&self, x: &Decimal) -> i16 {
        if self.notation == Notation::Standard || x.is_zero() {
            return 0;
        }
        let magnitude = x.nonzero_magnitude_start();
        let exponent = self.exponent_for_magnitude(magnitude);
        let mut rounded = x.clone();
        rounded.multiply_pow10(-exponent);
        self.round(&mut rounded);
        if rounded.is_zero() || rounded.nonzero_magnitude_start() == magnitude - exponent {
            return exponent;
        }
        self.exponent_for_magnitude(magnitude + 1)
    }

    /// ComputeExponentForMagnitude for the scientific and engineering notations.
    fn exponent_for_magnitude(&self, magnitude: i16) -> i16 {
        match self.notation {
            Notation::Engineering => magnitude.div_euclid(3) * 3,
            _ => magnitude,
        }
    }

    /// FormatNumericToString's rounding: to the fraction or significant
    /// digit limits, or whichever of the two keeps more (or less) precision.
    fn round(&self, x: &mut Decimal) {
        match self.rounding_type {
            RoundingType::FractionDigits => {
                self.round_fraction(x);
            }
            RoundingType::SignificantDigits => {
                self.round_significant(x);
            }
            RoundingType::MorePrecision | RoundingType::LessPrecision => {
                let mut fixed = x.clone();
                let fixed_magnitude = self.round_fraction(&mut fixed);
                let significant_magnitude = self.round_significant(x);
                let fixed_is_more_precise = fixed_magnitude < significant_magnitude;
                if fixed_is_more_precise == (self.rounding_type == RoundingType::MorePrecision) {
                    *x = fixed;
                }
            }
        }
    }

    /// ToRawFixed: rounds at the maximum fraction digits (in steps of the
    /// rounding increment), keeps at least the minimum; returns the
    /// rounding magnitude.
    fn round_fraction(&self, x: &mut Decimal) -> i16 {
        // An increment is 1, 2, 5 or 25 times a power of ten; the power
        // moves the rounding position left.
        let mut base = self.rounding_increment;
        let mut shift = 0;
        while base.is_multiple_of(10) {
            base /= 10;
            shift += 1;
        }
        let increment = match base {
            2 => RoundingIncrement::MultiplesOf2,
            5 => RoundingIncrement::MultiplesOf5,
            25 => RoundingIncrement::MultiplesOf25,
            _ => RoundingIncrement::MultiplesOf1,
        };
        let position = shift - self.maximum_fraction_digits;
        x.round_with_mode_and_increment(position, self.rounding_mode, increment);
        x.pad_end(-self.minimum_fraction_digits);
        -self.maximum_fraction_digits
    }

    /// ToRawPrecision: rounds to the maximum significant digits, keeps at
    /// least the minimum; returns the rounding magnitude.
    fn round_significant(&self, x: &mut Decimal) -> i16 {
        let leading = |x: &Decimal| if x.is_zero() { 0 } else { x.nonzero_magnitude_start() };
        x.round_with_mode(leading(x) - self.maximum_significant_digits + 1, self.rounding_mode);
        let e = leading(x);
        x.pad_end((e - self.minimum_significant_digits + 1).min(0));
        e - self.maximum_significant_digits + 1
    }
}

/// The styles formatted here.
enum Style {
    Decimal,
    Percent,
}

/// SetNumberFormatUnitOptions: "currency" and "unit" are read and checked
/// as ECMA-402 says, then refused.
fn read_unit_options(vm: &mut Vm, reader: &OptionReader<'_>) -> JsResult<Style> {
    let style = reader.string(vm, "style", &["decimal", "percent", "currency", "unit"], 0)?;
    let currency = reader.free_string(vm, "currency")?;
    match &currency {
        None if style == 2 => return Err(vm.type_error("Currency code is required with currency style.")),
        Some(code) if !(code.len() == 3 && code.bytes().all(|b| b.is_ascii_alphabetic())) => {
            return Err(vm.range_error(&format!("Invalid currency code : {code}")));
        }
        _ => {}
    }
    reader.string(vm, "currencyDisplay", &["code", "symbol", "narrowSymbol", "name"], 1)?;
    reader.string(vm, "currencySign", &["standard", "accounting"], 0)?;
    let unit = reader.free_string(vm, "unit")?;
    if unit.is_none() && style == 3 {
        return Err(vm.type_error("Invalid unit argument for Number.prototype.toLocaleString() ''"));
    }
    reader.string(vm, "unitDisplay", &["short", "narrow", "long"], 0)?;
    match style {
        0 => Ok(Style::Decimal),
        1 => Ok(Style::Percent),
        _ => Err(vm.range_error("the \"currency\" and \"unit\" styles are not supported")),
    }
}

/// GetBooleanOrStringNumberFormatOption(options, "useGrouping", …, "auto").
fn read_use_grouping(vm: &mut Vm, reader: &OptionReader<'_>) -> JsResult<GroupingStrategy> {
    let value = reader.get(vm, "useGrouping")?;
    if value.is_undefined() {
        return Ok(GroupingStrategy::Auto);
    }
    if value.as_boolean() == Some(true) {
        return Ok(GroupingStrategy::Always);
    }
    if !to_boolean(vm, value) {
        return Ok(GroupingStrategy::Never);
    }
    let text = vm.rust_string(value)?;
    match text.as_str() {
        "min2" => Ok(GroupingStrategy::Min2),
        "always" => Ok(GroupingStrategy::Always),
        // "true" and "false" fall back to the default.
        "auto" | "true" | "false" => Ok(GroupingStrategy::Auto),
        _ => Err(
            vm.range_error(&format!("Value {text} out of range for {} options property useGrouping", reader.method()))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The completion value as `console.log` prints it, or the thrown
    /// value's description.
    fn format(source: &str) -> String {
        let mut vm = Vm::new();
        match vm.eval_script("test.js", source) {
            Ok(v) => v.display(&mut vm),
            Err(crate::JsError::Throw(v)) => format!("threw {}", v.describe_uncaught(&mut vm)),
            Err(_) => "abrupt".to_owned(),
        }
    }

    #[test]
    fn fraction_digits_go_up_to_100_as_ecma_402_now_says() {
        // Node 20 (an older ECMA-402) stops at 20 and throws a RangeError.
        assert_eq!(
            format("(1.5).toLocaleString(undefined, {maximumFractionDigits: 25, minimumFractionDigits: 25})"),
            format!("1.5{}", "0".repeat(24))
        );
        assert_eq!(format("(1).toLocaleString(undefined, {maximumFractionDigits: 100})"), "1");
        assert!(format("(1).toLocaleString(undefined, {maximumFractionDigits: 101})").contains("RangeError"));
    }

    #[test]
    fn options_are_read_in_the_order_ecma_402_gives() {
        // Node 20 reads roundingIncrement before notation and roundingMode
        // last; the current SetNumberFormatDigitOptions reads them as here.
        let order = format(
            "const seen = []; \
             (1).toLocaleString(undefined, new Proxy({}, {get(t, k) { seen.push(k); } })); seen.join()",
        );
        assert_eq!(
            order,
            "localeMatcher,numberingSystem,style,currency,currencyDisplay,currencySign,unit,unitDisplay,notation,\
             minimumIntegerDigits,minimumFractionDigits,maximumFractionDigits,minimumSignificantDigits,\
             maximumSignificantDigits,roundingIncrement,roundingMode,roundingPriority,trailingZeroDisplay,\
             compactDisplay,useGrouping,signDisplay"
        );
    }

    #[test]
    fn unsupported_styles_and_notations_are_range_errors() {
        for options in
            ["{style: 'currency', currency: 'USD'}", "{style: 'unit', unit: 'meter'}", "{notation: 'compact'}"]
        {
            let text = format(&format!("(1).toLocaleString(undefined, {options})"));
            assert!(text.contains("RangeError"), "{options}: {text}");
        }
    }
}
