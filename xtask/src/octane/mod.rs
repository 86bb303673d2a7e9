//! `cargo xtask octane [--check] [--filter NAME]`: Octane 2.0 from
//! `../shared/benchmarks/octane` on jsvm and on the peers the bench finds.
//!
//! Each benchmark runs as its README describes: one classic global script
//! made of `base.js`, the program's files and a driver that calls
//! `BenchmarkSuite.RunSuites`. jsvm runs it with `--script` (no `require` in
//! scope, as in d8), node and `node --jitless` through
//! `vm.runInThisContext` (so top-level `var`s are globals), the `QuickJS`
//! and Boa runners as a plain file.
//!
//! Without `--check` every engine runs the suite's own timing (a warm-up,
//! then at least a second and 32 iterations per benchmark), the scores and
//! ratios are printed and `bench/OCTANE.md` is written. `--check` is CI's
//! correctness run: jsvm alone, each benchmark once (one deterministic
//! iteration, then the program's own validation), failing on any error.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::bench::engines::{self, Engine};
use crate::bench::table::Table;
use crate::bench::{machine, workloads};
use crate::command::{self, TaskError, cargo, workspace_root};

/// One Octane benchmark: its name in the suite's results and the files that
/// follow `base.js`, in order.
struct Benchmark {
    /// The file stem used for the generated script and `--filter`.
    id: &'static str,
    /// The program's files after `base.js`.
    files: &'static [&'static str],
}

/// Every program of the stored Octane 2.0 (`mandreel` is not stored).
const BENCHMARKS: &[Benchmark] = &[
    Benchmark { id: "richards", files: &["richards.js"] },
    Benchmark { id: "deltablue", files: &["deltablue.js"] },
    Benchmark { id: "crypto", files: &["crypto.js"] },
    Benchmark { id: "raytrace", files: &["raytrace.js"] },
    Benchmark { id: "earley-boyer", files: &["earley-boyer.js"] },
    Benchmark { id: "regexp", files: &["regexp.js"] },
    Benchmark { id: "splay", files: &["splay.js"] },
    Benchmark { id: "navier-stokes", files: &["navier-stokes.js"] },
    Benchmark { id: "pdfjs", files: &["pdfjs.js"] },
    Benchmark { id: "gbemu", files: &["gbemu-part1.js", "gbemu-part2.js"] },
    Benchmark { id: "code-load", files: &["code-load.js"] },
    Benchmark { id: "box2d", files: &["box2d.js"] },
    Benchmark { id: "zlib", files: &["zlib.js", "zlib-data.js"] },
    Benchmark { id: "typescript", files: &["typescript.js", "typescript-input.js", "typescript-compiler.js"] },
];

/// Longest one engine may take over one benchmark.
const TIMEOUT: Duration = Duration::from_mins(10);

/// d8's host functions where the engine has none: `print` (`console.log`),
/// and `read`, which zlib's emscripten prologue stores as its file reader
/// in a shell without `require` but never calls during the benchmark.
const HOST_SHIM: &str = "if (typeof print === 'undefined') globalThis.print = function () { console.log.apply(console, arguments); };\n\
     if (typeof read === 'undefined') globalThis.read = function (name) { throw new Error('read(' + name + '): this \
     host reads no files'); };\n";

/// Reports each result on its own line the runner reads back.
const RUNNER: &str = "BenchmarkSuite.RunSuites({\n  \
     NotifyResult: function (name, score) { print('octane-result ' + name + ' ' + score); },\n  \
     NotifyError: function (name, error) { print('octane-error ' + name + ' ' + error); },\n  \
     NotifyScore: function (score) { print('octane-score ' + score); }\n});\n";

/// `--check`: one deterministic iteration of every benchmark and no warm-up
/// (each program still runs its setup and checks its result).
const CHECK_CONFIG: &str = "BenchmarkSuite.config.doWarmup = false;\nBenchmarkSuite.config.doDeterministic = true;\n\
     BenchmarkSuite.suites.forEach(function (suite) {\n  \
     suite.benchmarks.forEach(function (b) { b.deterministicIterations = 1; b.minIterations = 1; });\n});\n";

