//! The worker pool the conformance runners share: a fixed number of
//! threads with large stacks take items in order, and a watchdog interrupts
//! a run that goes past the time limit through the VM's interrupt flag.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Worker threads (the machines have two cores).
pub const WORKERS: usize = 2;
/// Stack of each worker: the engine bounds its recursion well below this.
const WORKER_STACK: usize = 256 * 1024 * 1024;

/// Where a worker registers the interrupt flag of the VM it is running, so
/// the watchdog can stop it when its time is up.
pub type InterruptSlot = Mutex<Option<Arc<AtomicBool>>>;

/// Runs `run` on every item on [`WORKERS`] threads and returns the results
/// in item order. `label` prefixes progress lines. A run still going after
/// `limit(item)` has its registered interrupt flag set; `missing` stands in for a
/// result a worker never produced (a worker that could not start).
pub fn run_parallel<T: Sync, R: Send>(
    label: &str,
    items: &[T],
    limit: impl Fn(&T) -> Duration + Sync,
    run: impl Fn(&T, &InterruptSlot) -> R + Sync,
    missing: impl Fn() -> R,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let slots: Vec<InterruptSlot> = (0..WORKERS).map(|_| Mutex::new(None)).collect();
    // When each worker started its current item, and the item's limit.
    let started: Vec<Mutex<Option<(Instant, Duration)>>> = (0..WORKERS).map(|_| Mutex::new(None)).collect();
    let done_count = AtomicUsize::new(0);
    let (run, limit) = (&run, &limit);
    std::thread::scope(|scope| {
        let mut workers = 0;
        for worker in 0..WORKERS {
            let (next, results, slots, started, done_count) = (&next, &results, &slots, &started, &done_count);
            let spawned = std::thread::Builder::new().stack_size(WORKER_STACK).spawn_scoped(scope, move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if let Ok(mut s) = started[worker].lock() {
                        *s = Some((Instant::now(), limit(item)));
                    }
                    let result = run(item, &slots[worker]);
                    if let Ok(mut s) = started[worker].lock() {
                        *s = None;
                    }
                    if let Ok(mut r) = results[i].lock() {
                        *r = Some(result);
                    }
                    done_count.fetch_add(1, Ordering::Relaxed);
                }
            });
            match spawned {
                Ok(_) => workers += 1,
                Err(e) => eprintln!("{label}: cannot start a worker: {e}"),
            }
        }
        if workers == 0 {
            return;
        }
        // The watchdog: interrupts a run that goes past the limit, and
        // reports progress now and then.
        let mut last_report = Instant::now();
        while done_count.load(Ordering::Relaxed) < items.len() {
            std::thread::sleep(Duration::from_millis(50));
            for w in 0..WORKERS {
                let overdue = started[w].lock().ok().and_then(|s| *s).is_some_and(|(t, limit)| t.elapsed() > limit);
                if overdue && let Some(flag) = slots[w].lock().ok().and_then(|s| s.clone()) {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            if last_report.elapsed() > Duration::from_secs(15) {
                eprintln!("{label}: {} / {} files", done_count.load(Ordering::Relaxed), items.len());
                last_report = Instant::now();
            }
        }
    });
    results.into_iter().map(|m| m.into_inner().ok().flatten().unwrap_or_else(&missing)).collect()
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_item_order() {
        let items: Vec<u32> = (0..20).collect();
        let out = run_parallel("test", &items, |_| Duration::from_secs(5), |i, _| i * 2, || u32::MAX);
        assert_eq!(out, items.iter().map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn overdue_runs_are_interrupted() {
        let items = [()];
        let out = run_parallel(
            "test",
            &items,
            |()| Duration::from_millis(100),
            |(), slot| {
                let flag = Arc::new(AtomicBool::new(false));
                *slot.lock().unwrap() = Some(Arc::clone(&flag));
                let start = Instant::now();
                while !flag.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(10));
                }
                flag.load(Ordering::Relaxed)
            },
            || false,
        );
        assert_eq!(out, vec![true]);
    }
}
