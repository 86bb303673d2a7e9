//! `CallCache`: the per-VM microtask call cache, set-associative with LRU
//! replacement within a set.

mod key;

use std::fmt;

use js_gc::{GcAny, Liveness, Reconciler};

pub use key::CacheKey;

/// The 32-bit golden-ratio multiplier of Fibonacci hashing (2^32 / φ², the
/// Linux kernel's `GOLDEN_RATIO_32`; its complement 2^32 / φ spreads keys as
/// well): spreads the set-selecting top bits of addresses that differ only
/// in their low or middle bits. A 32-bit multiply by it is one
/// three-operand `imul` that leaves the key in its register for the
/// compares (with 2^32 / φ, LLVM put the constant in a register and copied
/// the key: one instruction more per lookup under callgrind).
const FIBONACCI: u32 = 0x61C8_8647;

/// What a [`CallCache`] has done since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheCounters {
    /// Lookups that found their key.
    pub hits: u64,
    /// Lookups that did not.
    pub misses: u64,
    /// Entries pushed out by an insertion into a full set.
    pub evictions: u64,
    /// Entries removed by [`CallCache::invalidate`] and [`CallCache::clear`].
    pub invalidations: u64,
    /// Entries removed by reconciliation because their key died.
    pub pruned: u64,
}

/// A set-associative cache from executables to call-setup entries: `SETS`
/// sets of `WAYS` ways (8 × 4 = 32 entries by default, as `JavaScriptCore`'s
/// microtask call cache), least recently used replacement within a set.
///
/// Resuming an async function or running a promise reaction calls the same
/// few executables again and again; the engine caches what it computed to
/// set up such a call (frame size, entry point, argument shuffle) under the
/// executable's identity `K` and skips the setup on a hit.
///
/// * [`get`](Self::get) copies the entry out. The caller holds no reference
///   into the cache while it makes the call, so a nested drain inside that
///   call may use the cache, evict the very entry, and nothing breaks.
/// * [`invalidate`](Self::invalidate) forgets one executable (code being
///   detached or tiered); [`clear`](Self::clear) forgets all.
/// * As a [`Reconciler`] it drops the entries whose key cell died, at the
///   end of every collection. The cache holds its keys weakly and does not
///   trace entries: anything a cell pointer in `E` points to must be kept
///   alive through the key (or rooted elsewhere).
///
/// # Layout and cost of a hit
///
/// A set is chosen by Fibonacci-hashing the low 32 bits of
/// [`CacheKey::identity`] (keys whose identities differ only above bit 31
/// share a set; the cells of one heap differ below it). Keys and entries
/// live in two way-major arrays (`keys[way][set]`), so the set index is the
/// scaled index of every compare. `WAYS` is at most 8.
///
/// Replacement is exact LRU within a set. A set's recency order is one
/// `u64` of pair bits, one per pair of ways (6 for 4 ways): using a way
/// sets the bits of the pairs it now leads and clears those it now trails,
/// `order & !CLEAR[w] | SET[w]` with per-way constants. The bit of a pair
/// normally says "the lower way was used later"; for the pairs of way
/// `WAYS - 2` with the ways below it, it says "way `WAYS - 2` was". So way
/// `WAYS - 2` only sets bits and way `WAYS - 1` only clears them: a hit in
/// either updates the order with one read-modify-write instruction (`or`,
/// `and`), and the ways with the longest compare chains pay least for LRU.
/// The least recently used way is the one that trails every other; emptied
/// ways are made least recently used, so an insertion takes an empty way
/// when there is one. Hits are counted in three counters, summed by
/// [`counters`](Self::counters).
///
/// [`get`](Self::get) is unrolled by hand, each way with its own hit path:
/// `w + 1` compare-and-branch pairs, the order update, the hit count and
/// the copy of the entry. Neighbouring ways do the three steps in
/// different orders and bump different counters; otherwise LLVM merges the
/// identical tails of the paths into one block reached by a jump, choosing
/// the way's constants with `mov`s, which costs more than it saves.
///
/// Keys and entries of at most 8 bytes are indexed straight by the set
/// number (`[base + set * size]` is an x86 addressing mode); a 16-byte
/// entry costs one `shl` per hit to scale it. Entries with a niche (a
/// `NonZero` field) make `Option<E>` no larger than `E`: js-vm's resume
/// entry is two `u16`s, one of them `NonZeroU16`, and its keys are
/// `NonZeroU32`s.
///
/// Instructions per `get` under callgrind (`cargo bench -p js-microtask
/// --bench microtask`, `fact:` lines; 8 × 4, 8-byte keys), for entries
/// shaped as js-vm's (4 bytes with a niche) and for 16-byte entries, with
/// the clock-stamp layout this replaced (16-byte entries):
///
/// | lookup | 4-byte entries | 16-byte entries | stamps, 16-byte |
/// | --- | ---: | ---: | ---: |
/// | hit in way 0 / 1 / 2 / 3 | 9 / 12 / 11 / 13 | 12 / 15 / 14 / 16 | 11 / 15 / 17 / 19 |
/// | hit, 16 keys round robin | 11.4 | 14.4 | 14.1 |
/// | miss | 12 | 15 | 13 |
/// | miss + evicting insert | 54.7 | 52.7 | 47.5 |
///
/// Tried and not taken: keeping each set's ways in recency order
/// (move-to-front: a hit in way 0 needs no update, but a hit in way `k`
/// moves `k` keys and `k` entries), a recency permutation byte per set
/// updated through a 256 × 4 table (a load, a table load and a store, no
/// cheaper than the stamps), a branch-free SSE2 compare of the set's keys
/// (without SSE4.1's `pcmpeqq`, broadcasting, comparing, folding 32-bit
/// halves and finding the lane costs more than the compare chain), and
/// entries stored without the `Option` (`MaybeUninit`, the key's `Option`
/// saying whether the way is full): returning `Option<E>` then builds the
/// tag in a register, 17–20 instructions per hit for a two-`u16` entry.
pub struct CallCache<K, E, const SETS: usize = 8, const WAYS: usize = 4> {
    /// `keys[way][set]`: `Some` exactly when the way holds an entry.
    keys: [[Option<K>; SETS]; WAYS],
    /// `entries[way][set]`: `Some` exactly when the key is.
    entries: [[Option<E>; SETS]; WAYS],
    /// `order[set]`: the set's recency order, one bit per pair of ways
    /// `i < j`, set when way `i` was used after way `j`.
    order: [u64; SETS],
    /// Hits, in two counters: see [`hit`](Self::hit).
    hits: [u64; 3],
    misses: u64,
    evictions: u64,
    invalidations: u64,
    pruned: u64,
}

