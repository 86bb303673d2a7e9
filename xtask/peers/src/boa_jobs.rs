//! js-microtask adopted by Boa, as far as Boa's API allows: a
//! [`JobExecutor`] whose promise and generic jobs wait in
//! `js_microtask::JobQueue`s.
//!
//! Boa hands an executor each job as an opaque boxed closure
//! ([`PromiseJob`], [`GenericJob`]), made before the executor sees it. A
//! js-microtask [`Job`](js_microtask::Job) holds four `Copy` slots, so the
//! queue holds the index of the closure in a slab beside it: the queue
//! decides the order and counts, but the allocation per job that the crate
//! exists to avoid is Boa's and stays. (Nothing in Boa's API lets a host
//! build the reaction job itself from a kind and slots: `PromiseJob`'s
//! closure and Boa's promise reactions are private, so js-promise cannot
//! be adopted either.)
//!
//! The run loop is Boa's own [`SimpleJobExecutor`](boa_engine::job::SimpleJobExecutor)'s,
//! step for step (less its cross-thread cancellation token, which the
//! runners do not use), so programs observe the same order: native async jobs
//! are started, due timers run, the promise jobs queued before the turn
//! run (jobs they queue wait for the next turn), then the generic jobs,
//! and kept objects are cleared.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::mem;
use std::rc::Rc;

use boa_engine::context::time::JsInstant;
use boa_engine::job::{GenericJob, IntervalJob, Job, JobExecutor, NativeAsyncJob, PromiseJob, TimeoutJob};
use boa_engine::{Context, JsResult};
use futures_concurrency::future::FutureGroup;
use futures_lite::{StreamExt, future};
use js_microtask::{Job as QueuedJob, JobKindRange, JobQueue, QueueCounters};

/// The job kinds of this executor: the queue of each holds only its own.
const BOA_JOBS: JobKindRange = JobKindRange::new("boa", 0, 1);

/// Boa's closures, by the slot index a queued job carries.
struct Slab<T> {
    items: Vec<Option<T>>,
    free: Vec<u32>,
}

impl<T> Slab<T> {
    const fn new() -> Self {
        Self { items: Vec::new(), free: Vec::new() }
    }

    fn insert(&mut self, item: T) -> u32 {
        if let Some(index) = self.free.pop() {
            self.items[index as usize] = Some(item);
            index
        } else {
            self.items.push(Some(item));
            u32::try_from(self.items.len() - 1).expect("fewer than 2^32 jobs waiting")
        }
    }

    fn take(&mut self, index: u32) -> T {
        let item = self.items[index as usize].take().expect("a queued job's closure");
        self.free.push(index);
        item
    }

    fn clear(&mut self) {
        self.items.clear();
        self.free.clear();
    }
}

/// One kind of job: the order in a `JobQueue`, the closures in a slab.
struct Lane<T> {
    queue: JobQueue<u32>,
    closures: Slab<T>,
    kind: js_microtask::JobKind,
}

impl<T> Lane<T> {
    fn new(offset: u16) -> Self {
        Self { queue: JobQueue::new(), closures: Slab::new(), kind: BOA_JOBS.kind(offset) }
    }

    fn push(&mut self, closure: T) {
        let slot = self.closures.insert(closure);
        self.queue.enqueue(QueuedJob::new(self.kind, [slot, 0, 0, 0]));
    }

    /// The closures of the jobs waiting now, oldest first; jobs queued
    /// while they run wait for the next turn.
    fn take_turn(&mut self) -> Vec<T> {
        let waiting = self.queue.len();
        let mut turn = Vec::with_capacity(waiting);
        for _ in 0..waiting {
            let job = self.queue.dequeue().expect("counted");
            debug_assert_eq!(job.kind(), self.kind);
            turn.push(self.closures.take(job.arg(0)));
        }
        turn
    }

    fn clear(&mut self) {
        self.queue.clear();
        self.closures.clear();
    }
}

/// A timer job, as Boa's executor keeps them.
enum ClockJob {
    Timeout(TimeoutJob),
    Interval(IntervalJob),
}

impl ClockJob {
    fn cancelled(&self) -> bool {
        match self {
            Self::Timeout(job) => job.cancelled(),
            Self::Interval(job) => job.cancelled(),
        }
    }
}

/// Boa's job executor with js-microtask's queue under its promise and
/// generic jobs.
pub struct MicrotaskExecutor {
    promises: RefCell<Lane<PromiseJob>>,
    generic: RefCell<Lane<GenericJob>>,
    native_async: RefCell<Vec<NativeAsyncJob>>,
    finalization: RefCell<Vec<NativeAsyncJob>>,
    timers: RefCell<BTreeMap<JsInstant, Vec<ClockJob>>>,
}

