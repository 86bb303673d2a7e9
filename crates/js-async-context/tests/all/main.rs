//! Integration tests of js-async-context: frames carried by microtask jobs
//! (js-microtask) the way an engine carries them, collections during jobs,
//! and counted allocations.

mod allocations;
mod jobs;

#[global_allocator]
static ALLOCATOR: bench_support::counting_allocator::CountingAllocator =
    bench_support::counting_allocator::CountingAllocator;
