//! Node's wording of the parser's complaints. oxc's diagnostics say what
//! the parser expected ("Expected `)` but found `EOF`"); V8 names what it
//! found ("Unexpected end of input", "Unexpected identifier 'x'"), and
//! programs print that message, so the common ones are reworded here.

/// Reserved words V8 reports as tokens rather than identifiers.
const KEYWORDS: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// V8's message for oxc's `message`, whose label covers `start..end` of
/// `text`.
pub(super) fn v8_message(message: &str, text: &str, start: u32, end: u32) -> String {
    let names_found_token = message == "Unexpected token"
        || message.starts_with("Expected a semicolon")
        || (message.starts_with("Expected `") && message.contains("but found"));
    if names_found_token {
        return unexpected_token(text, start, end);
    }
    match message {
        // The label is on `class`; V8 names the token after it.
        "A class name is required." => unexpected_token(text, end, end),
        "A 'return' statement can only be used within a function body." => "Illegal return statement".to_owned(),
        "Invalid characters after number" => "Invalid or unexpected token".to_owned(),
        "`let` cannot be declared as a variable name inside of a `let` declaration" => {
            "let is disallowed as a lexically bound name".to_owned()
        }
        _ if message.ends_with("has already been declared") => message.replace('`', "'"),
        _ => message.to_owned(),
    }
}

/// The token at `start..end` of `text`; for an empty span, the token that
/// starts after the whitespace at `start`.
fn token_at(text: &str, start: u32, end: u32) -> &str {
    let (start, end) = (start as usize, end as usize);
    if end > start {
        return text.get(start..end).unwrap_or("");
    }
    let rest = text.get(start..).unwrap_or("").trim_start();
    let Some(first) = rest.chars().next() else { return "" };
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let len = if is_word(first) { rest.find(|c: char| !is_word(c)).unwrap_or(rest.len()) } else { first.len_utf8() };
    &rest[..len]
}

/// "Unexpected …" for the token at `start..end` of `text`.
fn unexpected_token(text: &str, start: u32, end: u32) -> String {
    let token = token_at(text, start, end);
    let Some(first) = token.chars().next() else { return "Unexpected end of input".to_owned() };
    if first.is_ascii_digit() || (first == '.' && token.len() > 1) {
        "Unexpected number".to_owned()
    } else if first == '"' || first == '\'' {
        "Unexpected string".to_owned()
    } else if first == '`' {
        "Unexpected template string".to_owned()
    } else if KEYWORDS.contains(&token) {
        format!("Unexpected token '{token}'")
    } else if first.is_alphabetic() || first == '_' || first == '$' {
        format!("Unexpected identifier '{token}'")
    } else if first.is_ascii_punctuation() {
        format!("Unexpected token '{token}'")
    } else {
        "Invalid or unexpected token".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::{unexpected_token, v8_message};

    #[test]
    fn names_the_token_as_v8_does() {
        let text = "let y = ; x foo if 12 'a' `t`";
        assert_eq!(unexpected_token(text, 8, 9), "Unexpected token ';'");
        assert_eq!(unexpected_token(text, 12, 15), "Unexpected identifier 'foo'");
        assert_eq!(unexpected_token(text, 11, 11), "Unexpected identifier 'foo'");
        assert_eq!(unexpected_token(text, 16, 18), "Unexpected token 'if'");
        assert_eq!(unexpected_token(text, 19, 21), "Unexpected number");
        assert_eq!(unexpected_token(text, 22, 25), "Unexpected string");
        assert_eq!(unexpected_token(text, 26, 29), "Unexpected template string");
        assert_eq!(unexpected_token("f(", 2, 2), "Unexpected end of input");
    }

    #[test]
    fn rewords_what_oxc_expected() {
        assert_eq!(v8_message("Expected `)` but found `EOF`", "f(", 2, 2), "Unexpected end of input");
        assert_eq!(
            v8_message("Identifier `x` has already been declared", "", 0, 0),
            "Identifier 'x' has already been declared"
        );
        assert_eq!(v8_message("Something else", "", 0, 0), "Something else");
    }
}
