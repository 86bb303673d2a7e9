//! Declaration instantiation rules the scope tree does not give by itself.
//!
//! * Annex B.3.2 (web legacy block-level functions): in sloppy code a plain
//!   `function f` directly in a block, a `case`/`default` clause or (B.3.4)
//!   an `if` branch also gets a `var f` binding in the enclosing function,
//!   script or eval code, initialised to undefined at entry; when the
//!   declaration is evaluated, the block's function is copied to it. It is
//!   skipped when a `var f` there would be an early error (a lexical `f` in
//!   a scope in between or at the top, a parameter `f`) and, for scripts and
//!   eval code, when the global or the eval caller's environments forbid it
//!   (B.3.2.2, B.3.2.3).
//!
//!   oxc resolves such a function to one symbol moved to the var scope, so
//!   the block binding and the var binding are the same. [`annex_b`]
//!   rewrites the scope tree: the block gets its own symbol (the block's
//!   references use it), the var scope keeps (or loses, when skipped) the
//!   var symbol.
//! * EvalDeclarationInstantiation's conflict rule (§19.2.1.3 step 3): a
//!   `var` of sloppy eval code may not hoist over a lexical declaration of
//!   its caller; [`eval_var_conflict`] finds it from the caller's
//!   [`EvalScope`].

use ahash::{AHashMap as HashMap, AHashSet as HashSet};

use oxc_ast::AstKind;
use oxc_ast::ast::{BindingPattern, FormalParameters, Function};
use oxc_semantic::Semantic;
use oxc_syntax::reference::ReferenceId;
use oxc_syntax::scope::{ScopeFlags, ScopeId};
use oxc_syntax::symbol::{SymbolFlags, SymbolId};

use crate::bytecode::EvalScope;
use crate::vm::Vm;

/// One Annex B function declaration, as the compiler evaluates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnnexBFunction {
    /// The block's own binding of the function (`None` for a declaration
    /// that is an `if` branch: its block exists only for the declaration).
    pub block_binding: Option<SymbolId>,
    /// The var binding the function is copied to when the declaration is
    /// evaluated (`None` when the extension is skipped).
    pub var_binding: Option<SymbolId>,
}

/// The Annex B facts of one program.
#[derive(Debug, Default)]
pub struct AnnexBFunctions {
    /// By the declaration's start offset.
    by_start: HashMap<u32, AnnexBFunction>,
    /// References that resolved to a var binding the extension did not
    /// create: they are free (resolved by name at run time).
    unresolved: HashSet<ReferenceId>,
    /// `if`-branch functions (by start offset) whose own body refers to
    /// them through their (mutable) block binding, made a binding of the
    /// function's own scope initialised to the function on entry.
    self_bindings: HashMap<u32, SymbolId>,
}

impl AnnexBFunctions {
    /// The Annex B treatment of the function declaration starting at `start`.
    pub fn at(&self, start: u32) -> Option<AnnexBFunction> {
        self.by_start.get(&start).copied()
    }

    /// The block binding an `if`-branch function starting at `start` has
    /// inside its own scope.
    pub fn self_binding(&self, start: u32) -> Option<SymbolId> {
        self.self_bindings.get(&start).copied()
    }

    /// Whether `reference` is free although oxc resolved it.
    pub fn is_unresolved(&self, reference: ReferenceId) -> bool {
        !self.unresolved.is_empty() && self.unresolved.contains(&reference)
    }
}

/// The kind of code being compiled, for the parts of Annex B that look
/// outside it.
#[derive(Clone, Copy)]
pub enum CodeContext<'x> {
    /// A script: its var scope is the global object (B.3.2.2).
    Script,
    /// Eval code (B.3.2.3): `outer` is the caller's scope table for a direct
    /// eval, `None` for an indirect one (whose var scope is global).
    Eval {
        /// The direct eval caller's visible bindings.
        outer: Option<&'x EvalScope>,
    },
}

