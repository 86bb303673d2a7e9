//! Size classes: blocks of equal-sized cells, bump-allocated when fresh and
//! recycled through a free list after sweeping.

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ptr::NonNull;

use crate::cell::Header;

/// Bytes per block. Every block holds cells of one size class only.
pub(crate) const BLOCK_SIZE: usize = 64 << 10;
const BLOCK_ALIGN: usize = 16;

/// Cell sizes (header included), in bytes. Steps of 8 up to 64, then four
/// steps per doubling, so rounding wastes at most 25% (12.5% on average).
pub(crate) const SIZE_CLASSES: [usize; 28] = [
    8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 640, 768, 896, 1024, 1280,
    1536, 1792, 2048,
];

/// The number of size classes; an index equal to it means "large object".
pub(crate) const CLASS_COUNT: usize = SIZE_CLASSES.len();

/// The size class for a cell of `size` bytes and alignment `align`, or
/// `CLASS_COUNT` if it must be a large object.
pub(crate) const fn size_class_index(size: usize, align: usize) -> usize {
    if align > 8 {
        return CLASS_COUNT;
    }
    let mut index = 0;
    while index < CLASS_COUNT {
        if SIZE_CLASSES[index] >= size {
            return index;
        }
        index += 1;
    }
    CLASS_COUNT
}

/// One block: `BLOCK_SIZE` bytes, the first `carved` of which have been
/// handed out as cells (live or free). The rest is the bump region, which
/// only the current bump block has.
pub(crate) struct Block {
    pub(crate) start: NonNull<u8>,
    pub(crate) carved: usize,
}

impl Block {
    fn layout() -> Layout {
        // A constant, valid layout: nonzero size, power-of-two alignment.
        Layout::from_size_align(BLOCK_SIZE, BLOCK_ALIGN).unwrap_or_else(|_| unreachable!())
    }

    fn new() -> Self {
        // SAFETY: the layout has nonzero size.
        let start = unsafe { alloc(Self::layout()) };
        let Some(start) = NonNull::new(start) else { handle_alloc_error(Self::layout()) };
        Self { start, carved: 0 }
    }

    /// Returns the block's memory. Its cells must hold no values.
    pub(crate) fn release(self) {
        // SAFETY: `start` came from `alloc` with this layout and is freed once,
        // since `self` is consumed.
        unsafe { dealloc(self.start.as_ptr(), Self::layout()) }
    }

    /// The cells carved so far, in address order.
    pub(crate) fn cells(&self, cell_size: usize) -> impl Iterator<Item = NonNull<Header>> + use<> {
        carved_cells(self.start, self.carved, cell_size)
    }
}

/// The cells in the first `carved` bytes of the block at `start`.
fn carved_cells(start: NonNull<u8>, carved: usize, cell_size: usize) -> impl Iterator<Item = NonNull<Header>> {
    (0..carved).step_by(cell_size).map(move |offset| {
        // SAFETY: `offset < carved <= BLOCK_SIZE`, inside the allocation.
        unsafe { start.add(offset) }.cast()
    })
}

/// The cells of one size.
pub(crate) struct SizeClass {
    pub(crate) cell_size: usize,
    /// Free cells, threaded through their headers.
    pub(crate) free: Option<NonNull<Header>>,
    /// Bump region of the current bump block: next cell and end.
    bump: *mut u8,
    bump_end: *mut u8,
    pub(crate) blocks: Vec<Block>,
}

impl SizeClass {
    pub(crate) fn new(cell_size: usize) -> Self {
        Self { cell_size, free: None, bump: std::ptr::null_mut(), bump_end: std::ptr::null_mut(), blocks: Vec::new() }
    }

    /// Takes a cell from the free list or the bump region.
    #[inline]
    pub(crate) fn take(&mut self) -> Option<NonNull<Header>> {
        if let Some(cell) = self.free {
            // SAFETY: free-list entries are free cells of this class.
            self.free = unsafe { cell.as_ref() }.next_free();
            return Some(cell);
        }
        if self.bump < self.bump_end {
            let cell = self.bump;
            // SAFETY: the bump region holds whole cells (`bump_end` is
            // `start + cells * cell_size`), so one more cell fits.
            self.bump = unsafe { cell.add(self.cell_size) };
            // SAFETY: `cell` is inside a live block, hence non-null.
            return Some(unsafe { NonNull::new_unchecked(cell) }.cast());
        }
        None
    }

