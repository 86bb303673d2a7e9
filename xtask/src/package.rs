//! `cargo xtask package`: every subsystem crate packages as it would be
//! published, and the packaged sources build on their own.
//!
//! `cargo package` with several `-p` packages them together: a crate whose
//! dependency is an unpublished sibling is verified against that sibling's
//! freshly packaged sources (cargo overlays a local registry of them), so
//! nothing has to be on crates.io first and nothing reaches the network but
//! the registry the dependencies already come from.

use std::fs;

use crate::command::{self, TaskError, cargo, workspace_root};

/// The published crates, in dependency order (each after the crates it
/// depends on; `dependency_order_holds` checks the manifests agree).
pub const SUBSYSTEM_CRATES: [&str; 6] =
    ["js-gc", "js-json", "js-async-context", "js-microtask", "js-promise", "js-streams"];

pub fn run(args: &[String]) -> Result<(), TaskError> {
    if let Some(arg) = args.first() {
        return Err(TaskError::Usage(format!("`package` takes no arguments, got `{arg}`")));
    }
    if let Some(problem) = dependency_order_problem(&manifests()) {
        return Err(TaskError::Usage(problem));
    }
    // Uncommitted work is checked too (`--allow-dirty`): what is packaged
    // is the working tree, which is what a commit of it would publish.
    let mut cmd_args = vec!["package", "--allow-dirty"];
    for krate in SUBSYSTEM_CRATES {
        cmd_args.extend(["-p", krate]);
    }
    command::run("cargo package (the subsystem crates, verified)", &mut cargo(&cmd_args))
}

/// Each subsystem crate's manifest text, in [`SUBSYSTEM_CRATES`] order.
fn manifests() -> Vec<(&'static str, String)> {
    SUBSYSTEM_CRATES
        .iter()
        .map(|&krate| {
            let path = workspace_root().join("crates").join(krate).join("Cargo.toml");
            (krate, fs::read_to_string(path).unwrap_or_default())
        })
        .collect()
}

/// The first crate that depends (normal dependencies only: dev-dependencies
/// are stripped from a package) on a sibling listed after it, if one does.
fn dependency_order_problem(manifests: &[(&str, String)]) -> Option<String> {
    for (index, (krate, manifest)) in manifests.iter().enumerate() {
        for dependency in normal_dependencies(manifest) {
            let later = manifests[index + 1..].iter().any(|(other, _)| *other == dependency);
            if later {
                return Some(format!("{krate} depends on {dependency}, which SUBSYSTEM_CRATES lists after it"));
            }
        }
    }
    None
}

/// The names in a manifest's `[dependencies]` table.
fn normal_dependencies(manifest: &str) -> Vec<&str> {
    let mut in_dependencies = false;
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies
            && let Some((name, _)) = line.split_once(['=', '.'])
            && !name.starts_with('#')
        {
            names.push(name.trim());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::{dependency_order_problem, manifests, normal_dependencies};

    #[test]
    fn dependency_order_holds() {
        assert_eq!(dependency_order_problem(&manifests()), None);
    }

    #[test]
    fn a_crate_before_its_dependency_is_reported() {
        let manifests = [
            ("a", "[package]\nname = \"a\"\n\n[dependencies]\nb.workspace = true\n".to_owned()),
            ("b", "[package]\nname = \"b\"\n".to_owned()),
        ];
        assert_eq!(
            dependency_order_problem(&manifests).as_deref(),
            Some("a depends on b, which SUBSYSTEM_CRATES lists after it")
        );
    }

    #[test]
    fn dev_dependencies_do_not_count() {
        let manifest = "[dependencies]\n# a comment\nx = \"1\"\ny.workspace = true\n\n[dev-dependencies]\nz = \"1\"\n";
        assert_eq!(normal_dependencies(manifest), ["x", "y"]);
    }
}
