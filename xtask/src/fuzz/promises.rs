//! The promise and microtask ordering differential: random programs that
//! mix promise reactions, async functions, thenables, combinators,
//! `queueMicrotask`, `process.nextTick` and zero-delay timers, each run on
//! `jsvm` and on node; the lines they print (the order in which jobs ran)
//! must be identical. A program that differs is saved to
//! `fuzz/artifacts/promises/` for a regression test.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::command::{self, TaskError, cargo, workspace_root};

/// How many programs ran and how many printed differently.
pub struct Outcome {
    pub programs: u64,
    pub differences: usize,
}

/// A xorshift64* generator: reproducible programs from a printed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Builds one program: labelled steps that print when they run.
struct Generator {
    rng: Rng,
    label: u32,
    out: String,
}

impl Generator {
    fn label(&mut self) -> u32 {
        self.label += 1;
        self.label
    }

    /// A value expression to resolve or await with: a number, a settled
    /// promise, or a thenable (which costs extra turns).
    fn value(&mut self) -> String {
        let n = self.label();
        match self.rng.below(5) {
            0 => format!("Promise.resolve({n})"),
            1 => format!("{{ then(r) {{ p('thenable {n}'); r({n}); }} }}"),
            2 => format!("new Promise(r => r({n}))"),
            3 => format!("(async () => {n})()"),
            _ => n.to_string(),
        }
    }

    /// One statement that schedules work; `depth` bounds nesting.
    fn step(&mut self, depth: u32) -> String {
        let n = self.label();
        let inner = if depth < 2 && self.rng.below(3) == 0 { self.step(depth + 1) } else { String::new() };
        let value = self.value();
        match self.rng.below(12) {
            0 => format!("Promise.resolve({value}).then(v => {{ p('then {n} ' + v); {inner} }});"),
            1 => format!("Promise.reject({n}).catch(e => {{ p('catch {n} ' + e); {inner} }});"),
            2 => format!(
                "Promise.resolve({value}).finally(() => {{ p('finally {n}'); {inner} }}).then(v => p('after finally {n} ' + v));"
            ),
            3 => format!("queueMicrotask(() => {{ p('microtask {n}'); {inner} }});"),
            4 => format!("process.nextTick(() => {{ p('tick {n}'); {inner} }});"),
            5 => format!("setTimeout(() => {{ p('timeout {n}'); {inner} }}, 0);"),
            6 => format!(
                "(async () => {{ p('async {n} start'); const v = await {value}; p('async {n} resumed ' + v); {inner} await null; p('async {n} end'); }})();"
            ),
            7 => {
                let (a, b) = (self.value(), self.value());
                let combinator = ["all", "allSettled", "race", "any"][self.rng.below(4) as usize];
                format!(
                    "Promise.{combinator}([{a}, {b}]).then(v => {{ p('{combinator} {n} ' + JSON.stringify(v)); {inner} }});"
                )
            }
            8 => format!("(async () => {{ return {value}; }})().then(v => {{ p('async return {n} ' + v); {inner} }});"),
            9 => format!(
                "(async () => {{ try {{ await Promise.reject({n}); }} catch (e) {{ p('async catch {n} ' + e); }} {inner} }})();"
            ),
            10 => format!(
                "new Promise(r => {{ p('executor {n}'); r({value}); }}).then(v => {{ p('resolved {n} ' + v); {inner} }});"
            ),
            _ => format!(
                "(async function* () {{ yield {value}; p('generator {n} after yield'); }})().next().then(r => {{ p('generator {n} ' + r.value); {inner} }});"
            ),
        }
    }

    fn program(&mut self) -> String {
        self.out.clear();
        self.out.push_str("const p = (s) => console.log(s);\n");
        let steps = 2 + self.rng.below(8);
        for _ in 0..steps {
            let step = self.step(0);
            let _ = writeln!(self.out, "{step}");
        }
        self.out.push_str("p('sync end');\n");
        self.out.clone()
    }
}

fn stdout_of(program: &str, file: &Path) -> Result<(Vec<u8>, Option<i32>), TaskError> {
    let output = Command::new(program)
        .arg(file)
        .output()
        .map_err(|source| TaskError::Spawn { program: program.to_owned(), source })?;
    Ok((output.stdout, output.status.code()))
}

/// Generates and compares programs for `seconds`.
pub fn run(seconds: u64) -> Result<Outcome, TaskError> {
    command::run("build jsvm (release)", &mut cargo(&["build", "--release", "-p", "js-vm", "--bin", "jsvm"]))?;
    let jsvm = crate::bench::engines::jsvm_path();
    let jsvm = jsvm.to_string_lossy();
    let artifacts = workspace_root().join("fuzz/artifacts/promises");
    std::fs::create_dir_all(&artifacts).map_err(|e| TaskError::Conformance(e.to_string()))?;
    let seed =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64) | 1;
    eprintln!("\n==> fuzz promises for {seconds}s (seed {seed})");
    let mut generator = Generator { rng: Rng(seed), label: 0, out: String::new() };
    let scratch = std::env::temp_dir().join(format!("jsvm-promise-fuzz-{}.js", std::process::id()));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut outcome = Outcome { programs: 0, differences: 0 };
    while Instant::now() < deadline {
        generator.label = 0;
        let program = generator.program();
        std::fs::write(&scratch, &program).map_err(|e| TaskError::Conformance(e.to_string()))?;
        let ours = stdout_of(&jsvm, &scratch)?;
        let theirs = stdout_of("node", &scratch)?;
        outcome.programs += 1;
        if ours != theirs {
            outcome.differences += 1;
            let saved = artifacts.join(format!("diff-{seed}-{}.js", outcome.programs));
            let _ = std::fs::write(&saved, &program);
            println!("DIFF  {}", saved.display());
        }
    }
    let _ = std::fs::remove_file(&scratch);
    Ok(outcome)
}
