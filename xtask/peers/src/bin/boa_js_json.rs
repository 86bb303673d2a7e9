//! `jsvm-peer-boa-js-json FILE`: runs a bench workload on Boa with js-json
//! under `JSON.stringify` and `JSON.parse` (`js_peers::boa_json`).
//!
//! See the crate documentation for what the runner provides.

fn main() {
    js_peers::boa_runner::main("jsvm-peer-boa-js-json", true);
}
