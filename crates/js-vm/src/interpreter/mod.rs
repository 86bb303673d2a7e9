//! The interpreter: one dispatch loop over the register file. Calls between
//! compiled functions push a frame and stay in the loop; only native code
//! calling back into scripts re-enters it, bounded by the call-depth limit.

pub mod async_function;
pub mod async_generator;
mod frame;
mod generator;
mod inline_cache;
mod operators;
mod private;

use std::rc::Rc;

use js_gc::Gc;

pub use frame::{CallInfo, ForInIterator, Frame, IteratorRecord};
pub(crate) use generator::RegisterBufferPool;
pub use generator::{ExecutableKey, GeneratorState, ResumeEntry, ResumeMode, generator_resume};
pub use inline_cache::{InlineCache, InlineCacheTables};
use operators::NumericOp;
pub(crate) use operators::js_pow;

use crate::abstract_ops::{
    is_callable, is_loosely_equal, is_strictly_equal, string_key, to_boolean, to_numeric, to_object, to_property_key,
    to_string, type_of,
};
use crate::builtins::dispose_capability::DisposeCapability;
use crate::bytecode::{Code, CodeKind, CompareOp, Instruction, Reg};
use crate::environment::DeclarativeEnvironment;
use crate::function::{Closure, Function};
use crate::object::internal_methods::{
    self as im, create_data_property_or_throw, get, get_value, has_property, key_to_display,
};
use crate::object::{
    Attributes, CachedProperty, JsObject, LookupCache, ObjectKind, PropertyDescriptor, PropertyKey, Shape,
};
use crate::realm::{Intrinsics, RealmId};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// Native re-entries into the loop allowed on top of each other.
pub(crate) const MAX_NATIVE_DEPTH: usize = 400;

/// Native stack a re-entry into the loop must leave free. The depth bound
/// above fits the engine's own big-stack thread in an optimised build; an
/// embedder's thread (or an unoptimised build, whose frames are several
/// times larger) may run out first, and this turns that into a RangeError
/// rather than an abort.
const NATIVE_STACK_RED_ZONE: usize = 256 * 1024;

/// Whether one more native re-entry would go past [`MAX_NATIVE_DEPTH`] or
/// into the last [`NATIVE_STACK_RED_ZONE`] bytes of this thread's stack.
pub(crate) fn native_stack_exhausted(vm: &Vm) -> bool {
    vm.native_depth >= MAX_NATIVE_DEPTH || stacker::remaining_stack().is_some_and(|left| left < NATIVE_STACK_RED_ZONE)
}

/// Calls a function object with `this` and `args`.
pub fn call_function(vm: &mut Vm, f: Gc<JsObject>, this: Value, args: &[Value]) -> JsResult<Value> {
    let base = vm.stack.len();
    vm.stack.extend_from_slice(args);
    let result = call_with_stack_args(vm, f, this, base, args.len(), None);
    vm.stack.truncate(base);
    result
}

/// Constructs with `[[Construct]]`.
pub fn construct_function(vm: &mut Vm, f: Gc<JsObject>, args: &[Value], new_target: Gc<JsObject>) -> JsResult<Value> {
    let base = vm.stack.len();
    vm.stack.extend_from_slice(args);
    let result = call_with_stack_args(vm, f, Value::UNDEFINED, base, args.len(), Some(new_target));
    vm.stack.truncate(base);
    result
}

/// `instanceof` (§13.10.2 `InstanceofOperator`).
pub fn instance_of(vm: &mut Vm, v: Value, target: Value) -> JsResult<bool> {
    if !target.is_object() {
        return Err(vm.type_error("Right-hand side of 'instanceof' is not an object"));
    }
    let key = PropertyKey::Symbol(vm.symbols.has_instance);
    let handler = im::get_method(vm, target, key)?;
    if let Some(h) = handler {
        let r = im::call(vm, h, target, &[v])?;
        return Ok(to_boolean(vm, r));
    }
    if !is_callable(vm, target) {
        return Err(vm.type_error("Right-hand side of 'instanceof' is not callable"));
    }
    im::ordinary_has_instance(vm, target, v)
}

