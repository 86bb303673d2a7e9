//! Compiled code: instructions, constants, nested functions, exception
//! handlers and source positions of one function, script or eval body.

mod instruction;

use std::rc::Rc;

use js_gc::{Gc, Trace, Tracer};

pub use instruction::{AsyncIterationOp, CompareOp, DisposeOp, IcIndex, Instruction, NumericOp, Reg, Target};

use crate::string::JsString;
use crate::value::Value;

/// The source a piece of code came from, for stack traces.
#[derive(Debug)]
pub struct Source {
    /// The file name shown in stack traces.
    pub name: String,
    /// Byte offsets where each line starts, indexed on the first position
    /// lookup: most eval'd and `new Function` code never reports one.
    line_starts: std::cell::OnceCell<Vec<u32>>,
    /// Where line 1 starts: 0, or past a host's one-line wrapper.
    first_line_start: u32,
    /// The text, for `Function.prototype.toString`.
    pub text: String,
    /// The script or module this code belongs to (`GetActiveScriptOrModule`),
    /// for `import()` and `import.meta`; `None` means a script named by
    /// [`Source::name`].
    pub referrer: std::cell::RefCell<Option<ScriptOrModule>>,
}

/// The script or module a piece of code runs for (`[[ScriptOrModule]]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptOrModule {
    /// A classic script, by its file name (relative specifiers in its
    /// `import()` calls resolve against it).
    Script(String),
    /// A module, by its index in the VM's module map.
    Module(u32),
}

impl Source {
    /// A source named `name` with text `text`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            line_starts: std::cell::OnceCell::new(),
            first_line_start: 0,
            text: text.into(),
            referrer: std::cell::RefCell::new(None),
        }
    }

    /// Byte offsets where each line starts.
    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut line_starts = vec![self.first_line_start];
            let bytes = self.text.as_bytes();
            for (i, &b) in bytes.iter().enumerate() {
                let next = match b {
                    b'\n' => i + 1,
                    b'\r' if bytes.get(i + 1) != Some(&b'\n') => i + 1,
                    0xE2 if bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) => i + 3,
                    _ => continue,
                };
                line_starts.push(u32::try_from(next).unwrap_or(u32::MAX));
            }
            line_starts
        })
    }

    /// A source whose first `prefix` bytes are a one-line wrapper the host
    /// put before the file's text (CommonJS's module wrapper): positions
    /// and line 1's text are reported as in the file itself, as Node's
    /// `compileFunction` does, with no wrapper in sight.
    pub fn with_wrapper_head(name: impl Into<String>, text: impl Into<String>, prefix: u32) -> Self {
        let source = Self { first_line_start: prefix, ..Self::new(name, text) };
        debug_assert!(source.line_starts().get(1).is_none_or(|&second| second > prefix), "the head is one line");
        source
    }

    /// The script or module this source belongs to.
    pub fn script_or_module(&self) -> ScriptOrModule {
        self.referrer.borrow().clone().unwrap_or_else(|| ScriptOrModule::Script(self.name.clone()))
    }

    /// The 1-based line and column (in UTF-16 units) of a byte offset.
    pub fn line_column(&self, offset: u32) -> (u32, u32) {
        let line_starts = self.line_starts();
        let line = line_starts.partition_point(|&s| s <= offset).max(1);
        let start = line_starts[line - 1] as usize;
        let end = (offset as usize).min(self.text.len());
        let column = self.text.get(start..end).map_or(0, utf16_length);
        (line as u32, column as u32 + 1)
    }

    /// The text of 1-based line `line`, without its line terminator.
    pub fn line_text(&self, line: u32) -> &str {
        let index = (line as usize).saturating_sub(1);
        let line_starts = self.line_starts();
        let start = line_starts.get(index).map_or(self.text.len(), |&s| s as usize);
        let end = line_starts.get(index + 1).map_or(self.text.len(), |&e| e as usize);
        self.text.get(start..end).unwrap_or("").trim_end_matches(['\n', '\r', '\u{2028}', '\u{2029}'])
    }
}

