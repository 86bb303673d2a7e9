//! Randomized model test: random graphs with strong and weak edges,
//! ephemerons, finalization registrations and three kinds of roots are
//! collected twice, and everything the heap reports is compared with a
//! reference reachability computation.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use js_gc::{
    EphemeronTable, FinalizationTable, Gc, GcAny, HandleScope, Heap, Liveness, Root, Roots, Trace, Tracer, Weak,
};
use proptest::prelude::*;

type Held = (u32, Option<Gc<ModelNode>>);

struct ModelNode {
    id: usize,
    strong: Vec<Gc<ModelNode>>,
    weak: Vec<(usize, Weak<ModelNode>)>,
    table: EphemeronTable<Gc<ModelNode>>,
    registry: FinalizationTable<Held>,
    drops: Rc<RefCell<Vec<usize>>>,
}

impl Drop for ModelNode {
    fn drop(&mut self) {
        self.drops.borrow_mut().push(self.id);
    }
}

// SAFETY: traces every heap pointer field.
unsafe impl Trace for ModelNode {
    fn trace(&self, tracer: &mut Tracer) {
        self.strong.trace(tracer);
        for (_, weak) in &self.weak {
            weak.trace(tracer);
        }
        self.table.trace(tracer);
        self.registry.trace(tracer);
    }

    fn type_name() -> &'static str {
        "ModelNode"
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum RootKind {
    /// Passed to `collect` through the embedder's `Roots`.
    Argument,
    Persistent,
    Handle,
}

#[derive(Debug, Clone)]
struct Registration {
    registry: usize,
    target: usize,
    held: Option<usize>,
    token: Option<usize>,
}

#[derive(Debug, Clone)]
struct Plan {
    nodes: usize,
    strong: Vec<(usize, usize)>,
    weak: Vec<(usize, usize)>,
    ephemerons: Vec<(usize, usize, usize)>,
    registrations: Vec<Registration>,
    unregistrations: Vec<(usize, usize)>,
    /// Root, its kind, and whether it is dropped before the second round
    /// (handle roots always are: their scope closes).
    roots: Vec<(usize, RootKind, bool)>,
}

fn plan() -> impl Strategy<Value = Plan> {
    (2_usize..40).prop_flat_map(|nodes| {
        let node = 0..nodes;
        let kind = prop_oneof![Just(RootKind::Argument), Just(RootKind::Persistent), Just(RootKind::Handle)];
        let registration =
            (node.clone(), node.clone(), proptest::option::of(node.clone()), proptest::option::of(node.clone()))
                .prop_map(|(registry, target, held, token)| Registration { registry, target, held, token });
        (
            proptest::collection::vec((node.clone(), node.clone()), 0..=nodes * 2),
            proptest::collection::vec((node.clone(), node.clone()), 0..=nodes),
            proptest::collection::vec((node.clone(), node.clone(), node.clone()), 0..=nodes),
            proptest::collection::vec(registration, 0..=nodes),
            proptest::collection::vec((node.clone(), node.clone()), 0..3),
            proptest::collection::vec((node, kind, any::<bool>()), 0..6),
        )
            .prop_map(move |(strong, weak, ephemerons, registrations, unregistrations, roots)| Plan {
                nodes,
                strong,
                weak,
                ephemerons,
                registrations,
                unregistrations,
                roots,
            })
    })
}

/// The embedder side: argument roots and a cache keyed by every node that
/// was alive when the collection started.
struct ModelRoots {
    stack: Vec<Gc<ModelNode>>,
    cache: Vec<(usize, GcAny)>,
    dead_keys: BTreeSet<usize>,
}

impl Roots for ModelRoots {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.stack.trace(tracer);
    }

    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        let dead = &mut self.dead_keys;
        self.cache.retain(|(id, key)| {
            let live = liveness.is_live(*key);
            if !live {
                dead.insert(*id);
            }
            live
        });
    }
}

/// The reference model's state between rounds.
struct Model {
    alive: BTreeSet<usize>,
    /// Registrations not yet delivered, unregistered or dropped with their
    /// registry, by registration id.
    registrations: BTreeMap<u32, Registration>,
    /// Ephemeron entries per owner: key -> value (later inserts win).
    tables: BTreeMap<usize, BTreeMap<usize, usize>>,
    /// Ids of dropped nodes not yet checked, filled by `ModelNode::drop`.
    drops: Rc<RefCell<Vec<usize>>>,
    /// Registrations whose held value has been delivered.
    delivered: BTreeSet<u32>,
}