/// Calls `f` with arguments already in `vm.stack[args_base..][..argc]`,
/// from native code: compiled callees run a nested loop.
fn call_with_stack_args(
    vm: &mut Vm,
    f: Gc<JsObject>,
    this: Value,
    args_base: usize,
    argc: usize,
    new_target: Option<Gc<JsObject>>,
) -> JsResult<Value> {
    vm.check_interrupt()?;
    if native_stack_exhausted(vm) || vm.frames.len() >= vm.options.max_call_depth {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    vm.native_depth += 1;
    let result = match enter_function(vm, f, this, args_base, argc, new_target, Reg(0), true) {
        Ok(Entered::Native(v)) => Ok(v),
        Ok(Entered::Frame) => run(vm),
        Err(e) => Err(e),
    };
    vm.native_depth -= 1;
    result
}

enum Entered {
    /// A native function ran and returned this value.
    Native(Value),
    /// A frame was pushed; the loop must run it.
    Frame,
}

/// Starts a call: runs native functions at once, pushes a frame for
/// compiled ones.
#[allow(clippy::too_many_arguments, reason = "the call protocol's parts; a struct would only rename them")]
fn enter_function(
    vm: &mut Vm,
    f: Gc<JsObject>,
    this: Value,
    args_base: usize,
    argc: usize,
    new_target: Option<Gc<JsObject>>,
    return_dst: Reg,
    entry: bool,
) -> JsResult<Entered> {
    let Some(function) = f.borrow(&vm.heap).as_function() else {
        let args = vm.stack[args_base..args_base + argc].to_vec();
        return call_proxy(vm, f, this, &args, new_target);
    };
    match function {
        Function::Native(native) => {
            if new_target.is_some() && !native.constructor {
                return Err(vm.type_error("value is not a constructor"));
            }
            let (body, realm) = (native.call, native.realm);
            let info = CallInfo { callee: f, this, new_target, args_base, argc };
            let roots = vm.temp_roots.len();
            // A builtin runs in its own realm: the objects and errors it
            // makes come from that realm's intrinsics.
            let caller_realm = vm.enter_realm(realm);
            let result = body(vm, &info);
            vm.enter_realm(caller_realm);
            vm.temp_roots.truncate(roots);
            result.map(Entered::Native)
        }
        Function::Bound(bound) => {
            let (target, bound_this) = (bound.target, bound.this);
            let mut args = bound.args.to_vec();
            args.extend_from_slice(&vm.stack[args_base..args_base + argc]);
            let new_target = new_target.map(|nt| if nt == f { target } else { nt });
            let result = match new_target {
                Some(nt) => construct_function(vm, target, &args, nt),
                None => call_function(vm, target, bound_this, &args),
            };
            result.map(Entered::Native)
        }
        Function::Closure(closure) => {
            let code = closure.code;
            let (closure_this, closure_env) = (closure.this_value, closure.env);
            let c = code.borrow(&vm.heap);
            let (kind, strict, registers, params, realm) = (c.kind, c.strict, c.register_count, c.param_count, c.realm);
            let this = match (kind, new_target) {
                (CodeKind::ClassConstructor { .. }, None) => return Err(class_constructor_call_error(vm, realm)),
                (CodeKind::Arrow | CodeKind::Method, Some(_)) => {
                    return Err(vm.type_error("value is not a constructor"));
                }
                (CodeKind::Arrow, None) => closure_this,
                (CodeKind::ClassConstructor { derived: true }, Some(_)) => Value::HOLE,
                (_, Some(nt)) => {
                    let proto = prototype_from_constructor(vm, nt, |i| i.object_prototype)?;
                    Value::object(vm.new_object(Some(proto)))
                }
                (_, None) if strict || this.is_object() => this,
                (_, None) => sloppy_this(vm, this, realm)?,
            };
            if vm.frames.len() >= vm.options.max_call_depth {
                return Err(vm.range_error("Maximum call stack size exceeded"));
            }
            let base = vm.stack.len();
            vm.stack.resize(base + usize::from(registers), Value::UNDEFINED);
            vm.stack[base] = this;
            let passed = argc.min(usize::from(params));
            vm.stack.copy_within(args_base..args_base + passed, base + 1);
            let extra_args: Box<[Value]> = if argc > usize::from(params) {
                vm.stack[args_base + usize::from(params)..args_base + argc].into()
            } else {
                Box::default()
            };
            let new_target_value = match (kind, new_target) {
                (CodeKind::Arrow, _) => match f.borrow(&vm.heap).as_function() {
                    Some(Function::Closure(c)) => c.new_target,
                    _ => Value::UNDEFINED,
                },
                (_, Some(nt)) => Value::object(nt),
                (_, None) => Value::UNDEFINED,
            };
            vm.frames.push(Frame {
                code,
                pc: 0,
                base,
                env: closure_env,
                callee: Some(f),
                new_target: new_target_value,
                extra_args,
                argc: argc as u32,
                return_dst,
                entry,
                construct: new_target.is_some(),
                generator: None,
                caller_realm: vm.realm_id,
            });
            vm.enter_realm(realm);
            if new_target.is_some()
                && let Err(e) = initialize_fields(vm, f)
            {
                if let Some(frame) = pop_frame(vm) {
                    vm.stack.truncate(frame.base);
                }
                return Err(e);
            }
            Ok(Entered::Frame)
        }
    }
}

/// The `TypeError` of calling a class constructor without `new`, made in
/// the constructor's realm (§10.2.1 step 2).
#[cold]
fn class_constructor_call_error(vm: &mut Vm, realm: RealmId) -> Exception {
    vm.run_in_realm(realm, |vm| vm.type_error("Class constructor cannot be invoked without 'new'"))
}

/// OrdinaryCallBindThis (§10.2.1.2) for a sloppy callee called with a
/// primitive `this`: `undefined` and `null` become the global object of
/// the callee's realm, other primitives that realm's wrapper objects.
fn sloppy_this(vm: &mut Vm, this: Value, realm: RealmId) -> JsResult<Value> {
    if this.is_nullish() {
        return Ok(Value::object(vm.realm_record(realm).map_or(vm.realm.global, |r| r.global)));
    }
    Ok(Value::object(vm.run_in_realm(realm, |vm| to_object(vm, this))?))
}

/// `[[Call]]` or `[[Construct]]` of a proxy, which behaves as a native
/// function would (`TypeError` for other objects without `[[Call]]`).
fn call_proxy(
    vm: &mut Vm,
    f: Gc<JsObject>,
    this: Value,
    args: &[Value],
    new_target: Option<Gc<JsObject>>,
) -> JsResult<Entered> {
    if !f.borrow(&vm.heap).is_proxy() {
        return Err(vm.type_error("value is not a function"));
    }
    let result = match new_target {
        Some(nt) => crate::object::proxy::proxy_construct(vm, f, args, nt),
        None => crate::object::proxy::proxy_call(vm, f, this, args),
    };
    result.map(Entered::Native)
}

/// Runs class field initialisers on a freshly made `this` of a base class.
fn initialize_fields(vm: &mut Vm, f: Gc<JsObject>) -> JsResult<()> {
    let fields = match f.borrow(&vm.heap).as_function() {
        Some(Function::Closure(Closure { fields: Some(init), code, .. })) => {
            if matches!(code.borrow(&vm.heap).kind, CodeKind::ClassConstructor { derived: true }) {
                return Ok(());
            }
            *init
        }
        _ => return Ok(()),
    };
    let Some(frame) = vm.frames.last() else { return Ok(()) };
    let this = vm.stack[frame.base];
    call_function(vm, fields, this, &[])?;
    Ok(())
}

/// `GetPrototypeFromConstructor` (§10.1.14): `ctor.prototype` when it is
/// an object, otherwise the intrinsic `default` picks out of the
/// constructor's realm (`GetFunctionRealm`), which may not be the current
/// one.
pub fn prototype_from_constructor(
    vm: &mut Vm,
    ctor: Gc<JsObject>,
    default: impl FnOnce(&Intrinsics) -> Gc<JsObject>,
) -> JsResult<Gc<JsObject>> {
    let key = PropertyKey::String(vm.names.prototype);
    let proto = get(vm, ctor, key, Value::object(ctor))?;
    if let Some(proto) = proto.as_object() {
        return Ok(proto);
    }
    let realm = crate::function::get_function_realm(vm, ctor)?;
    let intrinsics = &vm.realm_record(realm).unwrap_or(&vm.realm).intrinsics;
    Ok(default(intrinsics))
}

/// Runs a compiled script's top level.
pub fn run_script(vm: &mut Vm, code: Gc<Code>) -> JsResult<Value> {
    crate::vm::register_code(vm, code);
    let registers = usize::from(code.borrow(&vm.heap).register_count);
    let base = vm.stack.len();
    vm.stack.resize(base + registers, Value::UNDEFINED);
    vm.stack[base] = Value::object(vm.realm.global);
    vm.frames.push(Frame {
        code,
        pc: 0,
        base,
        env: None,
        callee: None,
        new_target: Value::UNDEFINED,
        extra_args: Box::default(),
        argc: 0,
        return_dst: Reg(0),
        entry: true,
        construct: false,
        generator: None,
        caller_realm: vm.realm_id,
    });
    vm.native_depth += 1;
    let result = run(vm);
    vm.native_depth -= 1;
    result
}

/// Runs direct eval code in its caller's environment with its `this`.
pub fn run_eval(vm: &mut Vm, code: Gc<Code>, env: Option<Gc<DeclarativeEnvironment>>, this: Value) -> JsResult<Value> {
    crate::vm::register_code(vm, code);
    let registers = usize::from(code.borrow(&vm.heap).register_count);
    let base = vm.stack.len();
    vm.stack.resize(base + registers, Value::UNDEFINED);
    vm.stack[base] = this;
    vm.frames.push(Frame {
        code,
        pc: 0,
        base,
        env,
        callee: None,
        new_target: Value::UNDEFINED,
        extra_args: Box::default(),
        argc: 0,
        return_dst: Reg(0),
        entry: true,
        construct: false,
        generator: None,
        caller_realm: vm.realm_id,
    });
    vm.native_depth += 1;
    let result = run(vm);
    vm.native_depth -= 1;
    result
}

impl Vm {
    /// Runs a compiled script.
    pub(crate) fn run_script(&mut self, code: Gc<Code>) -> JsResult<Value> {
        run_script(self, code)
    }
}

/// Runs frames until the entry frame returns; exceptions unwind to
/// handlers, or out of the entry frame.
pub(crate) fn run(vm: &mut Vm) -> JsResult<Value> {
    loop {
        match execute(vm) {
            Ok(v) => return Ok(v),
            Err(exception) => {
                if let Some(v) = unwind(vm, exception)? {
                    return Ok(v);
                }
            }
        }
    }
}

/// `GetSuperBase`: the running method's home object's [[GetPrototypeOf]]
/// (`None` for a null prototype, and for code without a home object).
fn super_base(vm: &mut Vm) -> JsResult<Option<Gc<JsObject>>> {
    let home = vm.frames.last().and_then(|f| f.callee).and_then(|c| match c.borrow(&vm.heap).as_function() {
        Some(Function::Closure(cl)) => cl.home_object,
        _ => None,
    });
    match home {
        Some(home) => im::get_prototype_of(vm, home),
        None => Ok(None),
    }
}

/// Finds a handler for `exception`, popping frames without one. Returns
/// `Ok(None)` to resume the loop, `Err` when it left the entry frame.
fn unwind(vm: &mut Vm, exception: Exception) -> JsResult<Option<Value>> {
    let Exception::Throw(value) = exception else {
        // Termination is not catchable: drop frames up to the entry frame.
        while let Some(frame) = pop_frame(vm) {
            vm.stack.truncate(frame.base);
            if frame.entry {
                break;
            }
        }
        return Err(exception);
    };
    if vm.throw_site.as_ref().is_none_or(|(thrown, _)| *thrown != value)
        && let Some(site) = vm.current_site()
    {
        vm.throw_site = Some((value, site));
    }
    loop {
        let Some(frame) = vm.frames.last() else { return Err(exception) };
        let code = frame.code.borrow(&vm.heap);
        let pc = frame.pc;
        if let Some(h) = code.handlers.iter().find(|h| h.start <= pc && pc < h.end) {
            let (target, reg, base) = (h.target, h.exception, frame.base);
            vm.stack[base + usize::from(reg.0)] = value;
            if let Some(frame) = vm.frames.last_mut() {
                frame.pc = target;
            }
            return Ok(None);
        }
        let Some(frame) = pop_frame(vm) else { return Err(exception) };
        if let Some(g) = frame.generator {
            // A throw leaving an async function rejects its promise, which
            // the caller gets as the call's result.
            let settled = async_function::settle(vm, g, Err(value));
            vm.stack.truncate(frame.base);
            if let Some(promise) = settled? {
                return Ok(deliver_result(vm, &frame, promise));
            }
            generator::complete(vm, g);
        }
        vm.stack.truncate(frame.base);
        if frame.entry {
            return Err(exception);
        }
    }
}

/// Pops the returning frame and delivers `result` to its caller. Returns
/// `Some` when the frame was an entry frame.
fn return_from_frame(vm: &mut Vm, value: Value) -> JsResult<Option<Value>> {
    let Some(frame) = pop_frame(vm) else { return Ok(Some(value)) };
    let mut result = value;
    if let Some(g) = frame.generator {
        let settled = async_function::settle(vm, g, Ok(value));
        if settled.is_err() {
            vm.stack.truncate(frame.base);
        }
        match settled? {
            Some(promise) => result = promise,
            None => generator::complete(vm, g),
        }
    }
    if frame.construct && !value.is_object() {
        let derived = matches!(frame.code.borrow(&vm.heap).kind, CodeKind::ClassConstructor { derived: true });
        if derived && !value.is_undefined() {
            vm.stack.truncate(frame.base);
            return Err(vm.type_error("Derived constructors may only return object or undefined"));
        }
        result = vm.stack[frame.base];
        if result.is_hole() {
            vm.stack.truncate(frame.base);
            return Err(vm.reference_error(
                "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
            ));
        }
    }
    vm.stack.truncate(frame.base);
    Ok(deliver_result(vm, &frame, result))
}

/// Pops the top frame and returns to the realm its caller runs in.
#[inline]
pub(crate) fn pop_frame(vm: &mut Vm) -> Option<Frame> {
    let frame = vm.frames.pop()?;
    vm.enter_realm(frame.caller_realm);
    Some(frame)
}

/// Hands `result` to the caller of the popped `frame`; `Some` when the frame
/// was an entry frame (its native caller takes the result).
fn deliver_result(vm: &mut Vm, frame: &Frame, result: Value) -> Option<Value> {
    if frame.entry {
        return Some(result);
    }
    if let Some(caller) = vm.frames.last_mut() {
        let dst = caller.base + usize::from(frame.return_dst.0);
        caller.pc += 1;
        vm.stack[dst] = result;
    }
    None
}

/// Where a register lives in the register file.
macro_rules! reg {
    ($base:expr, $r:expr) => {
        $base + usize::from($r.0)
    };
}

/// The dispatch loop over the top frame. Returns when the entry frame
/// returns; a thrown exception leaves with `Err` and `frame.pc` at the
/// faulting instruction.
#[allow(clippy::too_many_lines, reason = "one arm per instruction is the point of a dispatch loop")]
fn execute(vm: &mut Vm) -> JsResult<Value> {
    'frames: loop {
        let Some(frame) = vm.frames.last() else { return Ok(Value::UNDEFINED) };
        let code = frame.code;
        let base = frame.base;
        let mut pc = frame.pc as usize;
        let ic_table = code.borrow(&vm.heap).ic_table;
        let instructions = Rc::clone(&code.borrow(&vm.heap).instructions);
        let strict_code = code.borrow(&vm.heap).strict;
        loop {
            let instruction = instructions[pc];
            if let Some(frame) = vm.frames.last_mut() {
                frame.pc = pc as u32;
            }
            macro_rules! r {
                ($r:expr) => {
                    vm.stack[reg!(base, $r)]
                };
            }
            macro_rules! constant {
                ($i:expr) => {
                    code.borrow(&vm.heap).constants[$i as usize]
                };
            }
            // Named-access constants are identifier atoms, never indices.
            macro_rules! atom_key {
                ($i:expr) => {
                    match constant!($i).as_string() {
                        Some(s) => PropertyKey::String(s),
                        None => PropertyKey::Index(0),
                    }
                };
            }
            match instruction {
                Instruction::LoadUndefined { dst } => r!(dst) = Value::UNDEFINED,
                Instruction::LoadNull { dst } => r!(dst) = Value::NULL,
                Instruction::LoadBool { dst, value } => r!(dst) = Value::boolean(value),
                Instruction::LoadHole { dst } => r!(dst) = Value::HOLE,
                Instruction::LoadInt { dst, value } => r!(dst) = Value::number(f64::from(value)),
                Instruction::LoadConst { dst, index } => r!(dst) = constant!(index),
                Instruction::Move { dst, src } => r!(dst) = r!(src),

                Instruction::PushEnv { slots } => {
                    let outer = vm.frames.last().and_then(|f| f.env);
                    let env = vm.heap.alloc(DeclarativeEnvironment { outer, slots: vec![Value::HOLE; slots as usize] });
                    if let Some(f) = vm.frames.last_mut() {
                        f.env = Some(env);
                    }
                }
                Instruction::PopEnv => {
                    let outer = vm.frames.last().and_then(|f| f.env).and_then(|e| e.borrow(&vm.heap).outer);
                    if let Some(f) = vm.frames.last_mut() {
                        f.env = outer;
                    }
                }
                Instruction::CopyEnv => {
                    if let Some(env) = vm.frames.last().and_then(|f| f.env) {
                        let e = env.borrow(&vm.heap);
                        let copy = DeclarativeEnvironment { outer: e.outer, slots: e.slots.clone() };
                        let copy = vm.heap.alloc(copy);
                        if let Some(f) = vm.frames.last_mut() {
                            f.env = Some(copy);
                        }
                    }
                }
                Instruction::SaveEnv { dst } => {
                    let env = vm.frames.last().and_then(|f| f.env);
                    r!(dst) = env.map_or(Value::UNDEFINED, |e| Value::internal(e.into()));
                }
                Instruction::RestoreEnv { src } => {
                    let env = r!(src).as_internal::<DeclarativeEnvironment>();
                    if let Some(f) = vm.frames.last_mut() {
                        f.env = env;
                    }
                }
                Instruction::GetEnv { dst, depth, slot } => {
                    let env = env_at(vm, depth);
                    r!(dst) = env.map_or(Value::UNDEFINED, |e| e.borrow(&vm.heap).slots[slot as usize]);
                }
                Instruction::GetEnvChecked { dst, depth, slot, name } => {
                    let env = env_at(vm, depth);
                    let v = env.map_or(Value::UNDEFINED, |e| e.borrow(&vm.heap).slots[slot as usize]);
                    if v.is_hole() {
                        return Err(tdz_error(vm, constant!(name)));
                    }
                    r!(dst) = v;
                }
                Instruction::GetImport { dst, depth, slot, name } => {
                    let env = env_at(vm, depth);
                    let v = env.map_or(Value::HOLE, |e| e.borrow(&vm.heap).slots[slot as usize]);
                    let v = match v.as_internal::<crate::environment::ImportBinding>() {
                        Some(binding) => {
                            let (target, target_slot) = {
                                let b = binding.borrow(&vm.heap);
                                (b.env, b.slot)
                            };
                            target.borrow(&vm.heap).slots[target_slot as usize]
                        }
                        None => v,
                    };
                    if v.is_hole() {
                        return Err(tdz_error(vm, constant!(name)));
                    }
                    r!(dst) = v;
                }
                Instruction::ImportMeta { dst } => {
                    r!(dst) = crate::module::import_meta::import_meta(vm, code)?;
                }
                Instruction::ImportCall { dst, specifier, options } => {
                    let options = if options.0 == u16::MAX { Value::UNDEFINED } else { r!(options) };
                    let specifier = r!(specifier);
                    r!(dst) = crate::module::dynamic::import_call(vm, specifier, options)?;
                }
                Instruction::SetEnv { src, depth, slot } => {
                    let v = r!(src);
                    if let Some(env) = env_at(vm, depth) {
                        env.borrow_mut(&mut vm.heap).slots[slot as usize] = v;
                    }
                }
                Instruction::SetEnvChecked { src, depth, slot, name } => {
                    let v = r!(src);
                    if let Some(env) = env_at(vm, depth) {
                        if env.borrow(&vm.heap).slots[slot as usize].is_hole() {
                            return Err(tdz_error(vm, constant!(name)));
                        }
                        env.borrow_mut(&mut vm.heap).slots[slot as usize] = v;
                    }
                }
                Instruction::CheckTdz { src, name } => {
                    if r!(src).is_hole() {
                        return Err(tdz_error(vm, constant!(name)));
                    }
                }

                Instruction::GetGlobal { dst, name, ic } => {
                    let name = constant!(name);
                    if let Some(v) = cached_global(vm, ic_table, ic, name) {
                        r!(dst) = v;
                        pc += 1;
                        continue;
                    }
                    r!(dst) = get_global(vm, name, false)?;
                    cache_global(vm, ic_table, ic, name);
                }
                Instruction::TypeofGlobal { dst, name } => {
                    let name = constant!(name);
                    let v = get_global(vm, name, true)?;
                    let t = type_of(vm, v);
                    r!(dst) = Value::string(vm.atoms.intern_str(&mut vm.heap, t));
                }
                Instruction::HasGlobalBinding { dst, name } => {
                    let name = constant!(name);
                    r!(dst) = Value::boolean(has_global_binding(vm, name)?);
                }
                Instruction::SetGlobal { src, name, strict, ic } => {
                    let (v, name) = (r!(src), constant!(name));
                    if !store_cached_global(vm, ic_table, ic, name, v) {
                        set_global(vm, name, v, strict)?;
                        cache_global(vm, ic_table, ic, name);
                    }
                }
                Instruction::InitGlobalLexical { src, name } => {
                    let (v, name) = (r!(src), constant!(name));
                    if let Some(atom) = name.as_string()
                        && let Some(binding) = vm.realm.global_lexicals.get_mut(&atom)
                    {
                        binding.value = v;
                    }
                }
                Instruction::InitGlobalFunction { src, name, configurable } => {
                    let (v, name) = (r!(src), constant!(name));
                    if let Some(atom) = name.as_string() {
                        let key = string_key(vm, atom);
                        crate::builtins::global::create_global_function_binding(vm, key, v, configurable)?;
                    }
                }
                Instruction::DeleteGlobal { dst, name } => {
                    let name = constant!(name);
                    let result = match name.as_string() {
                        Some(atom) if vm.realm.global_lexicals.contains_key(&atom) => false,
                        Some(atom) => {
                            let key = string_key(vm, atom);
                            im::delete(vm, vm.realm.global, key)?
                        }
                        None => true,
                    };
                    r!(dst) = Value::boolean(result);
                }

                Instruction::GetNamed { dst, obj, name, ic } => {
                    let base_value = r!(obj);
                    if let Some(o) = base_value.as_object() {
                        let object = o.borrow(&vm.heap);
                        if let Some(shape) = object.shape() {
                            let cache = vm.inline_caches.get(ic_table, ic);
                            if cache.shape == Some(shape) {
                                match cache.prototype {
                                    None => {
                                        r!(dst) = object.slot(cache.slot);
                                        pc += 1;
                                        continue;
                                    }
                                    // Inherited: the receiver's kind reads
                                    // named keys ordinarily (the shape is
                                    // shared with exotic objects), its
                                    // prototype is the one seen, unchanged.
                                    Some(proto)
                                        if object.proto == Some(proto)
                                            && LookupCache::named_lookup_is_ordinary(&object.kind) =>
                                    {
                                        let p = proto.borrow(&vm.heap);
                                        if p.shape() == cache.transition {
                                            r!(dst) = p.slot(cache.slot);
                                            pc += 1;
                                            continue;
                                        }
                                    }
                                    Some(_) => {}
                                }
                            }
                            let key = atom_key!(name);
                            if matches!(
                                object.kind,
                                ObjectKind::Ordinary | ObjectKind::Function(_) | ObjectKind::Error { .. }
                            ) && let Some(info) = shape.borrow(&vm.heap).lookup(key)
                                && !info.attrs.is_accessor()
                            {
                                let v = o.borrow(&vm.heap).slot(info.slot);
                                vm.inline_caches.set(ic_table, ic, InlineCache::property(shape, info.slot));
                                r!(dst) = v;
                                pc += 1;
                                continue;
                            }
                        }
                    }
                    let key = atom_key!(name);
                    // Inherited properties (methods, mostly) and absent keys:
                    // the lookup cache answers, and a data property one
                    // level up goes into this instruction's cache.
                    if let Some(o) = base_value.as_object()
                        && LookupCache::is_cacheable_key(key, PropertyKey::String(vm.names.length))
                        && let Some(found) = vm.lookup_cache.lookup(&vm.heap, o, key)
                    {
                        if matches!(found, CachedProperty::Data(_)) {
                            cache_inherited(vm, ic_table, ic, o, key);
                        }
                        r!(dst) = im::cached_property_value(vm, found, base_value)?;
                        pc += 1;
                        continue;
                    }
                    r!(dst) = get_value(vm, base_value, key)?;
                }
                Instruction::SetNamed { obj, name, src, ic, strict } => {
                    let (target, v) = (r!(obj), r!(src));
                    let mut before = None;
                    if let Some(o) = target.as_object() {
                        let object = o.borrow(&vm.heap);
                        if let Some(shape) = object.shape() {
                            let cache = vm.inline_caches.get(ic_table, ic);
                            if cache.shape == Some(shape) {
                                if cache.transition.is_none() {
                                    o.borrow_mut(&mut vm.heap).set_slot(cache.slot, v);
                                    pc += 1;
                                    continue;
                                }
                                if add_by_transition(vm, o, cache, atom_key!(name), v, true) {
                                    pc += 1;
                                    continue;
                                }
                            }
                            let key = atom_key!(name);
                            let object = o.borrow(&vm.heap);
                            if matches!(
                                object.kind,
                                ObjectKind::Ordinary | ObjectKind::Function(_) | ObjectKind::Error { .. }
                            ) && let Some(info) = shape.borrow(&vm.heap).lookup(key)
                                && info.attrs.writable()
                                && !info.attrs.is_accessor()
                            {
                                o.borrow_mut(&mut vm.heap).set_slot(info.slot, v);
                                vm.inline_caches.set(ic_table, ic, InlineCache::property(shape, info.slot));
                                pc += 1;
                                continue;
                            }
                            before = Some((o, shape));
                        }
                    }
                    let key = atom_key!(name);
                    put_value(vm, target, key, v, strict)?;
                    if let Some((o, from)) = before {
                        record_transition(vm, ic_table, ic, o, from, key);
                    }
                }
                Instruction::DefineNamed { obj, name, src, ic } => {
                    let (target, v) = (r!(obj), r!(src));
                    let Some(o) = target.as_object() else {
                        pc += 1;
                        continue;
                    };
                    let key = atom_key!(name);
                    let from = o.borrow(&vm.heap).shape();
                    let cache = vm.inline_caches.get(ic_table, ic);
                    if from.is_some()
                        && cache.shape == from
                        && cache.transition.is_some()
                        && add_by_transition(vm, o, cache, key, v, false)
                    {
                        pc += 1;
                        continue;
                    }
                    create_data_property_or_throw(vm, o, key, v)?;
                    if let Some(from) = from {
                        record_transition(vm, ic_table, ic, o, from, key);
                    }
                }
                Instruction::GetIndexed { dst, obj, key } => {
                    let (base_value, key_value) = (r!(obj), r!(key));
                    if let (Some(o), Some(n)) = (base_value.as_object(), key_value.as_number())
                        && let Some(v) = fast_element(vm, o, n)
                    {
                        r!(dst) = v;
                        pc += 1;
                        continue;
                    }
                    if base_value.is_nullish() {
                        return Err(nullish_base_error(vm, base_value, key_value, "read properties", "reading"));
                    }
                    let k = to_property_key(vm, key_value)?;
                    r!(dst) = get_value(vm, base_value, k)?;
                }
                Instruction::GetIndexedConvertKey { dst, obj, key } => {
                    let (base_value, key_value) = (r!(obj), r!(key));
                    if base_value.is_nullish() {
                        return Err(nullish_base_error(vm, base_value, key_value, "read properties", "reading"));
                    }
                    let k = to_property_key(vm, key_value)?;
                    r!(key) = crate::builtins::object::key_to_value(vm, k);
                    r!(dst) = get_value(vm, base_value, k)?;
                }
                Instruction::SetIndexed { obj, key, src, strict } => {
                    let (target, key_value, v) = (r!(obj), r!(key), r!(src));
                    if let (Some(o), Some(n)) = (target.as_object(), key_value.as_number())
                        && set_fast_element(vm, o, n, v)
                    {
                        pc += 1;
                        continue;
                    }
                    if target.is_nullish() {
                        return Err(nullish_base_error(vm, target, key_value, "set properties", "setting"));
                    }
                    let k = to_property_key(vm, key_value)?;
                    put_value(vm, target, k, v, strict)?;
                }
                Instruction::LoadSuperBase { dst } => {
                    r!(dst) = super_base(vm)?.map_or(Value::NULL, Value::object);
                }
                Instruction::GetSuper { dst, proto, key } => {
                    let k = to_property_key(vm, r!(key))?;
                    let this = vm.stack[base];
                    r!(dst) = match r!(proto).as_object() {
                        Some(p) => get(vm, p, k, this)?,
                        None => return Err(vm.type_error("Cannot read properties of null (super)")),
                    };
                }
                Instruction::SetSuper { proto, key, src, strict } => {
                    let k = to_property_key(vm, r!(key))?;
                    let (this, value) = (vm.stack[base], r!(src));
                    let Some(p) = r!(proto).as_object() else {
                        return Err(vm.type_error("Cannot set properties of null (super)"));
                    };
                    if !im::set(vm, p, k, value, this)? && strict {
                        let text = key_to_display(vm, k);
                        return Err(vm.type_error(&format!("Cannot assign to read only property '{text}'")));
                    }
                }
                Instruction::Delete { dst, obj, key, strict } => {
                    let (target, key_value) = (r!(obj), r!(key));
                    let o = to_object(vm, target)?;
                    let k = to_property_key(vm, key_value)?;
                    let ok = im::delete(vm, o, k)?;
                    if !ok && strict {
                        let text = key_to_display(vm, k);
                        return Err(vm.type_error(&format!("Cannot delete property '{text}'")));
                    }
                    r!(dst) = Value::boolean(ok);
                }
                Instruction::DefineField { obj, key, src } => {
                    let (target, key_value, v) = (r!(obj), r!(key), r!(src));
                    if let Some(o) = target.as_object() {
                        let k = to_property_key(vm, key_value)?;
                        create_data_property_or_throw(vm, o, k, v)?;
                    }
                }
                Instruction::DefineMethod { obj, key, func, enumerable } => {
                    let (target, key_value, f) = (r!(obj), r!(key), r!(func));
                    if let Some(o) = target.as_object() {
                        let k = to_property_key(vm, key_value)?;
                        let attrs = Attributes::METHOD.with(Attributes::ENUMERABLE, enumerable);
                        crate::builtins::object::define_property_or_throw(
                            vm,
                            o,
                            k,
                            PropertyDescriptor::data(f, attrs),
                        )?;
                    }
                }
                Instruction::DefineAccessor { obj, key, func, setter, enumerable } => {
                    let (target, key_value, f) = (r!(obj), r!(key), r!(func));
                    if let Some(o) = target.as_object() {
                        let k = to_property_key(vm, key_value)?;
                        let mut desc = PropertyDescriptor {
                            enumerable: Some(enumerable),
                            configurable: Some(true),
                            ..PropertyDescriptor::default()
                        };
                        if setter {
                            desc.set = Some(f);
                        } else {
                            desc.get = Some(f);
                        }
                        crate::builtins::object::define_property_or_throw(vm, o, k, desc)?;
                    }
                }
                Instruction::CopyDataProperties { dst, src } => {
                    let (target, source) = (r!(dst), r!(src));
                    if let Some(t) = target.as_object() {
                        crate::builtins::object::copy_data_properties(vm, t, source, &[])?;
                    }
                }
                Instruction::SetFunctionName { func, key, prefix } => {
                    let (f, key_value) = (r!(func), r!(key));
                    if let Some(fobj) = f.as_object() {
                        let k = to_property_key(vm, key_value)?;
                        let prefix = match prefix {
                            1 => Some("get"),
                            2 => Some("set"),
                            _ => None,
                        };
                        crate::builtins::function::set_function_name(vm, fobj, k, prefix);
                    }
                }
                Instruction::SetProtoLiteral { obj, proto } => {
                    let (target, p) = (r!(obj), r!(proto));
                    if let Some(o) = target.as_object() {
                        // A fresh literal object: no trap runs.
                        if p.is_null() {
                            im::set_prototype_of(vm, o, None)?;
                        } else if let Some(p) = p.as_object() {
                            im::set_prototype_of(vm, o, Some(p))?;
                        }
                    }
                }
                Instruction::ObjectRest { dst, src, excluded, count } => {
                    let source = r!(src);
                    if source.is_nullish() {
                        return Err(vm.type_error("Cannot destructure 'undefined' or 'null'"));
                    }
                    let mut keys = Vec::with_capacity(usize::from(count));
                    for i in 0..usize::from(count) {
                        let k = vm.stack[reg!(base, excluded) + i];
                        keys.push(to_property_key(vm, k)?);
                    }
                    let target = vm.new_plain_object();
                    r!(dst) = Value::object(target);
                    crate::builtins::object::copy_data_properties(vm, target, source, &keys)?;
                }
                Instruction::NewRegExp { dst, pattern, flags } => {
                    let (p, f) = (constant!(pattern).as_string(), constant!(flags).as_string());
                    if let (Some(p), Some(f)) = (p, f) {
                        r!(dst) = crate::builtins::regexp::regexp_create(vm, p, f, None)?;
                    }
                }
                Instruction::NewObject { dst } => r!(dst) = Value::object(vm.new_plain_object()),
                Instruction::NewArray { dst } => r!(dst) = Value::object(crate::builtins::array::array_create(vm, &[])),
                Instruction::ArrayPush { array, src } => {
                    let (a, v) = (r!(array), r!(src));
                    if let Some(a) = a.as_object() {
                        crate::builtins::array::push_element(vm, a, v);
                    }
                }
                Instruction::ArrayPushHole { array } => {
                    if let Some(a) = r!(array).as_object()
                        && let ObjectKind::Array { length, .. } = &mut a.borrow_mut(&mut vm.heap).kind
                    {
                        *length += 1;
                    }
                }
                Instruction::ArraySpread { array, src } => {
                    let (a, iterable) = (r!(array), r!(src));
                    if let Some(a) = a.as_object() {
                        let values = crate::builtins::iteration::iterate_to_vec(vm, iterable)?;
                        for v in values {
                            crate::builtins::array::push_element(vm, a, v);
                        }
                    }
                }

                Instruction::Closure { dst, index } => {
                    let child = code.borrow(&vm.heap).functions[index as usize];
                    let env = vm.frames.last().and_then(|f| f.env);
                    let (this, new_target) = match vm.frames.last() {
                        Some(f) => (vm.stack[f.base], f.new_target),
                        None => (Value::UNDEFINED, Value::UNDEFINED),
                    };
                    let is_arrow = child.borrow(&vm.heap).kind == CodeKind::Arrow;
                    // Arrows inherit this/new.target; inside an arrow, the
                    // frame's own values are already the inherited ones.
                    let (this, new_target) =
                        if is_arrow { (this, new_target) } else { (Value::UNDEFINED, Value::UNDEFINED) };
                    let f = crate::builtins::function::make_closure(vm, child, env, this, new_target);
                    if is_arrow {
                        // `super` in an arrow is its enclosing method's
                        // (§10.2.1.1: arrows have a lexical [[HomeObject]]).
                        let home = vm.frames.last().and_then(|f| f.callee).and_then(|c| {
                            match c.borrow(&vm.heap).as_function() {
                                Some(Function::Closure(cl)) => cl.home_object,
                                _ => None,
                            }
                        });
                        if let Some(home) = home
                            && let ObjectKind::Function(Function::Closure(cl)) = &mut f.borrow_mut(&mut vm.heap).kind
                        {
                            cl.home_object = Some(home);
                        }
                    }
                    r!(dst) = Value::object(f);
                }
                Instruction::Call { dst, callee, this, args, argc } => {
                    let (f, this_value) = (r!(callee), r!(this));
                    let Some(fobj) = f.as_object().filter(|o| o.borrow(&vm.heap).is_callable()) else {
                        return Err(not_callable(vm, code, pc));
                    };
                    vm.check_interrupt()?;
                    vm.safepoint()?;
                    match enter_function(vm, fobj, this_value, reg!(base, args), usize::from(argc), None, dst, false)? {
                        Entered::Native(v) => r!(dst) = v,
                        Entered::Frame => continue 'frames,
                    }
                }
                Instruction::CallSpread { dst, callee, this, args } => {
                    let (f, this_value, arr) = (r!(callee), r!(this), r!(args));
                    let Some(fobj) = f.as_object().filter(|o| o.borrow(&vm.heap).is_callable()) else {
                        return Err(not_callable(vm, code, pc));
                    };
                    let list = crate::builtins::array::dense_values(vm, arr);
                    r!(dst) = call_function(vm, fobj, this_value, &list)?;
                }
                Instruction::New { dst, callee, args, argc } => {
                    let f = r!(callee);
                    let Some(fobj) = f.as_object().filter(|o| is_constructor(vm, *o)) else {
                        return Err(not_constructor(vm, code, pc));
                    };
                    vm.check_interrupt()?;
                    vm.safepoint()?;
                    match enter_function(
                        vm,
                        fobj,
                        Value::UNDEFINED,
                        reg!(base, args),
                        usize::from(argc),
                        Some(fobj),
                        dst,
                        false,
                    )? {
                        Entered::Native(v) => r!(dst) = v,
                        Entered::Frame => continue 'frames,
                    }
                }
                Instruction::NewSpread { dst, callee, args } => {
                    let (f, arr) = (r!(callee), r!(args));
                    let Some(fobj) = f.as_object().filter(|o| is_constructor(vm, *o)) else {
                        return Err(not_constructor(vm, code, pc));
                    };
                    let list = crate::builtins::array::dense_values(vm, arr);
                    r!(dst) = construct_function(vm, fobj, &list, fobj)?;
                }
                Instruction::CallEval { dst, callee, args, argc, scope } => {
                    let f = r!(callee);
                    let Some(fobj) = f.as_object().filter(|o| o.borrow(&vm.heap).is_callable()) else {
                        return Err(not_callable(vm, code, pc));
                    };
                    let list: Vec<Value> = (0..usize::from(argc)).map(|i| vm.stack[reg!(base, args) + i]).collect();
                    r!(dst) = if fobj == vm.realm.intrinsics.eval {
                        let x = list.first().copied().unwrap_or_default();
                        let direct = crate::builtins::global::DirectEval {
                            scope: std::rc::Rc::clone(&code.borrow(&vm.heap).eval_scopes[scope as usize]),
                            env: vm.frames.last().and_then(|f| f.env),
                            this: vm.stack[base],
                        };
                        crate::builtins::global::perform_eval(vm, x, Some(direct))?
                    } else {
                        call_function(vm, fobj, Value::UNDEFINED, &list)?
                    };
                }
                Instruction::Return { src } => {
                    let v = r!(src);
                    match return_from_frame(vm, v)? {
                        Some(result) => return Ok(result),
                        None => continue 'frames,
                    }
                }
                Instruction::Throw { src } => return Err(Exception::Throw(r!(src))),
                Instruction::ThrowConstAssign { name } => {
                    let n = constant!(name);
                    let text = n.as_string().map(|s| s.borrow(&vm.heap).flat().to_rust_string()).unwrap_or_default();
                    let _ = text;
                    return Err(vm.type_error("Assignment to constant variable."));
                }
                Instruction::ThrowReferenceError { message } => {
                    let m = constant!(message);
                    let text = m.as_string().map(|s| s.borrow(&vm.heap).flat().to_rust_string()).unwrap_or_default();
                    return Err(vm.reference_error(&text));
                }

                Instruction::Add { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = match (a.as_number(), b.as_number()) {
                        (Some(x), Some(y)) => Value::number(x + y),
                        _ => operators::add(vm, a, b)?,
                    };
                }
                Instruction::Sub { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = match (a.as_number(), b.as_number()) {
                        (Some(x), Some(y)) => Value::number(x - y),
                        _ => operators::numeric(vm, a, b, NumericOp::Sub)?,
                    };
                }
                Instruction::Mul { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::Mul)?;
                }
                Instruction::Div { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::Div)?;
                }
                Instruction::Rem { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::Rem)?;
                }
                Instruction::Exp { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::Exp)?;
                }
                Instruction::BitAnd { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::BitAnd)?;
                }
                Instruction::BitOr { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::BitOr)?;
                }
                Instruction::BitXor { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::BitXor)?;
                }
                Instruction::Shl { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::Shl)?;
                }
                Instruction::Sar { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::Sar)?;
                }
                Instruction::Shr { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = operators::numeric(vm, a, b, NumericOp::Shr)?;
                }
                Instruction::Eq { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(is_loosely_equal(vm, a, b)?);
                }
                Instruction::Ne { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(!is_loosely_equal(vm, a, b)?);
                }
                Instruction::StrictEq { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(is_strictly_equal(vm, a, b));
                }
                Instruction::StrictNe { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(!is_strictly_equal(vm, a, b));
                }
                Instruction::Lt { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(operators::less_than(vm, a, b)?);
                }
                Instruction::Le { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(operators::less_or_equal(vm, a, b)?);
                }
                Instruction::Gt { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(operators::greater_than(vm, a, b)?);
                }
                Instruction::Ge { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(operators::greater_or_equal(vm, a, b)?);
                }
                Instruction::InstanceOf { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    r!(dst) = Value::boolean(instance_of(vm, a, b)?);
                }
                Instruction::In { dst, lhs, rhs } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    let Some(o) = b.as_object() else {
                        return Err(vm.type_error("Cannot use 'in' operator to search for a key in a non-object"));
                    };
                    let k = to_property_key(vm, a)?;
                    r!(dst) = Value::boolean(has_property(vm, o, k)?);
                }
                Instruction::Neg { dst, src } => {
                    let v = r!(src);
                    r!(dst) = match v.as_number() {
                        Some(n) => Value::number(-n),
                        None => operators::negate(vm, v)?,
                    };
                }
                Instruction::ToNumber { dst, src } => {
                    let v = r!(src);
                    r!(dst) = if v.as_number().is_some() { v } else { operators::unary_plus(vm, v)? };
                }
                Instruction::ToNumeric { dst, src } => {
                    let v = r!(src);
                    r!(dst) = if v.as_number().is_some() { v } else { to_numeric(vm, v)?.into_value() };
                }
                Instruction::Not { dst, src } => {
                    let v = r!(src);
                    r!(dst) = Value::boolean(!to_boolean(vm, v));
                }
                Instruction::BitNot { dst, src } => {
                    let v = r!(src);
                    r!(dst) = match v.as_number() {
                        Some(n) => Value::number(f64::from(!crate::abstract_ops::to_int32(n))),
                        None => operators::bitwise_not(vm, v)?,
                    };
                }
                Instruction::TypeOf { dst, src } => {
                    let v = r!(src);
                    let t = type_of(vm, v);
                    r!(dst) = Value::string(vm.atoms.intern_str(&mut vm.heap, t));
                }
                Instruction::Inc { dst, src } => {
                    let v = r!(src);
                    r!(dst) = match v.as_number() {
                        Some(n) => Value::number(n + 1.0),
                        None => operators::increment(vm, v, 1)?,
                    };
                }
                Instruction::Dec { dst, src } => {
                    let v = r!(src);
                    r!(dst) = match v.as_number() {
                        Some(n) => Value::number(n - 1.0),
                        None => operators::increment(vm, v, -1)?,
                    };
                }
                Instruction::ToString { dst, src } => {
                    let v = r!(src);
                    r!(dst) = Value::string(to_string(vm, v)?);
                }
                Instruction::ToPropertyKey { dst, src } => {
                    let v = r!(src);
                    r!(dst) = match to_property_key(vm, v)? {
                        PropertyKey::Index(i) => Value::number(f64::from(i)),
                        PropertyKey::String(s) => Value::string(s),
                        PropertyKey::Symbol(s) => Value::symbol(s),
                    };
                }

                Instruction::Jump { target } => {
                    if (target as usize) <= pc {
                        vm.check_interrupt()?;
                        vm.safepoint()?;
                    }
                    pc = target as usize;
                    continue;
                }
                Instruction::JumpIfTrue { cond, target } => {
                    let v = r!(cond);
                    let truthy = if v == Value::TRUE {
                        true
                    } else if v == Value::FALSE {
                        false
                    } else {
                        to_boolean(vm, v)
                    };
                    if truthy {
                        pc = target as usize;
                        continue;
                    }
                }
                Instruction::JumpIfFalse { cond, target } => {
                    let v = r!(cond);
                    let truthy = if v == Value::TRUE {
                        true
                    } else if v == Value::FALSE {
                        false
                    } else {
                        to_boolean(vm, v)
                    };
                    if !truthy {
                        pc = target as usize;
                        continue;
                    }
                }
                Instruction::JumpUnless { op, lhs, rhs, target } => {
                    let (a, b) = (r!(lhs), r!(rhs));
                    let holds = match (op, a.as_number(), b.as_number()) {
                        (CompareOp::Lt, Some(x), Some(y)) => x < y,
                        (CompareOp::Le, Some(x), Some(y)) => x <= y,
                        (CompareOp::Gt, Some(x), Some(y)) => x > y,
                        (CompareOp::Ge, Some(x), Some(y)) => x >= y,
                        (CompareOp::Lt, ..) => operators::less_than(vm, a, b)?,
                        (CompareOp::Le, ..) => operators::less_or_equal(vm, a, b)?,
                        (CompareOp::Gt, ..) => operators::greater_than(vm, a, b)?,
                        (CompareOp::Ge, ..) => operators::greater_or_equal(vm, a, b)?,
                        (CompareOp::StrictEq, ..) => is_strictly_equal(vm, a, b),
                        (CompareOp::StrictNe, ..) => !is_strictly_equal(vm, a, b),
                    };
                    if !holds {
                        pc = target as usize;
                        continue;
                    }
                }
                Instruction::JumpIfNullish { src, target } => {
                    if r!(src).is_nullish() {
                        pc = target as usize;
                        continue;
                    }
                }
                Instruction::JumpIfNotNullish { src, target } => {
                    if !r!(src).is_nullish() {
                        pc = target as usize;
                        continue;
                    }
                }
                Instruction::JumpIfNotUndefined { src, target } => {
                    if !r!(src).is_undefined() {
                        pc = target as usize;
                        continue;
                    }
                }
                Instruction::JumpIfInt { src, value, target } => {
                    if r!(src).as_number() == Some(f64::from(value)) {
                        pc = target as usize;
                        continue;
                    }
                }

                Instruction::GetIterator { dst, src } => {
                    let v = r!(src);
                    let record = crate::builtins::iteration::get_iterator(vm, v)?;
                    r!(dst) = Value::internal(record.into());
                }
                Instruction::IteratorNext { dst, iter, done } => {
                    let Some(record) = r!(iter).as_internal::<IteratorRecord>() else {
                        pc = done as usize;
                        continue;
                    };
                    if let Some(v) = crate::builtins::iteration::iterator_step_value(vm, record)? {
                        r!(dst) = v;
                    } else {
                        pc = done as usize;
                        continue;
                    }
                }
                Instruction::IteratorClose { iter } => {
                    if let Some(record) = r!(iter).as_internal::<IteratorRecord>() {
                        crate::builtins::iteration::iterator_close(vm, record)?;
                    }
                }
                Instruction::IteratorCloseOnThrow { iter } => {
                    if let Some(record) = r!(iter).as_internal::<IteratorRecord>()
                        && let Err(Exception::Terminated) = crate::builtins::iteration::iterator_close(vm, record)
                    {
                        return Err(Exception::Terminated);
                    }
                }
                Instruction::GetAsyncIterator { dst, src } => {
                    let v = r!(src);
                    let record = crate::builtins::async_iteration::get_async_iterator(vm, v)?;
                    r!(dst) = Value::internal(record.into());
                }
                Instruction::AsyncIteratorNext { dst, iter } => {
                    let Some(record) = r!(iter).as_internal::<IteratorRecord>() else {
                        return Err(vm.type_error("for await over a non-iterator"));
                    };
                    let (iterator, next) = {
                        let rec = record.borrow(&vm.heap);
                        (rec.iterator, rec.next)
                    };
                    r!(dst) = im::call(vm, next, iterator, &[])?;
                }
                Instruction::AsyncIteratorStep { dst, result, iter, done } => {
                    let Some(record) = r!(iter).as_internal::<IteratorRecord>() else {
                        return Err(vm.type_error("for await over a non-iterator"));
                    };
                    let res = r!(result);
                    if let Some(v) = crate::builtins::async_iteration::async_iterator_result(vm, record, res)? {
                        r!(dst) = v;
                    } else {
                        pc = done as usize;
                        continue;
                    }
                }
                Instruction::AsyncIteratorReturn { dst, iter, skip, quiet } => {
                    let record = r!(iter).as_internal::<IteratorRecord>();
                    let Some(record) = record.filter(|r| !r.borrow(&vm.heap).done) else {
                        pc = skip as usize;
                        continue;
                    };
                    let iterator = record.borrow(&vm.heap).iterator;
                    record.borrow_mut(&mut vm.heap).done = true;
                    let key = PropertyKey::String(vm.names.return_);
                    let result = im::get_method(vm, iterator, key).and_then(|method| match method {
                        Some(m) => im::call(vm, m, iterator, &[]).map(Some),
                        None => Ok(None),
                    });
                    match result {
                        Ok(Some(v)) => r!(dst) = v,
                        Ok(None) => {
                            pc = skip as usize;
                            continue;
                        }
                        Err(Exception::Throw(_)) if quiet => {
                            pc = skip as usize;
                            continue;
                        }
                        Err(e) => return Err(e),
                    }
                }
                Instruction::ThrowIfNotObject { src } => {
                    if !r!(src).is_object() {
                        return Err(vm.type_error("Iterator result is not an object"));
                    }
                }
                Instruction::NewDisposeCapability { dst } => {
                    r!(dst) = Value::internal(crate::builtins::dispose_capability::new_dispose_capability(vm).into());
                }
                Instruction::AddDisposable { cap, value, asynchronous } => {
                    use crate::builtins::dispose_capability::{Hint, add_disposable_resource};
                    if let Some(capability) = r!(cap).as_internal::<DisposeCapability>() {
                        let hint = if asynchronous { Hint::Async } else { Hint::Sync };
                        let v = r!(value);
                        add_disposable_resource(vm, capability, v, hint)?;
                    }
                }
                Instruction::DisposeBegin { cap, error } => {
                    if let Some(capability) = r!(cap).as_internal::<DisposeCapability>() {
                        let error = (error.0 != u16::MAX).then(|| r!(error));
                        crate::builtins::dispose_capability::begin_disposal(vm, capability, error);
                    }
                }
                Instruction::DisposeStep { cap, dst, done } => {
                    use crate::builtins::dispose_capability::{DisposeStep, dispose_step};
                    let Some(capability) = r!(cap).as_internal::<DisposeCapability>() else {
                        pc = done as usize;
                        continue;
                    };
                    match dispose_step(vm, capability)? {
                        DisposeStep::Await(v) => r!(dst) = v,
                        DisposeStep::Done => {
                            pc = done as usize;
                            continue;
                        }
                    }
                }
                Instruction::DisposeAwaited { cap, value, mode } => {
                    if let Some(capability) = r!(cap).as_internal::<DisposeCapability>() {
                        let v = r!(value);
                        let outcome = if r!(mode).as_number() == Some(1.0) { Err(v) } else { Ok(v) };
                        crate::builtins::dispose_capability::record_awaited(vm, capability, outcome);
                    }
                }
                Instruction::DisposeEnd { cap } => {
                    if let Some(capability) = r!(cap).as_internal::<DisposeCapability>() {
                        crate::builtins::dispose_capability::finish_disposal(vm, capability)?;
                    }
                }
                Instruction::ForInStart { dst, obj } => {
                    let v = r!(obj);
                    r!(dst) = match crate::builtins::iteration::for_in_start(vm, v)? {
                        Some(it) => Value::internal(it.into()),
                        None => Value::UNDEFINED,
                    };
                }
                Instruction::ForInNext { dst, iter, done } => {
                    let Some(it) = r!(iter).as_internal::<ForInIterator>() else {
                        pc = done as usize;
                        continue;
                    };
                    if let Some(key) = crate::builtins::iteration::for_in_next(vm, it)? {
                        r!(dst) = key;
                    } else {
                        pc = done as usize;
                        continue;
                    }
                }

                Instruction::LoadCallee { dst } => {
                    let callee = vm.frames.last().and_then(|f| f.callee);
                    r!(dst) = callee.map_or(Value::UNDEFINED, Value::object);
                }
                Instruction::LoadNewTarget { dst } => {
                    r!(dst) = vm.frames.last().map_or(Value::UNDEFINED, |f| f.new_target);
                }
                Instruction::CreateArguments { dst, mapped } => {
                    let map = if mapped { Some(Rc::clone(&code.borrow(&vm.heap).mapped_parameters)) } else { None };
                    r!(dst) = Value::object(crate::builtins::function::create_arguments_object(vm, map.as_deref()));
                }
                Instruction::CreateRestArray { dst, from } => {
                    r!(dst) = Value::object(crate::builtins::function::create_rest_array(vm, usize::from(from)));
                }
                Instruction::CreateClass { dst, proto_dst, index, heritage } => {
                    let heritage_value = r!(heritage);
                    let (ctor, proto) = crate::builtins::function::create_class(vm, code, index, heritage_value)?;
                    r!(dst) = Value::object(ctor);
                    r!(proto_dst) = Value::object(proto);
                }
                Instruction::SetClassFields { ctor, fields } => {
                    let (c, f) = (r!(ctor), r!(fields));
                    if let (Some(c), Some(f)) = (c.as_object(), f.as_object())
                        && let ObjectKind::Function(Function::Closure(cl)) = &mut c.borrow_mut(&mut vm.heap).kind
                    {
                        cl.fields = Some(f);
                    }
                }
                Instruction::LoadFieldKey { dst, index } => {
                    let keys =
                        vm.frames.last().and_then(|f| f.callee).and_then(|c| match c.borrow(&vm.heap).as_function() {
                            Some(Function::Closure(cl)) => cl.fields,
                            _ => None,
                        });
                    r!(dst) = keys.map_or(Value::UNDEFINED, |k| match &k.borrow(&vm.heap).elements {
                        crate::object::Elements::Dense(v) => v.get(index as usize).copied().unwrap_or_default(),
                        crate::object::Elements::Sparse(_) => Value::UNDEFINED,
                    });
                }
                Instruction::SetHomeObject { func, home } => {
                    let (f, h) = (r!(func), r!(home));
                    if let (Some(f), Some(h)) = (f.as_object(), h.as_object())
                        && let ObjectKind::Function(Function::Closure(c)) = &mut f.borrow_mut(&mut vm.heap).kind
                    {
                        c.home_object = Some(h);
                    }
                }
                Instruction::SuperCall { dst, args, argc } => {
                    let list: Vec<Value> = (0..usize::from(argc)).map(|i| vm.stack[reg!(base, args) + i]).collect();
                    r!(dst) = super_call(vm, &list)?;
                }
                Instruction::SuperCallSpread { dst, args } => {
                    let arr = r!(args);
                    let list = crate::builtins::array::dense_values(vm, arr);
                    r!(dst) = super_call(vm, &list)?;
                }
                Instruction::CheckThis { dst } => {
                    let this = vm.stack[base];
                    if this.is_hole() {
                        return Err(vm.reference_error(
                            "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
                        ));
                    }
                    r!(dst) = this;
                }
                Instruction::GeneratorStart => {
                    let callee = vm.frames.last().and_then(|f| f.callee);
                    let is_async = code.borrow(&vm.heap).is_async;
                    let default = if is_async {
                        vm.realm.intrinsics.async_generator_prototype
                    } else {
                        vm.realm.intrinsics.generator_prototype
                    };
                    let proto = generator::generator_prototype(vm, callee, default)?;
                    let Some((saved, frame)) = generator::save_top_frame(vm, pc as u32 + 1) else {
                        return Ok(Value::UNDEFINED);
                    };
                    let g = if is_async {
                        async_generator::create(vm, saved, proto)
                    } else {
                        generator::create_generator(vm, saved, proto)
                    };
                    if frame.entry {
                        return Ok(Value::object(g));
                    }
                    if let Some(caller) = vm.frames.last_mut() {
                        let dst = caller.base + usize::from(frame.return_dst.0);
                        caller.pc += 1;
                        vm.stack[dst] = Value::object(g);
                    }
                    continue 'frames;
                }
                Instruction::AsyncStart => async_function::start(vm),
                Instruction::Await { value, .. } => {
                    let v = r!(value);
                    let Some(owner) = vm.frames.last().and_then(|f| f.generator) else {
                        return Err(vm.type_error("await outside an async function"));
                    };
                    let (frame, promise) = async_function::suspend(vm, owner, v, pc as u32)?;
                    match deliver_result(vm, &frame, promise) {
                        Some(result) => return Ok(result),
                        None => continue 'frames,
                    }
                }
                Instruction::AsyncYield { value, mode } => {
                    let v = r!(value);
                    let Some(g) = vm.frames.last().and_then(|f| f.generator) else {
                        return Err(vm.type_error("yield outside a generator"));
                    };
                    match async_generator::yield_value(vm, g, v)? {
                        async_generator::YieldOutcome::Continue(m, sent) => {
                            r!(value) = sent;
                            r!(mode) = Value::number(f64::from(m as u8));
                        }
                        async_generator::YieldOutcome::Suspend => {
                            if let Some((saved, _)) = generator::save_top_frame(vm, pc as u32) {
                                async_generator::suspend_at_yield(vm, g, saved);
                            }
                            return Ok(Value::UNDEFINED);
                        }
                    }
                }
                Instruction::AsyncDelegateStep { result, iter, value, mode } => {
                    let v = r!(value);
                    let m = r!(mode).as_number().unwrap_or(0.0);
                    let Some(record) = r!(iter).as_internal::<IteratorRecord>() else {
                        return Err(vm.type_error("yield* on a non-iterator"));
                    };
                    let (iterator, next) = {
                        let rec = record.borrow(&vm.heap);
                        (rec.iterator, rec.next)
                    };
                    if m == 0.0 {
                        r!(result) = im::call(vm, next, iterator, &[v])?;
                    } else {
                        let (name, missing) = if m == 1.0 { (vm.names.throw, 4.0) } else { (vm.names.return_, 3.0) };
                        match im::get_method(vm, iterator, PropertyKey::String(name))? {
                            Some(f) => r!(result) = im::call(vm, f, iterator, &[v])?,
                            None => r!(mode) = Value::number(missing),
                        }
                    }
                }
                Instruction::ThrowMissingThrowMethod => {
                    return Err(vm.type_error("The iterator does not provide a 'throw' method"));
                }
                Instruction::Yield { value, raw, .. } => {
                    let v = r!(value);
                    let Some((saved, frame)) = generator::save_top_frame(vm, pc as u32) else {
                        return Ok(v);
                    };
                    if let Some(g) = frame.generator {
                        generator::suspend(vm, g, saved, raw);
                    }
                    return Ok(v);
                }
                Instruction::YieldDelegateStep { result, iter, value, mode } => {
                    let v = r!(value);
                    let m = r!(mode).as_number().unwrap_or(0.0);
                    let Some(record) = r!(iter).as_internal::<IteratorRecord>() else {
                        return Err(vm.type_error("yield* on a non-iterator"));
                    };
                    let (iterator, next) = {
                        let rec = record.borrow(&vm.heap);
                        (rec.iterator, rec.next)
                    };
                    let inner = if m == 0.0 {
                        im::call(vm, next, iterator, &[v])?
                    } else if m == 1.0 {
                        let key = PropertyKey::String(vm.names.throw);
                        if let Some(t) = im::get_method(vm, iterator, key)? {
                            im::call(vm, t, iterator, &[v])?
                        } else {
                            crate::builtins::iteration::iterator_close(vm, record)?;
                            return Err(vm.type_error("The iterator does not provide a 'throw' method"));
                        }
                    } else {
                        let key = PropertyKey::String(vm.names.return_);
                        if let Some(ret) = im::get_method(vm, iterator, key)? {
                            im::call(vm, ret, iterator, &[v])?
                        } else {
                            r!(mode) = Value::number(3.0);
                            pc += 1;
                            continue;
                        }
                    };
                    if !inner.is_object() {
                        return Err(vm.type_error("Iterator result is not an object"));
                    }
                    r!(result) = inner;
                }
                Instruction::NewPrivateName { dst, description } => {
                    let d = constant!(description).as_string();
                    let symbol = crate::symbol::Symbol { description: d, registered: false, private: true };
                    r!(dst) = Value::symbol(vm.heap.alloc(symbol));
                }
                Instruction::GetPrivate { dst, obj, key } => {
                    let (o, k) = (r!(obj), r!(key));
                    r!(dst) = private::get(vm, o, k)?;
                }
                Instruction::SetPrivate { obj, key, src } => {
                    let (o, k, v) = (r!(obj), r!(key), r!(src));
                    private::set(vm, o, k, v)?;
                }
                Instruction::DefinePrivate { obj, key, src, method } => {
                    let (o, k, v) = (r!(obj), r!(key), r!(src));
                    private::define(vm, o, k, v, method)?;
                }
                Instruction::DefinePrivateAccessor { obj, key, getter, setter } => {
                    let (o, k, g, s) = (r!(obj), r!(key), r!(getter), r!(setter));
                    private::define_accessor(vm, o, k, g, s)?;
                }
                Instruction::HasPrivate { dst, obj, key } => {
                    let (o, k) = (r!(obj), r!(key));
                    let Some(o) = o.as_object() else {
                        return Err(
                            vm.type_error("Cannot use 'in' operator to search for a private field in a non-object")
                        );
                    };
                    let found = k
                        .as_symbol()
                        .is_some_and(|s| o.borrow(&vm.heap).get_own(&vm.heap, PropertyKey::Symbol(s)).is_some());
                    r!(dst) = Value::boolean(found);
                }
                Instruction::ToObject { dst, src } => {
                    let v = r!(src);
                    r!(dst) = Value::object(to_object(vm, v)?);
                }
                Instruction::WithGet { dst, obj, name, this_dst, found } => {
                    let (o, n) = (r!(obj), constant!(name));
                    if let (Some(o), Some(atom)) = (o.as_object(), n.as_string())
                        && with_has(vm, o, atom)?
                    {
                        r!(dst) = object_binding_value(vm, o, atom, strict_code)?;
                        if this_dst.0 != u16::MAX {
                            r!(this_dst) = Value::object(o);
                        }
                        pc = found as usize;
                        continue;
                    }
                }
                Instruction::WithSet { obj, name, src, found } => {
                    let (o, n, v) = (r!(obj), constant!(name), r!(src));
                    if let (Some(o), Some(atom)) = (o.as_object(), n.as_string())
                        && with_has(vm, o, atom)?
                    {
                        set_object_binding(vm, o, atom, v, strict_code)?;
                        pc = found as usize;
                        continue;
                    }
                }
                Instruction::WithResolve { dst, obj, name, found } => {
                    let (o, n) = (r!(obj), constant!(name));
                    if let (Some(o), Some(atom)) = (o.as_object(), n.as_string())
                        && with_has(vm, o, atom)?
                    {
                        r!(dst) = Value::object(o);
                        pc = found as usize;
                        continue;
                    }
                }
                Instruction::WithRefGet { dst, base, name } => {
                    if let (Some(o), Some(atom)) = (r!(base).as_object(), constant!(name).as_string()) {
                        r!(dst) = object_binding_value(vm, o, atom, strict_code)?;
                    }
                }
                Instruction::WithRefSet { base, name, src } => {
                    if let (Some(o), Some(atom)) = (r!(base).as_object(), constant!(name).as_string()) {
                        let v = r!(src);
                        set_object_binding(vm, o, atom, v, strict_code)?;
                    }
                }
                Instruction::WithDelete { dst, obj, name, found } => {
                    let (o, n) = (r!(obj), constant!(name));
                    if let (Some(o), Some(atom)) = (o.as_object(), n.as_string())
                        && with_has(vm, o, atom)?
                    {
                        // DeleteBinding of an object environment record
                        // (§9.1.1.2.7).
                        let key = string_key(vm, atom);
                        r!(dst) = Value::boolean(im::delete(vm, o, key)?);
                        pc = found as usize;
                        continue;
                    }
                }
                Instruction::Nop => {}
            }
            pc += 1;
        }
    }
}

