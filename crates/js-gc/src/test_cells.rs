//! Cell types shared by the unit tests.

use std::cell::RefCell;
use std::rc::Rc;

use crate::{Gc, Heap, HeapConfig, Trace, Tracer};

/// Records which nodes were dropped, in order.
#[derive(Clone, Default)]
pub(crate) struct DropLog(pub(crate) Rc<RefCell<Vec<u32>>>);

impl DropLog {
    pub(crate) fn dropped(&self) -> Vec<u32> {
        let mut ids = self.0.borrow().clone();
        ids.sort_unstable();
        ids
    }
}

/// A graph node with strong edges that logs its drop.
pub(crate) struct Node {
    pub(crate) id: u32,
    pub(crate) edges: Vec<Gc<Node>>,
    pub(crate) log: DropLog,
}

impl Drop for Node {
    fn drop(&mut self) {
        self.log.0.borrow_mut().push(self.id);
    }
}

// SAFETY: `edges` are the node's only heap pointers.
unsafe impl Trace for Node {
    fn trace(&self, tracer: &mut Tracer) {
        self.edges.trace(tracer);
    }

    fn type_name() -> &'static str {
        "Node"
    }
}

/// A heap that never collects on its own and is not in stress mode, for
/// tests of exact allocation behaviour.
pub(crate) fn quiet_heap() -> Heap {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    unsafe { Heap::with_config(HeapConfig { stress: false, poison: true, ..HeapConfig::default() }) }
}

pub(crate) fn node(heap: &mut Heap, log: &DropLog, id: u32, edges: Vec<Gc<Node>>) -> Gc<Node> {
    heap.alloc(Node { id, edges, log: log.clone() })
}
