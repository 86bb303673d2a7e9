//! What the peers' integration tests share: running a runner on a
//! program, and comparing what it wrote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (`xtask/peers/../..`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `runner` on `program`, collecting what it writes.
pub fn run(runner: &str, program: &Path) -> Output {
    Command::new(runner).arg(program).output().expect("the runner starts")
}

/// Stderr with the runner's name taken out (it names itself in errors),
/// and the thread id of a panic message (`thread 'main' (1234) panicked`:
/// Boa panics on some programs, the same way whatever crate it adopted).
pub fn stderr_of(output: &Output, runner: &str) -> String {
    let name = Path::new(runner).file_name().and_then(|n| n.to_str()).unwrap_or(runner);
    let text = String::from_utf8_lossy(&output.stderr).replace(name, "RUNNER");
    let mut normalized = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("thread 'main' (") {
        let (before, after) = rest.split_at(at + "thread 'main' (".len());
        normalized.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        normalized.push_str("ID");
        rest = &after[digits..];
    }
    normalized.push_str(rest);
    normalized
}

/// Every test program of `crates/js-vm/tests/js` (`.js`), sorted.
pub fn test_programs() -> Vec<PathBuf> {
    let dir = root().join("crates/js-vm/tests/js");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/js")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "js"))
        .collect();
    programs.sort();
    programs
}
