//! `RegExp` features newer than node 20 (so the node-differential programs
//! can't check them): `RegExp.escape`, duplicate named groups in different
//! alternatives, and pattern modifiers.

mod support;

#[test]
fn regexp_escape_escapes_what_could_change_meaning() {
    let out = support::run_capturing(
        "escape.js",
        r#"
console.log(RegExp.escape("a.b*c"));
console.log(RegExp.escape("1+1=2"));
console.log(RegExp.escape("foo bar\n/\u2028_"));
console.log(RegExp.escape("\ud800x\u00e9\u{1F600}"));
console.log(new RegExp(RegExp.escape("(x)?")).test("a(x)?b"));
try { RegExp.escape(1); } catch (e) { console.log(e.constructor.name); }
"#,
    );
    assert_eq!(
        out,
        "\\x61\\.b\\*c\n\\x31\\+1\\x3d2\n\\x66oo\\x20bar\\n\\/\\u2028_\n\\ud800x\u{e9}\u{1F600}\ntrue\nTypeError\n"
    );
}

#[test]
fn duplicate_named_groups_take_the_participating_group() {
    let out = support::run_capturing(
        "duplicate-groups.js",
        r#"
const re = /(?<year>\d{4})-\d\d|\d\d-(?<year>\d{4})/;
console.log(re.exec("2024-05").groups.year, re.exec("05-1999").groups.year);
console.log("12-2020".replace(re, "$<year>"));
console.log(/(?i:a)b/.test("Ab"), /(?i:a)b/.test("AB"));
"#,
    );
    assert_eq!(out, "2024 1999\n2020\ntrue false\n");
}