/// How a name is declared in a scope, for the "would not produce an early
/// error" test.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Declared {
    /// `let`, `const`, `class`, a block-level function, a destructured
    /// catch parameter: a `var` of the same name is an early error.
    Lexical,
    /// A catch parameter that is a plain identifier: a `var` may redeclare
    /// it (B.3.5).
    SimpleCatch,
}

/// A candidate declaration found in the tree.
struct Candidate<'a> {
    function: &'a Function<'a>,
    name: String,
    /// The block (or switch) scope, `None` for an `if` branch.
    block: Option<ScopeId>,
    /// The innermost scope around the declaration's block.
    start: ScopeId,
    /// The var scope.
    var_scope: ScopeId,
}

/// Applies Annex B.3.2 to a sloppy program's scope tree (see the module
/// docs) and returns what the compiler needs to evaluate the declarations.
pub fn annex_b(vm: &mut Vm, semantic: &mut Semantic<'_>, context: CodeContext<'_>) -> AnnexBFunctions {
    let mut out = AnnexBFunctions::default();
    let (candidates, declared, parameters) = collect(semantic);
    let mut block_symbols: HashMap<(ScopeId, String), SymbolId> = HashMap::new();
    for candidate in &candidates {
        let applies = applies(vm, semantic, context, candidate, &declared, &parameters);
        let entry = match candidate.block {
            Some(block) => rewrite_block_function(semantic, candidate, block, applies, &mut block_symbols, &mut out),
            None => rewrite_if_function(semantic, candidate, applies, &mut out),
        };
        out.by_start.insert(candidate.function.span.start, entry);
    }
    out
}

type Declarations = HashMap<ScopeId, Vec<(String, Declared)>>;

/// The candidates, the names each scope declares lexically, and each
/// function scope's parameter names.
fn collect<'a>(semantic: &Semantic<'a>) -> (Vec<Candidate<'a>>, Declarations, HashMap<ScopeId, Vec<String>>) {
    let scoping = semantic.scoping();
    let nodes = semantic.nodes();
    let mut declared: Declarations = HashMap::new();
    for symbol in scoping.symbol_ids() {
        let flags = scoping.symbol_flags(symbol);
        if flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::ConstVariable | SymbolFlags::Class) {
            declared
                .entry(scoping.symbol_scope_id(symbol))
                .or_default()
                .push((scoping.symbol_name(symbol).to_owned(), Declared::Lexical));
        }
    }
    let mut candidates = Vec::new();
    let mut parameters: HashMap<ScopeId, Vec<String>> = HashMap::new();
    for node in nodes.iter() {
        match node.kind() {
            AstKind::CatchClause(clause) => {
                let (Some(param), Some(scope)) = (&clause.param, clause.scope_id.get()) else { continue };
                let kind = if matches!(param.pattern, BindingPattern::BindingIdentifier(_)) {
                    Declared::SimpleCatch
                } else {
                    Declared::Lexical
                };
                for id in param.pattern.get_binding_identifiers() {
                    declared.entry(scope).or_default().push((id.name.as_str().to_owned(), kind));
                }
            }
            AstKind::Function(f) => {
                if let Some(scope) = f.scope_id.get() {
                    parameters.insert(scope, parameter_names(&f.params));
                }
                if !f.is_declaration() {
                    continue;
                }
                let Some(id) = &f.id else { continue };
                let block = match nodes.parent_kind(node.id()) {
                    AstKind::BlockStatement(b) => b.scope_id.get(),
                    AstKind::SwitchCase(_) => match nodes.parent_kind(nodes.parent_id(node.id())) {
                        AstKind::SwitchStatement(s) => s.scope_id.get(),
                        _ => continue,
                    },
                    AstKind::IfStatement(_) => None,
                    _ => continue,
                };
                let start = node.scope_id();
                let name = id.name.as_str().to_owned();
                if let Some(block) = block {
                    // A block-level function is lexical in its block, in
                    // strict code too.
                    declared.entry(block).or_default().push((name.clone(), Declared::Lexical));
                }
                if scoping.scope_flags(start).is_strict_mode() || f.r#async || f.generator {
                    continue;
                }
                let around = match block {
                    Some(b) if b == start => scoping.scope_parent_id(b).unwrap_or(b),
                    _ => start,
                };
                let var_scope =
                    scoping.scope_ancestors(around).find(|&s| scoping.scope_flags(s).is_var()).unwrap_or(around);
                candidates.push(Candidate { function: f, name, block, start: around, var_scope });
            }
            AstKind::ArrowFunctionExpression(f) => {
                if let Some(scope) = f.scope_id.get() {
                    parameters.insert(scope, parameter_names(&f.params));
                }
            }
            _ => {}
        }
    }
    (candidates, declared, parameters)
}

