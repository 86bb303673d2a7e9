use std::collections::HashMap;
use std::num::NonZeroU64;

use proptest::prelude::*;

use super::{CacheCounters, CallCache};

type Cache = CallCache<NonZeroU64, u32>;

/// Key `i`: addresses of 64-byte code cells laid out one after another, as
/// a heap's size-class block would hold them.
fn key(i: u64) -> NonZeroU64 {
    NonZeroU64::new(0x7f00_0000_0000 + 64 * i).unwrap()
}

/// The reference model: per set, keys most recently used first.
struct LruModel {
    sets: HashMap<usize, Vec<NonZeroU64>>,
    ways: usize,
}

impl LruModel {
    fn new(ways: usize) -> Self {
        Self { sets: HashMap::new(), ways }
    }

    /// One "look up, insert on a miss" access: whether it hit, and the key
    /// it evicted.
    fn access(&mut self, key: NonZeroU64) -> (bool, Option<NonZeroU64>) {
        let set = self.sets.entry(Cache::set_index(key)).or_default();
        if let Some(position) = set.iter().position(|k| *k == key) {
            set.remove(position);
            set.insert(0, key);
            return (true, None);
        }
        set.insert(0, key);
        let evicted = (set.len() > self.ways).then(|| set.pop().unwrap());
        (false, evicted)
    }

    fn invalidate(&mut self, key: NonZeroU64) -> bool {
        let set = self.sets.entry(Cache::set_index(key)).or_default();
        let before = set.len();
        set.retain(|k| *k != key);
        set.len() != before
    }
}

fn access(cache: &mut Cache, key: NonZeroU64) -> (bool, Option<NonZeroU64>) {
    match cache.get(key) {
        Some(entry) => {
            assert_eq!(u64::from(entry), key.get() % 1000, "entry of {key}");
            (true, None)
        }
        None => (false, cache.insert(key, (key.get() % 1000) as u32)),
    }
}

#[test]
fn sixteen_keys_taking_turns_always_hit_after_warm_up() {
    let keys: Vec<NonZeroU64> = (0..16).map(key).collect();
    let mut per_set = [0; 8];
    for &k in &keys {
        per_set[Cache::set_index(k)] += 1;
    }
    assert!(per_set.iter().all(|&n| n <= 4), "16 consecutive cells spread over the sets: {per_set:?}");

    let mut cache = Cache::new();
    for &k in &keys {
        assert_eq!(access(&mut cache, k), (false, None));
    }
    for _ in 0..100 {
        for &k in &keys {
            assert!(access(&mut cache, k).0, "{k} missed after warm-up");
        }
    }
    assert_eq!(cache.counters(), CacheCounters { hits: 1600, misses: 16, ..CacheCounters::default() });
    assert_eq!(cache.len(), 16);
}

#[test]
fn forty_eight_keys_taking_turns_match_the_lru_model() {
    let mut cache = Cache::new();
    let mut model = LruModel::new(4);
    let mut evictions = 0;
    for round in 0..20 {
        for i in 0..48 {
            let k = key(i);
            let expected = model.access(k);
            assert_eq!(access(&mut cache, k), expected, "round {round}, key {i}");
            evictions += u64::from(expected.1.is_some());
        }
    }
    assert_eq!(cache.counters().evictions, evictions);
    assert!(evictions > 0, "48 keys cannot fit in 32 ways");
    assert_eq!(cache.len(), 32);
}

#[test]
fn least_recently_used_way_is_evicted() {
    let mut cache: CallCache<NonZeroU64, u32, 1, 4> = CallCache::new();
    for i in 1..=4 {
        cache.insert(key(i), i as u32);
    }
    // Use 1, so 2 is now the least recently used.
    assert_eq!(cache.get(key(1)), Some(1));
    assert_eq!(cache.insert(key(5), 5), Some(key(2)));
    assert_eq!(cache.set_keys_by_recency(0), [key(5), key(1), key(4), key(3)]);
    // Re-inserting an existing key replaces its entry and evicts nothing.
    assert_eq!(cache.insert(key(3), 33), None);
    assert_eq!(cache.get(key(3)), Some(33));
    assert_eq!(cache.counters().evictions, 1);
}

