//! The per-function compiler state: instructions, constants, registers,
//! binding locations, scopes and the control stack.

use ahash::AHashMap as HashMap;
use std::rc::Rc;

use js_gc::Gc;
use oxc_ast::ast::{
    ArrowFunctionBody, ArrowFunctionExpression, BindingPattern, FormalParameters, Function, Program, Statement,
};
use oxc_span::GetSpan;
use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::{SymbolFlags, SymbolId};

use super::control::Control;
use super::scope::{Analysis, Location};
use super::{CResult, CompileError, ConstKey, Locations, MAX_COMPILE_DEPTH, THIS_REG, atom_value, build_code};
use crate::bytecode::{AsyncIterationOp, Code, CodeKind, DisposeOp, Handler, IcIndex, Instruction, Reg, Source};
use crate::value::Value;
use crate::vm::Vm;

/// Compiles one function (or script) body.
#[allow(clippy::struct_excessive_bools, reason = "independent facts about the code being compiled")]
pub(crate) struct FunctionCompiler<'c, 'a> {
    pub vm: &'c mut Vm,
    pub analysis: &'c Analysis,
    pub source: &'c Rc<Source>,
    pub boundary: ScopeId,
    pub kind: CodeKind,
    pub strict: bool,
    pub name: String,
    pub instructions: Vec<Instruction>,
    positions: Vec<(u32, u32)>,
    constants: Vec<Value>,
    const_index: HashMap<ConstKey, u32>,
    pub functions: Vec<Gc<Code>>,
    pub handlers: Vec<Handler>,
    pub locations: Locations,
    next_reg: u16,
    max_reg: u16,
    ic_count: u32,
    pub scope_stack: Vec<ScopeId>,
    pub control: Vec<Control<'a>>,
    depth: u32,
    pub completion: Option<Reg>,
    /// The `with` objects in effect, innermost last (those of enclosing
    /// functions first).
    pub with_objects: Vec<super::with::WithObject>,
    pub arguments: Option<Location>,
    pub param_count: u16,
    pub length: u16,
    /// For code inside a direct eval: the caller's visible bindings.
    pub outer_scope: Option<Rc<crate::bytecode::EvalScope>>,
    /// The eval program's root scope (where the caller's environment
    /// chain continues).
    pub eval_root: Option<ScopeId>,
    /// How many leading directives the compiler put there itself (strict
    /// eval code is parsed behind its own `"use strict"`): they are not a
    /// completion value.
    pub injected_directives: usize,
    /// Scope tables of direct eval call sites in this code.
    pub eval_scopes: Vec<Rc<crate::bytecode::EvalScope>>,
    /// Parameter slots of a mapped arguments object.
    pub mapped_parameters: Vec<u32>,
    /// Compiling a class field initialiser or static block.
    pub in_class_element: bool,
    /// An async function or arrow: `await` suspends it.
    pub is_async: bool,
    /// The name bindings of the enclosing named function expressions
    /// (immutable: assignments are ignored, or throw in strict code).
    pub function_names: Vec<SymbolId>,
    /// This function's own name binding, if it is a named function
    /// expression: initialised to the callee on entry.
    pub own_name: Option<SymbolId>,
    /// How many `Await`s were emitted (a module body with any has
    /// top-level await).
    pub await_count: u32,
    /// In a module's top level: the environment slot of `*default*`.
    pub module_default_slot: Option<u32>,
    /// While a parameter list with expressions is bound: the parameters
    /// not bound yet, in their TDZ (§10.2.11 step 28 binds them one after
    /// the other, so a default can read only the earlier ones).
    pub parameters_in_tdz: Vec<SymbolId>,
    /// The `finally` blocks being compiled in script or eval code: the
    /// control-stack depth where each began and the completion register
    /// outside it (`break` out of one carries its own value out).
    pub finally_completions: Vec<(usize, Reg)>,
    /// Compiling the parameter list (its expressions may call `eval`,
    /// whose `var`s may not redeclare a parameter).
    pub in_parameters: bool,
    /// The parameters' names.
    pub parameter_names: Vec<String>,
}

impl<'c, 'a> FunctionCompiler<'c, 'a> {
    /// A compiler for the function whose scope is `boundary`.
    pub fn new(
        vm: &'c mut Vm,
        analysis: &'c Analysis,
        source: &'c Rc<Source>,
        boundary: ScopeId,
        kind: CodeKind,
        strict: bool,
        name: &str,
    ) -> Self {
        Self {
            vm,
            analysis,
            source,
            boundary,
            kind,
            strict,
            name: name.to_owned(),
            instructions: Vec::new(),
            positions: Vec::new(),
            constants: Vec::new(),
            const_index: HashMap::new(),
            functions: Vec::new(),
            handlers: Vec::new(),
            locations: HashMap::new(),
            next_reg: 1,
            max_reg: 1,
            ic_count: 0,
            scope_stack: Vec::new(),
            control: Vec::new(),
            depth: 0,
            completion: None,
            with_objects: Vec::new(),
            arguments: None,
            param_count: 0,
            length: 0,
            outer_scope: None,
            eval_root: None,
            injected_directives: 0,
            eval_scopes: Vec::new(),
            mapped_parameters: Vec::new(),
            in_class_element: false,
            is_async: false,
            function_names: Vec::new(),
            own_name: None,
            await_count: 0,
            module_default_slot: None,
            parameters_in_tdz: Vec::new(),
            finally_completions: Vec::new(),
            in_parameters: false,
            parameter_names: Vec::new(),
        }
    }

    /// A compiler for a function nested in this one (inherits the direct
    /// eval context and the nesting depth).
    pub fn child(&mut self, boundary: ScopeId, kind: CodeKind, strict: bool, name: &str) -> FunctionCompiler<'_, 'a> {
        let mut fc = FunctionCompiler::new(self.vm, self.analysis, self.source, boundary, kind, strict, name);
        fc.outer_scope.clone_from(&self.outer_scope);
        // Arrow functions keep the class-element context (they have no
        // `arguments` of their own).
        fc.in_class_element = self.in_class_element && kind == CodeKind::Arrow;
        fc.eval_root = self.eval_root;
        fc.depth = self.depth;
        fc.function_names.clone_from(&self.function_names);
        fc.with_objects = self.with_objects.iter().filter_map(super::with::WithObject::for_closure).collect();
        fc
    }

    // ----- emitting -----

    /// Appends an instruction and returns its index.
    pub fn emit(&mut self, instruction: Instruction) -> usize {
        if matches!(instruction, Instruction::Await { .. }) {
            self.await_count += 1;
        }
        self.instructions.push(instruction);
        self.instructions.len() - 1
    }

    /// The index the next instruction will get.
    pub fn here(&self) -> u32 {
        self.instructions.len() as u32
    }

    /// Records that code from here on comes from source offset `offset`.
    pub fn mark_position(&mut self, offset: u32) {
        let pc = self.here();
        if let Some(last) = self.positions.last_mut() {
            if last.0 == pc {
                last.1 = offset;
                return;
            }
            if last.1 == offset {
                return;
            }
        }
        self.positions.push((pc, offset));
    }

