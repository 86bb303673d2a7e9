//! Bindings that `oxc_semantic` merges into one symbol but the spec keeps
//! apart, split before the compiler assigns locations:
//!
//! * A class's own name inside its body (§15.7.14 ClassDefinitionEvaluation
//!   step 4.a: `CreateImmutableBinding(className, true)` in the class
//!   scope). oxc binds a class declaration's name only in the enclosing
//!   scope, so `class C { m() { C = 1 } }` would assign the outer binding;
//!   the body gets its own immutable symbol. A class expression's name is
//!   already bound in the class scope and is only made immutable.
//! * A catch parameter redeclared by `var` in its block (B.3.4
//!   VariableStatements in Catch Blocks): oxc hoists the parameter's symbol
//!   to the function scope, making the parameter and the function's `var`
//!   one binding. The initialiser of such a `var` assigns the parameter,
//!   while the function-level `var` is a separate binding that stays
//!   `undefined`.
//! * Catch parameters in general: oxc moves their bindings into the catch
//!   body's scope, but closures in the parameter's defaults are made in
//!   the catch clause's scope, before the body's exists (§14.15.2); they
//!   are moved back so the clause's scope holds them.
//! * `arguments` inside a nested non-arrow function: oxc resolves it to an
//!   outer binding named `arguments`, but every such function has its own
//!   implicit `arguments` (§10.2.11 step 22), so the reference is made
//!   unresolved again (the compiler's implicit-`arguments` path).

use oxc_ast::AstKind;
use oxc_ast::ast::{BindingIdentifier, BindingPattern, VariableDeclarationKind};
use oxc_semantic::{Scoping, Semantic};
use oxc_span::Span;
use oxc_syntax::node::NodeId;
use oxc_syntax::reference::Reference;
use oxc_syntax::scope::{ScopeFlags, ScopeId};
use oxc_syntax::symbol::{SymbolFlags, SymbolId};

/// What to split, found in the AST before the scope tree is taken over.
pub(super) struct SplitPlan<'a> {
    /// Class declarations with a name: (outer symbol, class scope, node).
    class_declarations: Vec<(SymbolId, ScopeId, NodeId)>,
    /// Class expressions' name symbols (already in the class scope).
    class_expressions: Vec<SymbolId>,
    /// Identifier catch parameters: (symbol, catch scope, node).
    catch_parameters: Vec<(SymbolId, ScopeId, NodeId)>,
    /// Catch clauses with a parameter: (clause scope, body scope).
    catch_scopes: Vec<(ScopeId, ScopeId)>,
    /// `var` declarators' identifiers with the scope they appear in: those
    /// outside a catch clause whose parameter they redeclare are rebound
    /// to the function's own `var`.
    var_identifiers: Vec<(&'a BindingIdentifier<'a>, ScopeId)>,
}

impl<'a> SplitPlan<'a> {
    /// Collects the bindings to split from the AST.
    pub(super) fn new(semantic: &Semantic<'a>) -> Self {
        let mut plan = Self {
            class_declarations: Vec::new(),
            class_expressions: Vec::new(),
            catch_parameters: Vec::new(),
            catch_scopes: Vec::new(),
            var_identifiers: Vec::new(),
        };
        for node in semantic.nodes().iter() {
            match node.kind() {
                AstKind::Class(class) => {
                    let (Some(symbol), Some(scope)) =
                        (class.id.as_ref().and_then(|id| id.symbol_id.get()), class.scope_id.get())
                    else {
                        continue;
                    };
                    if class.is_declaration() {
                        plan.class_declarations.push((symbol, scope, node.id()));
                    } else {
                        plan.class_expressions.push(symbol);
                    }
                }
                AstKind::CatchClause(clause) => {
                    if clause.param.is_some()
                        && let (Some(scope), Some(body)) = (clause.scope_id.get(), clause.body.scope_id.get())
                        && scope != body
                    {
                        plan.catch_scopes.push((scope, body));
                    }
                    if let Some(param) = &clause.param
                        && let BindingPattern::BindingIdentifier(id) = &param.pattern
                        && let (Some(symbol), Some(scope)) = (id.symbol_id.get(), clause.scope_id.get())
                    {
                        plan.catch_parameters.push((symbol, scope, node.id()));
                    }
                }
                AstKind::VariableDeclaration(d) if d.kind == VariableDeclarationKind::Var => {
                    for declarator in &d.declarations {
                        collect_identifiers(&declarator.id, node.scope_id(), &mut plan.var_identifiers);
                    }
                }
                _ => {}
            }
        }
        plan
    }

