//! What a collection does, in the order an embedder can observe it, as
//! insta snapshots (`tests/snapshots/`): weak references cleared and
//! ephemeron entries settled before the embedder's reconcile runs, the
//! reconcile before any cell is dropped, the drops, the report (survivors,
//! finalization tables that gained pending values), then what the weak
//! structures hold afterwards and the order finalization delivers held
//! values in. Cells within one sweep are dropped in no particular order
//! (see `Trace`'s safety section), so each sweep's drops are listed
//! sorted by name.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;

use js_gc::{
    EphemeronTable, FinalizationTable, Gc, GcAny, HandleScope, Heap, HeapConfig, Liveness, Roots, Trace, Tracer, Weak,
};

/// The log every cell and the embedder write to.
type Log = Rc<RefCell<Vec<String>>>;

/// A named cell with strong edges, weak edges and, optionally, the
/// storage of a `FinalizationRegistry`.
struct Obj {
    name: String,
    edges: Vec<Gc<Obj>>,
    weak: Vec<Weak<Obj>>,
    registry: FinalizationTable<String>,
    log: Log,
}

impl Drop for Obj {
    fn drop(&mut self) {
        self.log.borrow_mut().push(format!("drop {}", self.name));
    }
}

// SAFETY: `edges`, `weak` and `registry` are all the heap pointers an
// `Obj` owns.
unsafe impl Trace for Obj {
    fn trace(&self, tracer: &mut Tracer) {
        self.edges.trace(tracer);
        for weak in &self.weak {
            weak.trace(tracer);
        }
        self.registry.trace(tracer);
    }

    fn type_name() -> &'static str {
        "Obj"
    }
}

/// The embedder: its stack roots, weak references and weak map held
/// outside the heap, a registry held directly, and a cache keyed by cells
/// it reconciles.
struct Embedder {
    heap: Heap,
    log: Log,
    stack: Vec<Gc<Obj>>,
    weak: Vec<(String, Weak<Obj>)>,
    map: EphemeronTable<Gc<Obj>>,
    registry: FinalizationTable<String>,
    cache: Vec<(String, GcAny)>,
    /// Every cell made, by name, to name pointers in the log.
    names: Vec<(GcAny, String)>,
    /// Whether the test uses the weak map / the cache (their lines are
    /// left out of the other tests' logs).
    map_used: bool,
    cache_used: bool,
}

/// What the collector is handed: the embedder without its heap.
struct EmbedderRoots<'a> {
    log: &'a Log,
    stack: &'a [Gc<Obj>],
    weak: &'a [(String, Weak<Obj>)],
    map: &'a EphemeronTable<Gc<Obj>>,
    registry: &'a FinalizationTable<String>,
    cache: &'a mut Vec<(String, GcAny)>,
}

impl Roots for EmbedderRoots<'_> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.stack.trace(tracer);
        for (_, weak) in self.weak {
            weak.trace(tracer);
        }
        self.map.trace(tracer);
        self.registry.trace(tracer);
    }

    fn reconcile(&mut self, liveness: &Liveness<'_>) {
        let mut log = self.log.borrow_mut();
        // Weak references are already cleared when the embedder is asked.
        let cleared: Vec<&str> = self.weak.iter().filter(|(_, w)| w.is_empty()).map(|(n, _)| n.as_str()).collect();
        log.push(format!("reconcile (collection {}): weak refs empty: [{}]", liveness.epoch(), cleared.join(", ")));
        self.cache.retain(|(name, key)| {
            let live = liveness.is_live(*key);
            if !live {
                log.push(format!("reconcile: cache entry {name} dropped"));
            }
            live
        });
    }
}

impl Embedder {
    fn new() -> Self {
        Self {
            // SAFETY: this heap's cells are used only with it, and not after it is dropped.
            heap: unsafe { Heap::with_config(HeapConfig { stress: false, poison: true, ..HeapConfig::default() }) },
            log: Rc::default(),
            stack: Vec::new(),
            weak: Vec::new(),
            map: EphemeronTable::new(),
            registry: FinalizationTable::new(),
            cache: Vec::new(),
            names: Vec::new(),
            map_used: false,
            cache_used: false,
        }
    }

    fn obj(&mut self, name: &str, edges: Vec<Gc<Obj>>) -> Gc<Obj> {
        let cell = self.heap.alloc(Obj {
            name: name.to_owned(),
            edges,
            weak: Vec::new(),
            registry: FinalizationTable::new(),
            log: Rc::clone(&self.log),
        });
        self.names.push((cell.as_any(), name.to_owned()));
        cell
    }

