//! The report printed when an exception escapes the program or a promise
//! rejection is never handled, laid out as Node lays it out: the source
//! line with a caret under the throw site (for a rejected error, where the
//! error was made), a blank line, the value as `console.error` shows it,
//! and the engine's version.

use std::fmt::Write;

use crate::bytecode::SourceSite;
use crate::object::ObjectKind;
use crate::value::Value;
use crate::vm::Vm;

/// How a value escaped the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Uncaught {
    /// Thrown and not caught (by the script or by a host callback).
    Exception,
    /// The reason of a promise rejected without a handler.
    Rejection,
}

/// Node's explanation for a rejection whose reason is not an error.
const UNHANDLED_REJECTION: &str = "This error originated either by throwing inside of an async function without a \
     catch block, or by rejecting a promise which was not handled with .catch().";

impl Vm {
    /// The whole report for `value` escaping as `how`, ready for stderr.
    pub(crate) fn uncaught_report(&mut self, value: Value, how: Uncaught) -> String {
        let error_site = value.as_object().and_then(|o| match &o.borrow(&self.heap).kind {
            ObjectKind::Error { site, .. } => Some(site.clone()),
            _ => None,
        });
        let is_error = error_site.is_some();
        let site = match how {
            // An error that escaped without being thrown by code (a
            // script's or module's SyntaxError) is reported where it was
            // made.
            Uncaught::Exception => self
                .stack
                .throw_site
                .as_ref()
                .filter(|(thrown, _)| *thrown == value)
                .map(|(_, site)| site.clone())
                .or_else(|| error_site.clone().flatten()),
            Uncaught::Rejection => error_site.flatten(),
        };
        let mut report = site.map(|site| source_excerpt(&site)).unwrap_or_default();
        if how == Uncaught::Rejection && !is_error {
            let reason = self.rejection_reason_text(value);
            let _ = write!(
                report,
                "[UnhandledPromiseRejection: {UNHANDLED_REJECTION} The promise rejected with the reason \"{reason}\".] \
                 {{\n  code: 'ERR_UNHANDLED_REJECTION'\n}}"
            );
        } else {
            if is_error && !report.is_empty() {
                report.push('\n');
            }
            let shown = crate::host::console::inspect(self, value).unwrap_or_else(|_| "exception".to_owned());
            report.push_str(&shown);
        }
        let _ = write!(report, "\n\njsvm v{}", env!("CARGO_PKG_VERSION"));
        report
    }

    /// A rejection reason as V8 writes it into that message: primitives as
    /// `ToString` does, objects as `#<Constructor>`.
    fn rejection_reason_text(&mut self, value: Value) -> String {
        if value.is_object() {
            let name = self.constructor_name(value).unwrap_or_else(|| "Object".to_owned());
            return format!("#<{name}>");
        }
        if let Some(symbol) = value.as_symbol() {
            let description = symbol.borrow(&self.heap).description;
            let text = description.map(|d| crate::interpreter::string_text(self, d)).unwrap_or_default();
            return format!("Symbol({text})");
        }
        self.rust_string(value).unwrap_or_default()
    }
}

/// `file:line`, the line, and a caret under the site's column.
fn source_excerpt(site: &SourceSite) -> String {
    let (line, column) = site.source.line_column(site.offset);
    let text = site.source.line_text(line);
    let caret_indent = " ".repeat(column.saturating_sub(1) as usize);
    format!("{}:{line}\n{text}\n{caret_indent}^\n", site.source.name)
}
