//! The execution stack, one part of [`Vm`](crate::Vm): the register file
//! every frame's registers live in, the frames themselves, the top frame's
//! pc, the values native code keeps alive while it calls back into
//! scripts, and the bookkeeping of native re-entry and of the exception
//! now unwinding.

use super::{Frame, NativeStack, RegisterBufferPool};
use crate::value::Value;

/// See the module documentation.
pub(crate) struct ExecutionStack {
    /// The registers of every frame, the innermost last.
    pub registers: Vec<Value>,
    /// The frames, the innermost last.
    pub frames: Vec<Frame>,
    /// The pc of the top frame: the dispatch loop writes it before every
    /// instruction, one store instead of an indexed one into `frames`. A
    /// frame's own [`Frame::pc`] is current while other frames run above
    /// it (`push_frame` saves this into it, `pop_frame` reloads it from
    /// the new top).
    pub pc: u32,
    /// Values native code keeps alive across calls back into scripts;
    /// truncated when the native function returns.
    pub temp_roots: Vec<Value>,
    /// Register buffers for frames suspended at `await` and `yield`.
    pub register_buffers: RegisterBufferPool,
    /// How many native re-entries into the dispatch loop are running.
    pub native_depth: usize,
    /// The stretch of this thread's stack known to leave room for a native
    /// re-entry into the loop.
    pub native: NativeStack,
    /// Where the exception now unwinding was thrown. The value is only
    /// compared by identity (to tell a new exception from the same one
    /// leaving a nested entry frame), never read, so it needs no rooting.
    pub throw_site: Option<(Value, crate::bytecode::SourceSite)>,
}

impl Default for ExecutionStack {
    fn default() -> Self {
        Self {
            registers: Vec::with_capacity(1024),
            frames: Vec::new(),
            pc: 0,
            temp_roots: Vec::new(),
            register_buffers: RegisterBufferPool::default(),
            native_depth: 0,
            native: NativeStack::default(),
            throw_site: None,
        }
    }
}
