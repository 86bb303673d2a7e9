//! Scope analysis on top of `oxc_semantic`: which bindings closures capture
//! (they live in environments) and which can stay in registers.

use ahash::{AHashMap as HashMap, AHashSet as HashSet};

use oxc_semantic::{Scoping, Semantic};
use oxc_syntax::scope::{ScopeFlags, ScopeId};
use oxc_syntax::symbol::{SymbolFlags, SymbolId};

use oxc_ast::AstKind;

/// Where a binding lives at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A register of the declaring function's frame.
    Register(u16),
    /// Slot `slot` of the environment of scope `scope`.
    Env {
        /// The declaring scope.
        scope: ScopeId,
        /// The slot.
        slot: u32,
    },
    /// A property of the global object (script-level `var` and functions).
    GlobalVar,
    /// A global lexical binding (script-level `let`, `const`, `class`).
    GlobalLexical,
    /// A `var` of sloppy direct eval code that is the caller's like-named
    /// binding of its variable environment (found by name in the caller's
    /// scope table).
    EvalOuterVar,
    /// A new `var` of sloppy direct eval code in a function: a property of
    /// the caller's variable object.
    EvalVarObject,
    /// A module's import binding: slot `slot` of the module environment
    /// holds where the imported binding lives (read-only).
    Import {
        /// The module scope.
        scope: ScopeId,
        /// The slot.
        slot: u32,
    },
}

/// What a private name of a class names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrivateKind {
    /// A field.
    Field,
    /// A method; its closure waits in `slot` of the class environment.
    Method {
        /// The slot holding the method.
        slot: u32,
    },
    /// A getter and/or setter, each waiting in its slot.
    Accessor {
        /// The getter's slot.
        get: Option<u32>,
        /// The setter's slot.
        set: Option<u32>,
    },
}

/// One private name declared by a class body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrivateName {
    /// The name without `#`.
    pub name: String,
    /// The class-environment slot holding the Private Name value.
    pub slot: u32,
    /// Field, method or accessor.
    pub kind: PrivateKind,
    /// Declared `static`.
    pub is_static: bool,
}

/// The whole program's scope facts.
pub struct Analysis {
    /// oxc's scope tree and symbol table.
    pub scoping: Scoping,
    /// Per scope: the scope of the function (or class body, which runs as
    /// its own functions) it belongs to.
    boundary: Vec<ScopeId>,
    /// Symbols referenced from a different function than the declaring one.
    captured: HashSet<SymbolId>,
    /// Per scope: captured bindings get consecutive environment slots.
    env_slots: HashMap<ScopeId, u32>,
    /// Slots of captured symbols.
    slot_of: HashMap<SymbolId, u32>,
    /// Function scopes whose `arguments` object is used, and the env slot it
    /// has when arrows inside use it.
    pub arguments_used: HashMap<ScopeId, Option<u32>>,
    /// Scopes of each boundary, in creation order.
    scopes_of: HashMap<ScopeId, Vec<ScopeId>>,
    /// Class body scopes: their bindings are read by the methods, so they
    /// always live in an environment.
    class_scopes: HashSet<ScopeId>,
    /// Private names per class scope, with their environment slots.
    private_names: HashMap<ScopeId, Vec<PrivateName>>,
    /// Where each `let`/`const`/`class` declaration ends: a use in the same
    /// function after this offset cannot be in the TDZ (outside `switch`).
    lexical_decl_end: HashMap<SymbolId, u32>,
    /// The `let`/`const`/`class` bindings with a reference before their
    /// declaration ends (the only ones whose TDZ marker can be read).
    referenced_before_declared: HashSet<SymbolId>,
    /// Scopes of `switch` statements, where a case can jump past a
    /// declaration.
    switch_scopes: HashSet<ScopeId>,
    /// Sloppy functions with simple parameter lists, with their parameter
    /// symbols: if they use `arguments`, it aliases the parameters.
    simple_parameters: HashMap<ScopeId, Vec<SymbolId>>,
    /// The module scope, when compiling a module: its bindings all live in
    /// the module environment, where importers and namespaces find them.
    pub module_scope: Option<ScopeId>,
    /// `with` statements whose body makes closures, by the statement's
    /// start offset: the scope and slot whose environment holds the object,
    /// so the closures can consult it.
    with_envs: HashMap<u32, (ScopeId, u32)>,
    /// Sloppy functions with a direct `eval` call of their own, with the
    /// slot of their environment holding the object where the eval code's
    /// new `var`s live (see [`Analysis::eval_var_object`]).
    eval_var_objects: HashMap<ScopeId, u32>,
    /// Derived-class constructors that contain arrow functions, with the
    /// first of two environment slots: the constructor's `this` binding
    /// (a hole until `super()` binds it) and the constructor itself. An
    /// arrow's `this` and `super()` are the constructor's (§9.1.1.3), and
    /// `super()` in an arrow binds it for the constructor and its other
    /// arrows, so it cannot be a value copied when the arrow is made.
    derived_this: HashMap<ScopeId, u32>,
    /// Annex B.3.2 block-level functions (set by the compiler before
    /// compiling).
    pub annex_b: super::declaration_instantiation::AnnexBFunctions,
}

