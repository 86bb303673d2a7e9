//! Instructions per operation under valgrind's callgrind.
//!
//! The benchmark binary runs itself under `valgrind --tool=callgrind` twice
//! per operation, doing it `N` and `2N` times after identical setup; the
//! difference of the two totals over `N` is the cost of one operation,
//! without start-up, setup and teardown.

use std::env;
use std::process::Command;

const OP_ENV: &str = "PROMISE_CALLGRIND_OP";
const COUNT_ENV: &str = "PROMISE_CALLGRIND_COUNT";
/// Operations in the shorter run.
const COUNT: u64 = 20_000;

/// The operation and count a child run must perform, if this is one.
pub fn child_request() -> Option<(String, u64)> {
    let op = env::var(OP_ENV).ok()?;
    let count = env::var(COUNT_ENV).ok()?.parse().ok()?;
    Some((op, count))
}

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
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .find_map(|line| line.split_once("Collected :").map(|(_, n)| n.trim().replace(',', "")))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("no instruction total in valgrind's output for {op}"))
}

/// Instructions of one `op`, its loop included.
pub fn per_op(op: &str) -> Result<f64, String> {
    let once = instructions(op, COUNT)?;
    let twice = instructions(op, 2 * COUNT)?;
    Ok(twice.saturating_sub(once) as f64 / COUNT as f64)
}
