//! Call frames, the arguments native functions receive, and the internal
//! cells the interpreter keeps in registers.

use js_gc::{Gc, Trace, Tracer};

use crate::bytecode::{Code, Reg};
use crate::environment::DeclarativeEnvironment;
use crate::object::{JsObject, PropertyKey};
use crate::realm::RealmId;
use crate::value::Value;
use crate::vm::Vm;

/// One activation of compiled code.
pub struct Frame {
    /// The running code.
    pub code: Gc<Code>,
    /// The instruction being executed (the call instruction while a callee
    /// runs) while another frame is on top; the top frame's is `ExecutionStack::pc`.
    pub pc: u32,
    /// Index of register 0 in the register file.
    pub base: usize,
    /// The innermost environment.
    pub env: Option<Gc<DeclarativeEnvironment>>,
    /// The function object running (`None` for scripts).
    pub callee: Option<Gc<JsObject>>,
    /// `new.target`, `undefined` for calls.
    pub new_target: Value,
    /// Arguments beyond the declared parameters (for `arguments` and rest).
    pub extra_args: Box<[Value]>,
    /// How many arguments the caller passed.
    pub argc: u32,
    /// Where the caller wants the result.
    pub return_dst: Reg,
    /// A native caller waits for this frame: returning ends the run loop.
    pub entry: bool,
    /// Called through `[[Construct]]`.
    pub construct: bool,
    /// The generator this frame runs, once `GeneratorStart` made it.
    pub generator: Option<Gc<JsObject>>,
    /// The realm that was current when the frame was pushed, entered again
    /// when it is popped (the frame itself runs in its function's realm).
    pub caller_realm: RealmId,
}

// SAFETY: code, environment, callee, new.target and extra arguments.
unsafe impl Trace for Frame {
    fn trace(&self, tracer: &mut Tracer) {
        self.code.trace(tracer);
        self.env.trace(tracer);
        self.callee.trace(tracer);
        self.new_target.trace(tracer);
        self.extra_args.trace(tracer);
        self.generator.trace(tracer);
    }
}

/// What a native function is called with. The arguments stay in the
/// register file (rooted) and are read with [`CallInfo::arg`].
#[derive(Clone, Copy, Debug)]
pub struct CallInfo {
    /// The function object being called.
    pub callee: Gc<JsObject>,
    /// The `this` value.
    pub this: Value,
    /// `new.target`: `Some` when called as a constructor.
    pub new_target: Option<Gc<JsObject>>,
    pub(crate) args_base: usize,
    /// The number of arguments.
    pub argc: usize,
}

impl CallInfo {
    /// Argument `i`, `undefined` when absent.
    #[inline]
    pub fn arg(&self, vm: &Vm, i: usize) -> Value {
        if i < self.argc { vm.stack.registers[self.args_base + i] } else { Value::UNDEFINED }
    }

    /// All arguments, in the caller's argument registers (no copy).
    #[inline]
    pub fn arg_values<'a>(&self, vm: &'a Vm) -> &'a [Value] {
        &vm.stack.registers[self.args_base..self.args_base + self.argc]
    }

    /// All arguments, copied.
    pub fn args(&self, vm: &Vm) -> Vec<Value> {
        vm.stack.registers[self.args_base..self.args_base + self.argc].to_vec()
    }

    /// The native function's data slot.
    pub fn data(&self, vm: &Vm) -> Value {
        match self.callee.borrow(&vm.heap).as_function() {
            Some(crate::function::Function::Native(n)) => n.data,
            _ => Value::UNDEFINED,
        }
    }
}

/// The iterator record of `GetIterator` (§7.4.1), kept in a register.
pub struct IteratorRecord {
    /// `[[Iterator]]`.
    pub iterator: Value,
    /// `[[NextMethod]]`.
    pub next: Value,
    /// `[[Done]]`.
    pub done: bool,
}

// SAFETY: the iterator and its next method.
unsafe impl Trace for IteratorRecord {
    fn trace(&self, tracer: &mut Tracer) {
        self.iterator.trace(tracer);
        self.next.trace(tracer);
    }

    fn type_name() -> &'static str {
        "IteratorRecord"
    }
}

/// The state of one `for-in` loop (§14.7.5.10 ForIn/OfHeadEvaluation
/// with `EnumerateObjectProperties`).
pub struct ForInIterator {
    /// The object being enumerated.
    pub object: Gc<JsObject>,
    /// The keys collected when the loop started, with the object each came
    /// from.
    pub keys: Vec<(Gc<JsObject>, PropertyKey)>,
    /// The next key to visit.
    pub index: usize,
}

// SAFETY: the object and every collected key and owner.
unsafe impl Trace for ForInIterator {
    fn trace(&self, tracer: &mut Tracer) {
        self.object.trace(tracer);
        for (owner, key) in &self.keys {
            owner.trace(tracer);
            key.trace(tracer);
        }
    }

    fn type_name() -> &'static str {
        "ForInIterator"
    }
}