/// Where the TDZ of a declarator's bindings certainly ends: the end of the
/// declarator (`end`), except in a for-in/of head, whose bindings are in
/// their TDZ while the head's expression runs.
fn declarator_tdz_end(semantic: &Semantic<'_>, declarator: oxc_semantic::NodeId, end: u32) -> u32 {
    let declaration = semantic.nodes().parent_id(declarator);
    match semantic.nodes().parent_kind(declaration) {
        AstKind::ForOfStatement(f) => oxc_span::GetSpan::span(&f.right).end,
        AstKind::ForInStatement(f) => oxc_span::GetSpan::span(&f.right).end,
        _ => end,
    }
}

impl Analysis {
    /// Analyses a program.
    pub fn new(semantic: Semantic<'_>) -> Self {
        let mut class_scopes = HashSet::new();
        let mut declared_private = Vec::new();
        let mut switch_scopes = HashSet::new();
        let lexical_decl_end = lexical_declaration_ends(&semantic);
        let referenced_before_declared = references_before_declaration(&semantic, &lexical_decl_end);
        let mut simple_parameters = HashMap::new();
        let with_statements = with_statements_making_closures(&semantic);
        let eval_call_scopes = direct_eval_call_scopes(&semantic);
        let mut derived_constructors = HashSet::new();
        for node in semantic.nodes().iter() {
            if let AstKind::Function(f) = node.kind()
                && let Some(scope) = f.scope_id.get()
                && !semantic.scoping().scope_flags(scope).is_strict_mode()
                && f.params.rest.is_none()
                && f.params.items.iter().all(|p| p.initializer.is_none())
            {
                let symbols: Option<Vec<SymbolId>> = f
                    .params
                    .items
                    .iter()
                    .map(|p| match &p.pattern {
                        oxc_ast::ast::BindingPattern::BindingIdentifier(id) => id.symbol_id.get(),
                        _ => None,
                    })
                    .collect();
                if let Some(symbols) = symbols {
                    simple_parameters.insert(scope, symbols);
                }
            }
            if let AstKind::SwitchStatement(s) = node.kind()
                && let Some(scope) = s.scope_id.get()
            {
                switch_scopes.insert(scope);
            }
            if let AstKind::Class(class) = node.kind()
                && let Some(scope) = class.scope_id.get()
            {
                class_scopes.insert(scope);
                declared_private.push((scope, private_declarations(class)));
                if class.heritage.is_some()
                    && let Some(constructor) = derived_constructor_scope(class)
                {
                    derived_constructors.insert(constructor);
                }
            }
        }
        let split = super::split_bindings::SplitPlan::new(&semantic);
        let mut scoping = semantic.into_scoping();
        split.apply(&mut scoping);
        let count = scoping.scopes_len();
        let mut boundary = Vec::with_capacity(count);
        let mut scopes_of: HashMap<ScopeId, Vec<ScopeId>> = HashMap::new();
        for index in 0..count {
            let scope = ScopeId::new(index);
            let flags = scoping.scope_flags(scope);
            let is_boundary = flags
                .intersects(ScopeFlags::Top | ScopeFlags::Function | ScopeFlags::Arrow | ScopeFlags::ClassStaticBlock)
                || class_scopes.contains(&scope);
            let b =
                if is_boundary { scope } else { scoping.scope_parent_id(scope).map_or(scope, |p| boundary[p.index()]) };
            boundary.push(b);
            scopes_of.entry(b).or_default().push(scope);
        }
        let mut analysis = Self {
            scoping,
            boundary,
            captured: HashSet::new(),
            env_slots: HashMap::new(),
            slot_of: HashMap::new(),
            arguments_used: HashMap::new(),
            scopes_of,
            class_scopes,
            private_names: HashMap::new(),
            lexical_decl_end,
            referenced_before_declared,
            switch_scopes,
            simple_parameters,
            module_scope: None,
            with_envs: HashMap::new(),
            eval_var_objects: HashMap::new(),
            derived_this: HashMap::new(),
            annex_b: super::declaration_instantiation::AnnexBFunctions::default(),
        };
        analysis.find_captures();
        for (start, scope) in with_statements {
            let next = analysis.env_slots.entry(scope).or_insert(0);
            analysis.with_envs.insert(start, (scope, *next));
            *next += 1;
        }
        analysis.allocate_eval_var_objects(eval_call_scopes);
        analysis.allocate_derived_this(&derived_constructors);
        for (scope, declarations) in declared_private {
            analysis.allocate_private_names(scope, declarations);
        }
        analysis
    }

