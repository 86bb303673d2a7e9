//! Building a string piece by piece, staying Latin-1 until the first wide
//! code unit.

use std::cell::Cell;

use js_gc::{Gc, Heap};

use super::{JsStr, JsString, Repr};

/// Accumulates code units; stays 8-bit until a unit above 0xFF arrives.
#[derive(Debug, Default)]
pub struct StringBuilder {
    latin1: Vec<u8>,
    utf16: Option<Vec<u16>>,
}

impl StringBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder with room for `n` code units.
    pub fn with_capacity(n: usize) -> Self {
        Self { latin1: Vec::with_capacity(n), utf16: None }
    }

    fn widen(&mut self) -> &mut Vec<u16> {
        self.utf16.get_or_insert_with(|| {
            let mut wide = Vec::with_capacity(self.latin1.capacity().max(16));
            wide.extend(self.latin1.iter().map(|&b| u16::from(b)));
            wide
        })
    }

    /// Appends one code unit.
    pub fn push(&mut self, unit: u16) {
        if let Some(wide) = &mut self.utf16 {
            wide.push(unit);
        } else if let Ok(b) = u8::try_from(unit) {
            self.latin1.push(b);
        } else {
            self.widen().push(unit);
        }
    }

    /// Appends a code point, as a surrogate pair if needed.
    pub fn push_char(&mut self, c: char) {
        let mut buf = [0; 2];
        for &u in c.encode_utf16(&mut buf).iter() {
            self.push(u);
        }
    }

    /// Appends flat string content.
    pub fn push_str(&mut self, s: JsStr<'_>) {
        match (s, &mut self.utf16) {
            (JsStr::Latin1(b), None) => self.latin1.extend_from_slice(b),
            (JsStr::Latin1(b), Some(wide)) => wide.extend(b.iter().map(|&c| u16::from(c))),
            (JsStr::Utf16(u), _) => self.widen().extend_from_slice(u),
        }
    }

    /// The number of code units so far.
    pub fn len(&self) -> usize {
        self.utf16.as_ref().map_or(self.latin1.len(), Vec::len)
    }

    pub(super) fn into_repr(self) -> Repr {
        match self.utf16 {
            Some(wide) => Repr::Utf16(wide.into_boxed_slice()),
            None => Repr::Latin1(self.latin1.into_boxed_slice()),
        }
    }

    /// Allocates the string.
    pub fn finish(self, heap: &mut Heap) -> Gc<JsString> {
        heap.alloc(JsString { repr: self.into_repr(), atom: Cell::new(false) })
    }
}
