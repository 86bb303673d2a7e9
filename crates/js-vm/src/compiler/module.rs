//! Module code (ECMA-262 §16.2.1.6 Source Text Module Records): parsing as
//! a module, the import and export entries (`ParseModule`), and two code
//! cells: the instantiation code `InitializeEnvironment` runs (hoisted
//! function declarations, `var`s set to `undefined`) and the body
//! `ExecuteModule` runs.
//!
//! Every binding of the module scope lives in the module environment (the
//! importers' import bindings and namespace objects read it there), plus
//! one slot for `*default*`. A body containing a top-level `await`
//! compiles as an async function body ([[HasTLA]]).

use std::rc::Rc;

use js_gc::Gc;
use oxc_allocator::Allocator;
use oxc_ast::ast::{
    BindingPattern, Declaration, ExportDefaultDeclaration, ExportDefaultDeclarationKind, ModuleExportName, Program,
    Statement,
};
use oxc_span::SourceType;
use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::SymbolFlags;

use super::scope::Analysis;
use super::{CResult, CompileError, FunctionCompiler, check_nesting};
use crate::bytecode::{Code, CodeKind, Instruction, Source};
use crate::vm::Vm;

/// A ModuleRequest Record: the specifier and the `type` import
/// attribute (other attributes are accepted and ignored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleRequest {
    /// `[[Specifier]]`.
    pub specifier: String,
    /// The value of the `type` attribute (`"json"` for JSON modules).
    pub module_type: Option<String>,
}

/// What an import entry imports (`[[ImportName]]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportName {
    /// A named export (`default` included).
    Name(String),
    /// The namespace object (`import * as ns`, `export * as ns from`).
    Namespace,
}

/// An ImportEntry Record: the request it comes from, what it imports and
/// the environment slot of the local binding.
#[derive(Clone, Debug)]
pub struct ImportEntry {
    /// Index into the module's requests.
    pub request: usize,
    /// The imported name.
    pub import_name: ImportName,
    /// The local binding's slot in the module environment.
    pub slot: u32,
}

/// An ExportEntry Record for a re-export (`[[IndirectExportEntries]]`).
#[derive(Clone, Debug)]
pub struct IndirectExport {
    /// The name other modules import.
    pub export_name: String,
    /// Index into the module's requests.
    pub request: usize,
    /// The name in the requested module, or its namespace.
    pub import_name: ImportName,
}

/// A module compiled from source text.
pub struct CompiledModule {
    /// `InitializeEnvironment`'s code: hoisted functions, `var`s.
    pub init: Gc<Code>,
    /// `ExecuteModule`'s code.
    pub body: Gc<Code>,
    /// Slots of the module environment.
    pub env_slots: u32,
    /// `[[HasTLA]]`: the body awaits at its top level.
    pub has_tla: bool,
    /// `[[RequestedModules]]`: in source order, without duplicates.
    pub requests: Vec<ModuleRequest>,
    /// `[[ImportEntries]]`.
    pub imports: Vec<ImportEntry>,
    /// `[[LocalExportEntries]]`: export name and binding slot.
    pub local_exports: Vec<(String, u32)>,
    /// `[[IndirectExportEntries]]`.
    pub indirect_exports: Vec<IndirectExport>,
    /// `[[StarExportEntries]]`: request indices.
    pub star_exports: Vec<usize>,
}

/// Compiles module source text (`ParseModule`).
pub fn compile_module(vm: &mut Vm, source: &Rc<Source>) -> CResult<CompiledModule> {
    check_nesting(&source.text)?;
    stacker::maybe_grow(super::COMPILE_RED_ZONE, super::COMPILE_STACK, || compile_on_big_stack(vm, source))
}

