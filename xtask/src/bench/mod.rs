//! `cargo xtask bench`: the crates' criterion benchmarks and the JS
//! workloads of `bench/workloads` on jsvm and its peers.
//!
//! * `bench` — every crate's criterion benchmarks in criterion's quick mode,
//!   then every workload on jsvm (release build), node, `node --jitless`,
//!   `QuickJS`, Boa, Boa with js-json under its `JSON` object and Boa with
//!   js-microtask's queue under its job executor (the last four when their
//!   runners are built); prints a
//!   table per workload case and writes all tables with the machine details
//!   to `bench/RESULTS.md`.
//! * `bench --peers` — the same, first building the `QuickJS` and Boa runners
//!   (`xtask/peers`, a workspace of its own so CI never compiles them).
//! * `bench --filter SUBSTR` — only the workloads whose file or case name
//!   contains SUBSTR, no criterion, and RESULTS.md is left alone.
//! * `bench --instructions [--filter SUBSTR]` — each jsvm workload case under
//!   callgrind: instructions per operation.
//! * `bench CRATE` — one crate's criterion benchmarks at full length.
//!
//! Wall-clock figures on shared machines are noisy: only ratios from one run
//! mean much.

mod criterion;
pub(crate) mod engines;
pub(crate) mod machine;
pub(crate) mod table;
pub(crate) mod workloads;

use std::fmt::Write as _;
use std::fs;

use self::engines::Engine;
use self::table::{Table, format_rate, format_time};
use self::workloads::{Outcome, Workload};
use crate::command::{TaskError, cargo, run, workspace_root};

/// What `cargo xtask bench ARGS` asked for.
#[derive(Debug, Default, PartialEq)]
struct Options {
    krate: Option<String>,
    filter: Option<String>,
    instructions: bool,
    peers: bool,
}

fn parse_options(args: &[String]) -> Result<Options, TaskError> {
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--instructions" => options.instructions = true,
            "--peers" => options.peers = true,
            "--filter" => {
                let value = args.next().ok_or_else(|| TaskError::Usage("--filter needs a SUBSTR".into()))?;
                options.filter = Some(value.clone());
            }
            flag if flag.starts_with('-') => return Err(TaskError::Usage(format!("unknown option `{flag}`"))),
            krate if options.krate.is_none() => options.krate = Some(krate.to_string()),
            extra => return Err(TaskError::Usage(format!("unexpected argument `{extra}`"))),
        }
    }
    if options.krate.is_some() && (options.filter.is_some() || options.instructions || options.peers) {
        return Err(TaskError::Usage(
            "`bench CRATE` runs that crate's criterion benchmarks and takes no options".into(),
        ));
    }
    Ok(options)
}

/// Runs `cargo xtask bench ARGS`.
pub fn run_task(args: &[String]) -> Result<(), TaskError> {
    let options = parse_options(args)?;
    if let Some(krate) = &options.krate {
        println!();
        for table in criterion::run(Some(krate), false)? {
            println!("{}", table.to_text());
        }
        return Ok(());
    }
    run(
        "cargo build --release -p js-vm --bin jsvm",
        &mut cargo(&["build", "--release", "-p", "js-vm", "--bin", "jsvm"]),
    )?;
    let selected = select(workloads::discover()?, options.filter.as_deref());
    if options.instructions {
        return instructions(&selected, options.filter.as_deref());
    }
    if options.peers {
        build_peers()?;
    }
    let criterion_tables = if options.filter.is_none() { criterion::run(None, true)? } else { Vec::new() };
    let engines = engines::all();
    let (tables, jsvm_failures) = measure(&selected, &engines, options.filter.as_deref());
    println!();
    for table in criterion_tables.iter().chain(&tables) {
        println!("{}", table.to_text());
    }
    if options.filter.is_none() {
        let path = workspace_root().join("bench/RESULTS.md");
        fs::write(&path, results_markdown(&engines, &tables, &criterion_tables))
            .map_err(|e| TaskError::Results(format!("{}: {e}", path.display())))?;
        println!("wrote {}", workloads::display(&path));
    }
    if jsvm_failures.is_empty() {
        Ok(())
    } else {
        Err(TaskError::Results(format!("workloads failed on jsvm: {}", jsvm_failures.join(", "))))
    }
}

/// The workloads a filter picks: those whose file name contains it or whose
/// source mentions it (a case name); cases are filtered again by name.
fn select(all: Vec<Workload>, filter: Option<&str>) -> Vec<Workload> {
    let Some(filter) = filter else { return all };
    all.into_iter()
        .filter(|w| w.name.contains(filter) || fs::read_to_string(&w.path).is_ok_and(|source| source.contains(filter)))
        .collect()
}

fn case_selected(workload: &Workload, case: &str, filter: Option<&str>) -> bool {
    filter.is_none_or(|filter| workload.name.contains(filter) || case.contains(filter))
}

