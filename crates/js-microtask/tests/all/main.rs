//! Integration tests of js-microtask: the queue and the call cache used the
//! way an engine uses them, with a real js-gc heap, and counted allocations.

mod allocations;
mod nested_drain;
mod reconcile;
mod traced_queue;

#[global_allocator]
static ALLOCATOR: bench_support::counting_allocator::CountingAllocator =
    bench_support::counting_allocator::CountingAllocator;