/// The bit of the pair of ways `i < j` in a set's order word.
const fn pair_bit(ways: usize, i: usize, j: usize) -> u32 {
    (i * (2 * ways - i - 1) / 2 + (j - i - 1)) as u32
}

impl<K: CacheKey, E: Copy, const SETS: usize, const WAYS: usize> CallCache<K, E, SETS, WAYS> {
    /// `SETS` as a shift: the 32-bit hash's top `log2(SETS)` bits pick the
    /// set (`None` for a single set, whose shift would be 32).
    const SET_SHIFT: Option<u32> = {
        assert!(SETS.is_power_of_two(), "CallCache: SETS must be a power of two");
        assert!(SETS <= 1 << 31, "CallCache: SETS must fit a 32-bit hash");
        assert!(WAYS > 0, "CallCache: WAYS must be at least 1");
        if SETS == 1 { None } else { Some(u32::BITS - SETS.trailing_zeros()) }
    };

    /// Checks `WAYS` against the order word: one bit per pair of ways.
    const ORDER_FITS: () = assert!(WAYS <= 8, "CallCache: WAYS must be at most 8");

    /// `SET[w]`: the order bits that using way `w` sets, `CLEAR[w]` (below)
    /// those it clears; together, the bits of every pair way `w` is in.
    const SET: [u64; WAYS] = Self::masks(true);

    /// `CLEAR[w]`: the order bits that using way `w` clears.
    const CLEAR: [u64; WAYS] = Self::masks(false);

    /// The order word of an empty set: way 0 the least recently used, way
    /// `WAYS - 1` the most, so an empty set fills way 0 first.
    const FRESH: u64 = {
        let mut word = 0;
        let mut i = 0;
        while i + 2 < WAYS {
            word |= 1 << pair_bit(WAYS, i, WAYS - 2);
            i += 1;
        }
        word
    };

