//! Integration tests of js-microtask: the queue and the call cache used the
//! way an engine uses them, with a real js-gc heap, counted allocations, and
//! the orders a host observes as insta snapshots (`traces`).

mod allocations;
mod nested_drain;
mod reconcile;
mod traced_queue;
mod traces;

#[global_allocator]
static ALLOCATOR: bench_support::counting_allocator::CountingAllocator =
    bench_support::counting_allocator::CountingAllocator;
