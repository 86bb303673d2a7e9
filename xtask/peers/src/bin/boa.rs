//! `jsvm-peer-boa FILE`: runs a bench workload on Boa (`boa_engine`).
//!
//! See the crate documentation for what the runner provides.

fn main() {
    js_peers::boa_runner::main("jsvm-peer-boa", js_peers::boa_runner::Adopted::default());
}
