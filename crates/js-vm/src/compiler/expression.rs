//! Expressions (ECMA-262 §13).

use oxc_ast::ast::{
    Argument, ArrayExpression, ArrayExpressionElement, AssignmentExpression, AssignmentTarget, BinaryExpression,
    CallExpression, ChainElement, ChainExpression, ConditionalExpression, Expression, IdentifierReference,
    ImportExpression, LogicalExpression, MemberExpression, NewExpression, ObjectExpression, ObjectPropertyKind,
    PrivateInExpression, PropertyKey, PropertyKind, RegExpLiteral, SequenceExpression, SimpleAssignmentTarget,
    TaggedTemplateExpression, TemplateLiteral, UnaryExpression, UpdateExpression,
};
use oxc_span::GetSpan;
use oxc_syntax::operator::{AssignmentOperator, BinaryOperator, LogicalOperator, UnaryOperator, UpdateOperator};
use oxc_syntax::symbol::SymbolFlags;

use super::function::FunctionCompiler;
use super::scope::Location;
use super::{CResult, CompileError, THIS_REG, atom_value, decode_lone_surrogates};
use crate::bytecode::{Instruction, NumericOp, Reg};
use crate::value::Value;

/// A property reference whose base (and key) are already evaluated.
#[derive(Clone, Copy)]
pub(crate) enum PropertyRef {
    /// `obj.name` (`name` is a constant index).
    Named { obj: Reg, name: u32 },
    /// `obj[key]`.
    Keyed { obj: Reg, key: Reg },
    /// `obj.#name` (`key` holds the Private Name).
    Private { obj: Reg, key: Reg },
    /// `super.name` / `super[key]`: the home object's prototype (taken
    /// when the reference is made, in `proto`) with `this` as the
    /// receiver (`key` holds the key).
    Super { proto: Reg, key: Reg },
}

