//! The engines a workload runs on: jsvm and the peers `cargo xtask bench`
//! finds, each with the host APIs it offers beyond ECMAScript.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::command::target_dir;

/// Host APIs a workload can ask for in its `// requires:` header that jsvm
/// and node provide; the `QuickJS` and Boa runners provide only `console.log`
/// and `performance.now()`.
const NODE_HOST_APIS: &[&str] = &["AsyncLocalStorage", "queueMicrotask"];

/// The name of Boa with js-json under its `JSON` object: the same engine as
/// "Boa" but for `JSON.stringify` and `JSON.parse`.
pub const BOA_JS_JSON: &str = "Boa + js-json";

/// The name of Boa with js-microtask's `JobQueue` ordering its promise and
/// generic jobs (`xtask/peers/src/boa_jobs.rs`).
pub const BOA_JS_MICROTASK: &str = "Boa + js-microtask";

/// One engine and how to run a workload file on it.
pub struct Engine {
    /// The name shown in tables.
    pub name: &'static str,
    /// The program and the arguments before the workload path, or why the
    /// engine is not available.
    pub command: Result<(PathBuf, Vec<String>), String>,
    /// Host APIs it offers (see `NODE_HOST_APIS`).
    pub host_apis: &'static [&'static str],
}

impl Engine {
    /// A command running `workload` on this engine, if it is available.
    pub fn command_for(&self, workload: &Path) -> Option<Command> {
        let (program, args) = self.command.as_ref().ok()?;
        let mut cmd = Command::new(program);
        cmd.args(args).arg(workload).stdin(Stdio::null());
        Some(cmd)
    }

    /// The requirements in `required` that this engine lacks.
    pub fn missing<'a>(&self, required: &'a [String]) -> Vec<&'a str> {
        required.iter().map(String::as_str).filter(|api| !self.host_apis.contains(api)).collect()
    }
}

/// The release `jsvm`, as built by `cargo build --release -p js-vm`.
pub fn jsvm_path() -> PathBuf {
    target_dir().join("release").join("jsvm")
}

/// Where `cargo xtask bench --peers` builds the `QuickJS` and Boa runners (Boa
/// as it comes, with js-json under `JSON`, and with js-microtask's queue
/// under its job executor)
/// (`peers/` in the workspace's target directory).
pub fn peers_dir() -> PathBuf {
    target_dir().join("peers")
}

/// `program` found on `PATH`, as an absolute path.
fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|candidate| candidate.is_file())
}

fn peer_runner(binary: &str) -> Result<(PathBuf, Vec<String>), String> {
    let path = peers_dir().join("release").join(binary);
    if path.is_file() { Ok((path, Vec::new())) } else { Err("not built: run `cargo xtask bench --peers` once".into()) }
}

/// Every engine, in table order; jsvm first, as the baseline of the ratios.
pub fn all() -> Vec<Engine> {
    let node = on_path("node").ok_or_else(|| "`node` is not on PATH".to_string());
    vec![
        Engine { name: "jsvm", command: Ok((jsvm_path(), Vec::new())), host_apis: NODE_HOST_APIS },
        Engine { name: "node", command: node.clone().map(|p| (p, Vec::new())), host_apis: NODE_HOST_APIS },
        Engine {
            name: "node --jitless",
            command: node.map(|p| (p, vec!["--jitless".into()])),
            host_apis: NODE_HOST_APIS,
        },
        Engine { name: "QuickJS", command: peer_runner("jsvm-peer-quickjs"), host_apis: &[] },
        Engine { name: "Boa", command: peer_runner("jsvm-peer-boa"), host_apis: &[] },
        // Boa with js-json under its JSON object (xtask/peers/src/boa_json.rs):
        // a second engine adopting one of the project's crates.
        Engine { name: BOA_JS_JSON, command: peer_runner("jsvm-peer-boa-js-json"), host_apis: &[] },
        Engine { name: BOA_JS_MICROTASK, command: peer_runner("jsvm-peer-boa-js-microtask"), host_apis: &[] },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_lack_node_host_apis() {
        let engines = all();
        let required = vec!["queueMicrotask".to_string()];
        assert!(engines[0].missing(&required).is_empty(), "jsvm has queueMicrotask");
        let quickjs = engines.iter().find(|e| e.name == "QuickJS").unwrap();
        assert_eq!(quickjs.missing(&required), ["queueMicrotask"]);
    }
}
