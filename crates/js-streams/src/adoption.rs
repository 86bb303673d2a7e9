//! Promises that adopt an outcome the way a promise resolved with another
//! native promise does (a thenable job, then a reaction), without that
//! other promise: node's async functions return promises (`read(view)`)
//! and its iterator chains `then` on the ongoing promise; their result
//! promise settles a turn after the later of its thenable job and the
//! outcome. The owner queues the thenable job when the adoption begins,
//! and the reaction job when [`Adoptions::deliver`] or
//! [`Adoptions::thenable_job`] says so.

use js_gc::{Trace, Tracer};

/// One adoption: its promise, whether its thenable job ran, and its
/// outcome once known (`true`: rejected).
type Adoption<V, P> = (P, bool, Option<(bool, V)>);

/// The adoptions in progress on one object.
#[derive(Debug, Clone, PartialEq)]
pub struct Adoptions<V, P>(Vec<Adoption<V, P>>);

impl<V, P> Default for Adoptions<V, P> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<V: Copy, P: Copy + PartialEq> Adoptions<V, P> {
    /// `promise` starts adopting (its thenable job is queued now).
    pub fn begin(&mut self, promise: P) {
        self.0.push((promise, false, None));
    }

    /// Whether `promise` is adopting.
    pub fn contains(&self, promise: P) -> bool {
        self.0.iter().any(|entry| entry.0 == promise)
    }

    /// The outcome for `promise` is known: whether its reaction job is to
    /// be queued now (its thenable job already ran).
    pub fn deliver(&mut self, promise: P, outcome: Result<V, V>) -> bool {
        let Some(entry) = self.0.iter_mut().find(|entry| entry.0 == promise) else { return false };
        entry.2 = Some(match outcome {
            Ok(value) => (false, value),
            Err(reason) => (true, reason),
        });
        entry.1
    }

    /// `promise`'s thenable job ran: whether its reaction job is to be
    /// queued now (its outcome is known).
    pub fn thenable_job(&mut self, promise: P) -> bool {
        let Some(entry) = self.0.iter_mut().find(|entry| entry.0 == promise) else { return false };
        entry.1 = true;
        entry.2.is_some()
    }

    /// `promise`'s reaction job: the outcome it settles with.
    pub fn finish(&mut self, promise: P) -> Option<Result<V, V>> {
        let index = self.0.iter().position(|entry| entry.0 == promise)?;
        let (_, _, outcome) = self.0.swap_remove(index);
        outcome.map(|(rejected, value)| if rejected { Err(value) } else { Ok(value) })
    }
}

// SAFETY: every promise and outcome value is traced.
unsafe impl<V: Trace, P: Trace> Trace for Adoptions<V, P> {
    fn trace(&self, tracer: &mut Tracer) {
        for (promise, _, outcome) in &self.0 {
            promise.trace(tracer);
            if let Some((_, value)) = outcome {
                value.trace(tracer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Adoptions;

    #[test]
    fn an_outcome_known_before_the_thenable_job_waits_for_it() {
        let mut adoptions: Adoptions<u32, u32> = Adoptions::default();
        adoptions.begin(1);
        assert!(!adoptions.deliver(1, Ok(7)), "the thenable job has not run");
        assert!(adoptions.thenable_job(1), "now the reaction is queued");
        assert_eq!(adoptions.finish(1), Some(Ok(7)));
        assert!(!adoptions.contains(1));
    }

    #[test]
    fn an_outcome_known_after_the_thenable_job_is_queued_at_once() {
        let mut adoptions: Adoptions<u32, u32> = Adoptions::default();
        adoptions.begin(1);
        adoptions.begin(2);
        assert!(!adoptions.thenable_job(2), "no outcome yet");
        assert!(adoptions.deliver(2, Err(9)));
        assert_eq!(adoptions.finish(2), Some(Err(9)));
        assert!(adoptions.contains(1));
        assert!(!adoptions.deliver(3, Ok(0)), "not adopting");
    }
}