pub fn parameter_names(params: &FormalParameters<'_>) -> Vec<String> {
    let mut names: Vec<String> = params
        .items
        .iter()
        .flat_map(|p| p.pattern.get_binding_identifiers())
        .map(|id| id.name.as_str().to_owned())
        .collect();
    if let Some(rest) = &params.rest {
        names.extend(rest.rest.argument.get_binding_identifiers().into_iter().map(|id| id.name.as_str().to_owned()));
    }
    names
}

/// Whether the extension applies to `candidate` (B.3.2.1 step ii, B.3.2.2
/// step ii, B.3.2.3 step ii).
fn applies(
    vm: &mut Vm,
    semantic: &Semantic<'_>,
    context: CodeContext<'_>,
    candidate: &Candidate<'_>,
    declared: &Declarations,
    parameters: &HashMap<ScopeId, Vec<String>>,
) -> bool {
    let scoping = semantic.scoping();
    let name = candidate.name.as_str();
    let lexical_in = |scope: ScopeId| {
        declared.get(&scope).is_some_and(|names| names.iter().any(|(n, k)| n == name && *k == Declared::Lexical))
    };
    // A `var` here would be an early error: a lexical declaration between
    // the block and the var scope, or at its top.
    for scope in scoping.scope_ancestors(candidate.start) {
        if lexical_in(scope) {
            return false;
        }
        if scope == candidate.var_scope {
            break;
        }
    }
    let var_flags = scoping.scope_flags(candidate.var_scope);
    if var_flags.contains(ScopeFlags::Function) {
        // Function code: parameters (and `arguments`, a parameter name
        // when the arguments object is needed) are not replaced.
        return name != "arguments"
            && !parameters.get(&candidate.var_scope).is_some_and(|names| names.iter().any(|n| n == name));
    }
    if !var_flags.contains(ScopeFlags::Top) {
        return false;
    }
    match context {
        CodeContext::Eval { outer: Some(outer) } => {
            if outer.binds_between(name) {
                return false;
            }
            !outer.var_env_global || global_var_definable(vm, name)
        }
        CodeContext::Script | CodeContext::Eval { outer: None } => global_var_definable(vm, name),
    }
}

/// `HasLexicalDeclaration` is false and `CanDeclareGlobalVar` is true.
fn global_var_definable(vm: &mut Vm, name: &str) -> bool {
    !crate::builtins::global::has_lexical_declaration(vm, name)
        && crate::builtins::global::can_declare_global_var(vm, name)
}

