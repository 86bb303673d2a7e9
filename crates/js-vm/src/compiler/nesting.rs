//! A conservative bound on how deep oxc's parser will recurse, computed
//! from the source text before parsing.
//!
//! oxc's parser (and its semantic analysis) recurse once per level of
//! nesting and have no depth limit of their own; the compiler runs them on
//! a large stack, but input a few hundred kilobytes long can nest deeper
//! than any stack. So the text is scanned first, and nesting that could
//! exhaust the stack is a RangeError:
//!
//! * **Brackets** (`(`, `[`, `{`, and `${` in template literals) at most
//!   [`MAX_BRACKET_NESTING`] deep.
//! * **Right-nesting tokens** — prefix operators (`!`, `~`, unary `+`/`-`,
//!   `typeof`, `void`, `delete`, `await`, `yield`, `new`), assignments,
//!   `?`, `:` (labels), `=>`, `**`, `extends`, and statement keywords
//!   whose body may be a
//!   single statement (`if`, `else`, `with`, `while`, `for`, `do`) — each
//!   may open one more level of the parser's recursion without a bracket.
//!   Their count since the last `;` or `,` of the same bracket (inherited
//!   from the enclosing brackets) is at most [`MAX_TOKEN_NESTING`].
//! * **`else` chains**: an `else` right after the end of a statement
//!   continues the `if` before it, and the parser recurses once more for
//!   each link of `if (a) …; else if (b) …; else …`, however each link's
//!   body ends. So the `else`s of a chain are counted together (from the
//!   bracket's base) until a statement ends without an `else` after it.
//!
//! A chain ends at a `;` or `,`, at a line break that ends a statement
//! (an operand, a line break, the start of another operand), and a
//! statement word's count ends with the `}` of its block body.
//! String literals, comments and template text are skipped, so their
//! contents never count. The bound over-counts (a `;` inside a brace-less
//! `if` body does not end the `if`, but resets the count only to the
//! bracket's base), which is why the token limit is far above what written
//! code reaches: real programs nest a few dozen levels deep.

use super::{CResult, CompileError};

/// Bracket nesting the parser may see.
pub(super) const MAX_BRACKET_NESTING: usize = 1_000;

/// Right-nesting tokens (see the module docs) the parser may see in one
/// expression or statement chain.
pub(super) const MAX_TOKEN_NESTING: usize = 10_000;

/// Expression words that open a level of the parser's recursion.
const NESTING_WORDS: &[&[u8]] = &[b"typeof", b"void", b"delete", b"await", b"yield", b"new", b"extends"];

/// Statement words whose body may be one statement: each nests the
/// parser one level until the statement ends (at its `;`, or at the `}` of
/// its block body).
const STATEMENT_WORDS: &[&[u8]] = &[b"if", b"else", b"with", b"while", b"for", b"do"];

/// Words that continue an expression on the next line, so a line break
/// before them does not end a statement.
const CONTINUING_WORDS: &[&[u8]] = &[b"in", b"instanceof", b"of", b"else"];

/// What the scanner is inside of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// A bracket of code: the token count to reset to at a `;` or `,`
    /// inside it, and the count to restore when it closes (for a `{`, the
    /// count before the statement words that own it as their body).
    /// `words` is the count of statement words pending before a `(` or
    /// `[`, pending again after it closes (`if (a)` still awaits its body).
    /// `chain` is the `else` chain the bracket interrupts, continued after
    /// it closes.
    Bracket { base: usize, restore: usize, words: usize, chain: usize },
    /// `${` ... `}` inside a template literal; holds the token count when
    /// it opened.
    Substitution(usize),
}

impl Frame {
    fn base(self) -> usize {
        match self {
            Frame::Bracket { base, .. } | Frame::Substitution(base) => base,
        }
    }
}

/// The counts of the chain the scanner is in.
#[derive(Default)]
struct Chain {
    /// Right-nesting tokens counted.
    tokens: usize,
    /// Statement words counted since the statement began: a block body
    /// ends them.
    statement_words: usize,
    /// `else`s of the current if-else chain.
    elses: usize,
    /// Whether a statement just ended: an `else` next continues the if-else
    /// chain, anything else ends it.
    statement_ended: bool,
}

impl Chain {
    /// A statement (or a comma's operand) ended: back to the bracket's
    /// `base`.
    fn end(&mut self, base: usize, statement: bool) {
        self.tokens = base;
        self.statement_words = 0;
        self.statement_ended = statement;
    }

    /// Opens bracket `b`.
    fn open(&mut self, b: u8) -> Frame {
        let (restore, words) =
            if b == b'{' { (self.tokens - self.statement_words, 0) } else { (self.tokens, self.statement_words) };
        let frame = Frame::Bracket { base: self.tokens, restore, words, chain: self.elses };
        self.statement_words = 0;
        self.elses = 0;
        frame
    }

