//! The export names an ES module importing a CommonJS module sees, found
//! statically as Node's cjs-module-lexer finds them: `exports.a =`,
//! `module.exports.a =` (anywhere in the text), `Object.defineProperty`
//! of `exports` with a `value` or a plain getter, the identifier and
//! string keys of `module.exports = { ... }`, and re-exports
//! (`module.exports = require('x')`, `...require('x')` in that literal).

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    AssignmentExpression, AssignmentOperator, AssignmentTarget, CallExpression, Expression, ObjectExpression,
    ObjectPropertyKind, PropertyKey, Statement,
};
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, SourceType};

/// What the scan found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CjsExports {
    /// Export names, in the order first seen.
    pub names: Vec<String>,
    /// Specifiers whose exports are re-exported.
    pub reexports: Vec<String>,
}

impl CjsExports {
    fn add(&mut self, name: &str) {
        if !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_owned());
        }
    }
}

/// Scans CommonJS source text. Text that does not parse exports nothing
/// (running it throws the SyntaxError).
pub fn scan(text: &str) -> CjsExports {
    let allocator = Allocator::default();
    let options = oxc_parser::ParseOptions { allow_return_outside_function: true, ..Default::default() };
    let parsed = oxc_parser::Parser::new(&allocator, text, SourceType::script()).with_options(options).parse();
    let mut found = Scanner { text, exports: CjsExports::default() };
    if parsed.panicked || parsed.diagnostics.errors().next().is_some() {
        return found.exports;
    }
    found.visit_program(&parsed.program);
    found.exports
}

struct Scanner<'t> {
    text: &'t str,
    exports: CjsExports,
}

/// `exports` or `module.exports`.
fn is_exports_object(e: &Expression<'_>) -> bool {
    e.is_specific_id("exports") || e.is_specific_member_access("module", "exports")
}

/// The specifier of `require('x')`.
fn require_specifier<'a>(e: &Expression<'a>) -> Option<&'a str> {
    let Expression::CallExpression(call) = e.get_inner_expression() else { return None };
    if !call.callee.is_specific_id("require") || call.arguments.len() != 1 {
        return None;
    }
    match call.arguments[0].as_expression() {
        Some(Expression::StringLiteral(s)) => Some(s.value.as_str()),
        _ => None,
    }
}

/// A value the lexer reads as one word token: it continues past it.
fn is_single_word(e: &Expression<'_>) -> bool {
    matches!(
        e,
        Expression::Identifier(_)
            | Expression::BooleanLiteral(_)
            | Expression::NullLiteral(_)
            | Expression::ThisExpression(_)
    )
}

/// `return a.b.c;`: the only getter body the lexer accepts.
fn is_plain_getter_body(statements: &[Statement<'_>]) -> bool {
    let [Statement::ReturnStatement(ret)] = statements else { return false };
    let Some(argument) = &ret.argument else { return false };
    let mut e = argument;
    loop {
        match e {
            Expression::Identifier(_) => return true,
            Expression::StaticMemberExpression(m) => e = &m.object,
            Expression::ComputedMemberExpression(m) if matches!(m.expression, Expression::StringLiteral(_)) => {
                e = &m.object;
            }
            _ => return false,
        }
    }
}

impl Scanner<'_> {
    /// Whether the source text of `e` starts with an identifier character.
    fn starts_with_word(&self, e: &Expression<'_>) -> bool {
        self.text[e.span().start as usize..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '$' || c == '_' || c == '\\')
    }

    /// `module.exports = { ... }`.
    fn object_literal(&mut self, object: &ObjectExpression<'_>) {
        for property in &object.properties {
            match property {
                ObjectPropertyKind::SpreadProperty(spread) => {
                    if let Some(specifier) = require_specifier(&spread.argument) {
                        self.exports.reexports.push(specifier.to_owned());
                    }
                }
                ObjectPropertyKind::ObjectProperty(p) => {
                    if p.computed || p.method || p.kind != oxc_ast::ast::PropertyKind::Init {
                        return;
                    }
                    let name = match &p.key {
                        PropertyKey::StaticIdentifier(id) => id.name.as_str(),
                        PropertyKey::StringLiteral(s) => s.value.as_str(),
                        _ => return,
                    };
                    if p.shorthand {
                        self.exports.add(name);
                        continue;
                    }
                    if !self.starts_with_word(&p.value) {
                        return;
                    }
                    self.exports.add(name);
                    if !is_single_word(&p.value) {
                        return;
                    }
                }
            }
        }
    }

    /// `Object.defineProperty(exports, 'name', { value | get })`.
    fn define_property(&mut self, call: &CallExpression<'_>) {
        if !call.callee.is_specific_member_access("Object", "defineProperty") || call.arguments.len() < 3 {
            return;
        }
        let (Some(target), Some(Expression::StringLiteral(name)), Some(Expression::ObjectExpression(descriptor))) =
            (call.arguments[0].as_expression(), call.arguments[1].as_expression(), call.arguments[2].as_expression())
        else {
            return;
        };
        if !is_exports_object(target) {
            return;
        }
        let mut properties = descriptor.properties.iter().filter_map(|p| match p {
            ObjectPropertyKind::ObjectProperty(p) => Some(p),
            ObjectPropertyKind::SpreadProperty(_) => None,
        });
        let mut first = properties.next();
        let key_is = |p: &oxc_ast::ast::ObjectProperty<'_>, k: &str| p.key.static_name().is_some_and(|n| n == k);
        if first.is_some_and(|p| key_is(p, "value")) {
            self.exports.add(name.value.as_str());
            return;
        }
        if first
            .is_some_and(|p| key_is(p, "enumerable") && matches!(p.value, Expression::BooleanLiteral(ref b) if b.value))
        {
            first = properties.next();
        }
        let Some(getter) = first.filter(|p| key_is(p, "get")) else { return };
        let body = match &getter.value {
            Expression::FunctionExpression(f) => f.body.as_ref(),
            _ => None,
        };
        if body.is_some_and(|b| is_plain_getter_body(&b.statements)) {
            self.exports.add(name.value.as_str());
        }
    }
}

