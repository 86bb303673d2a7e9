//! End-of-collection reconciliation of the call cache, with a real heap.

use js_gc::{Gc, GcAny, Heap, HeapConfig, Liveness, Reconciler, Roots, Trace, Tracer};
use js_microtask::CallCache;

/// An executable: a code cell the cache is keyed by.
struct Executable {
    id: u32,
}

// SAFETY: an executable owns no heap pointers.
unsafe impl Trace for Executable {
    const NEEDS_TRACE: bool = false;
    fn trace(&self, _tracer: &mut Tracer) {}
}

type Cache = CallCache<Gc<Executable>, u32>;

/// The VM's side of a collection: live executables, and the cache.
struct Vm {
    live: Vec<Gc<Executable>>,
    cache: Cache,
}

impl Roots for Vm {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.live.trace(tracer);
    }

    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        self.cache.reconcile(liveness);
    }
}

fn heap() -> Heap {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    unsafe { Heap::with_config(HeapConfig { stress: false, ..HeapConfig::default() }) }
}

#[test]
fn reconciliation_removes_exactly_the_dead_keys() {
    let mut heap = heap();
    let executables: Vec<Gc<Executable>> = (0..24).map(|id| heap.alloc(Executable { id })).collect();
    let mut vm = Vm { live: Vec::new(), cache: Cache::new() };
    for &executable in &executables {
        vm.cache.insert(executable, executable.borrow(&heap).id);
    }
    let cached: Vec<Gc<Executable>> = vm.cache.keys().collect();
    // Every third executable stays reachable.
    vm.live = executables.iter().copied().filter(|e| e.borrow(&heap).id % 3 == 0).collect();
    let live_ids: Vec<u32> = vm.live.iter().map(|e| e.borrow(&heap).id).collect();
    let expected: Vec<Gc<Executable>> = cached.iter().copied().filter(|k| vm.live.contains(k)).collect();
    let dead_cached = cached.len() - expected.len();

    // SAFETY: afterwards only `vm.live` (and the cache's surviving keys,
    // which reconciliation guarantees are live) are used.
    let report = unsafe { heap.collect(&mut vm) };
    assert_eq!(report.freed_objects, 16);

    let mut remaining: Vec<Gc<Executable>> = vm.cache.keys().collect();
    let mut expected = expected;
    remaining.sort_by_key(|k| k.as_any().addr());
    expected.sort_by_key(|k| k.as_any().addr());
    assert_eq!(remaining, expected);
    assert_eq!(vm.cache.counters().pruned, dead_cached as u64);
    for &executable in &vm.live.clone() {
        if let Some(id) = vm.cache.get(executable) {
            assert!(live_ids.contains(&id));
            assert_eq!(id, executable.borrow(&heap).id);
        }
    }
}

/// Roots one cell and reconciles one cache.
struct Keep<'a>(GcAny, &'a mut CallCache<GcAny, u8>);
impl Roots for Keep<'_> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.0.trace(tracer);
    }
    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        self.1.reconcile(liveness);
    }
}

#[test]
fn a_cache_keyed_by_gc_any_reconciles_too() {
    let mut heap = heap();
    let keep = heap.alloc(Executable { id: 1 }).as_any();
    let lose = heap.alloc(Executable { id: 2 }).as_any();
    let mut cache: CallCache<GcAny, u8> = CallCache::new();
    cache.insert(keep, 1);
    cache.insert(lose, 2);

    // SAFETY: only `keep` is used afterwards.
    unsafe { heap.collect(&mut Keep(keep, &mut cache)) };
    assert_eq!(cache.keys().collect::<Vec<_>>(), [keep]);
}

#[test]
fn sixteen_heap_executables_taking_turns_always_hit() {
    let mut heap = heap();
    let executables: Vec<Gc<Executable>> = (0..16).map(|id| heap.alloc(Executable { id })).collect();
    let mut cache = Cache::new();
    for &executable in &executables {
        assert_eq!(cache.get(executable), None);
        cache.insert(executable, 0);
    }
    for _ in 0..50 {
        for &executable in &executables {
            assert_eq!(cache.get(executable), Some(0));
        }
    }
    assert_eq!(cache.counters().hits, 800);
    assert_eq!(cache.counters().misses, 16);
}