#[test]
fn invalidate_and_clear_forget_entries() {
    let mut cache = Cache::new();
    for i in 0..10 {
        cache.insert(key(i), i as u32);
    }
    assert!(cache.invalidate(key(3)));
    assert!(!cache.invalidate(key(3)));
    assert!(!cache.contains(key(3)));
    assert_eq!(cache.get(key(3)), None);
    assert_eq!(cache.len(), 9);
    cache.clear();
    assert!(cache.is_empty());
    assert_eq!(cache.counters().invalidations, 10);
    assert_eq!(cache.get(key(4)), None);
}

#[test]
fn prune_removes_exactly_the_matching_keys() {
    let mut cache = Cache::new();
    for i in 0..20 {
        cache.insert(key(i), i as u32);
    }
    let before: Vec<NonZeroU64> = cache.keys().collect();
    let removed = cache.prune(|k| k.get() % 128 == 0);
    let after: Vec<NonZeroU64> = cache.keys().collect();
    assert_eq!(removed, before.len() - after.len());
    assert!(after.iter().all(|k| k.get() % 128 != 0));
    assert_eq!(before.iter().filter(|k| k.get() % 128 != 0).count(), after.len());
    assert_eq!(cache.counters().pruned, removed as u64);
}

#[test]
fn one_set_cache_works() {
    let mut cache: CallCache<u64, u8, 1, 2> = CallCache::new();
    assert_eq!(CallCache::<u64, u8, 1, 2>::set_index(u64::MAX), 0);
    cache.insert(1, 1);
    cache.insert(2, 2);
    assert_eq!(cache.insert(3, 3), Some(1));
}

#[derive(Debug, Clone)]
enum Op {
    Access(u64),
    Invalidate(u64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        20 => (0..48_u64).prop_map(Op::Access),
        1 => (0..48_u64).prop_map(Op::Invalidate),
    ]
}

proptest! {
    #[test]
    fn random_accesses_over_48_keys_match_the_lru_model(ops in proptest::collection::vec(op(), 1..600)) {
        let mut cache = Cache::new();
        let mut model = LruModel::new(4);
        for op in ops {
            match op {
                Op::Access(i) => prop_assert_eq!(access(&mut cache, key(i)), model.access(key(i))),
                Op::Invalidate(i) => prop_assert_eq!(cache.invalidate(key(i)), model.invalidate(key(i))),
            }
        }
        for set in 0..8 {
            let expected = model.sets.get(&set).cloned().unwrap_or_default();
            prop_assert_eq!(cache.set_keys_by_recency(set), expected);
        }
    }
}

/// One set of `W` ways against a most-recent-first list, over a fixed
/// pseudo-random mix of accesses and invalidations of `2 * W` keys.
fn one_set_matches_the_lru_model<const W: usize>() {
    let mut cache: CallCache<NonZeroU64, u32, 1, W> = CallCache::new();
    let mut model: Vec<NonZeroU64> = Vec::new();
    let mut state = 0x2545_f491_u64;
    for step in 0..4000 {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let k = key((state >> 33) % (2 * W as u64));
        if (state >> 20).is_multiple_of(16) {
            let had = model.iter().position(|m| *m == k).map(|p| model.remove(p)).is_some();
            assert_eq!(cache.invalidate(k), had, "{W} ways, step {step}");
            continue;
        }
        let hit = cache.get(k).is_some();
        assert_eq!(hit, model.contains(&k), "{W} ways, step {step}");
        if hit {
            model.retain(|m| *m != k);
        } else {
            let evicted = cache.insert(k, 0);
            let expected = (model.len() == W).then(|| model.pop().unwrap());
            assert_eq!(evicted, expected, "{W} ways, step {step}");
        }
        model.insert(0, k);
        assert_eq!(cache.set_keys_by_recency(0), model, "{W} ways, step {step}");
    }
}

#[test]
fn every_way_count_keeps_exact_lru_order() {
    one_set_matches_the_lru_model::<1>();
    one_set_matches_the_lru_model::<2>();
    one_set_matches_the_lru_model::<3>();
    one_set_matches_the_lru_model::<4>();
    one_set_matches_the_lru_model::<5>();
    one_set_matches_the_lru_model::<8>();
}