impl<'a> Visit<'a> for Scanner<'_> {
    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        if it.operator == AssignmentOperator::Assign {
            match &it.left {
                AssignmentTarget::StaticMemberExpression(m) if is_exports_object(&m.object) => {
                    self.exports.add(m.property.name.as_str());
                }
                AssignmentTarget::ComputedMemberExpression(m) if is_exports_object(&m.object) => {
                    if let Expression::StringLiteral(s) = &m.expression {
                        self.exports.add(s.value.as_str());
                    }
                }
                AssignmentTarget::StaticMemberExpression(m)
                    if m.object.is_specific_id("module") && m.property.name == "exports" =>
                {
                    if let Some(specifier) = require_specifier(&it.right) {
                        self.exports.reexports.push(specifier.to_owned());
                    } else if let Expression::ObjectExpression(object) = it.right.get_inner_expression() {
                        self.object_literal(object);
                    }
                }
                _ => {}
            }
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.define_property(it);
        walk::walk_call_expression(self, it);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        scan(text).names
    }

    #[test]
    fn assignments_anywhere_are_exports() {
        let text = "exports.a = 1; exports['b'] = 2; module.exports.c = 3; function f() { exports.d = 4 }\n\
                    var x = exports.y; exports.z += 1;";
        assert_eq!(names(text), ["a", "b", "c", "d"]);
    }

    #[test]
    fn object_literals_stop_where_the_lexer_stops() {
        assert_eq!(names("module.exports = { a, 'b': b, c: c, ...d, e: require('x'), f: g }"), ["a", "b", "c", "e"]);
        assert!(names("module.exports = { p: 1, q }").is_empty());
        assert_eq!(names("module.exports = { x: true, y: null, z: this, w }"), ["x", "y", "z", "w"]);
    }

    #[test]
    fn define_property_forms() {
        let text = "Object.defineProperty(exports, 'g1', { enumerable: true, get: function () { return m.e; } });\n\
                    Object.defineProperty(exports, 'g2', { enumerable: true, get() { return m; } });\n\
                    Object.defineProperty(module.exports, 'g4', { value: 1 });\n\
                    Object.defineProperty(exports, 'g5', { writable: true, value: 1 });\n\
                    Object.defineProperty(exports, 'g6', { get: function () { return 1; } });";
        assert_eq!(names(text), ["g1", "g2", "g4"]);
    }

    #[test]
    fn reexports() {
        let found = scan("module.exports = require('./a'); module.exports = { ...require('b'), r };");
        assert_eq!(found.reexports, ["./a", "b"]);
        assert_eq!(found.names, ["r"]);
        assert_eq!(scan("module.exports = ").names, Vec::<String>::new());
    }
}
