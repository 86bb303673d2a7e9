//! `JobQueue`: the microtask queue, a growable ring buffer of [`Job`]s.

use std::fmt;

use js_gc::{Trace, Tracer};

use crate::job::Job;

/// The capacity of the first buffer when none was requested.
const MIN_CAPACITY: usize = 16;

/// What a [`JobQueue`] has done since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueCounters {
    /// Jobs ever queued.
    pub queued: u64,
    /// Jobs taken out to run (by [`JobQueue::dequeue`] or a drain).
    pub run: u64,
    /// Jobs thrown away by [`JobQueue::clear`].
    pub discarded: u64,
    /// The most jobs that were ever waiting at once.
    pub high_water: usize,
}

/// The microtask queue: FIFO, with the jobs stored inline in a ring buffer.
///
/// * Queueing copies the job into the buffer; once the buffer has grown to
///   the largest backlog the program reaches, queueing and running allocate
///   nothing.
/// * The buffer's capacity is a power of two, doubled when full, so a slot
///   index is a mask away and growth costs amortised O(1) per job.
/// * [`drain`](Self::drain) takes one job at a time and hands the queue to
///   the job's runner, so running jobs can queue more; those run in the same
///   drain, after the jobs already waiting. What a checkpoint is (Node runs
///   the `nextTick` queue, then microtasks, and repeats) is the host's
///   decision: it owns one queue per source and drains them in its order.
pub struct JobQueue<V> {
    /// The ring buffer; its length (the capacity) is zero or a power of two.
    /// Slots outside the live range hold stale copies, never read.
    slots: Box<[Job<V>]>,
    /// The slot of the oldest job.
    head: usize,
    /// The number of queued jobs.
    len: usize,
    /// The capacity the first buffer gets (from `with_capacity`).
    initial_capacity: usize,
    /// Jobs taken out to run.
    run: u64,
    /// Jobs thrown away by `clear`.
    discarded: u64,
    /// The largest `len` so far.
    high_water: usize,
}

impl<V: Copy> JobQueue<V> {
    /// An empty queue. Allocates nothing until the first job is queued.
    pub fn new() -> Self {
        Self::with_capacity(MIN_CAPACITY)
    }

    /// An empty queue whose first buffer holds at least `capacity` jobs.
    ///
    /// The buffer is still created lazily, at the first
    /// [`enqueue`](Self::enqueue) (filled with copies of that job, so no
    /// slot is ever uninitialised).
    pub fn with_capacity(capacity: usize) -> Self {
        let initial_capacity = if capacity < MIN_CAPACITY { MIN_CAPACITY } else { capacity.next_power_of_two() };
        Self { slots: Box::new([]), head: 0, len: 0, initial_capacity, run: 0, discarded: 0, high_water: 0 }
    }

    /// Queues `job` behind every job already waiting.
    #[inline]
    pub fn enqueue(&mut self, job: Job<V>) {
        if self.len == self.slots.len() {
            self.grow(job);
        }
        let index = (self.head + self.len) & (self.slots.len() - 1);
        self.slots[index] = job;
        self.len += 1;
        if self.len > self.high_water {
            self.high_water = self.len;
        }
    }

    /// Takes the oldest job out to run.
    #[inline]
    pub fn dequeue(&mut self) -> Option<Job<V>> {
        if self.len == 0 {
            return None;
        }
        let job = self.slots[self.head];
        self.head = (self.head + 1) & (self.slots.len() - 1);
        self.len -= 1;
        self.run += 1;
        Some(job)
    }

    /// Runs jobs oldest first until the queue is empty, including the jobs
    /// that running jobs queue. `run` gets the queue back so it can queue
    /// more. Returns the number of jobs run.
    #[inline]
    pub fn drain(&mut self, mut run: impl FnMut(&mut Self, Job<V>)) -> u64 {
        let mut count = 0;
        while let Some(job) = self.dequeue() {
            run(self, job);
            count += 1;
        }
        count
    }

    /// Like [`drain`](Self::drain), but stops at the first job whose run
    /// fails (a termination request, for example), leaving the jobs after it
    /// queued. Returns the number of jobs that ran successfully.
    ///
    /// # Errors
    /// The first error `run` returns.
    pub fn try_drain<E>(&mut self, mut run: impl FnMut(&mut Self, Job<V>) -> Result<(), E>) -> Result<u64, E> {
        let mut count = 0;
        while let Some(job) = self.dequeue() {
            run(self, job)?;
            count += 1;
        }
        Ok(count)
    }

    /// Throws away every waiting job (a realm or agent shutting down).
    /// Keeps the buffer.
    pub fn clear(&mut self) {
        self.discarded += self.len as u64;
        self.head = 0;
        self.len = 0;
    }

    /// The oldest job, without taking it.
    pub fn peek(&self) -> Option<&Job<V>> {
        (self.len > 0).then(|| &self.slots[self.head])
    }

    /// Iterates over the waiting jobs, oldest first.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Job<V>> {
        let mask = self.slots.len().wrapping_sub(1);
        (0..self.len).map(move |offset| &self.slots[(self.head + offset) & mask])
    }

    /// Grows the buffer to make room for one more job; `filler` (the job
    /// being queued) initialises the new slots.
    #[cold]
    fn grow(&mut self, filler: Job<V>) {
        let capacity = if self.slots.is_empty() { self.initial_capacity } else { self.slots.len() * 2 };
        let mut slots = vec![filler; capacity].into_boxed_slice();
        for (slot, job) in slots.iter_mut().zip(self.iter()) {
            *slot = *job;
        }
        self.slots = slots;
        self.head = 0;
    }
}

impl<V> JobQueue<V> {
    /// The number of waiting jobs.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no job is waiting.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of jobs the buffer holds before it must grow.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// What the queue has done so far.
    pub fn counters(&self) -> QueueCounters {
        QueueCounters {
            queued: self.run + self.discarded + self.len as u64,
            run: self.run,
            discarded: self.discarded,
            high_water: self.high_water,
        }
    }
}

impl<V: Copy> Default for JobQueue<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Copy + fmt::Debug> fmt::Debug for JobQueue<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JobQueue")
            .field("jobs", &self.iter().collect::<Vec<_>>())
            .field("capacity", &self.capacity())
            .field("counters", &self.counters())
            .finish()
    }
}

// SAFETY: every waiting job is traced; slots outside the live range are
// stale copies that are never read again, so they own nothing. Tracing has
// no other effect.
unsafe impl<V: Copy + Trace> Trace for JobQueue<V> {
    const NEEDS_TRACE: bool = V::NEEDS_TRACE;

    fn trace(&self, tracer: &mut Tracer) {
        if V::NEEDS_TRACE {
            for job in self.iter() {
                job.trace(tracer);
            }
        }
    }
}

#[cfg(test)]
mod tests;
