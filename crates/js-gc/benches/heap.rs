//! Heap benchmarks: allocation against `Box::new` and a bump arena, marking
//! throughput on a 10-million-cell list, and binary trees against
//! `Rc<RefCell<_>>`. Run with `cargo xtask bench gc`.

use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput};
use js_gc::{Gc, HEADER_SIZE, Heap, HeapConfig, Trace, Tracer};

/// Cells per iteration of the allocation benchmarks.
const ALLOCATIONS: usize = 10_000;
/// Length of the list the marking benchmark walks.
const LIST_LENGTH: usize = 10_000_000;

/// A heap that collects only when asked and spends nothing on debugging.
fn bench_heap() -> Heap {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    unsafe { Heap::with_config(HeapConfig { stress: false, poison: false, ..HeapConfig::default() }) }
}

/// A 16-byte value, the size of a small engine object (two words).
type Small = [u64; 2];

fn alloc_small(c: &mut Criterion) {
    let mut group = c.benchmark_group("gc/alloc-small");
    group.throughput(Throughput::Elements(ALLOCATIONS as u64));

    group.bench_function("js-gc (fresh blocks)", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut out: Vec<Gc<Small>> = Vec::with_capacity(ALLOCATIONS);
            for i in 0..iters {
                let mut heap = bench_heap();
                let start = Instant::now();
                for j in 0..ALLOCATIONS as u64 {
                    out.push(heap.alloc([i, j]));
                }
                total += start.elapsed();
                black_box(&out);
                out.clear();
            }
            total
        });
    });

    group.bench_function("js-gc (free list)", |b| {
        // Every other cell of 2 × ALLOCATIONS stays alive, so sweeping leaves
        // ALLOCATIONS free cells spread over blocks that are not released.
        let mut heap = bench_heap();
        let mut roots: Vec<Gc<Small>> = (0..2 * ALLOCATIONS as u64).map(|j| heap.alloc([0, j])).collect();
        roots = roots.into_iter().step_by(2).collect();
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut out: Vec<Gc<Small>> = Vec::with_capacity(ALLOCATIONS);
            for i in 0..iters {
                // SAFETY: only `roots` are used after the collection.
                unsafe { heap.collect(&mut roots) };
                let start = Instant::now();
                for j in 0..ALLOCATIONS as u64 {
                    out.push(heap.alloc([i, j]));
                }
                total += start.elapsed();
                black_box(&out);
                out.clear();
            }
            total
        });
    });

    group.bench_function("Box::new", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut out: Vec<Box<Small>> = Vec::with_capacity(ALLOCATIONS);
            for i in 0..iters {
                let start = Instant::now();
                for j in 0..ALLOCATIONS as u64 {
                    out.push(Box::new([i, j]));
                }
                total += start.elapsed();
                black_box(&out);
                out.clear();
            }
            total
        });
    });

    group.bench_function("bumpalo (lower bound)", |b| {
        let mut arena = bumpalo::Bump::with_capacity(ALLOCATIONS * size_of::<Small>());
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let mut out: Vec<&mut Small> = Vec::with_capacity(ALLOCATIONS);
                let start = Instant::now();
                for j in 0..ALLOCATIONS as u64 {
                    out.push(arena.alloc([i, j]));
                }
                total += start.elapsed();
                black_box(&out);
                drop(out);
                arena.reset();
            }
            total
        });
    });
    group.finish();
}

struct ListNode {
    next: Option<Gc<ListNode>>,
}

// SAFETY: `next` is the only heap pointer.
unsafe impl Trace for ListNode {
    fn trace(&self, tracer: &mut Tracer) {
        self.next.trace(tracer);
    }
}

fn mark_list(c: &mut Criterion) {
    let mut heap = bench_heap();
    let mut first = None;
    for _ in 0..LIST_LENGTH {
        first = Some(heap.alloc(ListNode { next: first }));
    }
    let mut roots: Vec<Gc<ListNode>> = first.into_iter().collect();

    let mut group = c.benchmark_group("gc/mark-10M-list");
    group.sample_size(10).throughput(Throughput::Elements(LIST_LENGTH as u64));
    group.bench_function("mark only", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                // SAFETY: the heap is unmarked; `bench_unmark` follows.
                unsafe { heap.bench_mark(&roots) };
                total += start.elapsed();
                heap.bench_unmark();
            }
            total
        });
    });
    group.bench_function("full collection, all live", |b| {
        // SAFETY: only `roots` (and what they reach) are used afterwards.
        b.iter(|| unsafe { heap.collect(&mut roots) });
    });
    group.finish();
}

struct TreeNode {
    children: Option<(Gc<TreeNode>, Gc<TreeNode>)>,
}

