//! `cargo xtask`: the project's tasks, one subcommand each.
//!
//! * `ci` — everything CI checks: formatting, clippy (warnings are errors),
//!   the packaging check of the subsystem crates,
//!   the workspace tests, the loom model tests of crates that have them, and
//!   the test suites again with the heap in gc-stress mode.
//! * `bench [CRATE] [--peers] [--filter SUBSTR] [--instructions]` — the
//!   crates' criterion benchmarks and the JS workloads on jsvm, node, `node
//!   --jitless`, `QuickJS` and Boa (`bench CRATE`: one crate's criterion only).
//! * `test262 [--check] [PATHS]` — runs the test262 conformance suite on the
//!   engine and writes (or, with `--check`, verifies) per-directory counts.
//! * `wpt [--check] [PATHS]` — runs the WPT streams and encoding tests on
//!   the engine and on node and writes (or, with `--check`, verifies jsvm's)
//!   per-file subtest counts.
//! * `diff [FILES]` — runs the JS test programs on `jsvm` and on `node` and
//!   requires identical output.
//! * `octane [--check] [--filter NAME]` — Octane 2.0 on jsvm and its peers
//!   (scores, ratios, `bench/OCTANE.md`); `--check` runs each program once
//!   on jsvm as a correctness check.
//! * `package` — `cargo package` of every subsystem crate, in dependency
//!   order, verifying that the packaged sources build.
//! * `fuzz [TARGET] [--seconds N]` — runs the fuzz targets of `fuzz/` and
//!   the promise-ordering differential against node.

mod baseline;
mod bench;
mod ci;
mod command;
mod diff;
mod fuzz;
mod octane;
mod package;
mod pool;
mod test262;
mod wpt;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <ci | bench [CRATE | --peers --filter SUBSTR --instructions] | test262 [--check] [--verbose] [PATHS] | wpt [--check] [--verbose] [PATHS] | diff [FILES] | octane [--check] [--filter NAME] | package>

  ci               fmt check, clippy -D warnings, docs, package check, tests, loom tests, gc-stress tests, test262 check
  bench            quick criterion benchmarks of every crate, then bench/workloads on jsvm and its
                   peers (node, node --jitless, QuickJS, Boa); writes bench/RESULTS.md
    --peers          first build the QuickJS and Boa runners (xtask/peers, compiled once)
    --filter SUBSTR  only workloads/cases whose name contains SUBSTR (no criterion, no RESULTS.md)
    --instructions   jsvm workloads under callgrind: instructions per operation
  bench CRATE      one crate's criterion benchmarks at full length (CRATE: gc, json, ... or js-gc)
  test262 [PATHS]  run ../shared/conformance/test262 (all: write conformance/test262.md)
  wpt [PATHS]      run ../shared/conformance/wpt on jsvm and node (all: write conformance/wpt.md)
  diff [FILES]     run tests/js programs and examples on jsvm and node; outputs must match
  octane           Octane 2.0 (../shared/benchmarks/octane) on jsvm and its peers; writes bench/OCTANE.md
    --check          each program once on jsvm (one iteration), failing on any error (CI)
    --filter NAME    only the programs whose name contains NAME
  package          cargo package of the six subsystem crates (dependency order), packaged sources built
  fuzz [TARGET] [--seconds N]
                   run fuzz targets (json_parse, json_escape, frontend, run, gc_model, promises)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci::run(),
        Some("bench") => bench::run_task(&args[1..]),
        Some("test262") => test262::run(&args[1..]),
        Some("wpt") => wpt::run(&args[1..]),
        Some("diff") => diff::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("octane") => octane::run(&args[1..]),
        Some("package") => package::run(&args[1..]),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: {err}");
            ExitCode::FAILURE
        }
    }
}