    /// Splits the bindings in `scoping`.
    pub(super) fn apply(self, scoping: &mut Scoping) {
        own_arguments(scoping);
        for symbol in self.class_expressions {
            scoping.union_symbol_flag(symbol, SymbolFlags::ConstVariable);
        }
        for (outer, class_scope, node) in self.class_declarations {
            let name = scoping.symbol_name(outer).to_owned();
            let span = scoping.symbol_span(outer);
            let inner = scoping.create_symbol(
                span,
                name.as_str().into(),
                SymbolFlags::Class | SymbolFlags::ConstVariable,
                class_scope,
                node,
            );
            scoping.add_binding(class_scope, name.as_str().into(), inner);
            move_references(scoping, outer, inner, |scoping, at| within(scoping, at, class_scope));
        }
        for (clause, body) in self.catch_scopes {
            let parameters: Vec<(String, SymbolId)> = scoping
                .get_bindings(body)
                .iter()
                .filter(|&(_, &symbol)| scoping.symbol_flags(symbol).contains(SymbolFlags::CatchVariable))
                .map(|(name, &symbol)| (name.as_str().to_owned(), symbol))
                .collect();
            for (name, symbol) in parameters {
                scoping.remove_binding(body, name.as_str().into());
                scoping.add_binding(clause, name.as_str().into(), symbol);
                scoping.set_symbol_scope_id(symbol, clause);
            }
        }
        for (param, catch_scope, node) in self.catch_parameters {
            let hoisted_to = scoping.symbol_scope_id(param);
            if hoisted_to == catch_scope {
                continue;
            }
            let name = scoping.symbol_name(param).to_owned();
            let span: Span = scoping.symbol_span(param);
            let var = scoping.create_symbol(
                span,
                name.as_str().into(),
                SymbolFlags::FunctionScopedVariable,
                hoisted_to,
                node,
            );
            scoping.add_binding(hoisted_to, name.as_str().into(), var);
            scoping.set_symbol_scope_id(param, catch_scope);
            scoping.add_binding(catch_scope, name.as_str().into(), param);
            move_references(scoping, param, var, |scoping, at| !within(scoping, at, catch_scope));
            for (id, scope) in &self.var_identifiers {
                if id.symbol_id.get() == Some(param) && !within(scoping, *scope, catch_scope) {
                    id.symbol_id.set(Some(var));
                }
            }
        }
    }
}

/// Whether `scope` is `ancestor` or inside it.
fn within(scoping: &Scoping, scope: ScopeId, ancestor: ScopeId) -> bool {
    scope == ancestor || scoping.scope_is_descendant_of(scope, ancestor)
}

/// Resolves the references to `from` made in scopes `moves` selects to
/// `to` instead.
fn move_references(scoping: &mut Scoping, from: SymbolId, to: SymbolId, moves: impl Fn(&Scoping, ScopeId) -> bool) {
    let references = scoping.get_resolved_reference_ids(from).to_vec();
    for reference in references {
        let at = scoping.get_reference(reference).scope_id();
        if moves(scoping, at) {
            scoping.get_reference_mut(reference).set_symbol_id(to);
            scoping.delete_resolved_reference(from, reference);
            scoping.add_resolved_reference(to, reference);
        }
    }
}

/// The identifiers a `var` binding pattern declares.
fn collect_identifiers<'a>(
    pattern: &'a BindingPattern<'a>,
    scope: ScopeId,
    out: &mut Vec<(&'a BindingIdentifier<'a>, ScopeId)>,
) {
    match pattern {
        BindingPattern::BindingIdentifier(id) => out.push((id, scope)),
        BindingPattern::AssignmentPattern(p) => collect_identifiers(&p.left, scope, out),
        BindingPattern::ObjectPattern(p) => {
            for property in &p.properties {
                collect_identifiers(&property.value, scope, out);
            }
            if let Some(rest) = &p.rest {
                collect_identifiers(&rest.argument, scope, out);
            }
        }
        BindingPattern::ArrayPattern(p) => {
            for element in p.elements.iter().flatten() {
                collect_identifiers(element, scope, out);
            }
            if let Some(rest) = &p.rest {
                collect_identifiers(&rest.argument, scope, out);
            }
        }
    }
}

/// The nearest non-arrow function scope around `scope` (`None` at the top
/// level): the function whose `arguments` a reference there sees.
fn arguments_function(scoping: &Scoping, scope: ScopeId) -> Option<ScopeId> {
    for s in scoping.scope_ancestors(scope) {
        let flags = scoping.scope_flags(s);
        if flags.contains(ScopeFlags::Function) && !flags.contains(ScopeFlags::Arrow) {
            return Some(s);
        }
        if flags.contains(ScopeFlags::Top) {
            return None;
        }
    }
    None
}

/// Unresolves references to a binding named `arguments` made inside a
/// non-arrow function nested in the binding's own function.
fn own_arguments(scoping: &mut Scoping) {
    let symbols: Vec<SymbolId> = scoping.symbol_ids().filter(|&s| scoping.symbol_name(s) == "arguments").collect();
    for symbol in symbols {
        let home = arguments_function(scoping, scoping.symbol_scope_id(symbol));
        let references = scoping.get_resolved_reference_ids(symbol).to_vec();
        for reference in references {
            let r = scoping.get_reference(reference);
            let (node, scope, flags) = (r.node_id(), r.scope_id(), r.flags());
            let function = arguments_function(scoping, scope);
            if function.is_some() && function != home {
                *scoping.get_reference_mut(reference) = Reference::new(node, scope, flags);
                scoping.delete_resolved_reference(symbol, reference);
                scoping.add_root_unresolved_reference("arguments".into(), reference);
            }
        }
    }
}