fn compile_on_big_stack(vm: &mut Vm, source: &Rc<Source>) -> CResult<CompiledModule> {
    let allocator = Allocator::default();
    let program = super::parse(&allocator, &source.text, SourceType::mjs())?;
    let mut analysis = Analysis::new(super::analyse(&program)?);
    let root = program.scope_id.get().unwrap_or(ScopeId::new(0));
    let default_slot = analysis.capture_module_scope(root);
    let mut entries = Entries::default();
    entries.collect(&analysis, root, &program, default_slot)?;

    let mut init = FunctionCompiler::new(vm, &analysis, source, root, CodeKind::Module, true, "");
    init.module_default_slot = Some(default_slot);
    init.compile_module_instantiation(&program)?;
    let init = init.finish(program.span.start, program.span.end);

    let mut body = FunctionCompiler::new(vm, &analysis, source, root, CodeKind::Module, true, "");
    body.module_default_slot = Some(default_slot);
    body.is_async = true;
    body.compile_module_body(&program)?;
    let has_tla = body.await_count > 0;
    if !has_tla {
        // No top-level await: a plain synchronous body.
        body.instructions[0] = Instruction::Nop;
        body.is_async = false;
    }
    let body = body.finish(program.span.start, program.span.end);
    Ok(CompiledModule {
        init,
        body,
        env_slots: analysis.env_slot_count(root),
        has_tla,
        requests: entries.requests,
        imports: entries.imports,
        local_exports: entries.local_exports,
        indirect_exports: entries.indirect_exports,
        star_exports: entries.star_exports,
    })
}

/// The text of a ModuleExportName.
fn export_name(name: &ModuleExportName<'_>) -> String {
    match name {
        ModuleExportName::IdentifierName(n) => n.name.as_str().to_owned(),
        ModuleExportName::IdentifierReference(r) => r.name.as_str().to_owned(),
        ModuleExportName::StringLiteral(s) => s.value.as_str().to_owned(),
    }
}

/// The bound names of a binding pattern (§8.2.1 BoundNames), in order.
fn bound_names<'a>(pattern: &'a BindingPattern<'a>, out: &mut Vec<&'a oxc_ast::ast::BindingIdentifier<'a>>) {
    match pattern {
        BindingPattern::BindingIdentifier(id) => out.push(id),
        BindingPattern::ObjectPattern(o) => {
            for p in &o.properties {
                bound_names(&p.value, out);
            }
            if let Some(rest) = &o.rest {
                bound_names(&rest.argument, out);
            }
        }
        BindingPattern::ArrayPattern(a) => {
            for p in a.elements.iter().flatten() {
                bound_names(p, out);
            }
            if let Some(rest) = &a.rest {
                bound_names(&rest.argument, out);
            }
        }
        BindingPattern::AssignmentPattern(a) => bound_names(&a.left, out),
    }
}

/// The module's entries while they are collected.
#[derive(Default)]
struct Entries {
    requests: Vec<ModuleRequest>,
    imports: Vec<ImportEntry>,
    local_exports: Vec<(String, u32)>,
    indirect_exports: Vec<IndirectExport>,
    star_exports: Vec<usize>,
}

impl Entries {
    fn request(&mut self, specifier: &str, with: Option<&oxc_ast::ast::WithClause<'_>>) -> CResult<usize> {
        let mut module_type = None;
        let mut keys: Vec<String> = Vec::new();
        for attribute in with.map(|w| &w.with_entries[..]).unwrap_or_default() {
            let key = match &attribute.key {
                oxc_ast::ast::ImportAttributeKey::Identifier(id) => id.name.as_str().to_owned(),
                oxc_ast::ast::ImportAttributeKey::StringLiteral(s) => s.value.as_str().to_owned(),
            };
            if keys.contains(&key) {
                return Err(CompileError::syntax(format!("Duplicate import attribute '{key}'")));
            }
            if key == "type" {
                module_type = Some(attribute.value.value.as_str().to_owned());
            }
            keys.push(key);
        }
        let request = ModuleRequest { specifier: specifier.to_owned(), module_type };
        if let Some(i) = self.requests.iter().position(|r| *r == request) {
            return Ok(i);
        }
        self.requests.push(request);
        Ok(self.requests.len() - 1)
    }

