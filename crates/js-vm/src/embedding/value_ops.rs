//! What the embedder can do with a [`Handle`]: read and write properties,
//! call functions, convert and print values. Each takes the VM the handle
//! belongs to; results come back as new handles.

use crate::builtins::object::define_property_or_throw;
use crate::embedding::{Handle, JsError};
use crate::host::uncaught::Uncaught;
use crate::object::internal_methods::{call, get_value, set};
use crate::object::{Attributes, JsObject, ObjectKind, PropertyDescriptor, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The attributes of a property [`Handle::define_property`] creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PropertyFlags {
    /// `[[Writable]]`.
    pub writable: bool,
    /// `[[Enumerable]]`: seen by `for-in`, `Object.keys` and spread.
    pub enumerable: bool,
    /// `[[Configurable]]`: can be deleted or redefined.
    pub configurable: bool,
}

impl PropertyFlags {
    /// What assignment creates: writable, enumerable, configurable.
    pub const DEFAULT: Self = Self { writable: true, enumerable: true, configurable: true };
    /// How builtins' methods are defined: writable and configurable, not
    /// enumerable.
    pub const METHOD: Self = Self { writable: true, enumerable: false, configurable: true };

    fn attributes(self) -> Attributes {
        let mut bits = 0;
        if self.writable {
            bits |= Attributes::WRITABLE;
        }
        if self.enumerable {
            bits |= Attributes::ENUMERABLE;
        }
        if self.configurable {
            bits |= Attributes::CONFIGURABLE;
        }
        Attributes::from_bits(bits)
    }
}

/// What an infallible printing method shows for a handle another VM made.
const FOREIGN: &str = "<a handle made by another VM>";

impl Vm {
    /// Runs `f` for the embedder: values it roots in `temp_roots` are let go
    /// afterwards and its exception becomes a [`JsError`]. A `Value` it
    /// returns must be put in a handle before the next call into the VM.
    fn embedder_call<T>(&mut self, f: impl FnOnce(&mut Self) -> JsResult<T>) -> Result<T, JsError> {
        self.with_temporary_roots(f).map_err(|exception| self.js_error(exception))
    }

    /// Runs `f`, then lets go of the values it rooted in `temp_roots` (the
    /// embedder's calls come from outside any native function, whose return
    /// would otherwise release them).
    fn with_temporary_roots<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let mark = self.stack.temp_roots.len();
        let result = f(self);
        self.stack.temp_roots.truncate(mark);
        result
    }

    /// The value of a handle passed in, or the `TypeError` for one another
    /// VM made.
    fn value_in(&mut self, handle: &Handle) -> JsResult<Value> {
        self.handle_value(handle).ok_or_else(|| self.foreign_handle_error())
    }

    /// The object a handle holds, or a `TypeError`.
    fn object_in(&mut self, handle: &Handle, what: &str) -> JsResult<js_gc::Gc<JsObject>> {
        let value = self.value_in(handle)?;
        value.as_object().ok_or_else(|| self.type_error(&format!("{what}: not an object")))
    }

    /// A property key for Rust text, rooted until the embedder call ends
    /// (atoms are weak).
    fn rooted_key(&mut self, key: &str) -> PropertyKey {
        let key = self.key(key);
        self.keep_key_alive(key);
        key
    }
}

impl Handle {
    /// A String with Rust text.
    pub fn string(vm: &mut Vm, text: &str) -> Self {
        let value = vm.string(text);
        vm.handle(value)
    }

    /// A new plain object (`{}`) of the current realm.
    pub fn new_object(vm: &mut Vm) -> Self {
        let object = vm.new_plain_object();
        vm.handle(Value::object(object))
    }

    /// `this[key]` (`GetV`: primitives read their prototype's properties).
    pub fn get(&self, vm: &mut Vm, key: &str) -> Result<Self, JsError> {
        let value = vm.embedder_call(|vm| {
            let base = vm.value_in(self)?;
            let key = vm.rooted_key(key);
            get_value(vm, base, key)
        })?;
        Ok(vm.handle(value))
    }

    /// `this[key] = value` as strict code does it: a `TypeError` if the
    /// assignment is refused (a read-only or setter-less property, a
    /// non-extensible object).
    pub fn set(&self, vm: &mut Vm, key: &str, value: &Self) -> Result<(), JsError> {
        vm.embedder_call(|vm| {
            let object = vm.object_in(self, "set")?;
            let value = vm.value_in(value)?;
            let property = vm.rooted_key(key);
            if set(vm, object, property, value, Value::object(object))? {
                Ok(())
            } else {
                Err(vm.type_error(&format!("Cannot assign to property '{key}'")))
            }
        })
    }

