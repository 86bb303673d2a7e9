//! The `stack` of `SerializeJSONObject`/`SerializeJSONArray`: the objects
//! being serialized, for cycle detection.

use ahash::AHashSet;

/// Objects currently open, by host identity. Short stacks are scanned;
/// past [`CycleStack::SCAN_LIMIT`] a hash set keeps deep nesting linear.
pub(super) struct CycleStack {
    open: Vec<usize>,
    index: AHashSet<usize>,
}

impl CycleStack {
    const SCAN_LIMIT: usize = 32;

    pub(super) fn new() -> Self {
        CycleStack { open: Vec::new(), index: AHashSet::new() }
    }

    /// Opens `identity`; `false` if it is already open (a cycle).
    pub(super) fn enter(&mut self, identity: usize) -> bool {
        if self.open.len() < Self::SCAN_LIMIT {
            if self.open.contains(&identity) {
                return false;
            }
        } else {
            if self.index.is_empty() {
                self.index.extend(self.open.iter().copied());
            }
            if !self.index.insert(identity) {
                return false;
            }
        }
        self.open.push(identity);
        true
    }

    /// Closes the most recently opened object.
    pub(super) fn leave(&mut self) {
        if let Some(identity) = self.open.pop()
            && !self.index.is_empty()
        {
            self.index.remove(&identity);
            if self.open.len() < Self::SCAN_LIMIT {
                self.index.clear();
            }
        }
    }

    /// Number of open objects.
    pub(super) fn depth(&self) -> usize {
        self.open.len()
    }
}
