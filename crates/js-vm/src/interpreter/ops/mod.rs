//! The opcode bodies, one module per family; `execute` in the parent module
//! only dispatches to them.
//!
//! | family | instructions |
//! |---|---|
//! | [`register`] | `LoadUndefined`…`LoadConst`, `Move` |
//! | [`env`] | environments and captured bindings: `PushEnv`…`CheckTdz` |
//! | [`module`] | `ImportMeta`, `ImportCall` |
//! | [`global`] | global bindings: `GetGlobal`…`DeleteGlobal` |
//! | [`property`] | property reads, writes and deletes, `super[key]` |
//! | [`literal`] | object, array and RegExp literals, object rest |
//! | [`function`] | closures and what a function's prologue reads |
//! | [`call`] | calls, `new`, direct eval, `return` |
//! | [`class`] | classes, `super(...)`, private names |
//! | [`arith`] | arithmetic, bitwise and numeric unary operators |
//! | [`compare`] | equality, relational operators, `instanceof`, `in` |
//! | [`conversion`] | `!`, `typeof`, `ToString`, `ToPropertyKey`, `ToObject` |
//! | [`control`] | jumps, throws, `Nop` |
//! | [`iteration`] | sync and async iterators, `for-in` |
//! | [`dispose`] | `using` declarations (explicit resource management) |
//! | [`suspend`] | generators, `yield`, `yield*` and `await`: suspension |
//! | [`with`] | bindings resolved through a `with` object |
//!
//! Every body is `#[inline(always)]`: the loop is one function again after
//! inlining, so the split costs no call per instruction (the callgrind
//! figures in the commit that made it). Slow paths stay out of line.
#![allow(
    clippy::inline_always,
    reason = "opcode bodies are inlined into the dispatch loop on purpose; each family is measured with callgrind"
)]

use js_gc::Gc;

use crate::bytecode::{Code, Reg, Target};
use crate::object::PropertyKey;
use crate::value::Value;
use crate::vm::Vm;

pub(super) mod arith;
pub(super) mod call;
pub(super) mod class;
pub(super) mod compare;
pub(super) mod control;
pub(super) mod conversion;
pub(super) mod dispose;
pub(super) mod env;
pub(super) mod function;
pub(super) mod global;
pub(super) mod iteration;
pub(super) mod literal;
pub(super) mod module;
pub(super) mod property;
pub(super) mod register;
pub(super) mod suspend;
pub(super) mod with;

/// What the dispatch loop keeps of the running frame while it runs: the
/// code, the register window's start in `vm.stack.registers`, and the code's inline
/// cache table and strictness.
#[derive(Clone, Copy)]
pub(super) struct FrameContext {
    /// The running code.
    pub(super) code: Gc<Code>,
    /// Where register 0 lives in `vm.stack.registers`.
    pub(super) base: usize,
    /// The code's inline-cache table.
    pub(super) ic_table: u32,
    /// Whether the code is strict.
    pub(super) strict: bool,
}

impl FrameContext {
    /// The index of register `r` in `vm.stack.registers`.
    #[inline(always)]
    pub(super) fn index(&self, r: Reg) -> usize {
        self.base + usize::from(r.0)
    }

    /// Reads register `r` of the running frame, without a bounds check
    /// (about a tenth of a call-free loop's instructions went to them).
    #[inline(always)]
    pub(super) fn get(&self, vm: &Vm, r: Reg) -> Value {
        let i = self.index(r);
        debug_assert!(i < vm.stack.registers.len(), "register {} outside the frame", r.0);
        // SAFETY: `r` is an operand of the running code, so `r.0 <
        // Code::register_count` (build_code sizes the count past every
        // operand, Instruction::max_register); the frame's `register_count`
        // registers from `base` were pushed when it was entered or resumed
        // (enter_function, push_saved_frame) and stay: the stack is only
        // truncated to the base of a frame being popped, and a frame above
        // this one starts at or past its end. `self` is the running frame's
        // context (execute reloads it whenever the top frame changes).
        unsafe { *vm.stack.registers.get_unchecked(i) }
    }

    /// Writes register `r` of the running frame, without a bounds check.
    #[inline(always)]
    pub(super) fn set(&self, vm: &mut Vm, r: Reg, v: Value) {
        let i = self.index(r);
        debug_assert!(i < vm.stack.registers.len(), "register {} outside the frame", r.0);
        // SAFETY: as in `get`: register `r` of the running frame is inside
        // `vm.stack.registers`.
        unsafe { *vm.stack.registers.get_unchecked_mut(i) = v };
    }

    /// The constant-pool entry `i`.
    #[inline(always)]
    pub(super) fn constant(&self, vm: &Vm, i: u32) -> Value {
        self.code.borrow(&vm.heap).constants[i as usize]
    }

    /// The running code's constant pool.
    #[inline(always)]
    pub(super) fn constants<'h>(&self, vm: &'h Vm) -> &'h [Value] {
        &self.code.borrow(&vm.heap).constants
    }

    /// The property key of a named-access constant (always an identifier
    /// atom, never an index).
    #[inline(always)]
    pub(super) fn atom_key(&self, vm: &Vm, i: u32) -> PropertyKey {
        match self.constant(vm, i).as_string() {
            Some(s) => PropertyKey::String(s),
            None => PropertyKey::Index(0),
        }
    }
}

/// What the loop does after an instruction that can leave the straight
/// line.
pub(super) enum Next {
    /// Go on with the next instruction.
    Fall,
    /// Go on at this instruction.
    Jump(Target),
    /// The top frame changed (a call pushed one, a return popped one):
    /// reload it.
    Frame,
    /// The entry frame finished with this value: leave the loop.
    Exit(Value),
}
