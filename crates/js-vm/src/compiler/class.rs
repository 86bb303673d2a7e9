//! Class definitions (§15.7 `ClassDefinitionEvaluation`).

use oxc_ast::ast::{Class, ClassElement, MethodDefinitionKind, PropertyKey};

use super::function::FunctionCompiler;
use super::{CResult, CompileError, THIS_REG};
use crate::bytecode::{CodeKind, Instruction, Reg};

impl<'a> FunctionCompiler<'_, 'a> {
    /// Evaluates a class definition into `dst`.
    #[allow(clippy::too_many_lines, reason = "ClassDefinitionEvaluation's steps in order")]
    pub fn class(&mut self, class: &'a Class<'a>, dst: Reg, name: Option<&str>) -> CResult<()> {
        let class_name =
            class.id.as_ref().map(|id| id.name.as_str().to_owned()).or(name.map(str::to_owned)).unwrap_or_default();
        let mark = self.mark();
        let pushed = self.enter_scope(class.scope_id.get(), &[])?;
        let heritage = self.temp()?;
        match &class.heritage {
            Some(h) => self.expression(&h.expression, heritage)?,
            None => {
                self.emit(Instruction::LoadHole { dst: heritage });
            }
        }
        let derived = class.heritage.is_some();
        let constructor = class.body.body.iter().find_map(|e| match e {
            ClassElement::MethodDefinition(m) if m.kind == MethodDefinitionKind::Constructor => Some(m),
            _ => None,
        });
        let kind = CodeKind::ClassConstructor { derived };
        let code = match constructor {
            Some(m) => self.compile_function_code(&m.value, Some(&class_name), Some(kind))?,
            None => self.default_constructor(&class_name, derived, class.span.start, class.span.end),
        };
        self.functions.push(code);
        let index = (self.functions.len() - 1) as u32;
        let ctor = self.temp()?;
        let proto = self.temp()?;
        self.mark_position(class.span.start);
        self.emit(Instruction::CreateClass { dst: ctor, proto_dst: proto, index, heritage });
        let key = self.temp()?;
        let func = self.temp()?;
        let has_instance_fields =
            class.body.body.iter().any(|e| matches!(e, ClassElement::PropertyDefinition(p) if !p.r#static));
        // Computed keys are evaluated in element order while the class is
        // defined; instance-field keys wait in an array for construction.
        let field_keys = self.temp()?;
        if has_instance_fields {
            self.emit(Instruction::NewArray { dst: field_keys });
        }
        let mut statics: Vec<(&'a ClassElement<'a>, Option<Reg>)> = Vec::new();
        for element in &class.body.body {
            match element {
                ClassElement::MethodDefinition(m) if m.kind != MethodDefinitionKind::Constructor => {
                    if matches!(m.key, PropertyKey::PrivateIdentifier(_)) {
                        return Err(CompileError::Syntax(
                            "private methods are not supported by this engine yet".to_owned(),
                        ));
                    }
                    let home = if m.r#static { ctor } else { proto };
                    self.property_key(&m.key, m.computed, key)?;
                    let code = self.compile_function_code(&m.value, Some(""), Some(CodeKind::Method))?;
                    self.functions.push(code);
                    let index = (self.functions.len() - 1) as u32;
                    self.emit(Instruction::Closure { dst: func, index });
                    self.emit(Instruction::SetHomeObject { func, home });
                    match m.kind {
                        MethodDefinitionKind::Get | MethodDefinitionKind::Set => {
                            let setter = m.kind == MethodDefinitionKind::Set;
                            self.emit(Instruction::SetFunctionName { func, key, prefix: if setter { 2 } else { 1 } });
                            self.emit(Instruction::DefineAccessor { obj: home, key, func, setter, enumerable: false });
                        }
                        _ => {
                            self.emit(Instruction::SetFunctionName { func, key, prefix: 0 });
                            self.emit(Instruction::DefineMethod { obj: home, key, func, enumerable: false });
                        }
                    }
                }
                ClassElement::PropertyDefinition(p) => {
                    if matches!(p.key, PropertyKey::PrivateIdentifier(_)) {
                        return Err(CompileError::Syntax(
                            "private fields are not supported by this engine yet".to_owned(),
                        ));
                    }
                    if p.r#static {
                        let r = self.temp()?;
                        self.property_key(&p.key, p.computed, r)?;
                        statics.push((element, Some(r)));
                    } else if p.computed {
                        self.property_key(&p.key, true, key)?;
                        self.emit(Instruction::ArrayPush { array: field_keys, src: key });
                    }
                }
                ClassElement::StaticBlock(_) => statics.push((element, None)),
                ClassElement::AccessorProperty(_) => {
                    return Err(CompileError::Syntax("auto-accessors are not supported by this engine yet".to_owned()));
                }
                _ => {}
            }
        }
        // The inner name binding is initialised before static elements run.
        if let Some(symbol) = class.id.as_ref().and_then(|id| id.symbol_id.get()) {
            self.store_binding(symbol, ctor, true)?;
        }
        if has_instance_fields {
            self.instance_fields(class, proto, func)?;
            self.emit(Instruction::SetClassFields { ctor: func, fields: field_keys });
            self.emit(Instruction::SetClassFields { ctor, fields: func });
        }
        let args = self.temp()?;
        for (element, key_reg) in statics {
            match element {
                ClassElement::PropertyDefinition(p) => {
                    let key = key_reg.unwrap_or(key);
                    match &p.value {
                        Some(value) => {
                            let name = if p.computed { None } else { Self::static_key_name(&p.key) };
                            let code = self.element_function(value, name.as_deref())?;
                            self.functions.push(code);
                            let index = (self.functions.len() - 1) as u32;
                            self.emit(Instruction::Closure { dst: func, index });
                            self.emit(Instruction::SetHomeObject { func, home: ctor });
                            self.emit(Instruction::Call { dst: func, callee: func, this: ctor, args, argc: 0 });
                            if p.computed && super::expression::is_anonymous_function(value) {
                                self.emit(Instruction::SetFunctionName { func, key, prefix: 0 });
                            }
                        }
                        None => {
                            self.emit(Instruction::LoadUndefined { dst: func });
                        }
                    }
                    self.emit(Instruction::DefineField { obj: ctor, key, src: func });
                }
                ClassElement::StaticBlock(block) => {
                    let scope = block.scope_id.get();
                    let boundary = scope.unwrap_or(self.boundary);
                    let mut fc = FunctionCompiler::new(
                        self.vm,
                        self.analysis,
                        self.source,
                        boundary,
                        CodeKind::Method,
                        true,
                        "",
                    );
                    fc.compile_function_body_statements(&block.body)?;
                    let code = fc.finish(block.span.start, block.span.end);
                    self.functions.push(code);
                    let index = (self.functions.len() - 1) as u32;
                    self.emit(Instruction::Closure { dst: func, index });
                    self.emit(Instruction::SetHomeObject { func, home: ctor });
                    self.emit(Instruction::Call { dst: func, callee: func, this: ctor, args, argc: 0 });
                }
                _ => {}
            }
        }
        self.emit(Instruction::Move { dst, src: ctor });
        self.leave_scope(pushed);
        self.release(mark);
        Ok(())
    }

    /// `constructor() {}` or `constructor(...args) { super(...args); }`.
    fn default_constructor(
        &mut self,
        name: &str,
        derived: bool,
        start: u32,
        end: u32,
    ) -> js_gc::Gc<crate::bytecode::Code> {
        let kind = CodeKind::ClassConstructor { derived };
        let mut fc = FunctionCompiler::new(self.vm, self.analysis, self.source, self.current_scope(), kind, true, name);
        let r = Reg(1);
        fc.reserve_registers(2);
        if derived {
            fc.emit(Instruction::CreateRestArray { dst: r, from: 0 });
            fc.emit(Instruction::SuperCallSpread { dst: r, args: r });
        }
        fc.emit(Instruction::LoadUndefined { dst: r });
        fc.emit(Instruction::Return { src: r });
        fc.finish(start, end)
    }

    /// Compiles the instance field initialiser into `dst`.
    fn instance_fields(&mut self, class: &'a Class<'a>, proto: Reg, dst: Reg) -> CResult<()> {
        let boundary = class.scope_id.get().unwrap_or(self.boundary);
        let mut fc = FunctionCompiler::new(self.vm, self.analysis, self.source, boundary, CodeKind::Method, true, "");
        fc.scope_stack.push(boundary);
        fc.reserve_registers(1);
        let key = fc.temp()?;
        let value = fc.temp()?;
        let mut computed_index = 0;
        for element in &class.body.body {
            let ClassElement::PropertyDefinition(p) = element else { continue };
            if p.r#static {
                continue;
            }
            if p.computed {
                fc.emit(Instruction::LoadFieldKey { dst: key, index: computed_index });
                computed_index += 1;
            } else {
                fc.property_key(&p.key, false, key)?;
            }
            match &p.value {
                Some(v) => {
                    let name = if p.computed { None } else { Self::static_key_name(&p.key) };
                    fc.expression_named(v, value, name.as_deref())?;
                    if p.computed && super::expression::is_anonymous_function(v) {
                        fc.emit(Instruction::SetFunctionName { func: value, key, prefix: 0 });
                    }
                }
                None => {
                    fc.emit(Instruction::LoadUndefined { dst: value });
                }
            }
            fc.emit(Instruction::DefineField { obj: THIS_REG, key, src: value });
        }
        fc.emit(Instruction::LoadUndefined { dst: value });
        fc.emit(Instruction::Return { src: value });
        let code = fc.finish(class.span.start, class.span.end);
        self.functions.push(code);
        let index = (self.functions.len() - 1) as u32;
        self.emit(Instruction::Closure { dst, index });
        self.emit(Instruction::SetHomeObject { func: dst, home: proto });
        Ok(())
    }

    /// A function returning one static field's value.
    fn element_function(
        &mut self,
        e: &'a oxc_ast::ast::Expression<'a>,
        name: Option<&str>,
    ) -> CResult<js_gc::Gc<crate::bytecode::Code>> {
        let boundary = self.current_scope();
        let mut fc = FunctionCompiler::new(self.vm, self.analysis, self.source, boundary, CodeKind::Method, true, "");
        fc.scope_stack.push(boundary);
        fc.reserve_registers(1);
        let value = fc.temp()?;
        fc.expression_named(e, value, name)?;
        fc.emit(Instruction::Return { src: value });
        let span = oxc_span::GetSpan::span(e);
        Ok(fc.finish(span.start, span.end))
    }
}
