// SyntaxError messages in V8's words: what the parser found, not what it
// expected.
const sources = [
  'let y = ;', 'a b', 'f(', 'var x = if;', '1 2', "x 'a'", 'x `t`', '}', 'let let = 1', '({a:1', 'for(;;',
  'a => {', 'return 1', 'x = 08n', 'var 1a', 'class { }', 'let x; let x;', 'break', 'a + ', 'x = {a b}',
  'function f() { return a +* 2; }', 'if (x) else y', 'var [a = ] = []', 'obj = {get x( {}}',
];
for (const source of sources) {
  try {
    eval(source);
    console.log('parsed', JSON.stringify(source));
  } catch (e) {
    console.log(JSON.stringify(source), e.name, e.message);
  }
}
for (const body of ['return )', 'x y']) {
  try {
    new Function(body);
  } catch (e) {
    console.log('Function', JSON.stringify(body), e.name, e.message);
  }
}
