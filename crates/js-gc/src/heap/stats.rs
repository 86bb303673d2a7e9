//! `HeapStats`: exact live object counts and bytes per cell type.

use std::collections::HashMap;

use super::Heap;
use crate::cell::Header;

/// Cells of one type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeStats {
    /// The type's [`Trace::type_name`](crate::Trace::type_name).
    pub name: &'static str,
    /// Bytes of one cell of this type as laid out: header plus value,
    /// before rounding up to a size class.
    pub cell_size: usize,
    /// Cells allocated and not yet freed.
    pub objects: u64,
    /// Their bytes: size-class sizes (what the heap spends on them), headers
    /// included.
    pub bytes: u64,
}

/// A census of the heap, taken by walking every cell.
///
/// Counts are exact: every cell allocated and not yet freed is counted once,
/// under its type's name. Cells that became unreachable since the last
/// collection are still counted; take the census right after a collection to
/// count only reachable ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapStats {
    /// One entry per type with at least one cell, sorted by name.
    pub types: Vec<TypeStats>,
    /// Cells allocated and not yet freed.
    pub live_objects: u64,
    /// Their bytes.
    pub live_bytes: u64,
    /// Bytes of memory the heap holds: all blocks and large allocations.
    pub heap_size: u64,
    /// Collections completed.
    pub collections: u64,
    /// Bytes of every cell ever allocated.
    pub total_allocated_bytes: u64,
}

impl HeapStats {
    /// The number of live cells whose type is named `name` (0 if none).
    pub fn objects_of(&self, name: &str) -> u64 {
        self.types.iter().find(|t| t.name == name).map_or(0, |t| t.objects)
    }
}

impl Heap {
    /// Counts every live cell by type.
    pub fn stats(&self) -> HeapStats {
        let mut by_name: HashMap<&'static str, (usize, u64, u64)> = HashMap::new();
        let mut count = |cell: std::ptr::NonNull<Header>, bytes: usize| {
            // SAFETY: walked cells are live or free.
            let header = unsafe { cell.as_ref() };
            if !header.is_free() {
                let info = header.type_info();
                let entry = by_name.entry((info.name)()).or_insert((info.size, 0, 0));
                entry.1 += 1;
                entry.2 += bytes as u64;
            }
        };
        for class in &self.classes {
            for cell in class.cells() {
                count(cell, class.cell_size);
            }
        }
        for large in &self.large.cells {
            count(large.cell, large.layout.size());
        }
        let mut types: Vec<TypeStats> = by_name
            .into_iter()
            .map(|(name, (cell_size, objects, bytes))| TypeStats { name, cell_size, objects, bytes })
            .collect();
        types.sort_by(|a, b| a.name.cmp(b.name));
        HeapStats {
            live_objects: types.iter().map(|t| t.objects).sum(),
            live_bytes: types.iter().map(|t| t.bytes).sum(),
            types,
            heap_size: self.classes.iter().map(super::size_class::SizeClass::reserved_bytes).sum::<u64>()
                + self.large.reserved_bytes(),
            collections: self.epoch,
            total_allocated_bytes: self.total_allocated,
        }
    }
}
