//! `cargo xtask fuzz [TARGET] [--seconds N]`: runs the libFuzzer targets of
//! `fuzz/` (built with `cargo fuzz --sanitizer none` on the stable
//! toolchain) and the promise-ordering differential against node, each for
//! N seconds (default 60), and prints executions, coverage and findings.
//!
//! Seed corpora are read in place, never copied into the repository: the
//! programs in `crates/js-vm/tests/js` and `examples`, test262's `language`
//! and `built-ins` trees from `../shared/conformance`, and the JSON seeds in
//! `fuzz/seeds/json`. New inputs libFuzzer finds go to `fuzz/corpus/TARGET`
//! and crashes to `fuzz/artifacts/TARGET` (both ignored by git); a crash
//! becomes a regression test in `crates/js-vm/tests/hostile_input.rs` once
//! fixed.

mod promises;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::command::{TaskError, workspace_root};

/// The libFuzzer targets, with the seed directories each starts from.
const TARGETS: &[(&str, &[&str])] = &[
    ("json_parse", &["fuzz/seeds/json"]),
    ("json_escape", &["fuzz/seeds/json"]),
    ("frontend", &["crates/js-vm/tests/js", "examples", "../shared/conformance/test262/test/language"]),
    ("run", &["crates/js-vm/tests/js", "examples", "../shared/conformance/test262/test/built-ins"]),
    ("gc_model", &[]),
];

/// The differential target run by xtask itself.
const PROMISES: &str = "promises";

/// What one fuzzing run found, from libFuzzer's last status line.
#[derive(Debug, Default, PartialEq, Eq)]
struct Summary {
    executions: u64,
    coverage: u64,
    features: u64,
    corpus: u64,
}

impl Summary {
    /// Reads a libFuzzer status line: `#1234 DONE cov: 56 ft: 78 corp: 9/1kb ...`.
    fn from_line(line: &str) -> Option<Self> {
        let mut words = line.split_whitespace();
        let executions = words.next()?.strip_prefix('#')?.parse().ok()?;
        let mut summary = Summary { executions, ..Summary::default() };
        let rest: Vec<&str> = words.collect();
        for pair in rest.windows(2) {
            let value = pair[1].split('/').next().unwrap_or_default();
            match pair[0] {
                "cov:" => summary.coverage = value.parse().unwrap_or(0),
                "ft:" => summary.features = value.parse().unwrap_or(0),
                "corp:" => summary.corpus = value.parse().unwrap_or(0),
                _ => {}
            }
        }
        Some(summary)
    }
}

fn parse_args(args: &[String]) -> Result<(Vec<String>, u64), TaskError> {
    let mut seconds = 60;
    let mut targets = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--seconds" {
            seconds = iter
                .next()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| TaskError::Conformance("--seconds needs a number".into()))?;
        } else if let Some(n) = arg.strip_prefix("--seconds=") {
            seconds = n.parse().map_err(|_| TaskError::Conformance("--seconds needs a number".into()))?;
        } else {
            targets.push(arg.clone());
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|(name, _)| (*name).to_owned()).chain([PROMISES.to_owned()]).collect();
    }
    for target in &targets {
        if target != PROMISES && !TARGETS.iter().any(|(name, _)| name == target) {
            let known: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).chain([PROMISES]).collect();
            return Err(TaskError::Conformance(format!("unknown fuzz target {target}; targets: {}", known.join(", "))));
        }
    }
    Ok((targets, seconds))
}

/// Runs one libFuzzer target for `seconds`; returns its summary and the
/// crash files it left.
fn run_libfuzzer(target: &str, seeds: &[&str], seconds: u64) -> Result<(Summary, Vec<PathBuf>), TaskError> {
    let root = workspace_root();
    let fuzz_dir = root.join("fuzz");
    let corpus = fuzz_dir.join("corpus").join(target);
    let artifacts = fuzz_dir.join("artifacts").join(target);
    for dir in [&corpus, &artifacts] {
        std::fs::create_dir_all(dir).map_err(|e| TaskError::Conformance(format!("{}: {e}", dir.display())))?;
    }
    let before = crash_files(&artifacts);
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(&fuzz_dir)
        .args(["fuzz", "run", "--sanitizer", "none", "-O", target])
        .arg(&corpus)
        .args(seeds.iter().map(|s| root.join(s)).filter(|p| p.is_dir()))
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .args(["-timeout=20", "-rss_limit_mb=4096", "-max_len=65536", "-print_final_stats=1"]);
    eprintln!("\n==> fuzz {target} for {seconds}s");
    let output = cmd.output().map_err(|source| TaskError::Spawn { program: "cargo fuzz".into(), source })?;
    let log = String::from_utf8_lossy(&output.stderr);
    let log_file = fuzz_dir.join("artifacts").join(format!("{target}.log"));
    let _ = std::fs::write(&log_file, log.as_bytes());
    let summary = log
        .lines()
        .rev()
        .find_map(|line| line.contains(" cov: ").then(|| Summary::from_line(line)).flatten())
        .unwrap_or_default();
    let found: Vec<PathBuf> = crash_files(&artifacts).into_iter().filter(|p| !before.contains(p)).collect();
    if summary.executions == 0 && found.is_empty() {
        return Err(TaskError::Failed {
            step: format!("fuzz {target} (log: {})", log_file.display()),
            code: output.status.code(),
        });
    }
    Ok((summary, found))
}

fn crash_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

/// Entry point of `cargo xtask fuzz`.
pub fn run(args: &[String]) -> Result<(), TaskError> {
    let (targets, seconds) = parse_args(args)?;
    let mut findings = 0;
    let mut report = Vec::new();
    for target in &targets {
        if target == PROMISES {
            let outcome = promises::run(seconds)?;
            findings += outcome.differences;
            report.push(format!(
                "{PROMISES:<12} {} programs, {} differ from node{}",
                outcome.programs,
                outcome.differences,
                if outcome.differences > 0 { " (fuzz/artifacts/promises)" } else { "" }
            ));
            continue;
        }
        let seeds = TARGETS.iter().find(|(name, _)| name == target).map_or(&[][..], |(_, seeds)| *seeds);
        let (summary, crashes) = run_libfuzzer(target, seeds, seconds)?;
        findings += crashes.len();
        report.push(format!(
            "{target:<12} {} executions, cov {}, ft {}, corpus {}, {} new crashes",
            summary.executions,
            summary.coverage,
            summary.features,
            summary.corpus,
            crashes.len()
        ));
        for crash in crashes {
            report.push(format!("             crash: {}", crash.display()));
        }
    }
    println!("\nfuzz ({seconds}s per target):");
    for line in &report {
        println!("  {line}");
    }
    if findings > 0 {
        return Err(TaskError::Conformance(format!("fuzzing found {findings} problems")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Summary;

    #[test]
    fn reads_libfuzzer_status_lines() {
        let line = "#123456\tDONE   cov: 2345 ft: 9876 corp: 321/45Kb lim: 4096 exec/s: 2000 rss: 300Mb";
        assert_eq!(
            Summary::from_line(line),
            Some(Summary { executions: 123_456, coverage: 2345, features: 9876, corpus: 321 })
        );
        assert_eq!(Summary::from_line("INFO: Seed: 1"), None);
    }
}