/// `super(...args)` (§13.3.7.1): constructs the parent with the current
/// `new.target` and binds `this`.
fn super_call(vm: &mut Vm, args: &[Value]) -> JsResult<Value> {
    let Some(frame) = vm.frames.last() else { return Ok(Value::UNDEFINED) };
    let (callee, new_target, base) = (frame.callee, frame.new_target, frame.base);
    let Some(active) = callee else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    let parent = active.borrow(&vm.heap).proto;
    let Some(parent) = parent.filter(|p| is_constructor(vm, *p)) else {
        return Err(vm.type_error("Super constructor is not a constructor"));
    };
    let Some(nt) = new_target.as_object() else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    let result = construct_function(vm, parent, args, nt)?;
    if !vm.stack[base].is_hole() {
        return Err(vm.reference_error("Super constructor may only be called once"));
    }
    vm.stack[base] = result;
    let fields = match active.borrow(&vm.heap).as_function() {
        Some(Function::Closure(c)) => c.fields,
        _ => None,
    };
    if let Some(init) = fields {
        call_function(vm, init, result, &[])?;
    }
    Ok(result)
}

/// The TypeError for a property access on `null`/`undefined`; the key is
/// shown only when printing it runs no user code.
fn nullish_base_error(vm: &mut Vm, base: Value, key: Value, action: &str, verb: &str) -> Exception {
    let what = if base.is_null() { "null" } else { "undefined" };
    let text = if key.is_object() { None } else { to_property_key(vm, key).ok().map(|k| key_to_display(vm, k)) };
    match text {
        Some(t) => vm.type_error(&format!("Cannot {action} of {what} ({verb} '{t}')")),
        None => vm.type_error(&format!("Cannot {action} of {what}")),
    }
}

