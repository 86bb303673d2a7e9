//! [`Handle`]: a value the embedder holds, rooted for as long as it lives.
//!
//! Every call into the VM may reach a safepoint and collect; the collector
//! sees the VM's registers, frames and realms, not the embedder's variables.
//! So a value leaves the VM only inside a handle, and a handle's value is
//! recorded in a table the VM traces as a root until the handle is dropped.
//! Primitives without a heap cell (`undefined`, `null`, booleans, numbers)
//! need no root and are kept inline.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use js_gc::{Trace, Tracer};

use crate::value::Value;
use crate::vm::Vm;

/// A JavaScript value held by the embedder: it stays valid across every
/// call into the VM (scripts, microtasks, collections) until it is dropped.
///
/// Cloning a handle roots the value once more; dropping the last handle to a
/// value lets the collector free it. A handle belongs to the VM that made
/// it: another VM refuses it (a `TypeError`, or the documented fallback of
/// an infallible method) instead of reading it. A handle that outlives its
/// VM keeps only the VM's (now unreachable) table alive and can no longer
/// be read.
///
/// ```
/// use js_vm::{Handle, Vm};
///
/// let mut vm = Vm::new();
/// let point = vm.eval_script("make.js", "({ x: 1, y: 2 })").unwrap();
/// vm.eval_script("churn.js", "for (let i = 0; i < 1e5; i++) [i];").unwrap();
/// vm.collect_garbage();
/// // Still valid: the handle kept the object alive through both.
/// assert_eq!(point.get(&mut vm, "y").unwrap().as_number(), Some(2.0));
/// assert_eq!(Handle::number(3.0).as_number(), Some(3.0));
/// ```
///
/// A handle stays on the thread of its VM (whose heap is not shared):
///
/// ```compile_fail
/// let handle = js_vm::Handle::number(1.0);
/// std::thread::spawn(move || drop(handle));
/// ```
pub struct Handle {
    repr: Repr,
}

enum Repr {
    /// A value with no heap cell: nothing to root.
    Primitive(Value),
    /// Slot `index` of `table`, which roots the value.
    Rooted { table: Rc<HandleTable>, index: u32 },
}

impl Handle {
    /// `undefined`.
    pub const fn undefined() -> Self {
        Self { repr: Repr::Primitive(Value::UNDEFINED) }
    }

    /// `null`.
    pub const fn null() -> Self {
        Self { repr: Repr::Primitive(Value::NULL) }
    }

    /// A Number.
    pub fn number(n: f64) -> Self {
        Self { repr: Repr::Primitive(Value::number(n)) }
    }

    /// A Boolean.
    pub fn boolean(b: bool) -> Self {
        Self { repr: Repr::Primitive(Value::boolean(b)) }
    }

    /// The value, read without a VM. Only for the inspections below, which
    /// never dereference it.
    fn peek(&self) -> Value {
        match &self.repr {
            Repr::Primitive(value) => *value,
            Repr::Rooted { table, index } => table.get(*index),
        }
    }

    /// Whether this is `undefined`.
    pub fn is_undefined(&self) -> bool {
        self.peek().is_undefined()
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        self.peek().is_null()
    }

    /// The Number, if this is one.
    pub fn as_number(&self) -> Option<f64> {
        self.peek().as_number()
    }

    /// The Boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        self.peek().as_boolean()
    }

    /// Whether this is an object (functions included).
    pub fn is_object(&self) -> bool {
        self.peek().is_object()
    }

    /// Whether this is a String.
    pub fn is_string(&self) -> bool {
        self.peek().is_string()
    }
}

impl Default for Handle {
    /// `undefined`, as a missing argument reads.
    fn default() -> Self {
        Self::undefined()
    }
}

impl Clone for Handle {
    fn clone(&self) -> Self {
        match &self.repr {
            Repr::Primitive(value) => Self { repr: Repr::Primitive(*value) },
            Repr::Rooted { table, index } => HandleTable::root(table, table.get(*index)),
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        if let Repr::Rooted { table, index } = &self.repr {
            table.release(*index);
        }
    }
}

impl fmt::Debug for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Primitive(value) => write!(f, "Handle({value:?})"),
            Repr::Rooted { index, .. } => write!(f, "Handle(rooted #{index})"),
        }
    }
}

/// The roots of one VM's handles.
///
/// A dropped handle only records its slot as released: a handle may be
/// dropped while the collector traces this table (a host function's closure
/// freed with its function object during a sweep), so dropping must not
/// touch the slots. Released slots are cleared and reused when the next
/// handle is made and before every collection.
#[derive(Default)]
pub(crate) struct HandleTable {
    slots: RefCell<Vec<Value>>,
    free: RefCell<Vec<u32>>,
    released: RefCell<Vec<u32>>,
}

impl HandleTable {
    /// Roots `value` in a fresh slot of `table`.
    fn root(table: &Rc<Self>, value: Value) -> Handle {
        table.reclaim_released();
        let mut slots = table.slots.borrow_mut();
        let index = if let Some(index) = table.free.borrow_mut().pop() {
            slots[index as usize] = value;
            index
        } else {
            slots.push(value);
            // 2³² live handles would need 32 GiB of slots alone.
            u32::try_from(slots.len() - 1).expect("fewer than 2^32 live handles")
        };
        Handle { repr: Repr::Rooted { table: Rc::clone(table), index } }
    }