    fn name(&self, cell: impl Into<GcAny>) -> String {
        let cell = cell.into();
        self.names.iter().rev().find(|(known, _)| *known == cell).map_or("?".into(), |(_, name)| name.clone())
    }

    fn note(&self, line: String) {
        self.log.borrow_mut().push(line);
    }

    /// Collects, logging the collection's events, then the report and
    /// what the weak structures hold; returns the log so far and clears it.
    fn collect(&mut self, label: &str) -> String {
        self.note(format!("== collection: {label}"));
        let mut roots = EmbedderRoots {
            log: &self.log,
            stack: &self.stack,
            weak: &self.weak,
            map: &self.map,
            registry: &self.registry,
            cache: &mut self.cache,
        };
        // SAFETY: afterwards only cells the stack, the persistent roots,
        // open handle scopes and live cells reach are used; the names of
        // dead cells are only compared by address, never followed.
        let report = unsafe { self.heap.collect(&mut roots) };
        // Sort each run of drops (a sweep) by name: their order is not
        // part of the contract.
        {
            let mut log = self.log.borrow_mut();
            let start = log.iter().rposition(|line| !line.starts_with("drop ")).map_or(0, |i| i + 1);
            log[start..].sort();
        }
        let ready: Vec<String> = report.finalization_ready.iter().map(|&cell| self.name(cell)).collect();
        self.note(format!(
            "report: epoch {}, {} live, {} freed, finalization ready in: [{}]",
            report.epoch,
            report.live_objects,
            report.freed_objects,
            ready.join(", ")
        ));
        let weak: Vec<String> = self
            .weak
            .iter()
            .map(|(name, weak)| format!("{name} -> {}", weak.upgrade().map_or("empty".into(), |t| self.name(t))))
            .collect();
        if !weak.is_empty() {
            self.note(format!("weak refs: {}", weak.join(", ")));
        }
        let mut entries: Vec<String> =
            self.map.iter().map(|(key, value)| format!("{} => {}", self.name(key), self.name(*value))).collect();
        entries.sort();
        if !entries.is_empty() || self.map_used {
            self.note(format!("weak map: {{{}}}", entries.join(", ")));
        }
        let cache: Vec<&str> = self.cache.iter().map(|(name, _)| name.as_str()).collect();
        if !cache.is_empty() || self.cache_used {
            self.note(format!("cache: [{}]", cache.join(", ")));
        }
        let stats = self.heap.stats();
        self.note(format!("heap: {} Obj cells, {} collections", stats.objects_of("Obj"), stats.collections));
        self.log.borrow_mut().drain(..).collect::<Vec<_>>().join("\n")
    }

    /// Pops every pending held value of the registry held directly.
    fn deliver(&mut self) -> String {
        let mut held = Vec::new();
        while let Some(value) = self.registry.pop_pending() {
            held.push(value);
        }
        format!("cleanup delivers: [{}]", held.join(", "))
    }
}

#[test]
fn roots_weak_references_and_the_reconcile_before_the_sweep() {
    let mut embedder = Embedder::new();
    let obj_b = embedder.obj("B", Vec::new());
    let obj_a = embedder.obj("A", vec![obj_b]);
    let obj_c = embedder.obj("C", Vec::new());
    // A garbage cycle.
    let obj_d = embedder.obj("D", Vec::new());
    let obj_e = embedder.obj("E", vec![obj_d]);
    obj_d.borrow_mut(&mut embedder.heap).edges.push(obj_e);
    let persistent = embedder.obj("P", Vec::new());
    let handled = embedder.obj("H", Vec::new());
    // A cell whose only edge to C is weak.
    let obj_w = embedder.obj("W", Vec::new());
    obj_w.borrow_mut(&mut embedder.heap).weak.push(Weak::new(obj_c));
    embedder.stack = vec![obj_a, obj_w];
    for (name, target) in
        [("weak B", obj_b), ("weak C", obj_c), ("weak D", obj_d), ("weak P", persistent), ("weak H", handled)]
    {
        embedder.weak.push((name.to_owned(), Weak::new(target)));
    }
    embedder.cache_used = true;
    for cell in [obj_a, obj_b, obj_c, obj_d, obj_e, persistent, handled] {
        let name = embedder.name(cell);
        embedder.cache.push((name, cell.as_any()));
    }
    let root = embedder.heap.root(persistent);
    let mut text = String::new();
    {
        let scope = HandleScope::new(&embedder.heap);
        let _handle = scope.root(handled);
        text += &embedder.collect("stack A, W; root P; handle H");
    }
    let w_sees = obj_w.borrow(&embedder.heap).weak[0].upgrade().map(|t| embedder.name(t));
    let _ = write!(text, "\nW's weak edge to C: {w_sees:?}\n");
    drop(root);
    text += &embedder.collect("root P dropped, handle scope closed");
    embedder.stack = vec![obj_w];
    text += "\n";
    text += &embedder.collect("A off the stack");
    insta::assert_snapshot!(text);
}

