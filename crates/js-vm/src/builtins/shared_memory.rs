//! The Shared Data Block of a SharedArrayBuffer (§6.2.9) and the waiter
//! lists of `Atomics.wait`, `Atomics.waitAsync` and `Atomics.notify`
//! (§25.4.3.x, "WaiterList Objects").
//!
//! A block is reference counted and may be held by several VMs, each on
//! its own thread (test262's `$262.agent`, an embedder's workers): each VM
//! wraps it in its own SharedArrayBuffer object. Its bytes never move: a
//! growable buffer allocates its maximum length up front, and its length
//! only grows, by a compare-and-swap.
//!
//! Atomics operations use the processor's atomic instructions on aligned
//! elements (typed array offsets are multiples of the element size and the
//! block is 8-byte aligned). Ordinary element reads and writes through
//! typed arrays and DataViews are plain memory accesses, which the
//! ECMAScript memory model lets race (a racing read sees some bytes,
//! possibly torn, never an error); the engine never relies on a racy value
//! for its own invariants, since each access re-checks the bounds against
//! the current length.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use js_microtask::RemoteInbox;
use parking_lot::{Condvar, Mutex};

/// How often a blocked `Atomics.wait` looks at its VM's interrupt flag, so
/// a terminated agent stops waiting.
const INTERRUPT_POLL: Duration = Duration::from_millis(20);

/// The alignment of every block: the widest atomic element.
const BLOCK_ALIGN: usize = 8;

/// A task another thread posts to a VM's event loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteTask {
    /// The `Atomics.waitAsync` waiter with this id was notified: its
    /// promise resolves to `"ok"`.
    WaitAsyncNotified(u64),
}

/// A VM's inbox, shared with the waiter lists that may post to it.
pub type VmInbox = Arc<RemoteInbox<RemoteTask>>;

/// The signal a blocked `Atomics.wait` sleeps on.
#[derive(Default)]
pub(crate) struct SyncWaiter {
    /// Set (under the waiter-list lock) by `NotifyWaiter`.
    notified: AtomicBool,
    condvar: Condvar,
}

/// How a waiter is told it was notified.
enum Signal {
    /// A blocked `Atomics.wait`.
    Sync(Arc<SyncWaiter>),
    /// An `Atomics.waitAsync` promise: a task to its VM's event loop.
    Async { id: u64, inbox: VmInbox },
}

/// A Waiter Record in a block's waiter list.
struct Waiter {
    /// The byte index it waits on (the list is the block's, for every
    /// index: `GetWaiterList(block, i)` is this list filtered by `i`).
    byte_index: usize,
    signal: Signal,
}

impl Waiter {
    /// Whether this is the blocked `Atomics.wait` sleeping on `signal`.
    fn is_sync(&self, signal: &Arc<SyncWaiter>) -> bool {
        match &self.signal {
            Signal::Sync(s) => Arc::ptr_eq(s, signal),
            Signal::Async { .. } => false,
        }
    }

    /// Whether this is the `Atomics.waitAsync` waiter `id`.
    fn is_async(&self, id: u64) -> bool {
        matches!(self.signal, Signal::Async { id: i, .. } if i == id)
    }
}

/// What `Atomics.wait` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WaitOutcome {
    /// `"ok"`: notified.
    Ok,
    /// `"not-equal"`: the element did not hold the expected value.
    NotEqual,
    /// `"timed-out"`.
    TimedOut,
    /// The VM was asked to terminate while it waited.
    Interrupted,
}

/// A Shared Data Block.
pub(crate) struct SharedBlock {
    ptr: NonNull<u8>,
    /// Bytes allocated: the maximum length of a growable buffer.
    capacity: usize,
    /// The current length (`ArrayBufferByteLengthRawBytes`).
    len: AtomicUsize,
    /// `[[ArrayBufferMaxByteLength]]` for a growable buffer.
    max_byte_length: Option<usize>,
    /// Every waiter on the block, in the order they started waiting; its
    /// lock is the critical section of §25.4.3.
    waiters: Mutex<Vec<Waiter>>,
}

// SAFETY: the block owns its allocation; every access from several
// threads goes through atomic instructions or is a racy plain access the
// memory model permits (see the module documentation), and the waiter list
// is behind a lock.
unsafe impl Send for SharedBlock {}
// SAFETY: as for `Send`.
unsafe impl Sync for SharedBlock {}

