//! Running cargo and other programs from the workspace root.

use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Why a task failed.
#[derive(Debug)]
pub enum TaskError {
    /// A program could not be started at all.
    Spawn { program: String, source: std::io::Error },
    /// A step ran and exited unsuccessfully.
    Failed { step: String, code: Option<i32> },
    /// Benchmark results were missing or unreadable.
    Results(String),
    /// A conformance run could not run or regressed.
    Conformance(String),
    /// The command line was not understood.
    Usage(String),
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Spawn { program, source } => write!(f, "could not start `{program}`: {source}"),
            Self::Failed { step, code: Some(code) } => write!(f, "step `{step}` failed with exit code {code}"),
            Self::Failed { step, code: None } => write!(f, "step `{step}` was killed by a signal"),
            Self::Results(msg) => write!(f, "benchmark results: {msg}"),
            Self::Conformance(msg) => write!(f, "conformance: {msg}"),
            Self::Usage(msg) => write!(f, "usage: {msg} (see `cargo xtask --help`)"),
        }
    }
}

impl std::error::Error for TaskError {}

/// The workspace root (the parent of `xtask/`).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map_or(manifest.clone(), PathBuf::from)
}

/// A `cargo` invocation rooted at the workspace.
pub fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args).current_dir(workspace_root());
    cmd
}

/// Runs `cmd`, passing its output through, and fails if it fails.
pub fn run(step: &str, cmd: &mut Command) -> Result<(), TaskError> {
    eprintln!("\n==> {step}");
    let status = cmd.status().map_err(|source| TaskError::Spawn { program: format!("{cmd:?}"), source })?;
    if status.success() { Ok(()) } else { Err(TaskError::Failed { step: step.into(), code: status.code() }) }
}

/// Runs `cmd`, passing its stdout through line by line while handing each
/// line to `on_line`; fails if the command fails.
pub fn run_observed(step: &str, cmd: &mut Command, mut on_line: impl FnMut(&str)) -> Result<(), TaskError> {
    eprintln!("\n==> {step}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|source| TaskError::Spawn { program: format!("{cmd:?}"), source })?;
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            println!("{line}");
            on_line(&line);
        }
    }
    let status = child.wait().map_err(|source| TaskError::Spawn { program: format!("{cmd:?}"), source })?;
    if status.success() { Ok(()) } else { Err(TaskError::Failed { step: step.into(), code: status.code() }) }
}
