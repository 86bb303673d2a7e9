//! Host-defined globals in Node's conventions: `console`, and the
//! `$vm` internals object of `--expose-internals`.

pub mod console;
mod internals;

use crate::vm::Vm;

/// Installs the host globals.
pub(crate) fn install(vm: &mut Vm) {
    console::install(vm);
    if vm.options.expose_internals {
        internals::install(vm);
    }
}
