//! Generator objects (§27.5): a generator's frame lives in the heap while
//! it is suspended, so `yield` never recurses on the native stack.

use std::num::{NonZeroU16, NonZeroU32};

use js_gc::{Gc, Trace, Tracer};

use super::{Frame, run};
use crate::bytecode::{Code, Instruction, Reg};
use crate::environment::DeclarativeEnvironment;
use crate::object::{JsObject, ObjectKind};
use crate::realm::RealmId;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// `[[GeneratorState]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneratorStatus {
    /// Created; the body has not started.
    SuspendedStart,
    /// Stopped at a `yield`.
    SuspendedYield,
    /// Running.
    Executing,
    /// Returned or threw.
    Completed,
}

/// A suspended frame: everything needed to push it again.
pub struct SavedFrame {
    code: Gc<Code>,
    pc: u32,
    env: Option<Gc<DeclarativeEnvironment>>,
    callee: Option<Gc<JsObject>>,
    new_target: Value,
    extra_args: Box<[Value]>,
    argc: u32,
    /// Taken from and given back to [`RegisterBufferPool`].
    registers: Vec<Value>,
    /// The realm the frame runs in (its function's), entered on resumption.
    realm: RealmId,
}

/// A generator object's internal slots.
pub struct GeneratorState {
    /// `[[GeneratorState]]`.
    pub status: GeneratorStatus,
    /// The frame while suspended.
    pub frame: Option<SavedFrame>,
    /// Whether the last yield produced an iterator result itself
    /// (`yield*`).
    pub raw_yield: bool,
}

// SAFETY: the saved frame's code, environment, callee, new.target,
// arguments and registers are reported.
unsafe impl Trace for SavedFrame {
    fn trace(&self, tracer: &mut Tracer) {
        self.code.trace(tracer);
        self.env.trace(tracer);
        self.callee.trace(tracer);
        self.new_target.trace(tracer);
        self.extra_args.trace(tracer);
        self.registers.trace(tracer);
    }
}

// SAFETY: the saved frame is the only pointer holder.
unsafe impl Trace for GeneratorState {
    fn trace(&self, tracer: &mut Tracer) {
        if let Some(f) = &self.frame {
            f.trace(tracer);
        }
    }
}

/// Register buffers of frames that were resumed, kept for the next
/// suspension: an `await` or `yield` then copies its registers without
/// allocating (a loop awaiting once per turn would otherwise allocate and
/// free one buffer per turn).
#[derive(Default)]
pub struct RegisterBufferPool {
    buffers: Vec<Vec<Value>>,
}

impl RegisterBufferPool {
    /// At most this many buffers are kept.
    const MAX_BUFFERS: usize = 64;
    /// Larger buffers are freed rather than kept.
    const MAX_KEPT_CAPACITY: usize = 1024;

    /// A buffer holding a copy of `registers`.
    fn filled_from(&mut self, registers: &[Value]) -> Vec<Value> {
        let mut buffer = self.buffers.pop().unwrap_or_default();
        buffer.extend_from_slice(registers);
        buffer
    }

    /// Keeps `buffer` (emptied, so it holds no stale values) for reuse.
    fn give_back(&mut self, mut buffer: Vec<Value>) {
        if self.buffers.len() < Self::MAX_BUFFERS && buffer.capacity() <= Self::MAX_KEPT_CAPACITY {
            buffer.clear();
            self.buffers.push(buffer);
        }
    }
}

/// Pops the running frame into a [`SavedFrame`].
pub(super) fn save_top_frame(vm: &mut Vm, resume_pc: u32) -> Option<(SavedFrame, Frame)> {
    // The running frame's realm is the current one.
    let realm = vm.realm_id;
    let mut frame = super::pop_frame(vm)?;
    let registers = usize::from(frame.code.borrow(&vm.heap).register_count);
    let saved = SavedFrame {
        code: frame.code,
        pc: resume_pc,
        env: frame.env,
        callee: frame.callee,
        new_target: frame.new_target,
        // The popped frame only delivers the suspension's result.
        extra_args: std::mem::take(&mut frame.extra_args),
        argc: frame.argc,
        registers: vm.stack.register_buffers.filled_from(&vm.stack.registers[frame.base..frame.base + registers]),
        realm,
    };
    vm.stack.registers.truncate(frame.base);
    Some((saved, frame))
}