/// A declaration directly in a block or `case` clause.
fn rewrite_block_function(
    semantic: &mut Semantic<'_>,
    candidate: &Candidate<'_>,
    block: ScopeId,
    applies: bool,
    block_symbols: &mut HashMap<(ScopeId, String), SymbolId>,
    out: &mut AnnexBFunctions,
) -> AnnexBFunction {
    let Some(id) = &candidate.function.id else { return AnnexBFunction { block_binding: None, var_binding: None } };
    let Some(symbol) = id.symbol_id.get() else { return AnnexBFunction { block_binding: None, var_binding: None } };
    let (scoping, nodes) = semantic.scoping_mut_and_nodes();
    if scoping.symbol_scope_id(symbol) == block {
        // oxc left it in the block (the var scope already had the name):
        // the var binding is that one.
        let var_binding = if applies { var_binding_of(scoping, candidate.var_scope, id) } else { None };
        return AnnexBFunction { block_binding: Some(symbol), var_binding };
    }
    // oxc moved the block's function to the var scope: give the block its
    // own symbol and the block's references to it.
    let key = (block, candidate.name.clone());
    let block_symbol = if let Some(&s) = block_symbols.get(&key) {
        s
    } else {
        let node = scoping.symbol_declaration(symbol);
        let s = scoping.create_symbol(id.span, id.name, SymbolFlags::Function, block, node);
        scoping.add_binding(block, id.name, s);
        let references: Vec<ReferenceId> = scoping.get_resolved_reference_ids(symbol).to_vec();
        for r in references {
            let at = scoping.get_reference(r).scope_id();
            if at == block || scoping.scope_is_descendant_of(at, block) {
                scoping.delete_resolved_reference(symbol, r);
                scoping.get_reference_mut(r).set_symbol_id(s);
                scoping.add_resolved_reference(s, r);
            }
        }
        block_symbols.insert(key, s);
        s
    };
    id.symbol_id.set(Some(block_symbol));
    if applies {
        scoping.union_symbol_flag(symbol, SymbolFlags::FunctionScopedVariable);
        return AnnexBFunction { block_binding: Some(block_symbol), var_binding: Some(symbol) };
    }
    // Skipped: the var symbol goes away unless other declarations outside
    // the block share it.
    let shared = scoping.symbol_declarations(symbol).any(|n| {
        let at = nodes.get_node(n).scope_id();
        at != block && !scoping.scope_is_descendant_of(at, block)
    });
    if !shared {
        unbind(scoping, symbol, candidate.var_scope, id, out);
    }
    AnnexBFunction { block_binding: Some(block_symbol), var_binding: None }
}

/// A declaration that is an `if` branch (B.3.4): oxc bound it in the scope
/// around the `if`, possibly sharing a symbol with a like-named binding.
fn rewrite_if_function(
    semantic: &mut Semantic<'_>,
    candidate: &Candidate<'_>,
    applies: bool,
    out: &mut AnnexBFunctions,
) -> AnnexBFunction {
    let none = AnnexBFunction { block_binding: None, var_binding: None };
    let Some(id) = &candidate.function.id else { return none };
    let Some(symbol) = id.symbol_id.get() else { return none };
    let (scoping, nodes) = semantic.scoping_mut_and_nodes();
    let home = scoping.symbol_scope_id(symbol);
    let only_this = scoping.symbol_redeclarations(symbol).is_empty()
        && matches!(nodes.kind(scoping.symbol_declaration(symbol)), AstKind::Function(f) if f.span == candidate.function.span);
    if applies {
        if home == candidate.var_scope {
            scoping.union_symbol_flag(symbol, SymbolFlags::FunctionScopedVariable);
            add_self_binding(scoping, candidate.function, id, symbol, out);
            return AnnexBFunction { block_binding: None, var_binding: Some(symbol) };
        }
        // Bound in a block around the `if` (the var scope had the name):
        // that block does not declare it; its references go to the var.
        let Some(var) = var_binding_of(scoping, candidate.var_scope, id) else { return none };
        if !only_this {
            return none;
        }
        scoping.remove_binding(home, id.name);
        let references: Vec<ReferenceId> = scoping.get_resolved_reference_ids(symbol).to_vec();
        for r in references {
            scoping.delete_resolved_reference(symbol, r);
            scoping.get_reference_mut(r).set_symbol_id(var);
            scoping.add_resolved_reference(var, r);
        }
        id.symbol_id.set(Some(var));
        add_self_binding(scoping, candidate.function, id, var, out);
        return AnnexBFunction { block_binding: None, var_binding: Some(var) };
    }
    if only_this {
        unbind(scoping, symbol, home, id, out);
        return none;
    }
    // oxc moves the binding an `if`-branch function shares (a `let` of the
    // enclosing block, a catch parameter) to the var scope: put it back.
    let declared_in = nodes.get_node(scoping.symbol_declaration(symbol)).scope_id();
    if declared_in != home && !scoping.symbol_flags(symbol).contains(SymbolFlags::FunctionScopedVariable) {
        scoping.move_binding_by_symbol_id(home, declared_in, symbol);
        let outside: Vec<ReferenceId> = scoping
            .get_resolved_reference_ids(symbol)
            .iter()
            .copied()
            .filter(|&r| {
                let at = scoping.get_reference(r).scope_id();
                at != declared_in && !scoping.scope_is_descendant_of(at, declared_in)
            })
            .collect();
        let outer = scoping.find_binding(home, id.name);
        for r in outside {
            scoping.delete_resolved_reference(symbol, r);
            if let Some(target) = outer {
                scoping.get_reference_mut(r).set_symbol_id(target);
                scoping.add_resolved_reference(target, r);
            } else {
                scoping.add_root_unresolved_reference(id.name, r);
                out.unresolved.insert(r);
            }
        }
    }
    none
}