    fn find_captures(&mut self) {
        let scoping = &self.scoping;
        let mut eval_boundaries = HashSet::new();
        for index in 0..scoping.scopes_len() {
            let scope = ScopeId::new(index);
            if scoping.scope_flags(scope).contains(ScopeFlags::DirectEval) {
                // Everything visible from a direct eval may be read by name.
                let mut s = Some(scope);
                while let Some(cur) = s {
                    eval_boundaries.insert(cur);
                    s = scoping.scope_parent_id(cur);
                }
            }
        }
        for symbol in scoping.symbol_ids() {
            let declared_in = scoping.symbol_scope_id(symbol);
            let home = self.boundary[declared_in.index()];
            let escapes = eval_boundaries.contains(&declared_in)
                || self.class_scopes.contains(&declared_in)
                || scoping
                    .get_resolved_reference_ids(symbol)
                    .iter()
                    .any(|&r| self.boundary[scoping.get_reference(r).scope_id().index()] != home);
            if escapes {
                self.captured.insert(symbol);
            }
        }
        // `arguments` is an implicit binding of the nearest non-arrow
        // function.
        let mut arguments_uses = Vec::new();
        for (name, refs) in scoping.root_unresolved_references() {
            if name.as_str() == "arguments" {
                arguments_uses.extend(refs.iter().map(|&r| scoping.get_reference(r).scope_id()));
            }
        }
        // A direct eval may read `arguments`.
        for index in 0..self.scoping.scopes_len() {
            let scope = ScopeId::new(index);
            if self.scoping.scope_flags(scope).contains(ScopeFlags::DirectEval)
                && let Some(function) = self.arguments_function(scope)
            {
                self.arguments_used.insert(function, Some(u32::MAX));
            }
        }
        for use_scope in arguments_uses {
            let Some(function) = self.arguments_function(use_scope) else { continue };
            let captured = self.boundary[use_scope.index()] != function;
            let entry = self.arguments_used.entry(function).or_insert(None);
            if captured && entry.is_none() {
                *entry = Some(u32::MAX);
            }
        }
        // Parameters aliased by a mapped arguments object live in the
        // environment.
        for (function, params) in &self.simple_parameters {
            if self.arguments_used.contains_key(function) {
                self.captured.extend(params.iter().copied());
            }
        }
        let mut symbols: Vec<SymbolId> = self.captured.iter().copied().collect();
        symbols.sort();
        for symbol in symbols {
            let scope = self.scoping.symbol_scope_id(symbol);
            let next = self.env_slots.entry(scope).or_insert(0);
            self.slot_of.insert(symbol, *next);
            *next += 1;
        }
        let functions: Vec<ScopeId> = self.arguments_used.keys().copied().collect();
        for function in functions {
            if self.arguments_used.get(&function) == Some(&Some(u32::MAX)) {
                let next = self.env_slots.entry(function).or_insert(0);
                self.arguments_used.insert(function, Some(*next));
                *next += 1;
            }
        }
    }

    /// Gives each sloppy function with a direct eval call of its own an
    /// environment slot for its variable object.
    fn allocate_eval_var_objects(&mut self, eval_call_scopes: Vec<ScopeId>) {
        for scope in eval_call_scopes {
            let function = self.boundary[scope.index()];
            let flags = self.scoping.scope_flags(function);
            if flags.contains(ScopeFlags::Function)
                && !flags.is_strict_mode()
                && !self.scoping.scope_flags(scope).is_strict_mode()
                && !self.eval_var_objects.contains_key(&function)
            {
                let next = self.env_slots.entry(function).or_insert(0);
                self.eval_var_objects.insert(function, *next);
                *next += 1;
            }
        }
    }