/// The UTF-16 length of `s`: a unit for each character's leading byte and
/// a second one for a 4-byte character's. Counted over the bytes without
/// decoding (a loop the compiler vectorizes), because a minified file's
/// line runs for megabytes and every stack frame in it measures a column.
fn utf16_length(s: &str) -> usize {
    s.bytes().map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum()
}

/// A place in a source text: where an error was made or an exception was
/// thrown, for the report of an uncaught one.
#[derive(Clone, Debug)]
pub struct SourceSite {
    /// The source text.
    pub source: Rc<Source>,
    /// The byte offset in it.
    pub offset: u32,
}

/// Gives code made at run time (eval code, `Function` bodies) the script
/// or module of the code running now.
pub(crate) fn inherit_referrer(vm: &crate::vm::Vm, source: &Source) {
    if let Some(frame) = vm.stack.frames.last() {
        let referrer = frame.code.borrow(&vm.heap).source.script_or_module();
        source.referrer.replace(Some(referrer));
    }
}

/// A binding visible at a direct `eval` call, as the eval code finds it:
/// `depth` environments out from the caller's current environment.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent facts about one binding, as the caller's compiler knew them"
)]
pub struct EvalBinding {
    /// The binding's name.
    pub name: String,
    /// Environments between the call site's environment and the binding's.
    pub depth: u16,
    /// The slot in that environment.
    pub slot: u32,
    /// `let`/`const`/`class`: reads check the TDZ.
    pub lexical: bool,
    /// `const`: writes throw.
    pub constant: bool,
    /// A named function expression's own name: writes are ignored in
    /// sloppy code and throw in strict code.
    pub function_name: bool,
    /// A binding of the caller's variable environment (a `var`, function
    /// or parameter of the function the call is in): a `var` of sloppy
    /// eval code of that name is this binding.
    pub in_var_env: bool,
}

/// The bindings a direct `eval` at one call site can see (innermost
/// first), resolved when the caller was compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalScope {
    /// Visible local bindings, innermost declaration first.
    pub bindings: Vec<EvalBinding>,
    /// Whether the caller is strict.
    pub strict: bool,
    /// The call is inside a class field initialiser or static block, where
    /// eval code may not mention `arguments`.
    pub in_class_element: bool,
    /// Names declared lexically between the call and the caller's variable
    /// environment (and, in parameter expressions, the parameters): a
    /// `var` of sloppy eval code may not redeclare them (§19.2.1.3 step 3).
    pub conflicts: Vec<String>,
    /// Names bound between the call and the variable environment that a
    /// `var` may redeclare (catch parameters, B.3.5).
    pub catch_parameters: Vec<String>,
    /// The caller's variable environment is the global one (the call is
    /// in a script's top level, or in sloppy eval code that is).
    pub var_env_global: bool,
    /// Where the object holding the `var`s eval code adds to the caller's
    /// (function) variable environment is: environments out from the call
    /// site's, and slot.
    pub var_object: Option<(u16, u32)>,
}

impl EvalScope {
    /// The innermost binding called `name`.
    pub fn lookup(&self, name: &str) -> Option<&EvalBinding> {
        self.bindings.iter().find(|b| b.name == name)
    }

    /// Whether a binding `name` exists between the call and the variable
    /// environment (Annex B.3.2.3's `bindingExists`).
    pub fn binds_between(&self, name: &str) -> bool {
        self.conflicts.iter().chain(&self.catch_parameters).any(|n| n == name)
    }
}

/// What kind of function a code block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeKind {
    /// A script's top level.
    Script,
    /// A module's top level (its instantiation or its body).
    Module,
    /// An `eval` body.
    Eval,
    /// A `function` declaration or expression, or a method.
    Normal,
    /// An arrow function: lexical `this`, not constructible.
    Arrow,
    /// A method, getter or setter: not constructible.
    Method,
    /// A generator function or method: calling it makes a generator.
    Generator,
    /// A class constructor: callable only with `new`.
    ClassConstructor {
        /// Whether the class has an `extends` clause.
        derived: bool,
    },
}

/// An exception handler: a throw at `pc` in `start..end` stores the
/// exception in `exception` and continues at `target`.
#[derive(Clone, Copy, Debug)]
pub struct Handler {
    /// First covered instruction.
    pub start: Target,
    /// One past the last covered instruction.
    pub end: Target,
    /// Where the handler starts.
    pub target: Target,
    /// The register receiving the exception.
    pub exception: Reg,
}