/// The prototype of a new generator: the generator function's
/// `prototype` if it is an object. Read while the frame is still live, since
/// a getter can run.
pub(super) fn generator_prototype(
    vm: &mut Vm,
    callee: Option<Gc<JsObject>>,
    default: Gc<JsObject>,
) -> JsResult<Gc<JsObject>> {
    let Some(callee) = callee else { return Ok(default) };
    let key = crate::object::PropertyKey::String(vm.names.prototype);
    let p = crate::object::internal_methods::get(vm, callee, key, Value::object(callee))?;
    Ok(p.as_object().unwrap_or(default))
}

/// Makes the generator object for a frame that reached `GeneratorStart`.
pub(super) fn create_generator(vm: &mut Vm, saved: SavedFrame, proto: Gc<JsObject>) -> Gc<JsObject> {
    let state = GeneratorState { status: GeneratorStatus::SuspendedStart, frame: Some(saved), raw_yield: false };
    vm.new_object_of_kind(Some(proto), ObjectKind::Generator(Box::new(state)))
}

/// How a generator is resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResumeMode {
    /// `next(value)`
    Next = 0,
    /// `throw(value)`
    Throw = 1,
    /// `return(value)`
    Return = 2,
}

fn state_mut(vm: &mut Vm, g: Gc<JsObject>) -> Option<&mut GeneratorState> {
    match &mut g.borrow_mut(&mut vm.heap).kind {
        ObjectKind::Generator(state) => Some(state),
        _ => None,
    }
}

/// `GeneratorResume` / `GeneratorResumeAbrupt` (§27.5.3.3–4): runs the
/// generator until it yields or completes and returns the iterator result.
pub fn generator_resume(vm: &mut Vm, g: Gc<JsObject>, value: Value, mode: ResumeMode) -> JsResult<Value> {
    let Some(state) = state_mut(vm, g) else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    match (state.status, mode) {
        (GeneratorStatus::Executing, _) => return Err(vm.type_error("Generator is already running")),
        (GeneratorStatus::Completed, ResumeMode::Next) => {
            return Ok(crate::builtins::iteration::iter_result(vm, Value::UNDEFINED, true));
        }
        (GeneratorStatus::Completed | GeneratorStatus::SuspendedStart, ResumeMode::Throw) => {
            state.status = GeneratorStatus::Completed;
            state.frame = None;
            return Err(Exception::Throw(value));
        }
        (GeneratorStatus::Completed | GeneratorStatus::SuspendedStart, ResumeMode::Return) => {
            state.status = GeneratorStatus::Completed;
            state.frame = None;
            return Ok(crate::builtins::iteration::iter_result(vm, value, true));
        }
        _ => {}
    }
    let was_started = state.status == GeneratorStatus::SuspendedYield;
    state.status = GeneratorStatus::Executing;
    let Some(saved) = state.frame.take() else {
        return Err(vm.type_error("Generator is already running"));
    };
    if vm.stack.frames.len() >= vm.options.max_call_depth || super::native_stack_exhausted(vm) {
        if let Some(state) = state_mut(vm, g) {
            state.status = GeneratorStatus::Completed;
        }
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    let value_and_mode = was_started.then_some((value, Value::number(f64::from(mode as u8))));
    push_saved_frame(vm, saved, g, value_and_mode);
    vm.stack.native_depth += 1;
    let result = run(vm);
    vm.stack.native_depth -= 1;
    let result = result?;
    let (status, raw) = match &g.borrow(&vm.heap).kind {
        ObjectKind::Generator(s) => (s.status, s.raw_yield),
        _ => (GeneratorStatus::Completed, false),
    };
    if status == GeneratorStatus::Completed {
        return Ok(crate::builtins::iteration::iter_result(vm, result, true));
    }
    if raw { Ok(result) } else { Ok(crate::builtins::iteration::iter_result(vm, result, false)) }
}

/// Pushes `saved` as an entry frame of `owner` (a generator or async
/// function). `resumption` is delivered to the `Yield` or `Await` the frame
/// stopped at, whose registers take the value and the mode; without it the
/// frame starts where it was saved.
pub(super) fn push_saved_frame(
    vm: &mut Vm,
    saved: SavedFrame,
    owner: Gc<JsObject>,
    resumption: Option<(Value, Value)>,
) {
    let entry = resume_entry(vm, saved.code);
    vm.stack.registers.reserve(usize::from(entry.register_count) + usize::from(entry.max_call_registers.get()));
    let base = vm.stack.registers.len();
    vm.stack.registers.extend_from_slice(&saved.registers);
    vm.stack.register_buffers.give_back(saved.registers);
    let mut pc = saved.pc;
    if let Some((value, mode)) = resumption {
        match saved.code.borrow(&vm.heap).instructions[pc as usize] {
            Instruction::Yield { value: v, mode: m, .. }
            | Instruction::Await { value: v, mode: m }
            | Instruction::AsyncYield { value: v, mode: m } => {
                vm.stack.registers[base + usize::from(v.0)] = value;
                vm.stack.registers[base + usize::from(m.0)] = mode;
            }
            _ => {}
        }
        pc += 1;
    }
    let frame = Frame {
        code: saved.code,
        pc,
        base,
        env: saved.env,
        callee: saved.callee,
        new_target: saved.new_target,
        extra_args: saved.extra_args,
        argc: saved.argc,
        return_dst: Reg(0),
        entry: true,
        construct: false,
        generator: Some(owner),
        caller_realm: vm.realm_id,
    };
    super::push_frame(vm, frame);
    vm.enter_realm(saved.realm);
}

/// What resuming a suspended frame of an executable needs before it runs:
/// its frame size and the room its calls take. Resumes look it up in the
/// VM's [`js_microtask::CallCache`] by [`ExecutableKey`].
///
/// Four bytes with a niche (`max_call_registers` is never zero: a call
/// needs at least the receiver's register), so an `Option<ResumeEntry>` is
/// four bytes too: the cache copies a hit out with one load, its entry
/// array indexed by the set number without a scaling instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumeEntry {
    /// Registers of the frame.
    pub register_count: u16,
    /// Registers reserved above it for the first call it makes: the
    /// parameters and the receiver.
    pub max_call_registers: NonZeroU16,
}