    /// Starts a fresh block and takes its first cell.
    #[cold]
    pub(crate) fn take_from_new_block(&mut self) -> NonNull<Header> {
        let capacity = self.cells_per_block() * self.cell_size;
        if let Some(full) = self.bump_block() {
            // The old bump region is used up: `take` found no room in it.
            full.carved = capacity;
        }
        let block = Block::new();
        self.bump = block.start.as_ptr();
        // SAFETY: `cells_per_block * cell_size <= BLOCK_SIZE`.
        self.bump_end = unsafe { self.bump.add(self.cells_per_block() * self.cell_size) };
        self.blocks.push(block);
        self.take().unwrap_or_else(|| unreachable!("a fresh block has room for a cell"))
    }

    fn cells_per_block(&self) -> usize {
        BLOCK_SIZE / self.cell_size
    }

    /// The block the bump region is in: always the newest block, once there
    /// is one.
    fn bump_block(&mut self) -> Option<&mut Block> {
        if self.bump.is_null() { None } else { self.blocks.last_mut() }
    }

    /// Records how far the bump block has been carved, so walks see exactly
    /// the cells handed out.
    pub(crate) fn sync_bump_block(&mut self) {
        let bump = self.bump as usize;
        if let Some(block) = self.bump_block() {
            block.carved = bump - block.start.as_ptr() as usize;
        }
    }

    /// Whether a block is being bump-allocated from (the newest block).
    pub(crate) fn has_bump_region(&self) -> bool {
        !self.bump.is_null()
    }

    /// Every cell handed out so far (live or free), block by block, without
    /// needing `sync_bump_block` first.
    pub(crate) fn cells(&self) -> impl Iterator<Item = NonNull<Header>> + '_ {
        let last = self.blocks.len().wrapping_sub(1);
        self.blocks.iter().enumerate().flat_map(move |(index, block)| {
            let carved = if index == last && self.has_bump_region() {
                self.bump as usize - block.start.as_ptr() as usize
            } else {
                block.carved
            };
            carved_cells(block.start, carved, self.cell_size)
        })
    }

    /// Bytes reserved by this class's blocks.
    pub(crate) fn reserved_bytes(&self) -> u64 {
        (self.blocks.len() * BLOCK_SIZE) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_sorted_multiples_of_eight() {
        assert!(SIZE_CLASSES.windows(2).all(|w| w[0] < w[1]));
        assert!(SIZE_CLASSES.iter().all(|size| size % 8 == 0));
    }

    #[test]
    fn size_class_lookup() {
        assert_eq!(SIZE_CLASSES[size_class_index(8, 8)], 8);
        assert_eq!(SIZE_CLASSES[size_class_index(9, 8)], 16);
        assert_eq!(SIZE_CLASSES[size_class_index(65, 8)], 80);
        assert_eq!(SIZE_CLASSES[size_class_index(2048, 8)], 2048);
        assert_eq!(size_class_index(2049, 8), CLASS_COUNT);
        assert_eq!(size_class_index(32, 16), CLASS_COUNT);
    }

    #[test]
    fn bump_then_new_block() {
        let mut class = SizeClass::new(2048);
        let per_block = BLOCK_SIZE / 2048;
        assert!(class.take().is_none());
        let first = class.take_from_new_block();
        let mut cells = vec![first];
        while let Some(cell) = class.take() {
            cells.push(cell);
        }
        assert_eq!(cells.len(), per_block);
        class.take_from_new_block();
        assert_eq!(class.blocks.len(), 2);
        assert_eq!(class.blocks[0].carved, per_block * 2048);
        class.sync_bump_block();
        assert_eq!(class.blocks[1].carved, 2048);
        for block in class.blocks.drain(..) {
            block.release();
        }
    }
}
