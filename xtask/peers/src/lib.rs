//! What the peer runners share: reading the command line and the workload
//! file, and the clock behind `performance.now()`.
//!
//! Each runner (`jsvm-peer-quickjs`, `jsvm-peer-boa`) is invoked as
//! `RUNNER FILE`; FILE is run as an ES module when it ends in `.mjs`, as a
//! script otherwise. The runner gives the program `console.log` (arguments
//! converted with `String` and joined by spaces, one line on stdout) and
//! `performance.now()` (milliseconds since the runner started, fractional),
//! runs it, drains the engine's job queue, and exits with status 1 after
//! printing the error if the program threw.
//!
//! `jsvm-peer-boa-js-json` is Boa with js-json adopted under `JSON.stringify`
//! and `JSON.parse` ([`boa_json`]): the project's claim that another engine
//! can take one subsystem crate, shown on a real engine.
//! `jsvm-peer-boa-js-microtask` is Boa with its promise and generic jobs
//! ordered by js-microtask's `JobQueue` ([`boa_jobs`]).

#[cfg(feature = "boa")]
pub mod boa_jobs;
#[cfg(feature = "boa")]
pub mod boa_json;
#[cfg(feature = "boa")]
pub mod boa_runner;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

/// A workload to run: its path, source text and whether it is a module.
pub struct Workload {
    /// The file as given on the command line.
    pub path: PathBuf,
    /// Its source text.
    pub source: String,
    /// True for `.mjs` files, which run as ES modules.
    pub is_module: bool,
}

/// Reads the single `FILE` argument, or exits with a usage message.
pub fn workload_from_args(runner: &str) -> Workload {
    let mut args = std::env::args_os().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: {runner} FILE   (FILE.mjs runs as a module)");
        std::process::exit(2);
    };
    let path = PathBuf::from(path);
    let source = match std::fs::read_to_string(&path) {
        Ok(source) => source,
        Err(err) => {
            eprintln!("{runner}: {}: {err}", path.display());
            std::process::exit(2);
        }
    };
    let is_module = path.extension().is_some_and(|ext| ext == "mjs");
    // Start the clock before the program is parsed, as node's does.
    start_clock();
    Workload { path, source, is_module }
}

static START: OnceLock<Instant> = OnceLock::new();

fn start_clock() {
    START.get_or_init(Instant::now);
}

/// `performance.now()`: fractional milliseconds since the runner started.
pub fn performance_now() -> f64 {
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// Prints `message` as an uncaught error and exits with status 1.
pub fn fail(runner: &str, message: &str) -> ! {
    eprintln!("{runner}: uncaught {message}");
    std::process::exit(1);
}