    /// Emits a jump to be patched later.
    pub fn emit_jump(&mut self) -> usize {
        self.emit(Instruction::Jump { target: u32::MAX })
    }

    /// Points the jump (or conditional jump) at `at` to `target`.
    pub fn patch(&mut self, at: usize, target: u32) {
        match &mut self.instructions[at] {
            Instruction::Jump { target: t }
            | Instruction::JumpIfTrue { target: t, .. }
            | Instruction::JumpIfFalse { target: t, .. }
            | Instruction::JumpIfNullish { target: t, .. }
            | Instruction::JumpIfNotNullish { target: t, .. }
            | Instruction::JumpIfNotUndefined { target: t, .. }
            | Instruction::JumpIfInt { target: t, .. }
            | Instruction::JumpUnless { target: t, .. }
            | Instruction::JumpUnlessInt { target: t, .. }
            | Instruction::IteratorNext { done: t, .. }
            | Instruction::WithGet { found: t, .. }
            | Instruction::WithSet { found: t, .. }
            | Instruction::WithDelete { found: t, .. }
            | Instruction::WithResolve { found: t, .. }
            | Instruction::ForInNext { done: t, .. }
            | Instruction::Dispose(DisposeOp::Step { done: t, .. })
            | Instruction::AsyncIteration(
                AsyncIterationOp::Step { done: t, .. } | AsyncIterationOp::Return { skip: t, .. },
            ) => *t = target,
            _ => {}
        }
    }

    /// Points the jump at `at` to the next instruction.
    pub fn patch_here(&mut self, at: usize) {
        let here = self.here();
        self.patch(at, here);
    }

    /// Appends `values` to the constant pool as one run (not shared with
    /// other entries, so the run stays contiguous) and returns the index of
    /// its first entry.
    pub fn constant_run(&mut self, values: &[Value]) -> u32 {
        let first = self.constants.len() as u32;
        self.constants.extend_from_slice(values);
        first
    }

    /// A constant-pool index for `value`.
    pub fn constant(&mut self, value: Value) -> u32 {
        let key = value.to_bits();
        if let Some(&i) = self.const_index.get(&key) {
            return i;
        }
        self.constants.push(value);
        let i = (self.constants.len() - 1) as u32;
        self.const_index.insert(key, i);
        i
    }

    /// The constant index of the atom for `name`.
    pub fn name_constant(&mut self, name: &str) -> u32 {
        let units: Vec<u16> = name.encode_utf16().collect();
        let atom = atom_value(self.vm, &units);
        self.constant(atom)
    }

    /// A fresh inline-cache slot.
    pub fn ic(&mut self) -> IcIndex {
        self.ic_count += 1;
        self.ic_count - 1
    }

    // ----- registers -----

    /// A new temporary register.
    pub fn temp(&mut self) -> CResult<Reg> {
        let r = self.next_reg;
        self.next_reg = self.next_reg.checked_add(1).ok_or_else(too_many_registers)?;
        self.max_reg = self.max_reg.max(self.next_reg);
        Ok(Reg(r))
    }

    /// `n` consecutive new registers; returns the first.
    pub fn temps(&mut self, n: usize) -> CResult<Reg> {
        let first = self.next_reg;
        for _ in 0..n {
            self.temp()?;
        }
        Ok(Reg(first))
    }

    /// The temporary-register watermark, to release temporaries with
    /// [`FunctionCompiler::release`].
    pub fn mark(&self) -> u16 {
        self.next_reg
    }

    /// Frees every temporary allocated since `mark`.
    pub fn release(&mut self, mark: u16) {
        self.next_reg = mark;
    }

    /// Guards recursion depth on deeply nested ASTs.
    pub fn enter_nesting(&mut self) -> CResult<()> {
        self.depth += 1;
        if self.depth > MAX_COMPILE_DEPTH {
            return Err(CompileError::Range("Maximum nesting depth exceeded while compiling".to_owned()));
        }
        Ok(())
    }

    /// Leaves one level of nesting.
    pub fn leave_nesting(&mut self) {
        self.depth -= 1;
    }

    // ----- scopes and bindings -----

    /// The innermost scope being compiled.
    pub fn current_scope(&self) -> ScopeId {
        self.scope_stack.last().copied().unwrap_or(self.boundary)
    }

    /// Assigns locations to every binding of this function's scopes.
    pub(super) fn allocate_bindings(&mut self) -> CResult<()> {
        let scoping = &self.analysis.scoping;
        let is_script_top = self.kind == CodeKind::Script;
        // Sloppy eval code declares its `var`s and functions on the global
        // object; its lexical declarations (and everything in strict eval)
        // stay local.
        let is_eval_top = self.kind == CodeKind::Eval && !self.strict;
        let scopes: Vec<ScopeId> = self.analysis.scopes_of(self.boundary).to_vec();
        for scope in scopes {
            let mut symbols: Vec<SymbolId> = scoping.get_bindings(scope).values().copied().collect();
            symbols.sort();
            for symbol in symbols {
                if self.locations.contains_key(&symbol) {
                    // A simple parameter already lives in its argument
                    // register.
                    continue;
                }
                let flags = scoping.symbol_flags(symbol);
                let is_var = flags.intersects(SymbolFlags::FunctionScopedVariable | SymbolFlags::Function);
                let location =
                    if self.kind == CodeKind::Module && scope == self.boundary && flags.contains(SymbolFlags::Import) {
                        Location::Import { scope, slot: self.analysis.slot(symbol).unwrap_or(0) }
                    } else if is_script_top && scope == self.boundary {
                        if is_var { Location::GlobalVar } else { Location::GlobalLexical }
                    } else if is_eval_top && scope == self.boundary && is_var {
                        self.eval_var_location(scoping.symbol_name(symbol))
                    } else if let Some(slot) = self.analysis.slot(symbol) {
                        Location::Env { scope, slot }
                    } else {
                        Location::Register(self.temp()?.0)
                    };
                self.locations.insert(symbol, location);
            }
        }
        Ok(())
    }

    /// Where `symbol` lives (bindings of enclosing functions are always in
    /// environments).
    pub fn location_of(&self, symbol: SymbolId) -> Location {
        if let Some(&l) = self.locations.get(&symbol) {
            return l;
        }
        let scope = self.analysis.scoping.symbol_scope_id(symbol);
        let flags = self.analysis.scoping.scope_flags(scope);
        if self.analysis.module_scope == Some(scope) {
            let slot = self.analysis.slot(symbol).unwrap_or(0);
            if self.analysis.scoping.symbol_flags(symbol).contains(SymbolFlags::Import) {
                return Location::Import { scope, slot };
            }
            return Location::Env { scope, slot };
        }
        if flags.contains(oxc_syntax::scope::ScopeFlags::Top) {
            let sflags = self.analysis.scoping.symbol_flags(symbol);
            let is_var = sflags.intersects(SymbolFlags::FunctionScopedVariable | SymbolFlags::Function);
            if self.eval_root == Some(scope) {
                // Eval code: sloppy `var`s are global, the rest local.
                if is_var && !flags.is_strict_mode() {
                    return self.eval_var_location(self.analysis.scoping.symbol_name(symbol));
                }
                return Location::Env { scope, slot: self.analysis.slot(symbol).unwrap_or(0) };
            }
            return if is_var { Location::GlobalVar } else { Location::GlobalLexical };
        }
        Location::Env { scope, slot: self.analysis.slot(symbol).unwrap_or(0) }
    }

