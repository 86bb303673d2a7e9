//! Integration tests of js-async-context: frames carried by microtask jobs
//! (js-microtask) the way an engine carries them, collections during jobs,
//! and counted allocations.

mod allocations;
mod counting_allocator;
mod jobs;

#[global_allocator]
static ALLOCATOR: counting_allocator::CountingAllocator = counting_allocator::CountingAllocator;
