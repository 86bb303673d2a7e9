//! `jsvm-peer-boa-js-microtask FILE`: runs a bench workload on Boa with its
//! promise and generic jobs ordered by js-microtask's `JobQueue`
//! (`js_peers::boa_jobs`).
//!
//! See the crate documentation for what the runner provides.

use js_peers::boa_runner::{Adopted, main as run};

fn main() {
    run("jsvm-peer-boa-js-microtask", Adopted { js_json: false, js_microtask: true });
}
