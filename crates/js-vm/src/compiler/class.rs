//! Class definitions (§15.7 `ClassDefinitionEvaluation`).

use oxc_ast::ast::{Class, ClassElement, MethodDefinitionKind, PropertyKey};

use super::function::FunctionCompiler;
use super::scope::{PrivateKind, PrivateName};
use super::{CResult, CompileError, THIS_REG};
use crate::bytecode::{CodeKind, Instruction, Reg};

/// The registers a class definition works in while its elements are
/// defined.
#[derive(Clone, Copy)]
struct ClassObjects {
    /// The constructor (home of static methods).
    ctor: Reg,
    /// The prototype (home of instance methods).
    proto: Reg,
    /// Scratch: the current element's key.
    key: Reg,
    /// Scratch: the current element's function.
    func: Reg,
    /// The array collecting instance fields' computed keys.
    field_keys: Reg,
}

impl<'a> FunctionCompiler<'_, 'a> {
    /// Evaluates a class definition into `dst`.
    pub fn class(&mut self, class: &'a Class<'a>, dst: Reg, name: Option<&str>) -> CResult<()> {
        let class_name =
            class.id.as_ref().map(|id| id.name.as_str().to_owned()).or(name.map(str::to_owned)).unwrap_or_default();
        let mark = self.mark();
        let pushed = self.enter_scope(class.scope_id.get(), &[])?;
        // Each evaluation of the class makes new Private Names.
        let private: Vec<PrivateName> =
            class.scope_id.get().map(|s| self.analysis.private_names(s).to_vec()).unwrap_or_default();
        for p in &private {
            let r = self.temp()?;
            let description = self.name_constant(&format!("#{}", p.name));
            self.emit(Instruction::NewPrivateName { dst: r, description });
            self.emit(Instruction::SetEnv { src: r, depth: 0, slot: p.slot });
        }
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
            Some(m) => self.compile_function_code(&m.value, Some(&class_name), Some(kind), class.span)?,
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
            class.body.body.iter().any(|e| matches!(e, ClassElement::PropertyDefinition(p) if !p.r#static))
                || private.iter().any(|p| !p.is_static && p.kind != PrivateKind::Field);
        // Computed keys are evaluated in element order while the class is
        // defined; instance-field keys wait in an array for construction.
        let field_keys = self.temp()?;
        if has_instance_fields {
            self.emit(Instruction::NewArray { dst: field_keys, capacity: 0 });
        }
        let statics = self.class_elements(class, &private, ClassObjects { ctor, proto, key, func, field_keys })?;
        // The inner name binding (in the class scope, see `split_bindings`)
        // is initialised before static elements run.
        if let (Some(id), Some(scope)) = (&class.id, class.scope_id.get())
            && let Some(symbol) = self.analysis.scoping.get_binding(scope, id.name.as_str().into())
        {
            self.store_binding(symbol, ctor, true)?;
        }
        // Static private methods and accessors go on the constructor now.
        for p in private.iter().filter(|p| p.is_static) {
            self.add_private_methods(p, ctor, key, func)?;
        }
        if has_instance_fields {
            self.instance_fields(class, proto, func, &private)?;
            self.emit(Instruction::SetClassFields { ctor: func, fields: field_keys });
            self.emit(Instruction::SetClassFields { ctor, fields: func });
        }
        self.static_elements(statics, ctor, key, func)?;
        self.emit(Instruction::Move { dst, src: ctor });
        self.leave_scope(pushed);
        self.release(mark);
        Ok(())
    }

    /// Defines the class's methods and accessors in element order
    /// (ClassDefinitionEvaluation steps 27–29), evaluating computed keys
    /// as it goes: instance-field keys are pushed to `field_keys`; static
    /// fields and blocks are returned, with their keys, to run once the
    /// class binding is initialised.
    fn class_elements(
        &mut self,
        class: &'a Class<'a>,
        private: &[PrivateName],
        objects: ClassObjects,
    ) -> CResult<Vec<(&'a ClassElement<'a>, Option<Reg>)>> {
        let ClassObjects { ctor, proto, key, func, field_keys } = objects;
        let mut statics: Vec<(&'a ClassElement<'a>, Option<Reg>)> = Vec::new();
        for element in &class.body.body {
            match element {
                ClassElement::MethodDefinition(m) if m.kind != MethodDefinitionKind::Constructor => {
                    if let PropertyKey::PrivateIdentifier(id) = &m.key {
                        let home = if m.r#static { ctor } else { proto };
                        self.private_method(m, id.name.as_str(), private, home, key, func)?;
                        continue;
                    }
                    let home = if m.r#static { ctor } else { proto };
                    self.property_key(&m.key, m.computed, key)?;
                    let text = self.method_text(m);
                    let code = self.compile_function_code(&m.value, Some(""), Some(CodeKind::Method), text)?;
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
                        if p.r#static {
                            statics.push((element, None));
                        }
                        continue;
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
                    return Err(CompileError::syntax("auto-accessors are not supported by this engine yet".to_owned()));
                }
                _ => {}
            }
        }
        Ok(statics)
    }

    /// Runs the static fields and blocks in order (step 31), each as a
    /// method of the constructor `ctor`.
    fn static_elements(
        &mut self,
        statics: Vec<(&'a ClassElement<'a>, Option<Reg>)>,
        ctor: Reg,
        key: Reg,
        func: Reg,
    ) -> CResult<()> {
        let args = self.temp()?;
        for (element, key_reg) in statics {
            match element {
                ClassElement::PropertyDefinition(p) => {
                    if let PropertyKey::PrivateIdentifier(id) = &p.key {
                        self.load_private_name(id.name.as_str(), key)?;
                    }
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
                            if name.is_none() && super::expression::is_anonymous_function(value) {
                                self.emit(Instruction::SetFunctionName { func, key, prefix: 0 });
                            }
                        }
                        None => {
                            self.emit(Instruction::LoadUndefined { dst: func });
                        }
                    }
                    if matches!(p.key, PropertyKey::PrivateIdentifier(_)) {
                        self.emit(Instruction::DefinePrivate { obj: ctor, key, src: func, method: false });
                    } else {
                        self.emit(Instruction::DefineField { obj: ctor, key, src: func });
                    }
                }
                ClassElement::StaticBlock(block) => {
                    let scope = block.scope_id.get();
                    let boundary = scope.unwrap_or(self.boundary);
                    let mut fc = self.child(boundary, CodeKind::Method, true, "");
                    fc.in_class_element = true;
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
        let mut fc = self.child(self.current_scope(), kind, true, name);
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
    fn instance_fields(&mut self, class: &'a Class<'a>, proto: Reg, dst: Reg, private: &[PrivateName]) -> CResult<()> {
        let boundary = class.scope_id.get().unwrap_or(self.boundary);
        let mut fc = self.child(boundary, CodeKind::Method, true, "");
        fc.in_class_element = true;
        fc.scope_stack.push(boundary);
        fc.reserve_registers(1);
        let key = fc.temp()?;
        let value = fc.temp()?;
        // Private methods and accessors are installed before any field.
        let scratch = fc.temp()?;
        for p in private.iter().filter(|p| !p.is_static) {
            fc.add_private_methods(p, THIS_REG, key, scratch)?;
        }
        let mut computed_index = 0;
        for element in &class.body.body {
            let ClassElement::PropertyDefinition(p) = element else { continue };
            if p.r#static {
                continue;
            }
            let private_key = matches!(p.key, PropertyKey::PrivateIdentifier(_));
            if let PropertyKey::PrivateIdentifier(id) = &p.key {
                fc.load_private_name(id.name.as_str(), key)?;
            } else if p.computed {
                fc.emit(Instruction::LoadFieldKey { dst: key, index: computed_index });
                computed_index += 1;
            } else {
                fc.property_key(&p.key, false, key)?;
            }
            match &p.value {
                Some(v) => {
                    let name = if p.computed { None } else { Self::static_key_name(&p.key) };
                    fc.expression_named(v, value, name.as_deref())?;
                    if name.is_none() && super::expression::is_anonymous_function(v) {
                        fc.emit(Instruction::SetFunctionName { func: value, key, prefix: 0 });
                    }
                }
                None => {
                    fc.emit(Instruction::LoadUndefined { dst: value });
                }
            }
            if private_key {
                fc.emit(Instruction::DefinePrivate { obj: THIS_REG, key, src: value, method: false });
            } else {
                fc.emit(Instruction::DefineField { obj: THIS_REG, key, src: value });
            }
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

    /// Compiles a private method or accessor and parks its closure in the
    /// class environment until it is installed.
    fn private_method(
        &mut self,
        m: &'a oxc_ast::ast::MethodDefinition<'a>,
        name: &str,
        private: &[PrivateName],
        home: Reg,
        key: Reg,
        func: Reg,
    ) -> CResult<()> {
        let Some(entry) = private.iter().find(|p| p.name == name) else {
            return Err(CompileError::syntax(format!("undeclared private name #{name}")));
        };
        let text = self.method_text(m);
        let code = self.compile_function_code(&m.value, Some(""), Some(CodeKind::Method), text)?;
        self.functions.push(code);
        let index = (self.functions.len() - 1) as u32;
        self.emit(Instruction::Closure { dst: func, index });
        self.emit(Instruction::SetHomeObject { func, home });
        self.load_private_name(name, key)?;
        let (prefix, slot) = match (&entry.kind, m.kind) {
            (PrivateKind::Accessor { get: Some(slot), .. }, MethodDefinitionKind::Get) => (1, *slot),
            (PrivateKind::Accessor { set: Some(slot), .. }, MethodDefinitionKind::Set) => (2, *slot),
            (PrivateKind::Method { slot }, _) => (0, *slot),
            _ => return Err(CompileError::syntax(format!("Identifier '#{name}' has already been declared"))),
        };
        self.emit(Instruction::SetFunctionName { func, key, prefix });
        let depth = self.env_depth(self.current_scope());
        self.emit(Instruction::SetEnv { src: func, depth, slot });
        Ok(())
    }

    /// Installs a private method or accessor pair on `target`.
    fn add_private_methods(&mut self, p: &PrivateName, target: Reg, key: Reg, scratch: Reg) -> CResult<()> {
        match p.kind {
            PrivateKind::Field => return Ok(()),
            PrivateKind::Method { slot } => {
                self.load_private_name(&p.name, key)?;
                self.emit(Instruction::GetEnv { dst: scratch, depth: 0, slot });
                self.emit(Instruction::DefinePrivate { obj: target, key, src: scratch, method: true });
            }
            PrivateKind::Accessor { get, set } => {
                self.load_private_name(&p.name, key)?;
                let mark = self.mark();
                let getter = self.temp()?;
                let setter = self.temp()?;
                for (slot, r) in [(get, getter), (set, setter)] {
                    match slot {
                        Some(slot) => {
                            self.emit(Instruction::GetEnv { dst: r, depth: 0, slot });
                        }
                        None => {
                            self.emit(Instruction::LoadUndefined { dst: r });
                        }
                    }
                }
                self.emit(Instruction::DefinePrivateAccessor { obj: target, key, getter, setter });
                self.release(mark);
            }
        }
        Ok(())
    }

    /// A function returning one static field's value.
    fn element_function(
        &mut self,
        e: &'a oxc_ast::ast::Expression<'a>,
        name: Option<&str>,
    ) -> CResult<js_gc::Gc<crate::bytecode::Code>> {
        let boundary = self.current_scope();
        let mut fc = self.child(boundary, CodeKind::Method, true, "");
        fc.in_class_element = true;
        fc.scope_stack.push(boundary);
        fc.reserve_registers(1);
        let value = fc.temp()?;
        fc.expression_named(e, value, name)?;
        fc.emit(Instruction::Return { src: value });
        let span = oxc_span::GetSpan::span(e);
        Ok(fc.finish(span.start, span.end))
    }

    /// The source range `Function.prototype.toString` gives for a class
    /// method: the MethodDefinition, which starts after a `static`
    /// (ClassElement : `static` MethodDefinition).
    fn method_text(&self, m: &oxc_ast::ast::MethodDefinition<'_>) -> oxc_span::Span {
        let mut span = m.span;
        if m.r#static {
            let text = &self.source.text;
            let after_static = (span.start as usize + "static".len()).min(span.end as usize);
            span.start = skip_trivia(text, after_static) as u32;
        }
        span
    }
}

/// The offset of the first token at or after `at`: whitespace, line
/// terminators and comments skipped.
fn skip_trivia(text: &str, mut at: usize) -> usize {
    loop {
        let Some(rest) = text.get(at..) else { return at };
        if rest.starts_with("/*") {
            at += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if rest.starts_with("//") {
            at += rest.find(['\n', '\r', '\u{2028}', '\u{2029}']).unwrap_or(rest.len());
        } else if let Some(c) = rest.chars().next()
            && (c.is_whitespace() || c == '\u{FEFF}')
        {
            at += c.len_utf8();
        } else {
            return at;
        }
    }
}
