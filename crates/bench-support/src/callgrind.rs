//! Instructions per operation, measured with valgrind's callgrind.
//!
//! The benchmark binary re-runs itself under `valgrind --tool=callgrind`
//! twice per operation, once doing the operation `N` times and once `2N`
//! times, with identical setup; the difference of the two instruction totals
//! divided by `N` is the cost of one operation (plus its loop), free of
//! process start-up, setup and teardown. A baseline operation (the bare
//! loop) is measured the same way, and its cost is subtracted to give the
//! operation's own instructions.
//!
//! A binary using it starts its `main` with [`child_request`]: in a child
//! run it performs the named operation the given number of times and
//! returns; otherwise it measures with a [`Callgrind`].

use std::env;
use std::process::Command;

/// The environment variable naming the operation a child run performs.
const OP_ENV: &str = "CALLGRIND_BENCH_OP";
/// The environment variable holding the number of operations.
const COUNT_ENV: &str = "CALLGRIND_BENCH_COUNT";

/// The operation and count this process must run, if it is a child run.
pub fn child_request() -> Option<(String, u64)> {
    let op = env::var(OP_ENV).ok()?;
    let count = env::var(COUNT_ENV).ok()?.parse().ok()?;
    Some((op, count))
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

/// The harness, with the number of operations of the shorter run.
#[derive(Clone, Copy, Debug)]
pub struct Callgrind {
    count: u64,
}

impl Callgrind {
    /// A harness whose shorter run performs `count` operations (the longer
    /// one twice as many).
    pub const fn new(count: u64) -> Self {
        Self { count }
    }

    /// Instructions of one `op`, its loop included.
    ///
    /// # Errors
    /// Why valgrind could not measure it (not installed, the child failed,
    /// no total in its output).
    pub fn per_op(self, op: &str) -> Result<f64, String> {
        let once = instructions(op, self.count)?;
        let twice = instructions(op, 2 * self.count)?;
        Ok(twice.saturating_sub(once) as f64 / self.count as f64)
    }

    /// Measures each entry and prints a `fact:` line for it; returns the
    /// instructions per operation (net of the baseline where there is
    /// one), `None` where measuring failed. Each baseline is measured once.
    pub fn report(self, measures: &[Measure<'_>]) -> Vec<Option<f64>> {
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
                            let loop_cost = self.per_op(name).ok();
                            baselines.push((name, loop_cost));
                            loop_cost
                        }
                    }
                };
                match (self.per_op(m.op), base) {
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
    total_instructions(&String::from_utf8_lossy(&output.stderr))
        .ok_or_else(|| format!("no instruction total in valgrind's output for {op}"))
}

/// The `Collected : N` total of callgrind's summary.
fn total_instructions(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .find_map(|line| line.split_once("Collected :").map(|(_, n)| n.trim().replace(',', "")))
        .and_then(|n| n.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::total_instructions;

    #[test]
    fn reads_the_collected_total() {
        let stderr = "==1== Callgrind, a call-graph generating cache profiler\n==1== Events    : Ir\n==1== Collected : 1,234,567\n==1==\n";
        assert_eq!(total_instructions(stderr), Some(1_234_567));
        assert_eq!(total_instructions("==1== no summary\n"), None);
    }
}
