//! Tokens of JSON text (ECMA-404): whitespace, strings, numbers and the
//! three literal names. The lexer knows nothing of the host.

use super::source::{Decoded, SourceUnit};
use crate::error::{SyntaxError, SyntaxErrorKind};
use crate::escape::{self, Kernels};
use crate::text::JsStr;

/// Where a scan inside a string stopped, when that is not an error.
enum Special {
    /// The closing quote.
    Quote,
    /// A backslash.
    Backslash,
}

/// A cursor over JSON source text.
pub(super) struct Lexer<'s, U> {
    source: &'s [U],
    /// Index of the next code unit.
    pub(super) pos: usize,
    kernels: &'static Kernels,
    decoded: Decoded,
    narrowed: Vec<u8>,
    digits: Vec<u8>,
}

#[inline]
fn is_digit(unit: u16) -> bool {
    (u16::from(b'0')..=u16::from(b'9')).contains(&unit)
}

/// The value of a hexadecimal digit.
fn hex_value(unit: u16) -> Option<u16> {
    char::from_u32(u32::from(unit))?.to_digit(16).map(|digit| digit as u16)
}

impl<'s, U: SourceUnit> Lexer<'s, U> {
    pub(super) fn new(source: &'s [U]) -> Self {
        Lexer {
            source,
            pos: 0,
            kernels: escape::active(),
            decoded: Decoded::default(),
            narrowed: Vec::new(),
            digits: Vec::new(),
        }
    }

    /// The code unit at `index`, if any.
    #[inline]
    fn unit(&self, index: usize) -> Option<u16> {
        self.source.get(index).map(|&unit| unit.into())
    }

    /// The next code unit, if any.
    #[inline]
    pub(super) fn peek(&self) -> Option<u16> {
        self.unit(self.pos)
    }

    /// Whether the whole text has been read.
    pub(super) fn at_end(&self) -> bool {
        self.pos == self.source.len()
    }

    pub(super) fn error(kind: SyntaxErrorKind, position: usize) -> SyntaxError {
        SyntaxError { kind, position }
    }

    /// The error for whatever is at `position`: the end of the text or an
    /// unexpected character.
    pub(super) fn unexpected_at(&self, position: usize) -> SyntaxError {
        match self.unit(position) {
            None => Self::error(SyntaxErrorKind::UnexpectedEnd, position),
            Some(unit) => Self::error(SyntaxErrorKind::UnexpectedCharacter(unit), position),
        }
    }

    /// Skips whitespace: one character inline, longer runs (indentation)
    /// with the SIMD kernel.
    #[inline]
    pub(super) fn skip_whitespace(&mut self) {
        match self.peek() {
            Some(unit) if escape::is_whitespace(unit) => {}
            _ => return,
        }
        self.pos += 1;
        match self.peek() {
            Some(unit) if escape::is_whitespace(unit) => {
                self.pos += U::skip_whitespace(self.kernels, &self.source[self.pos..]);
            }
            _ => {}
        }
    }

    /// Reads `word` (`true`, `false` or `null`) at the cursor.
    pub(super) fn expect_literal(&mut self, word: &[u8]) -> Result<(), SyntaxError> {
        for (offset, &expected) in word.iter().enumerate() {
            if self.unit(self.pos + offset) != Some(u16::from(expected)) {
                return Err(self.unexpected_at(self.pos + offset));
            }
        }
        self.pos += word.len();
        Ok(())
    }

