//! The interpreter: one dispatch loop over the register file. Calls between
//! compiled functions push a frame and stay in the loop; only native code
//! calling back into scripts re-enters it, bounded by the call-depth limit.

pub mod async_function;
pub mod async_generator;
mod execution_stack;
mod frame;
mod generator;
mod inline_cache;
mod native_stack;
mod operators;
mod ops;
mod private;

use std::rc::Rc;

use js_gc::Gc;

pub(crate) use execution_stack::ExecutionStack;
pub use frame::{CallInfo, ForInIterator, Frame, IteratorRecord};
pub(crate) use generator::RegisterBufferPool;
pub use generator::{ExecutableKey, GeneratorState, ResumeEntry, ResumeMode, generator_resume};
pub use inline_cache::{InlineCache, InlineCacheTables};
pub(crate) use native_stack::NativeStack;
use operators::NumericOp;
pub(crate) use operators::js_pow;
pub(crate) use ops::property::prototypes_have_no_elements;
use ops::{
    FrameContext, Next, arith, call, class, compare, control, conversion, dispose, env, function, global, iteration,
    literal, module, property, register, suspend, with,
};

use crate::abstract_ops::{is_callable, to_boolean, to_object};
use crate::bytecode::{Code, CodeKind, CompareOp, Instruction, Reg};
use crate::environment::DeclarativeEnvironment;
use crate::function::{Closure, Function};
use crate::object::internal_methods::{self as im, get};
use crate::object::{JsObject, PropertyKey};
use crate::realm::{Intrinsics, RealmId};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// Native re-entries into the loop allowed on top of each other.
pub(crate) const MAX_NATIVE_DEPTH: usize = 400;

/// Whether one more native re-entry would go past [`MAX_NATIVE_DEPTH`] or
/// into the last [`native_stack::NATIVE_STACK_RED_ZONE`] bytes of this
/// thread's stack.
#[inline]
pub(crate) fn native_stack_exhausted(vm: &Vm) -> bool {
    vm.stack.native_depth >= MAX_NATIVE_DEPTH || vm.stack.native.exhausted()
}

/// Calls a function object with `this` and `args`.
pub fn call_function(vm: &mut Vm, f: Gc<JsObject>, this: Value, args: &[Value]) -> JsResult<Value> {
    let base = vm.stack.registers.len();
    push_values(&mut vm.stack.registers, args);
    let result = call_with_stack_args(vm, f, this, base, args.len(), None);
    vm.stack.registers.truncate(base);
    result
}

/// Constructs with `[[Construct]]`.
pub fn construct_function(vm: &mut Vm, f: Gc<JsObject>, args: &[Value], new_target: Gc<JsObject>) -> JsResult<Value> {
    let base = vm.stack.registers.len();
    push_values(&mut vm.stack.registers, args);
    let result = call_with_stack_args(vm, f, Value::UNDEFINED, base, args.len(), Some(new_target));
    vm.stack.registers.truncate(base);
    result
}

/// Pushes `values` onto the register file. The few arguments of a typical
/// call are copied by a fixed-size move each rather than a `memcpy` call,
/// which costs more than the copy (the same for [`copy_registers`]).
#[allow(clippy::inline_always, reason = "a call would cost more than the copies it makes")]
#[inline(always)]
fn push_values(stack: &mut Vec<Value>, values: &[Value]) {
    match *values {
        [] => {}
        [a] => stack.push(a),
        [a, b] => stack.extend_from_slice(&[a, b]),
        [a, b, c] => stack.extend_from_slice(&[a, b, c]),
        [a, b, c, d] => stack.extend_from_slice(&[a, b, c, d]),
        _ => stack.extend_from_slice(values),
    }
}

