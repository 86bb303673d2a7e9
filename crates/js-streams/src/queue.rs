//! Queue-with-sizes (Streams §8.1): the chunks a controller holds and the
//! total of their sizes.

use std::collections::VecDeque;

use js_gc::{Trace, Tracer};

/// One entry of a queue with sizes. A writable controller's queue also
/// holds the close sentinel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QueueEntry<V> {
    /// A chunk and its size.
    Chunk(V, f64),
    /// The close sentinel (a writable stream's queued close).
    Close,
}

/// `[[queue]]` and `[[queueTotalSize]]`.
#[derive(Debug)]
pub struct ValueQueue<V> {
    entries: VecDeque<QueueEntry<V>>,
    total_size: f64,
}

impl<V: Copy> Default for ValueQueue<V> {
    fn default() -> Self {
        Self { entries: VecDeque::new(), total_size: 0.0 }
    }
}

impl<V: Copy> ValueQueue<V> {
    /// `EnqueueValueWithSize` after the size was validated
    /// ([`valid_size`]).
    pub fn enqueue(&mut self, value: V, size: f64) {
        self.entries.push_back(QueueEntry::Chunk(value, size));
        self.total_size += size;
    }

    /// Enqueues the close sentinel (size 0).
    pub fn enqueue_close(&mut self) {
        self.entries.push_back(QueueEntry::Close);
    }

    /// `DequeueValue`: the first entry, with the total reduced (never below
    /// zero, as the spec's rounding guard says).
    pub fn dequeue(&mut self) -> Option<QueueEntry<V>> {
        let entry = self.entries.pop_front()?;
        if let QueueEntry::Chunk(_, size) = entry {
            self.total_size = (self.total_size - size).max(0.0);
        }
        Some(entry)
    }

    /// `PeekQueueValue`.
    pub fn peek(&self) -> Option<QueueEntry<V>> {
        self.entries.front().copied()
    }

    /// `ResetQueue`.
    pub fn reset(&mut self) {
        self.entries.clear();
        self.total_size = 0.0;
    }

    /// Whether the queue is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `[[queueTotalSize]]`.
    pub fn total_size(&self) -> f64 {
        self.total_size
    }
}

/// Whether `size` may be enqueued (`IsNonNegativeNumber` and not `+∞`).
pub fn valid_size(size: f64) -> bool {
    !size.is_nan() && size >= 0.0 && size != f64::INFINITY
}

// SAFETY: every queued chunk is traced.
unsafe impl<V: Trace> Trace for ValueQueue<V> {
    fn trace(&self, tracer: &mut Tracer) {
        for entry in &self.entries {
            if let QueueEntry::Chunk(value, _) = entry {
                value.trace(tracer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{QueueEntry, ValueQueue, valid_size};

    #[test]
    fn total_follows_enqueue_and_dequeue() {
        let mut queue = ValueQueue::<u32>::default();
        queue.enqueue(1, 2.5);
        queue.enqueue(2, 1.0);
        queue.enqueue_close();
        assert!((queue.total_size() - 3.5).abs() < f64::EPSILON);
        assert_eq!(queue.dequeue(), Some(QueueEntry::Chunk(1, 2.5)));
        assert_eq!(queue.peek(), Some(QueueEntry::Chunk(2, 1.0)));
        assert_eq!(queue.dequeue(), Some(QueueEntry::Chunk(2, 1.0)));
        assert_eq!(queue.dequeue(), Some(QueueEntry::Close));
        assert!(queue.is_empty());
        assert!(queue.total_size().abs() < f64::EPSILON);
    }

    #[test]
    fn rounding_never_goes_negative() {
        let mut queue = ValueQueue::<u32>::default();
        queue.enqueue(1, 0.1);
        queue.enqueue(2, 0.2);
        queue.dequeue();
        queue.dequeue();
        assert!(queue.total_size() >= 0.0);
    }

    #[test]
    fn sizes_are_validated() {
        assert!(valid_size(0.0));
        assert!(valid_size(3.0));
        assert!(!valid_size(-1.0));
        assert!(!valid_size(f64::NAN));
        assert!(!valid_size(f64::INFINITY));
    }
}
