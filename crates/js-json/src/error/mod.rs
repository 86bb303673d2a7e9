//! The errors JSON operations raise, before the host turns them into its
//! own exception values with [`crate::JsonHost::error`].
//!
//! Every variant holds plain data; the message is formatted only when the
//! host asks for it (`Display`), on the cold path.

/// Which ECMAScript error constructor a [`JsonError`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// `TypeError`.
    TypeError,
    /// `RangeError`.
    RangeError,
    /// `SyntaxError`.
    SyntaxError,
}

/// An error raised by `stringify`, `parse` or raw-JSON validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// `stringify` met an object already being serialized (TypeError).
    #[error("Converting circular structure to JSON")]
    Cycle,
    /// `stringify` met a BigInt with no `toJSON` (TypeError).
    #[error("Do not know how to serialize a BigInt")]
    BigInt,
    /// Nesting went past the configured limit (RangeError).
    #[error("JSON nesting deeper than {limit} levels")]
    TooDeep {
        /// The limit in force.
        limit: usize,
    },
    /// `parse` (or `JSON.rawJSON`) met malformed text (SyntaxError).
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
}

impl JsonError {
    /// The ECMAScript error kind to construct.
    pub fn kind(&self) -> ErrorKind {
        match self {
            JsonError::Cycle | JsonError::BigInt => ErrorKind::TypeError,
            JsonError::TooDeep { .. } => ErrorKind::RangeError,
            JsonError::Syntax(_) => ErrorKind::SyntaxError,
        }
    }
}

/// Malformed JSON text: what was wrong and at which code unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{kind} in JSON at position {position}")]
pub struct SyntaxError {
    /// What the parser met.
    pub kind: SyntaxErrorKind,
    /// Index of the offending code unit in the source text.
    pub position: usize,
}

/// What made JSON text malformed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxErrorKind {
    /// The text ended where a value or token was expected.
    #[error("Unexpected end of input")]
    UnexpectedEnd,
    /// A character that cannot start or continue a token here.
    #[error("Unexpected token {}", display_unit(*.0))]
    UnexpectedCharacter(u16),
    /// Text follows the top-level value.
    #[error("Unexpected non-whitespace character after value")]
    TrailingCharacters,
    /// A string was not closed before the end of the text.
    #[error("Unterminated string")]
    UnterminatedString,
    /// A control character (below U+0020) inside a string.
    #[error("Bad control character in string literal")]
    ControlCharacterInString,
    /// A backslash not followed by a valid escape.
    #[error("Bad escaped character")]
    InvalidEscape,
    /// A number that does not follow the JSON grammar.
    #[error("Invalid number")]
    InvalidNumber,
    /// `JSON.rawJSON` text that is empty or starts or ends with whitespace.
    #[error("JSON.rawJSON text is empty or has surrounding whitespace")]
    RawJsonWhitespace,
    /// `JSON.rawJSON` text that is an object or array.
    #[error("JSON.rawJSON text is not a primitive value")]
    RawJsonNotPrimitive,
}

/// `'c'` for a printable character, `U+XXXX` for a lone surrogate.
fn display_unit(unit: u16) -> String {
    match char::from_u32(u32::from(unit)) {
        Some(c) => format!("'{c}'"),
        None => format!("U+{unit:04X}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_position() {
        let error =
            JsonError::from(SyntaxError { kind: SyntaxErrorKind::UnexpectedCharacter(u16::from(b'x')), position: 7 });
        assert_eq!(error.to_string(), "Unexpected token 'x' in JSON at position 7");
        assert_eq!(error.kind(), ErrorKind::SyntaxError);
        let lone = SyntaxError { kind: SyntaxErrorKind::UnexpectedCharacter(0xD800), position: 0 };
        assert_eq!(lone.to_string(), "Unexpected token U+D800 in JSON at position 0");
        assert_eq!(JsonError::TooDeep { limit: 3 }.kind(), ErrorKind::RangeError);
        assert_eq!(JsonError::Cycle.kind(), ErrorKind::TypeError);
    }
}