impl Model {
    /// What survives a collection with `roots`.
    fn reachable(&self, plan: &Plan, roots: &BTreeSet<usize>) -> BTreeSet<usize> {
        let mut live = roots.clone();
        loop {
            let before = live.len();
            for &(from, to) in &plan.strong {
                if live.contains(&from) {
                    live.insert(to);
                }
            }
            for registration in self.registrations.values() {
                if let Some(held) = registration.held
                    && live.contains(&registration.registry)
                {
                    live.insert(held);
                }
            }
            for (owner, entries) in &self.tables {
                if live.contains(owner) {
                    for (key, value) in entries {
                        if live.contains(key) {
                            live.insert(*value);
                        }
                    }
                }
            }
            if live.len() == before {
                return live;
            }
        }
    }
}

fn check_round(
    heap: &mut Heap,
    nodes: &[Gc<ModelNode>],
    model: &mut Model,
    plan: &Plan,
    roots: &mut ModelRoots,
    root_ids: &BTreeSet<usize>,
) {
    let was_alive = model.alive.clone();
    let live = model.reachable(plan, root_ids);
    roots.cache = was_alive.iter().map(|&id| (id, nodes[id].as_any())).collect();
    roots.dead_keys.clear();

    // SAFETY: afterwards only nodes in `live` are used (the model says
    // which), and dead nodes' pointers are only compared, never followed.
    let report = unsafe { heap.collect(roots) };

    let died: BTreeSet<usize> = was_alive.difference(&live).copied().collect();
    assert_eq!(report.live_objects as usize, live.len(), "survivor count");
    assert_eq!(heap.stats().objects_of("ModelNode") as usize, live.len());
    let mut dropped: Vec<usize> = model.drops.borrow_mut().drain(..).collect();
    dropped.sort_unstable();
    assert_eq!(dropped, died.iter().copied().collect::<Vec<_>>(), "dropped nodes");
    assert_eq!(roots.dead_keys, died, "reconciler's dead keys");

    for &id in &live {
        let node = nodes[id].borrow(heap);
        for (target, weak) in &node.weak {
            assert_eq!(weak.upgrade().is_some(), live.contains(target), "weak {id} -> {target}");
            if let Some(target_gc) = weak.upgrade() {
                assert_eq!(target_gc, nodes[*target]);
            }
        }
        let expected: BTreeMap<usize, usize> = model
            .tables
            .get(&id)
            .map(|entries| entries.iter().filter(|(key, _)| live.contains(key)).map(|(k, v)| (*k, *v)).collect())
            .unwrap_or_default();
        let actual: BTreeMap<usize, usize> =
            node.table.iter().map(|(key, value)| (index_of(nodes, key), value.borrow(heap).id)).collect();
        assert_eq!(actual, expected, "ephemeron table of {id}");
    }

    // Finalization: registrations whose registry survives and whose target
    // died are delivered now; registrations of dead registries vanish.
    let mut expected_delivery = BTreeSet::new();
    model.registrations.retain(|&reg_id, registration| {
        if !live.contains(&registration.registry) {
            return false;
        }
        if live.contains(&registration.target) {
            return true;
        }
        expected_delivery.insert(reg_id);
        false
    });
    let mut actual_delivery = BTreeSet::new();
    for &id in &live {
        while let Some((reg_id, held)) = nodes[id].borrow_mut(heap).registry.pop_pending() {
            assert!(model.delivered.insert(reg_id), "registration {reg_id} delivered twice");
            actual_delivery.insert(reg_id);
            if let Some(held) = held {
                assert!(live.contains(&index_of(nodes, held.as_any())), "held value kept alive");
            }
        }
    }
    assert_eq!(actual_delivery, expected_delivery, "finalization deliveries");
    let ready: BTreeSet<usize> = report.finalization_ready.iter().map(|cell| index_of(nodes, *cell)).collect();
    let expected_ready: BTreeSet<usize> = plan
        .registrations
        .iter()
        .enumerate()
        .filter(|(reg_id, _)| expected_delivery.contains(&(*reg_id as u32)))
        .map(|(_, registration)| registration.registry)
        .collect();
    assert_eq!(ready, expected_ready, "finalization_ready");

    for entries in model.tables.values_mut() {
        entries.retain(|key, _| live.contains(key));
    }
    model.tables.retain(|owner, _| live.contains(owner));
    model.alive = live;
}

