//! Borrowed and owned JavaScript string contents in their two widths.

/// A JavaScript string's contents, borrowed: Latin-1 bytes or UTF-16 units.
/// Equality compares width and units; use [`JsStr::same_units`] to compare
/// contents across widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsStr<'a> {
    /// One byte per character, U+0000 to U+00FF.
    Latin1(&'a [u8]),
    /// UTF-16 code units; may hold lone surrogates.
    Utf16(&'a [u16]),
}

impl JsStr<'_> {
    /// Length in code units.
    pub fn len(self) -> usize {
        match self {
            JsStr::Latin1(bytes) => bytes.len(),
            JsStr::Utf16(units) => units.len(),
        }
    }

    /// Whether the string is empty.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The code unit at `index`.
    pub fn unit(self, index: usize) -> u16 {
        match self {
            JsStr::Latin1(bytes) => u16::from(bytes[index]),
            JsStr::Utf16(units) => units[index],
        }
    }

    /// The code units from `start` to `end`.
    #[must_use]
    pub fn slice(self, start: usize, end: usize) -> Self {
        match self {
            JsStr::Latin1(bytes) => JsStr::Latin1(&bytes[start..end]),
            JsStr::Utf16(units) => JsStr::Utf16(&units[start..end]),
        }
    }

    /// Whether both hold the same code units, whatever their widths.
    pub fn same_units(self, other: JsStr<'_>) -> bool {
        match (self, other) {
            (JsStr::Latin1(a), JsStr::Latin1(b)) => a == b,
            (JsStr::Utf16(a), JsStr::Utf16(b)) => a == b,
            (JsStr::Latin1(a), JsStr::Utf16(b)) | (JsStr::Utf16(b), JsStr::Latin1(a)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| u16::from(x) == y)
            }
        }
    }

    /// Copies the contents, keeping the width.
    pub fn to_owned_text(self) -> JsonText {
        match self {
            JsStr::Latin1(bytes) => JsonText::Latin1(bytes.to_vec()),
            JsStr::Utf16(units) => JsonText::Utf16(units.to_vec()),
        }
    }
}

/// A JavaScript string's contents, owned: what `stringify` returns, in the
/// narrowest width that holds it, so the host makes a string without
/// transcoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonText {
    /// Every character is U+0000 to U+00FF.
    Latin1(Vec<u8>),
    /// At least one character needed 16 bits when the text was produced.
    Utf16(Vec<u16>),
}

impl JsonText {
    /// Borrows the contents.
    pub fn as_js_str(&self) -> JsStr<'_> {
        match self {
            JsonText::Latin1(bytes) => JsStr::Latin1(bytes),
            JsonText::Utf16(units) => JsStr::Utf16(units),
        }
    }

    /// The text as a Rust string (lone surrogates become U+FFFD).
    pub fn to_string_lossy(&self) -> String {
        match self {
            JsonText::Latin1(bytes) => bytes.iter().map(|&b| char::from(b)).collect(),
            JsonText::Utf16(units) => String::from_utf16_lossy(units),
        }
    }
}
