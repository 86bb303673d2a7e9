//! `using` and `await using` declarations (ECMA-262 2026 §14.3.1,
//! explicit resource management).
//!
//! A statement list (block, function body, module, `for` statement, one
//! `for-of` iteration) that declares resources gets a DisposeCapability in
//! a register, created on entry, and a [`DisposeScope`] on the control
//! stack. Each declaration adds its value to the capability before binding
//! it. Every way out runs `DisposeResources`: the end of the list, each
//! `break`/`continue`/`return` that crosses it (through
//! [`FunctionCompiler::unwind_for_exit`], like a `finally`), and a handler
//! over the list that disposes with the throw completion and rethrows what
//! the disposal leaves (the error, or a SuppressedError chain).
//!
//! The disposal is a loop of `DisposeOp::Step` instructions; with `await using`
//! in the list each step the runtime asks for is followed by an `Await`, so
//! async disposal suspends the function like any `await`.

use oxc_ast::ast::{ForStatementLeft, Statement, VariableDeclaration, VariableDeclarationKind};

use super::control::Control;
use super::function::{FunctionCompiler, binding_name};
use super::{CResult, CompileError};
use crate::bytecode::{DisposeOp, Handler, Instruction, Reg};

/// "No register": a `DisposeOp::Begin` with a normal completion.
pub(crate) const NO_ERROR: Reg = Reg(u16::MAX);

/// Which disposal a statement list needs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Disposal {
    /// Only `using`: disposal never awaits.
    Sync,
    /// Some `await using`: disposal may await.
    Async,
}

impl Disposal {
    /// The disposal a declaration of `kind` asks for.
    fn of_kind(kind: VariableDeclarationKind) -> Option<Disposal> {
        match kind {
            VariableDeclarationKind::Using => Some(Disposal::Sync),
            VariableDeclarationKind::AwaitUsing => Some(Disposal::Async),
            _ => None,
        }
    }

    /// The disposal `statements` need for the declarations directly in
    /// them.
    pub(crate) fn of_statements(statements: &[Statement<'_>]) -> Option<Disposal> {
        let mut found = None;
        for statement in statements {
            if let Statement::VariableDeclaration(decl) = statement {
                match Disposal::of_kind(decl.kind) {
                    Some(Disposal::Async) => return Some(Disposal::Async),
                    Some(Disposal::Sync) => found = Some(Disposal::Sync),
                    None => {}
                }
            }
        }
        found
    }

    /// The disposal the declaration `decl` (a `for` head) asks for.
    pub(crate) fn of_declaration(decl: &VariableDeclaration<'_>) -> Option<Disposal> {
        Disposal::of_kind(decl.kind)
    }

    /// The disposal a `for-of` head asks for (each iteration).
    pub(crate) fn of_for_left(left: &ForStatementLeft<'_>) -> Option<Disposal> {
        match left {
            ForStatementLeft::VariableDeclaration(decl) => Disposal::of_kind(decl.kind),
            _ => None,
        }
    }
}

/// The control-stack entry of a statement list with resources: exits
/// crossing it dispose them.
pub(crate) struct DisposeScope {
    /// The register holding the DisposeCapability.
    capability: Reg,
    /// Scratch registers for an awaited disposal: the value and the
    /// `Await` mode.
    value: Reg,
    mode: Reg,
    disposal: Disposal,
    /// Closed instruction ranges of the list covered so far (the handler
    /// covers these).
    ranges: Vec<(u32, u32)>,
    /// Start of the open range, if one is open.
    open: Option<u32>,
}

impl DisposeScope {
    /// Closes the open range at `here` (before exit code that must not be
    /// covered by this list's handler).
    pub(crate) fn close_range(&mut self, here: u32) {
        if let Some(start) = self.open.take()
            && start < here
        {
            self.ranges.push((start, here));
        }
    }

    /// Reopens the range after an exit.
    pub(crate) fn reopen_range(&mut self, here: u32) {
        if self.open.is_none() {
            self.open = Some(here);
        }
    }

