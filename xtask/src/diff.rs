//! `cargo xtask diff [--gc-stress] [FILES]`: runs each program (default: every
//! `crates/js-vm/tests/js/*.js` and `*.mjs`, and `examples/*.js`; modules
//! the programs import live in subfolders such as `tests/js/fixtures` and
//! are not run on their own) on `jsvm` and on
//! `node` and requires the same stdout, the same exit status, and — when
//! both exit 0 — the same stderr.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::command::{self, TaskError, cargo, workspace_root};

fn default_programs() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in [root.join("crates/js-vm/tests/js"), root.join("examples")] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        files.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "js" || e == "mjs")),
        );
    }
    files.sort();
    files
}

fn run_program(program: &Path, flags: &[&str], file: &Path) -> Result<Output, TaskError> {
    Command::new(program)
        .args(flags)
        .arg(file)
        .current_dir(workspace_root())
        .output()
        .map_err(|source| TaskError::Spawn { program: program.display().to_string(), source })
}

/// Where two runs differ, if they do.
fn difference(ours: &Output, node: &Output) -> Option<String> {
    if ours.stdout != node.stdout {
        let (a, b) = (String::from_utf8_lossy(&ours.stdout), String::from_utf8_lossy(&node.stdout));
        let line = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or_else(|| a.lines().count().min(b.lines().count()));
        return Some(format!(
            "stdout differs at line {}:\n  jsvm: {:?}\n  node: {:?}",
            line + 1,
            a.lines().nth(line).unwrap_or("<end>"),
            b.lines().nth(line).unwrap_or("<end>")
        ));
    }
    if ours.status.code() != node.status.code() {
        return Some(format!("exit status: jsvm {:?}, node {:?}", ours.status.code(), node.status.code()));
    }
    if ours.status.success() && ours.stderr != node.stderr {
        return Some(format!(
            "stderr differs:\n  jsvm: {:?}\n  node: {:?}",
            String::from_utf8_lossy(&ours.stderr),
            String::from_utf8_lossy(&node.stderr)
        ));
    }
    None
}

pub fn run(args: &[String]) -> Result<(), TaskError> {
    command::run("build jsvm (release)", &mut cargo(&["build", "--release", "-p", "js-vm", "--bin", "jsvm"]))?;
    let jsvm = crate::bench::engines::jsvm_path();
    println!("jsvm: {}", jsvm.display());
    let node = PathBuf::from("node");
    // `--gc-stress`: jsvm collects at every safepoint.
    let flags: Vec<&str> = args.iter().filter(|a| *a == "--gc-stress").map(String::as_str).collect();
    let named: Vec<PathBuf> = args.iter().filter(|a| !a.starts_with("--")).map(PathBuf::from).collect();
    let files = if named.is_empty() { default_programs() } else { named };
    let mut failures = 0;
    for file in &files {
        let ours = run_program(&jsvm, &flags, file)?;
        let theirs = run_program(&node, &[], file)?;
        let name = file.strip_prefix(workspace_root()).unwrap_or(file).display();
        match difference(&ours, &theirs) {
            None => println!("same  {name}"),
            Some(why) => {
                failures += 1;
                println!("DIFF  {name}: {why}");
            }
        }
    }
    println!("diff: {} programs, {} identical, {failures} differ", files.len(), files.len() - failures);
    if failures > 0 {
        return Err(TaskError::Conformance(format!("{failures} programs print differently on jsvm and node")));
    }
    Ok(())
}