    /// Gives each derived constructor that contains an arrow function (at
    /// any depth of arrows) its two `this` slots (see
    /// [`Analysis::derived_this`]).
    fn allocate_derived_this(&mut self, derived_constructors: &HashSet<ScopeId>) {
        for index in 0..self.scoping.scopes_len() {
            let scope = ScopeId::new(index);
            if !self.scoping.scope_flags(scope).contains(ScopeFlags::Arrow) {
                continue;
            }
            let Some(function) = self.this_function(scope) else { continue };
            if derived_constructors.contains(&function) && !self.derived_this.contains_key(&function) {
                let next = self.env_slots.entry(function).or_insert(0);
                self.derived_this.insert(function, *next);
                *next += 2;
            }
        }
    }

    fn allocate_private_names(&mut self, scope: ScopeId, declarations: Vec<(String, PrivateDecl, bool)>) {
        let mut names: Vec<PrivateName> = Vec::new();
        for (name, decl, is_static) in declarations {
            let next = self.env_slots.entry(scope).or_insert(0);
            let index = if let Some(i) = names.iter().position(|n| n.name == name) {
                i
            } else {
                names.push(PrivateName { name, slot: *next, kind: PrivateKind::Field, is_static });
                *next += 1;
                names.len() - 1
            };
            let mut take_slot = || {
                let next = self.env_slots.entry(scope).or_insert(0);
                *next += 1;
                *next - 1
            };
            let entry = &mut names[index];
            entry.kind = match (decl, &entry.kind) {
                (PrivateDecl::Field, _) => PrivateKind::Field,
                (PrivateDecl::Method, _) => PrivateKind::Method { slot: take_slot() },
                (PrivateDecl::Getter, PrivateKind::Accessor { set, .. }) => {
                    PrivateKind::Accessor { get: Some(take_slot()), set: *set }
                }
                (PrivateDecl::Getter, _) => PrivateKind::Accessor { get: Some(take_slot()), set: None },
                (PrivateDecl::Setter, PrivateKind::Accessor { get, .. }) => {
                    PrivateKind::Accessor { get: *get, set: Some(take_slot()) }
                }
                (PrivateDecl::Setter, _) => PrivateKind::Accessor { get: None, set: Some(take_slot()) },
            };
        }
        self.private_names.insert(scope, names);
    }

    /// Makes `scope` a module scope: every binding it declares gets an
    /// environment slot (other modules read them through import bindings
    /// and namespaces), plus one slot for `*default*` (§16.2.3.7), which
    /// is returned.
    pub fn capture_module_scope(&mut self, scope: ScopeId) -> u32 {
        self.module_scope = Some(scope);
        let mut symbols: Vec<SymbolId> = self.scoping.get_bindings(scope).values().copied().collect();
        symbols.sort();
        for symbol in symbols {
            if self.captured.insert(symbol) {
                let next = self.env_slots.entry(scope).or_insert(0);
                self.slot_of.insert(symbol, *next);
                *next += 1;
            }
        }
        let next = self.env_slots.entry(scope).or_insert(0);
        *next += 1;
        *next - 1
    }

    /// Whether a use of the lexical `symbol` at source offset `at`, in the
    /// declaring function, is certainly past its initialisation.
    pub fn initialized_at(&self, symbol: SymbolId, at: u32) -> bool {
        let scope = self.scoping.symbol_scope_id(symbol);
        !self.switch_scopes.contains(&scope) && self.lexical_decl_end.get(&symbol).is_some_and(|&end| at >= end)
    }

    /// Whether the lexical `symbol`, in a register, can be read before its
    /// initialisation: only then does its scope's entry store the TDZ
    /// marker into the register (every other read is
    /// [`initialized_at`](Self::initialized_at) and checks nothing).
    pub fn may_read_in_tdz(&self, symbol: SymbolId) -> bool {
        let scope = self.scoping.symbol_scope_id(symbol);
        self.switch_scopes.contains(&scope)
            || !self.lexical_decl_end.contains_key(&symbol)
            || self.referenced_before_declared.contains(&symbol)
    }

    /// The parameters a mapped arguments object of `function` aliases, if
    /// it has one.
    pub fn mapped_parameters(&self, function: ScopeId) -> Option<&[SymbolId]> {
        if !self.arguments_used.contains_key(&function) {
            return None;
        }
        self.simple_parameters.get(&function).map(Vec::as_slice)
    }