/// Adds a property along a cached shape transition. `check_prototypes`
/// for assignments (a setter or read-only property on the chain would
/// intercept them); definitions ignore the chain.
fn add_by_transition(
    vm: &mut Vm,
    o: Gc<JsObject>,
    cache: InlineCache,
    key: PropertyKey,
    v: Value,
    check_prototypes: bool,
) -> bool {
    let Some(to) = cache.transition else { return false };
    let object = o.borrow(&vm.heap);
    if !object.extensible || !matches!(object.kind, ObjectKind::Ordinary) {
        return false;
    }
    if check_prototypes {
        let mut p = object.proto;
        while let Some(proto) = p {
            let proto_obj = proto.borrow(&vm.heap);
            if !matches!(proto_obj.kind, ObjectKind::Ordinary | ObjectKind::Function(_))
                || proto_obj.get_own(&vm.heap, key).is_some()
            {
                return false;
            }
            p = proto_obj.proto;
        }
    }
    if let crate::object::Properties::Shaped { shape, slots } = &mut o.borrow_mut(&mut vm.heap).properties {
        if slots.len() as u32 != cache.slot {
            return false;
        }
        *shape = to;
        slots.push(v);
        return true;
    }
    false
}

/// Caches a read that the lookup cache found on `o`'s prototype (one level
/// up: an instance's method on its class prototype) in the instruction's
/// inline cache. Reads found further up stay with the lookup cache.
fn cache_inherited(vm: &mut Vm, ic_table: u32, ic: u32, o: Gc<JsObject>, key: PropertyKey) {
    let Some(shape) = o.borrow(&vm.heap).shape() else { return };
    if let Some((proto, proto_shape, slot)) = vm.lookup_cache.inherited_data_slot(shape, key) {
        vm.inline_caches.set(ic_table, ic, InlineCache::inherited(shape, proto, proto_shape, slot));
    }
}

