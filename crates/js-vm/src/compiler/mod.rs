//! The compiler: oxc's AST, with scopes resolved by `oxc_semantic`, to
//! register bytecode.
//!
//! Each function compiles with its own [`FunctionCompiler`]: bindings no
//! inner function captures get registers, captured ones environment slots
//! (see [`scope`]). `finally` blocks are compiled inline on every exit
//! path, so there is no completion-record dispatch at run time.

mod class;
mod control;
mod declaration_instantiation;
mod expression;
mod function;
mod module;
mod nesting;
mod pattern;
mod scope;
mod split_bindings;
mod statement;
mod syntax_message;
mod using;
mod with;

use ahash::AHashMap as HashMap;
use std::rc::Rc;

use js_gc::Gc;
use oxc_allocator::Allocator;
use oxc_parser::{ParseOptions, Parser};
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::SymbolId;
use thiserror::Error;

pub(crate) use function::FunctionCompiler;
pub use module::{ImportEntry, ImportName, IndirectExport, ModuleRequest, compile_module};

use crate::bytecode::{Code, CodeKind, Handler, Instruction, Reg, Source};
use crate::string::JsString;
use crate::value::Value;
use crate::vm::Vm;

use self::scope::{Analysis, Location};

/// Why source text could not be compiled.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum CompileError {
    /// An early error: reported as a `SyntaxError`. `at` is the byte offset
    /// in the source text the parser or scope analysis pointed at, where
    /// it did.
    #[error("SyntaxError: {message}")]
    Syntax {
        /// What is wrong.
        message: String,
        /// Where, when known.
        at: Option<u32>,
    },
    /// Nesting deeper than the compiler allows: a `RangeError`.
    #[error("RangeError: {0}")]
    Range(String),
    /// A declaration the global object cannot take (§16.1.7 steps 8-9,
    /// §19.2.1.3 step 8-10): a `TypeError` when the code is instantiated.
    #[error("TypeError: {0}")]
    Type(String),
}

impl CompileError {
    /// A SyntaxError found by the compiler itself (no source position).
    pub(crate) fn syntax(message: impl Into<String>) -> Self {
        Self::Syntax { message: message.into(), at: None }
    }

    /// oxc's error in `text`: its message (in V8's words where they
    /// differ), at the offset of its first label.
    fn from_diagnostic(message: &str, labels: &[oxc_span::LabeledSpan], text: &str) -> Self {
        let span = labels.first().map(oxc_span::LabeledSpan::span);
        let message = match span {
            Some(span) => syntax_message::v8_message(message, text, span.start, span.end),
            None => message.to_owned(),
        };
        Self::Syntax { message, at: span.map(|span| span.start) }
    }
}

/// The result of compiling one piece.
pub(crate) type CResult<T> = Result<T, CompileError>;

/// AST depth the compiler recurses to before giving up.
pub(crate) const MAX_COMPILE_DEPTH: u32 = 5_000;

use nesting::check_nesting;

/// Stack the parser and compiler run on. oxc's parser and semantic
/// analysis recurse on nesting; when less than [`COMPILE_RED_ZONE`] of the
/// current thread's stack is left, they run on a fresh stack of this size
/// (reserved, not committed), so their depth does not depend on the
/// embedder's thread.
const COMPILE_STACK: usize = 256 * 1024 * 1024;

/// Stack the compiler needs for the deepest input it accepts.
const COMPILE_RED_ZONE: usize = 64 * 1024 * 1024;

/// Compiles a classic script.
pub fn compile_script(vm: &mut Vm, source: &Rc<Source>) -> CResult<Gc<Code>> {
    check_nesting(&source.text)?;
    stacker::maybe_grow(COMPILE_RED_ZONE, COMPILE_STACK, || {
        compile_on_big_stack(vm, source, CodeKind::Script, false, None, None)
    })
}

/// The text before a CommonJS module's source in its wrapper function.
pub const COMMONJS_WRAPPER_HEAD: &str = "(function (exports, require, module, __filename, __dirname) { ";