fn index_of(nodes: &[Gc<ModelNode>], cell: impl Into<GcAny>) -> usize {
    let cell = cell.into();
    nodes.iter().position(|node| node.as_any() == cell).expect("a model node")
}

fn run(plan: &Plan) {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let drops = Rc::new(RefCell::new(Vec::new()));
    let nodes: Vec<Gc<ModelNode>> = (0..plan.nodes)
        .map(|id| {
            heap.alloc(ModelNode {
                id,
                strong: Vec::new(),
                weak: Vec::new(),
                table: EphemeronTable::new(),
                registry: FinalizationTable::new(),
                drops: Rc::clone(&drops),
            })
        })
        .collect();
    let mut model = Model {
        alive: (0..plan.nodes).collect(),
        registrations: BTreeMap::new(),
        tables: BTreeMap::new(),
        drops: Rc::clone(&drops),
        delivered: BTreeSet::new(),
    };
    for &(from, to) in &plan.strong {
        nodes[from].borrow_mut(&mut heap).strong.push(nodes[to]);
    }
    for &(from, to) in &plan.weak {
        nodes[from].borrow_mut(&mut heap).weak.push((to, Weak::new(nodes[to])));
    }
    for &(owner, key, value) in &plan.ephemerons {
        nodes[owner].borrow_mut(&mut heap).table.insert(nodes[key], nodes[value]);
        model.tables.entry(owner).or_default().insert(key, value);
    }
    for (reg_id, registration) in plan.registrations.iter().enumerate() {
        let reg_id = reg_id as u32;
        let held = registration.held.map(|held| nodes[held]);
        let token = registration.token.map(|token| nodes[token].as_any());
        nodes[registration.registry].borrow_mut(&mut heap).registry.register(
            nodes[registration.target],
            (reg_id, held),
            token,
        );
        model.registrations.insert(reg_id, registration.clone());
    }
    for &(registry, token) in &plan.unregistrations {
        let removed = nodes[registry].borrow_mut(&mut heap).registry.unregister(nodes[token].as_any());
        let before = model.registrations.len();
        model.registrations.retain(|_, r| !(r.registry == registry && r.token == Some(token)));
        assert_eq!(removed, model.registrations.len() != before, "unregister result");
    }

    let mut roots = ModelRoots { stack: Vec::new(), cache: Vec::new(), dead_keys: BTreeSet::new() };
    let mut persistent: Vec<(bool, Root<ModelNode>)> = Vec::new();
    let mut round_two_roots = BTreeSet::new();
    {
        let scope = HandleScope::new(&heap);
        for &(node, kind, dropped_later) in &plan.roots {
            match kind {
                RootKind::Argument => roots.stack.push(nodes[node]),
                RootKind::Persistent => persistent.push((dropped_later, heap.root(nodes[node]))),
                RootKind::Handle => {
                    scope.root(nodes[node]);
                }
            }
            if kind != RootKind::Handle && !dropped_later {
                round_two_roots.insert(node);
            }
        }
        let root_ids: BTreeSet<usize> = plan.roots.iter().map(|(node, _, _)| *node).collect();
        check_round(&mut heap, &nodes, &mut model, plan, &mut roots, &root_ids);
    }

    let kept_arguments: Vec<usize> = plan
        .roots
        .iter()
        .filter(|(_, kind, dropped)| *kind == RootKind::Argument && !dropped)
        .map(|(node, _, _)| *node)
        .collect();
    roots.stack = kept_arguments.iter().map(|&node| nodes[node]).collect();
    persistent.retain(|(dropped, _)| !dropped);
    check_round(&mut heap, &nodes, &mut model, plan, &mut roots, &round_two_roots);
    drop(persistent);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn collections_match_the_reachability_model(plan in plan()) {
        run(&plan);
    }
}
