//! Statements (ECMA-262 §14).

use oxc_ast::ast::{
    BlockStatement, Class, Declaration, DoWhileStatement, ExpressionStatement, ForInStatement, ForOfStatement,
    ForStatement, ForStatementInit, ForStatementLeft, IfStatement, LabeledStatement, ReturnStatement, Statement,
    SwitchStatement, ThrowStatement, TryStatement, VariableDeclaration, VariableDeclarationKind, WhileStatement,
};

use super::control::Control;
use super::function::{FunctionCompiler, binding_name, offset_of};
use super::{CResult, CompileError};
use crate::bytecode::{AsyncIterationOp, CodeKind, Handler, Instruction, Reg};

/// What an exit statement jumps to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ExitKind {
    Break,
    Continue,
}

impl<'a> FunctionCompiler<'_, 'a> {
    /// Compiles one statement.
    pub fn statement(&mut self, statement: &'a Statement<'a>) -> CResult<()> {
        self.enter_nesting()?;
        self.mark_position(offset_of(statement));
        let result = self.statement_inner(statement, Vec::new());
        self.leave_nesting();
        result
    }

    fn statement_inner(&mut self, statement: &'a Statement<'a>, labels: Vec<String>) -> CResult<()> {
        if matches!(
            statement,
            Statement::IfStatement(_)
                | Statement::WhileStatement(_)
                | Statement::DoWhileStatement(_)
                | Statement::ForStatement(_)
                | Statement::ForInStatement(_)
                | Statement::ForOfStatement(_)
                | Statement::SwitchStatement(_)
                | Statement::TryStatement(_)
        ) {
            // These statements complete with UpdateEmpty(result, undefined):
            // an empty body, or a `break` with no value, leaves undefined.
            self.reset_completion();
        }
        match statement {
            Statement::BlockStatement(block) => self.block(block),
            // Function declarations were hoisted to the start of their
            // scope; an Annex B one is also copied to its var binding here.
            Statement::FunctionDeclaration(f) => self.annex_b_function_evaluation(f),
            Statement::ExpressionStatement(e) => self.expression_statement(e),
            Statement::VariableDeclaration(decl) => self.variable_declaration(decl),
            Statement::ClassDeclaration(class) => self.class_declaration(class),
            Statement::ReturnStatement(ret) => self.return_statement(ret),
            Statement::IfStatement(s) => self.if_statement(s),
            Statement::WhileStatement(s) => self.while_statement(s, labels),
            Statement::DoWhileStatement(s) => self.do_while_statement(s, labels),
            Statement::ForStatement(s) => self.for_statement(s, labels),
            Statement::ForInStatement(s) => self.for_in_statement(s, labels),
            Statement::ForOfStatement(s) => self.for_of_statement(s, labels),
            Statement::BreakStatement(s) => self.exit(ExitKind::Break, s.label.as_ref().map(|l| l.name.as_str())),
            Statement::ContinueStatement(s) => self.exit(ExitKind::Continue, s.label.as_ref().map(|l| l.name.as_str())),
            Statement::ThrowStatement(s) => self.throw_statement(s),
            Statement::TryStatement(s) => self.try_statement(s),
            Statement::SwitchStatement(s) => self.switch_statement(s, labels),
            Statement::LabeledStatement(s) => self.labeled_statement(s, labels),
            Statement::WithStatement(w) => self.with_statement(w),
            // Module items: imports and re-exports were bound at link time.
            Statement::EmptyStatement(_)
            | Statement::DebuggerStatement(_)
            | Statement::ImportDeclaration(_)
            | Statement::ExportAllDeclaration(_)
            | Statement::ExportNamedDeclaration(_)
            | Statement::ExportFromDeclaration(_) => Ok(()),
            Statement::ExportDeclaration(export) => self.export_declaration(&export.declaration),
            Statement::ExportDefaultDeclaration(export) => self.export_default(export),
            _ => match statement.as_declaration() {
                Some(Declaration::VariableDeclaration(decl)) => self.variable_declaration(decl),
                _ => Err(CompileError::syntax("Unexpected token".to_owned())),
            },
        }
    }

    /// An expression statement: its value is the completion value of script
    /// and eval code.
    fn expression_statement(&mut self, e: &'a ExpressionStatement<'a>) -> CResult<()> {
        match self.completion {
            Some(c) => self.expression(&e.expression, c),
            None => self.effect(&e.expression),
        }
    }

    /// `class C { … }`: the class is evaluated and bound to its name.
    fn class_declaration(&mut self, class: &'a Class<'a>) -> CResult<()> {
        let mark = self.mark();
        let r = self.temp()?;
        self.class(class, r, None)?;
        if let Some(symbol) = class.id.as_ref().and_then(|id| id.symbol_id.get()) {
            self.store_binding(symbol, r, true)?;
        }
        self.release(mark);
        Ok(())
    }

    /// `return value`: leaves through every enclosing `finally` and
    /// iterator close.
    fn return_statement(&mut self, ret: &'a ReturnStatement<'a>) -> CResult<()> {
        let mark = self.mark();
        if let Some(r) = self.returned_register(ret)? {
            self.unwind_for_exit(0)?;
            self.emit_return(r);
            self.reopen_ranges(0);
            self.release(mark);
            return Ok(());
        }
        let r = self.temp()?;
        match &ret.argument {
            Some(e) => {
                self.expression(e, r)?;
                if self.is_async && self.kind == CodeKind::Generator {
                    // An async generator awaits what it returns.
                    let mode = self.temp()?;
                    self.emit_await(r, mode);
                }
            }
            None => {
                self.emit(Instruction::LoadUndefined { dst: r });
            }
        }
        self.unwind_for_exit(0)?;
        self.emit_return(r);
        self.reopen_ranges(0);
        self.release(mark);
        Ok(())
    }

    /// For `return x` of a binding in a register, that register (after its
    /// TDZ check), to return in place: nothing that runs on the way out can
    /// write it (no `finally` block of this function is left; iterator
    /// `return()` and disposers are other functions).
    fn returned_register(&mut self, ret: &'a ReturnStatement<'a>) -> CResult<Option<Reg>> {
        let Some(oxc_ast::ast::Expression::Identifier(id)) = &ret.argument else { return Ok(None) };
        let leaves_finally = self.control.iter().any(|c| matches!(c, Control::Try { finalizer: Some(_), .. }));
        if leaves_finally || (self.is_async && self.kind == CodeKind::Generator) || !self.with_objects.is_empty() {
            return Ok(None);
        }
        let Some(symbol) = self.symbol_of(id) else { return Ok(None) };
        if !matches!(self.location_of(symbol), super::scope::Location::Register(_)) {
            return Ok(None);
        }
        let scratch = self.temp()?;
        self.load_binding_at(symbol, scratch, false, Some(id.span.start)).map(Some)
    }

    /// `while (test) body`.
    fn while_statement(&mut self, s: &'a WhileStatement<'a>, labels: Vec<String>) -> CResult<()> {
        let start = self.here();
        self.control.push(Control::Breakable { labels, is_loop: true, breaks: Vec::new(), continues: Vec::new() });
        let exit = self.jump_if_false(&s.test)?;
        self.statement(&s.body)?;
        self.emit(Instruction::Jump { target: start });
        self.patch_here(exit);
        self.finish_breakable(start);
        Ok(())
    }

    /// `do body while (test)`.
    fn do_while_statement(&mut self, s: &'a DoWhileStatement<'a>, labels: Vec<String>) -> CResult<()> {
        let start = self.here();
        self.control.push(Control::Breakable { labels, is_loop: true, breaks: Vec::new(), continues: Vec::new() });
        self.statement(&s.body)?;
        let continue_target = self.here();
        let mark = self.mark();
        let r = self.temp()?;
        self.expression(&s.test, r)?;
        self.emit(Instruction::JumpIfTrue { cond: r, target: start });
        self.release(mark);
        self.finish_breakable(continue_target);
        Ok(())
    }

    /// `throw value`.
    fn throw_statement(&mut self, s: &'a ThrowStatement<'a>) -> CResult<()> {
        let mark = self.mark();
        let r = self.temp()?;
        self.expression(&s.argument, r)?;
        self.mark_position(s.span.start);
        self.emit(Instruction::Throw { src: r });
        self.release(mark);
        Ok(())
    }

    /// Sets the completion value (of script and eval code) to undefined.
    fn reset_completion(&mut self) {
        if let Some(completion) = self.completion {
            self.emit(Instruction::LoadUndefined { dst: completion });
        }
    }

    /// A `finally` block: its normal completion value is dropped (§14.15.3:
    /// the `try` statement's value is the block's or the handler's), but a
    /// `break` or `continue` out of it carries the finally block's own.
    fn finally_block(&mut self, block: &'a BlockStatement<'a>) -> CResult<()> {
        let Some(outer) = self.completion else { return self.block(block) };
        let mark = self.mark();
        let own = self.temp()?;
        self.emit(Instruction::LoadUndefined { dst: own });
        self.completion = Some(own);
        self.finally_completions.push((self.control.len(), outer));
        let result = self.block(block);
        self.finally_completions.pop();
        self.completion = Some(outer);
        self.release(mark);
        result
    }

    /// A block with its own scope.
    pub fn block(&mut self, block: &'a BlockStatement<'a>) -> CResult<()> {
        self.block_then(block, |_| {})
    }

    /// A block with its own scope; `on_entry` emits code that runs once
    /// its environment exists, before its statements.
    pub fn block_then(&mut self, block: &'a BlockStatement<'a>, on_entry: impl FnOnce(&mut Self)) -> CResult<()> {
        if block.scope_id.get() == Some(self.current_scope()) {
            // A catch body can share the catch clause's scope: its bindings
            // are already initialised.
            on_entry(self);
            self.hoist_block_functions(&block.body)?;
            return self.statement_list(&block.body);
        }
        let pushed = self.enter_scope(block.scope_id.get(), &block.body)?;
        on_entry(self);
        self.statement_list(&block.body)?;
        self.leave_scope(pushed);
        Ok(())
    }

    pub(super) fn variable_declaration(&mut self, decl: &'a VariableDeclaration<'a>) -> CResult<()> {
        if matches!(decl.kind, VariableDeclarationKind::Using | VariableDeclarationKind::AwaitUsing) {
            return self.using_declaration(decl);
        }
        for d in &decl.declarations {
            let mark = self.mark();
            if let Some(init) = &d.init
                && decl.kind == VariableDeclarationKind::Var
                && !self.with_objects.is_empty()
                && let oxc_ast::ast::BindingPattern::BindingIdentifier(id) = &d.id
                && let Some(symbol) = id.symbol_id.get()
            {
                self.var_initializer_in_with(symbol, id.name.as_str(), init)?;
                self.release(mark);
                continue;
            }
            match &d.init {
                Some(init) => {
                    let name = binding_name(&d.id);
                    // `let x = e` with `x` in a register evaluates `e` straight
                    // into it when `e` writes its result only as its last step
                    // (a read of `x` inside `e` still sees the TDZ marker).
                    if let oxc_ast::ast::BindingPattern::BindingIdentifier(id) = &d.id
                        && self.with_objects.is_empty()
                        && writes_result_last(init)
                        && let Some(symbol) = id.symbol_id.get()
                        && let super::scope::Location::Register(r) = self.location_of(symbol)
                    {
                        self.expression_named(init, Reg(r), name.as_deref())?;
                    } else {
                        let r = self.temp()?;
                        self.expression_named(init, r, name.as_deref())?;
                        self.bind_pattern(&d.id, r, true)?;
                    }
                }
                None if decl.kind != VariableDeclarationKind::Var => {
                    let r = self.temp()?;
                    self.emit(Instruction::LoadUndefined { dst: r });
                    self.bind_pattern(&d.id, r, true)?;
                }
                None => {}
            }
            self.release(mark);
        }
        Ok(())
    }

    fn if_statement(&mut self, s: &'a IfStatement<'a>) -> CResult<()> {
        let to_else = self.jump_if_false(&s.test)?;
        self.statement(&s.consequent)?;
        match &s.alternate {
            Some(alt) => {
                let to_end = self.emit_jump();
                self.patch_here(to_else);
                self.statement(alt)?;
                self.patch_here(to_end);
            }
            None => self.patch_here(to_else),
        }
        Ok(())
    }

    /// Pops a loop or switch entry and patches its jumps.
    fn finish_breakable(&mut self, continue_target: u32) {
        if let Some(Control::Breakable { breaks, continues, .. }) = self.control.pop() {
            for c in continues {
                self.patch(c, continue_target);
            }
            let end = self.here();
            for b in breaks {
                self.patch(b, end);
            }
        }
    }

    fn labeled_statement(&mut self, s: &'a LabeledStatement<'a>, mut labels: Vec<String>) -> CResult<()> {
        labels.push(s.label.name.as_str().to_owned());
        match &s.body {
            Statement::ForStatement(_)
            | Statement::ForInStatement(_)
            | Statement::ForOfStatement(_)
            | Statement::WhileStatement(_)
            | Statement::DoWhileStatement(_)
            | Statement::SwitchStatement(_)
            | Statement::LabeledStatement(_) => {
                self.mark_position(offset_of(&s.body));
                self.statement_inner(&s.body, labels)
            }
            body => {
                let label = s.label.name.as_str().to_owned();
                self.control.push(Control::Labelled { label, breaks: Vec::new() });
                self.statement(body)?;
                if let Some(Control::Labelled { breaks, .. }) = self.control.pop() {
                    let end = self.here();
                    for b in breaks {
                        self.patch(b, end);
                    }
                }
                Ok(())
            }
        }
    }

    /// `break` / `continue`: runs the cleanups of everything crossed, then
    /// jumps.
    fn exit(&mut self, kind: ExitKind, label: Option<&str>) -> CResult<()> {
        let mut target = None;
        for (i, c) in self.control.iter().enumerate().rev() {
            let matches = match (c, kind, label) {
                (Control::Breakable { is_loop, .. }, ExitKind::Continue, None) => *is_loop,
                (Control::Breakable { .. }, ExitKind::Break, None) => true,
                (Control::Breakable { labels, is_loop, .. }, k, Some(l)) => {
                    labels.iter().any(|x| x == l) && (k == ExitKind::Break || *is_loop)
                }
                (Control::Labelled { label: name, .. }, ExitKind::Break, Some(l)) => name == l,
                _ => false,
            };
            if matches {
                target = Some(i);
                break;
            }
        }
        let Some(level) = target else {
            return Err(CompileError::syntax("Illegal break or continue statement".to_owned()));
        };
        // Leaving a `finally` block: its value becomes the statement's.
        if let Some(&(_, outer)) = self.finally_completions.iter().find(|(len, _)| *len > level)
            && let Some(own) = self.completion
        {
            self.emit(Instruction::Move { dst: outer, src: own });
        }
        self.unwind_for_exit(level + 1)?;
        let jump = self.emit_jump();
        match &mut self.control[level] {
            Control::Breakable { breaks, continues, .. } => {
                if kind == ExitKind::Break {
                    breaks.push(jump);
                } else {
                    continues.push(jump);
                }
            }
            Control::Labelled { breaks, .. } => breaks.push(jump),
            _ => {}
        }
        self.reopen_ranges(level + 1);
        Ok(())
    }

    /// Emits the cleanups of every control entry above `level`, innermost
    /// first: pops environments, closes iterators, closes `try` ranges and
    /// inlines `finally` blocks.
    pub fn unwind_for_exit(&mut self, level: usize) -> CResult<()> {
        let mut i = self.control.len();
        while i > level {
            i -= 1;
            let here = self.here();
            let action = match &mut self.control[i] {
                Control::Env => Some(Instruction::PopEnv),
                Control::Iterator { record, async_regs: None } => Some(Instruction::IteratorClose { iter: *record }),
                Control::Iterator { record, async_regs: Some((scratch, mode)) } => {
                    let (record, scratch, mode) = (*record, *scratch, *mode);
                    self.emit_async_iterator_close(record, scratch, mode);
                    None
                }
                Control::Dispose(scope) => {
                    scope.close_range(here);
                    let regs = scope.disposal_regs();
                    self.emit_dispose_resources(regs, super::using::NO_ERROR);
                    None
                }
                Control::Try { open, ranges, finalizer, .. } => {
                    if let Some(start) = open.take()
                        && start < here
                    {
                        ranges.push((start, here));
                    }
                    if let Some(f) = *finalizer {
                        self.inline_finally(i, f)?;
                    }
                    None
                }
                Control::Breakable { .. } | Control::Labelled { .. } => None,
            };
            if let Some(instruction) = action {
                self.emit(instruction);
            }
        }
        Ok(())
    }

    /// Reopens the ranges of `try` entries above `level` after an exit.
    pub fn reopen_ranges(&mut self, level: usize) {
        let here = self.here();
        for c in &mut self.control[level..] {
            if let Control::Try { open, .. } = c
                && open.is_none()
            {
                *open = Some(here);
            } else if let Control::Dispose(scope) = c {
                scope.reopen_range(here);
            }
        }
    }

    /// Compiles a `finally` block in the context of its `try` statement
    /// (control entry `level`).
    fn inline_finally(&mut self, level: usize, block: &'a BlockStatement<'a>) -> CResult<()> {
        let saved_control: Vec<Control<'a>> = self.control.drain(level..).collect();
        let saved_scopes = self.scope_stack.clone();
        let result = self.finally_block(block);
        self.scope_stack = saved_scopes;
        self.control.extend(saved_control);
        result
    }

    fn try_statement(&mut self, s: &'a TryStatement<'a>) -> CResult<()> {
        let saved_env = self.temp()?;
        let exception = self.temp()?;
        self.emit(Instruction::SaveEnv { dst: saved_env });
        let finalizer = s.finalizer.as_deref();
        let scopes_before = self.scope_stack.clone();
        // The protected region of the try block.
        let start = self.here();
        self.control.push(Control::Try { ranges: Vec::new(), open: Some(start), finalizer });
        self.block(&s.block)?;
        let try_ranges = self.close_try();
        let mut to_end = Vec::new();
        if let Some(f) = finalizer {
            self.finally_block(f)?;
        }
        to_end.push(self.emit_jump());
        let mut finally_ranges = Vec::new();
        if let Some(catch) = &s.handler {
            let catch_target = self.here();
            self.push_handlers(&try_ranges, catch_target, exception);
            self.emit(Instruction::RestoreEnv { src: saved_env });
            self.scope_stack = scopes_before.clone();
            if finalizer.is_some() {
                let here = self.here();
                self.control.push(Control::Try { ranges: Vec::new(), open: Some(here), finalizer });
            }
            let pushed = self.enter_scope(catch.scope_id.get(), &[])?;
            // The parameter is bound in the catch clause's scope (where
            // `split_bindings` keeps its bindings) before the body's is
            // entered: closures in its defaults see that scope (§14.15.2).
            if let Some(param) = &catch.param {
                self.bind_pattern(&param.pattern, exception, true)?;
            }
            let body_scope = catch.body.scope_id.get();
            let body_pushed = if body_scope == catch.scope_id.get() {
                self.hoist_block_functions(&catch.body.body)?;
                None
            } else {
                Some(self.enter_scope(body_scope, &catch.body.body)?)
            };
            self.reset_completion();
            for statement in &catch.body.body {
                self.statement(statement)?;
            }
            if let Some(body_pushed) = body_pushed {
                self.leave_scope(body_pushed);
            }
            self.leave_scope(pushed);
            if finalizer.is_some() {
                finally_ranges = self.close_try();
            }
            if let Some(f) = finalizer {
                self.finally_block(f)?;
            }
            to_end.push(self.emit_jump());
        } else {
            finally_ranges = try_ranges;
        }
        if let Some(f) = finalizer {
            let target = self.here();
            self.push_handlers(&finally_ranges, target, exception);
            self.emit(Instruction::RestoreEnv { src: saved_env });
            self.scope_stack = scopes_before;
            self.finally_block(f)?;
            self.emit(Instruction::Throw { src: exception });
        }
        for j in to_end {
            self.patch_here(j);
        }
        Ok(())
    }

    /// Pops a `try` entry, returning its ranges.
    pub(super) fn close_try(&mut self) -> Vec<(u32, u32)> {
        let here = self.here();
        match self.control.pop() {
            Some(Control::Try { mut ranges, open, .. }) => {
                if let Some(start) = open
                    && start < here
                {
                    ranges.push((start, here));
                }
                ranges
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn push_handlers(&mut self, ranges: &[(u32, u32)], target: u32, exception: Reg) {
        for &(start, end) in ranges {
            self.handlers.push(Handler { start, end, target, exception });
        }
    }

    fn for_statement(&mut self, s: &'a ForStatement<'a>, labels: Vec<String>) -> CResult<()> {
        let pushed = self.enter_scope(s.scope_id.get(), &[])?;
        let per_iteration = pushed
            && matches!(&s.init, Some(ForStatementInit::VariableDeclaration(d)) if d.kind != VariableDeclarationKind::Var);
        let disposal = match &s.init {
            Some(ForStatementInit::VariableDeclaration(d)) => super::using::Disposal::of_declaration(d),
            _ => None,
        };
        self.with_disposal(disposal, |fc| fc.for_statement_loop(s, labels, per_iteration))?;
        self.leave_scope(pushed);
        Ok(())
    }

    /// A `for` statement from its head's initialisation to its end, in the
    /// statement's scope.
    fn for_statement_loop(&mut self, s: &'a ForStatement<'a>, labels: Vec<String>, per_iteration: bool) -> CResult<()> {
        if let Some(init) = &s.init {
            match init {
                ForStatementInit::VariableDeclaration(d) => self.variable_declaration(d)?,
                other => {
                    if let Some(e) = other.as_expression() {
                        self.effect(e)?;
                    }
                }
            }
        }
        if per_iteration {
            self.emit(Instruction::CopyEnv);
        }
        let start = self.here();
        self.control.push(Control::Breakable { labels, is_loop: true, breaks: Vec::new(), continues: Vec::new() });
        let mut exit = None;
        if let Some(test) = &s.test {
            exit = Some(self.jump_if_false(test)?);
        }
        self.statement(&s.body)?;
        let continue_target = self.here();
        if per_iteration {
            self.emit(Instruction::CopyEnv);
        }
        if let Some(update) = &s.update {
            self.effect(update)?;
        }
        self.emit(Instruction::Jump { target: start });
        if let Some(e) = exit {
            self.patch_here(e);
        }
        self.finish_breakable(continue_target);
        Ok(())
    }

    /// Assigns the loop value in `value` to a for-in/of head.
    fn bind_for_head(&mut self, left: &'a ForStatementLeft<'a>, value: Reg) -> CResult<()> {
        match left {
            ForStatementLeft::VariableDeclaration(decl)
                if matches!(decl.kind, VariableDeclarationKind::Using | VariableDeclarationKind::AwaitUsing) =>
            {
                self.bind_using_for_head(decl, value)
            }
            ForStatementLeft::VariableDeclaration(decl) => {
                if let Some(d) = decl.declarations.first() {
                    self.bind_pattern(&d.id, value, true)?;
                }
                Ok(())
            }
            other => match other.as_assignment_target() {
                Some(target) => self.assign_to_target(target, value),
                None => Err(CompileError::syntax("Invalid left-hand side in for loop".to_owned())),
            },
        }
    }

    fn for_in_statement(&mut self, s: &'a ForInStatement<'a>, labels: Vec<String>) -> CResult<()> {
        let iter = self.temp()?;
        // B.3.5: `for (var x = init in obj)` in sloppy code binds `init`
        // first (the parser allows it only there).
        if let ForStatementLeft::VariableDeclaration(decl) = &s.left
            && decl.kind == VariableDeclarationKind::Var
            && let Some(d) = decl.declarations.first()
            && let Some(init) = &d.init
        {
            let mark = self.mark();
            let r = self.temp()?;
            self.expression_named(init, r, binding_name(&d.id).as_deref())?;
            self.bind_pattern(&d.id, r, true)?;
            self.release(mark);
        }
        {
            let mark = self.mark();
            let r = self.temp()?;
            self.for_head_expression(&s.left, s.scope_id.get(), &s.right, r)?;
            self.emit(Instruction::ForInStart { dst: iter, obj: r });
            self.release(mark);
        }
        let start = self.here();
        let value = self.temp()?;
        let next = self.emit(Instruction::ForInNext { dst: value, iter, done: u32::MAX });
        self.control.push(Control::Breakable { labels, is_loop: true, breaks: Vec::new(), continues: Vec::new() });
        let pushed = self.enter_scope(s.scope_id.get(), &[])?;
        self.bind_for_head(&s.left, value)?;
        self.statement(&s.body)?;
        self.leave_scope(pushed);
        self.emit(Instruction::Jump { target: start });
        self.patch_here(next);
        self.finish_breakable(start);
        Ok(())
    }

    /// `for (x of it)` and `for await (x of it)`: the head binding and the
    /// body are a protected region whose throws close the iterator (its
    /// `return` is called, its errors ignored) before propagating.
    fn for_of_statement(&mut self, s: &'a ForOfStatement<'a>, labels: Vec<String>) -> CResult<()> {
        let record = self.temp()?;
        {
            let mark = self.mark();
            let r = self.temp()?;
            self.for_head_expression(&s.left, s.scope_id.get(), &s.right, r)?;
            if s.r#await {
                self.emit(Instruction::GetAsyncIterator { dst: record, src: r });
            } else {
                self.emit(Instruction::GetIterator { dst: record, src: r });
            }
            self.release(mark);
        }
        let saved_env = self.temp()?;
        let exception = self.temp()?;
        let async_regs = if s.r#await { Some((self.temp()?, self.temp()?)) } else { None };
        self.emit(Instruction::SaveEnv { dst: saved_env });
        // The iterator entry sits outside the loop entry: `continue` keeps
        // the iterator, outer exits close it, and `break` reaches the close
        // after the loop.
        self.control.push(Control::Iterator { record, async_regs });
        let start = self.here();
        let value = self.temp()?;
        let next = if let Some((scratch, mode)) = async_regs {
            self.emit(Instruction::AsyncIteration(AsyncIterationOp::Next { dst: scratch, iter: record }));
            self.emit_await(scratch, mode);
            self.emit(Instruction::AsyncIteration(AsyncIterationOp::Step {
                dst: value,
                result: scratch,
                iter: record,
                done: u32::MAX,
            }))
        } else {
            self.emit(Instruction::IteratorNext { dst: value, iter: record, done: u32::MAX })
        };
        self.control.push(Control::Breakable { labels, is_loop: true, breaks: Vec::new(), continues: Vec::new() });
        let body_start = self.here();
        self.control.push(Control::Try { ranges: Vec::new(), open: Some(body_start), finalizer: None });
        let pushed = self.enter_scope(s.scope_id.get(), &[])?;
        self.with_disposal(super::using::Disposal::of_for_left(&s.left), |fc| {
            fc.bind_for_head(&s.left, value)?;
            fc.statement(&s.body)
        })?;
        self.leave_scope(pushed);
        let protected = self.close_try();
        self.emit(Instruction::Jump { target: start });
        self.patch_here(next);
        self.finish_breakable(start);
        self.control.pop();
        // After `break` (a finished iterator is not closed).
        match async_regs {
            Some((scratch, mode)) => self.emit_async_iterator_close(record, scratch, mode),
            None => {
                self.emit(Instruction::IteratorClose { iter: record });
            }
        }
        let over = self.emit_jump();
        let handler = self.here();
        self.push_handlers(&protected, handler, exception);
        self.emit(Instruction::RestoreEnv { src: saved_env });
        match async_regs {
            Some((scratch, mode)) => {
                let skip = self.emit(Instruction::AsyncIteration(AsyncIterationOp::Return {
                    dst: scratch,
                    iter: record,
                    skip: u32::MAX,
                    quiet: true,
                }));
                self.emit(Instruction::Await { value: scratch, mode });
                self.patch_here(skip);
            }
            None => {
                self.emit(Instruction::IteratorCloseOnThrow { iter: record });
            }
        }
        self.emit(Instruction::Throw { src: exception });
        self.patch_here(over);
        Ok(())
    }

    /// The expression of a for-in/of head (ForIn/OfHeadEvaluation): with a
    /// lexical declaration on the left, evaluated in a scope where its
    /// bound names are in their TDZ.
    fn for_head_expression(
        &mut self,
        left: &'a ForStatementLeft<'a>,
        scope: Option<oxc_syntax::scope::ScopeId>,
        right: &'a oxc_ast::ast::Expression<'a>,
        dst: Reg,
    ) -> CResult<()> {
        if !matches!(left, ForStatementLeft::VariableDeclaration(d) if d.kind != VariableDeclarationKind::Var) {
            return self.expression(right, dst);
        }
        let pushed = self.enter_scope(scope, &[])?;
        let result = self.expression(right, dst);
        self.leave_scope(pushed);
        result
    }

    /// AsyncIteratorClose for a normal completion: calls and awaits the
    /// iterator's `return` (if it has one and is not finished) and checks
    /// that it produced an object.
    pub(crate) fn emit_async_iterator_close(&mut self, record: Reg, scratch: Reg, mode: Reg) {
        let skip = self.emit(Instruction::AsyncIteration(AsyncIterationOp::Return {
            dst: scratch,
            iter: record,
            skip: u32::MAX,
            quiet: false,
        }));
        self.emit_await(scratch, mode);
        self.emit(Instruction::ThrowIfNotObject { src: scratch });
        self.patch_here(skip);
    }

    fn switch_statement(&mut self, s: &'a SwitchStatement<'a>, labels: Vec<String>) -> CResult<()> {
        let discriminant = self.temp()?;
        self.expression(&s.discriminant, discriminant)?;
        let pushed = self.enter_scope(s.scope_id.get(), &[])?;
        for case in &s.cases {
            self.hoist_case_functions(&case.consequent)?;
        }
        self.control.push(Control::Breakable { labels, is_loop: false, breaks: Vec::new(), continues: Vec::new() });
        let mut case_jumps = Vec::new();
        let test = self.temp()?;
        for case in &s.cases {
            if let Some(t) = &case.test {
                self.expression(t, test)?;
                self.emit(Instruction::StrictEq { dst: test, lhs: discriminant, rhs: test });
                case_jumps.push(Some(self.emit(Instruction::JumpIfTrue { cond: test, target: u32::MAX })));
            } else {
                case_jumps.push(None);
            }
        }
        let default_jump = self.emit_jump();
        let mut default_target = None;
        for (case, jump) in s.cases.iter().zip(case_jumps) {
            match jump {
                Some(j) => self.patch_here(j),
                None => default_target = Some(self.here()),
            }
            for statement in &case.consequent {
                self.statement(statement)?;
            }
        }
        match default_target {
            Some(t) => self.patch(default_jump, t),
            None => {
                if let Some(Control::Breakable { breaks, .. }) = self.control.last_mut() {
                    breaks.push(default_jump);
                }
            }
        }
        let end = self.here();
        self.finish_breakable(end);
        self.leave_scope(pushed);
        Ok(())
    }

    fn hoist_case_functions(&mut self, statements: &'a [Statement<'a>]) -> CResult<()> {
        for statement in statements {
            if let Statement::FunctionDeclaration(f) = statement {
                let Some(id) = &f.id else { continue };
                let Some(symbol) = id.symbol_id.get() else { continue };
                let mark = self.mark();
                let r = self.temp()?;
                self.compile_function_expression(f, r, Some(id.name.as_str()))?;
                self.store_binding(symbol, r, true)?;
                self.release(mark);
            }
        }
        Ok(())
    }
}

/// Whether compiling `e` into a register writes that register only with
/// its final instruction (no branches that write it early).
fn writes_result_last(e: &oxc_ast::ast::Expression<'_>) -> bool {
    use oxc_ast::ast::Expression;
    matches!(
        e,
        Expression::NumericLiteral(_)
            | Expression::StringLiteral(_)
            | Expression::BooleanLiteral(_)
            | Expression::NullLiteral(_)
            | Expression::Identifier(_)
            | Expression::BinaryExpression(_)
            | Expression::CallExpression(_)
            | Expression::NewExpression(_)
            | Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::ArrayExpression(_)
            | Expression::ObjectExpression(_)
    ) && !matches!(e, Expression::CallExpression(c) if c.optional)
}