/// Copies registers `src..src + n` to `dst..dst + n` (the ranges may
/// overlap); see [`push_values`].
#[allow(clippy::inline_always, reason = "a call would cost more than the copies it makes")]
#[inline(always)]
fn copy_registers(stack: &mut [Value], src: usize, dst: usize, n: usize) {
    // Each arm reads its registers before it writes any, so overlapping
    // ranges copy as `copy_within` would.
    match n {
        0 => {}
        1 => stack[dst] = stack[src],
        2 => {
            let v = [stack[src], stack[src + 1]];
            stack[dst..dst + 2].copy_from_slice(&v);
        }
        3 => {
            let v = [stack[src], stack[src + 1], stack[src + 2]];
            stack[dst..dst + 3].copy_from_slice(&v);
        }
        4 => {
            let v = [stack[src], stack[src + 1], stack[src + 2], stack[src + 3]];
            stack[dst..dst + 4].copy_from_slice(&v);
        }
        _ => stack.copy_within(src..src + n, dst),
    }
}

/// `instanceof` (§13.10.2 `InstanceofOperator`).
pub fn instance_of(vm: &mut Vm, v: Value, target: Value) -> JsResult<bool> {
    if !target.is_object() {
        return Err(vm.type_error("Right-hand side of 'instanceof' is not an object"));
    }
    let key = PropertyKey::Symbol(vm.symbols.has_instance);
    let handler = im::get_method(vm, target, key)?;
    // This realm's %Function.prototype%[@@hasInstance] is
    // OrdinaryHasInstance(this, v) with no other step, so it runs here
    // without a native call (it would run in this realm too).
    if handler == Some(Value::object(vm.realm.intrinsics.function_has_instance)) {
        return im::ordinary_has_instance(vm, target, v);
    }
    if let Some(h) = handler {
        let r = im::call(vm, h, target, &[v])?;
        return Ok(to_boolean(vm, r));
    }
    if !is_callable(vm, target) {
        return Err(vm.type_error("Right-hand side of 'instanceof' is not callable"));
    }
    im::ordinary_has_instance(vm, target, v)
}

/// Calls `f` with arguments already in `vm.stack.registers[args_base..][..argc]`,
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
    if native_stack_exhausted(vm) || vm.stack.frames.len() >= vm.options.max_call_depth {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    vm.stack.native_depth += 1;
    let result = match enter_function(vm, f, this, args_base, argc, new_target, Reg(0), true) {
        Ok(Entered::Native(v)) => Ok(v),
        Ok(Entered::Frame) => run(vm),
        Err(e) => Err(e),
    };
    vm.stack.native_depth -= 1;
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
        let args = vm.stack.registers[args_base..args_base + argc].to_vec();
        return call_proxy(vm, f, this, &args, new_target);
    };
    match function {
        Function::Native(native) => {
            if new_target.is_some() && !native.constructor {
                return Err(vm.type_error("value is not a constructor"));
            }
            let (body, realm) = (native.call, native.realm);
            let info = CallInfo { callee: f, this, new_target, args_base, argc };
            // A builtin runs in its own realm: the objects and errors it
            // makes come from that realm's intrinsics.
            let caller_realm = vm.enter_realm(realm);
            let result = run_native(vm, body, &info);
            vm.enter_realm(caller_realm);
            result.map(Entered::Native)
        }
        Function::Bound(bound) => {
            let (target, bound_this) = (bound.target, bound.this);
            let mut args = bound.args.to_vec();
            args.extend_from_slice(&vm.stack.registers[args_base..args_base + argc]);
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
            let keep_extra = c.reads_extra_arguments;
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
            if vm.stack.frames.len() >= vm.options.max_call_depth {
                return Err(vm.range_error("Maximum call stack size exceeded"));
            }
            let base = vm.stack.registers.len();
            vm.stack.registers.resize(base + usize::from(registers), Value::UNDEFINED);
            vm.stack.registers[base] = this;
            let passed = argc.min(usize::from(params));
            copy_registers(&mut vm.stack.registers, args_base, base + 1, passed);
            let extra_args: Box<[Value]> = if keep_extra && argc > usize::from(params) {
                vm.stack.registers[args_base + usize::from(params)..args_base + argc].into()
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
            let frame = Frame {
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
            };
            push_frame(vm, frame);
            vm.enter_realm(realm);
            if new_target.is_some()
                && let Err(e) = initialize_fields(vm, f)
            {
                if let Some(frame) = pop_frame(vm) {
                    vm.stack.registers.truncate(frame.base);
                }
                return Err(e);
            }
            Ok(Entered::Frame)
        }
    }
}