/// Builds the `QuickJS` and Boa runners into `peers/` of the target directory.
fn build_peers() -> Result<(), TaskError> {
    let manifest = workspace_root().join("xtask/peers/Cargo.toml");
    let target = engines::peers_dir();
    let (manifest, target) = (manifest.to_string_lossy().into_owned(), target.to_string_lossy().into_owned());
    let args =
        ["build", "--release", "--manifest-path", &manifest, "--target-dir", &target, "--features", "quickjs,boa"];
    run(&format!("cargo {}", args.join(" ")), &mut cargo(&args))
}

/// One engine's outcome for one case, with the reason when it has none.
type Cell = Result<(f64, f64), String>;

/// Runs every workload on every engine and returns one table per case, and
/// the cases that failed on jsvm.
fn measure(selected: &[Workload], engines: &[Engine], filter: Option<&str>) -> (Vec<Table>, Vec<String>) {
    let mut tables = Vec::new();
    let mut jsvm_failures = Vec::new();
    for workload in selected {
        // Per engine: the run's cases, or why the engine did not run it.
        let mut runs: Vec<Result<workloads::RunResult, String>> = Vec::new();
        for engine in engines {
            let missing = engine.missing(&workload.requires);
            let outcome = if !missing.is_empty() {
                Err(format!("n/a (needs {})", missing.join(", ")))
            } else if let Some(cmd) = engine.command_for(&workload.path) {
                eprintln!("==> {} on {}", workloads::display(&workload.path), engine.name);
                Ok(workloads::run(cmd))
            } else {
                Err("not available".into())
            };
            runs.push(outcome);
        }
        let mut cases: Vec<String> = Vec::new();
        for run in runs.iter().flatten() {
            for (case, _) in &run.cases {
                if !cases.contains(case) && case_selected(workload, case, filter) {
                    cases.push(case.clone());
                }
            }
        }
        if cases.is_empty() {
            cases.push(workload.name.clone());
        }
        for case in &cases {
            let cells: Vec<Cell> = runs.iter().map(|run| cell(run, case)).collect();
            if let Err(why) = &cells[0] {
                jsvm_failures.push(format!("{case} ({why})"));
            }
            tables.push(case_table(workload, case, engines, &cells));
        }
    }
    (tables, jsvm_failures)
}

