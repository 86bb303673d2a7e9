//! Measuring tools shared by the subsystem crates' tests and benchmarks
//! (a dev-dependency only; never published):
//!
//! * [`callgrind`]: instructions per operation, by running the benchmark
//!   binary under valgrind's callgrind twice (`N` and `2N` operations) and
//!   taking the difference, so start-up, setup and teardown cancel out.
//! * [`counting_allocator`]: a global allocator that counts each thread's
//!   allocations, for "no allocation per job" assertions and `fact:` lines.
//!
//! Results are printed as `fact:` lines, which `cargo xtask bench` collects
//! into `bench/RESULTS.md`.

pub mod callgrind;
pub mod counting_allocator;