    fn collect<'a>(
        &mut self,
        analysis: &Analysis,
        root: ScopeId,
        program: &'a Program<'a>,
        default_slot: u32,
    ) -> CResult<()> {
        let slot_of = |symbol: Option<oxc_syntax::symbol::SymbolId>| -> CResult<u32> {
            symbol
                .and_then(|s| analysis.slot(s))
                .ok_or_else(|| CompileError::syntax("unresolved module binding".to_owned()))
        };
        // Local `export { x }` entries wait until every import is known.
        let mut local_specifiers: Vec<(String, String)> = Vec::new();
        for statement in &program.body {
            match statement {
                Statement::ImportDeclaration(d) => {
                    if d.phase.is_some() {
                        return Err(CompileError::syntax("import phases are not supported by this engine".to_owned()));
                    }
                    let request = self.request(d.source.value.as_str(), d.with_clause.as_deref())?;
                    for specifier in d.specifiers.iter().flatten() {
                        use oxc_ast::ast::ImportDeclarationSpecifier as S;
                        let (import_name, local) = match specifier {
                            S::ImportSpecifier(s) => (ImportName::Name(export_name(&s.imported)), &s.local),
                            S::ImportDefaultSpecifier(s) => (ImportName::Name("default".to_owned()), &s.local),
                            S::ImportNamespaceSpecifier(s) => (ImportName::Namespace, &s.local),
                        };
                        let slot = slot_of(local.symbol_id.get())?;
                        self.imports.push(ImportEntry { request, import_name, slot });
                    }
                }
                Statement::ExportNamedDeclaration(d) => {
                    for s in &d.specifiers {
                        local_specifiers.push((export_name(&s.local), export_name(&s.exported)));
                    }
                }
                Statement::ExportFromDeclaration(d) => {
                    let request = self.request(d.source.value.as_str(), d.with_clause.as_deref())?;
                    for s in &d.specifiers {
                        self.indirect_exports.push(IndirectExport {
                            export_name: export_name(&s.exported),
                            request,
                            import_name: ImportName::Name(export_name(&s.local)),
                        });
                    }
                }
                Statement::ExportAllDeclaration(d) => {
                    let request = self.request(d.source.value.as_str(), d.with_clause.as_deref())?;
                    match &d.exported {
                        Some(name) => self.indirect_exports.push(IndirectExport {
                            export_name: export_name(name),
                            request,
                            import_name: ImportName::Namespace,
                        }),
                        None => self.star_exports.push(request),
                    }
                }
                Statement::ExportDeclaration(d) => {
                    let mut ids = Vec::new();
                    match &d.declaration {
                        Declaration::VariableDeclaration(v) => {
                            for declarator in &v.declarations {
                                bound_names(&declarator.id, &mut ids);
                            }
                        }
                        Declaration::FunctionDeclaration(f) => ids.extend(f.id.as_ref()),
                        Declaration::ClassDeclaration(c) => ids.extend(c.id.as_ref()),
                        _ => return Err(CompileError::syntax("Unexpected token".to_owned())),
                    }
                    for id in ids {
                        let slot = slot_of(id.symbol_id.get())?;
                        self.local_exports.push((id.name.as_str().to_owned(), slot));
                    }
                }
                Statement::ExportDefaultDeclaration(d) => {
                    let id = match &d.declaration {
                        ExportDefaultDeclarationKind::FunctionDeclaration(f) => f.id.as_ref(),
                        ExportDefaultDeclarationKind::ClassDeclaration(c) => c.id.as_ref(),
                        _ => None,
                    };
                    let slot = match id {
                        Some(id) => slot_of(id.symbol_id.get())?,
                        None => default_slot,
                    };
                    self.local_exports.push(("default".to_owned(), slot));
                }
                _ => {}
            }
        }
        self.add_local_specifiers(analysis, root, local_specifiers)
    }

    /// `export { x as y }` entries (ParseModule step 10.a): an imported
    /// `x` is re-exported from its module (a namespace import as the
    /// namespace), anything else is a local export.
    fn add_local_specifiers(
        &mut self,
        analysis: &Analysis,
        root: ScopeId,
        local_specifiers: Vec<(String, String)>,
    ) -> CResult<()> {
        for (local, exported) in local_specifiers {
            let symbol = analysis.scoping.get_binding(root, local.as_str().into());
            let Some(symbol) = symbol else {
                return Err(CompileError::syntax(format!("Export '{local}' is not defined in module")));
            };
            let slot =
                analysis.slot(symbol).ok_or_else(|| CompileError::syntax("unresolved module binding".to_owned()))?;
            if analysis.scoping.symbol_flags(symbol).contains(SymbolFlags::Import)
                && let Some(import) = self.imports.iter().find(|i| i.slot == slot)
            {
                let entry = IndirectExport {
                    export_name: exported,
                    request: import.request,
                    import_name: import.import_name.clone(),
                };
                self.indirect_exports.push(entry);
            } else {
                self.local_exports.push((exported, slot));
            }
        }
        Ok(())
    }
}