/// Runs a native function's body; the values it kept alive in the
/// temporary roots are released when it returns.
#[inline]
pub(super) fn run_native(vm: &mut Vm, body: crate::function::NativeFn, info: &CallInfo) -> JsResult<Value> {
    let roots = vm.stack.temp_roots.len();
    let result = body(vm, info);
    vm.stack.temp_roots.truncate(roots);
    result
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
#[inline]
fn sloppy_this(vm: &mut Vm, this: Value, realm: RealmId) -> JsResult<Value> {
    // The common case, `f()` from code of the callee's own realm.
    if this.is_undefined() && realm == vm.realm_id {
        return Ok(Value::object(vm.realm.global));
    }
    sloppy_this_slow(vm, this, realm)
}

#[inline(never)]
fn sloppy_this_slow(vm: &mut Vm, this: Value, realm: RealmId) -> JsResult<Value> {
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
    let Some(frame) = vm.stack.frames.last() else { return Ok(()) };
    let this = vm.stack.registers[frame.base];
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
    let base = vm.stack.registers.len();
    vm.stack.registers.resize(base + registers, Value::UNDEFINED);
    vm.stack.registers[base] = Value::object(vm.realm.global);
    let frame = Frame {
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
    };
    push_frame(vm, frame);
    vm.stack.native_depth += 1;
    let result = run(vm);
    vm.stack.native_depth -= 1;
    result
}

/// Runs direct eval code in its caller's environment with its `this`.
pub fn run_eval(vm: &mut Vm, code: Gc<Code>, env: Option<Gc<DeclarativeEnvironment>>, this: Value) -> JsResult<Value> {
    crate::vm::register_code(vm, code);
    let registers = usize::from(code.borrow(&vm.heap).register_count);
    let base = vm.stack.registers.len();
    vm.stack.registers.resize(base + registers, Value::UNDEFINED);
    vm.stack.registers[base] = this;
    let frame = Frame {
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
    };
    push_frame(vm, frame);
    vm.stack.native_depth += 1;
    let result = run(vm);
    vm.stack.native_depth -= 1;
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

/// Finds a handler for `exception`, popping frames without one. Returns
/// `Ok(None)` to resume the loop, `Err` when it left the entry frame.
fn unwind(vm: &mut Vm, exception: Exception) -> JsResult<Option<Value>> {
    let Exception::Throw(value) = exception else {
        // Termination is not catchable: drop frames up to the entry frame.
        while let Some(frame) = pop_frame(vm) {
            vm.stack.registers.truncate(frame.base);
            if frame.entry {
                break;
            }
        }
        return Err(exception);
    };
    if vm.stack.throw_site.as_ref().is_none_or(|(thrown, _)| *thrown != value)
        && let Some(site) = vm.current_site()
    {
        vm.stack.throw_site = Some((value, site));
    }
    loop {
        let Some(frame) = vm.stack.frames.last() else { return Err(exception) };
        let code = frame.code.borrow(&vm.heap);
        let pc = vm.stack.pc;
        if let Some(h) = code.handlers.iter().find(|h| h.start <= pc && pc < h.end) {
            let (target, reg, base) = (h.target, h.exception, frame.base);
            vm.stack.registers[base + usize::from(reg.0)] = value;
            vm.stack.pc = target;
            return Ok(None);
        }
        let Some(frame) = pop_frame(vm) else { return Err(exception) };
        if let Some(g) = frame.generator {
            // A throw leaving an async function rejects its promise, which
            // the caller gets as the call's result.
            let settled = async_function::settle(vm, g, Err(value));
            vm.stack.registers.truncate(frame.base);
            if let Some(promise) = settled? {
                return Ok(deliver_result(vm, &frame, promise));
            }
            generator::complete(vm, g);
        }
        vm.stack.registers.truncate(frame.base);
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
            vm.stack.registers.truncate(frame.base);
        }
        match settled? {
            Some(promise) => result = promise,
            None => generator::complete(vm, g),
        }
    }
    if frame.construct && !value.is_object() {
        let derived = matches!(frame.code.borrow(&vm.heap).kind, CodeKind::ClassConstructor { derived: true });
        if derived && !value.is_undefined() {
            vm.stack.registers.truncate(frame.base);
            return Err(vm.type_error("Derived constructors may only return object or undefined"));
        }
        result = vm.stack.registers[frame.base];
        if result.is_hole() {
            vm.stack.registers.truncate(frame.base);
            return Err(vm.reference_error(
                "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
            ));
        }
    }
    vm.stack.registers.truncate(frame.base);
    Ok(deliver_result(vm, &frame, result))
}

/// Pops the top frame and returns to the realm its caller runs in.
#[inline]
pub(crate) fn pop_frame(vm: &mut Vm) -> Option<Frame> {
    let mut frame = vm.stack.frames.pop()?;
    frame.pc = vm.stack.pc;
    if let Some(caller) = vm.stack.frames.last() {
        vm.stack.pc = caller.pc;
    }
    vm.enter_realm(frame.caller_realm);
    Some(frame)
}

/// Pushes `frame` over the running one, whose pc (`ExecutionStack::pc`) it saves.
#[inline]
pub(crate) fn push_frame(vm: &mut Vm, frame: Frame) {
    if let Some(caller) = vm.stack.frames.last_mut() {
        caller.pc = vm.stack.pc;
    }
    vm.stack.pc = frame.pc;
    vm.stack.frames.push(frame);
}

/// Hands `result` to the caller of the popped `frame`; `Some` when the frame
/// was an entry frame (its native caller takes the result).
fn deliver_result(vm: &mut Vm, frame: &Frame, result: Value) -> Option<Value> {
    if frame.entry {
        return Some(result);
    }
    if let Some(caller) = vm.stack.frames.last() {
        let dst = caller.base + usize::from(frame.return_dst.0);
        vm.stack.pc += 1;
        vm.stack.registers[dst] = result;
    }
    None
}

/// Acts on a [`Next`] in the dispatch loop: `break` leaves the
/// instruction loop for the frame loop, which reloads the top frame.
macro_rules! next {
    ($pc:ident, $next:expr) => {
        match $next {
            Next::Fall => {}
            Next::Jump(target) => {
                $pc = target as usize;
                continue;
            }
            Next::Frame => break,
            Next::Exit(v) => return Ok(v),
        }
    };
}

/// What `execute` keeps in locals while it runs the innermost frame: its
/// context, its instructions and its pc; `None` when no frame is left.
#[inline]
fn top_frame_state(vm: &Vm) -> Option<(FrameContext, Rc<[Instruction]>, usize)> {
    let frame = vm.stack.frames.last()?;
    let c = frame.code.borrow(&vm.heap);
    let cx = FrameContext { code: frame.code, base: frame.base, ic_table: c.ic_table, strict: c.strict };
    Some((cx, Rc::clone(&c.instructions), vm.stack.pc as usize))
}

/// The dispatch loop over the top frame. Returns when the entry frame
/// returns; a thrown exception leaves with `Err` and `ExecutionStack::pc` at the
/// faulting instruction. Each arm hands its operands to the opcode's body
/// in [`ops`], inlined here.
fn execute(vm: &mut Vm) -> JsResult<Value> {
    use Instruction as Op;
    loop {
        let Some((cx, instructions, mut pc)) = top_frame_state(vm) else { return Ok(Value::UNDEFINED) };
        let cx = &cx;
        loop {
            let instruction = &instructions[pc];
            vm.stack.pc = pc as u32;
            match *instruction {
                Op::LoadUndefined { dst } => register::load(vm, cx, dst, Value::UNDEFINED),
                Op::LoadNull { dst } => register::load(vm, cx, dst, Value::NULL),
                Op::LoadBool { dst, value } => register::load(vm, cx, dst, Value::boolean(value)),
                Op::LoadHole { dst } => register::load(vm, cx, dst, Value::HOLE),
                Op::LoadInt { dst, value } => register::load_int(vm, cx, dst, value),
                Op::LoadConst { dst, index } => register::load_const(vm, cx, dst, index),
                Op::Move { dst, src } => register::move_register(vm, cx, dst, src),
                Op::PushEnv { slots } => env::push(vm, slots),
                Op::PopEnv => env::pop(vm),
                Op::CopyEnv => env::copy(vm),
                Op::SaveEnv { dst } => env::save(vm, cx, dst),
                Op::RestoreEnv { src } => env::restore(vm, cx, src),
                Op::GetEnv { dst, depth, slot } => env::get(vm, cx, dst, depth, slot),
                Op::GetEnvChecked { dst, depth, slot, name } => env::get_checked(vm, cx, dst, depth, slot, name)?,
                Op::GetImport { dst, depth, slot, name } => env::get_import(vm, cx, dst, depth, slot, name)?,
                Op::SetEnv { src, depth, slot } => env::set(vm, cx, src, depth, slot),
                Op::SetEnvChecked { src, depth, slot, name } => env::set_checked(vm, cx, src, depth, slot, name)?,
                Op::CheckTdz { src, name } => env::check_tdz(vm, cx, src, name)?,
                Op::ImportMeta { dst } => module::import_meta(vm, cx, dst)?,
                Op::ImportCall { dst, specifier, options } => module::import_call(vm, cx, dst, specifier, options)?,

                Op::GetGlobal { dst, name, ic } => global::get(vm, cx, dst, name, ic)?,
                Op::TypeofGlobal { dst, name } => global::type_of(vm, cx, dst, name)?,
                Op::HasGlobalBinding { dst, name } => global::has_binding(vm, cx, dst, name)?,
                Op::SetGlobal { src, name, strict, ic } => global::set(vm, cx, src, name, strict, ic)?,
                Op::InitGlobalLexical { src, name } => global::init_lexical(vm, cx, src, name),
                Op::InitGlobalFunction { src, name, configurable } => {
                    global::init_function(vm, cx, src, name, configurable)?;
                }
                Op::DeleteGlobal { dst, name } => global::delete(vm, cx, dst, name)?,
                Op::GetNamed { dst, obj, name, ic } => property::get_named(vm, cx, dst, obj, name, ic)?,
                Op::SetNamed { obj, name, src, ic, strict } => property::set_named(vm, cx, obj, name, src, ic, strict)?,
                Op::DefineNamed { obj, name, src, ic } => property::define_named(vm, cx, obj, name, src, ic)?,
                Op::GetIndexed { dst, obj, key } => property::get_indexed(vm, cx, dst, obj, key)?,
                Op::GetIndexedConvertKey { dst, obj, key } => property::get_indexed_convert_key(vm, cx, dst, obj, key)?,
                Op::SetIndexed { obj, key, src, strict } => property::set_indexed(vm, cx, obj, key, src, strict)?,
                Op::LoadSuperBase { dst } => property::load_super_base(vm, cx, dst)?,
                Op::GetSuper { dst, proto, key } => property::get_super(vm, cx, dst, proto, key)?,
                Op::SetSuper { proto, key, src, strict } => property::set_super(vm, cx, proto, key, src, strict)?,
                Op::Delete { dst, obj, key, strict } => property::delete(vm, cx, dst, obj, key, strict)?,
                Op::DefineField { obj, key, src } => literal::define_field(vm, cx, obj, key, src)?,
                Op::DefineMethod { obj, key, func, enumerable } => literal::method(vm, cx, obj, key, func, enumerable)?,
                Op::DefineAccessor { obj, key, func, setter, enumerable } => {
                    literal::accessor(vm, cx, obj, key, func, setter, enumerable)?;
                }
                Op::CopyDataProperties { dst, src } => literal::copy_data_properties(vm, cx, dst, src)?,
                Op::SetFunctionName { func, key, prefix } => literal::set_function_name(vm, cx, func, key, prefix)?,
                Op::SetProtoLiteral { obj, proto } => literal::set_proto_literal(vm, cx, obj, proto)?,
                Op::ObjectRest { dst, src, excluded, count } => {
                    literal::object_rest(vm, cx, dst, src, excluded, count)?;
                }
                Op::NewRegExp { dst, pattern, flags } => literal::new_regexp(vm, cx, dst, pattern, flags)?,
                Op::NewObject { dst } => literal::new_object(vm, cx, dst),
                Op::NewArray { dst, capacity } => literal::new_array(vm, cx, dst, capacity),
                Op::NewArrayOfConstants { dst, first, count } => {
                    literal::new_array_of_constants(vm, cx, dst, first, count);
                }
                Op::ArrayPush { array, src } => literal::array_push(vm, cx, array, src),
                Op::ArrayPushHole { array } => literal::array_push_hole(vm, cx, array),
                Op::ArraySpread { array, src } => literal::array_spread(vm, cx, array, src)?,
                Op::Closure { dst, index } => function::closure(vm, cx, dst, index),
                Op::LoadCallee { dst } => function::load_callee(vm, cx, dst),
                Op::LoadNewTarget { dst } => function::load_new_target(vm, cx, dst),
                Op::CreateArguments { dst, mapped } => function::create_arguments(vm, cx, dst, mapped),
                Op::CreateRestArray { dst, from } => function::create_rest_array(vm, cx, dst, from),
                Op::Call { dst, callee, this, args, argc } => {
                    next!(pc, call::call(vm, cx, pc, (dst, callee, this, args, argc))?);
                }
                Op::CallSpread { dst, callee, this, args } => call::call_spread(vm, cx, pc, (dst, callee, this, args))?,
                Op::New { dst, callee, args, argc } => next!(pc, call::new(vm, cx, pc, (dst, callee, args, argc))?),
                Op::NewSpread { dst, callee, args } => call::new_spread(vm, cx, pc, (dst, callee, args))?,
                Op::CallEval { dst, callee, args, argc, scope } => {
                    call::call_eval(vm, cx, pc, (dst, callee, args, argc, scope))?;
                }
                Op::Return { src } => next!(pc, call::return_value(vm, cx, src)?),
                Op::CreateClass { dst, proto_dst, index, heritage } => {
                    class::create_class(vm, cx, dst, proto_dst, index, heritage)?;
                }
                Op::SetClassFields { ctor, fields } => class::set_class_fields(vm, cx, ctor, fields),
                Op::LoadFieldKey { dst, index } => class::load_field_key(vm, cx, dst, index),
                Op::SetHomeObject { func, home } => class::set_home_object(vm, cx, func, home),
                Op::SuperCall { dst, args, argc } => class::super_call_registers(vm, cx, dst, args, argc)?,
                Op::SuperCallSpread { dst, args } => class::super_call_spread(vm, cx, dst, args)?,
                Op::SuperConstruct { dst, func, args, argc } => class::super_construct(vm, cx, dst, func, args, argc)?,
                Op::SuperConstructSpread { dst, func, args } => class::super_construct_spread(vm, cx, dst, func, args)?,
                Op::BindThis { src } => class::bind_this(vm, cx, src)?,
                Op::InitializeInstanceElements { obj, func } => class::initialize_instance_elements(vm, cx, obj, func)?,
                Op::CheckThis { dst } => class::check_this(vm, cx, dst)?,
                Op::NewPrivateName { dst, description } => class::new_private_name(vm, cx, dst, description),
                Op::GetPrivate { dst, obj, key } => class::get_private(vm, cx, dst, obj, key)?,
                Op::SetPrivate { obj, key, src } => class::set_private(vm, cx, obj, key, src)?,
                Op::DefinePrivate { obj, key, src, method } => class::private_field(vm, cx, obj, key, src, method)?,
                Op::DefinePrivateAccessor { obj, key, getter, setter } => {
                    class::private_accessor(vm, cx, obj, key, getter, setter)?;
                }
                Op::HasPrivate { dst, obj, key } => class::has_private(vm, cx, dst, obj, key)?,
                Op::Add { dst, lhs, rhs } => arith::add(vm, cx, dst, lhs, rhs)?,
                Op::Sub { dst, lhs, rhs } => arith::sub(vm, cx, dst, lhs, rhs)?,
                Op::Mul { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::Mul, dst, lhs, rhs)?,
                Op::Div { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::Div, dst, lhs, rhs)?,
                Op::Rem { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::Rem, dst, lhs, rhs)?,
                Op::Exp { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::Exp, dst, lhs, rhs)?,
                Op::BitAnd { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::BitAnd, dst, lhs, rhs)?,
                Op::BitOr { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::BitOr, dst, lhs, rhs)?,
                Op::BitXor { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::BitXor, dst, lhs, rhs)?,
                Op::Shl { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::Shl, dst, lhs, rhs)?,
                Op::Sar { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::Sar, dst, lhs, rhs)?,
                Op::Shr { dst, lhs, rhs } => arith::binary(vm, cx, NumericOp::Shr, dst, lhs, rhs)?,
                Op::AddInt { dst, lhs, value } => arith::binary_int(vm, cx, NumericOp::Add, dst, lhs, value)?,
                Op::SubInt { dst, lhs, value } => arith::binary_int(vm, cx, NumericOp::Sub, dst, lhs, value)?,
                Op::BitAndInt { dst, lhs, value } => arith::binary_int(vm, cx, NumericOp::BitAnd, dst, lhs, value)?,
                Op::SarInt { dst, lhs, value } => arith::binary_int(vm, cx, NumericOp::Sar, dst, lhs, value)?,
                Op::NumericInt { op, dst, lhs, value } => arith::binary_int(vm, cx, op, dst, lhs, value)?,
                Op::Neg { dst, src } => arith::neg(vm, cx, dst, src)?,
                Op::ToNumber { dst, src } => arith::to_number(vm, cx, dst, src)?,
                Op::ToNumeric { dst, src } => arith::to_numeric_value(vm, cx, dst, src)?,
                Op::BitNot { dst, src } => arith::bit_not(vm, cx, dst, src)?,
                Op::Inc { dst, src } => arith::increment(vm, cx, dst, src, 1)?,
                Op::Dec { dst, src } => arith::increment(vm, cx, dst, src, -1)?,
                Op::Eq { dst, lhs, rhs } => compare::loosely_equal(vm, cx, dst, lhs, rhs, false)?,
                Op::Ne { dst, lhs, rhs } => compare::loosely_equal(vm, cx, dst, lhs, rhs, true)?,
                Op::StrictEq { dst, lhs, rhs } => compare::strictly_equal(vm, cx, dst, lhs, rhs, false),
                Op::StrictNe { dst, lhs, rhs } => compare::strictly_equal(vm, cx, dst, lhs, rhs, true),
                Op::Lt { dst, lhs, rhs } => compare::relational(vm, cx, CompareOp::Lt, dst, lhs, rhs)?,
                Op::Le { dst, lhs, rhs } => compare::relational(vm, cx, CompareOp::Le, dst, lhs, rhs)?,
                Op::Gt { dst, lhs, rhs } => compare::relational(vm, cx, CompareOp::Gt, dst, lhs, rhs)?,
                Op::Ge { dst, lhs, rhs } => compare::relational(vm, cx, CompareOp::Ge, dst, lhs, rhs)?,
                Op::InstanceOf { dst, lhs, rhs } => compare::instance_of_operator(vm, cx, dst, lhs, rhs)?,
                Op::In { dst, lhs, rhs } => compare::has_property_operator(vm, cx, dst, lhs, rhs)?,
                Op::Not { dst, src } => conversion::not(vm, cx, dst, src),
                Op::TypeOf { dst, src } => conversion::type_of_operator(vm, cx, dst, src),
                Op::ToString { dst, src } => conversion::to_string_value(vm, cx, dst, src)?,
                Op::ToPropertyKey { dst, src } => conversion::to_property_key_value(vm, cx, dst, src)?,
                Op::ToObject { dst, src } => conversion::to_object_value(vm, cx, dst, src)?,
                Op::Jump { target } => next!(pc, control::jump(vm, pc, target)?),
                Op::JumpIfTrue { cond, target } => next!(pc, control::jump_if(vm, cx, cond, true, target)),
                Op::JumpIfFalse { cond, target } => next!(pc, control::jump_if(vm, cx, cond, false, target)),
                Op::JumpUnless { op, lhs, rhs, target } => {
                    next!(pc, control::jump_unless(vm, cx, op, lhs, rhs, target)?);
                }
                Op::JumpUnlessInt { op, lhs, value, target } => {
                    next!(pc, control::jump_unless_int(vm, cx, op, lhs, value, target)?);
                }
                Op::JumpIfNullish { src, target } => next!(pc, control::jump_if_nullish(vm, cx, src, true, target)),
                Op::JumpIfNotNullish { src, target } => next!(pc, control::jump_if_nullish(vm, cx, src, false, target)),
                Op::JumpIfNotUndefined { src, target } => next!(pc, control::jump_if_defined(vm, cx, src, target)),
                Op::JumpIfInt { src, value, target } => next!(pc, control::jump_if_int(vm, cx, src, value, target)),
                Op::Throw { src } => return Err(control::throw(vm, cx, src)),
                Op::ThrowConstAssign { .. } => return Err(control::throw_const_assign(vm)),
                Op::ThrowReferenceError { message } => return Err(control::throw_reference_error(vm, cx, message)),
                Op::Nop => {}

                Op::GetIterator { dst, src } => iteration::get_iterator(vm, cx, dst, src)?,
                Op::IteratorNext { dst, iter, done } => next!(pc, iteration::iterator_next(vm, cx, dst, iter, done)?),
                Op::IteratorClose { iter } => iteration::iterator_close(vm, cx, iter)?,
                Op::IteratorCloseOnThrow { iter } => iteration::iterator_close_on_throw(vm, cx, iter)?,
                Op::GetAsyncIterator { dst, src } => iteration::get_async_iterator(vm, cx, dst, src)?,
                Op::AsyncIteration(op) => next!(pc, iteration::async_iteration(vm, cx, op)?),
                Op::ThrowIfNotObject { src } => iteration::throw_if_not_object(vm, cx, src)?,
                Op::ForInStart { dst, obj } => iteration::for_in_start(vm, cx, dst, obj)?,
                Op::ForInNext { dst, iter, done } => next!(pc, iteration::for_in_next(vm, cx, dst, iter, done)?),

                Op::Dispose(op) => next!(pc, dispose::execute(vm, cx, op)?),
                Op::GeneratorStart => next!(pc, suspend::generator_start(vm, cx, pc)?),
                Op::AsyncStart => async_function::start(vm),
                Op::Await { value, .. } => next!(pc, suspend::await_value(vm, cx, pc, value)?),
                Op::Yield { value, raw, .. } => next!(pc, suspend::yield_value(vm, cx, pc, value, raw)),
                Op::AsyncYield { value, mode } => next!(pc, suspend::async_yield(vm, cx, pc, value, mode)?),
                Op::AsyncDelegateStep { result, iter, value, mode } => {
                    suspend::async_delegate(vm, cx, result, iter, value, mode)?;
                }
                Op::YieldDelegateStep { result, iter, value, mode } => {
                    suspend::delegate(vm, cx, result, iter, value, mode)?;
                }
                Op::ThrowMissingThrowMethod => return Err(suspend::throw_missing_throw_method(vm)),
                Op::WithGet { dst, obj, name, this_dst, found } => {
                    next!(pc, with::get(vm, cx, (dst, obj, name, this_dst, found))?);
                }
                Op::WithSet { obj, name, src, found } => next!(pc, with::set(vm, cx, obj, name, src, found)?),
                Op::WithResolve { dst, obj, name, found } => next!(pc, with::resolve(vm, cx, dst, obj, name, found)?),
                Op::WithRefGet { dst, base, name } => with::ref_get(vm, cx, dst, base, name)?,
                Op::WithRefSet { base, name, src } => with::ref_set(vm, cx, base, name, src)?,
                Op::WithDelete { dst, obj, name, found } => next!(pc, with::delete(vm, cx, dst, obj, name, found)?),
            }
            pc += 1;
        }
    }
}

/// `IsConstructor`.
pub fn is_constructor(vm: &Vm, o: Gc<JsObject>) -> bool {
    o.borrow(&vm.heap).is_constructor(&vm.heap)
}

/// Reads a string cell's text (for diagnostics).
pub(crate) fn string_text(vm: &mut Vm, s: Gc<JsString>) -> String {
    let s = JsString::flatten(&mut vm.heap, s);
    s.borrow(&vm.heap).flat().to_rust_string()
}
