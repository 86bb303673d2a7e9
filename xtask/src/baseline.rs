//! Baseline files of the conformance runners: a JSON object from a name (a
//! test262 directory, a WPT file) to its recorded pass count, and the check
//! that no count fell below it.

use std::collections::BTreeMap;
use std::path::Path;

use crate::command::TaskError;

/// Writes `passed` (name → pass count) as a pretty JSON object.
pub fn write<'a>(path: &Path, passed: impl Iterator<Item = (&'a String, u64)>) -> Result<(), TaskError> {
    let map: serde_json::Map<String, serde_json::Value> =
        passed.map(|(k, n)| (k.clone(), serde_json::Value::from(n))).collect();
    let json = serde_json::to_string_pretty(&map).map_err(|e| TaskError::Conformance(e.to_string()))?;
    std::fs::write(path, json + "\n").map_err(|e| TaskError::Conformance(format!("{}: {e}", path.display())))
}

/// Reads a baseline: pass counts by name.
pub fn read(path: &Path) -> Result<BTreeMap<String, u64>, TaskError> {
    let text = std::fs::read_to_string(path).map_err(|e| TaskError::Conformance(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| TaskError::Conformance(format!("{}: {e}", path.display())))
}

/// Fails if any name that ran passes fewer tests than its baseline. `label`
/// names the runner and `unit` what a name is, for the messages.
pub fn check<'a>(
    label: &str,
    unit: &str,
    passed: impl Iterator<Item = (&'a String, u64)>,
    baseline: &BTreeMap<String, u64>,
) -> Result<(), TaskError> {
    let mut regressions = Vec::new();
    let mut checked = 0;
    for (name, n) in passed {
        checked += 1;
        if let Some(&expected) = baseline.get(name)
            && n < expected
        {
            regressions.push(format!("{name}: {n} passed, baseline {expected}"));
        }
    }
    if regressions.is_empty() {
        println!("{label}: no {unit} fell below its baseline ({checked} checked)");
        Ok(())
    } else {
        for r in &regressions {
            println!("REGRESSION {r}");
        }
        Err(TaskError::Conformance(format!("{label}: {} fell below their baseline", regressions.len())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_flags_only_drops() {
        let (a, b) = ("a".to_owned(), "b".to_owned());
        let counts = [(&a, 8), (&b, 5)];
        let mut baseline = BTreeMap::new();
        baseline.insert("a".to_owned(), 7);
        assert!(check("t", "dir", counts.iter().copied(), &baseline).is_ok());
        baseline.insert("b".to_owned(), 6);
        assert!(check("t", "dir", counts.iter().copied(), &baseline).is_err());
    }
}
