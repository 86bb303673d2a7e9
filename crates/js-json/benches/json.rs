//! Criterion benchmarks of js-json (written below).

fn main() {}
