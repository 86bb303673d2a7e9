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
    /// The one-unit strings of the Latin-1 range, made on first use and
    /// then kept (their atoms are traced as roots): `charAt`, `s[i]` and
    /// `String.fromCharCode` return them instead of allocating, as V8's
    /// single-character string table does.
    latin1_units: Vec<Option<Gc<JsString>>>,
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

impl AtomTable {
    /// A string of the one code unit `unit`: the kept one in the Latin-1
    /// range, a new string above it.
    pub fn one_unit(&mut self, heap: &mut Heap, unit: u16) -> Gc<JsString> {
        match u8::try_from(unit) {
            Ok(byte) => self.latin1_unit(heap, byte),
            Err(_) => heap.alloc(JsString::from_utf16(&[unit])),
        }
    }

    /// The one-unit string `unit`, from the kept table.
    fn latin1_unit(&mut self, heap: &mut Heap, unit: u8) -> Gc<JsString> {
        if let Some(Some(atom)) = self.latin1_units.get(usize::from(unit)) {
            return *atom;
        }
        let atom = *self.atoms.entry(AtomText::Latin1(Box::new([unit]))).or_insert_with(|| {
            let cell = JsString::from_latin1(vec![unit]);
            cell.mark_atom();
            heap.alloc(cell)
        });
        if self.latin1_units.is_empty() {
            self.latin1_units = vec![None; 256];
        }
        self.latin1_units[usize::from(unit)] = Some(atom);
        atom
    }
}

// SAFETY: reports the one-unit strings the table keeps; the other atoms
// are weak (see the `Reconciler` impl).
unsafe impl js_gc::Trace for AtomTable {
    fn trace(&self, tracer: &mut js_gc::Tracer) {
        for atom in self.latin1_units.iter().flatten() {
            atom.trace(tracer);
        }
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
    fn one_unit_strings_are_kept_in_the_latin1_range() {
        struct Table<'a>(&'a mut AtomTable);
        impl js_gc::Roots for Table<'_> {
            fn trace_roots(&self, tracer: &mut js_gc::Tracer) {
                js_gc::Trace::trace(&*self.0, tracer);
            }
            fn reconcile(&mut self, liveness: &Liveness<'_>) {
                self.0.reconcile(liveness);
            }
        }
        // SAFETY: this heap's cells are used only with it, and not after it is dropped.
        let mut heap = unsafe { Heap::new() };
        let mut atoms = AtomTable::new();
        let a = atoms.one_unit(&mut heap, u16::from(b'a'));
        assert_eq!(atoms.intern_str(&mut heap, "a"), a);
        let wide = atoms.one_unit(&mut heap, 0x3A9);
        assert_ne!(atoms.one_unit(&mut heap, 0x3A9), wide, "above Latin-1 each string is new");
        // SAFETY: only the kept one-unit string is used afterwards.
        unsafe { heap.collect(&mut Table(&mut atoms)) };
        assert_eq!(atoms.one_unit(&mut heap, u16::from(b'a')), a);
        assert_eq!(a.borrow(&heap).flat().units().collect::<Vec<_>>(), [u16::from(b'a')]);
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