    /// Where a `var` of sloppy eval code lives: the caller's binding of its
    /// variable environment, or else a global.
    fn eval_var_location(&self, name: &str) -> Location {
        // A catch parameter of the caller is nearer than the variable
        // environment: the eval code's references (its initialisers too)
        // reach it first (B.3.5).
        let caught = self.outer_scope.as_ref().is_some_and(|o| o.catch_parameters.iter().any(|n| n == name));
        if self.outer_binding(name).is_some_and(|b| b.in_var_env || caught) {
            Location::EvalOuterVar
        } else if self.outer_scope.as_ref().is_some_and(|o| !o.var_env_global && o.var_object.is_some()) {
            Location::EvalVarObject
        } else {
            Location::GlobalVar
        }
    }

    /// Loads the variable object of a direct eval's caller into `dst`.
    pub(super) fn load_eval_var_object(&mut self, dst: Reg) -> bool {
        let (Some(outer), Some(root)) = (&self.outer_scope, self.eval_root) else { return false };
        let Some((depth, slot)) = outer.var_object else { return false };
        let extra = self.env_depth(root) + u16::from(self.analysis.env_slot_count(root) > 0);
        self.emit(Instruction::GetEnv { dst, depth: depth + extra, slot });
        true
    }

    /// The number of environments between the current scope and `target`.
    pub fn env_depth(&self, target: ScopeId) -> u16 {
        let scoping = &self.analysis.scoping;
        let mut depth = 0;
        let mut s = Some(self.current_scope());
        while let Some(scope) = s {
            if scope == target {
                break;
            }
            if self.analysis.env_slot_count(scope) > 0 {
                depth += 1;
            }
            s = scoping.scope_parent_id(scope);
        }
        depth
    }

