use std::cell::Cell;
use std::rc::Rc;

use super::size_class::BLOCK_SIZE;
use crate::test_cells::{DropLog, Node, node, quiet_heap};
use crate::{Gc, GcAny, HandleScope, Heap, HeapConfig, Liveness, Reconciler, Roots, Trace, Tracer};

#[test]
fn alloc_borrow_and_mutate() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let a = heap.alloc(41_u64);
    let s = heap.alloc(String::from("hello"));
    *a.borrow_mut(&mut heap) += 1;
    s.borrow_mut(&mut heap).push_str(", world");
    assert_eq!(*a.borrow(&heap), 42);
    assert_eq!(s.borrow(&heap), "hello, world");
    assert!(Gc::ptr_eq(a, a));
    assert_eq!(a.as_any().type_name(), "u64");
    assert_eq!(a.as_any().downcast::<u64>(), Some(a));
    assert_eq!(a.as_any().downcast::<String>(), None);
}

#[test]
fn raw_pointers_round_trip_and_are_aligned() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let a = heap.alloc(7_u32);
    let raw = a.into_raw();
    assert_eq!(raw.as_ptr() as usize % 8, 0);
    // SAFETY: `raw` came from `a`, which is live.
    let back: Gc<u32> = unsafe { Gc::from_raw(raw) };
    assert_eq!(back, a);
    // SAFETY: as above.
    let any = unsafe { GcAny::from_raw(raw) };
    assert_eq!(any, a.as_any());
    assert_eq!(*back.borrow(&heap), 7);
}

#[test]
fn collect_frees_exactly_the_unreachable_and_drops_them() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let log = DropLog::default();
    let leaf = node(&mut heap, &log, 3, vec![]);
    let middle = node(&mut heap, &log, 2, vec![leaf]);
    let top = node(&mut heap, &log, 1, vec![middle]);
    node(&mut heap, &log, 10, vec![]);
    // Points into the live graph but is not reachable itself.
    node(&mut heap, &log, 11, vec![top]);
    // A cycle: 12 -> 13 -> 12, unreachable.
    let cycle = node(&mut heap, &log, 12, vec![]);
    let other = node(&mut heap, &log, 13, vec![cycle]);
    cycle.borrow_mut(&mut heap).edges.push(other);

    let mut roots = vec![top];
    // SAFETY: only top, middle and leaf are used afterwards.
    let report = unsafe { heap.collect(&mut roots) };
    assert_eq!(report.live_objects, 3);
    assert_eq!(report.freed_objects, 4);
    assert_eq!(log.dropped(), vec![10, 11, 12, 13]);
    assert_eq!(top.borrow(&heap).edges[0].borrow(&heap).edges[0], leaf);
    assert_eq!(heap.stats().objects_of("Node"), 3);
    assert_eq!(heap.epoch(), 1);
}

#[test]
fn long_chains_mark_without_recursion() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let log = DropLog::default();
    let mut first = node(&mut heap, &log, 0, vec![]);
    for id in 1..200_000 {
        first = node(&mut heap, &log, id, vec![first]);
    }
    let mut roots = vec![first];
    // SAFETY: only `first` is used afterwards.
    let report = unsafe { heap.collect(&mut roots) };
    assert_eq!(report.live_objects, 200_000);
    assert!(log.dropped().is_empty());
}

#[test]
fn free_cells_are_reused_and_empty_blocks_released() {
    let mut heap = quiet_heap();
    let first: Vec<Gc<[u64; 3]>> = (0..10_000).map(|i| heap.alloc([i; 3])).collect();
    let size_before = heap.stats().heap_size;
    let keep = vec![first[0]];
    let addresses: std::collections::HashSet<usize> = first.iter().map(|g| g.as_any().addr()).collect();
    let mut roots = keep;
    // SAFETY: only `first[0]` is used afterwards.
    unsafe { heap.collect(&mut roots) };
    let stats = heap.stats();
    assert_eq!(stats.live_objects, 1);
    assert!(stats.heap_size < size_before, "empty blocks were not released");
    // New cells come from the freed ones of kept blocks before fresh memory.
    let again = heap.alloc([7; 3]);
    assert!(addresses.contains(&again.as_any().addr()));
    assert_eq!(*roots[0].borrow(&heap), [0; 3]);
}

#[test]
fn stats_count_exactly_per_type() {
    let mut heap = quiet_heap();
    for i in 0..1000_u32 {
        heap.alloc(i);
    }
    for _ in 0..10 {
        heap.alloc(String::new());
    }
    heap.alloc([0_u8; 5000]);
    let stats = heap.stats();
    assert_eq!(stats.objects_of("u32"), 1000);
    assert_eq!(stats.objects_of("alloc::string::String"), 10);
    assert_eq!(stats.objects_of("[u8; 5000]"), 1);
    assert_eq!(stats.live_objects, 1011);
    let u32s = stats.types.iter().find(|t| t.name == "u32").unwrap();
    assert_eq!((u32s.cell_size, u32s.bytes), (16, 16_000));
    let large = stats.types.iter().find(|t| t.name == "[u8; 5000]").unwrap();
    assert_eq!(large.bytes, 5008);
    assert_eq!(stats.total_allocated_bytes, 16_000 + 10 * 32 + 5008);
    // SAFETY: nothing is used afterwards.
    unsafe { heap.collect(&mut ()) };
    let stats = heap.stats();
    assert_eq!((stats.live_objects, stats.live_bytes, stats.collections), (0, 0, 1));
}

