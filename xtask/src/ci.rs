//! `cargo xtask ci`: every check a submission must pass.

use std::fs;
use std::time::{Duration, Instant};

use crate::command::{self, TaskError, cargo, run_observed, workspace_root};

/// The environment variable that puts every `js_gc::Heap` created with the
/// default configuration into gc-stress mode (see `js_gc::HeapConfig`).
const GC_STRESS_ENV: &str = "JS_GC_STRESS";

/// Totals of the `test result:` lines cargo's test harness prints.
#[derive(Default)]
struct TestTotals {
    passed: u64,
    failed: u64,
    ignored: u64,
}

impl TestTotals {
    /// Adds one `test result: ok. 3 passed; 0 failed; 1 ignored; ...` line.
    fn add_line(&mut self, line: &str) {
        let Some(rest) = line.trim().strip_prefix("test result: ") else { return };
        for part in rest.split(';') {
            let mut words = part.split_whitespace().rev();
            let (Some(label), Some(count)) = (words.next(), words.next()) else { continue };
            let Ok(count) = count.parse::<u64>() else { continue };
            match label {
                "passed" => self.passed += count,
                "failed" => self.failed += count,
                "ignored" => self.ignored += count,
                _ => {}
            }
        }
    }
}

/// Runs `cargo test` with `args`, adding its summary lines to `totals`.
fn cargo_test(step: &str, args: &[&str], env: &[(&str, &str)], totals: &mut TestTotals) -> Result<(), TaskError> {
    let mut cmd = cargo(args);
    for (key, value) in env {
        cmd.env(key, value);
    }
    run_observed(step, &mut cmd, |line| totals.add_line(line))
}

/// Workspace crates whose manifest enables loom under `--cfg loom`.
fn loom_crates() -> Vec<String> {
    let Ok(entries) = fs::read_dir(workspace_root().join("crates")) else { return Vec::new() };
    let mut crates: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| {
            fs::read_to_string(entry.path().join("Cargo.toml")).is_ok_and(|manifest| manifest.contains("cfg(loom)"))
        })
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    crates.sort();
    crates
}

/// The wall time of each CI step, printed at the end (and on failure) so a
/// run that nears the 45-minute budget shows where the time went.
#[derive(Default)]
struct StepClock {
    steps: Vec<(&'static str, Duration)>,
}

impl StepClock {
    fn time(&mut self, name: &'static str, step: impl FnOnce() -> Result<(), TaskError>) -> Result<(), TaskError> {
        let started = Instant::now();
        let outcome = step();
        self.steps.push((name, started.elapsed()));
        if outcome.is_err() {
            self.print();
        }
        outcome
    }

    fn print(&self) {
        println!("\nci: wall time per step");
        for (name, took) in &self.steps {
            println!("{:>8.1} s  {name}", took.as_secs_f64());
        }
        let total: Duration = self.steps.iter().map(|(_, took)| *took).sum();
        println!("{:>8.1} s  total", total.as_secs_f64());
    }
}

pub fn run() -> Result<(), TaskError> {
    let mut clock = StepClock::default();
    clock.time("fmt", || command::run("cargo fmt --check", &mut cargo(&["fmt", "--all", "--check"])))?;
    clock.time("clippy", || {
        command::run(
            "cargo clippy (warnings are errors)",
            &mut cargo(&["clippy", "--workspace", "--all-targets", "--all-features", "--", "-D", "warnings"]),
        )
    })?;
    // Every public item is documented (`missing_docs` in clippy) and its
    // documentation builds without broken or private links.
    clock.time("doc", || {
        command::run(
            "cargo doc (warnings are errors)",
            cargo(&["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings"),
        )
    })?;

    // The subsystem crates package and their packaged sources build.
    clock.time("package", || crate::package::run(&[]))?;

    let mut totals = TestTotals::default();
    clock.time("cargo test", || cargo_test("cargo test --workspace", &["test", "--workspace"], &[], &mut totals))?;

    clock.time("loom", || {
        for krate in loom_crates() {
            // Loom tests are named `loom_*` and only exist under `--cfg loom`; a
            // separate target directory keeps the cfg change from rebuilding the
            // normal build.
            let loom_target = command::target_dir().join("loom");
            let loom_target = loom_target.to_string_lossy();
            cargo_test(
                &format!("loom model tests of {krate}"),
                &["test", "--release", "-p", &krate, "--", "loom"],
                &[("RUSTFLAGS", "--cfg loom"), ("CARGO_TARGET_DIR", &loom_target)],
                &mut totals,
            )?;
        }
        Ok(())
    })?;

    // The node-diff programs are left out here: `diff --gc-stress` below
    // runs the same programs under gc-stress on the release binary, in a
    // third of the time a debug build takes (CI's 45-minute budget).
    clock.time("cargo test (gc-stress)", || {
        cargo_test(
            "cargo test --workspace in gc-stress mode",
            &["test", "--workspace", "--", "--skip", "programs_print_what_node_prints"],
            &[(GC_STRESS_ENV, "1")],
            &mut totals,
        )
    })?;

    // Behaviour Node shows: every test program prints what node prints.
    clock.time("diff", || crate::diff::run(&[]))?;

    // tests/js again with the heap collecting at every safepoint, on the
    // jsvm binary, its event loop and module loader as users run them.
    clock.time("diff (gc-stress)", || crate::diff::run(&["--gc-stress".to_owned()]))?;

    // Conformance: no test262 directory may fall below its recorded pass
    // count, and every test must end the same with gc-stress on (one
    // normal run serves both checks).
    clock.time("test262 (+ gc-stress compare)", || {
        crate::test262::run(&["--check".to_owned(), "--gc-stress-compare".to_owned()])
    })?;

    // WPT streams and encoding: no file may pass fewer subtests on jsvm.
    clock.time("wpt", || crate::wpt::run(&["--check".to_owned()]))?;

    // Octane 2.0: every program runs on jsvm and validates its own result.
    clock.time("octane", || crate::octane::run(&["--check".to_owned()]))?;

    clock.print();
    println!("\nci: {} passed, {} failed, {} skipped", totals.passed, totals.failed, totals.ignored);
    if totals.failed > 0 {
        return Err(TaskError::Failed { step: "tests".into(), code: None });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::TestTotals;

    #[test]
    fn sums_cargo_summary_lines() {
        let mut totals = TestTotals::default();
        totals
            .add_line("test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s");
        totals.add_line("test result: FAILED. 3 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out");
        totals.add_line("running 4 tests");
        assert_eq!((totals.passed, totals.failed, totals.ignored), (15, 2, 1));
    }
}
