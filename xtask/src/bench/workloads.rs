//! The JS workloads in `bench/workloads`: finding them, reading their
//! `// requires:` headers, running them on an engine and reading the lines
//! they print (the protocol is described in `bench/README.md`).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::command::{TaskError, workspace_root};

/// Longest one engine may take over one workload file before it is stopped.
const TIMEOUT: Duration = Duration::from_mins(5);

/// One workload program.
pub struct Workload {
    /// Its file.
    pub path: PathBuf,
    /// The file name without extension (`async-await`).
    pub name: String,
    /// Host APIs from its `// requires: A, B` header line.
    pub requires: Vec<String>,
}

/// What one case of a workload reported on one engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// `ops` operations in `ms` milliseconds.
    Measured { ops: f64, ms: f64 },
    /// The program skipped the case and said why.
    Skipped(String),
    /// The program or engine failed.
    Failed(String),
}

/// The cases one run printed, in order, and a failure that no case line
/// carries (a crash, an uncaught exception, a timeout).
#[derive(Debug, Default)]
pub struct RunResult {
    /// `(case name, outcome)` in the order printed.
    pub cases: Vec<(String, Outcome)>,
    /// Why the run as a whole failed, if it did.
    pub failure: Option<String>,
    /// Everything the program wrote to stderr.
    pub stderr: String,
}

/// Every `bench/workloads/*.js` and `*.mjs`, sorted by name.
pub fn discover() -> Result<Vec<Workload>, TaskError> {
    let dir = workspace_root().join("bench/workloads");
    let entries = fs::read_dir(&dir).map_err(|e| TaskError::Results(format!("{}: {e}", dir.display())))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "js" || ext == "mjs"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let source =
                fs::read_to_string(&path).map_err(|e| TaskError::Results(format!("{}: {e}", path.display())))?;
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            Ok(Workload { requires: requirements(&source), path, name })
        })
        .collect()
}

/// The host APIs named on `// requires:` lines among the leading comments.
pub fn requirements(source: &str) -> Vec<String> {
    source
        .lines()
        .take_while(|line| line.starts_with("//") || line.trim().is_empty())
        .filter_map(|line| line.strip_prefix("//")?.trim().strip_prefix("requires:"))
        .flat_map(|list| list.split(',').map(str::trim).filter(|api| !api.is_empty()).map(str::to_string))
        .collect()
}

/// Reads the protocol lines of a run's stdout; other lines are ignored.
pub fn parse_output(stdout: &str) -> Vec<(String, Outcome)> {
    let mut cases = Vec::new();
    for line in stdout.lines().filter(|line| line.starts_with('{')) {
        let Ok(value) = serde_json::from_str::<Value>(line) else { continue };
        let Some(name) = value.get("bench").and_then(Value::as_str) else { continue };
        let outcome = if let Some(error) = value.get("error") {
            Outcome::Failed(error.as_str().map_or_else(|| error.to_string(), str::to_string))
        } else if let Some(reason) = value.get("skip") {
            Outcome::Skipped(reason.as_str().map_or_else(|| reason.to_string(), str::to_string))
        } else {
            match (value.get("ops").and_then(Value::as_f64), value.get("ms").and_then(Value::as_f64)) {
                (Some(ops), Some(ms)) if ops > 0.0 && ms > 0.0 => Outcome::Measured { ops, ms },
                _ => Outcome::Failed(format!("malformed result line: {line}")),
            }
        };
        cases.push((name.to_string(), outcome));
    }
    cases
}

/// Runs `cmd` to completion (or `TIMEOUT`) and reads its protocol lines.
pub fn run(cmd: Command) -> RunResult {
    let finished = run_to_end(cmd, TIMEOUT);
    let cases = parse_output(&finished.stdout);
    let failure = match finished.status {
        Ok(status) if status.success() => None,
        Ok(status) => Some(format!("exited with {status}: {}", last_lines(&finished.stderr, 6))),
        Err(reason) => Some(reason),
    };
    RunResult { cases, failure, stderr: finished.stderr }
}

/// What a program run to its end (or stopped at its time limit) left.
pub struct Finished {
    /// How it exited, or why it did not (could not start, timed out).
    pub status: Result<ExitStatus, String>,
    /// Everything it wrote to stdout.
    pub stdout: String,
    /// Everything it wrote to stderr.
    pub stderr: String,
}

/// Runs `cmd` with both pipes captured, killing it after `timeout`.
pub fn run_to_end(mut cmd: Command, timeout: Duration) -> Finished {
    let mut child = match cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(err) => {
            let status = Err(format!("could not start {cmd:?}: {err}"));
            return Finished { status, stdout: String::new(), stderr: String::new() };
        }
    };
    // Read both pipes on threads so a chatty program cannot block on a full pipe.
    let mut stdout_pipe = child.stdout.take();
    let mut stderr_pipe = child.stderr.take();
    let stdout = std::thread::spawn(move || read_all(stdout_pipe.as_mut()));
    let stderr = std::thread::spawn(move || read_all(stderr_pipe.as_mut()));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!("timed out after {} s", timeout.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(err) => break Err(err.to_string()),
        }
    };
    Finished { status, stdout: stdout.join().unwrap_or_default(), stderr: stderr.join().unwrap_or_default() }
}

fn read_all(pipe: Option<&mut impl Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(pipe) = pipe {
        let _ = pipe.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The last `n` non-empty lines of `text`, joined with ` / `.
pub fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join(" / ")
}

/// The path relative to the workspace root, for messages.
pub fn display(path: &Path) -> String {
    path.strip_prefix(workspace_root()).unwrap_or(path).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements_come_from_leading_comments_only() {
        let source = "// requires: AsyncLocalStorage, queueMicrotask\n// text\n\"use strict\";\n// requires: later\n";
        assert_eq!(requirements(source), ["AsyncLocalStorage", "queueMicrotask"]);
        assert!(requirements("\"use strict\";\n").is_empty());
    }

    #[test]
    fn protocol_lines_are_read_and_others_ignored() {
        let out = "starting\n{\"bench\":\"a\",\"ops\":10,\"ms\":2.5}\n{\"bench\":\"b\",\"skip\":\"no streams\"}\n\
                   {\"bench\":\"c\",\"error\":\"boom\"}\n{\"bench\":\"d\",\"ops\":0,\"ms\":1}\n{not json\n";
        let cases = parse_output(out);
        assert_eq!(cases.len(), 4);
        assert_eq!(cases[0], ("a".into(), Outcome::Measured { ops: 10.0, ms: 2.5 }));
        assert_eq!(cases[1], ("b".into(), Outcome::Skipped("no streams".into())));
        assert_eq!(cases[2], ("c".into(), Outcome::Failed("boom".into())));
        assert!(matches!(&cases[3].1, Outcome::Failed(why) if why.starts_with("malformed")));
    }

    #[test]
    fn a_failing_program_is_reported_with_its_stderr() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo '{\"bench\":\"x\",\"ops\":1,\"ms\":1}'; echo oops >&2; exit 3"]);
        let result = run(cmd);
        assert_eq!(result.cases.len(), 1);
        let failure = result.failure.expect("non-zero exit is a failure");
        assert!(failure.contains("oops"), "{failure}");
    }
}
