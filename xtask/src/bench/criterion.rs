//! The criterion part of `cargo xtask bench`: runs the crates' benchmarks
//! and turns criterion's stored estimates into tables.
//!
//! Conventions the benchmarks follow so this task can read them:
//! * every criterion group id starts with the crate's short name and a slash
//!   (`gc/alloc-small`), so results of one crate can be picked out of
//!   `criterion/` of the target directory;
//! * a benchmark that measures something other than time prints it on stdout
//!   as a line `fact: <text>`; those lines are repeated under the tables.
//!
//! Ratios are against the fastest entry of the same group, measured in the
//! same run: on shared, noisy machines only ratios from one run mean much.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::time::SystemTime;

use serde_json::Value;

use super::table::{Table, format_time};
use crate::command::{TaskError, cargo, run_observed, target_dir};

/// One benchmark's result, as criterion stored it.
struct Measurement {
    name: String,
    mean_ns: f64,
    throughput: Option<Throughput>,
}

enum Throughput {
    Elements(f64),
    Bytes(f64),
}

/// Maps `gc` or `js-gc` to the package name and the group prefix.
fn package_and_prefix(krate: &str) -> (String, String) {
    let short = krate.strip_prefix("js-").unwrap_or(krate);
    (format!("js-{short}"), format!("{short}/"))
}

/// Runs the criterion benchmarks of one crate (`krate`, full measurement
/// times) or of every crate (`quick`: criterion's `--quick` mode, which
/// stops each benchmark once two samples agree), and returns one table per
/// group, the `fact:` lines under the last one.
pub fn run(krate: Option<&str>, quick: bool) -> Result<Vec<Table>, TaskError> {
    let started = SystemTime::now();
    let package = krate.map(package_and_prefix);
    let mut args = vec!["bench", "--all-features"];
    let prefix = if let Some((package, prefix)) = &package {
        args.extend(["-p", package.as_str()]);
        prefix.as_str()
    } else {
        // `--bench "*"` selects the `[[bench]]` targets only: `--benches` would
        // also run the libtest harnesses, which reject criterion's options.
        args.extend(["--workspace", "--bench", "*"]);
        ""
    };
    if quick {
        args.extend(["--", "--quick", "--noplot"]);
    }
    let mut facts = Vec::new();
    let mut cmd = cargo(&args);
    run_observed(&format!("cargo {}", args.join(" ")), &mut cmd, |line| {
        if let Some(fact) = line.strip_prefix("fact: ") {
            facts.push(fact.to_string());
        }
    })?;

    let groups = read_results(&target_dir().join("criterion"), prefix, started)?;
    if groups.is_empty() {
        return Err(TaskError::Results(format!("no criterion results for groups starting with `{prefix}`")));
    }
    let mut tables: Vec<Table> = groups.iter().map(|(group, rows)| group_table(group, rows)).collect();
    if let Some(last) = tables.last_mut() {
        last.notes.extend(facts.into_iter().map(|fact| format!("fact: {fact}")));
    }
    Ok(tables)
}

/// Reads every `new/benchmark.json` under `dir` written since `since`.
fn read_results(dir: &Path, prefix: &str, since: SystemTime) -> Result<BTreeMap<String, Vec<Measurement>>, TaskError> {
    let mut groups: BTreeMap<String, Vec<Measurement>> = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(path) = pending.pop() {
        let Ok(entries) = fs::read_dir(&path) else { continue };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let is_new_benchmark = path.file_name().is_some_and(|n| n == "benchmark.json")
                && path.parent().is_some_and(|p| p.ends_with("new"));
            let fresh = entry.metadata().and_then(|m| m.modified()).is_ok_and(|modified| modified >= since);
            if is_new_benchmark && fresh {
                let (group, measurement) = read_one(&path)?;
                if group.starts_with(prefix) {
                    groups.entry(group).or_default().push(measurement);
                }
            }
        }
    }
    Ok(groups)
}

fn read_json(path: &Path) -> Result<Value, TaskError> {
    let text = fs::read_to_string(path).map_err(|e| TaskError::Results(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| TaskError::Results(format!("{}: {e}", path.display())))
}

fn read_one(benchmark_json: &Path) -> Result<(String, Measurement), TaskError> {
    let meta = read_json(benchmark_json)?;
    let estimates = read_json(&benchmark_json.with_file_name("estimates.json"))?;
    let text = |key: &str| meta.get(key).and_then(Value::as_str).map(str::to_string);
    let group = text("group_id").unwrap_or_default();
    let mut name = text("function_id").unwrap_or_default();
    if let Some(value) = text("value_str") {
        name = if name.is_empty() { value } else { format!("{name}/{value}") };
    }
    let mean_ns = estimates
        .pointer("/mean/point_estimate")
        .and_then(Value::as_f64)
        .ok_or_else(|| TaskError::Results(format!("{}: no mean estimate", benchmark_json.display())))?;
    let throughput = meta.get("throughput").and_then(|t| {
        let count = |key| t.get(key).and_then(Value::as_f64);
        count("Elements").map(Throughput::Elements).or_else(|| count("Bytes").map(Throughput::Bytes))
    });
    Ok((group, Measurement { name, mean_ns, throughput }))
}

fn format_throughput(throughput: Option<&Throughput>, mean_ns: f64) -> String {
    let seconds = mean_ns / 1e9;
    match throughput {
        Some(Throughput::Elements(n)) => format!("{:.1} M/s", n / seconds / 1e6),
        Some(Throughput::Bytes(n)) => format!("{:.2} GB/s", n / seconds / 1e9),
        None => String::new(),
    }
}

/// One group's results, fastest first, with each one's ratio to the fastest.
fn group_table(group: &str, rows: &[Measurement]) -> Table {
    let mut rows: Vec<&Measurement> = rows.iter().collect();
    rows.sort_by(|a, b| a.mean_ns.total_cmp(&b.mean_ns));
    let fastest = rows.first().map_or(1.0, |m| m.mean_ns);
    let mut table = Table::new(group, &["benchmark", "mean", "throughput", "× fastest"]);
    for m in rows {
        table.rows.push(vec![
            m.name.clone(),
            format_time(m.mean_ns),
            format_throughput(m.throughput.as_ref(), m.mean_ns),
            format!("{:.2}", m.mean_ns / fastest),
        ]);
    }
    table
}
