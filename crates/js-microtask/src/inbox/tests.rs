use std::collections::VecDeque;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::{PostError, RemoteInbox, WaitStatus};

#[test]
fn tasks_come_out_in_posting_order() {
    let inbox = RemoteInbox::new();
    for n in 0..5 {
        inbox.post(n).unwrap();
    }
    assert_eq!(inbox.len(), 5);
    assert_eq!(inbox.try_take(), Some(0));
    let mut batch = VecDeque::new();
    assert_eq!(inbox.take_all(&mut batch), 4);
    assert_eq!(batch, [1, 2, 3, 4]);
    inbox.post(5).unwrap();
    assert_eq!(inbox.take_all(&mut batch), 1);
    assert_eq!(batch, [1, 2, 3, 4, 5]);
    assert!(inbox.is_empty());
    assert_eq!(inbox.posted(), 6);
}

#[test]
fn wait_times_out_when_nothing_is_posted() {
    let inbox: RemoteInbox<u8> = RemoteInbox::new();
    let start = Instant::now();
    assert_eq!(inbox.wait(Some(Duration::from_millis(20))), WaitStatus::TimedOut);
    assert!(start.elapsed() >= Duration::from_millis(20));
    assert_eq!(inbox.wait(Some(Duration::ZERO)), WaitStatus::TimedOut);
}

#[test]
fn wait_returns_at_once_when_tasks_are_waiting() {
    let inbox = RemoteInbox::new();
    inbox.post(1).unwrap();
    assert_eq!(inbox.wait(Some(Duration::ZERO)), WaitStatus::Ready);
    assert_eq!(inbox.wait(None), WaitStatus::Ready);
}

#[test]
fn a_post_from_another_thread_wakes_the_waiting_loop() {
    let inbox = Arc::new(RemoteInbox::new());
    let producer = {
        let inbox = Arc::clone(&inbox);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(10));
            inbox.post(42).unwrap();
        })
    };
    assert_eq!(inbox.wait(Some(Duration::from_secs(30))), WaitStatus::Ready);
    assert_eq!(inbox.try_take(), Some(42));
    producer.join().unwrap();
}

#[test]
fn close_rejects_posts_and_delivers_what_was_posted() {
    let inbox = RemoteInbox::new();
    inbox.post(1).unwrap();
    inbox.close();
    inbox.close();
    assert!(inbox.is_closed());
    assert_eq!(inbox.post(2), Err(PostError::Closed(2)));
    assert_eq!(inbox.post(3).unwrap_err().into_task(), 3);
    assert_eq!(inbox.wait(None), WaitStatus::Ready);
    assert_eq!(inbox.try_take(), Some(1));
    assert_eq!(inbox.wait(None), WaitStatus::Closed);
    assert_eq!(PostError::Closed(()).to_string(), "the event loop's inbox is closed");
}

#[test]
fn close_wakes_a_blocked_loop() {
    let inbox: Arc<RemoteInbox<u8>> = Arc::new(RemoteInbox::new());
    let closer = {
        let inbox = Arc::clone(&inbox);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(10));
            inbox.close();
        })
    };
    assert_eq!(inbox.wait(None), WaitStatus::Closed);
    closer.join().unwrap();
}

#[test]
fn many_producers_lose_nothing_and_keep_their_order() {
    const PRODUCERS: usize = 4;
    const PER_PRODUCER: usize = 10_000;
    let inbox = Arc::new(RemoteInbox::new());
    let producers: Vec<_> = (0..PRODUCERS)
        .map(|p| {
            let inbox = Arc::clone(&inbox);
            thread::spawn(move || {
                for n in 0..PER_PRODUCER {
                    inbox.post((p, n)).unwrap();
                }
            })
        })
        .collect();
    let mut next = [0; PRODUCERS];
    let mut batch = VecDeque::new();
    let mut received = 0;
    while received < PRODUCERS * PER_PRODUCER {
        assert_eq!(inbox.wait(Some(Duration::from_secs(30))), WaitStatus::Ready);
        inbox.take_all(&mut batch);
        for (p, n) in batch.drain(..) {
            assert_eq!(n, next[p], "producer {p} out of order");
            next[p] += 1;
            received += 1;
        }
    }
    for producer in producers {
        producer.join().unwrap();
    }
    assert!(inbox.is_empty());
}