impl<'a> FunctionCompiler<'_, 'a> {
    /// Compiles `e` into `dst`.
    pub fn expression(&mut self, e: &'a Expression<'a>, dst: Reg) -> CResult<()> {
        self.expression_named(e, dst, None)
    }

    /// Compiles `e` into `dst`; anonymous functions and classes get `name`.
    pub fn expression_named(&mut self, e: &'a Expression<'a>, dst: Reg, name: Option<&str>) -> CResult<()> {
        self.enter_nesting()?;
        let result = self.expression_inner(e, dst, name);
        self.leave_nesting();
        result
    }

    /// Compiles `e` into some register: a local binding's own register when
    /// `e` is one, otherwise a new temporary.
    pub fn expression_any(&mut self, e: &'a Expression<'a>) -> CResult<Reg> {
        if let Expression::Identifier(id) = e
            && self.with_objects.is_empty()
            && let Some(symbol) = self.symbol_of(id)
            && let Location::Register(_) = self.location_of(symbol)
        {
            let r = self.temp()?;
            return self.load_binding_at(symbol, r, false, Some(id.span.start));
        }
        // `++i` of a register binding: the binding's register after the
        // update, as `i` would be.
        if let Expression::UpdateExpression(u) = e
            && u.prefix
            && let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = &u.argument
            && let Some(r) = self.local_register_target(id)?
        {
            let inc = u.operator == UpdateOperator::Increment;
            self.emit(if inc { Instruction::Inc { dst: r, src: r } } else { Instruction::Dec { dst: r, src: r } });
            return Ok(r);
        }
        if let Expression::ThisExpression(_) = e
            && !matches!(self.kind, crate::bytecode::CodeKind::ClassConstructor { derived: true })
            && self.kind != crate::bytecode::CodeKind::Arrow
        {
            return Ok(THIS_REG);
        }
        let r = self.temp()?;
        self.expression(e, r)?;
        Ok(r)
    }

    pub(super) fn symbol_of(&self, id: &IdentifierReference<'_>) -> Option<oxc_syntax::symbol::SymbolId> {
        let reference = id.reference_id.get()?;
        if self.analysis.annex_b.is_unresolved(reference) {
            return None;
        }
        self.analysis.scoping.get_reference(reference).symbol_id()
    }

    fn load_number(&mut self, n: f64, dst: Reg) {
        if n.fract() == 0.0 && n.abs() < 1e9 && !(n == 0.0 && n.is_sign_negative()) {
            self.emit(Instruction::LoadInt { dst, value: n as i32 });
        } else {
            let c = self.constant(Value::number(n));
            self.emit(Instruction::LoadConst { dst, index: c });
        }
    }

    /// Loads a BigInt literal (oxc gives its value in decimal, without
    /// separators) from the constant pool.
    fn load_bigint(&mut self, decimal: &str, dst: Reg) -> CResult<()> {
        use crate::bigint::ops;
        let Some(n) = ops::string_to_big_int(crate::string::JsStr::Latin1(decimal.as_bytes())) else {
            return Err(CompileError::syntax(format!("Invalid BigInt literal {decimal}")));
        };
        let n = ops::within_bounds(n).map_err(|e| CompileError::Range(e.message().to_owned()))?;
        let v = self.vm.bigint(n);
        let c = self.constant(v);
        self.emit(Instruction::LoadConst { dst, index: c });
        Ok(())
    }

    pub(super) fn load_string_units(&mut self, units: &[u16], dst: Reg) {
        let v = atom_value(self.vm, units);
        let c = self.constant(v);
        self.emit(Instruction::LoadConst { dst, index: c });
    }

    fn expression_inner(&mut self, e: &'a Expression<'a>, dst: Reg, name: Option<&str>) -> CResult<()> {
        self.mark_position(e.span().start);
        match e {
            Expression::BooleanLiteral(b) => {
                self.emit(Instruction::LoadBool { dst, value: b.value });
            }
            Expression::NullLiteral(_) => {
                self.emit(Instruction::LoadNull { dst });
            }
            Expression::NumericLiteral(n) => self.load_number(n.value, dst),
            Expression::StringLiteral(s) => {
                let units = decode_lone_surrogates(s.value.as_str(), s.lone_surrogates);
                self.load_string_units(&units, dst);
            }
            Expression::BigIntLiteral(b) => self.load_bigint(b.value.as_str(), dst)?,
            Expression::RegExpLiteral(re) => self.regexp_literal(re, dst),
            Expression::TemplateLiteral(t) => self.template_literal(t, dst)?,
            Expression::Identifier(id) => self.identifier(id, dst)?,
            Expression::ThisExpression(_) => self.this_expression(dst),
            Expression::ParenthesizedExpression(p) => self.expression_named(&p.expression, dst, name)?,
            Expression::SequenceExpression(s) => self.sequence(s, dst)?,
            Expression::ArrayExpression(a) => self.array_literal(a, dst)?,
            Expression::ObjectExpression(o) => self.object_literal(o, dst)?,
            Expression::FunctionExpression(f) => {
                let own_name = f.id.as_ref().map(|id| id.name.as_str().to_owned());
                let n = own_name.as_deref().or(name);
                self.compile_function_expression(f, dst, n)?;
            }
            Expression::ArrowFunctionExpression(f) => self.compile_arrow(f, dst, name)?,
            Expression::ClassExpression(c) => self.class(c, dst, name)?,
            Expression::UnaryExpression(u) => self.unary(u, dst)?,
            Expression::UpdateExpression(u) => self.update(u, dst)?,
            Expression::BinaryExpression(b) => self.binary(b, dst)?,
            Expression::LogicalExpression(l) => self.logical(l, dst)?,
            Expression::ConditionalExpression(c) => self.conditional(c, dst)?,
            Expression::AssignmentExpression(a) => self.assignment(a, dst)?,
            Expression::CallExpression(c) => self.call(c, dst, &mut None)?,
            Expression::NewExpression(n) => self.new_expression(n, dst)?,
            Expression::ChainExpression(c) => self.chain(c, dst)?,
            Expression::TaggedTemplateExpression(t) => self.tagged_template(t, dst)?,
            Expression::NewTarget(_) => {
                self.emit(Instruction::LoadNewTarget { dst });
            }
            Expression::ImportMeta(_) => {
                if self.analysis.module_scope.is_none() {
                    return Err(CompileError::syntax("Cannot use 'import.meta' outside a module".to_owned()));
                }
                self.emit(Instruction::ImportMeta { dst });
            }
            Expression::YieldExpression(y) if y.delegate => self.yield_delegate(y.argument.as_ref(), dst)?,
            Expression::YieldExpression(y) => self.yield_value(y.argument.as_ref(), dst)?,
            Expression::AwaitExpression(a) => self.await_value(&a.argument, dst)?,
            Expression::ImportExpression(call) => self.import_call(call, dst)?,
            Expression::PrivateInExpression(p) => self.private_in(p, dst)?,
            Expression::Super(_) => return Err(CompileError::syntax("'super' keyword unexpected here".to_owned())),
            _ => {
                if let Some(m) = e.as_member_expression() {
                    self.member(m, dst, &mut None)?;
                } else {
                    return Err(CompileError::syntax("Unexpected token".to_owned()));
                }
            }
        }
        Ok(())
    }

    /// `new callee(arguments)`.
    fn new_expression(&mut self, n: &'a NewExpression<'a>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let callee = self.temp()?;
        self.expression(&n.callee, callee)?;
        self.mark_position(n.span.start);
        match self.arguments(&n.arguments)? {
            Arguments::List(args, argc) => {
                self.mark_position(n.span.start);
                self.emit(Instruction::New { dst, callee, args, argc });
            }
            Arguments::Spread(array) => {
                self.mark_position(n.span.start);
                self.emit(Instruction::NewSpread { dst, callee, args: array });
            }
        }
        self.release(mark);
        Ok(())
    }

    /// An optional chain (`a?.b`, `f?.()`): a short-circuit anywhere in it
    /// makes the whole chain undefined.
    fn chain(&mut self, c: &'a ChainExpression<'a>, dst: Reg) -> CResult<()> {
        let mut exits = Some(Vec::new());
        match &c.expression {
            ChainElement::CallExpression(call) => self.call(call, dst, &mut exits)?,
            ChainElement::TSNonNullExpression(_) => {
                return Err(CompileError::syntax("TypeScript syntax is not JavaScript".to_owned()));
            }
            other => {
                if let Some(m) = other.as_member_expression() {
                    self.member(m, dst, &mut exits)?;
                }
            }
        }
        let exits = exits.unwrap_or_default();
        if !exits.is_empty() {
            let to_end = self.emit_jump();
            for j in exits {
                self.patch_here(j);
            }
            self.emit(Instruction::LoadUndefined { dst });
            self.patch_here(to_end);
        }
        Ok(())
    }

    /// A tagged template: the tag is called with the site's template object
    /// and the substitutions.
    fn tagged_template(&mut self, t: &'a TaggedTemplateExpression<'a>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let callee = self.temp()?;
        let this = self.temp()?;
        self.emit(Instruction::LoadUndefined { dst: this });
        if let Some(m) = t.tag.as_member_expression() {
            self.member_with_this(m, callee, this, &mut None)?;
        } else {
            self.expression(&t.tag, callee)?;
        }
        let count = t.quasi.expressions.len() + 1;
        let args = self.temps(count)?;
        self.template_object(&t.quasi, args)?;
        for (i, e) in t.quasi.expressions.iter().enumerate() {
            self.expression(e, Reg(args.0 + 1 + i as u16))?;
        }
        self.emit(Instruction::Call { dst, callee, this, args, argc: count as u16 });
        self.release(mark);
        Ok(())
    }

    /// `import(specifier, options)`.
    fn import_call(&mut self, call: &'a ImportExpression<'a>, dst: Reg) -> CResult<()> {
        if call.phase.is_some() {
            return Err(CompileError::syntax("import phases are not supported by this engine".to_owned()));
        }
        let mark = self.mark();
        let specifier = self.temp()?;
        self.expression(&call.source, specifier)?;
        let options = match &call.options {
            Some(options) => {
                let r = self.temp()?;
                self.expression(options, r)?;
                r
            }
            None => Reg(u16::MAX),
        };
        self.mark_position(call.span.start);
        self.emit(Instruction::ImportCall { dst, specifier, options });
        self.release(mark);
        Ok(())
    }

    /// `#name in object`.
    fn private_in(&mut self, p: &'a PrivateInExpression<'a>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let obj = self.temp()?;
        let key = self.temp()?;
        self.expression(&p.right, obj)?;
        self.load_private_name(p.left.name.as_str(), key)?;
        self.emit(Instruction::HasPrivate { dst, obj, key });
        self.release(mark);
        Ok(())
    }

    fn regexp_literal(&mut self, re: &'a RegExpLiteral<'a>, dst: Reg) {
        let pattern: Vec<u16> = re.regex.pattern.text.as_str().encode_utf16().collect();
        let pattern = atom_value(self.vm, &pattern);
        let pattern = self.constant(pattern);
        let flags = self.name_constant(&re.regex.flags.to_string());
        self.emit(Instruction::NewRegExp { dst, pattern, flags });
    }

    /// `this`: an arrow's comes in its `this` register, set from the
    /// enclosing function's when the arrow was made.
    fn this_expression(&mut self, dst: Reg) {
        if self.kind == crate::bytecode::CodeKind::Arrow && self.derived_this_slot().is_none() {
            self.emit(Instruction::Move { dst, src: THIS_REG });
        } else {
            let r = self.this_register(dst);
            if r != dst {
                self.emit(Instruction::Move { dst, src: r });
            }
        }
    }

    /// `a, b, c`: every item is evaluated, the last one into `dst`.
    fn sequence(&mut self, s: &'a SequenceExpression<'a>, dst: Reg) -> CResult<()> {
        for (i, item) in s.expressions.iter().enumerate() {
            if i + 1 == s.expressions.len() {
                self.expression(item, dst)?;
            } else {
                self.effect(item)?;
            }
        }
        Ok(())
    }

    /// Compiles `e` for its effects alone: an expression statement whose
    /// value no completion keeps, a `for` head's update, a comma's left
    /// operands. An update or assignment of a local register then writes
    /// only the register (`i++` is one `Inc`, `s += x` one `Add`).
    pub fn effect(&mut self, e: &'a Expression<'a>) -> CResult<()> {
        self.enter_nesting()?;
        let mark = self.mark();
        let result = match strip_parens(e) {
            Expression::UpdateExpression(u) => self.update_effect(u),
            Expression::AssignmentExpression(a) => self.assignment_effect(a),
            Expression::SequenceExpression(s) => s.expressions.iter().try_for_each(|item| self.effect(item)),
            _ => self.temp().and_then(|r| self.expression(e, r)),
        };
        self.release(mark);
        self.leave_nesting();
        result
    }

    /// `x++`, `--x`, … whose value is unused.
    fn update_effect(&mut self, u: &'a UpdateExpression<'a>) -> CResult<()> {
        if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = &u.argument
            && let Some(r) = self.local_register_target(id)?
        {
            // Postfix or prefix, the binding gets ToNumeric(old) ± 1.
            let inc = u.operator == UpdateOperator::Increment;
            self.emit(if inc { Instruction::Inc { dst: r, src: r } } else { Instruction::Dec { dst: r, src: r } });
            return Ok(());
        }
        let r = self.temp()?;
        self.update(u, r)
    }

    /// An assignment whose value is unused.
    fn assignment_effect(&mut self, a: &'a AssignmentExpression<'a>) -> CResult<()> {
        let is_logical = matches!(
            a.operator,
            AssignmentOperator::LogicalAnd | AssignmentOperator::LogicalOr | AssignmentOperator::LogicalNullish
        );
        if let AssignmentTarget::AssignmentTargetIdentifier(id) = &a.left {
            if a.operator == AssignmentOperator::Assign
                && writes_result_last_after_reads(&a.right)
                && let Some(r) = self.initialized_local_register(id)
            {
                // `x = e` evaluates `e` straight into x's register: `e`
                // reads x before its last instruction writes it (and names
                // no function: `e` is no function expression).
                return self.expression(&a.right, r);
            }
            if !is_logical
                && a.operator != AssignmentOperator::Assign
                && leaves_register_alone(&a.right, id.name.as_str())
                && let Some(r) = self.local_register_target(id)?
            {
                self.binary_with(compound_operator(a.operator), r, r, &a.right, a.span.start)?;
                return Ok(());
            }
        }
        let r = self.temp()?;
        self.assignment(a, r)
    }

    /// The register of the local binding `id` names when a write to it
    /// needs no check: not a constant or a function expression's name, not
    /// in its TDZ here, no `with` in between.
    fn initialized_local_register(&self, id: &IdentifierReference<'_>) -> Option<Reg> {
        if !self.with_objects.is_empty() {
            return None;
        }
        let symbol = self.symbol_of(id)?;
        let Location::Register(r) = self.location_of(symbol) else { return None };
        let flags = self.analysis.scoping.symbol_flags(symbol);
        let lexical =
            flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::ConstVariable | SymbolFlags::Class);
        let writable = !flags.contains(SymbolFlags::ConstVariable)
            && !self.function_names.contains(&symbol)
            && !self.parameters_in_tdz.contains(&symbol);
        (writable && (!lexical || self.analysis.initialized_at(symbol, id.span.start))).then_some(Reg(r))
    }

    /// `test ? consequent : alternate`.
    fn conditional(&mut self, c: &'a ConditionalExpression<'a>, dst: Reg) -> CResult<()> {
        let to_else = self.jump_if_false(&c.test)?;
        self.expression(&c.consequent, dst)?;
        let to_end = self.emit_jump();
        self.patch_here(to_else);
        self.expression(&c.alternate, dst)?;
        self.patch_here(to_end);
        Ok(())
    }

    /// Evaluates a test and emits a jump taken when it is falsy; returns
    /// the jump to patch. Comparisons fuse with the branch.
    pub fn jump_if_false(&mut self, test: &'a Expression<'a>) -> CResult<usize> {
        use crate::bytecode::CompareOp;
        let mark = self.mark();
        if let Expression::BinaryExpression(b) = test {
            let op = match b.operator {
                BinaryOperator::LessThan => Some(CompareOp::Lt),
                BinaryOperator::LessEqualThan => Some(CompareOp::Le),
                BinaryOperator::GreaterThan => Some(CompareOp::Gt),
                BinaryOperator::GreaterEqualThan => Some(CompareOp::Ge),
                BinaryOperator::StrictEquality => Some(CompareOp::StrictEq),
                BinaryOperator::StrictInequality => Some(CompareOp::StrictNe),
                BinaryOperator::Equality => Some(CompareOp::Eq),
                BinaryOperator::Inequality => Some(CompareOp::Ne),
                _ => None,
            };
            if let Some(op) = op {
                let lhs = if keeps_operand(&b.left, &b.right) {
                    self.expression_any(&b.left)?
                } else {
                    let r = self.temp()?;
                    self.expression(&b.left, r)?;
                    r
                };
                let jump = if let Some(value) = int32_literal(&b.right) {
                    self.mark_position(b.span.start);
                    self.emit(Instruction::JumpUnlessInt { op, lhs, value, target: u32::MAX })
                } else {
                    let rhs = self.expression_any(&b.right)?;
                    self.mark_position(b.span.start);
                    self.emit(Instruction::JumpUnless { op, lhs, rhs, target: u32::MAX })
                };
                self.release(mark);
                return Ok(jump);
            }
        }
        let r = self.temp()?;
        self.expression(test, r)?;
        let jump = self.emit(Instruction::JumpIfFalse { cond: r, target: u32::MAX });
        self.release(mark);
        Ok(jump)
    }

    /// `yield value`: suspends; resumption by `throw` or `return` is
    /// dispatched here so `finally` blocks run as for any other exit.
    fn yield_value(&mut self, argument: Option<&'a Expression<'a>>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let value = self.temp()?;
        let mode = self.temp()?;
        match argument {
            Some(e) => self.expression(e, value)?,
            None => {
                self.emit(Instruction::LoadUndefined { dst: value });
            }
        }
        if self.is_async {
            // AsyncGeneratorYield: the operand is awaited, and a `return`
            // resumption awaits its value before returning.
            self.emit_await(value, mode);
            self.emit(Instruction::AsyncYield { value, mode });
            let to_next = self.emit(Instruction::JumpIfInt { src: mode, value: 0, target: u32::MAX });
            let to_throw = self.emit(Instruction::JumpIfInt { src: mode, value: 1, target: u32::MAX });
            self.emit_await(value, mode);
            self.emit_generator_return(value)?;
            self.patch_here(to_throw);
            self.emit(Instruction::Throw { src: value });
            self.patch_here(to_next);
        } else {
            self.emit(Instruction::Yield { value, mode, raw: false });
            self.resume_dispatch(value, mode)?;
        }
        self.emit(Instruction::Move { dst, src: value });
        self.release(mark);
        Ok(())
    }

    /// `await value`: a rejection resumes as a throw at the `await`.
    fn await_value(&mut self, argument: &'a Expression<'a>, dst: Reg) -> CResult<()> {
        if !self.is_async {
            return Err(CompileError::syntax("await is only valid in async functions".to_owned()));
        }
        let mark = self.mark();
        let value = self.temp()?;
        let mode = self.temp()?;
        self.expression(argument, value)?;
        self.emit_await(value, mode);
        self.emit(Instruction::Move { dst, src: value });
        self.release(mark);
        Ok(())
    }

    /// `Await` on `value` in place; a rejection throws.
    pub fn emit_await(&mut self, value: Reg, mode: Reg) {
        self.emit(Instruction::Await { value, mode });
        let fulfilled = self.emit(Instruction::JumpIfInt { src: mode, value: 0, target: u32::MAX });
        self.emit(Instruction::Throw { src: value });
        self.patch_here(fulfilled);
    }

    /// After a `Yield`: `mode` 1 throws `value`, 2 returns it.
    fn resume_dispatch(&mut self, value: Reg, mode: Reg) -> CResult<()> {
        let to_next = self.emit(Instruction::JumpIfInt { src: mode, value: 0, target: u32::MAX });
        let to_throw = self.emit(Instruction::JumpIfInt { src: mode, value: 1, target: u32::MAX });
        self.emit_generator_return(value)?;
        self.patch_here(to_throw);
        self.emit(Instruction::Throw { src: value });
        self.patch_here(to_next);
        Ok(())
    }

    /// A `return value` from inside the generator body, running `finally`
    /// blocks on the way out.
    fn emit_generator_return(&mut self, value: Reg) -> CResult<()> {
        self.unwind_for_exit(0)?;
        self.emit(Instruction::Return { src: value });
        self.reopen_ranges(0);
        Ok(())
    }

    /// `yield* iterable` (§15.5.5 for sync generators).
    fn yield_delegate(&mut self, argument: Option<&'a Expression<'a>>, dst: Reg) -> CResult<()> {
        if self.is_async {
            return self.yield_delegate_async(argument, dst);
        }
        let mark = self.mark();
        let regs = DelegateRegs { record: self.temp()?, value: self.temp()?, mode: self.temp()?, result: self.temp()? };
        let top = self.yield_delegate_start(argument, regs, false)?;
        let DelegateRegs { record, value, mode, result } = regs;
        self.emit(Instruction::YieldDelegateStep { result, iter: record, value, mode });
        let to_return_value = self.emit(Instruction::JumpIfInt { src: mode, value: 3, target: u32::MAX });
        let exits = self.yield_delegate_done(regs, dst)?;
        self.patch_here(exits.not_done);
        self.emit(Instruction::Yield { value: result, mode, raw: true });
        self.emit(Instruction::Move { dst: value, src: result });
        self.emit(Instruction::Jump { target: top });
        self.patch_here(to_return_value);
        self.patch_here(exits.returned);
        self.emit_generator_return(value)?;
        self.patch_here(exits.done);
        self.release(mark);
        Ok(())
    }

    /// `yield* iterable` in an async generator (§15.5.5, async kind): the
    /// inner iterator's results are awaited, its values yielded as they are,
    /// and a `return` request's value is awaited before it is passed on.
    fn yield_delegate_async(&mut self, argument: Option<&'a Expression<'a>>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let regs = DelegateRegs { record: self.temp()?, value: self.temp()?, mode: self.temp()?, result: self.temp()? };
        let scratch = self.temp()?;
        let await_mode = self.temp()?;
        let top = self.yield_delegate_start(argument, regs, true)?;
        let DelegateRegs { record, value, mode, result } = regs;
        self.emit(Instruction::AsyncDelegateStep { result, iter: record, value, mode });
        let to_return_value = self.emit(Instruction::JumpIfInt { src: mode, value: 3, target: u32::MAX });
        let to_missing_throw = self.emit(Instruction::JumpIfInt { src: mode, value: 4, target: u32::MAX });
        self.emit_await(result, await_mode);
        self.emit(Instruction::ThrowIfNotObject { src: result });
        let exits = self.yield_delegate_done(regs, dst)?;
        self.patch_here(exits.not_done);
        let value_name = self.name_constant("value");
        let ic = self.ic();
        self.emit(Instruction::GetNamed { dst: value, obj: result, name: value_name, ic });
        self.emit(Instruction::AsyncYield { value, mode });
        self.emit(Instruction::JumpIfInt { src: mode, value: 0, target: top });
        self.emit(Instruction::JumpIfInt { src: mode, value: 1, target: top });
        // A `return` request: its value is awaited; a rejection becomes a
        // throw sent to the inner iterator.
        self.emit(Instruction::Await { value, mode: await_mode });
        self.emit(Instruction::JumpIfInt { src: await_mode, value: 0, target: top });
        self.emit(Instruction::LoadInt { dst: mode, value: 1 });
        self.emit(Instruction::Jump { target: top });
        self.patch_here(to_missing_throw);
        self.emit_async_iterator_close(record, scratch, await_mode);
        self.emit(Instruction::ThrowMissingThrowMethod);
        self.patch_here(to_return_value);
        self.emit_await(value, await_mode);
        self.patch_here(exits.returned);
        self.emit_generator_return(value)?;
        self.patch_here(exits.done);
        self.release(mark);
        Ok(())
    }

    /// The start of a `yield*` loop: the operand's iterator (its async
    /// iterator in an async generator) in `record`, and the first request,
    /// `next(undefined)`, in `value` and `mode`. Returns the loop's top,
    /// where each request is sent to the inner iterator.
    fn yield_delegate_start(
        &mut self,
        argument: Option<&'a Expression<'a>>,
        regs: DelegateRegs,
        is_async: bool,
    ) -> CResult<u32> {
        match argument {
            Some(e) => self.expression(e, regs.value)?,
            None => {
                self.emit(Instruction::LoadUndefined { dst: regs.value });
            }
        }
        if is_async {
            self.emit(Instruction::GetAsyncIterator { dst: regs.record, src: regs.value });
        } else {
            self.emit(Instruction::GetIterator { dst: regs.record, src: regs.value });
        }
        self.emit(Instruction::LoadUndefined { dst: regs.value });
        self.emit(Instruction::LoadInt { dst: regs.mode, value: 0 });
        Ok(self.here())
    }

    /// The inner result object in `result` is checked for `done`; when done,
    /// its `value` ends the `yield*` (into `dst`), or ends the generator
    /// when the request was a `return`.
    fn yield_delegate_done(&mut self, regs: DelegateRegs, dst: Reg) -> CResult<DelegateExits> {
        let done_name = self.name_constant("done");
        let ic = self.ic();
        let done = self.temp()?;
        self.emit(Instruction::GetNamed { dst: done, obj: regs.result, name: done_name, ic });
        let to_yield = self.emit(Instruction::JumpIfFalse { cond: done, target: u32::MAX });
        let value_name = self.name_constant("value");
        let ic = self.ic();
        self.emit(Instruction::GetNamed { dst: regs.value, obj: regs.result, name: value_name, ic });
        let to_return_done = self.emit(Instruction::JumpIfInt { src: regs.mode, value: 2, target: u32::MAX });
        self.emit(Instruction::Move { dst, src: regs.value });
        let to_end = self.emit_jump();
        Ok(DelegateExits { not_done: to_yield, returned: to_return_done, done: to_end })
    }

    /// Emits the `with`-object checks for a read of `id`; returns the
    /// jumps to patch to after the static read.
    fn with_reads(&mut self, id: &IdentifierReference<'a>, dst: Reg, this_dst: Reg) -> CResult<Vec<usize>> {
        if self.with_objects.is_empty() {
            return Ok(Vec::new());
        }
        let objects = self.with_objects_flagged(self.symbol_of(id))?;
        let c = self.name_constant(id.name.as_str());
        Ok(objects
            .into_iter()
            .map(|(obj, var_object)| {
                // A function found in a variable object is called with an
                // undefined `this`, as from a declarative environment.
                let this_dst = if var_object { Reg(u16::MAX) } else { this_dst };
                self.emit(Instruction::WithGet { dst, obj, name: c, this_dst, found: u32::MAX })
            })
            .collect())
    }

    fn identifier(&mut self, id: &'a IdentifierReference<'a>, dst: Reg) -> CResult<()> {
        let jumps = self.with_reads(id, dst, Reg(u16::MAX))?;
        self.identifier_static(id, dst)?;
        for j in jumps {
            self.patch_here(j);
        }
        Ok(())
    }

    pub(super) fn identifier_static(&mut self, id: &'a IdentifierReference<'a>, dst: Reg) -> CResult<()> {
        if let Some(symbol) = self.symbol_of(id) {
            self.load_binding_at(symbol, dst, true, Some(id.span.start))?;
            return Ok(());
        }
        let name = id.name.as_str();
        if name == "arguments" && self.outer_scope.as_ref().is_some_and(|o| o.in_class_element) {
            return Err(CompileError::syntax(
                "'arguments' is not allowed in class field initializer or static initialization block".to_owned(),
            ));
        }
        if name == "arguments"
            && let Some(location) = self.arguments_location()
        {
            self.load_location(location, dst);
            return Ok(());
        }
        if let Some(b) = self.outer_binding(name) {
            let c = self.name_constant(name);
            if b.lexical {
                self.emit(Instruction::GetEnvChecked { dst, depth: b.depth, slot: b.slot, name: c });
            } else {
                self.emit(Instruction::GetEnv { dst, depth: b.depth, slot: b.slot });
            }
            return Ok(());
        }
        let c = self.name_constant(name);
        let ic = self.ic();
        self.emit(Instruction::GetGlobal { dst, name: c, ic });
        Ok(())
    }

    fn load_location(&mut self, location: Location, dst: Reg) {
        match location {
            Location::Register(r) => {
                self.emit(Instruction::Move { dst, src: Reg(r) });
            }
            Location::Env { scope, slot } => {
                let depth = self.env_depth(scope);
                self.emit(Instruction::GetEnv { dst, depth, slot });
            }
            Location::Import { scope, slot } => {
                let depth = self.env_depth(scope);
                let c = self.name_constant("import");
                self.emit(Instruction::GetImport { dst, depth, slot, name: c });
            }
            Location::GlobalVar | Location::GlobalLexical | Location::EvalOuterVar | Location::EvalVarObject => {}
        }
    }

    /// Writes `src` to an identifier reference.
    pub fn store_identifier(&mut self, id: &'a IdentifierReference<'a>, src: Reg) -> CResult<()> {
        let jumps = self.with_writes(self.symbol_of(id), id.name.as_str(), src)?;
        self.store_identifier_static(id, src)?;
        for j in jumps {
            self.patch_here(j);
        }
        Ok(())
    }

    /// Emits the `with`-object checks for a write of `src` to `name`
    /// (bound to `symbol`); returns the jumps to patch to after the static
    /// write.
    pub(super) fn with_writes(
        &mut self,
        symbol: Option<oxc_syntax::symbol::SymbolId>,
        name: &str,
        src: Reg,
    ) -> CResult<Vec<usize>> {
        if self.with_objects.is_empty() {
            return Ok(Vec::new());
        }
        let objects = self.with_objects_for(symbol)?;
        let c = self.name_constant(name);
        Ok(objects
            .into_iter()
            .map(|obj| self.emit(Instruction::WithSet { obj, name: c, src, found: u32::MAX }))
            .collect())
    }

    pub(super) fn store_identifier_static(&mut self, id: &'a IdentifierReference<'a>, src: Reg) -> CResult<()> {
        if let Some(symbol) = self.symbol_of(id) {
            return self.store_binding_at(symbol, src, false, Some(id.span.start));
        }
        if id.name == "arguments"
            && let Some(location) = self.arguments_location()
        {
            self.store_location(location, src);
            return Ok(());
        }
        if let Some(b) = self.outer_binding(id.name.as_str()) {
            let c = self.name_constant(id.name.as_str());
            if b.function_name {
                if self.strict {
                    self.emit(Instruction::ThrowConstAssign { name: c });
                }
            } else if b.constant {
                self.emit(Instruction::GetEnvChecked { dst: src, depth: b.depth, slot: b.slot, name: c });
                self.emit(Instruction::ThrowConstAssign { name: c });
            } else if b.lexical {
                self.emit(Instruction::SetEnvChecked { src, depth: b.depth, slot: b.slot, name: c });
            } else {
                self.emit(Instruction::SetEnv { src, depth: b.depth, slot: b.slot });
            }
            return Ok(());
        }
        let c = self.name_constant(id.name.as_str());
        let ic = self.ic();
        self.emit(Instruction::SetGlobal { src, name: c, strict: self.strict, ic });
        Ok(())
    }

    fn template_literal(&mut self, t: &'a TemplateLiteral<'a>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let acc = self.temp()?;
        let part = self.temp()?;
        let mut first = true;
        for (i, quasi) in t.quasis.iter().enumerate() {
            let cooked = quasi.value.cooked.map(|c| decode_lone_surrogates(c.as_str(), quasi.lone_surrogates));
            let units = cooked.unwrap_or_default();
            if !units.is_empty() || (first && i + 1 == t.quasis.len()) {
                if first {
                    self.load_string_units(&units, acc);
                    first = false;
                } else {
                    self.load_string_units(&units, part);
                    self.emit(Instruction::Add { dst: acc, lhs: acc, rhs: part });
                }
            }
            if let Some(e) = t.expressions.get(i) {
                self.expression(e, part)?;
                self.emit(Instruction::ToString { dst: part, src: part });
                if first {
                    self.emit(Instruction::Move { dst: acc, src: part });
                    first = false;
                } else {
                    self.emit(Instruction::Add { dst: acc, lhs: acc, rhs: part });
                }
            }
        }
        self.emit(Instruction::Move { dst, src: acc });
        self.release(mark);
        Ok(())
    }

    /// The template object (§13.2.8.4 GetTemplateObject) passed to a tag
    /// function: made once per site, when the site is compiled (each
    /// evaluation of the site yields the same frozen object; the code is
    /// the realm's, and a site compiled again, as by `eval`, is a new
    /// site).
    fn template_object(&mut self, t: &'a TemplateLiteral<'a>, dst: Reg) -> CResult<()> {
        let mut cooked = Vec::with_capacity(t.quasis.len());
        let mut raw = Vec::with_capacity(t.quasis.len());
        for quasi in &t.quasis {
            cooked.push(match quasi.value.cooked {
                Some(c) => atom_value(self.vm, &decode_lone_surrogates(c.as_str(), quasi.lone_surrogates)),
                None => Value::UNDEFINED,
            });
            let raw_units: Vec<u16> = quasi.value.raw.as_str().encode_utf16().collect();
            raw.push(atom_value(self.vm, &raw_units));
        }
        let raw_object = crate::builtins::array::array_create(self.vm, &raw);
        let template = crate::builtins::array::array_create(self.vm, &cooked);
        let raw_name: Vec<u16> = "raw".encode_utf16().collect();
        let Some(raw_atom) = atom_value(self.vm, &raw_name).as_string() else {
            return Err(CompileError::Range("could not make a template object".to_owned()));
        };
        let raw_key = crate::object::PropertyKey::String(raw_atom);
        crate::object::internal_methods::define_builtin(
            self.vm,
            template,
            raw_key,
            Value::object(raw_object),
            crate::object::Attributes::NONE,
        );
        for object in [raw_object, template] {
            // Fresh ordinary arrays: freezing them cannot fail or run code.
            let frozen = crate::builtins::object::set_integrity_level(self.vm, object, true);
            if !matches!(frozen, Ok(true)) {
                return Err(CompileError::Range("could not freeze a template object".to_owned()));
            }
        }
        let c = self.constant(Value::object(template));
        self.emit(Instruction::LoadConst { dst, index: c });
        Ok(())
    }

    fn array_literal(&mut self, a: &'a ArrayExpression<'a>, dst: Reg) -> CResult<()> {
        if let Some(values) = self.primitive_elements(a) {
            let first = self.constant_run(&values);
            // `primitive_elements` takes at most `u16::MAX` elements.
            let count = u16::try_from(values.len()).unwrap_or(u16::MAX);
            self.emit(Instruction::NewArrayOfConstants { dst, first, count });
            return Ok(());
        }
        let mark = self.mark();
        let array = self.temp()?;
        let item = self.temp()?;
        let pushed = a.elements.iter().filter(|e| !matches!(e, ArrayExpressionElement::SpreadElement(_))).count();
        self.emit(Instruction::NewArray { dst: array, capacity: capacity_hint(pushed) });
        for element in &a.elements {
            match element {
                ArrayExpressionElement::SpreadElement(s) => {
                    self.expression(&s.argument, item)?;
                    self.emit(Instruction::ArraySpread { array, src: item });
                }
                ArrayExpressionElement::Elision(_) => {
                    self.emit(Instruction::ArrayPushHole { array });
                }
                other => {
                    if let Some(e) = other.as_expression() {
                        self.expression(e, item)?;
                        self.emit(Instruction::ArrayPush { array, src: item });
                    }
                }
            }
        }
        self.emit(Instruction::Move { dst, src: array });
        self.release(mark);
        Ok(())
    }

    /// The values of an array literal of two or more elements, each a
    /// number, string, boolean or null literal (evaluating them runs no
    /// code and cannot throw, so the array can be copied from constants).
    fn primitive_elements(&mut self, a: &'a ArrayExpression<'a>) -> Option<Vec<Value>> {
        if a.elements.len() < 2 || a.elements.len() > usize::from(u16::MAX) {
            return None;
        }
        let mut values = Vec::with_capacity(a.elements.len());
        for element in &a.elements {
            values.push(match element.as_expression()? {
                Expression::NumericLiteral(n) => Value::number(n.value),
                Expression::StringLiteral(s) => {
                    atom_value(self.vm, &decode_lone_surrogates(s.value.as_str(), s.lone_surrogates))
                }
                Expression::BooleanLiteral(b) => Value::boolean(b.value),
                Expression::NullLiteral(_) => Value::NULL,
                _ => return None,
            });
        }
        Some(values)
    }

    /// Evaluates a property key into `dst` (a string, symbol or number).
    pub fn property_key(&mut self, key: &'a PropertyKey<'a>, computed: bool, dst: Reg) -> CResult<()> {
        match key {
            PropertyKey::StaticIdentifier(id) => {
                let c = self.name_constant(id.name.as_str());
                self.emit(Instruction::LoadConst { dst, index: c });
            }
            PropertyKey::PrivateIdentifier(_) => {
                return Err(CompileError::syntax("private names are not supported by this engine yet".to_owned()));
            }
            other => {
                let Some(e) = other.as_expression() else { return Ok(()) };
                self.expression(e, dst)?;
                if computed {
                    self.emit(Instruction::ToPropertyKey { dst, src: dst });
                } else if let Expression::NumericLiteral(_) | Expression::BigIntLiteral(_) = e {
                    self.emit(Instruction::ToPropertyKey { dst, src: dst });
                }
            }
        }
        Ok(())
    }

    /// The static name of a non-computed key, for function names. A string
    /// literal with lone surrogates has none here (a Rust string cannot
    /// hold it): its functions are named from the key at run time.
    pub fn static_key_name(key: &PropertyKey<'_>) -> Option<String> {
        match key {
            PropertyKey::StaticIdentifier(id) => Some(id.name.as_str().to_owned()),
            PropertyKey::PrivateIdentifier(id) => Some(format!("#{}", id.name)),
            PropertyKey::StringLiteral(s) if s.lone_surrogates => None,
            PropertyKey::StringLiteral(s) => Some(s.value.as_str().to_owned()),
            PropertyKey::NumericLiteral(n) => Some(crate::abstract_ops::number_to_string(n.value)),
            PropertyKey::BigIntLiteral(b) => Some(b.value.as_str().to_owned()),
            _ => None,
        }
    }

    fn object_literal(&mut self, o: &'a ObjectExpression<'a>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let obj = self.temp()?;
        let key = self.temp()?;
        let value = self.temp()?;
        self.emit(Instruction::NewObject { dst: obj });
        for property in &o.properties {
            match property {
                ObjectPropertyKind::SpreadProperty(s) => {
                    self.expression(&s.argument, value)?;
                    self.emit(Instruction::CopyDataProperties { dst: obj, src: value });
                }
                ObjectPropertyKind::ObjectProperty(p) => {
                    if !p.computed
                        && !p.method
                        && p.kind == PropertyKind::Init
                        && let PropertyKey::StaticIdentifier(id) = &p.key
                        && id.name == "__proto__"
                        && !p.shorthand
                    {
                        self.expression(&p.value, value)?;
                        self.emit(Instruction::SetProtoLiteral { obj, proto: value });
                        continue;
                    }
                    self.property_key(&p.key, p.computed, key)?;
                    let static_name = if p.computed { None } else { Self::static_key_name(&p.key) };
                    match p.kind {
                        PropertyKind::Init => {
                            let is_anonymous_fn = is_anonymous_function(&p.value);
                            match (&p.value, p.method) {
                                (Expression::FunctionExpression(f), true) => {
                                    self.compile_method(f, value, static_name.as_deref(), p.span)?;
                                }
                                _ => self.expression_named(&p.value, value, static_name.as_deref())?,
                            }
                            if p.method {
                                self.emit(Instruction::SetHomeObject { func: value, home: obj });
                            }
                            if static_name.is_none() && is_anonymous_fn {
                                self.emit(Instruction::SetFunctionName { func: value, key, prefix: 0 });
                            }
                            if p.method {
                                self.emit(Instruction::DefineMethod { obj, key, func: value, enumerable: true });
                            } else if let (false, Some(name)) = (p.computed, static_name.as_deref())
                                && crate::abstract_ops::array_index_of_str(name).is_none()
                                && matches!(p.key, PropertyKey::StaticIdentifier(_) | PropertyKey::StringLiteral(_))
                            {
                                let c = self.name_constant(name);
                                let ic = self.ic();
                                self.emit(Instruction::DefineNamed { obj, name: c, src: value, ic });
                            } else {
                                self.emit(Instruction::DefineField { obj, key, src: value });
                            }
                        }
                        PropertyKind::Get | PropertyKind::Set => {
                            let setter = p.kind == PropertyKind::Set;
                            match &p.value {
                                Expression::FunctionExpression(f) => self.compile_method(f, value, None, p.span)?,
                                other => self.expression(other, value)?,
                            }
                            self.emit(Instruction::SetHomeObject { func: value, home: obj });
                            self.emit(Instruction::SetFunctionName {
                                func: value,
                                key,
                                prefix: if setter { 2 } else { 1 },
                            });
                            self.emit(Instruction::DefineAccessor { obj, key, func: value, setter, enumerable: true });
                        }
                    }
                }
            }
        }
        self.emit(Instruction::Move { dst, src: obj });
        self.release(mark);
        Ok(())
    }

    fn unary(&mut self, u: &'a UnaryExpression<'a>, dst: Reg) -> CResult<()> {
        match u.operator {
            UnaryOperator::Typeof => {
                if let Expression::Identifier(id) = strip_parens(&u.argument)
                    // A global `var` may have been deleted (eval code's).
                    && self.symbol_of(id).is_none_or(|symbol| self.location_of(symbol) == Location::GlobalVar)
                    && self.outer_binding(id.name.as_str()).is_none()
                    && !(id.name == "arguments" && self.arguments_location().is_some())
                {
                    // An unresolvable name is "undefined", not an error; a
                    // `with` object holding it is asked first.
                    let found = self.with_reads(id, dst, Reg(u16::MAX))?;
                    let c = self.name_constant(id.name.as_str());
                    self.emit(Instruction::TypeofGlobal { dst, name: c });
                    if !found.is_empty() {
                        let to_end = self.emit_jump();
                        for j in found {
                            self.patch_here(j);
                        }
                        self.emit(Instruction::TypeOf { dst, src: dst });
                        self.patch_here(to_end);
                    }
                    return Ok(());
                }
                self.expression(&u.argument, dst)?;
                self.emit(Instruction::TypeOf { dst, src: dst });
            }
            UnaryOperator::Delete => self.delete(&u.argument, dst)?,
            UnaryOperator::Void => {
                let mark = self.mark();
                let r = self.temp()?;
                self.expression(&u.argument, r)?;
                self.release(mark);
                self.emit(Instruction::LoadUndefined { dst });
            }
            op => {
                self.expression(&u.argument, dst)?;
                let instruction = match op {
                    UnaryOperator::UnaryNegation => Instruction::Neg { dst, src: dst },
                    UnaryOperator::UnaryPlus => Instruction::ToNumber { dst, src: dst },
                    UnaryOperator::LogicalNot => Instruction::Not { dst, src: dst },
                    _ => Instruction::BitNot { dst, src: dst },
                };
                self.emit(instruction);
            }
        }
        Ok(())
    }

    fn delete(&mut self, target: &'a Expression<'a>, dst: Reg) -> CResult<()> {
        let target = strip_parens(target);
        if let Some(m) = target.as_member_expression()
            && matches!(m.object(), Expression::Super(_))
        {
            // §13.5.1.2 step 5.a: the reference is evaluated (`this` checked,
            // key evaluated but not converted), then deleting it throws.
            let mark = self.mark();
            let _ = self.super_ref(m)?;
            self.emit_throw_reference_error("Unsupported reference to 'super'");
            self.release(mark);
            return Ok(());
        }
        if let Some(m) = target.as_member_expression() {
            let mark = self.mark();
            let obj = self.temp()?;
            let key = self.temp()?;
            match m {
                MemberExpression::StaticMemberExpression(s) => {
                    self.expression(&s.object, obj)?;
                    let c = self.name_constant(s.property.name.as_str());
                    self.emit(Instruction::LoadConst { dst: key, index: c });
                }
                MemberExpression::ComputedMemberExpression(c) => {
                    self.expression(&c.object, obj)?;
                    self.expression(&c.expression, key)?;
                }
                MemberExpression::PrivateFieldExpression(_) => {
                    return Err(CompileError::syntax("Private fields can not be deleted".to_owned()));
                }
            }
            self.emit(Instruction::Delete { dst, obj, key, strict: self.strict });
            self.release(mark);
            return Ok(());
        }
        if let Expression::Identifier(id) = target {
            let objects =
                if self.with_objects.is_empty() { Vec::new() } else { self.with_objects_for(self.symbol_of(id))? };
            let c = self.name_constant(id.name.as_str());
            let found: Vec<usize> = objects
                .into_iter()
                .map(|obj| self.emit(Instruction::WithDelete { dst, obj, name: c, found: u32::MAX }))
                .collect();
            let location = self.symbol_of(id).map(|symbol| self.location_of(symbol));
            match location {
                // A function's own `arguments` object is not deletable.
                None if id.name == "arguments" && self.arguments_location().is_some() => {
                    self.emit(Instruction::LoadBool { dst, value: false });
                }
                // Unresolved, or a global `var` (deletable when eval code
                // made it).
                None | Some(Location::GlobalVar) => {
                    let c = self.name_constant(id.name.as_str());
                    self.emit(Instruction::DeleteGlobal { dst, name: c });
                }
                Some(Location::EvalVarObject) => {
                    // Eval code's `var`s in a function's variable object
                    // are deletable; a deleted one is unresolvable (true).
                    let mark = self.mark();
                    let obj = self.temp()?;
                    self.load_eval_var_object(obj);
                    let c = self.name_constant(id.name.as_str());
                    self.emit(Instruction::LoadBool { dst, value: true });
                    let deleted = self.emit(Instruction::WithDelete { dst, obj, name: c, found: u32::MAX });
                    self.patch_here(deleted);
                    self.release(mark);
                }
                Some(_) => {
                    self.emit(Instruction::LoadBool { dst, value: false });
                }
            }
            for j in found {
                self.patch_here(j);
            }
            return Ok(());
        }
        let mark = self.mark();
        let r = self.temp()?;
        self.expression(target, r)?;
        self.release(mark);
        self.emit(Instruction::LoadBool { dst, value: true });
        Ok(())
    }

    /// Throws a ReferenceError with `message`.
    pub(super) fn emit_throw_reference_error(&mut self, message: &str) {
        let message = self.name_constant(message);
        self.emit(Instruction::ThrowReferenceError { message });
    }

    /// A binary expression; left-nested chains (`a + b + c + …`, common in
    /// generated code) compile in a loop, not by recursion.
    fn binary(&mut self, b: &'a BinaryExpression<'a>, dst: Reg) -> CResult<()> {
        let mut spine = vec![b];
        let mut innermost = &b.left;
        while let Expression::BinaryExpression(inner) = innermost {
            spine.push(inner);
            innermost = &inner.left;
        }
        let mark = self.mark();
        // The innermost left operand is read by the first operation, right
        // after that operation's right operand runs.
        let first_right = spine.last().map_or(&b.right, |node| &node.right);
        let mut acc = if keeps_operand(innermost, first_right) {
            self.expression_any(innermost)?
        } else {
            let r = self.temp()?;
            self.expression(innermost, r)?;
            r
        };
        while let Some(node) = spine.pop() {
            let inner_mark = self.mark();
            // `Err`: an int32 literal the instruction carries inline.
            let rhs = match int_form(node.operator).zip(int32_literal(&node.right)) {
                Some(inline) => Err(inline),
                None => Ok(self.expression_any(&node.right)?),
            };
            self.mark_position(node.span.start);
            let target = if spine.is_empty() {
                dst
            } else if acc.0 < mark {
                // `acc` is a binding's own register: never write into it.
                self.temp()?
            } else {
                acc
            };
            self.emit(match rhs {
                Ok(rhs) => binary_instruction(node.operator, target, acc, rhs),
                Err((make, value)) => make(target, acc, value),
            });
            self.release(inner_mark.max(target.0 + 1).max(mark));
            acc = target;
        }
        self.release(mark);
        Ok(())
    }

    /// Evaluates `right` (unless it is an int32 literal the instruction
    /// carries) and emits `dst = lhs op right`, positioned at `at`.
    fn binary_with(
        &mut self,
        op: BinaryOperator,
        dst: Reg,
        lhs: Reg,
        right: &'a Expression<'a>,
        at: u32,
    ) -> CResult<()> {
        let instruction = if let Some((make, value)) = int_form(op).zip(int32_literal(right)) {
            make(dst, lhs, value)
        } else {
            let rhs = self.expression_any(right)?;
            binary_instruction(op, dst, lhs, rhs)
        };
        self.mark_position(at);
        self.emit(instruction);
        Ok(())
    }

    fn logical(&mut self, l: &'a LogicalExpression<'a>, dst: Reg) -> CResult<()> {
        self.expression(&l.left, dst)?;
        let skip = match l.operator {
            LogicalOperator::And => self.emit(Instruction::JumpIfFalse { cond: dst, target: u32::MAX }),
            LogicalOperator::Or => self.emit(Instruction::JumpIfTrue { cond: dst, target: u32::MAX }),
            LogicalOperator::Coalesce => self.emit(Instruction::JumpIfNotNullish { src: dst, target: u32::MAX }),
        };
        self.expression(&l.right, dst)?;
        self.patch_here(skip);
        Ok(())
    }

    /// Evaluates the base (and key) of a member expression used as a
    /// reference.
    ///
    /// A base or key that is a binding or `this` stays in its own register
    /// (instead of a copy) when what runs before the reference is used,
    /// `later`, cannot write that binding.
    pub(super) fn property_ref(&mut self, m: &'a MemberExpression<'a>, later: Later<'_, 'a>) -> CResult<PropertyRef> {
        if matches!(m.object(), Expression::Super(_)) {
            return self.super_ref(m);
        }
        match m {
            MemberExpression::StaticMemberExpression(s) => {
                let obj = self.reference_part(&s.object, later.keeps(&s.object))?;
                let name = self.name_constant(s.property.name.as_str());
                Ok(PropertyRef::Named { obj, name })
            }
            MemberExpression::ComputedMemberExpression(c) => {
                let keep_obj = later.keeps(&c.object) && keeps_operand(&c.object, &c.expression);
                let obj = self.reference_part(&c.object, keep_obj)?;
                let key = self.reference_part(&c.expression, later.keeps(&c.expression))?;
                Ok(PropertyRef::Keyed { obj, key })
            }
            MemberExpression::PrivateFieldExpression(p) => {
                let obj = self.temp()?;
                self.expression(&p.object, obj)?;
                let key = self.temp()?;
                self.load_private_name(p.field.name.as_str(), key)?;
                Ok(PropertyRef::Private { obj, key })
            }
        }
    }

    /// The base or key of a reference: a binding's (or `this`'s) own
    /// register when `in_place`, else a copy in a new temporary.
    fn reference_part(&mut self, e: &'a Expression<'a>, in_place: bool) -> CResult<Reg> {
        if in_place && matches!(e, Expression::Identifier(_) | Expression::ThisExpression(_)) {
            return self.expression_any(e);
        }
        let r = self.temp()?;
        self.expression(e, r)?;
        Ok(r)
    }

    /// Loads the Private Name `#name` resolved in the enclosing classes.
    pub fn load_private_name(&mut self, name: &str, dst: Reg) -> CResult<()> {
        let scoping = &self.analysis.scoping;
        let mut s = Some(self.current_scope());
        while let Some(scope) = s {
            if let Some(p) = self.analysis.private_names(scope).iter().find(|p| p.name == name) {
                let slot = p.slot;
                let depth = self.env_depth(scope);
                self.emit(Instruction::GetEnv { dst, depth, slot });
                return Ok(());
            }
            s = scoping.scope_parent_id(scope);
        }
        Err(CompileError::syntax(format!("Private field '#{name}' must be declared in an enclosing class")))
    }

    /// Reads a property reference.
    pub(crate) fn get_ref(&mut self, r: PropertyRef, dst: Reg) {
        match r {
            PropertyRef::Named { obj, name } => {
                let ic = self.ic();
                self.emit(Instruction::GetNamed { dst, obj, name, ic });
            }
            PropertyRef::Keyed { obj, key } => {
                self.emit(Instruction::GetIndexed { dst, obj, key });
            }
            PropertyRef::Private { obj, key } => {
                self.emit(Instruction::GetPrivate { dst, obj, key });
            }
            PropertyRef::Super { proto, key } => {
                self.emit(Instruction::GetSuper { dst, proto, key });
            }
        }
    }

    /// Reads a property reference that will be written back: a computed
    /// key is converted once, here.
    pub(crate) fn get_ref_converting(&mut self, r: PropertyRef, dst: Reg) {
        match r {
            PropertyRef::Keyed { obj, key } => {
                self.emit(Instruction::GetIndexedConvertKey { dst, obj, key });
            }
            PropertyRef::Super { proto, key } => {
                self.emit(Instruction::ToPropertyKey { dst: key, src: key });
                self.emit(Instruction::GetSuper { dst, proto, key });
            }
            other => self.get_ref(other, dst),
        }
    }

    /// Writes a property reference.
    pub(crate) fn set_ref(&mut self, r: PropertyRef, src: Reg) {
        match r {
            PropertyRef::Named { obj, name } => {
                let ic = self.ic();
                self.emit(Instruction::SetNamed { obj, name, src, ic, strict: self.strict });
            }
            PropertyRef::Keyed { obj, key } => {
                self.emit(Instruction::SetIndexed { obj, key, src, strict: self.strict });
            }
            PropertyRef::Private { obj, key } => {
                self.emit(Instruction::SetPrivate { obj, key, src });
            }
            PropertyRef::Super { proto, key } => {
                self.emit(Instruction::SetSuper { proto, key, src, strict: self.strict });
            }
        }
    }

    /// `super.x` / `super[x]` read.
    fn super_member(&mut self, m: &'a MemberExpression<'a>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let reference = self.super_ref(m)?;
        self.get_ref(reference, dst);
        self.release(mark);
        Ok(())
    }

    /// A `super.x` / `super[x]` reference (§13.3.7.1): the `this` binding
    /// is checked first, then the key is evaluated, then the super base is
    /// taken (before the key is converted), each in a new register.
    pub(super) fn super_ref(&mut self, m: &'a MemberExpression<'a>) -> CResult<PropertyRef> {
        let proto = self.temp()?;
        // GetThisBinding: a derived constructor's `this` before `super()`
        // is a ReferenceError before anything else runs.
        let _ = self.this_register(proto);
        let key = self.temp()?;
        match m {
            MemberExpression::StaticMemberExpression(s) => {
                let c = self.name_constant(s.property.name.as_str());
                self.emit(Instruction::LoadConst { dst: key, index: c });
            }
            MemberExpression::ComputedMemberExpression(c) => self.expression(&c.expression, key)?,
            MemberExpression::PrivateFieldExpression(_) => {
                return Err(CompileError::syntax("Unexpected private field".to_owned()));
            }
        }
        self.emit(Instruction::LoadSuperBase { dst: proto });
        Ok(PropertyRef::Super { proto, key })
    }

    /// A member read; `exits` collects optional-chain short-circuits.
    fn member(&mut self, m: &'a MemberExpression<'a>, dst: Reg, exits: &mut Option<Vec<usize>>) -> CResult<()> {
        let mark = self.mark();
        if exits.is_none()
            && !m.optional()
            && matches!(m.object(), Expression::Identifier(_) | Expression::ThisExpression(_))
        {
            // `o.name` and `o[key]` read a binding's own register in place
            // (no copy into a receiver register, which only calls need),
            // unless the key's evaluation could write it.
            match m {
                MemberExpression::StaticMemberExpression(s) => {
                    self.static_member_in_place(s, dst)?;
                    self.release(mark);
                    return Ok(());
                }
                MemberExpression::ComputedMemberExpression(c) if keeps_operand(&c.object, &c.expression) => {
                    let obj = self.expression_any(&c.object)?;
                    self.mark_position(m.span().start);
                    let key = self.expression_any(&c.expression)?;
                    self.emit(Instruction::GetIndexed { dst, obj, key });
                    self.release(mark);
                    return Ok(());
                }
                _ => {}
            }
        }
        let this = self.temp()?;
        self.member_with_this(m, dst, this, exits)?;
        self.release(mark);
        Ok(())
    }

    /// A member read that also leaves the base object in `this` (for
    /// method calls).
    fn member_with_this(
        &mut self,
        m: &'a MemberExpression<'a>,
        dst: Reg,
        this: Reg,
        exits: &mut Option<Vec<usize>>,
    ) -> CResult<()> {
        if matches!(m.object(), Expression::Super(_)) {
            self.super_member(m, dst)?;
            let r = self.this_register(this);
            if r != this {
                self.emit(Instruction::Move { dst: this, src: r });
            }
            return Ok(());
        }
        self.chain_part(m.object(), this, exits)?;
        if m.optional() {
            let j = self.emit(Instruction::JumpIfNullish { src: this, target: u32::MAX });
            if let Some(list) = exits {
                list.push(j);
            }
        }
        self.mark_position(m.span().start);
        match m {
            MemberExpression::StaticMemberExpression(s) => {
                let name = self.name_constant(s.property.name.as_str());
                let ic = self.ic();
                self.mark_position(s.property.span.start);
                self.emit(Instruction::GetNamed { dst, obj: this, name, ic });
            }
            MemberExpression::ComputedMemberExpression(c) => {
                let mark = self.mark();
                let key = self.expression_any(&c.expression)?;
                self.emit(Instruction::GetIndexed { dst, obj: this, key });
                self.release(mark);
            }
            MemberExpression::PrivateFieldExpression(p) => {
                let mark = self.mark();
                let key = self.temp()?;
                self.load_private_name(p.field.name.as_str(), key)?;
                self.emit(Instruction::GetPrivate { dst, obj: this, key });
                self.release(mark);
            }
        }
        Ok(())
    }

    /// Compiles the object part of a chain, continuing the same optional
    /// chain through nested members and calls.
    fn chain_part(&mut self, e: &'a Expression<'a>, dst: Reg, exits: &mut Option<Vec<usize>>) -> CResult<()> {
        if exits.is_some() {
            if let Some(m) = e.as_member_expression() {
                return self.member(m, dst, exits);
            }
            if let Expression::CallExpression(c) = e {
                return self.call(c, dst, exits);
            }
        }
        self.expression(e, dst)
    }

    fn call(&mut self, c: &'a CallExpression<'a>, dst: Reg, exits: &mut Option<Vec<usize>>) -> CResult<()> {
        if let Expression::Super(_) = &c.callee {
            return self.super_call(c, dst);
        }
        let mark = self.mark();
        let callee = self.temp()?;
        let callee_expr = strip_parens(&c.callee);
        // Inside an optional chain the receiver continues the chain.
        let receiver = if exits.is_none() { self.receiver_in_place(callee_expr, &c.arguments, callee)? } else { None };
        let this = match receiver {
            Some(r) => r,
            None => self.temp()?,
        };
        if receiver.is_none() {
            if let Some(m) = callee_expr.as_member_expression() {
                self.member_with_this(m, callee, this, exits)?;
            } else if let Expression::ChainExpression(chain) = callee_expr
                && let Some(m) = chain.expression.as_member_expression()
            {
                // `(a?.b)()`: the parenthesised chain is still a reference, so
                // `a` is the receiver; a short-circuit leaves undefined.
                let mut inner = Some(Vec::new());
                self.member_with_this(m, callee, this, &mut inner)?;
                let inner = inner.unwrap_or_default();
                if !inner.is_empty() {
                    let to_end = self.emit_jump();
                    for j in inner {
                        self.patch_here(j);
                    }
                    self.emit(Instruction::LoadUndefined { dst: callee });
                    self.patch_here(to_end);
                }
            } else if let (Expression::Identifier(id), false) = (callee_expr, self.with_objects.is_empty()) {
                // A call through a `with` object passes it as `this`.
                self.emit(Instruction::LoadUndefined { dst: this });
                let jumps = self.with_reads(id, callee, this)?;
                self.identifier_static(id, callee)?;
                for j in jumps {
                    self.patch_here(j);
                }
            } else {
                self.emit(Instruction::LoadUndefined { dst: this });
                self.chain_part(callee_expr, callee, exits)?;
            }
        }
        if c.optional {
            let j = self.emit(Instruction::JumpIfNullish { src: callee, target: u32::MAX });
            if let Some(list) = exits {
                list.push(j);
            }
        }
        let is_eval = matches!(callee_expr, Expression::Identifier(id) if id.name == "eval");
        let args = self.arguments(&c.arguments)?;
        self.mark_position(c.span.start);
        match args {
            Arguments::List(args, argc) if is_eval => {
                let scope = self.eval_scope_here();
                self.emit(Instruction::CallEval { dst, callee, args, argc, scope });
            }
            Arguments::List(args, argc) => {
                self.emit(Instruction::Call { dst, callee, this, args, argc });
            }
            Arguments::Spread(array) => {
                self.emit(Instruction::CallSpread { dst, callee, this, args: array });
            }
        }
        self.release(mark);
        Ok(())
    }

    /// `o.name(args)` outside an optional chain with `o` left where
    /// [`Self::expression_any`] puts it (a binding's own register, `this`,
    /// or a fresh temporary) as the receiver, instead of a copy: when the
    /// callee is a plain static member and no argument assigns that
    /// binding. Loads the method into
    /// `callee` and returns the receiver's register; `None` leaves the call
    /// to the general path.
    fn receiver_in_place(
        &mut self,
        callee_expr: &'a Expression<'a>,
        arguments: &[Argument<'a>],
        callee: Reg,
    ) -> CResult<Option<Reg>> {
        let Expression::StaticMemberExpression(s) = callee_expr else { return Ok(None) };
        if s.optional || matches!(s.object, Expression::Super(_)) {
            return Ok(None);
        }
        if let Some(name) = register_name(&s.object) {
            let untouched = arguments.iter().all(|a| match a {
                Argument::SpreadElement(spread) => leaves_register_alone(&spread.argument, name),
                other => other.as_expression().is_some_and(|e| leaves_register_alone(e, name)),
            });
            if !untouched {
                return Ok(None);
            }
        }
        self.static_member_in_place(s, callee).map(Some)
    }

    /// `o.name` into `dst`, with `o` read where [`Self::expression_any`]
    /// puts it (a binding's own register, `this`, or a fresh temporary);
    /// returns that register.
    fn static_member_in_place(&mut self, s: &'a oxc_ast::ast::StaticMemberExpression<'a>, dst: Reg) -> CResult<Reg> {
        let obj = self.expression_any(&s.object)?;
        let name = self.name_constant(s.property.name.as_str());
        let ic = self.ic();
        self.mark_position(s.span.start);
        self.mark_position(s.property.span.start);
        self.emit(Instruction::GetNamed { dst, obj, name, ic });
        Ok(obj)
    }

    fn super_call(&mut self, c: &'a CallExpression<'a>, dst: Reg) -> CResult<()> {
        if let Some((depth, slot)) = self.derived_this_slot() {
            return self.shared_this_super_call(c, dst, depth, slot);
        }
        let mark = self.mark();
        match self.arguments(&c.arguments)? {
            Arguments::List(args, argc) => {
                self.mark_position(c.span.start);
                self.emit(Instruction::SuperCall { dst, args, argc });
            }
            Arguments::Spread(array) => {
                self.mark_position(c.span.start);
                self.emit(Instruction::SuperCallSpread { dst, args: array });
            }
        }
        self.release(mark);
        Ok(())
    }

    /// `super(...)` where the `this` binding is shared with arrows through
    /// the environment: construct the parent, bind `this` in the
    /// environment (the check sees a binding an arrow made meanwhile),
    /// then run the field initialisers, which may call those arrows.
    fn shared_this_super_call(&mut self, c: &'a CallExpression<'a>, dst: Reg, depth: u16, slot: u32) -> CResult<()> {
        let mark = self.mark();
        let func = self.temp()?;
        let arguments = self.arguments(&c.arguments)?;
        self.emit(Instruction::GetEnv { dst: func, depth, slot: slot + 1 });
        self.mark_position(c.span.start);
        match arguments {
            Arguments::List(args, argc) => self.emit(Instruction::SuperConstruct { dst, func, args, argc }),
            Arguments::Spread(args) => self.emit(Instruction::SuperConstructSpread { dst, func, args }),
        };
        self.emit(Instruction::GetEnv { dst: THIS_REG, depth, slot });
        self.emit(Instruction::BindThis { src: dst });
        self.emit(Instruction::SetEnv { src: dst, depth, slot });
        self.emit(Instruction::InitializeInstanceElements { obj: dst, func });
        self.release(mark);
        Ok(())
    }

    /// Evaluates call arguments into consecutive registers, or into an
    /// array when there is a spread.
    fn arguments(&mut self, arguments: &'a [Argument<'a>]) -> CResult<Arguments> {
        if arguments.iter().any(|a| matches!(a, Argument::SpreadElement(_))) {
            let array = self.temp()?;
            let item = self.temp()?;
            let pushed = arguments.iter().filter(|a| !matches!(a, Argument::SpreadElement(_))).count();
            self.emit(Instruction::NewArray { dst: array, capacity: capacity_hint(pushed) });
            for a in arguments {
                match a {
                    Argument::SpreadElement(s) => {
                        self.expression(&s.argument, item)?;
                        self.emit(Instruction::ArraySpread { array, src: item });
                    }
                    other => {
                        if let Some(e) = other.as_expression() {
                            self.expression(e, item)?;
                            self.emit(Instruction::ArrayPush { array, src: item });
                        }
                    }
                }
            }
            return Ok(Arguments::Spread(array));
        }
        let argc = u16::try_from(arguments.len()).map_err(|_| CompileError::Range("too many arguments".to_owned()))?;
        let first = self.temps(arguments.len())?;
        for (i, a) in arguments.iter().enumerate() {
            if let Some(e) = a.as_expression() {
                self.expression(e, Reg(first.0 + i as u16))?;
            }
        }
        Ok(Arguments::List(first, argc))
    }

    fn assignment(&mut self, a: &'a AssignmentExpression<'a>, dst: Reg) -> CResult<()> {
        let name = match &a.left {
            // `(f) = function () {}` names nothing: a parenthesised target
            // is not an IdentifierRef (§13.15.2 step 1.c); the expression
            // then starts at the parenthesis, before the identifier.
            AssignmentTarget::AssignmentTargetIdentifier(id) if id.span.start == a.span.start => {
                Some(id.name.as_str().to_owned())
            }
            _ => None,
        };
        if a.operator == AssignmentOperator::Assign {
            return self.plain_assignment(a, dst, name.as_deref());
        }
        // Compound and logical assignment: read, combine, write.
        let Some(simple) = a.left.as_simple_assignment_target() else {
            return Err(CompileError::syntax("Invalid left-hand side in assignment".to_owned()));
        };
        let mark = self.mark();
        let is_logical = matches!(
            a.operator,
            AssignmentOperator::LogicalAnd | AssignmentOperator::LogicalOr | AssignmentOperator::LogicalNullish
        );
        if !is_logical
            && let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = simple
            && leaves_register_alone(&a.right, id.name.as_str())
            && let Some(r) = self.local_register_target(id)?
        {
            // `x op= y` on a local: one instruction in place.
            self.binary_with(compound_operator(a.operator), r, r, &a.right, a.span.start)?;
            self.emit(Instruction::Move { dst, src: r });
            self.release(mark);
            return Ok(());
        }
        let mut base = None;
        let reference = if let Some(m) = simple.as_member_expression() {
            let r = self.property_ref(m, Later::Expression(&a.right))?;
            self.get_ref_converting(r, dst);
            Some(r)
        } else {
            let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = simple else {
                return Err(CompileError::syntax("Invalid left-hand side in assignment".to_owned()));
            };
            base = self.resolve_identifier_reference(id)?;
            self.get_identifier_reference(id, base, dst)?;
            None
        };
        let logical = match a.operator {
            AssignmentOperator::LogicalAnd => Some(self.emit(Instruction::JumpIfFalse { cond: dst, target: u32::MAX })),
            AssignmentOperator::LogicalOr => Some(self.emit(Instruction::JumpIfTrue { cond: dst, target: u32::MAX })),
            AssignmentOperator::LogicalNullish => {
                Some(self.emit(Instruction::JumpIfNotNullish { src: dst, target: u32::MAX }))
            }
            _ => None,
        };
        if logical.is_some() {
            self.expression_named(&a.right, dst, name.as_deref())?;
        } else {
            self.binary_with(compound_operator(a.operator), dst, dst, &a.right, a.span.start)?;
        }
        match reference {
            Some(r) => self.set_ref(r, dst),
            None => {
                if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = simple {
                    self.put_identifier_reference(id, base, dst)?;
                }
            }
        }
        if let Some(j) = logical {
            self.patch_here(j);
        }
        self.release(mark);
        Ok(())
    }

    /// `target = value` (§13.15.2): a property or `with` reference is
    /// evaluated before the right-hand side, as is the resolution of a
    /// strict assignment to a possibly undeclared name.
    fn plain_assignment(&mut self, a: &'a AssignmentExpression<'a>, dst: Reg, name: Option<&str>) -> CResult<()> {
        if let Some(simple) = a.left.as_simple_assignment_target()
            && let Some(m) = simple.as_member_expression()
        {
            let mark = self.mark();
            let r = self.property_ref(m, Later::Expression(&a.right))?;
            self.expression(&a.right, dst)?;
            self.mark_position(a.span.start);
            self.set_ref(r, dst);
            self.release(mark);
            return Ok(());
        }
        if let AssignmentTarget::AssignmentTargetIdentifier(id) = &a.left
            && !self.with_objects.is_empty()
        {
            // Inside `with`, the reference is resolved before the
            // right-hand side runs (§13.15.2 step 1.a), which may
            // delete the property it found.
            let mark = self.mark();
            let base = self.resolve_identifier_reference(id)?;
            self.expression_named(&a.right, dst, name)?;
            self.put_identifier_reference(id, base, dst)?;
            self.release(mark);
            return Ok(());
        }
        if let AssignmentTarget::AssignmentTargetIdentifier(id) = &a.left
            && self.strict
            && !runs_no_code(&a.right)
            && self.is_unresolvable_global(id)
        {
            return self.strict_unresolvable_assignment(id, &a.right, dst, name);
        }
        self.expression_named(&a.right, dst, name)?;
        self.assign_to_target(&a.left, dst)
    }

    /// Whether `id` names no binding the compiler knows of, so a write
    /// to it goes to the global environment by name (`SetGlobal`).
    fn is_unresolvable_global(&self, id: &IdentifierReference<'_>) -> bool {
        self.with_objects.is_empty()
            && self.symbol_of(id).is_none()
            && !(id.name == "arguments" && self.arguments_location().is_some())
            && self.outer_binding(id.name.as_str()).is_none()
    }

    /// Strict `name = value` where `name` may be undeclared: the reference
    /// is resolved before the right-hand side runs (§13.15.2 step 1.a), and
    /// PutValue of a reference that was unresolvable then throws a
    /// ReferenceError (§6.2.5.6 step 3.a) even if the right-hand side
    /// created the binding. Only emitted when the right-hand side can run
    /// code; otherwise `SetGlobal`'s own check sees the same state.
    fn strict_unresolvable_assignment(
        &mut self,
        id: &'a IdentifierReference<'a>,
        right: &'a Expression<'a>,
        dst: Reg,
        name: Option<&str>,
    ) -> CResult<()> {
        let mark = self.mark();
        let resolved = self.temp()?;
        let c = self.name_constant(id.name.as_str());
        self.emit(Instruction::HasGlobalBinding { dst: resolved, name: c });
        self.expression_named(right, dst, name)?;
        let to_store = self.emit(Instruction::JumpIfTrue { cond: resolved, target: u32::MAX });
        self.emit_throw_reference_error(&format!("{} is not defined", id.name));
        self.patch_here(to_store);
        self.store_identifier_static(id, dst)?;
        self.release(mark);
        Ok(())
    }

    /// The register of a writable local binding `id` names, if it has
    /// one (after its TDZ check).
    fn local_register_target(&mut self, id: &'a IdentifierReference<'a>) -> CResult<Option<Reg>> {
        if !self.with_objects.is_empty() {
            return Ok(None);
        }
        let Some(symbol) = self.symbol_of(id) else { return Ok(None) };
        // A constant, or a function expression's own name, is not written
        // (the general path throws or ignores the write).
        if self.analysis.scoping.symbol_flags(symbol).contains(SymbolFlags::ConstVariable)
            || self.function_names.contains(&symbol)
        {
            return Ok(None);
        }
        let Location::Register(_) = self.location_of(symbol) else { return Ok(None) };
        let scratch = self.temp()?;
        Ok(Some(self.load_binding_at(symbol, scratch, false, Some(id.span.start))?))
    }

    fn update(&mut self, u: &'a UpdateExpression<'a>, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = &u.argument
            && let Some(r) = self.local_register_target(id)?
        {
            let inc = u.operator == UpdateOperator::Increment;
            if u.prefix {
                self.emit(if inc { Instruction::Inc { dst: r, src: r } } else { Instruction::Dec { dst: r, src: r } });
                self.emit(Instruction::Move { dst, src: r });
            } else {
                self.emit(Instruction::ToNumeric { dst, src: r });
                self.emit(if inc {
                    Instruction::Inc { dst: r, src: dst }
                } else {
                    Instruction::Dec { dst: r, src: dst }
                });
            }
            self.release(mark);
            return Ok(());
        }
        let new_value = self.temp()?;
        let mut base = None;
        let reference = if let Some(m) = u.argument.as_member_expression() {
            // Only the old value's conversion runs before the write.
            let r = self.property_ref(m, Later::Nothing)?;
            self.get_ref_converting(r, dst);
            Some(r)
        } else {
            let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = &u.argument else {
                return Err(CompileError::syntax("Invalid left-hand side expression in update".to_owned()));
            };
            base = self.resolve_identifier_reference(id)?;
            self.get_identifier_reference(id, base, dst)?;
            None
        };
        self.emit(Instruction::ToNumeric { dst, src: dst });
        let op = if u.operator == UpdateOperator::Increment {
            Instruction::Inc { dst: new_value, src: dst }
        } else {
            Instruction::Dec { dst: new_value, src: dst }
        };
        self.emit(op);
        match reference {
            Some(r) => self.set_ref(r, new_value),
            None => {
                if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = &u.argument {
                    self.put_identifier_reference(id, base, new_value)?;
                }
            }
        }
        if u.prefix {
            self.emit(Instruction::Move { dst, src: new_value });
        }
        self.release(mark);
        Ok(())
    }
}