#[test]
fn large_and_over_aligned_cells() {
    #[repr(align(64))]
    struct Aligned(u8);
    // SAFETY: no heap pointers.
    unsafe impl Trace for Aligned {
        const NEEDS_TRACE: bool = false;
        fn trace(&self, _: &mut Tracer) {}
    }
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let big = heap.alloc(vec![1_u8; 10].into_boxed_slice());
    let huge = heap.alloc([3_u64; 1000]);
    let aligned = heap.alloc(Aligned(9));
    let _dead = heap.alloc([4_u64; 1000]);
    assert_eq!(std::ptr::from_ref(aligned.borrow(&heap)) as usize % 64, 0);
    let mut roots = vec![huge.as_any(), aligned.as_any(), big.as_any()];
    // SAFETY: only rooted cells are used afterwards.
    let report = unsafe { heap.collect(&mut roots) };
    assert_eq!((report.live_objects, report.freed_objects), (3, 1));
    assert_eq!(huge.borrow(&heap)[999], 3);
    assert_eq!(aligned.borrow(&heap).0, 9);
    assert_eq!(big.borrow(&heap).len(), 10);
}

#[test]
fn persistent_roots_and_handle_scopes() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let log = DropLog::default();
    let rooted = node(&mut heap, &log, 1, vec![]);
    let root = heap.root(rooted);
    let clone = root.clone();
    assert_eq!(heap.root_count(), 2);
    drop(root);
    {
        let outer = HandleScope::new(&heap);
        let a = outer.root(node(&mut heap, &log, 2, vec![]));
        {
            let inner = HandleScope::new(&heap);
            let _b = inner.root(node(&mut heap, &log, 3, vec![]));
            assert_eq!(heap.handle_count(), 2);
            // SAFETY: only rooted cells are used afterwards.
            unsafe { heap.collect(&mut ()) };
            assert!(log.dropped().is_empty());
        }
        assert_eq!(heap.handle_count(), 1);
        // SAFETY: as above.
        unsafe { heap.collect(&mut ()) };
        assert_eq!(log.dropped(), vec![3]);
        assert_eq!(a.get().borrow(&heap).id, 2);
    }
    // SAFETY: as above.
    unsafe { heap.collect(&mut ()) };
    assert_eq!(log.dropped(), vec![2, 3]);
    assert_eq!(clone.get().borrow(&heap).id, 1);
    drop(clone);
    assert_eq!(heap.root_count(), 0);
    // SAFETY: nothing is used afterwards.
    unsafe { heap.collect(&mut ()) };
    assert_eq!(log.dropped(), vec![1, 2, 3]);
}

/// A cache keyed by cells, as an engine's inline caches are.
struct KeyCache {
    keys: Vec<GcAny>,
    dropped: Vec<GcAny>,
}

impl Reconciler for KeyCache {
    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        let (live, dead): (Vec<GcAny>, Vec<GcAny>) = self.keys.iter().partition(|key| liveness.is_live(**key));
        self.keys = live;
        self.dropped = dead;
    }
}

struct EngineRoots {
    stack: Vec<Gc<Node>>,
    cache: KeyCache,
    reconciled_in: Option<u64>,
}

impl Roots for EngineRoots {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.stack.trace(tracer);
    }

    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        self.reconciled_in = Some(liveness.epoch());
        self.cache.reconcile(liveness);
    }
}

#[test]
fn reconcilers_see_exactly_the_dead_keys() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let log = DropLog::default();
    let nodes: Vec<Gc<Node>> = (0..6).map(|id| node(&mut heap, &log, id, vec![])).collect();
    let mut roots = EngineRoots {
        stack: vec![nodes[0], nodes[2], nodes[4]],
        cache: KeyCache { keys: nodes.iter().map(|n| n.as_any()).collect(), dropped: vec![] },
        reconciled_in: None,
    };
    // SAFETY: only the stack's nodes are used afterwards.
    unsafe { heap.collect(&mut roots) };
    assert_eq!(roots.reconciled_in, Some(1));
    assert_eq!(roots.cache.keys, vec![nodes[0].as_any(), nodes[2].as_any(), nodes[4].as_any()]);
    assert_eq!(roots.cache.dropped.len(), 3);
    assert_eq!(log.dropped(), vec![1, 3, 5]);
}