/// Runs a file as a classic script in node's main context.
const NODE_DRIVER: &str = "const file = process.argv[2];\n\
     require('vm').runInThisContext(require('fs').readFileSync(file, 'utf8'), { filename: file });\n";

struct Options {
    check: bool,
    filter: Option<String>,
}

fn parse_options(args: &[String]) -> Result<Options, TaskError> {
    let mut options = Options { check: false, filter: None };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => options.check = true,
            "--filter" => {
                let value = args.next().ok_or_else(|| TaskError::Usage("--filter needs a benchmark name".into()))?;
                options.filter = Some(value.clone());
            }
            other => return Err(TaskError::Usage(format!("octane: unknown argument {other}"))),
        }
    }
    Ok(options)
}

fn octane_root() -> PathBuf {
    workspace_root().join("..").join("shared").join("benchmarks").join("octane")
}

/// Writes the script of `benchmark` into `dir` and returns its path.
fn write_script(benchmark: &Benchmark, check: bool, dir: &Path) -> Result<PathBuf, TaskError> {
    let root = octane_root();
    let read = |name: &str| {
        std::fs::read_to_string(root.join(name)).map_err(|e| TaskError::Results(format!("octane/{name}: {e}")))
    };
    let mut script = String::from(HOST_SHIM);
    for name in std::iter::once(&"base.js").chain(benchmark.files) {
        script.push_str(&read(name)?);
        // A file may end in a line comment or without a semicolon.
        script.push_str("\n;\n");
    }
    if check {
        script.push_str(CHECK_CONFIG);
    }
    script.push_str(RUNNER);
    let suffix = if check { "-check" } else { "" };
    let path = dir.join(format!("{}{suffix}.js", benchmark.id));
    std::fs::write(&path, script).map_err(|e| TaskError::Results(format!("{}: {e}", path.display())))?;
    Ok(path)
}

/// The command that runs `script` on `engine`, if the engine is available.
fn command_for(engine: &Engine, script: &Path, node_driver: &Path) -> Option<Command> {
    let (program, args) = engine.command.as_ref().ok()?;
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(std::process::Stdio::null());
    match engine.name {
        "jsvm" => cmd.arg("--script").arg(script),
        name if name.starts_with("node") => cmd.arg(node_driver).arg(script),
        _ => cmd.arg(script),
    };
    Some(cmd)
}

/// What one engine reported for one benchmark program.
#[derive(Debug, Default, PartialEq)]
struct SuiteRun {
    /// `(benchmark name, score)` from `NotifyResult`.
    scores: Vec<(String, f64)>,
    /// `(benchmark name, error)` from `NotifyError`, or the engine's failure.
    errors: Vec<(String, String)>,
}

/// Reads the `octane-*` lines a run printed.
fn parse_run(stdout: &str) -> SuiteRun {
    let mut run = SuiteRun::default();
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("octane-result ") {
            let (name, score) = rest.rsplit_once(' ').unwrap_or((rest, ""));
            match score.parse::<f64>() {
                Ok(score) if score.is_finite() && score > 0.0 => run.scores.push((name.to_owned(), score)),
                _ => run.errors.push((name.to_owned(), format!("bad score {score:?}"))),
            }
        } else if let Some(rest) = line.strip_prefix("octane-error ") {
            let (name, error) = rest.split_once(' ').unwrap_or((rest, ""));
            run.errors.push((name.to_owned(), error.to_owned()));
        }
    }
    run
}

/// Runs one benchmark script on one engine.
fn run_one(cmd: Command, program: &str) -> SuiteRun {
    let finished = workloads::run_to_end(cmd, TIMEOUT);
    let mut run = parse_run(&finished.stdout);
    let failure = match finished.status {
        Ok(status) if status.success() => None,
        Ok(status) => Some(format!("exited with {status}: {}", workloads::last_lines(&finished.stderr, 4))),
        Err(reason) => Some(reason),
    };
    if let Some(failure) = failure {
        run.errors.push((program.to_owned(), failure));
    } else if run.scores.is_empty() && run.errors.is_empty() {
        run.errors.push((program.to_owned(), "printed no result".to_owned()));
    }
    run
}

/// The geometric mean of `values` (none: `None`).
fn geometric_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    Some((values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp())
}