#[test]
fn ephemerons_settle_to_a_fixpoint() {
    let mut embedder = Embedder::new();
    let k1 = embedder.obj("K1", Vec::new());
    let k4 = embedder.obj("K4", Vec::new());
    // K1's value reaches K4, so K4's entry lives too, though nothing else
    // reaches K4: the table is iterated until nothing new is marked.
    let v1 = embedder.obj("V1", vec![k4]);
    let v4 = embedder.obj("V4", Vec::new());
    let k2 = embedder.obj("K2", Vec::new());
    let v2 = embedder.obj("V2", Vec::new());
    // A value that refers to its own key keeps neither alive.
    let k3 = embedder.obj("K3", Vec::new());
    let v3 = embedder.obj("V3", vec![k3]);
    embedder.map_used = true;
    for (key, value) in [(k3, v3), (k2, v2), (k4, v4), (k1, v1)] {
        embedder.map.insert(key, value);
    }
    embedder.weak.push(("weak V4".to_owned(), Weak::new(v4)));
    embedder.weak.push(("weak V3".to_owned(), Weak::new(v3)));
    embedder.stack = vec![k1, k2];
    let mut text = embedder.collect("stack K1, K2");
    embedder.stack = vec![k4];
    text += "\n";
    text += &embedder.collect("stack K4 only");
    embedder.stack.clear();
    text += "\n";
    text += &embedder.collect("empty stack");
    insta::assert_snapshot!(text);
}

#[test]
fn finalization_delivers_each_held_value_once_in_order() {
    let mut embedder = Embedder::new();
    let t1 = embedder.obj("T1", Vec::new());
    let t2 = embedder.obj("T2", Vec::new());
    let t3 = embedder.obj("T3", Vec::new());
    let t4 = embedder.obj("T4", Vec::new());
    let token2 = embedder.obj("token2", Vec::new());
    let token4 = embedder.obj("token4", Vec::new());
    // A registry in a cell (reported as ready) and one held directly.
    let registry = embedder.obj("R", Vec::new());
    {
        let table = &mut registry.borrow_mut(&mut embedder.heap).registry;
        table.register(t3, "t3 in R".to_owned(), None);
        table.register(t1, "t1 in R".to_owned(), None);
    }
    embedder.registry.register(t2, "t2".to_owned(), Some(token2.as_any()));
    embedder.registry.register(t1, "t1".to_owned(), None);
    embedder.registry.register(t3, "t3".to_owned(), None);
    embedder.registry.register(t4, "t4".to_owned(), Some(token4.as_any()));
    // A registry cell that dies with its registrations delivers nothing.
    let doomed = embedder.obj("R2", Vec::new());
    doomed.borrow_mut(&mut embedder.heap).registry.register(t4, "t4 in R2".to_owned(), None);

    embedder.stack = vec![registry, token2, token4, t4];
    let unregistered = embedder.registry.unregister(token2.as_any());
    let mut text = format!("unregister token2: {unregistered}\n");
    text += &embedder.collect("T1, T2, T3 unreachable; R2 unreachable");
    let _ = write!(text, "\n{}", embedder.deliver());
    let from_r: Vec<String> =
        std::iter::from_fn(|| registry.borrow_mut(&mut embedder.heap).registry.pop_pending()).collect();
    let _ = write!(text, "\nR's cleanup delivers: [{}]\n", from_r.join(", "));
    // The tokens die: the registration made with token4 is forgotten by
    // no token (a later cell at its address cannot unregister it), and
    // T4's value is still delivered when T4 dies.
    embedder.stack = vec![registry, t4];
    text += &embedder.collect("token2 and token4 unreachable");
    let pending = embedder.registry.has_pending();
    let _ = write!(text, "\npending after token4 died: {pending}, registrations left: {}\n", embedder.registry.len());
    embedder.stack = vec![registry];
    text += &embedder.collect("T4 unreachable");
    let _ = write!(text, "\n{}\n", embedder.deliver());
    text += &embedder.collect("nothing new");
    let _ = write!(text, "\n{}", embedder.deliver());
    insta::assert_snapshot!(text);
}