    /// Defines (or redefines) the data property `key` with `flags`
    /// (`DefinePropertyOrThrow`): a `TypeError` if the object refuses.
    pub fn define_property(&self, vm: &mut Vm, key: &str, value: &Self, flags: PropertyFlags) -> Result<(), JsError> {
        vm.embedder_call(|vm| {
            let object = vm.object_in(self, "define_property")?;
            let value = vm.value_in(value)?;
            let property = vm.rooted_key(key);
            define_property_or_throw(vm, object, property, PropertyDescriptor::data(value, flags.attributes()))
        })
    }

    /// Calls this function with `this` and `args` (a `TypeError` if it is
    /// not callable).
    pub fn call(&self, vm: &mut Vm, this: &Self, args: &[Self]) -> Result<Self, JsError> {
        let result = vm.embedder_call(|vm| {
            let function = vm.value_in(self)?;
            let this = vm.value_in(this)?;
            let args = args.iter().map(|a| vm.value_in(a)).collect::<JsResult<Vec<Value>>>()?;
            call(vm, function, this, &args)
        })?;
        Ok(vm.handle(result))
    }

    /// `SameValue`: the same object, or equal primitives (`NaN` equals
    /// itself, `+0` and `-0` differ). False for a handle another VM made.
    pub fn same_value(&self, vm: &mut Vm, other: &Self) -> bool {
        match (vm.handle_value(self), vm.handle_value(other)) {
            (Some(a), Some(b)) => crate::abstract_ops::same_value(vm, a, b),
            _ => false,
        }
    }

    /// `ToString`, as Rust text (lone surrogates become U+FFFD).
    pub fn to_rust_string(&self, vm: &mut Vm) -> Result<String, JsError> {
        vm.embedder_call(|vm| {
            let value = vm.value_in(self)?;
            vm.rust_string(value)
        })
    }

    /// The value as `console.log` prints it.
    pub fn display(&self, vm: &mut Vm) -> String {
        self.printed(vm, Vm::display)
    }

    /// How Node reports this value escaping uncaught: an error's `stack`, or
    /// `Uncaught <value>` for other values (one line per line of output).
    pub fn describe_uncaught(&self, vm: &mut Vm) -> String {
        self.printed(vm, Vm::describe_uncaught)
    }

    /// The whole report for this value escaping as `how` (the source line
    /// and caret of a throw, the value or stack, Node's text for a
    /// rejection that is not an error), ready for stderr.
    pub fn uncaught_report(&self, vm: &mut Vm, how: Uncaught) -> String {
        self.printed(vm, |vm, value| vm.uncaught_report(value, how))
    }

    /// The text `print` makes of this value, with the temporary roots it
    /// made let go; [`FOREIGN`] for a handle another VM made.
    fn printed(&self, vm: &mut Vm, print: impl FnOnce(&mut Vm, Value) -> String) -> String {
        match vm.handle_value(self) {
            Some(value) => vm.with_temporary_roots(|vm| print(vm, value)),
            None => FOREIGN.to_owned(),
        }
    }

    /// The `name` of this value's constructor (`"TypeError"` for a thrown
    /// TypeError), without running anything but getters on the way; `None`
    /// if there is none (or the handle belongs to another VM).
    pub fn constructor_name(&self, vm: &mut Vm) -> Option<String> {
        let value = vm.handle_value(self)?;
        vm.with_temporary_roots(|vm| vm.constructor_name(value))
    }

    /// The outcome of a native promise: `None` while it is pending (or if
    /// this is not a promise), else its value (`Ok`) or rejection reason.
    pub fn promise_outcome(&self, vm: &Vm) -> Option<Result<Self, Self>> {
        let promise = crate::promise::as_promise(vm, vm.handle_value(self)?)?;
        let ObjectKind::Promise(state) = &promise.borrow(&vm.heap).kind else { return None };
        let result = vm.handle(state.result()?);
        Some(if state.status() == js_promise::PromiseStatus::Rejected { Err(result) } else { Ok(result) })
    }

    /// Detaches this ArrayBuffer (`DetachArrayBuffer`, as a transfer to
    /// another agent does): its bytes are freed and every view of it reads
    /// as empty. A `TypeError` for anything else, or a shared or immutable
    /// buffer.
    pub fn detach_array_buffer(&self, vm: &mut Vm) -> Result<(), JsError> {
        vm.embedder_call(|vm| {
            let buffer = vm.object_in(self, "detach_array_buffer")?;
            if !crate::builtins::array_buffer::is_array_buffer(vm, buffer) {
                return Err(vm.type_error("detach_array_buffer: not an ArrayBuffer"));
            }
            crate::builtins::array_buffer::detach(vm, buffer)
        })
    }