/// Compiles a CommonJS module: its text as the body of the module wrapper
/// function (a leading hashbang blanked), as a script whose completion
/// value is that function. Text that would close the wrapper early (a
/// stray `})`) is a SyntaxError, as it is to Node's `compileFunction`.
pub fn compile_commonjs(vm: &mut Vm, name: &str, body: &str) -> CResult<(Gc<Code>, Rc<Source>)> {
    let text = format!("{COMMONJS_WRAPPER_HEAD}{}\n}})", blank_hashbang(body));
    let source = Rc::new(Source::with_wrapper_head(name, text, COMMONJS_WRAPPER_HEAD.len() as u32));
    check_nesting(&source.text)?;
    let code = stacker::maybe_grow(COMPILE_RED_ZONE, COMPILE_STACK, || {
        compile_on_big_stack(vm, &source, CodeKind::Script, false, None, Some(is_single_function))
    })?;
    Ok((code, source))
}

/// Whether a CommonJS wrapper's text is one parenthesised function
/// expression (the module's text did not close the wrapper).
fn is_single_function(program: &oxc_ast::ast::Program<'_>) -> bool {
    use oxc_ast::ast::{Expression, Statement};
    match program.body.as_slice() {
        [Statement::ExpressionStatement(statement)] => match &statement.expression {
            Expression::ParenthesizedExpression(p) => matches!(p.expression, Expression::FunctionExpression(_)),
            _ => false,
        },
        _ => false,
    }
}

/// Compiles eval code (§19.2.1.1): `outer` is the call site's scope table
/// for a direct eval, `None` for an indirect one; `strict` when the caller
/// is strict.
pub fn compile_eval(
    vm: &mut Vm,
    source: &Rc<Source>,
    strict: bool,
    outer: Option<Rc<crate::bytecode::EvalScope>>,
) -> CResult<Gc<Code>> {
    check_nesting(&source.text)?;
    // oxc takes strictness from the text only, so strict eval code is
    // parsed behind a "use strict" directive that is not part of its
    // completion value.
    let strict_source;
    let source = if strict {
        strict_source = Rc::new(Source::new(&source.name, format!("\"use strict\";{}", blank_hashbang(&source.text))));
        strict_source.referrer.replace(source.referrer.borrow().clone());
        &strict_source
    } else {
        source
    };
    stacker::maybe_grow(COMPILE_RED_ZONE, COMPILE_STACK, || {
        compile_on_big_stack(vm, source, CodeKind::Eval, strict, outer, None)
    })
}

/// `text` with a leading hashbang comment (§12.5 HashbangComment) turned
/// into spaces of the same length, so that a directive can be put in front
/// of it (the comment is only one at the very start).
fn blank_hashbang(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.starts_with("#!") {
        return std::borrow::Cow::Borrowed(text);
    }
    let end = text.find(['\n', '\r', '\u{2028}', '\u{2029}']).unwrap_or(text.len());
    std::borrow::Cow::Owned(format!("{}{}", " ".repeat(end), &text[end..]))
}

/// Runs a step of oxc on untrusted text, turning a panic inside it (an
/// upstream bug: oxc_ast 0.146 slices past the end of `"\\u88"` used as a
/// module export name, found by the `run` fuzz target) into a SyntaxError
/// instead of unwinding through the engine. The step only builds data in
/// its own arena, which the caller drops with the error.
fn upstream_guard<T>(step: &str, f: impl FnOnce() -> T) -> CResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| CompileError::syntax(format!("Invalid or unexpected token (oxc's {step} failed on this input)")))
}

/// Parses `text` as `source_type`; the first diagnostic is the SyntaxError.
pub(crate) fn parse<'a>(
    allocator: &'a Allocator,
    text: &'a str,
    source_type: SourceType,
) -> CResult<oxc_ast::ast::Program<'a>> {
    let options = ParseOptions { parse_regular_expression: true, ..ParseOptions::default() };
    let parsed = upstream_guard("parser", || Parser::new(allocator, text, source_type).with_options(options).parse())?;
    if let Some(error) = parsed.diagnostics.errors().next() {
        return Err(CompileError::from_diagnostic(&error.message, &error.labels, text));
    }
    if parsed.panicked {
        return Err(CompileError::syntax("Unexpected token".to_owned()));
    }
    Ok(parsed.program)
}

