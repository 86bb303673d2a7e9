//! `PromiseValue`: what the crate needs of the host's value type.

use js_gc::{GcAny, Trace};

/// The host's JavaScript value (a NaN-boxed word in an engine; any `Copy`
/// type in a test host), as the promise algorithms handle it.
///
/// Values are stored in promise cells, reaction cells and job slots, so they
/// are traced. The algorithms never look inside a value: they ask the
/// [`PromiseHost`](crate::PromiseHost) (is it an object, is it callable, is
/// it a native promise). The only thing they build themselves is a value
/// holding a heap cell: an async-context frame or a reaction record, carried
/// in a job slot.
pub trait PromiseValue: Copy + PartialEq + Trace + 'static {
    /// `undefined`: the filler of unused slots.
    fn undefined() -> Self;

    /// A value that carries `cell` (a frame or a reaction record) through a
    /// job slot. The value is internal: user code never sees it.
    fn from_cell(cell: GcAny) -> Self;

    /// The cell a value made by [`from_cell`](Self::from_cell) carries.
    fn as_cell(self) -> Option<GcAny>;
}