    /// The private names a class scope declares.
    pub fn private_names(&self, class_scope: ScopeId) -> &[PrivateName] {
        self.private_names.get(&class_scope).map_or(&[], Vec::as_slice)
    }

    /// The non-arrow function scope whose `arguments` a use in `scope`
    /// refers to (`None` at the top level).
    fn arguments_function(&self, scope: ScopeId) -> Option<ScopeId> {
        self.enclosing_non_arrow_function(scope, |_, flags| flags.contains(ScopeFlags::Top))
    }

    /// The innermost non-arrow function scope enclosing `scope` (itself
    /// included), or `None` once the walk reaches a scope `ends_search`
    /// accepts first.
    fn enclosing_non_arrow_function(
        &self,
        scope: ScopeId,
        ends_search: impl Fn(ScopeId, ScopeFlags) -> bool,
    ) -> Option<ScopeId> {
        let mut s = Some(scope);
        while let Some(cur) = s {
            let flags = self.scoping.scope_flags(cur);
            if flags.contains(ScopeFlags::Function) && !flags.contains(ScopeFlags::Arrow) {
                return Some(cur);
            }
            if ends_search(cur, flags) {
                return None;
            }
            s = self.scoping.scope_parent_id(cur);
        }
        None
    }

    /// The non-arrow function whose `this` binding code in `scope` uses
    /// (`None` at the top level, in class static blocks and in class
    /// bodies, where field initialisers are functions of their own).
    fn this_function(&self, scope: ScopeId) -> Option<ScopeId> {
        self.enclosing_non_arrow_function(scope, |cur, flags| {
            flags.intersects(ScopeFlags::Top | ScopeFlags::ClassStaticBlock) || self.class_scopes.contains(&cur)
        })
    }

    /// The environment slot of a captured symbol.
    pub fn slot(&self, symbol: SymbolId) -> Option<u32> {
        self.slot_of.get(&symbol).copied()
    }

    /// Where the object of the `with` statement starting at `start` is
    /// kept for the closures its body makes: a scope and a slot of its
    /// environment (`None` when the body makes no closure).
    pub fn with_env(&self, start: u32) -> Option<(ScopeId, u32)> {
        self.with_envs.get(&start).copied()
    }

    /// The environment slot of `function` holding the object where `var`s
    /// of its direct eval calls' code live (EvalDeclarationInstantiation
    /// adds them to the function's variable environment; the compiled
    /// function resolves names statically, so they are looked up there
    /// like in a `with` object, but calls through them get an undefined
    /// `this`). Undefined until eval code declares one.
    pub fn eval_var_object(&self, function: ScopeId) -> Option<u32> {
        self.eval_var_objects.get(&function).copied()
    }

    /// The derived constructor whose `this` binding code in `scope` uses
    /// through the environment, with the slot of that binding (the next
    /// slot holds the constructor): set for such a constructor and for the
    /// arrows inside it.
    pub fn derived_this(&self, scope: ScopeId) -> Option<(ScopeId, u32)> {
        let function = self.this_function(scope)?;
        self.derived_this.get(&function).map(|&slot| (function, slot))
    }

    /// How many environment slots `scope` needs (0: no environment).
    pub fn env_slot_count(&self, scope: ScopeId) -> u32 {
        self.env_slots.get(&scope).copied().unwrap_or(0)
    }

    /// The scopes compiled as part of the function whose scope is
    /// `boundary`.
    pub fn scopes_of(&self, boundary: ScopeId) -> &[ScopeId] {
        self.scopes_of.get(&boundary).map_or(&[], Vec::as_slice)
    }
}

/// The scopes in which `eval(...)` is called by name (a direct eval, unless
/// `eval` is rebound, which only costs an unused slot).
fn direct_eval_call_scopes(semantic: &Semantic<'_>) -> Vec<ScopeId> {
    semantic
        .nodes()
        .iter()
        .filter(|node| {
            matches!(node.kind(), AstKind::CallExpression(call)
                if matches!(&call.callee, oxc_ast::ast::Expression::Identifier(id) if id.name == "eval"))
        })
        .map(oxc_semantic::AstNode::scope_id)
        .collect()
}

