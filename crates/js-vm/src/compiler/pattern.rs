//! Destructuring: binding patterns in declarations and parameters, and
//! assignment patterns (§8.6.2 `BindingInitialization`, §13.15.5
//! `DestructuringAssignmentEvaluation`).

use oxc_ast::ast::{
    AssignmentTarget, AssignmentTargetMaybeDefault, AssignmentTargetProperty, BindingPattern, Expression, PropertyKey,
    SimpleAssignmentTarget,
};

use super::control::Control;
use super::expression::is_anonymous_function;
use super::function::FunctionCompiler;
use super::{CResult, CompileError};
use crate::bytecode::{Instruction, Reg};

impl<'a> FunctionCompiler<'_, 'a> {
    /// Binds `value` to `pattern`; `init` for declarations.
    pub fn bind_pattern(&mut self, pattern: &'a BindingPattern<'a>, value: Reg, init: bool) -> CResult<()> {
        self.enter_nesting()?;
        let result = self.bind_pattern_inner(pattern, value, init);
        self.leave_nesting();
        result
    }

    fn bind_pattern_inner(&mut self, pattern: &'a BindingPattern<'a>, value: Reg, init: bool) -> CResult<()> {
        match pattern {
            BindingPattern::BindingIdentifier(id) => {
                let Some(symbol) = id.symbol_id.get() else { return Ok(()) };
                // A `var` declared in a `with` body is assigned through the
                // object when the object has the name (§14.3.2.1).
                let jumps = self.with_writes(Some(symbol), id.name.as_str(), value)?;
                self.store_binding(symbol, value, init)?;
                for j in jumps {
                    self.patch_here(j);
                }
                Ok(())
            }
            BindingPattern::AssignmentPattern(p) => {
                let mark = self.mark();
                let v = self.temp()?;
                self.emit(Instruction::Move { dst: v, src: value });
                let skip = self.emit(Instruction::JumpIfNotUndefined { src: v, target: u32::MAX });
                let name = match &p.left {
                    BindingPattern::BindingIdentifier(id) if is_anonymous_function(&p.right) => {
                        Some(id.name.as_str().to_owned())
                    }
                    _ => None,
                };
                self.expression_named(&p.right, v, name.as_deref())?;
                self.patch_here(skip);
                self.bind_pattern(&p.left, v, init)?;
                self.release(mark);
                Ok(())
            }
            BindingPattern::ObjectPattern(p) => {
                let mark = self.mark();
                self.require_object_coercible(value)?;
                let keys = if p.rest.is_some() { Some(self.temps(p.properties.len())?) } else { None };
                let key = self.temp()?;
                let item = self.temp()?;
                for (i, property) in p.properties.iter().enumerate() {
                    self.property_key(&property.key, property.computed, key)?;
                    if let Some(k) = keys {
                        self.emit(Instruction::Move { dst: Reg(k.0 + i as u16), src: key });
                    }
                    let element_mark = self.mark();
                    let base = self.resolve_single_name(&property.value)?;
                    self.get_by_key(&property.key, property.computed, value, key, item);
                    match base {
                        Some(base) => self.bind_resolved_single_name(&property.value, base, item, init)?,
                        None => self.bind_pattern(&property.value, item, init)?,
                    }
                    self.release(element_mark);
                }
                if let Some(rest) = &p.rest {
                    let count = p.properties.len() as u16;
                    self.emit(Instruction::ObjectRest { dst: item, src: value, excluded: keys.unwrap_or(key), count });
                    self.bind_pattern(&rest.argument, item, init)?;
                }
                self.release(mark);
                Ok(())
            }
            BindingPattern::ArrayPattern(p) => {
                let mark = self.mark();
                let record = self.temp()?;
                let item = self.temp()?;
                self.emit(Instruction::GetIterator { dst: record, src: value });
                self.closing_iterator_on_exit(record, |fc| {
                    for element in &p.elements {
                        let element_mark = fc.mark();
                        let base = match element {
                            Some(element) => fc.resolve_single_name(element)?,
                            None => None,
                        };
                        fc.emit(Instruction::LoadUndefined { dst: item });
                        let next = fc.emit(Instruction::IteratorNext { dst: item, iter: record, done: u32::MAX });
                        fc.patch_here(next);
                        match (element, base) {
                            (Some(element), Some(base)) => fc.bind_resolved_single_name(element, base, item, init)?,
                            (Some(element), None) => fc.bind_pattern(element, item, init)?,
                            (None, _) => {}
                        }
                        fc.release(element_mark);
                    }
                    if let Some(rest) = &p.rest {
                        fc.collect_rest(record, item)?;
                        fc.bind_pattern(&rest.argument, item, init)?;
                    }
                    Ok(())
                })?;
                self.release(mark);
                Ok(())
            }
        }
    }

    /// For a SingleNameBinding element (`name` or `name = default`)
    /// inside `with`: resolves the name before the element's value is
    /// fetched (§14.3.3.3 and §8.6.3, ResolveBinding comes first), and
    /// returns the register holding the `with` object that has it
    /// (undefined when none does). `None`, emitting nothing, for other
    /// elements and where no `with` object applies.
    fn resolve_single_name(&mut self, element: &'a BindingPattern<'a>) -> CResult<Option<Reg>> {
        if self.with_objects.is_empty() {
            return Ok(None);
        }
        let Some(id) = single_name(element) else { return Ok(None) };
        let Some(symbol) = id.symbol_id.get() else { return Ok(None) };
        self.resolve_name_reference(Some(symbol), id.name.as_str())
    }

    /// Finishes a SingleNameBinding whose name
    /// [`resolve_single_name`](Self::resolve_single_name) resolved to
    /// `base`: applies the default to `value`, then initialises the
    /// binding through the reference.
    fn bind_resolved_single_name(
        &mut self,
        element: &'a BindingPattern<'a>,
        base: Reg,
        value: Reg,
        init: bool,
    ) -> CResult<()> {
        let Some(id) = single_name(element) else { return self.bind_pattern(element, value, init) };
        if let BindingPattern::AssignmentPattern(p) = element {
            let skip = self.emit(Instruction::JumpIfNotUndefined { src: value, target: u32::MAX });
            let name = is_anonymous_function(&p.right).then(|| id.name.as_str());
            self.expression_named(&p.right, value, name)?;
            self.patch_here(skip);
        }
        let Some(symbol) = id.symbol_id.get() else { return Ok(()) };
        self.initialize_through_reference(symbol, id.name.as_str(), base, value, init)
    }

    /// Throws the destructuring `TypeError` for `null`/`undefined`.
    fn require_object_coercible(&mut self, value: Reg) -> CResult<()> {
        let mark = self.mark();
        let excluded = self.temp()?;
        let probe = self.temp()?;
        let skip = self.emit(Instruction::JumpIfNotNullish { src: value, target: u32::MAX });
        self.emit(Instruction::ObjectRest { dst: probe, src: value, excluded, count: 0 });
        self.patch_here(skip);
        self.release(mark);
        Ok(())
    }

    fn get_by_key(&mut self, key_node: &'a PropertyKey<'a>, computed: bool, obj: Reg, key: Reg, dst: Reg) {
        if let (PropertyKey::StaticIdentifier(id), false) = (key_node, computed) {
            let name = self.name_constant(id.name.as_str());
            let ic = self.ic();
            self.emit(Instruction::GetNamed { dst, obj, name, ic });
        } else {
            self.emit(Instruction::GetIndexed { dst, obj, key });
        }
    }

    /// Collects the rest of an iterator into a new array in `dst`.
    fn collect_rest(&mut self, record: Reg, dst: Reg) -> CResult<()> {
        let mark = self.mark();
        let array = self.temp()?;
        let item = self.temp()?;
        self.emit(Instruction::NewArray { dst: array, capacity: 0 });
        let start = self.here();
        let next = self.emit(Instruction::IteratorNext { dst: item, iter: record, done: u32::MAX });
        self.emit(Instruction::ArrayPush { array, src: item });
        self.emit(Instruction::Jump { target: start });
        self.patch_here(next);
        self.emit(Instruction::Move { dst, src: array });
        self.release(mark);
        Ok(())
    }

    /// Assigns `value` to an assignment target (identifier, member or
    /// pattern).
    pub fn assign_to_target(&mut self, target: &'a AssignmentTarget<'a>, value: Reg) -> CResult<()> {
        self.enter_nesting()?;
        let result = self.assign_to_target_inner(target, value);
        self.leave_nesting();
        result
    }

    fn assign_to_target_inner(&mut self, target: &'a AssignmentTarget<'a>, value: Reg) -> CResult<()> {
        match target {
            AssignmentTarget::AssignmentTargetIdentifier(id) => self.store_identifier(id, value),
            AssignmentTarget::ObjectAssignmentTarget(p) => {
                let mark = self.mark();
                self.require_object_coercible(value)?;
                let keys = if p.rest.is_some() { Some(self.temps(p.properties.len())?) } else { None };
                let key = self.temp()?;
                let item = self.temp()?;
                for (i, property) in p.properties.iter().enumerate() {
                    match property {
                        AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(p) => {
                            let name = self.name_constant(p.binding.name.as_str());
                            self.emit(Instruction::LoadConst { dst: key, index: name });
                            if let Some(k) = keys {
                                self.emit(Instruction::Move { dst: Reg(k.0 + i as u16), src: key });
                            }
                            let ic = self.ic();
                            self.emit(Instruction::GetNamed { dst: item, obj: value, name, ic });
                            if let Some(init) = &p.init {
                                let skip = self.emit(Instruction::JumpIfNotUndefined { src: item, target: u32::MAX });
                                let n = is_anonymous_function(init).then(|| p.binding.name.as_str().to_owned());
                                self.expression_named(init, item, n.as_deref())?;
                                self.patch_here(skip);
                            }
                            self.store_identifier(&p.binding, item)?;
                        }
                        AssignmentTargetProperty::AssignmentTargetPropertyProperty(p) => {
                            self.property_key(&p.name, p.computed, key)?;
                            if let Some(k) = keys {
                                self.emit(Instruction::Move { dst: Reg(k.0 + i as u16), src: key });
                            }
                            let element_mark = self.mark();
                            let split = split_default(&p.binding);
                            let lref = match split {
                                Some((target, _)) => self.target_ref(target)?,
                                None => None,
                            };
                            self.get_by_key(&p.name, p.computed, value, key, item);
                            if let Some((target, init)) = split {
                                self.assign_element(target, init, lref, item)?;
                            }
                            self.release(element_mark);
                        }
                    }
                }
                if let Some(rest) = &p.rest {
                    let count = p.properties.len() as u16;
                    self.emit(Instruction::ObjectRest { dst: item, src: value, excluded: keys.unwrap_or(key), count });
                    self.assign_to_target(&rest.target, item)?;
                }
                self.release(mark);
                Ok(())
            }
            AssignmentTarget::ArrayAssignmentTarget(p) => {
                let mark = self.mark();
                let record = self.temp()?;
                let item = self.temp()?;
                self.emit(Instruction::GetIterator { dst: record, src: value });
                self.closing_iterator_on_exit(record, |fc| {
                    for element in &p.elements {
                        let element_mark = fc.mark();
                        let split = element.as_ref().and_then(split_default);
                        let lref = match split {
                            Some((target, _)) => fc.target_ref(target)?,
                            None => None,
                        };
                        fc.emit(Instruction::LoadUndefined { dst: item });
                        let next = fc.emit(Instruction::IteratorNext { dst: item, iter: record, done: u32::MAX });
                        fc.patch_here(next);
                        if let Some((target, init)) = split {
                            fc.assign_element(target, init, lref, item)?;
                        }
                        fc.release(element_mark);
                    }
                    if let Some(rest) = &p.rest {
                        let lref = fc.target_ref(&rest.target)?;
                        fc.collect_rest(record, item)?;
                        fc.assign_element(&rest.target, None, lref, item)?;
                    }
                    Ok(())
                })?;
                self.release(mark);
                Ok(())
            }
            other => match other.as_simple_assignment_target() {
                Some(simple) => self.assign_simple(simple, value),
                None => Err(CompileError::syntax("Invalid assignment target".to_owned())),
            },
        }
    }

    fn assign_simple(&mut self, target: &'a SimpleAssignmentTarget<'a>, value: Reg) -> CResult<()> {
        if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = target {
            return self.store_identifier(id, value);
        }
        let Some(m) = target.as_member_expression() else {
            return Err(CompileError::syntax("Invalid assignment target".to_owned()));
        };
        let mark = self.mark();
        if matches!(m.object(), oxc_ast::ast::Expression::Super(_)) {
            let reference = self.super_ref(m)?;
            self.set_ref(reference, value);
            self.release(mark);
            return Ok(());
        }
        let obj = self.temp()?;
        self.expression(m.object(), obj)?;
        match m {
            oxc_ast::ast::MemberExpression::StaticMemberExpression(s) => {
                let name = self.name_constant(s.property.name.as_str());
                let ic = self.ic();
                self.emit(Instruction::SetNamed { obj, name, src: value, ic, strict: self.strict });
            }
            oxc_ast::ast::MemberExpression::ComputedMemberExpression(c) => {
                let key = self.temp()?;
                self.expression(&c.expression, key)?;
                self.emit(Instruction::SetIndexed { obj, key, src: value, strict: self.strict });
            }
            oxc_ast::ast::MemberExpression::PrivateFieldExpression(p) => {
                let key = self.temp()?;
                self.load_private_name(p.field.name.as_str(), key)?;
                self.emit(Instruction::SetPrivate { obj, key, src: value });
            }
        }
        self.release(mark);
        Ok(())
    }

    /// The reference of a property assignment target, evaluated before the
    /// value is fetched (§13.15.5.5 step 1, §13.15.5.6 step 1); `None` for
    /// identifiers and patterns, which are resolved when assigned.
    fn target_ref(&mut self, target: &'a AssignmentTarget<'a>) -> CResult<Option<super::expression::PropertyRef>> {
        match target.as_simple_assignment_target().and_then(SimpleAssignmentTarget::as_member_expression) {
            // Iteration and default values run before the write.
            Some(m) => Ok(Some(self.property_ref(m, super::expression::Later::Unknown)?)),
            None => Ok(None),
        }
    }

    /// Finishes a destructuring element whose value is in `value`: applies
    /// the default, then assigns through `lref` (from
    /// [`Self::target_ref`]) or to the target.
    fn assign_element(
        &mut self,
        target: &'a AssignmentTarget<'a>,
        init: Option<&'a Expression<'a>>,
        lref: Option<super::expression::PropertyRef>,
        value: Reg,
    ) -> CResult<()> {
        if let Some(init) = init {
            let skip = self.emit(Instruction::JumpIfNotUndefined { src: value, target: u32::MAX });
            let name = match target {
                AssignmentTarget::AssignmentTargetIdentifier(id) if is_anonymous_function(init) => {
                    Some(id.name.as_str().to_owned())
                }
                _ => None,
            };
            self.expression_named(init, value, name.as_deref())?;
            self.patch_here(skip);
        }
        match lref {
            Some(reference) => {
                self.set_ref(reference, value);
                Ok(())
            }
            None => self.assign_to_target(target, value),
        }
    }

    /// Compiles the steps of an array destructuring (`body`) as a region
    /// that closes the iterator in `record` on every exit: a throw calls
    /// its `return` and rethrows (IteratorClose with a throw completion), a
    /// generator's `return` closes it on the way out, and the normal end
    /// closes it unless it is exhausted (§8.6.3, §13.15.5.2).
    fn closing_iterator_on_exit(&mut self, record: Reg, body: impl FnOnce(&mut Self) -> CResult<()>) -> CResult<()> {
        let saved_env = self.temp()?;
        let exception = self.temp()?;
        self.emit(Instruction::SaveEnv { dst: saved_env });
        self.control.push(Control::Iterator { record, async_regs: None });
        let start = self.here();
        self.control.push(Control::Try { ranges: Vec::new(), open: Some(start), finalizer: None });
        let result = body(self);
        let protected = self.close_try();
        self.control.pop();
        result?;
        self.emit(Instruction::IteratorClose { iter: record });
        let over = self.emit_jump();
        let handler = self.here();
        self.push_handlers(&protected, handler, exception);
        self.emit(Instruction::RestoreEnv { src: saved_env });
        self.emit(Instruction::IteratorCloseOnThrow { iter: record });
        self.emit(Instruction::Throw { src: exception });
        self.patch_here(over);
        Ok(())
    }
}