    /// Enters a scope: pushes its environment when it has captured
    /// bindings, puts its `let`/`const`/`class` registers in their TDZ and
    /// hoists its function declarations.
    pub fn enter_scope(&mut self, scope: Option<ScopeId>, body: &'a [Statement<'a>]) -> CResult<bool> {
        let Some(scope) = scope else { return Ok(false) };
        self.scope_stack.push(scope);
        let slots = self.analysis.env_slot_count(scope);
        let pushed = slots > 0 && scope != self.boundary;
        if pushed {
            self.emit(Instruction::PushEnv { slots });
            self.control.push(Control::Env);
        }
        self.init_lexical_registers(scope);
        self.hoist_functions(body)?;
        Ok(pushed)
    }

    /// Leaves a scope entered with [`FunctionCompiler::enter_scope`].
    pub fn leave_scope(&mut self, pushed: bool) {
        if pushed {
            self.emit(Instruction::PopEnv);
            self.control.pop();
        }
        self.scope_stack.pop();
    }

    fn init_lexical_registers(&mut self, scope: ScopeId) {
        let scoping = &self.analysis.scoping;
        let mut regs = Vec::new();
        for &symbol in scoping.get_bindings(scope).values() {
            let flags = scoping.symbol_flags(symbol);
            if flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::ConstVariable | SymbolFlags::Class)
                && !flags.contains(SymbolFlags::Function)
                && let Some(Location::Register(r)) = self.locations.get(&symbol)
                && self.analysis.may_read_in_tdz(symbol)
            {
                regs.push(*r);
            }
        }
        regs.sort_unstable();
        for r in regs {
            self.emit(Instruction::LoadHole { dst: Reg(r) });
        }
    }

    /// Hoists the function declarations of a block compiled in an already
    /// entered scope.
    pub fn hoist_block_functions(&mut self, body: &'a [Statement<'a>]) -> CResult<()> {
        self.hoist_functions(body)
    }

    /// Creates the closures of function declarations at the start of their
    /// scope.
    pub(super) fn hoist_functions(&mut self, body: &'a [Statement<'a>]) -> CResult<()> {
        for statement in body {
            let Statement::FunctionDeclaration(function) = statement else { continue };
            let Some(id) = &function.id else { continue };
            let Some(symbol) = id.symbol_id.get() else { continue };
            let mark = self.mark();
            let r = self.temp()?;
            self.compile_function_expression(function, r, Some(id.name.as_str()))?;
            if self.location_of(symbol) == Location::GlobalVar {
                // CreateGlobalFunctionBinding: eval code's are deletable.
                let name = self.name_constant(id.name.as_str());
                self.emit(Instruction::InitGlobalFunction { src: r, name, configurable: self.kind == CodeKind::Eval });
            } else {
                self.store_binding(symbol, r, true)?;
            }
            self.release(mark);
        }
        Ok(())
    }

    /// Writes `src` to a binding; `init` for declarations (no TDZ check, no
    /// const check).
    pub fn store_binding(&mut self, symbol: SymbolId, src: Reg, init: bool) -> CResult<()> {
        self.store_binding_at(symbol, src, init, None)
    }

    /// [`FunctionCompiler::store_binding`] for a write at source offset
    /// `at`: register writes past the declaration skip the TDZ check.
    pub fn store_binding_at(&mut self, symbol: SymbolId, src: Reg, init: bool, at: Option<u32>) -> CResult<()> {
        let flags = self.analysis.scoping.symbol_flags(symbol);
        let name = self.analysis.scoping.symbol_name(symbol).to_owned();
        if !self.parameters_in_tdz.is_empty() && self.parameters_in_tdz.contains(&symbol) {
            if init {
                self.parameters_in_tdz.retain(|&s| s != symbol);
            } else {
                self.throw_parameter_tdz(&name)?;
            }
        }
        if let Location::Import { .. } = self.location_of(symbol) {
            // Import bindings are immutable (§9.1.1.5.5): an uninitialised
            // one reports its TDZ first.
            let c = self.name_constant(&name);
            let _ = self.load_binding(symbol, src, true)?;
            self.emit(Instruction::ThrowConstAssign { name: c });
            return Ok(());
        }
        if !init && self.function_names.contains(&symbol) {
            // A named function expression's own name is immutable.
            if self.strict {
                let c = self.name_constant(&name);
                self.emit(Instruction::ThrowConstAssign { name: c });
            }
            return Ok(());
        }
        if !init && flags.contains(SymbolFlags::ConstVariable) {
            let c = self.name_constant(&name);
            // A const in its TDZ reports the TDZ error first.
            let _ = self.load_binding(symbol, src, true)?;
            self.emit(Instruction::ThrowConstAssign { name: c });
            return Ok(());
        }
        let lexical =
            flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::ConstVariable | SymbolFlags::Class);
        match self.location_of(symbol) {
            Location::Register(r) => {
                if !init && lexical && !at.is_some_and(|at| self.analysis.initialized_at(symbol, at)) {
                    let c = self.name_constant(&name);
                    self.emit(Instruction::CheckTdz { src: Reg(r), name: c });
                }
                if Reg(r) != src {
                    self.emit(Instruction::Move { dst: Reg(r), src });
                }
            }
            Location::Env { scope, slot } => {
                let depth = self.env_depth(scope);
                if !init && lexical {
                    let c = self.name_constant(&name);
                    self.emit(Instruction::SetEnvChecked { src, depth, slot, name: c });
                } else {
                    self.emit(Instruction::SetEnv { src, depth, slot });
                }
            }
            Location::GlobalVar => {
                let c = self.name_constant(&name);
                let ic = self.ic();
                self.emit(Instruction::SetGlobal { src, name: c, strict: false, ic });
            }
            Location::EvalOuterVar => {
                if let Some(b) = self.outer_binding(&name) {
                    self.emit(Instruction::SetEnv { src, depth: b.depth, slot: b.slot });
                }
            }
            Location::EvalVarObject => {
                let mark = self.mark();
                let obj = self.temp()?;
                if self.load_eval_var_object(obj) {
                    let c = self.name_constant(&name);
                    let ic = self.ic();
                    self.emit(Instruction::SetNamed { obj, name: c, src, ic, strict: false });
                }
                self.release(mark);
            }
            Location::GlobalLexical => {
                let c = self.name_constant(&name);
                if init {
                    self.emit(Instruction::InitGlobalLexical { src, name: c });
                } else {
                    let ic = self.ic();
                    self.emit(Instruction::SetGlobal { src, name: c, strict: true, ic });
                }
            }
            // Handled above: import bindings are never written.
            Location::Import { .. } => {}
        }
        Ok(())
    }

    /// Reads a binding into `dst` (or returns its own register when
    /// `copy` is false and it has one).
    pub fn load_binding(&mut self, symbol: SymbolId, dst: Reg, copy: bool) -> CResult<Reg> {
        self.load_binding_at(symbol, dst, copy, None)
    }

    /// [`FunctionCompiler::load_binding`] for a use at source offset `at`:
    /// register reads past the declaration skip the TDZ check.
    pub fn load_binding_at(&mut self, symbol: SymbolId, dst: Reg, copy: bool, at: Option<u32>) -> CResult<Reg> {
        if !self.parameters_in_tdz.is_empty() && self.parameters_in_tdz.contains(&symbol) {
            let name = self.analysis.scoping.symbol_name(symbol).to_owned();
            self.throw_parameter_tdz(&name)?;
        }
        let flags = self.analysis.scoping.symbol_flags(symbol);
        let lexical =
            flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::ConstVariable | SymbolFlags::Class);
        let in_register = matches!(self.location_of(symbol), Location::Register(_));
        let lexical = lexical && !(in_register && at.is_some_and(|at| self.analysis.initialized_at(symbol, at)));
        let name = self.analysis.scoping.symbol_name(symbol).to_owned();
        match self.location_of(symbol) {
            Location::Register(r) => {
                if lexical {
                    let c = self.name_constant(&name);
                    self.emit(Instruction::CheckTdz { src: Reg(r), name: c });
                }
                if !copy {
                    return Ok(Reg(r));
                }
                if Reg(r) != dst {
                    self.emit(Instruction::Move { dst, src: Reg(r) });
                }
            }
            Location::Env { scope, slot } => {
                let depth = self.env_depth(scope);
                if lexical {
                    let c = self.name_constant(&name);
                    self.emit(Instruction::GetEnvChecked { dst, depth, slot, name: c });
                } else {
                    self.emit(Instruction::GetEnv { dst, depth, slot });
                }
            }
            Location::GlobalVar | Location::GlobalLexical => {
                let c = self.name_constant(&name);
                let ic = self.ic();
                self.emit(Instruction::GetGlobal { dst, name: c, ic });
            }
            Location::EvalOuterVar => {
                if let Some(b) = self.outer_binding(&name) {
                    self.emit(Instruction::GetEnv { dst, depth: b.depth, slot: b.slot });
                }
            }
            Location::EvalVarObject => {
                // Deleted, the name resolves further out.
                let c = self.name_constant(&name);
                let found = if self.load_eval_var_object(dst) {
                    Some(self.emit(Instruction::WithGet { dst, obj: dst, name: c, this_dst: Reg(u16::MAX), found: 0 }))
                } else {
                    None
                };
                let ic = self.ic();
                self.emit(Instruction::GetGlobal { dst, name: c, ic });
                if let Some(found) = found {
                    self.patch_here(found);
                }
            }
            Location::Import { scope, slot } => {
                let depth = self.env_depth(scope);
                let c = self.name_constant(&name);
                self.emit(Instruction::GetImport { dst, depth, slot, name: c });
            }
        }
        Ok(dst)
    }

    /// Throws the TDZ ReferenceError of a parameter read (or assigned)
    /// before it is bound.
    fn throw_parameter_tdz(&mut self, name: &str) -> CResult<()> {
        let mark = self.mark();
        let r = self.temp()?;
        let c = self.name_constant(name);
        self.emit(Instruction::LoadHole { dst: r });
        self.emit(Instruction::CheckTdz { src: r, name: c });
        self.release(mark);
        Ok(())
    }

    // ----- functions -----

    /// Compiles the top level of a script.
    pub fn compile_script_body(&mut self, program: &'a Program<'a>) -> CResult<()> {
        self.scope_stack.push(self.boundary);
        if self.kind == CodeKind::Eval {
            let slots = self.analysis.env_slot_count(self.boundary);
            if slots > 0 {
                self.emit(Instruction::PushEnv { slots });
            }
        }
        self.allocate_bindings()?;
        if self.kind == CodeKind::Eval {
            // Eval code's own `let`/`const`/`class` start in their TDZ.
            self.init_lexical_registers(self.boundary);
        }
        self.declare_globals(&program.body)?;
        let completion = self.temp()?;
        self.completion = Some(completion);
        let own_directives = &program.directives[self.injected_directives..];
        match own_directives.last() {
            // A directive is an expression statement too: `eval('"x"')` is "x".
            Some(directive) => {
                let literal = &directive.expression;
                let units = super::decode_lone_surrogates(literal.value.as_str(), literal.lone_surrogates);
                self.load_string_units(&units, completion);
            }
            None => {
                self.emit(Instruction::LoadUndefined { dst: completion });
            }
        }
        self.hoist_functions(&program.body)?;
        for statement in &program.body {
            self.statement(statement)?;
        }
        self.emit(Instruction::Return { src: completion });
        Ok(())
    }

    /// GlobalDeclarationInstantiation (§16.1.7) for a script and the
    /// global part of EvalDeclarationInstantiation (§19.2.1.3) for sloppy
    /// eval code: the early conflicts, then the global lexical bindings (in
    /// their TDZ) and `var`s. Functions are defined when they are hoisted.
    fn declare_globals(&mut self, body: &'a [Statement<'a>]) -> CResult<()> {
        let eval = self.kind == CodeKind::Eval;
        if eval && self.strict {
            return Ok(());
        }
        let scoping = &self.analysis.scoping;
        let mut lexicals = Vec::new();
        let mut vars = Vec::new();
        for (&name, &symbol) in scoping.get_bindings(self.boundary) {
            let flags = scoping.symbol_flags(symbol);
            let entry = (symbol, name.as_str().to_owned(), flags.contains(SymbolFlags::ConstVariable));
            if flags.intersects(SymbolFlags::FunctionScopedVariable | SymbolFlags::Function) {
                vars.push(entry);
            } else if !eval {
                lexicals.push(entry);
            }
        }
        lexicals.sort_by_key(|e| e.0);
        vars.sort_by_key(|e| e.0);
        let functions: Vec<String> = body
            .iter()
            .filter_map(|statement| match statement {
                Statement::FunctionDeclaration(f) => f.id.as_ref().map(|id| id.name.as_str().to_owned()),
                _ => None,
            })
            .collect();
        let global_vars = if eval {
            let outer = self.outer_scope.clone();
            for (_, name, _) in &vars {
                if let Some(error) =
                    super::declaration_instantiation::eval_var_conflict(self.vm, outer.as_deref(), name)
                {
                    return Err(error);
                }
            }
            // A `var` naming a binding of the caller's variable environment
            // is that binding.
            vars.retain(|(_, name, _)| !self.outer_binding(name).is_some_and(|b| b.in_var_env));
            outer.as_ref().is_none_or(|o| o.var_env_global)
        } else {
            use crate::builtins::global::{has_lexical_declaration, has_restricted_global_property};
            // A script's `var`s and functions are non-configurable global
            // properties, so a later `let` of one is restricted too.
            for (_, name, _) in &lexicals {
                if has_lexical_declaration(self.vm, name) || has_restricted_global_property(self.vm, name) {
                    return Err(CompileError::syntax(format!("Identifier '{name}' has already been declared")));
                }
            }
            for (_, name, _) in &vars {
                if has_lexical_declaration(self.vm, name) {
                    return Err(CompileError::syntax(format!("Identifier '{name}' has already been declared")));
                }
            }
            true
        };
        if global_vars {
            for name in &functions {
                if !crate::builtins::global::can_declare_global_function(self.vm, name) {
                    return Err(CompileError::Type(format!("Cannot redefine global function '{name}'")));
                }
            }
            for (_, name, _) in &vars {
                if !functions.contains(name) && !crate::builtins::global::can_declare_global_var(self.vm, name) {
                    return Err(CompileError::Type(format!("Cannot define global variable '{name}'")));
                }
            }
        }
        for (_, name, is_const) in lexicals {
            let units: Vec<u16> = name.encode_utf16().collect();
            let atom = atom_value(self.vm, &units);
            if let Some(atom) = atom.as_string() {
                self.vm
                    .realm
                    .global_lexicals
                    .insert(atom, crate::realm::GlobalLexical { value: Value::HOLE, mutable: !is_const });
            }
        }
        if !global_vars {
            let names: Vec<String> = vars.iter().map(|v| v.1.clone()).filter(|n| !functions.contains(n)).collect();
            return self.declare_eval_var_object(&names);
        }
        for (_, name, _) in vars {
            if !functions.contains(&name) {
                crate::builtins::global::declare_global_var(self.vm, &name, eval);
            }
        }
        Ok(())
    }

    /// EvalDeclarationInstantiation in a function's variable environment:
    /// creates the caller's variable object if needed and the `var`s
    /// `names` on it (undefined, deletable) that it does not have.
    fn declare_eval_var_object(&mut self, names: &[String]) -> CResult<()> {
        let mark = self.mark();
        let obj = self.temp()?;
        let scratch = self.temp()?;
        if !self.load_eval_var_object(obj) {
            // No variable object to hold them: they go to the global object.
            self.release(mark);
            for name in names {
                crate::builtins::global::declare_global_var(self.vm, name, true);
            }
            return Ok(());
        }
        let exists = self.emit(Instruction::JumpIfNotUndefined { src: obj, target: u32::MAX });
        self.emit(Instruction::NewObject { dst: obj });
        self.emit(Instruction::LoadNull { dst: scratch });
        self.emit(Instruction::SetProtoLiteral { obj, proto: scratch });
        if let (Some(outer), Some(root)) = (&self.outer_scope, self.eval_root)
            && let Some((depth, slot)) = outer.var_object
        {
            let extra = self.env_depth(root) + u16::from(self.analysis.env_slot_count(root) > 0);
            self.emit(Instruction::SetEnv { src: obj, depth: depth + extra, slot });
        }
        self.patch_here(exists);
        for name in names {
            let units: Vec<u16> = name.encode_utf16().collect();
            self.load_string_units(&units, scratch);
            self.emit(Instruction::In { dst: scratch, lhs: scratch, rhs: obj });
            let skip = self.emit(Instruction::JumpIfTrue { cond: scratch, target: u32::MAX });
            self.emit(Instruction::LoadUndefined { dst: scratch });
            let c = self.name_constant(name);
            let ic = self.ic();
            self.emit(Instruction::SetNamed { obj, name: c, src: scratch, ic, strict: false });
            self.patch_here(skip);
        }
        self.release(mark);
        Ok(())
    }

    /// Compiles a nested function and emits a `Closure` for it into `dst`.
    pub fn compile_function_expression(&mut self, f: &'a Function<'a>, dst: Reg, name: Option<&str>) -> CResult<()> {
        let code = self.compile_function_code(f, name, None, f.span)?;
        self.functions.push(code);
        let index = (self.functions.len() - 1) as u32;
        self.emit(Instruction::Closure { dst, index });
        Ok(())
    }

    /// The scope table of a direct eval call site here: every binding
    /// visible from the current scope, with its environment coordinates,
    /// and the names eval code's `var`s may not redeclare.
    pub fn eval_scope_here(&mut self) -> u32 {
        let scoping = &self.analysis.scoping;
        let lexical_flags = SymbolFlags::BlockScopedVariable | SymbolFlags::ConstVariable | SymbolFlags::Class;
        let mut bindings = Vec::new();
        let mut conflicts = Vec::new();
        let mut catch_parameters = Vec::new();
        // Still inside the caller's variable environment's function (a
        // class body's own bindings, around its field initialisers, are
        // outside it).
        let mut within = true;
        let boundary_is_var = scoping.scope_flags(self.boundary).is_var();
        let mut s = Some(self.current_scope());
        while let Some(scope) = s {
            let mut symbols: Vec<SymbolId> = scoping.get_bindings(scope).values().copied().collect();
            symbols.sort();
            for symbol in symbols {
                let flags = scoping.symbol_flags(symbol);
                let name = scoping.symbol_name(symbol);
                if within && (boundary_is_var || scope != self.boundary) {
                    if flags.contains(SymbolFlags::CatchVariable) {
                        catch_parameters.push(name.to_owned());
                    } else if flags.intersects(lexical_flags)
                        || (flags.contains(SymbolFlags::Function) && scope != self.boundary)
                    {
                        // A script's own top-level lexicals are global ones,
                        // checked when the eval code runs.
                        if !(scope == self.boundary && self.kind == CodeKind::Script) {
                            conflicts.push(name.to_owned());
                        }
                    }
                }
                if let Location::Env { scope: env_scope, slot } = self.location_of(symbol) {
                    bindings.push(crate::bytecode::EvalBinding {
                        name: name.to_owned(),
                        depth: self.env_depth(env_scope),
                        slot,
                        lexical: flags.intersects(lexical_flags),
                        constant: flags.contains(SymbolFlags::ConstVariable),
                        function_name: self.function_names.contains(&symbol),
                        in_var_env: within && scope == self.boundary && !flags.intersects(lexical_flags),
                    });
                }
            }
            if let Some(&Some(slot)) = self.analysis.arguments_used.get(&scope) {
                bindings.push(crate::bytecode::EvalBinding {
                    name: "arguments".to_owned(),
                    depth: self.env_depth(scope),
                    slot,
                    lexical: false,
                    constant: false,
                    function_name: false,
                    in_var_env: scope == self.boundary,
                });
            }
            if scope == self.boundary {
                within = false;
            }
            if Some(scope) == self.eval_root {
                break;
            }
            s = scoping.scope_parent_id(scope);
        }
        if self.in_parameters {
            // Eval code in parameter expressions may not declare a `var`
            // named like a parameter, or `arguments` of a non-arrow function.
            conflicts.extend(self.parameter_names.iter().cloned());
            if self.kind != CodeKind::Arrow {
                conflicts.push("arguments".to_owned());
            }
        }
        let sloppy_eval = self.kind == CodeKind::Eval && !self.strict;
        let mut var_env_global = self.kind == CodeKind::Script;
        let mut var_object =
            self.analysis.eval_var_object(self.boundary).map(|slot| (self.env_depth(self.boundary), slot));
        // Bindings of an enclosing eval's caller stay visible, further out.
        if let (Some(outer), Some(root)) = (&self.outer_scope, self.eval_root) {
            let extra = self.env_depth(root) + u16::from(self.analysis.env_slot_count(root) > 0);
            let same_var_env = sloppy_eval && self.boundary == root;
            for b in &outer.bindings {
                bindings.push(crate::bytecode::EvalBinding {
                    depth: b.depth + extra,
                    in_var_env: b.in_var_env && same_var_env,
                    ..b.clone()
                });
            }
            if same_var_env {
                conflicts.extend(outer.conflicts.iter().cloned());
                catch_parameters.extend(outer.catch_parameters.iter().cloned());
                var_env_global = outer.var_env_global;
                var_object = outer.var_object.map(|(depth, slot)| (depth + extra, slot));
            }
        } else if sloppy_eval {
            // Indirect eval code's variable environment is the global one.
            var_env_global = true;
        }
        let in_class_element = self.in_class_element || self.outer_scope.as_ref().is_some_and(|o| o.in_class_element);
        self.eval_scopes.push(Rc::new(crate::bytecode::EvalScope {
            bindings,
            strict: self.strict,
            in_class_element,
            conflicts,
            catch_parameters,
            var_env_global,
            var_object,
        }));
        (self.eval_scopes.len() - 1) as u32
    }

    /// A binding of a direct eval's caller, with its depth from here.
    pub fn outer_binding(&self, name: &str) -> Option<crate::bytecode::EvalBinding> {
        let outer = self.outer_scope.as_ref()?;
        let root = self.eval_root?;
        let b = outer.lookup(name)?;
        let extra = self.env_depth(root) + u16::from(self.analysis.env_slot_count(root) > 0);
        Some(crate::bytecode::EvalBinding { depth: b.depth + extra, ..b.clone() })
    }

    /// Compiles a method (not a constructor) and emits its closure;
    /// `definition` is the whole method definition (with its name and any
    /// `get`/`set`/`async`/`*`), the text `Function.prototype.toString`
    /// gives.
    pub fn compile_method(
        &mut self,
        f: &'a Function<'a>,
        dst: Reg,
        name: Option<&str>,
        definition: oxc_span::Span,
    ) -> CResult<()> {
        let code = self.compile_function_code(f, Some(name.unwrap_or("")), Some(CodeKind::Method), definition)?;
        self.functions.push(code);
        let index = (self.functions.len() - 1) as u32;
        self.emit(Instruction::Closure { dst, index });
        Ok(())
    }

    /// Compiles a nested function to a code cell; `text` is the source
    /// range `Function.prototype.toString` returns (the function itself,
    /// or the method definition or class it belongs to).
    pub fn compile_function_code(
        &mut self,
        f: &'a Function<'a>,
        name: Option<&str>,
        kind: Option<CodeKind>,
        text: oxc_span::Span,
    ) -> CResult<Gc<Code>> {
        let scope = f.scope_id.get().ok_or_else(|| CompileError::syntax("function without scope".to_owned()))?;
        let strict = self.analysis.scoping.scope_flags(scope).is_strict_mode();
        let name =
            name.map(str::to_owned).or_else(|| f.id.as_ref().map(|id| id.name.as_str().to_owned())).unwrap_or_default();
        // Async functions are not constructors and have no `prototype`,
        // as methods.
        let kind = if f.generator {
            CodeKind::Generator
        } else if f.r#async {
            CodeKind::Method
        } else {
            kind.unwrap_or(CodeKind::Normal)
        };
        let mut fc = self.child(scope, kind, strict, &name);
        fc.is_async = f.r#async;
        if f.r#type == oxc_ast::ast::FunctionType::FunctionExpression
            && let Some(symbol) = f.id.as_ref().and_then(|id| id.symbol_id.get())
            && fc.analysis.scoping.symbol_scope_id(symbol) == scope
            // A parameter, `var` or function of the same name shadows it
            // (oxc merges them into one symbol).
            && !fc.analysis.scoping.symbol_flags(symbol).intersects(SymbolFlags::FunctionScopedVariable)
            && fc.analysis.scoping.symbol_redeclarations(symbol).is_empty()
            && fc.analysis.scoping.get_binding(scope, fc.analysis.scoping.symbol_name(symbol).into()) == Some(symbol)
        {
            fc.own_name = Some(symbol);
            fc.function_names.push(symbol);
        } else if let Some(symbol) = fc.analysis.annex_b.self_binding(f.span.start) {
            // An `if`-branch function's block binding (Annex B.3.4),
            // mutable.
            fc.own_name = Some(symbol);
        }
        let body = f.body.as_deref();
        fc.compile_function_body(&f.params, body.map(|b| &b.statements[..]), None)?;
        Ok(fc.finish(text.start, text.end))
    }

    /// Compiles an arrow function and emits a `Closure` into `dst`.
    pub fn compile_arrow(&mut self, f: &'a ArrowFunctionExpression<'a>, dst: Reg, name: Option<&str>) -> CResult<()> {
        let scope = f.scope_id.get().ok_or_else(|| CompileError::syntax("arrow without scope".to_owned()))?;
        let strict = self.analysis.scoping.scope_flags(scope).is_strict_mode();
        let mut fc = self.child(scope, CodeKind::Arrow, strict, name.unwrap_or(""));
        fc.is_async = f.r#async;
        let (statements, expression): (Option<&'a [Statement<'a>]>, _) = match &f.body {
            ArrowFunctionBody::FunctionBody(body) => (Some(&body.statements[..]), None),
            body => (None, body.as_expression()),
        };
        fc.compile_function_body(&f.params, statements, expression)?;
        let code = fc.finish(f.span.start, f.span.end);
        self.functions.push(code);
        let index = (self.functions.len() - 1) as u32;
        self.emit(Instruction::Closure { dst, index });
        Ok(())
    }

    /// A function whose code calls `eval` by name gets a variable object for
    /// the `var`s sloppy eval code may declare in it: its slot starts empty
    /// (until eval code declares one), and names resolve through it as
    /// through a `with` object.
    fn init_eval_var_object(&mut self) -> CResult<()> {
        let Some(slot) = self.analysis.eval_var_object(self.boundary) else { return Ok(()) };
        let mark = self.mark();
        let r = self.temp()?;
        self.emit(Instruction::LoadUndefined { dst: r });
        self.emit(Instruction::SetEnv { src: r, depth: 0, slot });
        self.release(mark);
        let outer = self.analysis.scoping.scope_parent_id(self.boundary).unwrap_or(self.boundary);
        self.with_objects.push(super::with::WithObject::var_object(self.boundary, outer, slot));
        Ok(())
    }

    /// Uncaptured simple parameters stay in the registers the arguments
    /// arrive in (sloppy duplicate names take the general path).
    fn keep_parameters_in_registers(&mut self, params: &'a FormalParameters<'a>) {
        let names: Vec<&str> = params
            .items
            .iter()
            .filter_map(|p| match &p.pattern {
                BindingPattern::BindingIdentifier(id) => Some(id.name.as_str()),
                _ => None,
            })
            .collect();
        if names.iter().enumerate().any(|(i, n)| names[i + 1..].contains(n)) {
            return;
        }
        for (i, param) in params.items.iter().enumerate() {
            if let BindingPattern::BindingIdentifier(id) = &param.pattern
                && let Some(symbol) = id.symbol_id.get()
                && self.analysis.slot(symbol).is_none()
            {
                self.locations.insert(symbol, Location::Register(1 + i as u16));
            }
        }
    }

    /// Parameters and body of a function; `expression` is a concise arrow
    /// body.
    pub fn compile_function_body(
        &mut self,
        params: &'a FormalParameters<'a>,
        body: Option<&'a [Statement<'a>]>,
        expression: Option<&'a oxc_ast::ast::Expression<'a>>,
    ) -> CResult<()> {
        let count = params.items.len();
        self.param_count = u16::try_from(count).map_err(|_| too_many_registers())?;
        self.length = params.items.iter().take_while(|p| p.initializer.is_none()).count() as u16;
        // Parameters arrive in registers 1..=n.
        self.next_reg = 1 + self.param_count;
        self.max_reg = self.next_reg;
        self.scope_stack.push(self.boundary);
        if self.is_async && self.kind != CodeKind::Generator {
            // Before anything that can throw: errors binding the arguments
            // reject the function's promise.
            self.emit(Instruction::AsyncStart);
        }
        let function_env = self.analysis.env_slot_count(self.boundary);
        if function_env > 0 {
            self.emit(Instruction::PushEnv { slots: function_env });
        }
        self.init_eval_var_object()?;
        self.init_derived_this()?;
        self.parameter_names = super::declaration_instantiation::parameter_names(params);
        self.in_parameters = true;
        self.keep_parameters_in_registers(params);
        self.allocate_bindings()?;
        // `var`s in environments start as undefined, not in a TDZ.
        self.init_function_scope_vars()?;
        if let Some(symbol) = self.own_name {
            let mark = self.mark();
            let r = self.temp()?;
            self.emit(Instruction::LoadCallee { dst: r });
            self.store_binding(symbol, r, true)?;
            self.release(mark);
        }
        self.init_lexical_registers(self.boundary);
        let mapped = self.analysis.mapped_parameters(self.boundary).map(<[SymbolId]>::to_vec);
        let arguments = self.analysis.arguments_used.get(&self.boundary).copied();
        if let Some(arguments) = arguments {
            let location = match arguments {
                Some(slot) => Location::Env { scope: self.boundary, slot },
                None => Location::Register(self.temp()?.0),
            };
            self.arguments = Some(location);
            if let Some(symbols) = &mapped {
                // Simple parameters are bound first so the object can alias
                // their environment slots.
                for (i, param) in params.items.iter().enumerate() {
                    self.bind_pattern(&param.pattern, Reg(1 + i as u16), true)?;
                }
                self.mapped_parameters = symbols
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let shadowed = symbols[i + 1..].iter().any(|later| {
                            self.analysis.scoping.symbol_name(*later) == self.analysis.scoping.symbol_name(*s)
                        });
                        if shadowed { u32::MAX } else { self.analysis.slot(*s).unwrap_or(u32::MAX) }
                    })
                    .collect();
            }
            let mark = self.mark();
            let r = self.temp()?;
            self.emit(Instruction::CreateArguments { dst: r, mapped: mapped.is_some() });
            self.store_location(location, r);
            self.release(mark);
            if mapped.is_some() {
                return self.compile_rest_and_body(params, body, expression);
            }
        }
        let has_expressions = params
            .items
            .iter()
            .any(|p| p.initializer.is_some() || !matches!(p.pattern, BindingPattern::BindingIdentifier(_)));
        if has_expressions {
            let mut symbols = Vec::new();
            for param in &params.items {
                super::pattern::pattern_symbols(&param.pattern, &mut symbols);
            }
            if let Some(rest) = &params.rest {
                super::pattern::pattern_symbols(&rest.rest.argument, &mut symbols);
            }
            self.parameters_in_tdz = symbols;
        }
        for (i, param) in params.items.iter().enumerate() {
            let arg = Reg(1 + i as u16);
            if let Some(init) = &param.initializer {
                let skip = self.emit(Instruction::JumpIfNotUndefined { src: arg, target: u32::MAX });
                let name = binding_name(&param.pattern);
                self.expression_named(init, arg, name.as_deref())?;
                self.patch_here(skip);
            }
            self.bind_pattern(&param.pattern, arg, true)?;
        }
        self.compile_rest_and_body(params, body, expression)
    }

    /// The rest parameter, `GeneratorStart` and the body.
    fn compile_rest_and_body(
        &mut self,
        params: &'a FormalParameters<'a>,
        body: Option<&'a [Statement<'a>]>,
        expression: Option<&'a oxc_ast::ast::Expression<'a>>,
    ) -> CResult<()> {
        if let Some(rest) = &params.rest {
            let mark = self.mark();
            let r = self.temp()?;
            self.emit(Instruction::CreateRestArray { dst: r, from: self.param_count });
            self.bind_pattern(&rest.rest.argument, r, true)?;
            self.release(mark);
        }
        self.parameters_in_tdz.clear();
        self.in_parameters = false;
        if let Some(statements) = body {
            self.hoist_functions(statements)?;
            if self.kind == CodeKind::Generator {
                self.emit(Instruction::GeneratorStart);
            }
            self.statement_list(statements)?;
            let r = self.temp()?;
            self.emit(Instruction::LoadUndefined { dst: r });
            self.emit_return(r);
        } else if let Some(e) = expression {
            let r = self.temp()?;
            self.expression(e, r)?;
            self.emit(Instruction::Return { src: r });
        }
        Ok(())
    }

    pub(super) fn init_function_scope_vars(&mut self) -> CResult<()> {
        let scoping = &self.analysis.scoping;
        let mut targets = Vec::new();
        for &symbol in scoping.get_bindings(self.boundary).values() {
            let flags = scoping.symbol_flags(symbol);
            if flags.intersects(SymbolFlags::FunctionScopedVariable)
                && let Some(Location::Env { slot, .. }) = self.locations.get(&symbol)
            {
                targets.push(*slot);
            }
        }
        if targets.is_empty() {
            return Ok(());
        }
        targets.sort_unstable();
        let mark = self.mark();
        let r = self.temp()?;
        self.emit(Instruction::LoadUndefined { dst: r });
        for slot in targets {
            self.emit(Instruction::SetEnv { src: r, depth: 0, slot });
        }
        self.release(mark);
        Ok(())
    }

    /// Keeps registers 1..=n out of the temporary pool (parameters of
    /// synthesised functions).
    pub fn reserve_registers(&mut self, n: u16) {
        self.next_reg = self.next_reg.max(1 + n);
        self.max_reg = self.max_reg.max(self.next_reg);
    }

    /// The body of a class static block: its own function scope.
    pub fn compile_function_body_statements(&mut self, statements: &'a [Statement<'a>]) -> CResult<()> {
        self.scope_stack.push(self.boundary);
        let slots = self.analysis.env_slot_count(self.boundary);
        if slots > 0 {
            self.emit(Instruction::PushEnv { slots });
        }
        self.allocate_bindings()?;
        self.init_function_scope_vars()?;
        self.init_lexical_registers(self.boundary);
        self.hoist_functions(statements)?;
        self.statement_list(statements)?;
        let r = self.temp()?;
        self.emit(Instruction::LoadUndefined { dst: r });
        self.emit(Instruction::Return { src: r });
        Ok(())
    }

    /// Writes `src` to a location.
    pub fn store_location(&mut self, location: Location, src: Reg) {
        match location {
            Location::Register(r) => {
                self.emit(Instruction::Move { dst: Reg(r), src });
            }
            Location::Env { scope, slot } => {
                let depth = self.env_depth(scope);
                self.emit(Instruction::SetEnv { src, depth, slot });
            }
            Location::GlobalVar
            | Location::GlobalLexical
            | Location::Import { .. }
            | Location::EvalOuterVar
            | Location::EvalVarObject => {}
        }
    }

    /// Where the `this` binding used here lives when it is a derived
    /// constructor's shared with its arrows (see `Analysis::derived_this`):
    /// the environment depth and slot; the constructor is in the next
    /// slot.
    pub fn derived_this_slot(&self) -> Option<(u16, u32)> {
        let (scope, slot) = self.analysis.derived_this(self.boundary)?;
        Some((self.env_depth(scope), slot))
    }

    /// A derived constructor whose arrows share its `this` starts with the
    /// binding uninitialised (a hole) and itself in the next slot, for
    /// `super()` in the arrows.
    fn init_derived_this(&mut self) -> CResult<()> {
        if !matches!(self.kind, CodeKind::ClassConstructor { derived: true }) {
            return Ok(());
        }
        let Some((depth, slot)) = self.derived_this_slot() else { return Ok(()) };
        let mark = self.mark();
        let r = self.temp()?;
        self.emit(Instruction::LoadHole { dst: r });
        self.emit(Instruction::SetEnv { src: r, depth, slot });
        self.emit(Instruction::LoadCallee { dst: r });
        self.emit(Instruction::SetEnv { src: r, depth, slot: slot + 1 });
        self.release(mark);
        Ok(())
    }

    /// `Return src`. A derived constructor's result is its `this`
    /// register, which `super()` in an arrow only bound in the
    /// environment: it is reloaded first.
    pub(super) fn emit_return(&mut self, src: Reg) {
        if matches!(self.kind, CodeKind::ClassConstructor { derived: true })
            && let Some((depth, slot)) = self.derived_this_slot()
        {
            self.emit(Instruction::GetEnv { dst: THIS_REG, depth, slot });
        }
        self.emit(Instruction::Return { src });
    }

    /// The `arguments` binding visible here, if any.
    pub fn arguments_location(&self) -> Option<Location> {
        if let Some(l) = self.arguments {
            return Some(l);
        }
        // An arrow uses its enclosing function's `arguments` through the
        // environment.
        let scoping = &self.analysis.scoping;
        let mut s = scoping.scope_parent_id(self.boundary);
        while let Some(scope) = s {
            if let Some(&Some(slot)) = self.analysis.arguments_used.get(&scope) {
                return Some(Location::Env { scope, slot });
            }
            s = scoping.scope_parent_id(scope);
        }
        None
    }

    /// Finishes the code cell.
    pub fn finish(self, start: u32, end: u32) -> Gc<Code> {
        let register_count = self.max_reg.max(self.next_reg).max(1);
        build_code(
            self.vm,
            &self.name,
            self.kind,
            self.strict,
            self.instructions,
            self.constants,
            self.functions,
            self.handlers,
            register_count,
            self.param_count,
            self.length,
            self.ic_count,
            self.positions,
            (start, end),
            Rc::clone(self.source),
            self.eval_scopes,
            self.mapped_parameters,
            self.is_async,
        )
    }

    /// The register holding `this`, checked in derived constructors. Where
    /// the `this` binding is a derived constructor's shared with its
    /// arrows, it is reloaded from the environment first.
    pub fn this_register(&mut self, dst: Reg) -> Reg {
        if let Some((depth, slot)) = self.derived_this_slot() {
            self.emit(Instruction::GetEnv { dst: THIS_REG, depth, slot });
            self.emit(Instruction::CheckThis { dst });
            return dst;
        }
        if matches!(self.kind, CodeKind::ClassConstructor { derived: true }) {
            self.emit(Instruction::CheckThis { dst });
            return dst;
        }
        THIS_REG
    }
}

/// The name a binding pattern gives an anonymous function (identifiers
/// only).
pub(crate) fn binding_name(pattern: &BindingPattern<'_>) -> Option<String> {
    match pattern {
        BindingPattern::BindingIdentifier(id) => Some(id.name.as_str().to_owned()),
        _ => None,
    }
}

fn too_many_registers() -> CompileError {
    CompileError::Range("function needs too many registers".to_owned())
}

/// A statement's source offset.
pub(crate) fn offset_of(statement: &Statement<'_>) -> u32 {
    statement.span().start
}