/// Gives an `if`-branch function its block binding where its own body
/// sees it: a binding of its own scope (unless a parameter or declaration
/// there has the name), which its references inside take from `var`.
fn add_self_binding(
    scoping: &mut oxc_semantic::Scoping,
    function: &Function<'_>,
    id: &oxc_ast::ast::BindingIdentifier<'_>,
    var: SymbolId,
    out: &mut AnnexBFunctions,
) {
    let Some(own) = function.scope_id.get() else { return };
    if scoping.get_binding(own, id.name).is_some() {
        return;
    }
    let node = scoping.symbol_declaration(var);
    let binding = scoping.create_symbol(id.span, id.name, SymbolFlags::Function, own, node);
    scoping.add_binding(own, id.name, binding);
    let inside: Vec<ReferenceId> = scoping
        .get_resolved_reference_ids(var)
        .iter()
        .copied()
        .filter(|&r| {
            let at = scoping.get_reference(r).scope_id();
            at == own || scoping.scope_is_descendant_of(at, own)
        })
        .collect();
    for r in inside {
        scoping.delete_resolved_reference(var, r);
        scoping.get_reference_mut(r).set_symbol_id(binding);
        scoping.add_resolved_reference(binding, r);
    }
    out.self_bindings.insert(function.span.start, binding);
}

/// The var scope's binding named like `id` (a named function expression's
/// own name is not one: it lives outside the var scope in the spec).
fn var_binding_of(
    scoping: &oxc_semantic::Scoping,
    var_scope: ScopeId,
    id: &oxc_ast::ast::BindingIdentifier<'_>,
) -> Option<SymbolId> {
    scoping
        .get_binding(var_scope, id.name)
        .filter(|&s| !scoping.symbol_flags(s).contains(SymbolFlags::FunctionExpression))
}

/// Removes `symbol`'s binding from `scope`: its references resolve to a
/// like-named binding further out, or are free.
fn unbind(
    scoping: &mut oxc_semantic::Scoping,
    symbol: SymbolId,
    scope: ScopeId,
    id: &oxc_ast::ast::BindingIdentifier<'_>,
    out: &mut AnnexBFunctions,
) {
    let name = id.name;
    scoping.remove_binding(scope, name);
    let outer = scoping.scope_parent_id(scope).and_then(|p| scoping.find_binding(p, name));
    let references: Vec<ReferenceId> = scoping.get_resolved_reference_ids(symbol).to_vec();
    for r in references {
        scoping.delete_resolved_reference(symbol, r);
        if let Some(target) = outer {
            scoping.get_reference_mut(r).set_symbol_id(target);
            scoping.add_resolved_reference(target, r);
        } else {
            scoping.add_root_unresolved_reference(name, r);
            out.unresolved.insert(r);
        }
    }
}

/// The SyntaxError EvalDeclarationInstantiation throws when a `var` (or
/// function) `name` of sloppy eval code would hoist over a lexical
/// declaration of the caller (step 3), or shadow a global lexical binding
/// when the var scope is global.
pub fn eval_var_conflict(vm: &mut Vm, outer: Option<&EvalScope>, name: &str) -> Option<super::CompileError> {
    let conflict = match outer {
        Some(outer) if outer.conflicts.iter().any(|n| n == name) => true,
        Some(outer) if !outer.var_env_global => false,
        _ => crate::builtins::global::has_lexical_declaration(vm, name),
    };
    conflict.then(|| super::CompileError::syntax(format!("Identifier '{name}' has already been declared")))
}