impl SharedBlock {
    /// A zeroed block of `len` bytes that may grow to `max_byte_length`;
    /// `None` when the memory cannot be had.
    pub(crate) fn new(len: usize, max_byte_length: Option<usize>) -> Option<Self> {
        let capacity = max_byte_length.unwrap_or(len).max(len);
        let ptr = if capacity == 0 {
            NonNull::<u64>::dangling().cast()
        } else {
            let layout = Layout::from_size_align(capacity, BLOCK_ALIGN).ok()?;
            // SAFETY: the layout has a nonzero size.
            NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?
        };
        Some(Self { ptr, capacity, len: AtomicUsize::new(len), max_byte_length, waiters: Mutex::new(Vec::new()) })
    }

    /// The current length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::SeqCst)
    }

    /// `[[ArrayBufferMaxByteLength]]`, for a growable buffer.
    pub(crate) fn max_byte_length(&self) -> Option<usize> {
        self.max_byte_length
    }

    /// The start of the bytes, valid for `len()` bytes (and up to the
    /// capacity, which never changes).
    pub(crate) fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Grows the length to `new_len`, or `false` when that is below the
    /// current length or past the maximum (another agent may grow the
    /// block at the same time: the compare-and-swap loop of §25.2.5.3).
    pub(crate) fn grow(&self, new_len: usize) -> bool {
        if new_len > self.capacity {
            return false;
        }
        let mut current = self.len();
        loop {
            if new_len < current {
                return false;
            }
            if new_len == current {
                return true;
            }
            match self.len.compare_exchange(current, new_len, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return true,
                Err(actual) => current = actual,
            }
        }
    }

    /// Whether `size` bytes at `byte_index` are in bounds and aligned for
    /// an atomic access.
    fn atomic_slot(&self, byte_index: usize, size: usize) -> Option<*mut u8> {
        let end = byte_index.checked_add(size)?;
        (matches!(size, 1 | 2 | 4 | 8) && end <= self.len() && byte_index.is_multiple_of(size))
            // SAFETY: `byte_index + size` is within the allocation.
            .then(|| unsafe { self.as_ptr().add(byte_index) })
    }

    /// An atomic read-modify-write of the `size`-byte element at
    /// `byte_index` (little-endian bits, zero-extended): stores `f(old)`
    /// and returns `old`. `None` when the slot is out of bounds.
    pub(crate) fn atomic_update(&self, byte_index: usize, size: usize, mut f: impl FnMut(u64) -> u64) -> Option<u64> {
        let p = self.atomic_slot(byte_index, size)?;
        let order = Ordering::SeqCst;
        // Elements are little-endian in the buffer; the atomics work on
        // native integers, so `from_le`/`to_le` convert on big-endian hosts.
        // Every `from_ptr` below: `p` is in bounds, aligned to the element's
        // size and lives as long as `self`, and every atomic access to the
        // block goes through these same types.
        let old = match size {
            1 => {
                // SAFETY: as said above.
                let a = unsafe { AtomicU8::from_ptr(p) };
                u64::from(a.fetch_update(order, order, |v| Some(f(u64::from(v)) as u8)).unwrap_or(0))
            }
            2 => {
                // SAFETY: as said above.
                let a = unsafe { AtomicU16::from_ptr(p.cast()) };
                let old = a.fetch_update(order, order, |v| Some((f(u64::from(u16::from_le(v))) as u16).to_le()));
                u64::from(u16::from_le(old.unwrap_or(0)))
            }
            4 => {
                // SAFETY: as said above.
                let a = unsafe { AtomicU32::from_ptr(p.cast()) };
                let old = a.fetch_update(order, order, |v| Some((f(u64::from(u32::from_le(v))) as u32).to_le()));
                u64::from(u32::from_le(old.unwrap_or(0)))
            }
            _ => {
                // SAFETY: as said above.
                let a = unsafe { AtomicU64::from_ptr(p.cast()) };
                u64::from_le(a.fetch_update(order, order, |v| Some(f(u64::from_le(v)).to_le())).unwrap_or(0))
            }
        };
        Some(old)
    }

    /// An atomic (sequentially consistent) read of the element.
    pub(crate) fn atomic_load(&self, byte_index: usize, size: usize) -> Option<u64> {
        let p = self.atomic_slot(byte_index, size)?;
        let order = Ordering::SeqCst;
        // Every `from_ptr` below: as in `atomic_update`.
        let v = match size {
            1 => {
                // SAFETY: as said above.
                u64::from(unsafe { AtomicU8::from_ptr(p) }.load(order))
            }
            2 => {
                // SAFETY: as said above.
                u64::from(u16::from_le(unsafe { AtomicU16::from_ptr(p.cast()) }.load(order)))
            }
            4 => {
                // SAFETY: as said above.
                u64::from(u32::from_le(unsafe { AtomicU32::from_ptr(p.cast()) }.load(order)))
            }
            _ => {
                // SAFETY: as said above.
                u64::from_le(unsafe { AtomicU64::from_ptr(p.cast()) }.load(order))
            }
        };
        Some(v)
    }

    /// The synchronous half of `DoWait` (§25.4.3.14) from the critical
    /// section on: `"not-equal"` unless the element holds `expected`
    /// (compared on its `size` bytes), otherwise sleeps until notified,
    /// `timeout` passes (`None`: never) or `interrupt` is set.
    pub(crate) fn wait(
        &self,
        byte_index: usize,
        size: usize,
        expected: u64,
        timeout: Option<Duration>,
        interrupt: &AtomicBool,
    ) -> WaitOutcome {
        let mut list = self.waiters.lock();
        if self.atomic_load(byte_index, size) != Some(expected) {
            return WaitOutcome::NotEqual;
        }
        let signal = Arc::new(SyncWaiter::default());
        list.push(Waiter { byte_index, signal: Signal::Sync(Arc::clone(&signal)) });
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let outcome = loop {
            if signal.notified.load(Ordering::SeqCst) {
                return WaitOutcome::Ok;
            }
            if interrupt.load(Ordering::Relaxed) {
                break WaitOutcome::Interrupted;
            }
            let now = Instant::now();
            let slice = match deadline {
                Some(d) if now >= d => break WaitOutcome::TimedOut,
                Some(d) => (d - now).min(INTERRUPT_POLL),
                // No timeout, or one too large for the clock: never passes.
                None => INTERRUPT_POLL,
            };
            signal.condvar.wait_for(&mut list, slice);
        };
        // Not notified: the waiter is still in the list.
        list.retain(|w| !w.is_sync(&signal));
        outcome
    }

    /// The asynchronous half of `DoWait` from the critical section on:
    /// `Err` with `"not-equal"` (or `"timed-out"` for a zero timeout) when
    /// the promise is not needed, otherwise the waiter is added and will
    /// be notified through `inbox` under `id`.
    pub(crate) fn wait_async(
        &self,
        byte_index: usize,
        size: usize,
        expected: u64,
        zero_timeout: bool,
        id: u64,
        inbox: &VmInbox,
    ) -> Result<(), WaitOutcome> {
        let mut list = self.waiters.lock();
        if self.atomic_load(byte_index, size) != Some(expected) {
            return Err(WaitOutcome::NotEqual);
        }
        if zero_timeout {
            return Err(WaitOutcome::TimedOut);
        }
        list.push(Waiter { byte_index, signal: Signal::Async { id, inbox: Arc::clone(inbox) } });
        Ok(())
    }

    /// Removes the async waiter `id` if it is still waiting (its timeout
    /// passed): `true` if it was, `false` if a notification took it first
    /// (and its task is on the way).
    pub(crate) fn remove_async_waiter(&self, id: u64) -> bool {
        let mut list = self.waiters.lock();
        let before = list.len();
        list.retain(|w| !w.is_async(id));
        list.len() != before
    }

    /// `Atomics.notify`'s critical section: wakes up to `count` waiters on
    /// `byte_index`, oldest first, and returns how many.
    pub(crate) fn notify(&self, byte_index: usize, count: usize) -> usize {
        let mut list = self.waiters.lock();
        let mut woken = 0;
        let mut i = 0;
        while i < list.len() && woken < count {
            if list[i].byte_index != byte_index {
                i += 1;
                continue;
            }
            let waiter = list.remove(i);
            match waiter.signal {
                Signal::Sync(s) => {
                    s.notified.store(true, Ordering::SeqCst);
                    s.condvar.notify_one();
                }
                Signal::Async { id, inbox } => {
                    // A VM that is gone has closed its inbox: nobody is
                    // left to resolve the promise for.
                    let _ = inbox.post(RemoteTask::WaitAsyncNotified(id));
                }
            }
            woken += 1;
        }
        woken
    }
}