/// An executable as a call-cache key: its inline-cache table number plus
/// one, which identifies it among the loaded executables.
///
/// Not its address: the VM hands table numbers out in order, so
/// consecutive executables land in different sets, where the addresses of
/// code cells (a constant stride apart in one size class) can resonate with
/// the cache's multiplicative hash and crowd a few sets (16 async functions
/// taking turns missed on every resume when keyed by address). Four bytes,
/// compared with one instruction. A table number is reused only after its
/// code was collected, and the VM prunes the cache of freed tables in the
/// same reconciliation (see `Vm::reconcile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecutableKey(NonZeroU32);

impl ExecutableKey {
    /// The key of the executable whose inline caches are table `table`.
    pub fn of_table(table: u32) -> Self {
        Self(NonZeroU32::MIN.saturating_add(table))
    }

    /// The inline-cache table of the executable.
    pub fn table(self) -> u32 {
        self.0.get() - 1
    }
}

impl js_microtask::CacheKey for ExecutableKey {
    #[inline]
    fn identity(self) -> u64 {
        u64::from(self.0.get())
    }
}

/// The resume entry of `code`, from the call cache when it is there.
fn resume_entry(vm: &mut Vm, code: Gc<Code>) -> ResumeEntry {
    let key = ExecutableKey::of_table(code.borrow(&vm.heap).ic_table);
    if vm.options.resume_cache
        && let Some(entry) = vm.resume_cache.get(key)
    {
        return entry;
    }
    let c = code.borrow(&vm.heap);
    let entry = ResumeEntry {
        register_count: c.register_count,
        max_call_registers: NonZeroU16::MIN.saturating_add(c.param_count),
    };
    if vm.options.resume_cache {
        vm.resume_cache.insert(key, entry);
    }
    entry
}

/// Marks the generator of a frame that finished (returned or threw).
pub(super) fn complete(vm: &mut Vm, g: Gc<JsObject>) {
    if let Some(state) = state_mut(vm, g) {
        state.status = GeneratorStatus::Completed;
        state.frame = None;
    }
}

/// Saves a yielding frame into its generator.
pub(super) fn suspend(vm: &mut Vm, g: Gc<JsObject>, saved: SavedFrame, raw: bool) {
    if let Some(state) = state_mut(vm, g) {
        state.status = GeneratorStatus::SuspendedYield;
        state.frame = Some(saved);
        state.raw_yield = raw;
    }
}