impl<'a> super::FunctionCompiler<'_, 'a> {
    /// Evaluating a function declaration: nothing (it was hoisted), except
    /// for an Annex B one, whose block binding's value goes to its var
    /// binding (B.3.2.1 step ii.3), or, for an `if` branch, a new closure.
    pub(super) fn annex_b_function_evaluation(&mut self, f: &'a Function<'a>) -> super::CResult<()> {
        let Some(AnnexBFunction { block_binding, var_binding: Some(var) }) = self.analysis.annex_b.at(f.span.start)
        else {
            return Ok(());
        };
        let mark = self.mark();
        let r = self.temp()?;
        if let Some(block) = block_binding {
            self.load_binding(block, r, true)?;
        } else {
            let name = f.id.as_ref().map(|id| id.name.as_str());
            self.compile_function_expression(f, r, name)?;
        }
        self.store_binding(var, r, true)?;
        self.release(mark);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::vm::Vm;

    /// Runs `source` as a script and returns its completion value as text
    /// (an uncaught error: its name).
    fn run(vm: &mut Vm, source: &str) -> String {
        match vm.eval_script("test.js", source) {
            Ok(value) => value.to_rust_string(vm).unwrap_or_default(),
            Err(_) => "uncaught".to_owned(),
        }
    }

    fn error_name(source: &str) -> String {
        let mut vm = Vm::new();
        run(&mut vm, &format!("try {{ {source}; 'no error' }} catch (e) {{ e.name }}"))
    }

    #[test]
    fn eval_in_parameters_may_not_declare_arguments() {
        // The current spec (node 20 still accepts these): a `var` of eval
        // code in a parameter expression may not redeclare a parameter or
        // the implicit `arguments`.
        assert_eq!(error_name("(function (p = eval('var arguments')) {})()"), "SyntaxError");
        assert_eq!(error_name("((p = eval('var q'), q) => {})()"), "SyntaxError");
        assert_eq!(error_name("(function (p = eval('var other')) {})()"), "no error");
    }

    #[test]
    fn eval_vars_may_not_hoist_over_lexical_declarations() {
        assert_eq!(error_name("(function () { let x; eval('var x'); })()"), "SyntaxError");
        assert_eq!(error_name("(function () { { const x = 1; eval('function x() {}'); } })()"), "SyntaxError");
        assert_eq!(error_name("(function () { try { throw 0 } catch (x) { eval('var x'); } })()"), "no error");
        assert_eq!(error_name("(function () { let x; { eval('let x; var y'); } })()"), "no error");
    }

    #[test]
    fn global_declarations_check_earlier_scripts() {
        let mut vm = Vm::new();
        run(&mut vm, "var declared; function fixed() {}");
        assert_eq!(run(&mut vm, "try { (0, eval)('let declared'); 'no error' } catch (e) { e.name }"), "no error");
        assert!(vm.eval_script("second.js", "let declared;").is_err(), "a script's var is restricted");
        run(&mut vm, "Object.defineProperty(globalThis, 'locked', { value: 1, writable: false })");
        assert!(vm.eval_script("third.js", "function locked() {}").is_err(), "cannot redefine");
        assert_eq!(run(&mut vm, "eval('var deletable'); delete globalThis.deletable"), "true");
    }

    #[test]
    fn block_functions_in_eval_code_see_the_callers_bindings() {
        let mut vm = Vm::new();
        // A lexical binding of the caller between the call and its
        // variable environment stops the var binding (B.3.2.3).
        let skipped = "(function () { let f = 'let'; { eval('{ function f() {} }'); } return typeof f; })()";
        assert_eq!(run(&mut vm, skipped), "string");
        let made = "(function () { eval('{ function g() { return 1; } }'); return typeof g; })()";
        assert_eq!(run(&mut vm, made), "function");
        assert_eq!(run(&mut vm, "typeof g"), "undefined");
    }
}