/// After a property add that moved `o` from shape `from` to a shape one
/// property longer, caches the transition.
fn record_transition(vm: &mut Vm, ic_table: u32, ic: u32, o: Gc<JsObject>, from: Gc<Shape>, key: PropertyKey) {
    let Some(to) = o.borrow(&vm.heap).shape() else { return };
    if to == from {
        return;
    }
    let from_len = from.borrow(&vm.heap).len();
    let to_shape = to.borrow(&vm.heap);
    if to_shape.len() != from_len + 1 {
        return;
    }
    if let Some(info) = to_shape.lookup(key)
        && info.slot as usize == from_len
        && info.attrs == Attributes::DEFAULT
    {
        vm.inline_caches.set(
            ic_table,
            ic,
            InlineCache { shape: Some(from), slot: info.slot, transition: Some(to), ..InlineCache::default() },
        );
    }
}

/// HasBinding of an object environment record (§9.1.1.2.1): the property
/// exists and `@@unscopables` does not hide it.
/// GetBindingValue of an object environment record (§9.1.1.2.6): asks
/// again whether the object has the name (the unscopables lookup or a
/// proxy may have removed it).
fn object_binding_value(vm: &mut Vm, o: Gc<JsObject>, atom: Gc<JsString>, strict: bool) -> JsResult<Value> {
    let key = string_key(vm, atom);
    if has_property(vm, o, key)? {
        get(vm, o, key, Value::object(o))
    } else if strict {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        Err(vm.reference_error(&format!("{text} is not defined")))
    } else {
        Ok(Value::UNDEFINED)
    }
}

