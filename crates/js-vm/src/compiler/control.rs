//! The compiler's control stack: what a `break`, `continue` or `return`
//! crosses on its way out (loops, labels, environments, iterators, `try`
//! regions and their `finally` blocks).

use oxc_ast::ast::BlockStatement;

use crate::bytecode::Reg;

/// One entry of the control stack.
pub(crate) enum Control<'a> {
    /// A loop or switch: `break` targets; loops also take `continue`.
    Breakable {
        /// Labels naming this statement.
        labels: Vec<String>,
        /// Whether `continue` may target it.
        is_loop: bool,
        /// Jumps to patch to the statement's end.
        breaks: Vec<usize>,
        /// Jumps to patch to the loop's continue point.
        continues: Vec<usize>,
    },
    /// A labelled non-loop statement: only labelled `break`.
    Labelled {
        /// The label.
        label: String,
        /// Jumps to patch to the statement's end.
        breaks: Vec<usize>,
    },
    /// An environment pushed for a scope: exits pop it.
    Env,
    /// A `for-of` iterator: exits close it.
    Iterator {
        /// The register holding the iterator record.
        record: Reg,
        /// For `for await`: the scratch and mode registers of the awaited
        /// `return` call.
        async_regs: Option<(Reg, Reg)>,
    },
    /// A statement list with `using` declarations: exits dispose its
    /// resources (see [`super::using`]).
    Dispose(super::using::DisposeScope),
    /// A protected region of a `try` statement.
    Try {
        /// Closed instruction ranges covered so far.
        ranges: Vec<(u32, u32)>,
        /// Start of the open range, if one is open.
        open: Option<u32>,
        /// The `finally` block to run on exits, if any.
        finalizer: Option<&'a BlockStatement<'a>>,
    },
}
