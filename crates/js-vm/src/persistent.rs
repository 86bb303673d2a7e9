//! Persistent handles: values an embedder keeps across calls into the VM.
//!
//! A `Value` returned by [`Vm::eval_script`] or read from an object is only
//! reachable from the embedder's own variables, which the collector cannot
//! see: the next safepoint may free it. [`Vm::persist`] roots it in a table
//! the VM traces until [`Vm::release`] gives the slot back, so the value
//! stays valid for as long as the embedder holds the handle.

use std::sync::atomic::{AtomicU64, Ordering};

use js_gc::{Trace, Tracer};

use crate::value::Value;
use crate::vm::Vm;

/// Gives every VM's table a distinct identity, so a handle used with a VM
/// that did not make it is recognised instead of reading a stranger's slot.
static NEXT_TABLE_ID: AtomicU64 = AtomicU64::new(1);

/// A rooted value. Not `Clone`: one handle, one release.
#[derive(Debug, PartialEq, Eq)]
#[must_use = "a persistent handle keeps its value alive until released"]
pub struct Persistent {
    table: u64,
    index: u32,
    generation: u32,
}

/// The VM's table of persistent roots.
pub(crate) struct PersistentTable {
    id: u64,
    /// The value and the generation of each slot (a slot's generation
    /// changes when it is released).
    slots: Vec<(Value, u32)>,
    free: Vec<u32>,
}

impl Default for PersistentTable {
    fn default() -> Self {
        Self { id: NEXT_TABLE_ID.fetch_add(1, Ordering::Relaxed), slots: Vec::new(), free: Vec::new() }
    }
}

impl PersistentTable {
    fn slot(&self, handle: &Persistent) -> Option<usize> {
        let index = handle.index as usize;
        (handle.table == self.id && self.slots.get(index).is_some_and(|&(_, g)| g == handle.generation))
            .then_some(index)
    }

    /// How many values are rooted.
    pub(crate) fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

// SAFETY: every slot's value is reported; released slots hold `undefined`.
unsafe impl Trace for PersistentTable {
    fn trace(&self, tracer: &mut Tracer) {
        for (value, _) in &self.slots {
            value.trace(tracer);
        }
    }
}

impl Vm {
    /// Roots `value` until the handle is released: it survives every
    /// collection in between, whatever JavaScript does with it.
    pub fn persist(&mut self, value: Value) -> Persistent {
        let table = &mut self.persistent;
        let index = if let Some(index) = table.free.pop() {
            table.slots[index as usize].0 = value;
            index
        } else {
            table.slots.push((value, 0));
            u32::try_from(table.slots.len() - 1).unwrap_or(u32::MAX)
        };
        Persistent { table: table.id, index, generation: table.slots[index as usize].1 }
    }

    /// The value `handle` roots; `None` if the handle belongs to another VM.
    pub fn persistent_value(&self, handle: &Persistent) -> Option<Value> {
        self.persistent.slot(handle).map(|index| self.persistent.slots[index].0)
    }

    /// Unroots the handle's value and returns it (still valid until the next
    /// safepoint, like any value fresh from the VM); `None` if the handle
    /// belongs to another VM.
    #[allow(clippy::needless_pass_by_value, reason = "releasing takes the handle, so it cannot be used again")]
    pub fn release(&mut self, handle: Persistent) -> Option<Value> {
        let index = self.persistent.slot(&handle)?;
        let (value, generation) = self.persistent.slots[index];
        self.persistent.slots[index] = (Value::UNDEFINED, generation.wrapping_add(1));
        self.persistent.free.push(handle.index);
        Some(value)
    }

    /// How many values persistent handles root.
    pub fn persistent_count(&self) -> usize {
        self.persistent.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes an object only a WeakRef (in `globalThis.weak`) and the
    /// embedder know of, optionally persists it, collects, and says whether
    /// the WeakRef still finds it.
    fn survives_collection(persist: bool) -> (bool, Option<String>) {
        let mut vm = Vm::new();
        let object = vm
            .eval_script(
                "make.js",
                "(() => { const o = { answer: 42 }; globalThis.weak = new WeakRef(o); return o; })()",
            )
            .unwrap_or_default();
        let handle = persist.then(|| vm.persist(object));
        // The WeakRef's target is kept until the end of the job that made it.
        let _ = vm.run_microtasks();
        vm.collect_garbage();
        let alive = vm.eval_script("check.js", "weak.deref() !== undefined").unwrap_or_default();
        let shown = handle.as_ref().and_then(|h| vm.persistent_value(h)).map(|v| vm.display(v));
        if let Some(h) = handle {
            assert!(vm.release(h).is_some());
        }
        (alive == Value::TRUE, shown)
    }

    #[test]
    fn a_persisted_value_survives_collections_until_released() {
        assert_eq!(survives_collection(true), (true, Some("{ answer: 42 }".to_owned())));
        // Without the handle the same object is collected.
        assert_eq!(survives_collection(false), (false, None));
    }

    #[test]
    fn the_count_follows_persist_and_release() {
        let mut vm = Vm::new();
        let a = vm.persist(Value::TRUE);
        let b = vm.persist(Value::FALSE);
        assert_eq!(vm.persistent_count(), 2);
        assert_eq!(vm.release(a), Some(Value::TRUE));
        assert_eq!(vm.persistent_count(), 1);
        assert_eq!(vm.release(b), Some(Value::FALSE));
        assert_eq!(vm.persistent_count(), 0);
    }

    #[test]
    fn released_slots_are_reused_with_a_new_generation() {
        let mut vm = Vm::new();
        let first = vm.persist(Value::number(1.0));
        let first_index = first.index;
        let first_generation = first.generation;
        vm.release(first);
        let second = vm.persist(Value::number(2.0));
        assert_eq!(second.index, first_index);
        assert_ne!(second.generation, first_generation);
        let stale = Persistent { table: second.table, index: first_index, generation: first_generation };
        assert_eq!(vm.persistent_value(&stale), None);
        assert_eq!(vm.persistent_value(&second), Some(Value::number(2.0)));
    }

    #[test]
    fn a_handle_from_another_vm_is_refused() {
        let mut a = Vm::new();
        let mut b = Vm::new();
        let from_a = a.persist(Value::TRUE);
        let _from_b = b.persist(Value::FALSE);
        assert_eq!(b.persistent_value(&from_a), None);
        assert_eq!(b.release(from_a), None);
        assert_eq!(b.persistent_count(), 1);
    }
}
