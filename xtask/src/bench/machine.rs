//! The facts recorded with every results file: date, CPU, cores, OS,
//! toolchain, node and the git commit measured.

use std::process::Command;

use crate::command::workspace_root;

/// First line of a program's stdout, or `None` if it cannot run.
fn first_line(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).current_dir(workspace_root()).output().ok()?;
    if !output.status.success() {
        return None;
    }
    String::from_utf8_lossy(&output.stdout).lines().next().map(|line| line.trim().to_string())
}

fn cpu_model() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name")?.split_once(':').map(|(_, model)| model.trim().to_string()))
        .unwrap_or_else(|| "unknown".into())
}

fn operating_system() -> String {
    let release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
    let name = release
        .lines()
        .find_map(|line| line.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_string()))
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    match first_line("uname", &["-r"]) {
        Some(kernel) => format!("{name}, kernel {kernel}"),
        None => name,
    }
}

/// `(label, value)` pairs describing this machine and checkout.
pub fn describe() -> Vec<(&'static str, String)> {
    let unknown = || "unknown".to_string();
    let commit = first_line("git", &["rev-parse", "HEAD"]).unwrap_or_else(unknown);
    let dirty = first_line("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
    vec![
        ("date", first_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(unknown)),
        ("CPU", cpu_model()),
        ("cores", std::thread::available_parallelism().map_or_else(|_| unknown(), |n| n.to_string())),
        ("OS", operating_system()),
        ("rustc", first_line("rustc", &["--version"]).unwrap_or_else(unknown)),
        ("node", first_line("node", &["--version"]).unwrap_or_else(|| "not available".into())),
        ("git commit", if dirty { format!("{commit} (with uncommitted changes)") } else { commit }),
    ]
}
