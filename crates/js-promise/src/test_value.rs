//! A value type for unit tests: numbers, and cells for frames.

use js_gc::{GcAny, Trace, Tracer};

use crate::value::PromiseValue;

/// A number, or a cell riding in a slot.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Num {
    Int(u32),
    Cell(GcAny),
}

// SAFETY: the cell is the only pointer.
unsafe impl Trace for Num {
    fn trace(&self, tracer: &mut Tracer) {
        if let Num::Cell(cell) = self {
            cell.trace(tracer);
        }
    }
}

impl PromiseValue for Num {
    fn undefined() -> Self {
        Num::Int(0)
    }
    fn from_cell(cell: GcAny) -> Self {
        Num::Cell(cell)
    }
    fn as_cell(self) -> Option<GcAny> {
        match self {
            Num::Cell(cell) => Some(cell),
            Num::Int(_) => None,
        }
    }
}
