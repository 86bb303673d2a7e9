//! `cargo xtask ci`: every check a submission must pass.

use std::fs;

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

pub fn run() -> Result<(), TaskError> {
    command::run("cargo fmt --check", &mut cargo(&["fmt", "--all", "--check"]))?;
    command::run(
        "cargo clippy (warnings are errors)",
        &mut cargo(&["clippy", "--workspace", "--all-targets", "--all-features", "--", "-D", "warnings"]),
    )?;
    // Every public item is documented (`missing_docs` in clippy) and its
    // documentation builds without broken or private links.
    command::run(
        "cargo doc (warnings are errors)",
        cargo(&["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings"),
    )?;

    // The subsystem crates package and their packaged sources build.
    crate::package::run(&[])?;

    let mut totals = TestTotals::default();
    cargo_test("cargo test --workspace", &["test", "--workspace"], &[], &mut totals)?;

    for krate in loom_crates() {
        // Loom tests are named `loom_*` and only exist under `--cfg loom`; a
        // separate target directory keeps the cfg change from rebuilding the
        // normal build.
        let loom_target = workspace_root().join("target/loom");
        let loom_target = loom_target.to_string_lossy();
        cargo_test(
            &format!("loom model tests of {krate}"),
            &["test", "--release", "-p", &krate, "--", "loom"],
            &[("RUSTFLAGS", "--cfg loom"), ("CARGO_TARGET_DIR", &loom_target)],
            &mut totals,
        )?;
    }

    cargo_test(
        "cargo test --workspace in gc-stress mode",
        &["test", "--workspace"],
        &[(GC_STRESS_ENV, "1")],
        &mut totals,
    )?;

    // Behaviour Node shows: every test program prints what node prints.
    crate::diff::run(&[])?;

    // tests/js again with the heap collecting at every safepoint (the
    // `cargo test` run above covers them in process; this runs the jsvm
    // binary, its event loop and module loader as users do).
    crate::diff::run(&["--gc-stress".to_owned()])?;

    // Conformance: no test262 directory may fall below its recorded pass
    // count, and every test must end the same with gc-stress on (one
    // normal run serves both checks).
    crate::test262::run(&["--check".to_owned(), "--gc-stress-compare".to_owned()])?;

    // WPT streams and encoding: no file may pass fewer subtests on jsvm.
    crate::wpt::run(&["--check".to_owned()])?;

    // Octane 2.0: every program runs on jsvm and validates its own result.
    crate::octane::run(&["--check".to_owned()])?;

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
