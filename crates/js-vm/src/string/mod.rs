//! JavaScript strings: sequences of UTF-16 code units, stored as Latin-1
//! bytes while every unit fits in one (as V8 and JSC do), as `u16`s
//! otherwise, or as a rope (a lazy concatenation) until first read.

mod atom;
mod builder;
mod search;
mod white_space;

use std::cell::Cell;
use std::fmt;

use js_gc::{Gc, Heap, Trace, Tracer};

pub use atom::AtomTable;
pub use builder::StringBuilder;
pub use white_space::is_white_space_or_line_terminator;

/// Concatenations shorter than this are copied at once; longer ones become
/// ropes, so `s += piece` in a loop is linear.
const MIN_ROPE_LENGTH: usize = 64;

/// The longest string the engine makes, in code units (V8's limit on
/// 64-bit targets). Operations that would exceed it throw a RangeError
/// ("Invalid string length"), as ECMA-262 allows an implementation limit;
/// without one, `s += s` in a loop builds a rope whose flattening cannot be
/// allocated.
pub const MAX_STRING_LENGTH: usize = (1 << 29) - 24;

/// A string cell.
pub struct JsString {
    repr: Repr,
    /// Set once the string is the atom table's entry for its content.
    atom: Cell<bool>,
}

enum Repr {
    Latin1(Box<[u8]>),
    Utf16(Box<[u16]>),
    Rope { left: Gc<JsString>, right: Gc<JsString>, len: usize, latin1: bool },
}

/// The content of a flat string, borrowed from its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsStr<'a> {
    /// Every code unit is at most 0xFF.
    Latin1(&'a [u8]),
    /// UTF-16 code units.
    Utf16(&'a [u16]),
}

impl JsStr<'_> {
    /// The length in code units.
    pub fn len(self) -> usize {
        match self {
            JsStr::Latin1(b) => b.len(),
            JsStr::Utf16(u) => u.len(),
        }
    }

    /// The code unit at `i`.
    pub fn at(self, i: usize) -> u16 {
        match self {
            JsStr::Latin1(b) => u16::from(b[i]),
            JsStr::Utf16(u) => u[i],
        }
    }

    /// Iterates the code units.
    pub fn units(self) -> impl Iterator<Item = u16> + Clone {
        let (latin1, utf16): (&[u8], &[u16]) = match self {
            JsStr::Latin1(b) => (b, &[]),
            JsStr::Utf16(u) => (&[], u),
        };
        latin1.iter().map(|&b| u16::from(b)).chain(utf16.iter().copied())
    }

    /// The content as a Rust string, lone surrogates replaced by U+FFFD.
    pub fn to_rust_string(self) -> String {
        match self {
            JsStr::Latin1(b) => b.iter().map(|&c| char::from(c)).collect(),
            JsStr::Utf16(u) => String::from_utf16_lossy(u),
        }
    }

    /// Whether the content equals the ASCII/Latin-1 text `s`.
    pub fn eq_str(self, s: &str) -> bool {
        self.units().eq(s.encode_utf16())
    }
}

/// Whether every unit is at most U+00FF. Fixed-size chunks OR-reduced
/// (which the compiler vectorizes), leaving at the first chunk with a wide
/// unit: a plain `all` tests one unit per step, and one OR over the whole
/// slice would read a long two-byte string to its end.
fn fits_latin1(units: &[u16]) -> bool {
    let mut chunks = units.chunks_exact(32);
    for chunk in &mut chunks {
        if chunk.iter().fold(0, |acc, &u| acc | u) > 0xFF {
            return false;
        }
    }
    chunks.remainder().iter().all(|&u| u <= 0xFF)
}

impl JsString {
    /// A string from Latin-1 bytes.
    pub fn from_latin1(bytes: impl Into<Box<[u8]>>) -> Self {
        Self { repr: Repr::Latin1(bytes.into()), atom: Cell::new(false) }
    }

    /// A string from UTF-16 code units, stored as Latin-1 if they all fit.
    pub fn from_utf16(units: &[u16]) -> Self {
        if fits_latin1(units) {
            Self::from_latin1(units.iter().map(|&u| u as u8).collect::<Box<[u8]>>())
        } else {
            Self { repr: Repr::Utf16(units.into()), atom: Cell::new(false) }
        }
    }