    /// Reads a string whose opening quote is at the cursor and returns its
    /// contents (borrowed from the source when nothing was escaped).
    ///
    /// The clean prefix is found with the scan kernel; from the first
    /// backslash on, the unescape kernel copies clean runs and decodes
    /// two-character escapes, handing back only `\u` escapes, the closing
    /// quote and errors.
    pub(super) fn scan_string(&mut self) -> Result<JsStr<'_>, SyntaxError> {
        let start = self.pos + 1;
        let run = U::find_special(self.kernels, &self.source[start..]);
        let mut pos = start + run.stop;
        match self.special_at(pos)? {
            Special::Quote => {
                self.pos = pos + 1;
                return Ok(U::string_contents(&self.source[start..pos], run.wide, &mut self.narrowed));
            }
            Special::Backslash => {}
        }
        self.decoded.clear();
        U::append_to(&self.source[start..pos], run.wide, &mut self.decoded);
        loop {
            pos = self.decode_escape(pos)?;
            pos += U::unescape(self.kernels, &self.source[pos..], &mut self.decoded);
            if let Special::Quote = self.special_at(pos)? {
                break;
            }
        }
        self.pos = pos + 1;
        Ok(self.decoded.as_js_str())
    }

    /// Classifies the unit where a scan stopped inside a string.
    #[inline]
    fn special_at(&self, pos: usize) -> Result<Special, SyntaxError> {
        match self.unit(pos) {
            Some(0x22) => Ok(Special::Quote),
            Some(0x5C) => Ok(Special::Backslash),
            Some(_) => Err(Self::error(SyntaxErrorKind::ControlCharacterInString, pos)),
            None => Err(Self::error(SyntaxErrorKind::UnterminatedString, pos)),
        }
    }

    /// Decodes the escape sequence whose backslash is at `pos` onto the
    /// decoded string; returns the position after it.
    fn decode_escape(&mut self, pos: usize) -> Result<usize, SyntaxError> {
        let Some(letter) = self.unit(pos + 1) else {
            return Err(Self::error(SyntaxErrorKind::UnterminatedString, pos + 1));
        };
        let unit = match u8::try_from(letter).unwrap_or(0) {
            b'"' => u16::from(b'"'),
            b'\\' => u16::from(b'\\'),
            b'/' => u16::from(b'/'),
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => 0x0A,
            b'r' => 0x0D,
            b't' => 0x09,
            b'u' => {
                let mut value = 0u16;
                for offset in 2..6 {
                    let digit = self.unit(pos + offset).and_then(hex_value);
                    let Some(digit) = digit else {
                        return Err(Self::error(SyntaxErrorKind::InvalidEscape, pos + offset));
                    };
                    value = value << 4 | digit;
                }
                self.decoded.push(value);
                return Ok(pos + 6);
            }
            _ => return Err(Self::error(SyntaxErrorKind::InvalidEscape, pos + 1)),
        };
        self.decoded.push(unit);
        Ok(pos + 2)
    }

    /// Skips decimal digits from `pos`; returns the position after them.
    #[inline]
    fn skip_digits(&self, mut pos: usize) -> usize {
        while self.unit(pos).is_some_and(is_digit) {
            pos += 1;
        }
        pos
    }

    /// Requires at least one digit at `pos`; returns the position after
    /// the digits.
    fn require_digits(&self, pos: usize) -> Result<usize, SyntaxError> {
        let end = self.skip_digits(pos);
        if end == pos {
            return Err(match self.unit(pos) {
                None => Self::error(SyntaxErrorKind::UnexpectedEnd, pos),
                Some(_) => Self::error(SyntaxErrorKind::InvalidNumber, pos),
            });
        }
        Ok(end)
    }

    /// Reads a number at the cursor and returns its value (rounded as
    /// `StringToNumber` does).
    pub(super) fn scan_number(&mut self) -> Result<f64, SyntaxError> {
        let start = self.pos;
        let negative = self.peek() == Some(u16::from(b'-'));
        let digits_start = start + usize::from(negative);
        let mut pos = match self.unit(digits_start) {
            Some(0x30) => digits_start + 1,
            _ => self.require_digits(digits_start)?,
        };
        let integer_end = pos;
        if self.unit(pos) == Some(u16::from(b'.')) {
            pos = self.require_digits(pos + 1)?;
        }
        if matches!(self.unit(pos), Some(0x45 | 0x65)) {
            pos += 1;
            if matches!(self.unit(pos), Some(0x2B | 0x2D)) {
                pos += 1;
            }
            pos = self.require_digits(pos)?;
        }
        self.pos = pos;
        if pos == integer_end && integer_end - digits_start <= 15 {
            // At most 15 digits: exact in an f64, no rounding to do.
            let mut value: u64 = 0;
            for index in digits_start..integer_end {
                value = value * 10 + u64::from(self.source[index].into() - 0x30);
            }
            let magnitude = value as f64;
            return Ok(if negative { -magnitude } else { magnitude });
        }
        self.digits.clear();
        self.digits.extend(self.source[start..pos].iter().map(|&unit| unit.into() as u8));
        let text = std::str::from_utf8(&self.digits).expect("the grammar admits only ASCII");
        Ok(text.parse().expect("the grammar admits only valid numbers"))
    }
}