/// oxc's scope analysis with its early errors (the first is the
/// SyntaxError).
pub(crate) fn analyse<'a>(program: &'a oxc_ast::ast::Program<'a>) -> CResult<oxc_semantic::Semantic<'a>> {
    let built = upstream_guard("scope analysis", || {
        SemanticBuilder::new().with_check_syntax_error(true).with_build_nodes(true).build(program)
    })?;
    if let Some(error) = built.diagnostics.errors().next() {
        return Err(CompileError::from_diagnostic(&error.message, &error.labels, program.source_text));
    }
    Ok(built.semantic)
}

fn compile_on_big_stack(
    vm: &mut Vm,
    source: &Rc<Source>,
    kind: CodeKind,
    force_strict: bool,
    outer: Option<Rc<crate::bytecode::EvalScope>>,
    shape_check: Option<fn(&oxc_ast::ast::Program<'_>) -> bool>,
) -> CResult<Gc<Code>> {
    let allocator = Allocator::default();
    let program = parse(&allocator, &source.text, SourceType::script())?;
    if shape_check.is_some_and(|check| !check(&program)) {
        return Err(CompileError::syntax("Unexpected token '}'".to_owned()));
    }
    let mut semantic = analyse(&program)?;
    let context = match kind {
        CodeKind::Eval => declaration_instantiation::CodeContext::Eval { outer: outer.as_deref() },
        _ => declaration_instantiation::CodeContext::Script,
    };
    let annex_b = declaration_instantiation::annex_b(vm, &mut semantic, context);
    let mut analysis = Analysis::new(semantic);
    analysis.annex_b = annex_b;
    let root = program.scope_id.get().unwrap_or(ScopeId::new(0));
    let strict = force_strict || analysis.scoping.scope_flags(root).is_strict_mode();
    let mut fc = FunctionCompiler::new(vm, &analysis, source, root, kind, strict, "");
    if kind == CodeKind::Eval {
        fc.eval_root = Some(root);
        // Free names of sloppy eval code consult the variable object of a
        // function caller first (its earlier evals' `var`s).
        if !strict && let Some((depth, slot)) = outer.as_ref().filter(|o| !o.var_env_global).and_then(|o| o.var_object)
        {
            fc.with_objects.push(with::WithObject::eval_caller_var_object(root, depth, slot));
        }
    }
    fc.outer_scope = outer;
    fc.injected_directives = usize::from(kind == CodeKind::Eval && force_strict);
    fc.compile_script_body(&program)?;
    Ok(fc.finish(program.span.start, program.span.end))
}

/// A constant-pool key: the value's bits (atoms are unique per content).
type ConstKey = u64;

/// Builds a `Code` cell from a finished function compiler's parts.
#[allow(clippy::too_many_arguments, reason = "the parts of a Code cell")]
pub(crate) fn build_code(
    vm: &mut Vm,
    name: &str,
    kind: CodeKind,
    strict: bool,
    instructions: Vec<Instruction>,
    constants: Vec<Value>,
    functions: Vec<Gc<Code>>,
    handlers: Vec<Handler>,
    register_count: u16,
    param_count: u16,
    length: u16,
    ic_count: u32,
    positions: Vec<(u32, u32)>,
    span: (u32, u32),
    source: Rc<Source>,
    eval_scopes: Vec<Rc<crate::bytecode::EvalScope>>,
    mapped_parameters: Vec<u32>,
    is_async: bool,
) -> Gc<Code> {
    let name = vm.atoms.intern_str(&mut vm.heap, name);
    // Every register an instruction names is inside the frame: the
    // invariant `FrameContext::get` and `set` read and write by (see there).
    let named = instructions.iter().filter_map(Instruction::max_register).max().map_or(0, |r| r + 1);
    let register_count = register_count.max(named);
    let reads_extra_arguments = instructions
        .iter()
        .any(|i| matches!(i, Instruction::CreateArguments { .. } | Instruction::CreateRestArray { .. }));
    vm.heap.alloc(Code {
        name,
        kind,
        strict,
        instructions: instructions.into(),
        constants: constants.into_boxed_slice(),
        functions: functions.into_boxed_slice(),
        handlers: handlers.into_boxed_slice(),
        register_count,
        param_count,
        length,
        reads_extra_arguments,
        ic_count,
        ic_table: u32::MAX,
        positions: positions.into_boxed_slice(),
        span,
        source,
        eval_scopes: eval_scopes.into_boxed_slice(),
        mapped_parameters: mapped_parameters.into(),
        is_async,
        realm: vm.realm_id,
    })
}

/// Decodes an oxc string value that may carry lone surrogates (escaped as
/// U+FFFD followed by four hex digits) into UTF-16 code units.
pub(crate) fn decode_lone_surrogates(value: &str, has_lone: bool) -> Vec<u16> {
    if !has_lone {
        return value.encode_utf16().collect();
    }
    let mut out = Vec::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\u{FFFD}' {
            let hex: String = chars.by_ref().take(4).collect();
            if let Ok(unit) = u16::from_str_radix(&hex, 16) {
                out.push(unit);
                continue;
            }
            out.push(0xFFFD);
            out.extend(hex.encode_utf16());
        } else {
            let mut buf = [0; 2];
            out.extend_from_slice(c.encode_utf16(&mut buf));
        }
    }
    out
}

