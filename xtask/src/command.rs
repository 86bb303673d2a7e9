//! Running cargo and other programs from the workspace root.

use std::ffi::OsStr;
use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

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

/// The directory cargo builds this workspace into: where `cargo build
/// --release` leaves `release/jsvm`, criterion its `criterion/` estimates,
/// and where xtask keeps what it builds or writes itself (`peers/`,
/// `loom/`, `octane/`).
///
/// Cargo is asked (`cargo metadata`'s `target_directory`), so every way of
/// moving the directory counts: `CARGO_TARGET_DIR`,
/// `CARGO_BUILD_TARGET_DIR` and `build.target-dir` in any cargo config
/// file. If cargo cannot answer, the environment variables decide, as
/// [`target_dir_from_env`] describes. The answer is computed once per run.
pub fn target_dir() -> PathBuf {
    static TARGET_DIR: OnceLock<PathBuf> = OnceLock::new();
    TARGET_DIR
        .get_or_init(|| {
            let root = workspace_root();
            cargo_metadata_target_dir().unwrap_or_else(|| {
                target_dir_from_env(
                    &root,
                    std::env::var_os("CARGO_TARGET_DIR").as_deref(),
                    std::env::var_os("CARGO_BUILD_TARGET_DIR").as_deref(),
                )
            })
        })
        .clone()
}

/// The target directory `cargo metadata` reports for the workspace, if
/// cargo runs and its output names one.
fn cargo_metadata_target_dir() -> Option<PathBuf> {
    let output = cargo(&["metadata", "--format-version", "1", "--no-deps", "--offline"]).output().ok()?;
    if !output.status.success() {
        return None;
    }
    target_directory_of_metadata(&output.stdout)
}

/// The `target_directory` field of `cargo metadata --format-version 1`
/// output.
fn target_directory_of_metadata(json: &[u8]) -> Option<PathBuf> {
    let metadata: serde_json::Value = serde_json::from_slice(json).ok()?;
    metadata.get("target_directory")?.as_str().filter(|dir| !dir.is_empty()).map(PathBuf::from)
}

/// Cargo's rule for the target directory from its environment variables
/// alone: `CARGO_TARGET_DIR` if set and not empty, else
/// `CARGO_BUILD_TARGET_DIR`, else `target` under the workspace root; a
/// relative path is taken from `root`, the directory every cargo command
/// xtask starts runs in (see [`cargo`]).
pub fn target_dir_from_env(root: &Path, cargo_target_dir: Option<&OsStr>, build_target_dir: Option<&OsStr>) -> PathBuf {
    let chosen = [cargo_target_dir, build_target_dir].into_iter().flatten().find(|dir| !dir.is_empty());
    match chosen {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
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

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::path::Path;

    use super::{target_dir_from_env, target_directory_of_metadata};

    #[test]
    fn target_dir_defaults_to_target_under_the_root() {
        let root = Path::new("/repo");
        assert_eq!(target_dir_from_env(root, None, None), Path::new("/repo/target"));
        // Set but empty counts as unset, as for cargo.
        assert_eq!(target_dir_from_env(root, Some(OsStr::new("")), None), Path::new("/repo/target"));
    }

    #[test]
    fn cargo_target_dir_wins_over_cargo_build_target_dir() {
        let root = Path::new("/repo");
        let (env, build) = (Some(OsStr::new("/tmp/t1")), Some(OsStr::new("/tmp/t2")));
        assert_eq!(target_dir_from_env(root, env, build), Path::new("/tmp/t1"));
        assert_eq!(target_dir_from_env(root, None, build), Path::new("/tmp/t2"));
        assert_eq!(target_dir_from_env(root, Some(OsStr::new("")), build), Path::new("/tmp/t2"));
    }

    #[test]
    fn relative_target_dirs_are_taken_from_the_root() {
        let root = Path::new("/repo");
        assert_eq!(target_dir_from_env(root, Some(OsStr::new("out")), None), Path::new("/repo/out"));
        assert_eq!(target_dir_from_env(root, None, Some(OsStr::new("../t"))), Path::new("/repo/../t"));
    }

    #[test]
    fn metadata_names_the_target_directory() {
        let json = br#"{"packages":[],"target_directory":"/elsewhere/target","version":1}"#;
        assert_eq!(target_directory_of_metadata(json).as_deref(), Some(Path::new("/elsewhere/target")));
        assert_eq!(target_directory_of_metadata(br#"{"version":1}"#), None);
        assert_eq!(target_directory_of_metadata(b"not json"), None);
    }

    /// What this run of the tests resolves agrees with where cargo built
    /// the test binary itself (`.../<target>/debug/deps/xtask-...`).
    #[test]
    fn target_dir_holds_this_test_binary() {
        let exe = std::env::current_exe().expect("test binary path");
        let target = super::target_dir();
        let target = target.canonicalize().unwrap_or(target);
        assert!(exe.starts_with(&target), "{} is not under {}", exe.display(), target.display());
    }
}
