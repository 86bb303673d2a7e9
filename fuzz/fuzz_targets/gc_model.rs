//! Random mutator operations on js-gc's public API in gc-stress mode,
//! checked after every collection against a model of the object graph:
//! exactly the unreachable cells are dropped, reachable cells keep their
//! contents, weak references are cleared exactly when their target died,
//! ephemeron entries live exactly as long as their keys.

#![no_main]

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use js_gc::{EphemeronTable, Gc, Heap, HeapConfig, Root, Roots, Trace, Tracer, Weak};
use libfuzzer_sys::fuzz_target;

/// A graph node: strong edges, one weak reference, and a log of drops.
struct Node {
    id: u32,
    edges: Vec<Gc<Node>>,
    weak: Weak<Node>,
    dropped: Rc<RefCell<BTreeSet<u32>>>,
}

impl Drop for Node {
    fn drop(&mut self) {
        self.dropped.borrow_mut().insert(self.id);
    }
}

// SAFETY: `edges` and `weak` are the node's only heap pointers.
unsafe impl Trace for Node {
    fn trace(&self, tracer: &mut Tracer) {
        self.edges.trace(tracer);
        self.weak.trace(tracer);
    }
}

/// The embedder's own roots: a stack of nodes and a WeakMap-like table.
struct Stack {
    nodes: Vec<Gc<Node>>,
    table: EphemeronTable<Gc<Node>>,
}

impl Roots for Stack {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.nodes.trace(tracer);
        self.table.trace(tracer);
    }
}

/// What the model knows of a node.
#[derive(Default, Clone)]
struct ModelNode {
    edges: Vec<u32>,
    weak: Option<u32>,
}

struct Model {
    nodes: BTreeMap<u32, ModelNode>,
    stack: Vec<u32>,
    roots: Vec<u32>,
    table: BTreeMap<u32, u32>,
}

impl Model {
    /// Ids reachable from the stack, the persistent roots and (to a
    /// fixpoint) ephemeron values whose keys are reachable.
    fn reachable(&self) -> BTreeSet<u32> {
        let mut seen = BTreeSet::new();
        let mut work: Vec<u32> = self.stack.iter().chain(&self.roots).copied().collect();
        loop {
            while let Some(id) = work.pop() {
                if seen.insert(id) {
                    work.extend(&self.nodes[&id].edges);
                }
            }
            for (key, value) in &self.table {
                if seen.contains(key) && !seen.contains(value) {
                    work.push(*value);
                }
            }
            if work.is_empty() {
                return seen;
            }
        }
    }
}

/// Picks an element of `items` from a byte.
fn pick<T: Copy>(items: &[T], byte: u8) -> Option<T> {
    (!items.is_empty()).then(|| items[usize::from(byte) % items.len()])
}

fuzz_target!(|data: &[u8]| {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::with_config(HeapConfig { stress: true, poison: true, ..HeapConfig::default() }) };
    let dropped = Rc::new(RefCell::new(BTreeSet::new()));
    let mut stack = Stack { nodes: Vec::new(), table: EphemeronTable::new() };
    let mut roots: Vec<Root<Node>> = Vec::new();
    let mut cells: BTreeMap<u32, Gc<Node>> = BTreeMap::new();
    let mut model = Model { nodes: BTreeMap::new(), stack: Vec::new(), roots: Vec::new(), table: BTreeMap::new() };
    let mut next_id = 0u32;

    for op in data.chunks_exact(3) {
        let (kind, a, b) = (op[0] % 9, op[1], op[2]);
        // Nodes the mutator can reach now (only those may be touched).
        let live: Vec<u32> = model.reachable().into_iter().collect();
        match kind {
            0 => {
                let id = next_id;
                next_id += 1;
                let gc = heap.alloc(Node { id, edges: Vec::new(), weak: Weak::empty(), dropped: Rc::clone(&dropped) });
                stack.nodes.push(gc);
                cells.insert(id, gc);
                model.nodes.insert(id, ModelNode::default());
                model.stack.push(id);
            }
            1 => {
                if let (Some(from), Some(to)) = (pick(&live, a), pick(&live, b)) {
                    cells[&from].borrow_mut(&mut heap).edges.push(cells[&to]);
                    model.nodes.get_mut(&from).expect("live node").edges.push(to);
                }
            }
            2 => {
                if let Some(from) = pick(&live, a) {
                    let edges = &mut model.nodes.get_mut(&from).expect("live node").edges;
                    if !edges.is_empty() {
                        let index = usize::from(b) % edges.len();
                        edges.remove(index);
                        cells[&from].borrow_mut(&mut heap).edges.remove(index);
                    }
                }
            }
            3 => {
                if !model.stack.is_empty() {
                    let index = usize::from(a) % model.stack.len();
                    model.stack.remove(index);
                    stack.nodes.remove(index);
                }
            }
            4 => {
                if let Some(id) = pick(&live, a) {
                    roots.push(heap.root(cells[&id]));
                    model.roots.push(id);
                }
            }
            5 => {
                if !roots.is_empty() {
                    let index = usize::from(a) % roots.len();
                    roots.remove(index);
                    model.roots.remove(index);
                }
            }
            6 => {
                if let (Some(from), Some(to)) = (pick(&live, a), pick(&live, b)) {
                    cells[&from].borrow_mut(&mut heap).weak = Weak::new(cells[&to]);
                    model.nodes.get_mut(&from).expect("live node").weak = Some(to);
                }
            }
            7 => {
                if let (Some(key), Some(value)) = (pick(&live, a), pick(&live, b)) {
                    stack.table.insert(cells[&key], cells[&value]);
                    model.table.insert(key, value);
                }
            }
            _ => {
                // SAFETY: afterwards only cells the model says are reachable
                // are touched (the `live` list is recomputed before every
                // operation).
                unsafe { heap.collect(&mut stack) };
                check(&heap, &stack, &cells, &mut model, &dropped.borrow());
            }
        }
    }
    // SAFETY: as above; nothing is touched afterwards but reachable cells.
    unsafe { heap.collect(&mut stack) };
    check(&heap, &stack, &cells, &mut model, &dropped.borrow());
});

/// Compares the heap after a full collection with the model.
fn check(heap: &Heap, stack: &Stack, cells: &BTreeMap<u32, Gc<Node>>, model: &mut Model, dropped: &BTreeSet<u32>) {
    let reachable = model.reachable();
    for id in model.nodes.keys() {
        assert_eq!(dropped.contains(id), !reachable.contains(id), "node {id}: dropped must mean unreachable");
    }
    model.table.retain(|key, _| reachable.contains(key));
    assert_eq!(stack.table.len(), model.table.len(), "ephemeron entries with dead keys are removed");
    for &id in &reachable {
        let node = cells[&id].borrow(heap);
        let expected = &model.nodes[&id];
        assert_eq!(node.id, id);
        let edges: Vec<u32> = node.edges.iter().map(|e| e.borrow(heap).id).collect();
        assert_eq!(edges, expected.edges, "node {id}'s edges");
        let weak = node.weak.upgrade().map(|target| target.borrow(heap).id);
        let expected_weak = expected.weak.filter(|target| reachable.contains(target));
        assert_eq!(weak, expected_weak, "node {id}'s weak reference");
    }
    for (key, value) in &model.table {
        assert!(Gc::ptr_eq(*stack.table.get(cells[key]).expect("entry of a live key"), cells[value]));
    }
    // Forget dead nodes, so the model only holds cells that exist.
    model.nodes.retain(|id, _| reachable.contains(id));
}