/// SetMutableBinding of an object environment record (§9.1.1.2.5): in
/// strict code the binding must still exist.
fn set_object_binding(vm: &mut Vm, o: Gc<JsObject>, atom: Gc<JsString>, v: Value, strict: bool) -> JsResult<()> {
    let key = string_key(vm, atom);
    if !has_property(vm, o, key)? && strict {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.reference_error(&format!("{text} is not defined")));
    }
    let ok = im::set(vm, o, key, v, Value::object(o))?;
    if !ok && strict {
        return Err(vm.type_error("Cannot assign to read only property"));
    }
    Ok(())
}

/// HasBinding of an object environment record (§9.1.1.2.1): the object has
/// the name and `@@unscopables` does not block it.
fn with_has(vm: &mut Vm, o: Gc<JsObject>, atom: Gc<JsString>) -> JsResult<bool> {
    let key = string_key(vm, atom);
    if !has_property(vm, o, key)? {
        return Ok(false);
    }
    let unscopables_key = PropertyKey::Symbol(vm.symbols.unscopables);
    let unscopables = get(vm, o, unscopables_key, Value::object(o))?;
    if let Some(u) = unscopables.as_object() {
        let blocked = get(vm, u, key, unscopables)?;
        if to_boolean(vm, blocked) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `IsConstructor`.
pub fn is_constructor(vm: &Vm, o: Gc<JsObject>) -> bool {
    o.borrow(&vm.heap).is_constructor(&vm.heap)
}

fn env_at(vm: &Vm, depth: u16) -> Option<Gc<DeclarativeEnvironment>> {
    let mut env = vm.frames.last().and_then(|f| f.env);
    for _ in 0..depth {
        env = env.and_then(|e| e.borrow(&vm.heap).outer);
    }
    env
}

fn tdz_error(vm: &mut Vm, name: Value) -> Exception {
    let text = name.as_string().map(|s| s.borrow(&vm.heap).flat().to_rust_string()).unwrap_or_default();
    vm.reference_error(&format!("Cannot access '{text}' before initialization"))
}

/// The callee's source text, for "x is not a function" messages.
fn callee_text(vm: &Vm, code: Gc<Code>, pc: usize) -> String {
    let c = code.borrow(&vm.heap);
    let start = c.position(pc as u32) as usize;
    let text = &c.source.text;
    let end = text[start.min(text.len())..].find('(').map_or(start, |i| start + i);
    text.get(start..end).map_or_else(|| "expression".to_owned(), |s| s.trim().to_owned())
}

fn not_callable(vm: &mut Vm, code: Gc<Code>, pc: usize) -> Exception {
    let text = callee_text(vm, code, pc);
    vm.type_error(&format!("{text} is not a function"))
}

fn not_constructor(vm: &mut Vm, code: Gc<Code>, pc: usize) -> Exception {
    let text = callee_text(vm, code, pc);
    let text = text.strip_prefix("new ").unwrap_or(&text).trim().to_owned();
    vm.type_error(&format!("{text} is not a constructor"))
}

/// A global read through the inline cache: the binding's index in the
/// global object's dictionary, checked against the key stored there.
#[inline]
fn cached_global(vm: &Vm, ic_table: u32, ic: u32, name: Value) -> Option<Value> {
    let index = vm.inline_caches.get(ic_table, ic).dictionary_index;
    if index == u32::MAX {
        return None;
    }
    let atom = name.as_string()?;
    if vm.realm.global_lexicals.contains_key(&atom) {
        return None;
    }
    let crate::object::Properties::Dictionary(map) = &vm.realm.global.borrow(&vm.heap).properties else { return None };
    let (key, (value, attrs)) = map.get_index(index as usize)?;
    (*key == PropertyKey::String(atom) && !attrs.is_accessor()).then_some(*value)
}

/// Writes `v` to the global `var` binding `name` through the inline cache:
/// only when the cached dictionary entry is still `name` and a writable
/// data property (a setter, a non-writable property or a global lexical
/// binding takes the full path). Returns whether it wrote.
fn store_cached_global(vm: &mut Vm, ic_table: u32, ic: u32, name: Value, v: Value) -> bool {
    let index = vm.inline_caches.get(ic_table, ic).dictionary_index;
    if index == u32::MAX {
        return false;
    }
    let Some(atom) = name.as_string() else { return false };
    if vm.realm.global_lexicals.contains_key(&atom) {
        return false;
    }
    let global = vm.realm.global;
    let crate::object::Properties::Dictionary(map) = &mut global.borrow_mut(&mut vm.heap).properties else {
        return false;
    };
    match map.get_index_mut(index as usize) {
        Some((key, (value, attrs)))
            if *key == PropertyKey::String(atom) && !attrs.is_accessor() && attrs.writable() =>
        {
            *value = v;
            true
        }
        _ => false,
    }
}

/// Records where a global data property lives for [`cached_global`] and
/// [`store_cached_global`].
fn cache_global(vm: &mut Vm, ic_table: u32, ic: u32, name: Value) {
    let Some(atom) = name.as_string() else { return };
    let crate::object::Properties::Dictionary(map) = &vm.realm.global.borrow(&vm.heap).properties else { return };
    if let Some(index) = map.get_index_of(&PropertyKey::String(atom)) {
        let entry = InlineCache { dictionary_index: index as u32, ..InlineCache::default() };
        vm.inline_caches.set(ic_table, ic, entry);
    }
}

fn get_global(vm: &mut Vm, name: Value, for_typeof: bool) -> JsResult<Value> {
    let Some(atom) = name.as_string() else { return Ok(Value::UNDEFINED) };
    if let Some(binding) = vm.realm.global_lexicals.get(&atom) {
        if binding.value.is_hole() {
            return Err(tdz_error(vm, name));
        }
        return Ok(binding.value);
    }
    let global = vm.realm.global;
    let key = string_key(vm, atom);
    if !has_property(vm, global, key)? {
        if for_typeof {
            return Ok(Value::UNDEFINED);
        }
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.reference_error(&format!("{text} is not defined")));
    }
    get(vm, global, key, Value::object(global))
}

/// HasBinding of the global environment record (§9.1.1.4.1).
fn has_global_binding(vm: &mut Vm, name: Value) -> JsResult<bool> {
    let Some(atom) = name.as_string() else { return Ok(false) };
    if vm.realm.global_lexicals.contains_key(&atom) {
        return Ok(true);
    }
    let global = vm.realm.global;
    let key = string_key(vm, atom);
    has_property(vm, global, key)
}

fn set_global(vm: &mut Vm, name: Value, v: Value, strict: bool) -> JsResult<()> {
    let Some(atom) = name.as_string() else { return Ok(()) };
    if let Some(binding) = vm.realm.global_lexicals.get_mut(&atom) {
        if binding.value.is_hole() {
            return Err(tdz_error(vm, name));
        }
        if !binding.mutable {
            return Err(vm.type_error("Assignment to constant variable."));
        }
        binding.value = v;
        return Ok(());
    }
    let global = vm.realm.global;
    let key = string_key(vm, atom);
    if strict && !has_property(vm, global, key)? {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.reference_error(&format!("{text} is not defined")));
    }
    let ok = im::set(vm, global, key, v, Value::object(global))?;
    if !ok && strict {
        let text = atom.borrow(&vm.heap).flat().to_rust_string();
        return Err(vm.type_error(&format!("Cannot assign to read only property '{text}' of object")));
    }
    Ok(())
}