    /// A string that adopts `units`, which hold at least one unit above
    /// U+00FF (so the string cannot be Latin-1): no scan and no copy, where
    /// [`JsString::from_utf16`] does both. For text made by something that
    /// already knows it needed 16 bits, such as js-json's
    /// `JsonText::Utf16`.
    pub fn from_wide_utf16(units: Vec<u16>) -> Self {
        debug_assert!(units.iter().any(|&u| u > 0xFF), "from_wide_utf16 given Latin-1 text");
        Self { repr: Repr::Utf16(units.into_boxed_slice()), atom: Cell::new(false) }
    }

    /// A string from Rust text.
    pub fn from_rust_str(s: &str) -> Self {
        if s.is_ascii() {
            Self::from_latin1(s.as_bytes())
        } else {
            Self::from_utf16(&s.encode_utf16().collect::<Vec<_>>())
        }
    }

    /// The length in UTF-16 code units.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Latin1(b) => b.len(),
            Repr::Utf16(u) => u.len(),
            Repr::Rope { len, .. } => *len,
        }
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every code unit fits in Latin-1.
    pub fn is_latin1(&self) -> bool {
        match &self.repr {
            Repr::Latin1(_) => true,
            Repr::Utf16(_) => false,
            Repr::Rope { latin1, .. } => *latin1,
        }
    }

    /// The content, if the string is flat (not a rope). Use
    /// [`JsString::flatten`] first where it may be a rope.
    pub fn as_flat(&self) -> Option<JsStr<'_>> {
        match &self.repr {
            Repr::Latin1(b) => Some(JsStr::Latin1(b)),
            Repr::Utf16(u) => Some(JsStr::Utf16(u)),
            Repr::Rope { .. } => None,
        }
    }

    /// The content of a string known to be flat; an empty string for a rope
    /// (callers flatten first).
    pub fn flat(&self) -> JsStr<'_> {
        self.as_flat().unwrap_or(JsStr::Latin1(&[]))
    }

    /// Whether this string is its content's atom.
    pub fn is_atom(&self) -> bool {
        self.atom.get()
    }

    pub(crate) fn mark_atom(&self) {
        self.atom.set(true);
    }

    /// [`JsString::concat`], or `None` when the result would be longer than
    /// [`MAX_STRING_LENGTH`].
    pub fn concat_within_limit(heap: &mut Heap, left: Gc<JsString>, right: Gc<JsString>) -> Option<Gc<JsString>> {
        let len = left.borrow(heap).len() + right.borrow(heap).len();
        (len <= MAX_STRING_LENGTH).then(|| Self::concat(heap, left, right))
    }

    /// Concatenates two strings, as a rope when the result is long.
    pub fn concat(heap: &mut Heap, left: Gc<JsString>, right: Gc<JsString>) -> Gc<JsString> {
        let (l, r) = (left.borrow(heap), right.borrow(heap));
        if r.is_empty() {
            return left;
        }
        if l.is_empty() {
            return right;
        }
        let len = l.len() + r.len();
        let latin1 = l.is_latin1() && r.is_latin1();
        if len >= MIN_ROPE_LENGTH || l.as_flat().is_none() || r.as_flat().is_none() {
            return heap.alloc(JsString { repr: Repr::Rope { left, right, len, latin1 }, atom: Cell::new(false) });
        }
        let mut b = StringBuilder::with_capacity(len);
        b.push_str(l.flat());
        b.push_str(r.flat());
        b.finish(heap)
    }

    /// Makes a rope flat in place, iteratively (ropes may be deep), and
    /// returns the same string.
    #[inline]
    pub fn flatten(heap: &mut Heap, s: Gc<JsString>) -> Gc<JsString> {
        match s.borrow(heap).repr {
            Repr::Rope { len, .. } => Self::flatten_rope(heap, s, len),
            _ => s,
        }
    }

    /// [`Self::flatten`] of the rope `s` of `len` code units.
    #[inline(never)]
    fn flatten_rope(heap: &mut Heap, s: Gc<JsString>, len: usize) -> Gc<JsString> {
        let mut b = StringBuilder::with_capacity(len);
        let mut stack = vec![s];
        while let Some(part) = stack.pop() {
            match &part.borrow(heap).repr {
                Repr::Latin1(bytes) => b.push_str(JsStr::Latin1(bytes)),
                Repr::Utf16(units) => b.push_str(JsStr::Utf16(units)),
                Repr::Rope { left, right, .. } => {
                    stack.push(*right);
                    stack.push(*left);
                }
            }
        }
        let repr = b.into_repr();
        s.borrow_mut(heap).repr = repr;
        s
    }

    /// Visits the flat pieces of `s` in order without flattening it (a
    /// rope's leaves, left to right, iteratively since ropes may be deep),
    /// until `visit` returns `false`. Returns whether every piece was
    /// visited.
    pub fn for_each_piece(heap: &Heap, s: Gc<JsString>, mut visit: impl FnMut(JsStr<'_>) -> bool) -> bool {
        let mut stack = vec![s];
        while let Some(part) = stack.pop() {
            let keep_going = match &part.borrow(heap).repr {
                Repr::Latin1(bytes) => visit(JsStr::Latin1(bytes)),
                Repr::Utf16(units) => visit(JsStr::Utf16(units)),
                Repr::Rope { left, right, .. } => {
                    stack.push(*right);
                    stack.push(*left);
                    true
                }
            };
            if !keep_going {
                return false;
            }
        }
        true
    }

    /// Compares two flat strings by code units.
    pub fn cmp_units(a: JsStr<'_>, b: JsStr<'_>) -> std::cmp::Ordering {
        match (a, b) {
            (JsStr::Latin1(x), JsStr::Latin1(y)) => x.cmp(y),
            (JsStr::Utf16(x), JsStr::Utf16(y)) => x.cmp(y),
            _ => a.units().cmp(b.units()),
        }
    }
}

impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_flat() {
            Some(s) => write!(f, "{:?}", s.to_rust_string()),
            None => write!(f, "<rope of {}>", self.len()),
        }
    }
}

// SAFETY: a rope owns its two halves; flat strings own no cells.
unsafe impl Trace for JsString {
    fn trace(&self, tracer: &mut Tracer) {
        if let Repr::Rope { left, right, .. } = &self.repr {
            left.trace(tracer);
            right.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "String"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_when_possible() {
        assert!(JsString::from_rust_str("héllo").is_latin1());
        assert!(!JsString::from_rust_str("a→b").is_latin1());
        assert_eq!(JsString::from_rust_str("a→b").len(), 3);
        assert_eq!(JsString::from_rust_str("😀").len(), 2);
    }

    #[test]
    fn deep_ropes_flatten_without_recursion() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let piece = heap.alloc(JsString::from_rust_str(&"x".repeat(70)));
        let mut s = heap.alloc(JsString::from_rust_str(""));
        for _ in 0..100_000 {
            s = JsString::concat(&mut heap, s, piece);
        }
        assert!(s.borrow(&heap).as_flat().is_none());
        let flat = JsString::flatten(&mut heap, s);
        assert_eq!(flat.borrow(&heap).len(), 7_000_000);
        assert_eq!(flat.borrow(&heap).flat().at(6_999_999), u16::from(b'x'));
    }

    #[test]
    fn pieces_of_a_rope_come_in_order() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let a = heap.alloc(JsString::from_rust_str(&"a".repeat(40)));
        let b = heap.alloc(JsString::from_rust_str(&"→".repeat(40)));
        let ab = JsString::concat(&mut heap, a, b);
        let aba = JsString::concat(&mut heap, ab, a);
        let mut seen = Vec::new();
        assert!(JsString::for_each_piece(&heap, aba, |piece| {
            seen.push(piece.len());
            true
        }));
        assert_eq!(seen, [40, 40, 40]);
        assert!(aba.borrow(&heap).as_flat().is_none());
        assert!(!JsString::for_each_piece(&heap, aba, |_| false));
    }

    #[test]
    fn concat_of_wide_and_narrow_is_wide() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let a = heap.alloc(JsString::from_rust_str("ab"));
        let b = heap.alloc(JsString::from_rust_str("→"));
        let c = JsString::concat(&mut heap, a, b);
        assert_eq!(c.borrow(&heap).flat(), JsStr::Utf16(&[97, 98, 0x2192]));
    }
}
