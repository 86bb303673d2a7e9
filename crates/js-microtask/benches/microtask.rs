//! Placeholder, replaced by the benchmarks.
fn main() {}