/// Entry point of `cargo xtask octane`.
pub fn run(args: &[String]) -> Result<(), TaskError> {
    let options = parse_options(args)?;
    command::run(
        "cargo build --release -p js-vm --bin jsvm",
        &mut cargo(&["build", "--release", "-p", "js-vm", "--bin", "jsvm"]),
    )?;
    let dir = command::target_dir().join("octane");
    std::fs::create_dir_all(&dir).map_err(|e| TaskError::Results(format!("{}: {e}", dir.display())))?;
    let node_driver = dir.join("node-driver.js");
    std::fs::write(&node_driver, NODE_DRIVER).map_err(|e| TaskError::Results(e.to_string()))?;
    let selected: Vec<&Benchmark> =
        BENCHMARKS.iter().filter(|b| options.filter.as_deref().is_none_or(|f| b.id.contains(f))).collect();
    if selected.is_empty() {
        return Err(TaskError::Usage("octane: --filter matches no benchmark".into()));
    }
    // Boa with js-json or js-microtask differs from Boa only in JSON or in
    // its job queue, which Octane hardly exercises: not worth more Boa runs
    // of every program.
    let engines: Vec<Engine> = engines::all()
        .into_iter()
        .filter(|engine| {
            (!options.check || engine.name == "jsvm")
                && ![engines::BOA_JS_JSON, engines::BOA_JS_MICROTASK].contains(&engine.name)
        })
        .collect();
    // runs[e][b]: engine e on benchmark program b.
    let mut runs: Vec<Vec<SuiteRun>> = engines.iter().map(|_| Vec::new()).collect();
    for benchmark in &selected {
        let script = write_script(benchmark, options.check, &dir)?;
        for (engine, engine_runs) in engines.iter().zip(&mut runs) {
            let run = match command_for(engine, &script, &node_driver) {
                Some(cmd) => {
                    eprintln!("==> octane {} on {}", benchmark.id, engine.name);
                    run_one(cmd, benchmark.id)
                }
                None => SuiteRun::default(),
            };
            engine_runs.push(run);
        }
    }
    let failures: Vec<String> = runs[0]
        .iter()
        .flat_map(|run| &run.errors)
        .map(|(name, error)| format!("{name}: {}", error.lines().next().unwrap_or_default()))
        .collect();
    if options.check {
        for (benchmark, run) in selected.iter().zip(&runs[0]) {
            let scores: Vec<String> = run.scores.iter().map(|(name, score)| format!("{name} {score}")).collect();
            println!("octane {}: {}", benchmark.id, if scores.is_empty() { "-".into() } else { scores.join(", ") });
        }
    } else {
        let table = score_table(&engines, &runs);
        println!("\n{}", table.to_text());
        if options.filter.is_none() {
            let path = workspace_root().join("bench").join("OCTANE.md");
            std::fs::write(&path, octane_markdown(&engines, &table))
                .map_err(|e| TaskError::Results(format!("{}: {e}", path.display())))?;
            println!("wrote bench/OCTANE.md");
        }
    }
    if failures.is_empty() {
        println!("octane: {} programs ran on jsvm without error", selected.len());
        Ok(())
    } else {
        for failure in &failures {
            println!("octane FAILED on jsvm: {failure}");
        }
        Err(TaskError::Results(format!("{} Octane benchmarks failed on jsvm", failures.len())))
    }
}

