//! The workloads the benchmarks share: bursts of jobs for the two queues
//! and a call cache over heap-like callee addresses.

use std::collections::VecDeque;
use std::num::{NonZeroU16, NonZeroU64};

use js_microtask::{CallCache, Job, JobKind, JobQueue};

/// Jobs queued before each drain in the queue benchmarks: a burst of
/// promise reactions.
pub const BURST: u64 = 64;

/// Jobs that add their argument into the checksum.
pub const ADD: JobKind = JobKind::new(0);
/// Jobs that xor their argument into the checksum.
pub const XOR: JobKind = JobKind::new(1);

/// The usual queue: one boxed closure per job.
pub type BoxedQueue = VecDeque<Box<dyn FnOnce(&mut u64)>>;

/// What the engine caches per callee, shaped as js-vm's `ResumeEntry`:
/// four bytes with a niche, so `Option<CallSetup>` is four bytes too.
#[derive(Clone, Copy)]
pub struct CallSetup {
    /// Registers its frame needs.
    pub frame_size: u16,
    /// Registers its first call needs (its parameters and the receiver).
    pub call_registers: NonZeroU16,
}

/// A 16-byte setup (an entry point beside the sizes), for the cost of a
/// hit whose entry the cache cannot index by the set number alone.
#[derive(Clone, Copy)]
#[allow(dead_code, reason = "the benchmarks copy it out whole; the fields give it a real setup's shape")]
pub struct WideSetup {
    /// The callee's entry point.
    pub entry: NonZeroU64,
    /// Registers its frame needs.
    pub frame_size: u32,
    /// Its declared parameter count.
    pub arity: u32,
}

/// The call cache the benchmarks use: 8 × 4, keyed by callee address.
pub type Cache = CallCache<NonZeroU64, CallSetup>;

/// Callee `i`: 64-byte code cells laid out one after another.
pub fn callee(i: u64) -> NonZeroU64 {
    NonZeroU64::new(0x7f00_0000_0000 + 64 * i).expect("non-zero address")
}

/// The call setup cached for `key`.
pub fn setup_of(key: NonZeroU64) -> CallSetup {
    CallSetup { frame_size: (key.get() >> 6) as u16, call_registers: NonZeroU16::MIN }
}

/// The 16-byte call setup cached for `key`.
pub fn wide_setup_of(key: NonZeroU64) -> WideSetup {
    WideSetup { entry: key, frame_size: 16, arity: 1 }
}

/// A warm cache holding callees `0..16`.
pub fn warm_cache() -> (Cache, [NonZeroU64; 16]) {
    let keys: [NonZeroU64; 16] = std::array::from_fn(|i| callee(i as u64));
    let mut cache = Cache::new();
    for &key in &keys {
        cache.insert(key, setup_of(key));
    }
    (cache, keys)
}

/// A cache whose set of callee 0 is full: its four keys were inserted in
/// order into an empty cache, so key `w` sits in way `w` and a hit on it
/// compares `w + 1` keys. `setup` makes the entries.
pub fn full_set_cache<E: Copy>(setup: fn(NonZeroU64) -> E) -> (CallCache<NonZeroU64, E>, [NonZeroU64; 4]) {
    let first = callee(0);
    let mut same_set = (0..).map(callee).filter(|&key| Cache::set_index(key) == Cache::set_index(first));
    let keys: [NonZeroU64; 4] = std::array::from_fn(|_| same_set.next().expect("keys of one set"));
    let mut cache = CallCache::new();
    for &key in &keys {
        cache.insert(key, setup(key));
    }
    (cache, keys)
}

/// Queues `BURST` jobs and drains them; the jobs add or xor their argument
/// into the checksum.
#[inline]
pub fn job_queue_burst(queue: &mut JobQueue<u64>, round: u64, sum: &mut u64) {
    for n in 0..BURST {
        let kind = if n & 1 == 0 { ADD } else { XOR };
        queue.enqueue(Job::new(kind, [round ^ n, 0, 0, 0]));
    }
    queue.drain(|_, job| {
        if job.kind() == ADD {
            *sum = sum.wrapping_add(job.arg(0));
        } else {
            *sum ^= job.arg(0);
        }
    });
}

/// The same burst as boxed closures.
#[inline]
pub fn boxed_burst(queue: &mut BoxedQueue, round: u64, sum: &mut u64) {
    for n in 0..BURST {
        let value = round ^ n;
        if n & 1 == 0 {
            queue.push_back(Box::new(move |sum: &mut u64| *sum = sum.wrapping_add(value)));
        } else {
            queue.push_back(Box::new(move |sum: &mut u64| *sum ^= value));
        }
    }
    while let Some(job) = queue.pop_front() {
        job(sum);
    }
}
