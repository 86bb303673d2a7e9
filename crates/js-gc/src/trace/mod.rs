//! The `Trace` trait and the `Tracer` that marking hands to it.

mod std_types;

use std::ptr::NonNull;

use crate::cell::{FREE_BIT, Header, MARK_BIT};
use crate::ephemeron::EphemeronSweep;
use crate::finalization::FinalizationSweep;
use crate::gc::GcAny;
use crate::weak::WeakSlot;

/// A type whose values can live in the heap or hold pointers into it.
///
/// # Safety
///
/// Implementors promise:
///
/// 1. `trace` calls `trace` on every [`Gc`](crate::Gc), [`Weak`](crate::Weak),
///    [`EphemeronTable`](crate::EphemeronTable) and
///    [`FinalizationTable`](crate::FinalizationTable) the value owns directly
///    (not through another `Gc`). A missed edge lets the collector free a
///    cell that is still referenced.
/// 2. `trace` has no side effects beyond those calls and does not panic.
/// 3. If `NEEDS_TRACE` is `false`, the type owns no such pointers at all.
/// 4. The type's `Drop`, if any, does not reach other cells (it cannot
///    borrow the heap, so this only concerns code that smuggles raw
///    pointers) and does not panic: cells are dropped during sweeping, in no
///    particular order.
pub unsafe trait Trace {
    /// Whether values of this type can hold heap pointers. Cells of types
    /// that cannot are marked without ever being queued for tracing.
    const NEEDS_TRACE: bool = true;

    /// Reports every heap pointer this value owns to `tracer`.
    fn trace(&self, tracer: &mut Tracer);

    /// The name [`HeapStats`](crate::HeapStats) groups cells of this type
    /// under. Defaults to the full Rust type name; engines override it with
    /// the spec name (`"PromiseReaction"`).
    fn type_name() -> &'static str
    where
        Self: Sized,
    {
        std::any::type_name::<Self>()
    }
}

/// The marking state of one collection, handed to [`Trace::trace`].
///
/// Marking is iterative: reaching an unmarked cell marks it and queues it on
/// an explicit stack, so arbitrarily long chains never recurse on the native
/// stack.
pub struct Tracer {
    stack: Vec<NonNull<Header>>,
    /// The cell whose value is being traced, `None` while tracing roots.
    current: Option<GcAny>,
    pub(crate) weak_slots: Vec<NonNull<WeakSlot>>,
    pub(crate) ephemeron_tables: Vec<NonNull<dyn EphemeronSweep>>,
    pub(crate) finalization_tables: Vec<(Option<GcAny>, NonNull<dyn FinalizationSweep>)>,
    /// The number of the collection in progress.
    pub(crate) epoch: u64,
}

impl Tracer {
    pub(crate) fn new(epoch: u64, stack: Vec<NonNull<Header>>) -> Self {
        Self {
            stack,
            current: None,
            weak_slots: Vec::new(),
            ephemeron_tables: Vec::new(),
            finalization_tables: Vec::new(),
            epoch,
        }
    }

    /// Gives back the (empty) mark stack so its capacity is reused.
    pub(crate) fn into_stack(self) -> Vec<NonNull<Header>> {
        debug_assert!(self.stack.is_empty());
        self.stack
    }

    /// Marks `cell` reachable, queueing it for tracing the first time.
    #[inline]
    pub(crate) fn mark(&mut self, cell: GcAny) {
        let header = cell.header();
        let word = header.word();
        if word & (MARK_BIT | FREE_BIT) != 0 {
            debug_assert!(
                word & FREE_BIT == 0,
                "js-gc: traced an edge to a freed cell at {:p}: a Gc outlived a collection without being rooted",
                cell.as_ptr()
            );
            return;
        }
        header.set_marked();
        if header.type_info().trace.is_some() {
            self.stack.push(cell.header_ptr());
        }
    }

    /// The cell being traced; `None` while roots are traced.
    pub(crate) fn current_cell(&self) -> Option<GcAny> {
        self.current
    }

    /// Traces queued cells until the stack is empty.
    pub(crate) fn drain(&mut self) {
        while let Some(cell) = self.stack.pop() {
            // SAFETY: only live, marked cells are pushed (see `mark`), and
            // nothing is freed while marking.
            let header = unsafe { cell.as_ref() };
            let trace = header.type_info().trace;
            // SAFETY: as above; `cell` is a live cell whose trace function is
            // the one of its own type.
            self.current = Some(unsafe { GcAny::from_header(cell) });
            if let Some(trace) = trace {
                // SAFETY: `trace` belongs to this cell's type record.
                unsafe { trace(cell, self) };
            }
        }
        self.current = None;
    }

    pub(crate) fn has_queued(&self) -> bool {
        !self.stack.is_empty()
    }
}