/// One row per benchmark (scores, higher is better), then jsvm's score
/// divided by each peer's, and a geometric-mean row over the benchmarks
/// every engine in the ratio completed.
fn score_table(engines: &[Engine], runs: &[Vec<SuiteRun>]) -> Table {
    let mut headers: Vec<String> = vec!["benchmark".into()];
    headers.extend(engines.iter().map(|e| e.name.to_owned()));
    headers.extend(engines.iter().skip(1).map(|e| format!("jsvm ÷ {}", e.name)));
    let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut table = Table::new("Octane 2.0 scores (higher is better)", &header_refs);
    let score_of = |engine: usize, name: &str| {
        runs[engine].iter().flat_map(|r| &r.scores).find(|(n, _)| n == name).map(|(_, s)| *s)
    };
    let names: Vec<String> =
        runs.iter().flatten().flat_map(|r| &r.scores).map(|(n, _)| n.clone()).fold(Vec::new(), |mut names, name| {
            if !names.contains(&name) {
                names.push(name);
            }
            names
        });
    let mut ratios: Vec<Vec<f64>> = engines.iter().skip(1).map(|_| Vec::new()).collect();
    let mut own_scores: Vec<Vec<f64>> = engines.iter().map(|_| Vec::new()).collect();
    for name in &names {
        let scores: Vec<Option<f64>> = (0..engines.len()).map(|e| score_of(e, name)).collect();
        let mut row = vec![name.clone()];
        for (e, score) in scores.iter().enumerate() {
            row.push(score.map_or_else(|| "–".into(), |s| format!("{s:.0}")));
            if let Some(s) = score {
                own_scores[e].push(*s);
            }
        }
        for (peer, peer_ratios) in ratios.iter_mut().enumerate() {
            match (scores[0], scores[peer + 1]) {
                (Some(ours), Some(theirs)) => {
                    peer_ratios.push(ours / theirs);
                    row.push(format!("{:.2}", ours / theirs));
                }
                _ => row.push("–".into()),
            }
        }
        table.rows.push(row);
    }
    let mut mean_row = vec!["geometric mean".to_owned()];
    mean_row.extend(own_scores.iter().map(|s| geometric_mean(s).map_or_else(|| "–".into(), |m| format!("{m:.0}"))));
    mean_row.extend(ratios.iter().map(|r| geometric_mean(r).map_or_else(|| "–".into(), |m| format!("{m:.2}"))));
    table.rows.push(mean_row);
    for (engine, engine_runs) in engines.iter().zip(runs) {
        for (name, error) in engine_runs.iter().flat_map(|r| &r.errors) {
            table.notes.push(format!("{} failed {name}: {}", engine.name, error.lines().next().unwrap_or_default()));
        }
        if let Err(why) = &engine.command {
            table.notes.push(format!("{}: not available ({why})", engine.name));
        }
    }
    table
}

/// The text of `bench/OCTANE.md`.
fn octane_markdown(engines: &[Engine], table: &Table) -> String {
    let mut out = String::from(
        "# Octane 2.0\n\nWritten by `cargo xtask octane` — rerun it rather than editing. Each program of \
         `../shared/benchmarks/octane` runs as one classic global script with the suite's own timing (a warm-up, \
         then at least one second and 32 iterations per benchmark); a score is higher when faster, and \
         \"jsvm ÷ peer\" below 1 means jsvm is slower. Wall-clock figures on a shared machine are noisy: compare \
         ratios within one run.\n\n| | |\n| --- | --- |\n",
    );
    for (label, value) in machine::describe() {
        let _ = writeln!(out, "| {label} | {value} |");
    }
    let names: Vec<&str> = engines.iter().map(|e| e.name).collect();
    let _ = writeln!(out, "| engines | {} |\n", names.join(", "));
    out.push_str(&table.to_markdown());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_results_errors_and_ignores_other_lines() {
        let run = parse_run(
            "warming up\noctane-result Richards 143\noctane-error Zlib TypeError: x is not a function\n\
             octane-result NavierStokes NaN\noctane-score 150\n",
        );
        assert_eq!(run.scores, vec![("Richards".to_owned(), 143.0)]);
        assert_eq!(
            run.errors,
            vec![
                ("Zlib".to_owned(), "TypeError: x is not a function".to_owned()),
                ("NavierStokes".to_owned(), "bad score \"NaN\"".to_owned()),
            ]
        );
    }

    #[test]
    fn geometric_mean_of_scores() {
        assert_eq!(geometric_mean(&[]), None);
        let mean = geometric_mean(&[2.0, 8.0]).unwrap_or_default();
        assert!((mean - 4.0).abs() < 1e-12, "{mean}");
    }

    #[test]
    fn every_listed_file_is_stored() {
        let root = octane_root();
        for benchmark in BENCHMARKS {
            for file in std::iter::once(&"base.js").chain(benchmark.files) {
                assert!(root.join(file).is_file(), "{} needs {file}", benchmark.id);
            }
        }
    }
}
