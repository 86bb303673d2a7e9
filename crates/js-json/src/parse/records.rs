//! JSON Parse Records: what `JSON.parse` remembers of each parsed value so
//! a reviver can be handed the source text of primitives
//! (`context.source`), kept in one arena so that deep documents are
//! dropped without recursion.

/// A parsed value and where it came from.
pub(super) struct Record<V> {
    /// The value as parsed (`[[Value]]`), compared with `SameValue` to the
    /// value found when reviving.
    pub(super) value: V,
    /// Source text range of a primitive.
    pub(super) source: Option<(usize, usize)>,
    /// Records of an array's elements or an object's entries.
    pub(super) children: Children<V>,
}

/// The records of a container's members.
pub(super) enum Children<V> {
    /// A primitive.
    None,
    /// `[[Elements]]`: one record per array element.
    Elements(Vec<u32>),
    /// `[[Entries]]`: key and record per object member, in source order
    /// (a repeated key appears again; the last one counts).
    Entries(Vec<(V, u32)>),
}

/// The arena of records.
pub(super) struct Records<V> {
    records: Vec<Record<V>>,
}

impl<V> Records<V> {
    pub(super) fn new() -> Self {
        Records { records: Vec::new() }
    }

    /// Stores a record and returns its index.
    pub(super) fn push(&mut self, record: Record<V>) -> u32 {
        let index = u32::try_from(self.records.len()).expect("fewer than 2^32 values in one text");
        self.records.push(record);
        index
    }

    /// The record at `index`.
    pub(super) fn get(&self, index: u32) -> &Record<V> {
        &self.records[index as usize]
    }
}