/// What runs between evaluating a property reference's base and key and
/// using them (see [`FunctionCompiler::property_ref`]).
#[derive(Clone, Copy)]
pub(super) enum Later<'b, 'a> {
    /// Nothing that can write a register (an update's conversion).
    Nothing,
    /// This expression (an assignment's right-hand side).
    Expression(&'b Expression<'a>),
    /// Code the compiler does not look into (a destructuring's iteration
    /// and default values).
    Unknown,
}

impl Later<'_, '_> {
    /// Whether `operand` may stay in its binding's register meanwhile.
    fn keeps(self, operand: &Expression<'_>) -> bool {
        match self {
            Later::Nothing => true,
            Later::Expression(later) => keeps_operand(operand, later),
            Later::Unknown => false,
        }
    }
}

/// Call arguments as compiled.
enum Arguments {
    /// `argc` values from the register.
    List(Reg, u16),
    /// An array of the values.
    Spread(Reg),
}

/// Whether compiling `e` into a register reads everything it reads of
/// that register before its last instruction, the only one that writes it
/// (so `x = e` can target x's own register).
fn writes_result_last_after_reads(e: &Expression<'_>) -> bool {
    match e {
        Expression::NumericLiteral(_)
        | Expression::StringLiteral(_)
        | Expression::BooleanLiteral(_)
        | Expression::NullLiteral(_)
        | Expression::Identifier(_)
        | Expression::BinaryExpression(_)
        | Expression::NewExpression(_) => true,
        Expression::StaticMemberExpression(m) => !matches!(m.object, Expression::Super(_)),
        Expression::ComputedMemberExpression(m) => !matches!(m.object, Expression::Super(_)),
        Expression::CallExpression(c) => !c.optional && !matches!(c.callee, Expression::Super(_)),
        _ => false,
    }
}