impl Drop for SharedBlock {
    fn drop(&mut self) {
        if self.capacity > 0
            && let Ok(layout) = Layout::from_size_align(self.capacity, BLOCK_ALIGN)
        {
            // SAFETY: allocated in `new` with this very layout.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout) };
        }
    }
}

/// A SharedArrayBuffer's block, to hand to another VM (possibly on another
/// thread) with [`Vm::shared_array_buffer_from`](crate::Vm::shared_array_buffer_from):
/// both buffers then see the same memory.
#[derive(Clone)]
pub struct SharedArrayBufferBlock(pub(crate) Arc<SharedBlock>);

impl SharedArrayBufferBlock {
    /// The block's current length in bytes.
    pub fn byte_length(&self) -> usize {
        self.0.len()
    }
}

impl std::fmt::Debug for SharedArrayBufferBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedArrayBufferBlock").field("byte_length", &self.0.len()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomics_are_little_endian_and_bounded() {
        let block = SharedBlock::new(8, Some(16)).expect("allocated");
        assert_eq!(block.atomic_update(4, 4, |_| 0x0102_0304), Some(0));
        // SAFETY: in bounds; no other thread has the block.
        let byte = unsafe { *block.as_ptr().add(4) };
        assert_eq!(byte, 4);
        assert_eq!(block.atomic_load(4, 4), Some(0x0102_0304));
        assert_eq!(block.atomic_load(4, 2), Some(0x0304));
        assert_eq!(block.atomic_load(8, 4), None, "past the length");
        assert_eq!(block.atomic_load(2, 4), None, "misaligned");
        assert!(block.grow(16));
        assert_eq!(block.atomic_load(8, 8), Some(0));
        assert!(!block.grow(12), "never shrinks");
        assert!(!block.grow(17), "past the maximum");
    }

    #[test]
    fn wait_times_out_notify_wakes_across_threads() {
        let block = Arc::new(SharedBlock::new(8, None).expect("allocated"));
        let never = AtomicBool::new(false);
        assert_eq!(block.wait(0, 4, 1, Some(Duration::ZERO), &never), WaitOutcome::NotEqual);
        assert_eq!(block.wait(0, 4, 0, Some(Duration::from_millis(5)), &never), WaitOutcome::TimedOut);
        let waiter = {
            let block = Arc::clone(&block);
            std::thread::spawn(move || block.wait(4, 4, 0, None, &AtomicBool::new(false)))
        };
        // Notify until the waiter has queued.
        let mut woken = 0;
        while woken == 0 {
            assert_eq!(block.notify(0, usize::MAX), 0, "nobody waits on index 0");
            woken = block.notify(4, 1);
            std::thread::yield_now();
        }
        assert_eq!(waiter.join().ok(), Some(WaitOutcome::Ok));
        let interrupt = AtomicBool::new(true);
        assert_eq!(block.wait(0, 4, 0, None, &interrupt), WaitOutcome::Interrupted);
        assert_eq!(block.notify(0, usize::MAX), 0, "an interrupted waiter left the list");
    }

    #[test]
    fn async_waiters_post_to_their_inbox() {
        let block = SharedBlock::new(4, None).expect("allocated");
        let inbox: VmInbox = Arc::new(RemoteInbox::new());
        assert_eq!(block.wait_async(0, 4, 0, true, 1, &inbox), Err(WaitOutcome::TimedOut));
        assert_eq!(block.wait_async(0, 4, 9, false, 1, &inbox), Err(WaitOutcome::NotEqual));
        assert_eq!(block.wait_async(0, 4, 0, false, 7, &inbox), Ok(()));
        assert_eq!(block.wait_async(0, 4, 0, false, 8, &inbox), Ok(()));
        assert!(block.remove_async_waiter(8));
        assert_eq!(block.notify(0, usize::MAX), 1);
        assert_eq!(inbox.try_take(), Some(RemoteTask::WaitAsyncNotified(7)));
        assert!(!block.remove_async_waiter(7));
    }
}
