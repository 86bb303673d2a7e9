//! Model checks of the inbox with loom: every interleaving of two or three
//! producers with the consumer (up to loom's preemption bound).
//! Run with `RUSTFLAGS="--cfg loom" cargo test -p js-microtask --release -- loom`.

use std::collections::VecDeque;

use loom::sync::Arc;
use loom::thread;

use super::{PostError, RemoteInbox, WaitStatus};

/// Explores interleavings with at most `preemptions` forced switches (loom's
/// recommended bound: bugs need few).
fn model(preemptions: usize, f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(preemptions);
    builder.check(f);
}

/// Spawns one producer per entry of `counts`, posting `(producer, n)` for
/// `n` in `0..count`.
fn spawn_producers(inbox: &Arc<RemoteInbox<(usize, usize)>>, counts: &[usize]) -> Vec<thread::JoinHandle<()>> {
    counts
        .iter()
        .enumerate()
        .map(|(producer, &count)| {
            let inbox = Arc::clone(inbox);
            thread::spawn(move || {
                for n in 0..count {
                    inbox.post((producer, n)).unwrap();
                }
            })
        })
        .collect()
}

/// The consumer loop: waits (a lost wake-up deadlocks, which loom reports)
/// and takes batches until `total` tasks arrived, checking per-producer
/// order; returns how many each producer delivered.
fn consume(inbox: &RemoteInbox<(usize, usize)>, producers: usize, total: usize) -> Vec<usize> {
    let mut next = vec![0; producers];
    let mut batch = VecDeque::new();
    let mut received = 0;
    while received < total {
        assert_eq!(inbox.wait(None), WaitStatus::Ready);
        inbox.take_all(&mut batch);
        for (producer, n) in batch.drain(..) {
            assert_eq!(n, next[producer], "producer {producer}: task {n} out of order or duplicated");
            next[producer] += 1;
            received += 1;
        }
    }
    next
}

#[test]
fn loom_two_producers_no_loss_no_duplicates_fifo_per_producer() {
    model(3, || {
        let inbox = Arc::new(RemoteInbox::new());
        let producers = spawn_producers(&inbox, &[2, 2]);
        let delivered = consume(&inbox, 2, 4);
        for producer in producers {
            producer.join().unwrap();
        }
        assert_eq!(delivered, [2, 2]);
        assert!(inbox.try_take().is_none(), "a task was delivered twice");
    });
}

#[test]
fn loom_three_producers_wake_the_waiting_loop() {
    model(2, || {
        let inbox = Arc::new(RemoteInbox::new());
        let producers = spawn_producers(&inbox, &[1, 1, 1]);
        let delivered = consume(&inbox, 3, 3);
        for producer in producers {
            producer.join().unwrap();
        }
        assert_eq!(delivered, [1, 1, 1]);
    });
}

#[test]
fn loom_wait_with_timeout_never_misses_a_post() {
    // loom does not model time: a timed wait only returns when notified, so
    // a lost wake-up is a deadlock the model reports.
    model(3, || {
        let inbox = Arc::new(RemoteInbox::new());
        let producers = spawn_producers(&inbox, &[1, 1]);
        let mut received = 0;
        while received < 2 {
            assert_eq!(inbox.wait(Some(std::time::Duration::from_secs(1))), WaitStatus::Ready);
            while inbox.try_take().is_some() {
                received += 1;
            }
        }
        for producer in producers {
            producer.join().unwrap();
        }
        assert_eq!(received, 2);
    });
}

#[test]
fn loom_close_delivers_accepted_tasks_and_returns_rejected_ones() {
    model(3, || {
        let inbox: Arc<RemoteInbox<(usize, usize)>> = Arc::new(RemoteInbox::new());
        let posters: Vec<_> = (0..2)
            .map(|producer| {
                let inbox = Arc::clone(&inbox);
                thread::spawn(move || {
                    let mut accepted = 0;
                    for n in 0..2 {
                        match inbox.post((producer, n)) {
                            Ok(()) => accepted += 1,
                            Err(PostError::Closed(task)) => assert_eq!(task, (producer, n)),
                        }
                    }
                    accepted
                })
            })
            .collect();
        let closer = {
            let inbox = Arc::clone(&inbox);
            thread::spawn(move || inbox.close())
        };
        // The loop runs until the inbox reports closed and drained; a close
        // that failed to wake it deadlocks the model.
        let mut next = [0; 2];
        let mut batch = VecDeque::new();
        while inbox.wait(None) == WaitStatus::Ready {
            inbox.take_all(&mut batch);
            for (producer, n) in batch.drain(..) {
                assert_eq!(n, next[producer]);
                next[producer] += 1;
            }
        }
        closer.join().unwrap();
        let accepted: Vec<usize> = posters.into_iter().map(|p| p.join().unwrap()).collect();
        assert_eq!(next.to_vec(), accepted, "accepted tasks must all be delivered, once");
        assert!(inbox.post((9, 9)).is_err());
    });
}