#[test]
fn allocation_debt_triggers_collection() {
    let config = HeapConfig { growth_factor: 1.0, min_collection_threshold: 1 << 20, stress: false, poison: false };
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::with_config(config) };
    assert!(!heap.should_collect());
    let kept: Vec<Gc<[u64; 7]>> = (0..20_000).map(|_| heap.alloc([0; 7])).collect(); // 64 B cells: 1.28 MB
    assert!(heap.should_collect());
    let mut roots = kept;
    // SAFETY: only the rooted cells are used afterwards.
    let report = unsafe { heap.safepoint(&mut roots) }.expect("a collection was due");
    assert_eq!(report.live_bytes, 20_000 * 64);
    assert!(!heap.should_collect());
    // The next one is due after allocating as much again as survived.
    for _ in 0..19_999 {
        heap.alloc([0_u64; 7]);
    }
    assert!(!heap.should_collect());
    heap.alloc([0_u64; 7]);
    assert!(heap.should_collect());
    // SAFETY: as above.
    assert!(unsafe { heap.safepoint(&mut roots) }.is_some());
}

#[test]
fn stress_mode_collects_at_every_safepoint_after_an_allocation() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::with_config(HeapConfig { stress: true, ..HeapConfig::default() }) };
    assert!(!heap.should_collect(), "nothing allocated yet");
    let kept = heap.alloc(5_u64);
    assert!(heap.should_collect());
    let mut roots = vec![kept];
    for _ in 0..3 {
        heap.alloc(0_u64);
        // SAFETY: only `kept` is used afterwards.
        assert!(unsafe { heap.safepoint(&mut roots) }.is_some());
        // Nothing allocated since: no threshold could make one due.
        // SAFETY: as above.
        assert!(unsafe { heap.safepoint(&mut roots) }.is_none());
    }
    assert_eq!(heap.epoch(), 3);
    assert_eq!(*kept.borrow(&heap), 5);
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "use of a collected")]
fn use_after_collection_is_detected_in_debug_builds() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::with_config(HeapConfig { stress: true, ..HeapConfig::default() }) };
    let lost = heap.alloc(String::from("not rooted"));
    // SAFETY: deliberately broken: `lost` is used afterwards.
    unsafe { heap.collect(&mut ()) };
    let _ = lost.borrow(&heap).len();
}

#[test]
#[should_panic(expected = "written to after its collection")]
fn write_after_free_is_detected_in_stress_mode() {
    // Poison explicitly: release builds poison only when the environment asks.
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::with_config(HeapConfig { stress: true, poison: true, ..HeapConfig::default() }) };
    let lost = heap.alloc([1_u64; 2]);
    let raw = std::ptr::from_ref(lost.borrow(&heap)).cast_mut();
    // SAFETY: nothing is used afterwards... except deliberately, below.
    unsafe { heap.collect(&mut ()) };
    // SAFETY: deliberately broken: the cell is freed (but its block is kept
    // in quarantine, so the write itself hits mapped memory).
    unsafe { raw.cast::<u64>().write(99) };
    // SAFETY: nothing is used afterwards.
    unsafe { heap.collect(&mut ()) };
}

#[test]
fn poisoned_cells_are_poisoned() {
    // Poison explicitly: release builds poison only when the environment asks.
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::with_config(HeapConfig { stress: true, poison: true, ..HeapConfig::default() }) };
    let lost = heap.alloc([1_u64; 2]);
    let raw = std::ptr::from_ref(lost.borrow(&heap)).cast::<u8>();
    // SAFETY: nothing is used afterwards (the raw read below inspects the
    // quarantined cell on purpose).
    unsafe { heap.collect(&mut ()) };
    // SAFETY: the block stays allocated while the cell is quarantined.
    let bytes = unsafe { std::slice::from_raw_parts(raw, 16) };
    assert!(bytes.iter().all(|&b| b == crate::cell::POISON_BYTE));
}

#[test]
fn dropping_the_heap_drops_every_live_value() {
    struct Counted(Rc<Cell<u32>>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    // SAFETY: no heap pointers.
    unsafe impl Trace for Counted {
        const NEEDS_TRACE: bool = false;
        fn trace(&self, _: &mut Tracer) {}
    }
    let drops = Rc::new(Cell::new(0));
    {
        let mut heap = quiet_heap();
        for _ in 0..(BLOCK_SIZE / 16 + 10) {
            heap.alloc(Counted(Rc::clone(&drops)));
        }
        heap.alloc(([0_u8; 4096], Counted(Rc::clone(&drops))));
    }
    assert_eq!(drops.get() as usize, BLOCK_SIZE / 16 + 11);
}

#[test]
fn node_type_name_is_reported() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let log = DropLog::default();
    let n = node(&mut heap, &log, 0, vec![]);
    assert_eq!(n.as_any().type_name(), "Node");
    assert_eq!(format!("{n:?}").split('(').next(), Some("Gc<Node>"));
    assert!(n.as_any().is::<Node>());
}