/// `PutValue` for a property reference (§6.2.5.6).
fn put_value(vm: &mut Vm, target: Value, key: PropertyKey, v: Value, strict: bool) -> JsResult<()> {
    if target.is_nullish() {
        let text = key_to_display(vm, key);
        let what = if target.is_null() { "null" } else { "undefined" };
        return Err(vm.type_error(&format!("Cannot set properties of {what} (setting '{text}')")));
    }
    let obj = match target.as_object() {
        Some(o) => o,
        None => to_object(vm, target)?,
    };
    let ok = im::set(vm, obj, key, v, target)?;
    if !ok && strict {
        let text = key_to_display(vm, key);
        return Err(vm.type_error(&format!("Cannot assign to read only property '{text}' of object")));
    }
    Ok(())
}

/// An element read that needs no user code: a present dense element.
#[inline]
fn fast_element(vm: &Vm, o: Gc<JsObject>, n: f64) -> Option<Value> {
    let i = n as u32;
    if f64::from(i) != n {
        return None;
    }
    let object = o.borrow(&vm.heap);
    if matches!(object.kind, ObjectKind::MappedArguments { .. }) {
        return None;
    }
    match &object.elements {
        crate::object::Elements::Dense(v) => v.get(i as usize).copied().filter(|v| !v.is_hole()),
        crate::object::Elements::Sparse(_) => None,
    }
}

