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
/// share a set; the cells of one heap differ below it). Keys, LRU stamps and
/// entries live in three way-major arrays (`keys[way][set]`). Viewed flat,
/// way `w` of set `s` is slot `w × SETS + s` of each array, so the set index
/// is the scaled index of every compare and store, and a hit in way `w`
/// costs the hash (a multiply and a shift), `w + 1` compare-and-branch
/// pairs, one `or` naming the slot, a clock tick stored as the slot's
/// stamp, and the copy of the entry: no set base pointer, no way pointer.
/// The smallest stamp of a set is its least recently used way (empty ways
/// hold 0); there is no per-hit counter beyond the clock (hits are derived
/// from it). With the default 8 sets a way's keys are one 64-byte line.
///
/// `cargo xtask bench microtask` reports the instructions per hit in each
/// way under callgrind. A branch-free compare of all four keys was tried on
/// paper and not taken: without SSE4.1's 64-bit `pcmpeqq` (the baseline
/// x86-64 target has only SSE2), broadcasting the key, comparing, folding
/// 32-bit halves and turning the mask into a slot costs more instructions
/// than the three compare-and-branch pairs it would replace.
pub struct CallCache<K, E, const SETS: usize = 8, const WAYS: usize = 4> {
    /// `keys[way][set]`: `Some` exactly when the way holds an entry.
    keys: [[Option<K>; SETS]; WAYS],
    /// `stamps[way][set]`: the clock when the way was last used; 0 when
    /// empty.
    stamps: [[u64; SETS]; WAYS],
    /// `entries[way][set]`: `Some` exactly when the key is.
    entries: [[Option<E>; SETS]; WAYS],
    /// Ticks on every hit and insertion: the LRU stamps' source.
    clock: u64,
    /// Calls of `insert` (`clock - insertions` is the hit count).
    insertions: u64,
    misses: u64,
    evictions: u64,
    invalidations: u64,
    pruned: u64,
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

    /// An empty cache.
    pub const fn new() -> Self {
        Self {
            keys: [[None; SETS]; WAYS],
            stamps: [[0; SETS]; WAYS],
            entries: [[None; SETS]; WAYS],
            clock: 0,
            insertions: 0,
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

    /// The slots of set `set` in the flat arrays, way 0 first.
    #[inline]
    fn slots(set: usize) -> impl Iterator<Item = usize> {
        (set..SETS * WAYS).step_by(SETS)
    }

    /// The slot of set `set` holding `key`, if one does.
    #[inline]
    fn find(&self, set: usize, key: K) -> Option<usize> {
        let keys = self.keys.as_flattened();
        let mut slot = set;
        while slot < SETS * WAYS {
            if keys[slot] == Some(key) {
                return Some(slot);
            }
            slot += SETS;
        }
        None
    }

    /// A copy of `key`'s entry, marking it most recently used; `None` on a
    /// miss.
    #[inline]
    pub fn get(&mut self, key: K) -> Option<E> {
        let keys = self.keys.as_flattened();
        // Written as a loop over flat slots with the hit's work inside it:
        // unrolled, the compares address `keys[slot]` straight from the set
        // index, and a hit reaches its stamp and entry through the slot.
        let mut slot = Self::set_index(key);
        while slot < SETS * WAYS {
            if keys[slot] == Some(key) {
                self.clock += 1;
                self.stamps.as_flattened_mut()[slot] = self.clock;
                return self.entries.as_flattened()[slot];
            }
            slot += SETS;
        }
        self.misses += 1;
        None
    }

    /// Whether `key` has an entry, without touching LRU order or counters.
    pub fn contains(&self, key: K) -> bool {
        self.find(Self::set_index(key), key).is_some()
    }

    /// Stores `entry` for `key`, as the most recently used entry of its set.
    /// Replaces `key`'s entry if it has one; otherwise takes an empty way or
    /// evicts the least recently used one. Returns the evicted key.
    pub fn insert(&mut self, key: K, entry: E) -> Option<K> {
        // Every insertion ticks the clock and is counted, so that
        // `clock - insertions` stays the number of hits.
        self.clock += 1;
        self.insertions += 1;
        let stamp = self.clock;
        let set = Self::set_index(key);
        if let Some(slot) = self.find(set, key) {
            self.stamps.as_flattened_mut()[slot] = stamp;
            self.entries.as_flattened_mut()[slot] = Some(entry);
            return None;
        }
        // An empty way has stamp 0, below every used way's: the least
        // recently used way is an empty one if there is one.
        let stamps = self.stamps.as_flattened();
        let mut lru = set;
        let mut slot = set + SETS;
        while slot < SETS * WAYS {
            if stamps[slot] < stamps[lru] {
                lru = slot;
            }
            slot += SETS;
        }
        let evicted = self.keys.as_flattened_mut()[lru].replace(key);
        self.stamps.as_flattened_mut()[lru] = stamp;
        self.entries.as_flattened_mut()[lru] = Some(entry);
        if evicted.is_some() {
            self.evictions += 1;
        }
        evicted
    }

    /// Empties slot `slot`.
    fn empty(&mut self, slot: usize) {
        self.keys.as_flattened_mut()[slot] = None;
        self.stamps.as_flattened_mut()[slot] = 0;
        self.entries.as_flattened_mut()[slot] = None;
    }

    /// Forgets `key`'s entry (its code is being detached). Returns whether
    /// it had one.
    pub fn invalidate(&mut self, key: K) -> bool {
        match self.find(Self::set_index(key), key) {
            Some(slot) => {
                self.empty(slot);
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
        self.stamps = [[0; SETS]; WAYS];
        self.entries = [[None; SETS]; WAYS];
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
        let keys = self.keys.as_flattened();
        (0..SETS).flat_map(move |set| Self::slots(set).filter_map(move |slot| keys[slot]))
    }

    /// The keys of set `index`, most recently used first.
    ///
    /// # Panics
    /// If `index` is not below `SETS`.
    pub fn set_keys_by_recency(&self, index: usize) -> Vec<K> {
        assert!(index < SETS, "CallCache::set_keys_by_recency: set {index} of {SETS}");
        let (keys, stamps) = (self.keys.as_flattened(), self.stamps.as_flattened());
        let mut ways: Vec<(u64, K)> =
            Self::slots(index).filter_map(|slot| keys[slot].map(|key| (stamps[slot], key))).collect();
        ways.sort_by_key(|&(stamp, _)| std::cmp::Reverse(stamp));
        ways.into_iter().map(|(_, key)| key).collect()
    }

    /// What the cache has done so far.
    pub fn counters(&self) -> CacheCounters {
        CacheCounters {
            hits: self.clock - self.insertions,
            misses: self.misses,
            evictions: self.evictions,
            invalidations: self.invalidations,
            pruned: self.pruned,
        }
    }

    /// Drops every entry for which `dead(key)` holds; returns how many.
    pub fn prune(&mut self, mut dead: impl FnMut(K) -> bool) -> usize {
        let mut pruned = 0;
        for slot in 0..SETS * WAYS {
            if self.keys.as_flattened()[slot].is_some_and(&mut dead) {
                self.empty(slot);
                pruned += 1;
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