    /// The registers and kind the disposal code uses.
    pub(crate) fn disposal_regs(&self) -> (Reg, Reg, Reg, Disposal) {
        (self.capability, self.value, self.mode, self.disposal)
    }
}

impl<'a> FunctionCompiler<'_, 'a> {
    /// The statements of a scope already entered, disposing the resources
    /// their `using` declarations add.
    pub(crate) fn statement_list(&mut self, statements: &'a [Statement<'a>]) -> CResult<()> {
        self.with_disposal(Disposal::of_statements(statements), |fc| {
            for statement in statements {
                fc.statement(statement)?;
            }
            Ok(())
        })
    }

    /// Compiles `body` with a DisposeCapability when `disposal` is `Some`:
    /// the resources added inside are disposed on every way out.
    pub(crate) fn with_disposal(
        &mut self,
        disposal: Option<Disposal>,
        body: impl FnOnce(&mut Self) -> CResult<()>,
    ) -> CResult<()> {
        let Some(disposal) = disposal else { return body(self) };
        let mark = self.mark();
        let capability = self.temp()?;
        let value = self.temp()?;
        let mode = self.temp()?;
        let exception = self.temp()?;
        self.emit(Instruction::Dispose(DisposeOp::NewCapability { dst: capability }));
        let start = self.here();
        self.control.push(Control::Dispose(DisposeScope {
            capability,
            value,
            mode,
            disposal,
            ranges: Vec::new(),
            open: Some(start),
        }));
        let result = body(self);
        let here = self.here();
        let Some(Control::Dispose(mut scope)) = self.control.pop() else {
            return Err(CompileError::syntax("internal error: unbalanced using scope".to_owned()));
        };
        result?;
        scope.close_range(here);
        // The normal completion of the list.
        self.emit_dispose_resources((capability, value, mode, disposal), NO_ERROR);
        let over = self.emit_jump();
        // A throw completion: disposed with the error, then rethrown (the
        // disposal leaves it, or a SuppressedError, as its completion).
        let target = self.here();
        for &(start, end) in &scope.ranges {
            self.handlers.push(Handler { start, end, target, exception });
        }
        self.emit_dispose_resources((capability, value, mode, disposal), exception);
        self.emit(Instruction::Throw { src: exception });
        self.patch_here(over);
        self.release(mark);
        Ok(())
    }

    /// Emits `DisposeResources(capability, completion)`: `error` holds the
    /// value of a throw completion, or is [`NO_ERROR`]. Throws when the
    /// completion it ends with is a throw.
    pub(crate) fn emit_dispose_resources(&mut self, regs: (Reg, Reg, Reg, Disposal), error: Reg) {
        let (capability, value, mode, disposal) = regs;
        self.emit(Instruction::Dispose(DisposeOp::Begin { cap: capability, error }));
        let top = self.here();
        let step = self.emit(Instruction::Dispose(DisposeOp::Step { cap: capability, dst: value, done: u32::MAX }));
        if disposal == Disposal::Async {
            self.emit(Instruction::Await { value, mode });
            self.emit(Instruction::Dispose(DisposeOp::Awaited { cap: capability, value, mode }));
            self.emit(Instruction::Jump { target: top });
        }
        self.patch_here(step);
        self.emit(Instruction::Dispose(DisposeOp::End { cap: capability }));
    }

    /// A `using` or `await using` declaration: each initializer's value is
    /// added to the innermost DisposeCapability, then bound.
    pub(crate) fn using_declaration(&mut self, decl: &'a VariableDeclaration<'a>) -> CResult<()> {
        let capability = self.innermost_capability()?;
        let asynchronous = self.check_await_using(decl)?;
        for d in &decl.declarations {
            let Some(init) = &d.init else {
                return Err(CompileError::syntax("Missing initializer in using declaration".to_owned()));
            };
            let mark = self.mark();
            let r = self.temp()?;
            let name = binding_name(&d.id);
            self.expression_named(init, r, name.as_deref())?;
            self.emit(Instruction::Dispose(DisposeOp::Add { cap: capability, value: r, asynchronous }));
            self.bind_pattern(&d.id, r, true)?;
            self.release(mark);
        }
        Ok(())
    }

    /// Binds the value of one `for (using x of …)` iteration.
    pub(crate) fn bind_using_for_head(&mut self, decl: &'a VariableDeclaration<'a>, value: Reg) -> CResult<()> {
        let capability = self.innermost_capability()?;
        let asynchronous = self.check_await_using(decl)?;
        self.emit(Instruction::Dispose(DisposeOp::Add { cap: capability, value, asynchronous }));
        if let Some(d) = decl.declarations.first() {
            self.bind_pattern(&d.id, value, true)?;
        }
        Ok(())
    }

    /// Whether `decl` is an `await using` declaration; a SyntaxError
    /// outside async functions and modules, where oxc reads `await` as an
    /// identifier and still builds the declaration.
    fn check_await_using(&self, decl: &VariableDeclaration<'_>) -> CResult<bool> {
        let asynchronous = decl.kind == VariableDeclarationKind::AwaitUsing;
        if asynchronous && !self.is_async {
            return Err(CompileError::syntax(
                "await is only valid in async functions and the top level bodies of modules".to_owned(),
            ));
        }
        Ok(asynchronous)
    }

    /// The capability register of the innermost [`DisposeScope`].
    fn innermost_capability(&self) -> CResult<Reg> {
        self.control
            .iter()
            .rev()
            .find_map(|c| match c {
                Control::Dispose(scope) => Some(scope.capability),
                _ => None,
            })
            .ok_or_else(|| CompileError::syntax("Using declarations are not allowed here".to_owned()))
    }
}