/// Interns UTF-16 text as an atom constant value.
pub(crate) fn atom_value(vm: &mut Vm, units: &[u16]) -> Value {
    let s = vm.heap.alloc(JsString::from_utf16(units));
    Value::string(vm.atoms.intern(&mut vm.heap, s))
}

/// Per-function binding table, filled at function entry.
pub(crate) type Locations = HashMap<SymbolId, Location>;

/// The register `this` lives in.
pub(crate) const THIS_REG: Reg = Reg(0);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_decode() {
        assert_eq!(decode_lone_surrogates("a\u{FFFD}d800b", true), vec![97, 0xD800, 98]);
        assert_eq!(decode_lone_surrogates("\u{FFFD}fffd", true), vec![0xFFFD]);
        assert_eq!(decode_lone_surrogates("é", false), vec![0xE9]);
    }

    #[test]
    fn a_hashbang_gives_way_to_an_injected_directive() {
        // Same length in bytes: "é" is two.
        assert_eq!(blank_hashbang("#!x é\n1"), format!("{}\n1", " ".repeat(6)));
        assert_eq!(blank_hashbang("#!"), "  ");
        assert_eq!(blank_hashbang("1 #!"), "1 #!");
    }

    #[test]
    fn deep_nesting_is_a_range_error() {
        let text = "[".repeat(5_000);
        assert!(matches!(check_nesting(&text), Err(CompileError::Range(_))));
        assert!(check_nesting("[[[]]]").is_ok());
    }
}

#[cfg(test)]
mod snapshot_tests {
    use std::rc::Rc;

    use crate::bytecode::Source;
    use crate::vm::Vm;

    /// The bytecode of the first function a script defines.
    fn function_bytecode(text: &str) -> String {
        let mut vm = Vm::new();
        let source = Rc::new(Source::new("snapshot.js", text));
        let code = super::compile_script(&mut vm, &source).expect("compiles");
        let function = code.borrow(&vm.heap).functions[0];
        function.borrow(&vm.heap).disassemble()
    }

    #[test]
    fn loop_with_local_updates() {
        insta::assert_snapshot!(function_bytecode(
            "function sum(n) { let s = 0; for (let i = 0; i < n; i++) { s += i; } return s; }"
        ));
    }

    #[test]
    fn closure_captures_only_what_it_uses() {
        insta::assert_snapshot!(function_bytecode(
            "function counter() { let hidden = 1, count = 0; return () => ++count + hidden * 0; }"
        ));
    }

    #[test]
    fn try_finally_runs_finally_on_every_exit() {
        insta::assert_snapshot!(function_bytecode(
            "function f(x) { for (;;) { try { if (x) break; return 1; } finally { x = 0; } } return 2; }"
        ));
    }
}
