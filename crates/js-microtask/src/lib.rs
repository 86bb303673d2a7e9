//! The microtask machinery of a JavaScript engine: the job queue, the
//! per-VM call cache, and the inbox other threads post tasks through.
//!
//! ```
//! use js_microtask::{Job, JobKind, JobQueue};
//!
//! const LOG: JobKind = JobKind::new(0);
//! const FAN_OUT: JobKind = JobKind::new(1);
//!
//! let mut queue: JobQueue<u64> = JobQueue::new();
//! queue.enqueue(Job::new(FAN_OUT, [2, 0, 0, 0]));
//! let mut log = Vec::new();
//! queue.drain(|queue, job| match job.kind() {
//!     // A running job queues more; they run in the same drain.
//!     FAN_OUT => (0..job.arg(0)).for_each(|n| queue.enqueue(Job::new(LOG, [n, 0, 0, 0]))),
//!     _ => log.push(job.arg(0)),
//! });
//! assert_eq!(log, [0, 1]);
//! ```
//!
//! # What it owns
//!
//! * [`Job`]: a fixed-size value, a [`JobKind`] tag, [`JobFlags`] and four
//!   argument slots of the embedder's `Copy` value type. By convention the
//!   fourth slot carries the async-context frame when
//!   [`JobFlags::CONTEXT_FRAME`] says so.
//! * [`JobKindRange`] and [`JobKindSpace`]: the declared space of job
//!   kinds. Each crate that queues jobs owns a range of tags and names its
//!   kinds as offsets into it; the embedder registers every range it links
//!   in one `const` [`JobKindSpace`], so two crates taking the same number
//!   is a compile error (or a [`KindCollision`] when the space is built at
//!   run time).
//! * [`JobQueue`]: FIFO ring buffer of jobs; [`JobQueue::drain`] pops one
//!   job at a time, so jobs can queue jobs. The host decides what a
//!   checkpoint is (Node: the `nextTick` queue, then microtasks, repeat) by
//!   owning a queue per source.
//! * [`CallCache`]: 8 sets × 4 ways keyed by executable identity, LRU
//!   within a set, hit/miss/eviction counters; `get` copies the entry out.
//!   Cleared when code is detached, reconciled at the end of every
//!   collection (it is a [`js_gc::Reconciler`]).
//! * [`RemoteInbox`]: how timer, I/O and worker threads post tasks to a
//!   VM's event loop, with a wake-up; no lost tasks or wake-ups, FIFO per
//!   producer, proved with loom.
//!
//! # The embedder's side
//!
//! The crate never interprets a job: the host matches on
//! [`Job::kind`] in the closure it gives [`JobQueue::drain`]. Jobs whose
//! slots hold heap values must be traced: [`JobQueue`] implements
//! [`js_gc::Trace`] (every waiting job's four slots), so the host traces its
//! queues from its [`js_gc::Roots`]. The call cache holds its keys weakly;
//! the host forwards [`js_gc::Roots::reconcile`] to it.
//!
//! # Performance decisions
//!
//! * Jobs are stored inline: queueing is a copy into the ring and a mask,
//!   running is a copy out. Once the buffer has grown to the program's
//!   largest backlog, nothing allocates per job (a test with a counting
//!   global allocator asserts it). The usual alternative, a queue of boxed
//!   closures, pays an allocation, a free and an indirect call per job.
//! * The call cache hashes with one 32-bit multiply and a shift, and keeps
//!   keys, stamps and entries in way-major arrays that the set index
//!   addresses directly; its LRU state is a clock stamp per way, and the hit
//!   counter is derived from the clock. Under callgrind a hit costs 11
//!   instructions in a set's first way and 2 more per way after it (15 in
//!   the second way, 19 in the fourth), 14.1 on average over 16 callees
//!   taking turns; a miss 13.
//! * The inbox takes one lock per post and per batch taken (`take_all`
//!   swaps buffers), and notifies only when the loop is actually waiting.
//!
//! # Limits
//!
//! The queue and the cache are single-threaded values owned by one VM; only
//! the inbox crosses threads. The inbox is a locked queue, not lock-free:
//! with the loop taking whole batches, the lock is held for a few
//! instructions per post.

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod call_cache;
mod inbox;
mod job;
mod kind_space;
mod queue;

pub use call_cache::{CacheCounters, CacheKey, CallCache};
pub use inbox::{PostError, RemoteInbox, WaitStatus};
pub use job::{CONTEXT_SLOT, JOB_ARGS, Job, JobFlags, JobKind};
pub use kind_space::{JobKindRange, JobKindSpace, KindCollision};
pub use queue::{JobQueue, QueueCounters};