    /// Counts `word` (in a bracket whose base is `base`); returns whether
    /// it opens a level of nesting.
    fn word(&mut self, word: &[u8], base: usize) -> bool {
        // `a.if` or `{ if: 1 }` are property names, harmlessly counted.
        if NESTING_WORDS.contains(&word) {
            self.tokens += 1;
            true
        } else if STATEMENT_WORDS.contains(&word) {
            if word == b"else" {
                self.elses += 1;
                self.tokens = self.tokens.max(base + self.elses);
            }
            self.tokens += 1;
            self.statement_words += 1;
            true
        } else {
            false
        }
    }
}

fn too_deep() -> CompileError {
    CompileError::Range("Maximum nesting depth exceeded while parsing".to_owned())
}

/// Fails with a RangeError when `text` may nest deeper than the parser's
/// stack allows (see the module docs).
pub(super) fn check_nesting(text: &str) -> CResult<()> {
    let bytes = text.as_bytes();
    let mut frames: Vec<Frame> = Vec::new();
    let mut chain = Chain::default();
    // The last significant (non-space) byte of code, to tell a prefix
    // `+`/`-` from a binary one and a statement-ending line break.
    let mut previous = b';';
    let mut line_break = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line_break = true;
        }
        if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
            continue;
        }
        if b == b'/' && matches!(bytes.get(i + 1), Some(b'/' | b'*')) {
            i = skip_comment(bytes, i);
            continue;
        }
        let base = frames.last().map_or(0, |f| f.base());
        // A line break between an operand and the start of another one
        // ends a statement (automatic semicolon insertion), unless a word
        // that continues the expression follows.
        if std::mem::take(&mut line_break) && ends_operand(previous) && starts_operand(b) && !continues(bytes, i) {
            chain.end(base, true);
        }
        if std::mem::take(&mut chain.statement_ended) && !is_word(bytes, i, b"else") {
            chain.elses = 0;
        }
        match b {
            b'"' | b'\'' => {
                i = skip_string(bytes, i);
                previous = b'"';
                continue;
            }
            b'`' => {
                i = enter_template(bytes, i + 1, &mut frames, chain.tokens)?;
                previous = b'"';
                continue;
            }
            b'(' | b'[' | b'{' => {
                frames.push(chain.open(b));
                if frames.len() > MAX_BRACKET_NESTING {
                    return Err(too_deep());
                }
            }
            b')' | b']' | b'}' => match frames.pop() {
                Some(Frame::Bracket { restore, words, chain: elses, .. }) => {
                    chain = Chain { tokens: restore, statement_words: words, elses, statement_ended: b == b'}' };
                }
                Some(Frame::Substitution(outer)) => {
                    // Back in template text: skip to its end or the next
                    // substitution.
                    chain.tokens = outer;
                    i = enter_template(bytes, i + 1, &mut frames, chain.tokens)?;
                    previous = b'"';
                    continue;
                }
                None => {}
            },
            b';' | b',' => chain.end(base, b == b';'),
            // `!=` and `?.`/`??` do not nest; counting them anyway only
            // over-estimates. Assignments and `=>` nest to the right;
            // comparisons (`==`, `<=`) are counted too, harmlessly.
            // A label (`l:`) nests the statement it labels; counting every
            // `:` (conditionals, properties, `case`) only over-estimates.
            b'!' | b'~' | b'?' | b'=' | b':' => chain.tokens += 1,
            b'+' | b'-' if !ends_operand(previous) => chain.tokens += 1,
            b'*' if bytes.get(i + 1) == Some(&b'*') => {
                chain.tokens += 1;
                i += 1;
            }
            _ if is_word_byte(b) => {
                let start = i;
                while i < bytes.len() && is_word_byte(bytes[i]) {
                    i += 1;
                }
                previous = if chain.word(&bytes[start..i], base) { b'(' } else { b'a' };
                if chain.tokens > MAX_TOKEN_NESTING {
                    return Err(too_deep());
                }
                continue;
            }
            _ => {}
        }
        if chain.tokens > MAX_TOKEN_NESTING {
            return Err(too_deep());
        }
        previous = b;
        i += 1;
    }
    Ok(())
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Whether `previous` ends an operand (a `+` or `-` after it is binary; a
/// line break after it may end the statement).
fn ends_operand(previous: u8) -> bool {
    is_word_byte(previous) || matches!(previous, b')' | b']' | b'}' | b'"')
}

/// Whether `b` starts an operand or a statement.
fn starts_operand(b: u8) -> bool {
    is_word_byte(b) || matches!(b, b'"' | b'\'' | b'`')
}

/// Whether the word at `i` is `word`.
fn is_word(bytes: &[u8], i: usize, word: &[u8]) -> bool {
    bytes[i..].starts_with(word) && !bytes.get(i + word.len()).is_some_and(|&b| is_word_byte(b))
}

/// Whether the word at `i` continues the expression before a line break.
fn continues(bytes: &[u8], i: usize) -> bool {
    let end = bytes[i..].iter().position(|&b| !is_word_byte(b)).map_or(bytes.len(), |n| i + n);
    CONTINUING_WORDS.contains(&&bytes[i..end])
}

/// The index after the comment starting at `start`.
fn skip_comment(bytes: &[u8], start: usize) -> usize {
    if bytes[start + 1] == b'/' {
        bytes[start..].iter().position(|&c| c == b'\n').map_or(bytes.len(), |n| start + n)
    } else {
        bytes[start + 2..].windows(2).position(|w| w == b"*/").map_or(bytes.len(), |n| start + 2 + n + 2)
    }
}

/// Skips template text from `start`; at a `${`, opens a substitution frame.
/// Returns where scanning continues.
fn enter_template(bytes: &[u8], start: usize, frames: &mut Vec<Frame>, tokens: usize) -> CResult<usize> {
    match skip_template_text(bytes, start) {
        TemplateEnd::Closed(next) => Ok(next),
        TemplateEnd::Substitution(next) => {
            frames.push(Frame::Substitution(tokens));
            if frames.len() > MAX_BRACKET_NESTING {
                return Err(too_deep());
            }
            Ok(next)
        }
    }
}

/// The index after the string literal starting at `start` (its quote).
fn skip_string(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Where template text ends.
enum TemplateEnd {
    /// At the closing backtick; the index after it.
    Closed(usize),
    /// At a `${`; the index after it.
    Substitution(usize),
}

/// Skips template text starting at `start` (just after a backtick or the
/// `}` of a substitution).
fn skip_template_text(bytes: &[u8], start: usize) -> TemplateEnd {
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => return TemplateEnd::Closed(i + 1),
            b'$' if bytes.get(i + 1) == Some(&b'{') => return TemplateEnd::Substitution(i + 2),
            _ => i += 1,
        }
    }
    TemplateEnd::Closed(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepted(text: &str) -> bool {
        check_nesting(text).is_ok()
    }

    #[test]
    fn ordinary_code_passes() {
        assert!(accepted("function f(a, b) { if (a) { return b ? -a : +b; } else if (b) return !a; }"));
        assert!(accepted(&"x = a ? b : c;\n".repeat(100_000)));
        assert!(accepted(&format!("var s = [{}];", "-1, ".repeat(100_000))));
        assert!(accepted(&format!("var n = {};", "a - b + ".repeat(50_000) + "c")));
    }

    #[test]
    fn brackets_in_strings_comments_and_template_text_do_not_count() {
        let deep = "(".repeat(5_000);
        assert!(accepted(&format!("var s = \"{deep}\";")));
        assert!(accepted(&format!("var s = '{deep}';")));
        assert!(accepted(&format!("// {deep}\n1")));
        assert!(accepted(&format!("/* {deep} */ 1")));
        assert!(accepted(&format!("var s = `{deep}${{1}}{deep}`;")));
    }

    #[test]
    fn deep_brackets_and_substitutions_fail() {
        assert!(!accepted(&format!("{}1{}", "(".repeat(2_000), ")".repeat(2_000))));
        assert!(!accepted(&format!("{}1{}", "`${".repeat(2_000), "}`".repeat(2_000))));
    }

    #[test]
    fn long_right_nesting_chains_fail() {
        for chain in
            ["a ? b : ", "l: ", "a = ", "() => ", "!", "typeof ", "await ", "if (a) ", "- ", "2 ** ", "a ? b\n: "]
        {
            let text = format!("{}1", chain.repeat(MAX_TOKEN_NESTING + 1));
            assert!(!accepted(&text), "{chain}");
        }
    }

    #[test]
    fn long_else_chains_fail_however_their_links_end() {
        for link in ["if (a) ; else ", "if (a) {} else ", "if (a) b()\nelse ", "if (a) { b() } else\n"] {
            let text = format!("{}c();", link.repeat(MAX_TOKEN_NESTING + 1));
            assert!(!accepted(&text), "{link:?}");
        }
        let nested = format!("{{ {}c(); }}", "if (a) { if (b) c() } else ".repeat(MAX_TOKEN_NESTING + 1));
        assert!(!accepted(&nested), "links whose bodies hold other statements");
    }

    #[test]
    fn separate_if_else_statements_do_not_chain() {
        assert!(accepted(&"if (a) b(); else c();\n".repeat(MAX_TOKEN_NESTING * 2)));
        assert!(accepted(&"if (a) { b() } else { c() } elsewhere();".repeat(MAX_TOKEN_NESTING * 2)));
    }

    #[test]
    fn statements_with_block_bodies_and_asi_lines_end_a_chain() {
        assert!(accepted(&"if (a) { b = c } else { d = !e }\n".repeat(MAX_TOKEN_NESTING)));
        assert!(accepted(&"const a = b\n".repeat(MAX_TOKEN_NESTING * 2)));
        assert!(accepted(&"while (a) b = c;\n".repeat(MAX_TOKEN_NESTING)));
        assert!(accepted(&"if(a){b=c}else{d=!e}".repeat(MAX_TOKEN_NESTING)));
    }

    #[test]
    fn statements_and_commas_end_a_chain() {
        assert!(accepted(&"a = b = c;".repeat(MAX_TOKEN_NESTING)));
        assert!(accepted(&format!("[{}]", "!a, ".repeat(MAX_TOKEN_NESTING * 2))));
    }
}
