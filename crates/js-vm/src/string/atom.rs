//! The atom table: one string cell per distinct property-key content, so
//! property keys compare by pointer. Atoms are weak: the table is a
//! reconciler and forgets atoms nobody references any more.

use std::collections::HashMap;

use js_gc::{Gc, Heap, Liveness, Reconciler};

use super::{JsStr, JsString};

/// Owned content used as the table's key: Latin-1 whenever it fits, so the
/// same text always has one representation.
#[derive(Clone, PartialEq, Eq, Hash)]
enum AtomText {
    Latin1(Box<[u8]>),
    Utf16(Box<[u16]>),
}

impl AtomText {
    fn of(s: JsStr<'_>) -> Self {
        match s {
            JsStr::Latin1(b) => AtomText::Latin1(b.into()),
            JsStr::Utf16(u) if u.iter().all(|&c| c <= 0xFF) => AtomText::Latin1(u.iter().map(|&c| c as u8).collect()),
            JsStr::Utf16(u) => AtomText::Utf16(u.into()),
        }
    }
}

/// Interned strings by content.
#[derive(Default)]
pub struct AtomTable {
    atoms: HashMap<AtomText, Gc<JsString>, ahash::RandomState>,
}

impl AtomTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The atom for `s`'s content, making `s` itself the atom if there is
    /// none yet.
    pub fn intern(&mut self, heap: &mut Heap, s: Gc<JsString>) -> Gc<JsString> {
        let s = JsString::flatten(heap, s);
        let cell = s.borrow(heap);
        if cell.is_atom() {
            return s;
        }
        let text = AtomText::of(cell.flat());
        let atom = *self.atoms.entry(text).or_insert(s);
        atom.borrow(heap).mark_atom();
        atom
    }

    /// The atom for Rust text.
    pub fn intern_str(&mut self, heap: &mut Heap, s: &str) -> Gc<JsString> {
        let text = if s.is_ascii() {
            AtomText::Latin1(s.as_bytes().into())
        } else {
            AtomText::of(JsStr::Utf16(&s.encode_utf16().collect::<Vec<_>>()))
        };
        if let Some(&atom) = self.atoms.get(&text) {
            return atom;
        }
        let cell = match &text {
            AtomText::Latin1(b) => JsString::from_latin1(b.clone()),
            AtomText::Utf16(u) => JsString::from_utf16(u),
        };
        cell.mark_atom();
        let atom = heap.alloc(cell);
        self.atoms.insert(text, atom);
        atom
    }
}

#[cfg(test)]
impl AtomTable {
    /// The number of atoms.
    fn len(&self) -> usize {
        self.atoms.len()
    }
}

impl Reconciler for AtomTable {
    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        self.atoms.retain(|_, atom| liveness.is_live(*atom));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_content_same_atom_across_widths() {
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let mut atoms = AtomTable::new();
        let a = atoms.intern_str(&mut heap, "length");
        let wide = heap.alloc(JsString::from_utf16(&"length".encode_utf16().collect::<Vec<_>>()));
        let b = atoms.intern(&mut heap, wide);
        assert_eq!(a, b);
        assert!(a.borrow(&heap).is_atom());
        let c = atoms.intern_str(&mut heap, "→");
        assert_ne!(a, c);
        assert_eq!(atoms.len(), 2);
    }

    #[test]
    fn dead_atoms_are_forgotten() {
        struct Table<'a>(&'a mut AtomTable, Gc<JsString>);
        impl js_gc::Roots for Table<'_> {
            fn trace_roots(&self, tracer: &mut js_gc::Tracer) {
                js_gc::Trace::trace(&self.1, tracer);
            }
            fn reconcile(&mut self, liveness: &Liveness<'_>) {
                self.0.reconcile(liveness);
            }
        }
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let mut atoms = AtomTable::new();
        let keep = atoms.intern_str(&mut heap, "keep");
        atoms.intern_str(&mut heap, "drop");
        // SAFETY: only `keep` is used afterwards.
        unsafe { heap.collect(&mut Table(&mut atoms, keep)) };
        assert_eq!(atoms.len(), 1);
        assert_eq!(atoms.intern_str(&mut heap, "keep"), keep);
    }
}
