//! The resume call cache (js-microtask's `CallCache`, keyed by the
//! executable's `Gc<Code>`) as the engine uses it: async functions taking
//! turns hit once warm, as long as they fit its 32 entries, with addresses
//! straight from the heap as the set-selecting identity. `$vm` is
//! jsvm-only, so this is not a node-differential program.

mod support;

/// Runs `functions` distinct async functions taking turns for `rounds`
/// rounds (each turn suspends once on an `await` and resumes) and prints
/// the cache counters for the last half of the rounds.
fn turns(functions: usize, rounds: usize) -> String {
    let program = format!(
        r"
const makers = [];
for (let i = 0; i < {functions}; i++) {{
  // A separate executable per function: `new Function` compiles anew.
  makers.push(new Function('return async function f' + i + '(x) {{ await x; return x + ' + i + '; }}')());
}}
async function main() {{
  let before;
  for (let round = 0; round < {rounds}; round++) {{
    if (round === {rounds} / 2) before = $vm.callCacheStats();
    await Promise.all(makers.map((f) => f(round)));
  }}
  const after = $vm.callCacheStats();
  console.log('hits', after.hits - before.hits, 'misses', after.misses - before.misses,
    'evictions', after.evictions - before.evictions);
}}
main();
"
    );
    support::run_capturing_with_internals("resume-cache.js", &program)
}

#[test]
fn sixteen_async_functions_taking_turns_always_hit_once_warm() {
    // 16 functions × 20 rounds = 320 resumes in the measured half; the
    // `main` frame resumes once per round too.
    assert_eq!(turns(16, 40), "hits 340 misses 0 evictions 0\n");
}

#[test]
fn forty_eight_async_functions_overflow_the_cache_and_are_counted() {
    let out = turns(48, 20);
    let fields: Vec<&str> = out.split_whitespace().collect();
    let number = |i: usize| fields[i].parse::<u64>().expect("a count");
    let (hits, misses, evictions) = (number(1), number(3), number(5));
    assert_eq!(hits + misses, 48 * 10 + 10, "every resume looks the cache up: {out}");
    assert!(misses > 0 && evictions > 0, "48 executables cannot all stay in 32 entries: {out}");
}

#[test]
fn entries_of_collected_executables_are_pruned() {
    let program = r"
async function phase() {
  const fs = [];
  for (let i = 0; i < 16; i++) fs.push(new Function('return async function g(x) { await x; return x; }')());
  await Promise.all(fs.map((f) => f(1)));
  return $vm.callCacheStats().entries;
}
phase().then((during) => {
  $vm.gc();
  const after = $vm.callCacheStats().entries;
  console.log('pruned', during - after);
});
";
    assert_eq!(support::run_capturing_with_internals("resume-cache-prune.js", program), "pruned 16\n");
}