fn strip_parens<'b, 'a>(mut e: &'b Expression<'a>) -> &'b Expression<'a> {
    while let Expression::ParenthesizedExpression(p) = e {
        e = &p.expression;
    }
    e
}

/// The binding whose own register [`FunctionCompiler::expression_any`]
/// hands back for `operand` (an identifier, or a prefix update of one).
fn register_name<'b>(operand: &'b Expression<'_>) -> Option<&'b str> {
    match operand {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::UpdateExpression(u) if u.prefix => match &u.argument {
            SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => Some(id.name.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `operand`, compiled first, may stay in the register
/// `expression_any` gives it while `later` runs: `later` cannot write it.
fn keeps_operand(operand: &Expression<'_>, later: &Expression<'_>) -> bool {
    register_name(operand).is_none_or(|name| leaves_register_alone(later, name))
}

/// Whether evaluating `e` cannot write the register of the binding named
/// `name`. Only an assignment or update of that
/// name in `e` itself can: other functions reach only environment bindings
/// (a binding they use is not in a register), a suspension keeps the
/// registers, and no block scope inside an expression can shadow `name`
/// except a function's. Looks at most `MAX_DEPTH` levels down, answering
/// `false` below.
fn leaves_register_alone(e: &Expression<'_>, name: &str) -> bool {
    const MAX_DEPTH: u32 = 16;
    fn other_name(id: &IdentifierReference<'_>, name: &str) -> bool {
        id.name.as_str() != name
    }
    fn member(m: &MemberExpression<'_>, name: &str, depth: u32) -> bool {
        match m {
            MemberExpression::StaticMemberExpression(s) => within(&s.object, name, depth),
            MemberExpression::ComputedMemberExpression(c) => {
                within(&c.object, name, depth) && within(&c.expression, name, depth)
            }
            MemberExpression::PrivateFieldExpression(p) => within(&p.object, name, depth),
        }
    }
    fn within(e: &Expression<'_>, name: &str, depth: u32) -> bool {
        let Some(depth) = depth.checked_sub(1) else { return false };
        let arguments = |args: &[Argument<'_>]| {
            args.iter().all(|a| match a {
                Argument::SpreadElement(s) => within(&s.argument, name, depth),
                other => other.as_expression().is_some_and(|e| within(e, name, depth)),
            })
        };
        match e {
            Expression::Identifier(_)
            | Expression::NumericLiteral(_)
            | Expression::BigIntLiteral(_)
            | Expression::StringLiteral(_)
            | Expression::BooleanLiteral(_)
            | Expression::NullLiteral(_)
            | Expression::ThisExpression(_)
            | Expression::FunctionExpression(_)
            | Expression::ArrowFunctionExpression(_) => true,
            Expression::StaticMemberExpression(m) => within(&m.object, name, depth),
            Expression::ComputedMemberExpression(m) => {
                within(&m.object, name, depth) && within(&m.expression, name, depth)
            }
            Expression::BinaryExpression(b) => within(&b.left, name, depth) && within(&b.right, name, depth),
            Expression::LogicalExpression(l) => within(&l.left, name, depth) && within(&l.right, name, depth),
            Expression::ConditionalExpression(c) => {
                within(&c.test, name, depth) && within(&c.consequent, name, depth) && within(&c.alternate, name, depth)
            }
            Expression::UnaryExpression(u) => within(&u.argument, name, depth),
            Expression::ParenthesizedExpression(p) => within(&p.expression, name, depth),
            Expression::SequenceExpression(s) => s.expressions.iter().all(|e| within(e, name, depth)),
            Expression::CallExpression(c) => within(&c.callee, name, depth) && arguments(&c.arguments),
            Expression::NewExpression(n) => within(&n.callee, name, depth) && arguments(&n.arguments),
            Expression::UpdateExpression(u) => match &u.argument {
                SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => other_name(id, name),
                target => target.as_member_expression().is_some_and(|m| member(m, name, depth)),
            },
            Expression::AssignmentExpression(a) => {
                within(&a.right, name, depth)
                    && match &a.left {
                        AssignmentTarget::AssignmentTargetIdentifier(id) => other_name(id, name),
                        target => target
                            .as_simple_assignment_target()
                            .and_then(SimpleAssignmentTarget::as_member_expression)
                            .is_some_and(|m| member(m, name, depth)),
                    }
            }
            _ => false,
        }
    }
    within(e, name, MAX_DEPTH)
}

/// Whether evaluating `e` runs no code that could create or delete a
/// global binding (a literal, `this`, or a function being defined).
fn runs_no_code(e: &Expression<'_>) -> bool {
    match e {
        Expression::NumericLiteral(_)
        | Expression::BigIntLiteral(_)
        | Expression::StringLiteral(_)
        | Expression::BooleanLiteral(_)
        | Expression::NullLiteral(_)
        | Expression::ThisExpression(_)
        | Expression::FunctionExpression(_)
        | Expression::ArrowFunctionExpression(_) => true,
        Expression::TemplateLiteral(t) => t.expressions.is_empty(),
        Expression::ParenthesizedExpression(p) => runs_no_code(&p.expression),
        _ => false,
    }
}

/// Whether `e` is an anonymous function or class definition (it takes its
/// name from the property or binding it initialises).
pub(crate) fn is_anonymous_function(e: &Expression<'_>) -> bool {
    match e {
        Expression::FunctionExpression(f) => f.id.is_none(),
        Expression::ArrowFunctionExpression(_) => true,
        Expression::ClassExpression(c) => c.id.is_none(),
        Expression::ParenthesizedExpression(p) => is_anonymous_function(&p.expression),
        _ => false,
    }
}

fn compound_operator(op: AssignmentOperator) -> BinaryOperator {
    match op {
        AssignmentOperator::Subtraction => BinaryOperator::Subtraction,
        AssignmentOperator::Multiplication => BinaryOperator::Multiplication,
        AssignmentOperator::Division => BinaryOperator::Division,
        AssignmentOperator::Remainder => BinaryOperator::Remainder,
        AssignmentOperator::Exponential => BinaryOperator::Exponential,
        AssignmentOperator::ShiftLeft => BinaryOperator::ShiftLeft,
        AssignmentOperator::ShiftRight => BinaryOperator::ShiftRight,
        AssignmentOperator::ShiftRightZeroFill => BinaryOperator::ShiftRightZeroFill,
        AssignmentOperator::BitwiseOR => BinaryOperator::BitwiseOR,
        AssignmentOperator::BitwiseXOR => BinaryOperator::BitwiseXOR,
        AssignmentOperator::BitwiseAnd => BinaryOperator::BitwiseAnd,
        _ => BinaryOperator::Addition,
    }
}

/// The value of a numeric literal that is an int32 other than -0: the
/// right operands that the `…Int` instructions carry inline.
fn int32_literal(e: &Expression<'_>) -> Option<i32> {
    let Expression::NumericLiteral(n) = e else { return None };
    let v = n.value;
    let int = v as i32;
    (f64::from(int) == v && !(v == 0.0 && v.is_sign_negative())).then_some(int)
}

/// The `…Int` instruction of `op` (`dst = lhs op value`), if it has one.
type IntForm = fn(Reg, Reg, i32) -> Instruction;

fn int_form(op: BinaryOperator) -> Option<IntForm> {
    Some(match op {
        BinaryOperator::Addition => |dst, lhs, value| Instruction::AddInt { dst, lhs, value },
        BinaryOperator::Subtraction => |dst, lhs, value| Instruction::SubInt { dst, lhs, value },
        BinaryOperator::BitwiseAnd => |dst, lhs, value| Instruction::BitAndInt { dst, lhs, value },
        BinaryOperator::Multiplication => |dst, lhs, value| numeric_int(NumericOp::Mul, dst, lhs, value),
        BinaryOperator::Remainder => |dst, lhs, value| numeric_int(NumericOp::Rem, dst, lhs, value),
        BinaryOperator::BitwiseOR => |dst, lhs, value| numeric_int(NumericOp::BitOr, dst, lhs, value),
        BinaryOperator::BitwiseXOR => |dst, lhs, value| numeric_int(NumericOp::BitXor, dst, lhs, value),
        BinaryOperator::ShiftLeft => |dst, lhs, value| numeric_int(NumericOp::Shl, dst, lhs, value),
        BinaryOperator::ShiftRight => |dst, lhs, value| Instruction::SarInt { dst, lhs, value },
        BinaryOperator::ShiftRightZeroFill => |dst, lhs, value| numeric_int(NumericOp::Shr, dst, lhs, value),
        _ => return None,
    })
}

fn numeric_int(op: NumericOp, dst: Reg, lhs: Reg, value: i32) -> Instruction {
    Instruction::NumericInt { op, dst, lhs, value }
}

fn binary_instruction(op: BinaryOperator, dst: Reg, lhs: Reg, rhs: Reg) -> Instruction {
    match op {
        BinaryOperator::Equality => Instruction::Eq { dst, lhs, rhs },
        BinaryOperator::Inequality => Instruction::Ne { dst, lhs, rhs },
        BinaryOperator::StrictEquality => Instruction::StrictEq { dst, lhs, rhs },
        BinaryOperator::StrictInequality => Instruction::StrictNe { dst, lhs, rhs },
        BinaryOperator::LessThan => Instruction::Lt { dst, lhs, rhs },
        BinaryOperator::LessEqualThan => Instruction::Le { dst, lhs, rhs },
        BinaryOperator::GreaterThan => Instruction::Gt { dst, lhs, rhs },
        BinaryOperator::GreaterEqualThan => Instruction::Ge { dst, lhs, rhs },
        BinaryOperator::Addition => Instruction::Add { dst, lhs, rhs },
        BinaryOperator::Subtraction => Instruction::Sub { dst, lhs, rhs },
        BinaryOperator::Multiplication => Instruction::Mul { dst, lhs, rhs },
        BinaryOperator::Division => Instruction::Div { dst, lhs, rhs },
        BinaryOperator::Remainder => Instruction::Rem { dst, lhs, rhs },
        BinaryOperator::Exponential => Instruction::Exp { dst, lhs, rhs },
        BinaryOperator::ShiftLeft => Instruction::Shl { dst, lhs, rhs },
        BinaryOperator::ShiftRight => Instruction::Sar { dst, lhs, rhs },
        BinaryOperator::ShiftRightZeroFill => Instruction::Shr { dst, lhs, rhs },
        BinaryOperator::BitwiseOR => Instruction::BitOr { dst, lhs, rhs },
        BinaryOperator::BitwiseXOR => Instruction::BitXor { dst, lhs, rhs },
        BinaryOperator::BitwiseAnd => Instruction::BitAnd { dst, lhs, rhs },
        BinaryOperator::In => Instruction::In { dst, lhs, rhs },
        BinaryOperator::Instanceof => Instruction::InstanceOf { dst, lhs, rhs },
    }
}

/// The registers of a `yield*` loop: the inner iterator, the request's
/// value and kind (0 next, 1 throw, 2 return; 3 and 4 set by the step for
/// a missing `return` / `throw` method), and the inner result.
#[derive(Clone, Copy)]
struct DelegateRegs {
    record: Reg,
    value: Reg,
    mode: Reg,
    result: Reg,
}

/// The jumps out of a `yield*` loop's `done` check, to patch.
struct DelegateExits {
    /// Not done: yield the result.
    not_done: usize,
    /// Done after a `return` request: the generator returns the value.
    returned: usize,
    /// Done: the `yield*` expression's value is in `dst`.
    done: usize,
}

/// `NewArray`'s room for `pushed` elements (a hint: past `u16::MAX` the
/// array grows as it is filled).
fn capacity_hint(pushed: usize) -> u16 {
    u16::try_from(pushed).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use crate::vm::Vm;

    fn run(text: &str) -> String {
        let mut vm = Vm::new();
        let value = vm.eval_script("assignment.js", text).expect("the script runs");
        value.to_rust_string(&mut vm).expect("a string")
    }

    /// §13.15.2 step 1.a and §6.2.5.6 step 3.a: a strict assignment to an
    /// undeclared name resolves it before the right-hand side runs, so it
    /// throws even when the right-hand side creates the global (test262
    /// identifier-resolution/assign-to-global-undefined.js). V8 resolves it
    /// afterwards and does not throw, so this case is not in tests/js.
    #[test]
    fn strict_assignment_to_an_undeclared_name_resolves_it_first() {
        let text = "'use strict'; var r; \
            try { undeclared = (globalThis.undeclared = 5); r = 'assigned'; } catch (e) { r = e.name; } \
            r + ',' + globalThis.undeclared";
        assert_eq!(run(text), "ReferenceError,5");
        // Declared by the time the assignment is evaluated: it is written.
        let declared = "'use strict'; globalThis.later = 0; later = (1, 2); String(later)";
        assert_eq!(run(declared), "2");
        // Deleted by the right-hand side: SetMutableBinding's own check.
        let deleted = "'use strict'; globalThis.gone = 1; var r; \
            try { gone = (delete globalThis.gone, 3); r = 'assigned'; } catch (e) { r = e.name; } r";
        assert_eq!(run(deleted), "ReferenceError");
        // Sloppy code creates the global.
        assert_eq!(run("fresh = (globalThis.fresh = 5, 6); String(fresh)"), "6");
    }
}