impl Default for MicrotaskExecutor {
    fn default() -> Self {
        Self {
            promises: RefCell::new(Lane::new(0)),
            generic: RefCell::new(Lane::new(1)),
            native_async: RefCell::default(),
            finalization: RefCell::default(),
            timers: RefCell::default(),
        }
    }
}

impl MicrotaskExecutor {
    /// What the promise-job queue has done: jobs queued, run, and the
    /// longest backlog.
    pub fn promise_counters(&self) -> QueueCounters {
        self.promises.borrow().queue.counters()
    }

    fn is_empty(&self) -> bool {
        self.promises.borrow().queue.is_empty()
            && self.generic.borrow().queue.is_empty()
            && self.native_async.borrow().is_empty()
            && self.timers.borrow().is_empty()
    }

    fn clear(&self) {
        self.promises.borrow_mut().clear();
        self.generic.borrow_mut().clear();
        self.native_async.borrow_mut().clear();
        self.timers.borrow_mut().clear();
    }

    /// Runs the timers that are due; a repeating one is queued again.
    fn run_due_timers(&self, context: &RefCell<&mut Context>) -> JsResult<()> {
        let now = context.borrow().clock().now();
        let due = {
            let mut timers = self.timers.borrow_mut();
            let mut later = timers.split_off(&now);
            later.retain(|_, jobs| {
                jobs.retain(|job| !job.cancelled());
                !jobs.is_empty()
            });
            mem::replace(&mut *timers, later)
        };
        for job in due.into_values().flatten() {
            if job.cancelled() {
                continue;
            }
            match job {
                ClockJob::Timeout(job) => job.call(&mut context.borrow_mut()).map(|_| ())?,
                ClockJob::Interval(job) => {
                    let context = &mut context.borrow_mut();
                    let now = context.clock().now();
                    job.call(context)?;
                    self.timers.borrow_mut().entry(now + job.interval()).or_default().push(ClockJob::Interval(job));
                }
            }
        }
        Ok(())
    }
}

impl JobExecutor for MicrotaskExecutor {
    fn enqueue_job(self: Rc<Self>, job: Job, context: &mut Context) {
        match job {
            Job::PromiseJob(job) => self.promises.borrow_mut().push(job),
            Job::GenericJob(job) => self.generic.borrow_mut().push(job),
            Job::AsyncJob(job) => self.native_async.borrow_mut().push(job),
            Job::FinalizationRegistryCleanupJob(job) => self.finalization.borrow_mut().push(job),
            Job::TimeoutJob(job) => {
                let at = context.clock().now() + job.timeout();
                self.timers.borrow_mut().entry(at).or_default().push(ClockJob::Timeout(job));
            }
            Job::IntervalJob(job) => {
                let at = context.clock().now() + job.interval();
                self.timers.borrow_mut().entry(at).or_default().push(ClockJob::Interval(job));
            }
            // `Job` is non-exhaustive: a kind Boa adds later must not be
            // dropped unseen.
            other => panic!("MicrotaskExecutor: a Boa job kind it does not know: {other:?}"),
        }
    }

    fn run_jobs(self: Rc<Self>, context: &mut Context) -> JsResult<()> {
        future::block_on(self.run_jobs_async(&RefCell::new(context)))
    }

    async fn run_jobs_async(self: Rc<Self>, context: &RefCell<&mut Context>) -> JsResult<()>
    where
        Self: Sized,
    {
        let mut group = FutureGroup::new();
        let mut finalization_group = FutureGroup::new();
        loop {
            for job in mem::take(&mut *self.native_async.borrow_mut()) {
                group.insert(job.call(context));
            }
            for job in mem::take(&mut *self.finalization.borrow_mut()) {
                finalization_group.insert(job.call(context));
            }
            if let Err(error) = self.run_due_timers(context) {
                self.clear();
                return Err(error);
            }
            if self.is_empty() && group.is_empty() {
                match future::poll_once(finalization_group.next()).await.flatten() {
                    Some(Err(error)) => {
                        self.clear();
                        return Err(error);
                    }
                    _ if !self.is_empty() => {}
                    _ => break,
                }
            }
            if let Some(Err(error)) = future::poll_once(group.next()).await.flatten() {
                self.clear();
                return Err(error);
            }
            let turn = self.promises.borrow_mut().take_turn();
            for job in turn {
                if let Err(error) = job.call(&mut context.borrow_mut()) {
                    self.clear();
                    return Err(error);
                }
            }
            let turn = self.generic.borrow_mut().take_turn();
            for job in turn {
                if let Err(error) = job.call(&mut context.borrow_mut()) {
                    self.clear();
                    return Err(error);
                }
            }
            context.borrow_mut().clear_kept_objects();
            future::yield_now().await;
        }
        Ok(())
    }
}
