//! `jsvm-peer-boa-js-json FILE`: runs a bench workload on Boa with js-json
//! under `JSON.stringify` and `JSON.parse` (`js_peers::boa_json`).
//!
//! See the crate documentation for what the runner provides.

use js_peers::boa_runner::{Adopted, main as run};

fn main() {
    run("jsvm-peer-boa-js-json", Adopted { js_json: true, js_microtask: false });
}
