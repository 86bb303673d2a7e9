//! Instructions per operation, measured with valgrind's callgrind.
//! (The same harness as js-microtask's benchmarks: each crate stays
//! self-contained.)
//!
//! The benchmark binary re-runs itself under `valgrind --tool=callgrind`
//! twice per operation, once doing the operation `N` times and once `2N`
//! times, with identical setup; the difference of the two instruction totals
//! divided by `N` is the cost of one operation (plus its loop), free of
//! process start-up, setup and teardown. A baseline operation (the bare
//! loop) is measured the same way, and its cost is subtracted to give the
//! operation's own instructions. Results are printed as `fact:` lines,
//! which `cargo xtask bench` collects.

use std::env;
use std::process::Command;

/// The environment variable naming the operation a child run performs.
const OP_ENV: &str = "CALLGRIND_BENCH_OP";
/// The environment variable holding the number of operations.
const COUNT_ENV: &str = "CALLGRIND_BENCH_COUNT";
/// Operations in the shorter run.
const COUNT: u64 = 100_000;

/// The operation and count this process must run, if it is a child run.
pub fn child_request() -> Option<(String, u64)> {
    let op = env::var(OP_ENV).ok()?;
    let count = env::var(COUNT_ENV).ok()?.parse().ok()?;
    Some((op, count))
}

/// Runs this executable under callgrind for `op` × `count`; returns the
/// instructions it executed.
fn instructions(op: &str, count: u64) -> Result<u64, String> {
    let exe = env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let output = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .env(OP_ENV, op)
        .env(COUNT_ENV, count.to_string())
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    if !output.status.success() {
        return Err(format!("valgrind run of {op} failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .find_map(|line| line.split_once("Collected :").map(|(_, n)| n.trim().replace(',', "")))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("no instruction total in valgrind's output for {op}"))
}

/// Instructions of one `op`, loop included.
fn per_op(op: &str) -> Result<f64, String> {
    let once = instructions(op, COUNT)?;
    let twice = instructions(op, 2 * COUNT)?;
    Ok(twice.saturating_sub(once) as f64 / COUNT as f64)
}

/// One measurement: the operation, the baseline operation whose loop cost
/// is subtracted (`None`: report the whole loop), a label and the unit.
pub struct Measure<'a> {
    /// The operation's name, as the child run knows it.
    pub op: &'a str,
    /// The operation measuring the same loop without the work.
    pub baseline: Option<&'a str>,
    /// What the `fact:` line calls it.
    pub label: &'a str,
    /// What one operation is ("job", "get").
    pub unit: &'a str,
}

/// Measures each entry and prints a `fact:` line for it; returns the
/// instructions per operation (net of the baseline where there is one),
/// `None` where measuring failed.
pub fn report(measures: &[Measure<'_>]) -> Vec<Option<f64>> {
    let mut baselines: Vec<(&str, Option<f64>)> = Vec::new();
    measures
        .iter()
        .map(|m| {
            let base = match m.baseline {
                None => Some(0.0),
                Some(name) => {
                    if let Some(&(_, known)) = baselines.iter().find(|(n, _)| *n == name) {
                        known
                    } else {
                        let loop_cost = per_op(name).ok();
                        baselines.push((name, loop_cost));
                        loop_cost
                    }
                }
            };
            match (per_op(m.op), base) {
                (Ok(raw), Some(base)) if m.baseline.is_some() => {
                    let net = raw - base;
                    println!(
                        "fact: callgrind: {}: {net:.1} instructions/{} ({raw:.1} with the benchmark loop, {base:.1} without the work)",
                        m.label, m.unit
                    );
                    Some(net)
                }
                (Ok(raw), _) => {
                    println!("fact: callgrind: {}: {raw:.1} instructions/{} (loop included)", m.label, m.unit);
                    Some(raw)
                }
                (Err(error), _) => {
                    println!("fact: callgrind: {}: not measured ({error})", m.label);
                    None
                }
            }
        })
        .collect()
}
