//! Integration tests of js-async-context: frames carried by microtask jobs
//! (js-microtask) the way an engine carries them, collections during jobs,
//! counted allocations, and the frames each step observes as insta
//! snapshots (`traces`).

mod allocations;
mod jobs;
mod traces;

#[global_allocator]
static ALLOCATOR: bench_support::counting_allocator::CountingAllocator =
    bench_support::counting_allocator::CountingAllocator;