/// Where each `let`/`const`/`class` declaration ends (see
/// [`Analysis::initialized_at`]).
fn lexical_declaration_ends(semantic: &Semantic<'_>) -> HashMap<SymbolId, u32> {
    let mut lexical_decl_end = HashMap::new();
    let scoping = semantic.scoping();
    for symbol in scoping.symbol_ids() {
        let flags = scoping.symbol_flags(symbol);
        if !flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::ConstVariable | SymbolFlags::Class) {
            continue;
        }
        let node = scoping.symbol_declaration(symbol);
        let end = match semantic.nodes().kind(node) {
            AstKind::VariableDeclarator(d) => declarator_tdz_end(semantic, node, d.span.end),
            AstKind::Class(c) => c.span.end,
            _ => u32::MAX,
        };
        lexical_decl_end.insert(symbol, end);
    }
    lexical_decl_end
}

/// The lexical bindings of `ends` with a reference that starts before the
/// declaration ends (in any function).
fn references_before_declaration(semantic: &Semantic<'_>, ends: &HashMap<SymbolId, u32>) -> HashSet<SymbolId> {
    let scoping = semantic.scoping();
    ends.iter()
        .filter(|&(&symbol, &end)| {
            scoping.get_resolved_reference_ids(symbol).iter().any(|&reference| {
                let node = scoping.get_reference(reference).node_id();
                oxc_span::GetSpan::span(&semantic.nodes().kind(node)).start < end
            })
        })
        .map(|(&symbol, _)| symbol)
        .collect()
}

/// The `with` statements whose body makes closures (by start offset), with
/// the scope whose environment is to hold the object: the body block's
/// (a new one each time the body runs), or for a body that is not a block,
/// the scope around the statement.
fn with_statements_making_closures(semantic: &Semantic<'_>) -> Vec<(u32, ScopeId)> {
    let mut with_statements: Vec<(u32, oxc_span::Span, ScopeId)> = Vec::new();
    let mut closure_starts: Vec<u32> = Vec::new();
    for node in semantic.nodes().iter() {
        match node.kind() {
            AstKind::WithStatement(w) => {
                let scope = match &w.body {
                    oxc_ast::ast::Statement::BlockStatement(b) => b.scope_id.get(),
                    _ => None,
                };
                let scope = scope.unwrap_or_else(|| node.scope_id());
                with_statements.push((w.span.start, oxc_span::GetSpan::span(&w.body), scope));
            }
            AstKind::Function(f) => closure_starts.push(f.span.start),
            AstKind::ArrowFunctionExpression(f) => closure_starts.push(f.span.start),
            AstKind::Class(c) => closure_starts.push(c.span.start),
            _ => {}
        }
    }
    with_statements
        .into_iter()
        .filter(|(_, body, _)| closure_starts.iter().any(|&c| body.start <= c && c < body.end))
        .map(|(start, _, scope)| (start, scope))
        .collect()
}

/// The function scope of a class's explicit constructor.
fn derived_constructor_scope(class: &oxc_ast::ast::Class<'_>) -> Option<ScopeId> {
    class.body.body.iter().find_map(|element| match element {
        oxc_ast::ast::ClassElement::MethodDefinition(m)
            if m.kind == oxc_ast::ast::MethodDefinitionKind::Constructor =>
        {
            m.value.scope_id.get()
        }
        _ => None,
    })
}

/// How a class element declares a private name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PrivateDecl {
    Field,
    Method,
    Getter,
    Setter,
}

/// The private names a class body declares, in order.
fn private_declarations(class: &oxc_ast::ast::Class<'_>) -> Vec<(String, PrivateDecl, bool)> {
    use oxc_ast::ast::{ClassElement, MethodDefinitionKind, PropertyKey};
    let mut out = Vec::new();
    for element in &class.body.body {
        let (key, decl, is_static) = match element {
            ClassElement::PropertyDefinition(p) => (&p.key, PrivateDecl::Field, p.r#static),
            ClassElement::AccessorProperty(p) => (&p.key, PrivateDecl::Field, p.r#static),
            ClassElement::MethodDefinition(m) => {
                let decl = match m.kind {
                    MethodDefinitionKind::Get => PrivateDecl::Getter,
                    MethodDefinitionKind::Set => PrivateDecl::Setter,
                    _ => PrivateDecl::Method,
                };
                (&m.key, decl, m.r#static)
            }
            _ => continue,
        };
        if let PropertyKey::PrivateIdentifier(id) = key {
            out.push((id.name.as_str().to_owned(), decl, is_static));
        }
    }
    out
}