    /// `SET` (`set`) or `CLEAR` (`!set`).
    const fn masks(set: bool) -> [u64; WAYS] {
        let mut masks = [0; WAYS];
        let mut i = 0;
        while i < WAYS {
            let mut j = i + 1;
            while j < WAYS {
                // The pair's bit is set when way `i` was used after way `j`,
                // except for the pairs of way `WAYS - 2` with the ways below
                // it, where it is set when way `WAYS - 2` was.
                let bit = 1 << pair_bit(WAYS, i, j);
                let set_by_i = j != WAYS - 2;
                if set_by_i == set {
                    masks[i] |= bit;
                } else {
                    masks[j] |= bit;
                }
                j += 1;
            }
            i += 1;
        }
        masks
    }

    /// An empty cache.
    pub const fn new() -> Self {
        let () = Self::ORDER_FITS;
        Self {
            keys: [[None; SETS]; WAYS],
            entries: [[None; SETS]; WAYS],
            order: [Self::FRESH; SETS],
            hits: [0; 3],
            misses: 0,
            evictions: 0,
            invalidations: 0,
            pruned: 0,
        }
    }

    /// The set `key` lives in: the top bits of the 32-bit Fibonacci hash of
    /// its identity's low 32 bits.
    #[inline]
    pub fn set_index(key: K) -> usize {
        let hash = (key.identity() as u32).wrapping_mul(FIBONACCI);
        match Self::SET_SHIFT {
            // The mask changes nothing (the shift leaves log2(SETS) bits);
            // it lets the compiler see the index is in bounds.
            Some(shift) => (hash >> shift) as usize & (SETS - 1),
            None => 0,
        }
    }

    /// The way of set `set` holding `key`, if one does.
    #[inline]
    fn find(&self, set: usize, key: K) -> Option<usize> {
        (0..WAYS).find(|&way| self.keys[way][set] == Some(key))
    }

    /// How many ways of set `set` way `way` was used after (0: the least
    /// recently used way; `WAYS - 1`: the most recently used).
    fn rank(&self, set: usize, way: usize) -> u32 {
        let word = self.order[set];
        (word & Self::SET[way]).count_ones() + (!word & Self::CLEAR[way]).count_ones()
    }

    /// Makes way `way` of set `set` the most recently used.
    #[inline]
    fn touch(&mut self, set: usize, way: usize) {
        // For way `WAYS - 2` this is a lone `or`, for way `WAYS - 1` a lone
        // `and`.
        self.order[set] = self.order[set] & !Self::CLEAR[way] | Self::SET[way];
    }

    /// A copy of `key`'s entry, marking it most recently used; `None` on a
    /// miss.
    #[inline]
    pub fn get(&mut self, key: K) -> Option<E> {
        let set = Self::set_index(key);
        // Unrolled, each way gets its own hit path, whose masks and array
        // offsets are constants: a hit in way `w` is `w + 1` compares, an
        // `and` and an `add` on the set's word, and the copy of the entry.
        macro_rules! probe {
            ($($way:literal)*) => {$(
                if $way < WAYS && self.keys[$way][set] == Some(key) {
                    return self.hit(set, $way);
                }
            )*};
        }
        probe!(0 1 2 3 4 5 6 7);
        self.misses += 1;
        None
    }

    /// The hit path of way `way`: counts the hit, makes the way the most
    /// recently used and copies its entry out.
    #[inline]
    fn hit(&mut self, set: usize, way: usize) -> Option<E> {
        // The same three steps in a different order in neighbouring ways:
        // when every way's path ends alike, LLVM sinks the common tail into
        // one block reached through a jump, with the way's constants chosen
        // by `mov`s (two to four instructions more per hit).
        match way % 4 {
            0 => {
                self.hits[0] += 1;
                self.touch(set, way);
                self.entries[way][set]
            }
            1 => {
                self.touch(set, way);
                let entry = self.entries[way][set];
                self.hits[1] += 1;
                entry
            }
            2 => {
                self.touch(set, way);
                let entry = self.entries[way][set];
                self.hits[2] += 1;
                entry
            }
            _ => {
                self.touch(set, way);
                let entry = self.entries[way][set];
                self.hits[0] += 1;
                entry
            }
        }
    }

    /// Whether `key` has an entry, without touching LRU order or counters.
    pub fn contains(&self, key: K) -> bool {
        self.find(Self::set_index(key), key).is_some()
    }