impl<'a> FunctionCompiler<'_, 'a> {
    /// The code `InitializeEnvironment` runs (§16.2.1.6.4 steps 21–26):
    /// `var`s become `undefined` and function declarations are
    /// instantiated, so modules in a cycle can call them before this one
    /// runs.
    fn compile_module_instantiation(&mut self, program: &'a Program<'a>) -> CResult<()> {
        self.scope_stack.push(self.boundary);
        self.allocate_bindings()?;
        self.init_function_scope_vars()?;
        self.hoist_functions(&program.body)?;
        for statement in &program.body {
            let function = match statement {
                Statement::ExportDeclaration(d) => match &d.declaration {
                    Declaration::FunctionDeclaration(f) => f,
                    _ => continue,
                },
                Statement::ExportDefaultDeclaration(d) => match &d.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => f,
                    _ => continue,
                },
                _ => continue,
            };
            let mark = self.mark();
            let r = self.temp()?;
            if let Some(id) = function.id.as_ref() {
                self.compile_function_expression(function, r, Some(id.name.as_str()))?;
                if let Some(symbol) = id.symbol_id.get() {
                    self.store_binding(symbol, r, true)?;
                }
            } else {
                // `export default function () {}` is named "default".
                self.compile_function_expression(function, r, Some("default"))?;
                self.store_default(r);
            }
            self.release(mark);
        }
        let r = self.temp()?;
        self.emit(Instruction::LoadUndefined { dst: r });
        self.emit(Instruction::Return { src: r });
        Ok(())
    }

    /// The module body: an async function body whose `AsyncStart` is
    /// dropped again when no top-level `await` appears.
    fn compile_module_body(&mut self, program: &'a Program<'a>) -> CResult<()> {
        self.emit(Instruction::AsyncStart);
        self.scope_stack.push(self.boundary);
        self.allocate_bindings()?;
        self.statement_list(&program.body)?;
        let r = self.temp()?;
        self.emit(Instruction::LoadUndefined { dst: r });
        self.emit(Instruction::Return { src: r });
        Ok(())
    }

    /// Initialises `*default*` with `src`.
    fn store_default(&mut self, src: crate::bytecode::Reg) {
        if let (Some(slot), Some(root)) = (self.module_default_slot, self.analysis.module_scope) {
            let depth = self.env_depth(root);
            self.emit(Instruction::SetEnv { src, depth, slot });
        }
    }

    /// `export` of a declaration: the declaration itself (functions were
    /// instantiated with the module environment).
    pub(super) fn export_declaration(&mut self, declaration: &'a Declaration<'a>) -> CResult<()> {
        match declaration {
            Declaration::VariableDeclaration(decl) => self.variable_declaration(decl),
            Declaration::FunctionDeclaration(_) => Ok(()),
            Declaration::ClassDeclaration(class) => {
                let mark = self.mark();
                let r = self.temp()?;
                self.class(class, r, None)?;
                if let Some(symbol) = class.id.as_ref().and_then(|id| id.symbol_id.get()) {
                    self.store_binding(symbol, r, true)?;
                }
                self.release(mark);
                Ok(())
            }
            _ => Err(CompileError::syntax("Unexpected token".to_owned())),
        }
    }

    /// `export default …` (§16.2.3.7): classes and expressions initialise
    /// their binding here; anonymous ones are named "default".
    pub(super) fn export_default(&mut self, export: &'a ExportDefaultDeclaration<'a>) -> CResult<()> {
        let mark = self.mark();
        let r = self.temp()?;
        match &export.declaration {
            ExportDefaultDeclarationKind::FunctionDeclaration(_) => {}
            ExportDefaultDeclarationKind::ClassDeclaration(class) => {
                self.class(class, r, Some("default"))?;
                match class.id.as_ref().and_then(|id| id.symbol_id.get()) {
                    Some(symbol) => self.store_binding(symbol, r, true)?,
                    None => self.store_default(r),
                }
            }
            ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => {
                return Err(CompileError::syntax("Unexpected token".to_owned()));
            }
            kind => {
                let Some(expression) = kind.as_expression() else {
                    return Err(CompileError::syntax("Unexpected token".to_owned()));
                };
                self.expression_named(expression, r, Some("default"))?;
                self.store_default(r);
            }
        }
        self.release(mark);
        Ok(())
    }
}
