//! [`VmHost`]: the VM as the host of the subsystem crates (js-promise,
//! js-streams, js-async-context).
//!
//! Those crates' host traits hand out and take raw values, heap access and
//! object slots: exactly what the embedder must not reach (a raw value kept
//! across a collection dangles). Implemented on [`Vm`] itself, a public
//! type, their methods would be callable by anyone importing the traits; so
//! they are implemented on this crate-private wrapper, made for the length
//! of one call into a subsystem.

use std::ops::{Deref, DerefMut};

use crate::vm::Vm;

/// A VM lent to a subsystem algorithm.
pub(crate) struct VmHost<'a>(pub(crate) &'a mut Vm);

impl Deref for VmHost<'_> {
    type Target = Vm;

    fn deref(&self) -> &Vm {
        self.0
    }
}

impl DerefMut for VmHost<'_> {
    fn deref_mut(&mut self) -> &mut Vm {
        self.0
    }
}

impl Vm {
    /// This VM as the subsystems' host, for one call.
    pub(crate) fn host(&mut self) -> VmHost<'_> {
        VmHost(self)
    }
}