/// An element write that needs no user code: overwriting a present dense
/// element, or appending to an extensible array whose prototypes have no
/// elements.
#[inline]
fn set_fast_element(vm: &mut Vm, o: Gc<JsObject>, n: f64, v: Value) -> bool {
    let i = n as u32;
    if f64::from(i) != n || i == u32::MAX {
        return false;
    }
    let idx = i as usize;
    let object = o.borrow(&vm.heap);
    if matches!(object.kind, ObjectKind::MappedArguments { .. }) {
        return false;
    }
    let crate::object::Elements::Dense(elements) = &object.elements else { return false };
    let overwrite = idx < elements.len() && !elements[idx].is_hole();
    let append = !overwrite
        && idx == elements.len()
        && object.extensible
        && matches!(object.kind, ObjectKind::Array { length_writable: true, .. } | ObjectKind::Ordinary)
        && prototypes_have_no_elements(vm, o);
    if !overwrite && !append {
        return false;
    }
    let object = o.borrow_mut(&mut vm.heap);
    if let crate::object::Elements::Dense(elements) = &mut object.elements {
        if overwrite {
            elements[idx] = v;
        } else {
            elements.push(v);
        }
    }
    if let ObjectKind::Array { length, .. } = &mut object.kind
        && i >= *length
    {
        *length = i + 1;
    }
    true
}

fn prototypes_have_no_elements(vm: &Vm, o: Gc<JsObject>) -> bool {
    let mut p = o.borrow(&vm.heap).proto;
    while let Some(proto) = p {
        let obj = proto.borrow(&vm.heap);
        // A proxy's [[Set]] must see the assignment.
        if obj.is_proxy() {
            return false;
        }
        let empty = match &obj.elements {
            crate::object::Elements::Dense(v) => v.is_empty(),
            crate::object::Elements::Sparse(m) => m.is_empty(),
        };
        if !empty {
            return false;
        }
        p = obj.proto;
    }
    true
}

/// Reads a string cell's text (for diagnostics).
pub(crate) fn string_text(vm: &mut Vm, s: Gc<JsString>) -> String {
    let s = JsString::flatten(&mut vm.heap, s);
    s.borrow(&vm.heap).flat().to_rust_string()
}