fn cell(run: &Result<workloads::RunResult, String>, case: &str) -> Cell {
    let run = run.as_ref().map_err(Clone::clone)?;
    match run.cases.iter().find(|(name, _)| name == case).map(|(_, outcome)| outcome) {
        Some(Outcome::Measured { ops, ms }) => Ok((*ops, *ms)),
        Some(Outcome::Skipped(reason)) => Err(format!("n/a ({reason})")),
        Some(Outcome::Failed(error)) => Err(format!("failed: {}", first_line(error))),
        None => Err(match &run.failure {
            Some(failure) => format!("failed: {failure}"),
            None => "failed: printed no result".into(),
        }),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// The table of one case: time per operation, operations per second, and
/// time relative to jsvm's (above 1: slower than jsvm).
fn case_table(workload: &Workload, case: &str, engines: &[Engine], cells: &[Cell]) -> Table {
    let title = if case == workload.name { case.to_string() } else { format!("{case} ({})", workload.name) };
    let mut table = Table::new(title, &["engine", "time/op", "ops/s", "time ÷ jsvm"]);
    let per_op = |(ops, ms): (f64, f64)| ms * 1e6 / ops;
    let jsvm = cells[0].as_ref().ok().map(|m| per_op(*m));
    for (engine, cell) in engines.iter().zip(cells) {
        let row = match cell {
            Ok(measured) => {
                let ns = per_op(*measured);
                let ratio = jsvm.map_or_else(|| "–".to_string(), |base| format!("{:.2}", ns / base));
                vec![engine.name.to_string(), format_time(ns), format_rate(1e9 / ns), ratio]
            }
            Err(why) => {
                let short = if why.starts_with("failed") { "failed" } else { why.as_str() };
                if why.starts_with("failed") {
                    table.notes.push(format!("{}: {why}", engine.name));
                }
                vec![engine.name.to_string(), short.to_string(), String::new(), String::new()]
            }
        };
        table.rows.push(row);
    }
    table
}

/// The text of `bench/RESULTS.md`.
fn results_markdown(engines: &[Engine], workloads: &[Table], criterion: &[Table]) -> String {
    let mut out = String::from(
        "# Benchmark results\n\nWritten by `cargo xtask bench` — rerun it rather than editing. Each workload case \
         runs for about 200 ms after a short warm-up and times itself with `performance.now()` (start-up excluded); \
         \"time ÷ jsvm\" above 1 means slower than jsvm. Wall-clock figures on a shared machine are noisy: compare \
         ratios within one run.\n\n| | |\n| --- | --- |\n",
    );
    for (label, value) in machine::describe() {
        let _ = writeln!(out, "| {label} | {value} |");
    }
    for engine in engines {
        if let Err(why) = &engine.command {
            let _ = writeln!(out, "| {} | not available ({why}) |", engine.name);
        }
    }
    out.push_str("\n## JS workloads (`bench/workloads`)\n\n");
    for table in workloads {
        out.push_str(&table.to_markdown());
    }
    out.push_str("## Crate benchmarks (criterion, quick mode)\n\n");
    for table in criterion {
        out.push_str(&table.to_markdown());
    }
    out
}

/// `--instructions`: each selected jsvm case under callgrind, run twice with
/// a fixed batch count (1 and 3); the difference divided by the difference
/// in operations cancels start-up, setup and warm-up.
fn instructions(selected: &[Workload], filter: Option<&str>) -> Result<(), TaskError> {
    let jsvm = engines::all().into_iter().next().ok_or_else(|| TaskError::Results("no jsvm engine".into()))?;
    let mut table = Table::new("jsvm instructions per operation (callgrind)", &["case", "instructions/op"]);
    for workload in selected {
        let Some(cmd) = jsvm.command_for(&workload.path) else { continue };
        eprintln!("==> {} on jsvm (case names)", workloads::display(&workload.path));
        let listing = workloads::run(cmd);
        for (case, _) in listing.cases.iter().filter(|(case, _)| case_selected(workload, case, filter)) {
            eprintln!("==> {case} under callgrind");
            let row = match (callgrind(workload, case, 1), callgrind(workload, case, 3)) {
                (Ok((ir1, ops1)), Ok((ir3, ops3))) if ops3 > ops1 => format!("{:.0}", (ir3 - ir1) / (ops3 - ops1)),
                (Err(why), _) | (_, Err(why)) => format!("failed: {why}"),
                _ => "failed: operation counts did not grow".into(),
            };
            table.rows.push(vec![case.clone(), row]);
        }
    }
    println!("\n{}", table.to_text());
    Ok(())
}

/// Total instructions and reported operations of one case run with
/// `batches` measured batches under callgrind.
fn callgrind(workload: &Workload, case: &str, batches: u32) -> Result<(f64, f64), String> {
    let mut cmd = std::process::Command::new("valgrind");
    cmd.args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(engines::jsvm_path())
        .arg(&workload.path)
        .env("JSVM_BENCH_CASE", case)
        .env("JSVM_BENCH_BATCHES", batches.to_string());
    let result = workloads::run(cmd);
    if let Some(failure) = result.failure {
        return Err(failure);
    }
    let ops = match result.cases.iter().find(|(name, _)| name == case) {
        Some((_, Outcome::Measured { ops, .. })) => *ops,
        _ => return Err("no result line".into()),
    };
    // callgrind ends with `==PID== Collected : N` on stderr.
    let collected = result
        .stderr
        .lines()
        .find_map(|line| line.split_once("Collected :").map(|(_, n)| n.trim().replace(',', "")))
        .and_then(|n| n.parse::<f64>().ok())
        .ok_or_else(|| "no `Collected :` line from callgrind (is valgrind installed?)".to_string())?;
    Ok((collected, ops))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| (*a).to_string()).collect()
    }

    #[test]
    fn options_parse() {
        assert_eq!(parse_options(&[]).unwrap(), Options::default());
        let o = parse_options(&strings(&["--filter", "json", "--instructions"])).unwrap();
        assert_eq!((o.filter.as_deref(), o.instructions, o.peers), (Some("json"), true, false));
        assert_eq!(parse_options(&strings(&["gc"])).unwrap().krate.as_deref(), Some("gc"));
        assert!(parse_options(&strings(&["--filter"])).is_err());
        assert!(parse_options(&strings(&["gc", "--peers"])).is_err());
        assert!(parse_options(&strings(&["--bogus"])).is_err());
    }

    #[test]
    fn ratios_are_against_jsvm_and_missing_engines_say_why() {
        let engines = vec![
            Engine { name: "jsvm", command: Err(String::new()), host_apis: &[] },
            Engine { name: "peer", command: Err(String::new()), host_apis: &[] },
            Engine { name: "other", command: Err(String::new()), host_apis: &[] },
        ];
        let workload = Workload { path: "x.js".into(), name: "x".into(), requires: Vec::new() };
        let cells: Vec<Cell> = vec![Ok((1000.0, 1.0)), Ok((500.0, 1.0)), Err("not available".into())];
        let table = case_table(&workload, "case", &engines, &cells);
        assert_eq!(table.title, "case (x)");
        assert_eq!(table.rows[0], ["jsvm", "1.000 µs", "1.00 M/s", "1.00"]);
        assert_eq!(table.rows[1], ["peer", "2.000 µs", "500.00 k/s", "2.00"]);
        assert_eq!(table.rows[2][1], "not available");
    }
}
