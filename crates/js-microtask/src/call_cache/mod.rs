//! `CallCache`: the per-VM microtask call cache, set-associative with LRU
//! replacement within a set.

mod key;

use std::fmt;

use js_gc::{GcAny, Liveness, Reconciler};

pub use key::CacheKey;

/// Fibonacci hashing's multiplier (2^64 / φ): spreads the set-selecting
/// bits of addresses that differ only in their low or middle bits.
const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

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

/// One way of a set: a key, the cache clock when it was last used (the
/// smallest stamp in a set is its least recently used way; empty ways hold
/// 0) and its entry (`Some` exactly when the key is). Key, stamp and entry
/// sit together so a hit touches one way and needs no index arithmetic.
#[derive(Clone, Copy)]
struct Way<K, E> {
    key: Option<K>,
    stamp: u64,
    entry: Option<E>,
}

impl<K: CacheKey, E: Copy> Way<K, E> {
    const EMPTY: Self = Self { key: None, stamp: 0, entry: None };
}

/// One set: `WAYS` ways.
type Set<K, E, const WAYS: usize> = [Way<K, E>; WAYS];

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
/// A set is chosen by Fibonacci-hashing [`CacheKey::identity`]. A hit costs
/// the hash, up to `WAYS` key comparisons, a clock tick stored as the way's
/// stamp, and the copy of the entry; there is no per-hit counter beyond the
/// clock (hits are derived from it).
pub struct CallCache<K, E, const SETS: usize = 8, const WAYS: usize = 4> {
    sets: [Set<K, E, WAYS>; SETS],
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
    /// `SETS` as a shift: the hash's top `log2(SETS)` bits pick the set.
    const SET_SHIFT: u32 = {
        assert!(SETS.is_power_of_two(), "CallCache: SETS must be a power of two");
        assert!(WAYS > 0, "CallCache: WAYS must be at least 1");
        u64::BITS - SETS.trailing_zeros()
    };

    /// An empty cache.
    pub const fn new() -> Self {
        Self {
            sets: [[Way::EMPTY; WAYS]; SETS],
            clock: 0,
            insertions: 0,
            misses: 0,
            evictions: 0,
            invalidations: 0,
            pruned: 0,
        }
    }

    /// The set `key` lives in: the top bits of its Fibonacci hash.
    #[inline]
    pub fn set_index(key: K) -> usize {
        let hash = key.identity().wrapping_mul(FIBONACCI);
        // `checked_shr` covers SETS == 1 (a shift by 64).
        hash.checked_shr(Self::SET_SHIFT).unwrap_or(0) as usize
    }

    /// A copy of `key`'s entry, marking it most recently used; `None` on a
    /// miss.
    #[inline]
    pub fn get(&mut self, key: K) -> Option<E> {
        let set = &mut self.sets[Self::set_index(key)];
        if let Some(way) = set.iter_mut().find(|way| way.key == Some(key)) {
            self.clock += 1;
            way.stamp = self.clock;
            return way.entry;
        }
        self.misses += 1;
        None
    }

    /// Whether `key` has an entry, without touching LRU order or counters.
    pub fn contains(&self, key: K) -> bool {
        self.sets[Self::set_index(key)].iter().any(|way| way.key == Some(key))
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
        let set = &mut self.sets[Self::set_index(key)];
        if let Some(way) = set.iter_mut().find(|way| way.key == Some(key)) {
            way.entry = Some(entry);
            way.stamp = stamp;
            return None;
        }
        // An empty way has stamp 0, below every used way's: the least
        // recently used way is an empty one if there is one.
        let mut lru = 0;
        for way in 1..WAYS {
            if set[way].stamp < set[lru].stamp {
                lru = way;
            }
        }
        let evicted = set[lru].key;
        if evicted.is_some() {
            self.evictions += 1;
        }
        set[lru] = Way { key: Some(key), stamp, entry: Some(entry) };
        evicted
    }

    /// Forgets `key`'s entry (its code is being detached). Returns whether
    /// it had one.
    pub fn invalidate(&mut self, key: K) -> bool {
        let set = &mut self.sets[Self::set_index(key)];
        match set.iter_mut().find(|way| way.key == Some(key)) {
            Some(way) => {
                *way = Way::EMPTY;
                self.invalidations += 1;
                true
            }
            None => false,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.invalidations += self.len() as u64;
        self.sets = [[Way::EMPTY; WAYS]; SETS];
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.sets.iter().flatten().filter(|way| way.key.is_some()).count()
    }

    /// Whether the cache has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every key with an entry, set by set.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        self.sets.iter().flatten().filter_map(|way| way.key)
    }

    /// The keys of set `index`, most recently used first.
    ///
    /// # Panics
    /// If `index` is not below `SETS`.
    pub fn set_keys_by_recency(&self, index: usize) -> Vec<K> {
        let mut ways: Vec<&Way<K, E>> = self.sets[index].iter().filter(|way| way.key.is_some()).collect();
        ways.sort_by_key(|way| std::cmp::Reverse(way.stamp));
        ways.into_iter().filter_map(|way| way.key).collect()
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
        for way in self.sets.iter_mut().flatten() {
            if way.key.is_some_and(&mut dead) {
                *way = Way::EMPTY;
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