/// A compiled function body (a cell, so constants are traced).
pub struct Code {
    /// The function's name (empty for anonymous functions and scripts).
    pub name: Gc<JsString>,
    /// What sort of function this is.
    pub kind: CodeKind,
    /// Strict mode code.
    pub strict: bool,
    /// The instructions (shared, so the interpreter can hold them while it
    /// mutates the heap).
    pub instructions: Rc<[Instruction]>,
    /// Constants: atoms, strings and numbers.
    pub constants: Box<[Value]>,
    /// Nested functions, by [`Instruction::Closure`] index.
    pub functions: Box<[Gc<Code>]>,
    /// Exception handlers, innermost first.
    pub handlers: Box<[Handler]>,
    /// Registers the frame needs (including `this` and the parameters):
    /// more than any register an instruction names (`build_code` makes it
    /// so from [`Instruction::max_register`]), which the interpreter relies
    /// on to access registers unchecked.
    pub register_count: u16,
    /// Declared parameters (registers `1..=param_count`).
    pub param_count: u16,
    /// The function's `length`.
    pub length: u16,
    /// The code makes an arguments object or a rest array
    /// ([`Instruction::CreateArguments`], [`Instruction::CreateRestArray`]),
    /// so a call keeps the arguments past the declared parameters; other
    /// calls drop them (nothing else can read them).
    pub reads_extra_arguments: bool,
    /// Inline caches this code uses.
    pub ic_count: u32,
    /// The VM's inline-cache table for this code (assigned on load).
    pub ic_table: u32,
    /// Instruction index → source byte offset, sorted by instruction.
    pub positions: Box<[(u32, u32)]>,
    /// Where the function's source text starts and ends.
    pub span: (u32, u32),
    /// Scope tables of this code's direct `eval` call sites.
    pub eval_scopes: Box<[Rc<EvalScope>]>,
    /// For a mapped arguments object: the environment slot of each
    /// parameter (`u32::MAX` for a name a later parameter shadows).
    pub mapped_parameters: Rc<[u32]>,
    /// An async function: its calls return a promise.
    pub is_async: bool,
    /// The source.
    pub source: Rc<Source>,
    /// The realm the code was loaded into. Every function made from it
    /// belongs to that realm, so this is their `[[Realm]]`: keeping it here
    /// rather than in each function object keeps those objects small.
    pub realm: crate::realm::RealmId,
}

impl Code {
    /// A readable listing: one instruction per line with its index, then
    /// the exception handlers. Constants print by pool index.
    pub fn disassemble(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for (pc, instruction) in self.instructions.iter().enumerate() {
            let _ = writeln!(out, "{pc:4}  {instruction:?}");
        }
        for h in &*self.handlers {
            let _ = writeln!(out, "handler {}..{} -> {} (exception in {:?})", h.start, h.end, h.target, h.exception);
        }
        out
    }

    /// The source byte offset of instruction `pc`.
    pub fn position(&self, pc: u32) -> u32 {
        let i = self.positions.partition_point(|&(p, _)| p <= pc);
        if i == 0 { self.span.0 } else { self.positions[i - 1].1 }
    }
}

// SAFETY: name, constants and nested functions are the edges.
unsafe impl Trace for Code {
    fn trace(&self, tracer: &mut Tracer) {
        self.name.trace(tracer);
        self.constants.trace(tracer);
        self.functions.trace(tracer);
    }

    fn type_name() -> &'static str {
        "Code"
    }
}

#[cfg(test)]
mod tests {
    use super::{Source, utf16_length};

    #[test]
    fn line_and_column() {
        let s = Source::new("x.js", "ab\ncd→e\r\nf");
        assert_eq!(s.line_column(0), (1, 1));
        assert_eq!(s.line_column(4), (2, 2));
        assert_eq!(s.line_column(8), (2, 4));
        assert_eq!(s.line_column(11), (3, 1));
        for text in ["", "ascii", "é", "\u{2028}", "😀x", "aé😀\u{FFFF}z"] {
            assert_eq!(utf16_length(text), text.encode_utf16().count(), "{text:?}");
        }
    }
}