    /// Stores `entry` for `key`, as the most recently used entry of its set.
    /// Replaces `key`'s entry if it has one; otherwise takes an empty way or
    /// evicts the least recently used one. Returns the evicted key.
    pub fn insert(&mut self, key: K, entry: E) -> Option<K> {
        let set = Self::set_index(key);
        if let Some(way) = self.find(set, key) {
            self.touch(set, way);
            self.entries[way][set] = Some(entry);
            return None;
        }
        // Emptied ways are made the least recently used, below every used
        // way: the least recently used way is an empty one if there is one.
        let word = self.order[set];
        let mut lru = 0;
        while lru + 1 < WAYS && (word & Self::SET[lru] != 0 || !word & Self::CLEAR[lru] != 0) {
            lru += 1;
        }
        let evicted = self.keys[lru][set].replace(key);
        self.entries[lru][set] = Some(entry);
        self.touch(set, lru);
        if evicted.is_some() {
            self.evictions += 1;
        }
        evicted
    }

    /// Empties way `way` of set `set` and makes it the least recently used.
    fn empty(&mut self, set: usize, way: usize) {
        self.keys[way][set] = None;
        self.entries[way][set] = None;
        self.order[set] = self.order[set] & !Self::SET[way] | Self::CLEAR[way];
    }

    /// Forgets `key`'s entry (its code is being detached). Returns whether
    /// it had one.
    pub fn invalidate(&mut self, key: K) -> bool {
        let set = Self::set_index(key);
        match self.find(set, key) {
            Some(way) => {
                self.empty(set, way);
                self.invalidations += 1;
                true
            }
            None => false,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.invalidations += self.len() as u64;
        self.keys = [[None; SETS]; WAYS];
        self.entries = [[None; SETS]; WAYS];
        self.order = [Self::FRESH; SETS];
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.keys.as_flattened().iter().filter(|key| key.is_some()).count()
    }

    /// Whether the cache has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every key with an entry, set by set.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        (0..SETS).flat_map(move |set| (0..WAYS).filter_map(move |way| self.keys[way][set]))
    }

    /// The keys of set `index`, most recently used first.
    ///
    /// # Panics
    /// If `index` is not below `SETS`.
    pub fn set_keys_by_recency(&self, index: usize) -> Vec<K> {
        assert!(index < SETS, "CallCache::set_keys_by_recency: set {index} of {SETS}");
        let mut ways: Vec<(u32, K)> =
            (0..WAYS).filter_map(|way| self.keys[way][index].map(|key| (self.rank(index, way), key))).collect();
        ways.sort_by_key(|&(rank, _)| std::cmp::Reverse(rank));
        ways.into_iter().map(|(_, key)| key).collect()
    }

    /// What the cache has done so far.
    pub fn counters(&self) -> CacheCounters {
        CacheCounters {
            hits: self.hits.iter().sum(),
            misses: self.misses,
            evictions: self.evictions,
            invalidations: self.invalidations,
            pruned: self.pruned,
        }
    }

    /// Drops every entry for which `dead(key)` holds; returns how many.
    pub fn prune(&mut self, mut dead: impl FnMut(K) -> bool) -> usize {
        let mut pruned = 0;
        for set in 0..SETS {
            for way in 0..WAYS {
                if self.keys[way][set].is_some_and(&mut dead) {
                    self.empty(set, way);
                    pruned += 1;
                }
            }
        }
        self.pruned += pruned as u64;
        pruned
    }
}

impl<K: CacheKey, E: Copy, const SETS: usize, const WAYS: usize> Default for CallCache<K, E, SETS, WAYS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: CacheKey + fmt::Debug, E: Copy, const SETS: usize, const WAYS: usize> fmt::Debug
    for CallCache<K, E, SETS, WAYS>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallCache")
            .field("sets", &SETS)
            .field("ways", &WAYS)
            .field("keys", &self.keys().collect::<Vec<_>>())
            .field("counters", &self.counters())
            .finish()
    }
}

/// End-of-collection reconciliation: entries whose executable died go.
impl<K, E, const SETS: usize, const WAYS: usize> Reconciler for CallCache<K, E, SETS, WAYS>
where
    K: CacheKey + Into<GcAny>,
    E: Copy,
{
    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        self.prune(|key| !liveness.is_live(key));
    }
}

#[cfg(test)]
mod tests;