    /// The Shared Data Block of this SharedArrayBuffer, to hand to another
    /// VM (on this thread or another) with [`Vm::shared_array_buffer_from`]:
    /// both buffers then see one memory, and `Atomics.wait` in one VM is
    /// woken by `Atomics.notify` in the other. A `TypeError` for anything
    /// but a SharedArrayBuffer.
    pub fn shared_array_buffer_block(&self, vm: &mut Vm) -> Result<crate::SharedArrayBufferBlock, JsError> {
        vm.embedder_call(|vm| {
            let buffer = vm.object_in(self, "shared_array_buffer_block")?;
            crate::builtins::array_buffer::shared_array_buffer_block(vm, buffer)
                .ok_or_else(|| vm.type_error("shared_array_buffer_block: not a SharedArrayBuffer"))
        })
    }
}

impl Vm {
    /// A new SharedArrayBuffer of the current realm over `block` (from
    /// [`Handle::shared_array_buffer_block`], possibly in another VM).
    pub fn shared_array_buffer_from(&mut self, block: &crate::SharedArrayBufferBlock) -> Handle {
        let buffer = crate::builtins::array_buffer::shared_array_buffer_from(self, block);
        self.handle(Value::object(buffer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_round_trip_and_refusals_are_type_errors() {
        let mut vm = Vm::new();
        let o = vm.eval_script("o.js", "Object.defineProperty({}, 'fixed', { value: 1 })").expect("runs");
        let two = Handle::number(2.0);
        o.set(&mut vm, "free", &two).expect("a new property");
        assert_eq!(o.get(&mut vm, "free").ok().and_then(|v| v.as_number()), Some(2.0));
        let refused = o.set(&mut vm, "fixed", &two).expect_err("read-only");
        assert_eq!(refused.thrown().and_then(|e| e.constructor_name(&mut vm)).as_deref(), Some("TypeError"));
        o.define_property(&mut vm, "hidden", &two, PropertyFlags::METHOD).expect("defined");
        let keys = vm.eval_script("k.js", "1").expect("runs");
        assert_eq!(keys.as_number(), Some(1.0));
        let f = vm.eval_script("f.js", "(o) => Object.keys(o).join()").expect("runs");
        let listed = f.call(&mut vm, &Handle::undefined(), &[o]).expect("calls");
        assert_eq!(listed.to_rust_string(&mut vm).ok().as_deref(), Some("free"));
        let primitive = Handle::number(1.0);
        assert!(primitive.set(&mut vm, "x", &two).is_err());
        assert_eq!(Handle::string(&mut vm, "abc").get(&mut vm, "length").ok().and_then(|v| v.as_number()), Some(3.0));
    }

    #[test]
    fn printing_from_outside_leaves_nothing_rooted() {
        let mut vm = Vm::new();
        let p = vm.eval_script("p.js", "[Promise.resolve({ a: 1 }), new Error('e')]").expect("runs");
        let before = vm.stack.temp_roots.len();
        let shown = p.display(&mut vm);
        let _ = p.describe_uncaught(&mut vm);
        let _ = p.uncaught_report(&mut vm, Uncaught::Exception);
        let _ = p.constructor_name(&mut vm);
        assert!(shown.starts_with("[\n  Promise { { a: 1 } },\n  Error: e"), "{shown}");
        assert_eq!(vm.stack.temp_roots.len(), before);
    }

    #[test]
    fn calling_a_non_function_is_a_type_error() {
        let mut vm = Vm::new();
        let error = Handle::number(1.0).call(&mut vm, &Handle::undefined(), &[]).expect_err("not callable");
        assert_eq!(error.thrown().and_then(|e| e.constructor_name(&mut vm)).as_deref(), Some("TypeError"));
    }

    #[test]
    fn promise_outcomes_are_read_after_the_microtasks_ran() {
        let mut vm = Vm::new();
        let p = vm.eval_script("p.js", "Promise.resolve(1).then((x) => x + 1)").expect("runs");
        assert!(p.promise_outcome(&vm).is_none());
        vm.run_microtasks().expect("runs");
        assert_eq!(p.promise_outcome(&vm).and_then(Result::ok).and_then(|v| v.as_number()), Some(2.0));
        let r = vm.eval_script("r.js", "Promise.reject(new Error('no'))").expect("runs");
        let reason = r.promise_outcome(&vm).and_then(Result::err).expect("rejected");
        assert_eq!(
            reason.get(&mut vm, "message").ok().and_then(|m| m.to_rust_string(&mut vm).ok()).as_deref(),
            Some("no")
        );
    }

    #[test]
    fn detaching_takes_only_array_buffers() {
        let mut vm = Vm::new();
        let buffer = vm.eval_script("b.js", "globalThis.b = new ArrayBuffer(8)").expect("runs");
        buffer.detach_array_buffer(&mut vm).expect("detached");
        assert_eq!(vm.eval_script("c.js", "b.byteLength").ok().and_then(|v| v.as_number()), Some(0.0));
        assert!(Handle::new_object(&mut vm).detach_array_buffer(&mut vm).is_err());
    }
}