/// An element's target and its default value, if it has one.
fn split_default<'a>(
    target: &'a AssignmentTargetMaybeDefault<'a>,
) -> Option<(&'a AssignmentTarget<'a>, Option<&'a Expression<'a>>)> {
    match target {
        AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(d) => Some((&d.binding, Some(&d.init))),
        other => other.as_assignment_target().map(|t| (t, None)),
    }
}

/// The identifier of a SingleNameBinding element (`name` or
/// `name = default`).
fn single_name<'p, 'a>(element: &'p BindingPattern<'a>) -> Option<&'p oxc_ast::ast::BindingIdentifier<'a>> {
    match element {
        BindingPattern::BindingIdentifier(id) => Some(id),
        BindingPattern::AssignmentPattern(p) => match &p.left {
            BindingPattern::BindingIdentifier(id) => Some(id),
            _ => None,
        },
        _ => None,
    }
}

/// The symbols a binding pattern declares, in source order.
pub(crate) fn pattern_symbols(pattern: &BindingPattern<'_>, out: &mut Vec<oxc_syntax::symbol::SymbolId>) {
    match pattern {
        BindingPattern::BindingIdentifier(id) => out.extend(id.symbol_id.get()),
        BindingPattern::AssignmentPattern(p) => pattern_symbols(&p.left, out),
        BindingPattern::ObjectPattern(p) => {
            for property in &p.properties {
                pattern_symbols(&property.value, out);
            }
            if let Some(rest) = &p.rest {
                pattern_symbols(&rest.argument, out);
            }
        }
        BindingPattern::ArrayPattern(p) => {
            for element in p.elements.iter().flatten() {
                pattern_symbols(element, out);
            }
            if let Some(rest) = &p.rest {
                pattern_symbols(&rest.argument, out);
            }
        }
    }
}