    fn get(&self, index: u32) -> Value {
        self.slots.borrow().get(index as usize).copied().unwrap_or(Value::UNDEFINED)
    }

    fn release(&self, index: u32) {
        if let Ok(mut released) = self.released.try_borrow_mut() {
            released.push(index);
        }
    }

    /// Clears the slots of dropped handles and makes them reusable.
    pub(crate) fn reclaim_released(&self) {
        let (Ok(mut released), Ok(mut slots), Ok(mut free)) =
            (self.released.try_borrow_mut(), self.slots.try_borrow_mut(), self.free.try_borrow_mut())
        else {
            return;
        };
        for index in released.drain(..) {
            if let Some(slot) = slots.get_mut(index as usize) {
                *slot = Value::UNDEFINED;
                free.push(index);
            }
        }
    }

    /// How many values live handles root.
    pub(crate) fn len(&self) -> usize {
        self.slots.borrow().len() - self.free.borrow().len() - self.released.borrow().len()
    }
}

// SAFETY: every slot's value is reported; free slots hold `undefined`, and
// a released slot's value is still reported until it is reclaimed (kept a
// collection longer, never freed early).
unsafe impl Trace for HandleTable {
    fn trace(&self, tracer: &mut Tracer) {
        for value in self.slots.borrow().iter() {
            value.trace(tracer);
        }
    }
}

impl Vm {
    /// A handle to `value`, rooted if it has a heap cell.
    pub(crate) fn handle(&self, value: Value) -> Handle {
        if value.as_cell().is_some() {
            HandleTable::root(&self.handles, value)
        } else {
            Handle { repr: Repr::Primitive(value) }
        }
    }

    /// The value `handle` holds; `None` if another VM made it.
    pub(crate) fn handle_value(&self, handle: &Handle) -> Option<Value> {
        match &handle.repr {
            Repr::Primitive(value) => Some(*value),
            Repr::Rooted { table, index } => Rc::ptr_eq(table, &self.handles).then(|| table.get(*index)),
        }
    }

    /// How many values the embedder's handles root (primitives need none).
    pub fn handle_count(&self) -> usize {
        self.handles.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes an object only a WeakRef (in `globalThis.weak`) and the
    /// embedder know of, optionally keeps a handle to it, collects, and says
    /// whether the WeakRef still finds it.
    fn survives_collection(keep: bool) -> (bool, Option<String>) {
        let mut vm = Vm::new();
        let object = vm
            .eval_script(
                "make.js",
                "(() => { const o = { answer: 42 }; globalThis.weak = new WeakRef(o); return o; })()",
            )
            .expect("runs");
        let kept = keep.then_some(object);
        // The WeakRef's target is kept until the end of the job that made it.
        vm.run_microtasks().expect("no microtask throws");
        vm.collect_garbage();
        let alive = vm.eval_script("check.js", "weak.deref() !== undefined").expect("runs");
        let shown = kept.as_ref().map(|h| h.display(&mut vm));
        (alive.as_bool() == Some(true), shown)
    }

    #[test]
    fn a_held_value_survives_collections_until_dropped() {
        assert_eq!(survives_collection(true), (true, Some("{ answer: 42 }".to_owned())));
        // Without a handle (dropped at once) the same object is collected.
        assert_eq!(survives_collection(false), (false, None));
    }

    #[test]
    fn the_count_follows_clones_and_drops() {
        let mut vm = Vm::new();
        let base = vm.handle_count();
        let a = vm.eval_script("a.js", "({})").expect("runs");
        let b = a.clone();
        assert_eq!(vm.handle_count(), base + 2);
        drop(a);
        assert_eq!(vm.handle_count(), base + 1);
        assert!(b.is_object());
        drop(b);
        assert_eq!(vm.handle_count(), base);
        // Primitives take no slot.
        let n = vm.eval_script("n.js", "1 + 1").expect("runs");
        assert_eq!((n.as_number(), vm.handle_count()), (Some(2.0), base));
    }

    #[test]
    fn released_slots_are_reused() {
        let mut vm = Vm::new();
        let first = vm.eval_script("a.js", "'first' + 1").expect("runs");
        drop(first);
        let second = vm.eval_script("b.js", "'second' + 2").expect("runs");
        assert_eq!(vm.handles.slots.borrow().len(), 1);
        assert_eq!(second.to_rust_string(&mut vm).ok().as_deref(), Some("second2"));
    }

    #[test]
    fn a_handle_from_another_vm_is_refused() {
        let mut a = Vm::new();
        let mut b = Vm::new();
        let from_a = a.eval_script("a.js", "({ x: 1 })").expect("runs");
        assert!(matches!(from_a.get(&mut b, "x"), Err(crate::JsError::Throw(_))));
        assert_eq!(from_a.get(&mut a, "x").ok().and_then(|x| x.as_number()), Some(1.0));
        // Primitives belong to no VM.
        assert_eq!(Handle::number(1.0).to_rust_string(&mut b).ok().as_deref(), Some("1"));
    }

    #[test]
    fn a_handle_outliving_its_vm_is_harmless() {
        let vm_handle = {
            let mut vm = Vm::new();
            vm.eval_script("a.js", "({ x: 1 })").expect("runs")
        };
        assert!(vm_handle.is_object());
        let mut other = Vm::new();
        assert!(vm_handle.get(&mut other, "x").is_err());
    }
}