// SAFETY: the children are the only heap pointers.
unsafe impl Trace for TreeNode {
    fn trace(&self, tracer: &mut Tracer) {
        self.children.trace(tracer);
    }
}

fn gc_tree(heap: &mut Heap, depth: u32) -> Gc<TreeNode> {
    let children = (depth > 0).then(|| (gc_tree(heap, depth - 1), gc_tree(heap, depth - 1)));
    heap.alloc(TreeNode { children })
}

fn gc_check(heap: &Heap, node: Gc<TreeNode>) -> u32 {
    match node.borrow(heap).children {
        Some((left, right)) => 1 + gc_check(heap, left) + gc_check(heap, right),
        None => 1,
    }
}

type RcTree = Rc<RefCell<RcNode>>;

struct RcNode {
    children: Option<(RcTree, RcTree)>,
}

fn rc_tree(depth: u32) -> RcTree {
    let children = (depth > 0).then(|| (rc_tree(depth - 1), rc_tree(depth - 1)));
    Rc::new(RefCell::new(RcNode { children }))
}

fn rc_check(node: &RcTree) -> u32 {
    match &node.borrow().children {
        Some((left, right)) => 1 + rc_check(left) + rc_check(right),
        None => 1,
    }
}

/// The benchmarks game's binary-trees with the heap: a long-lived tree, and
/// many short-lived ones, collected at a safepoint after each when due.
fn gc_binary_trees(max_depth: u32) -> u32 {
    let mut heap = bench_heap();
    let mut checks = 0;
    let long_lived = gc_tree(&mut heap, max_depth);
    let mut roots = vec![long_lived];
    for depth in (4..=max_depth).step_by(2) {
        for _ in 0..1_u32 << (max_depth - depth + 4) {
            let tree = gc_tree(&mut heap, depth);
            checks += gc_check(&heap, tree);
            // SAFETY: only `roots` are used afterwards.
            unsafe { heap.safepoint(&mut roots) };
        }
    }
    checks + gc_check(&heap, roots[0])
}

fn rc_binary_trees(max_depth: u32) -> u32 {
    let mut checks = 0;
    let long_lived = rc_tree(max_depth);
    for depth in (4..=max_depth).step_by(2) {
        for _ in 0..1_u32 << (max_depth - depth + 4) {
            checks += rc_check(&rc_tree(depth));
        }
    }
    checks + rc_check(&long_lived)
}

fn binary_trees(c: &mut Criterion) {
    const DEPTH: u32 = 20;
    const GAME_DEPTH: u32 = 16;
    let nodes = (1_u64 << (DEPTH + 1)) - 1;
    let mut group = c.benchmark_group("gc/binary-tree-depth-20");
    group.sample_size(10).throughput(Throughput::Elements(nodes));
    group.bench_function("js-gc: build, check, collect", |b| {
        let mut heap = bench_heap();
        b.iter(|| {
            let tree = gc_tree(&mut heap, DEPTH);
            assert_eq!(u64::from(gc_check(&heap, tree)), nodes);
            // SAFETY: nothing is used afterwards.
            unsafe { heap.collect(&mut ()) };
        });
    });
    group.bench_function("Rc<RefCell<_>>: build, check, drop", |b| {
        b.iter(|| {
            let tree = rc_tree(DEPTH);
            assert_eq!(u64::from(rc_check(&tree)), nodes);
        });
    });
    group.finish();

    let mut group = c.benchmark_group("gc/binary-trees-game");
    group.sample_size(10);
    let expected = rc_binary_trees(GAME_DEPTH);
    group.bench_with_input(BenchmarkId::new("js-gc", GAME_DEPTH), &GAME_DEPTH, |b, &depth| {
        b.iter(|| assert_eq!(gc_binary_trees(depth), expected));
    });
    group.bench_with_input(BenchmarkId::new("Rc<RefCell<_>>", GAME_DEPTH), &GAME_DEPTH, |b, &depth| {
        b.iter(|| assert_eq!(rc_binary_trees(depth), expected));
    });
    group.finish();
}

/// Prints the per-cell overhead, measured from the heap's own statistics.
fn print_facts() {
    let mut heap = bench_heap();
    heap.alloc([0_u64; 2]);
    heap.alloc(TreeNode { children: None });
    let stats = heap.stats();
    for types in &stats.types {
        println!(
            "fact: {}: value {} B, cell {} B (header {} B), size class {} B",
            types.name,
            types.cell_size - HEADER_SIZE,
            types.cell_size,
            HEADER_SIZE,
            types.bytes / types.objects
        );
    }
    println!("fact: size_of::<Gc<T>>() = {} B", size_of::<Gc<TreeNode>>());
}

fn main() {
    print_facts();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    alloc_small(&mut criterion);
    mark_list(&mut criterion);
    binary_trees(&mut criterion);
    criterion.final_summary();
}
