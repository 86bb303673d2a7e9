//! `Job`: one queued microtask as a fixed-size value.

use std::fmt;
use std::ops::BitOr;

use js_gc::{Trace, Tracer};
use static_assertions::assert_eq_size;

/// The number of argument slots of a [`Job`].
pub const JOB_ARGS: usize = 4;

/// The slot that carries the job's async-context frame when
/// [`JobFlags::CONTEXT_FRAME`] is set (otherwise an embedder context).
pub const CONTEXT_SLOT: usize = JOB_ARGS - 1;

/// What a job does, as the embedder numbers it (for example
/// `PromiseReactionJob`, `PromiseResolveThenableJob`, an await resumption,
/// a `queueMicrotask` callback). The queue never interprets it. A crate
/// names its kinds as offsets into the [`JobKindRange`](crate::JobKindRange)
/// it owns, and the embedder registers the ranges in one
/// [`JobKindSpace`](crate::JobKindSpace) so that no two collide.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobKind(u16);

impl JobKind {
    /// The kind numbered `tag`.
    #[inline]
    pub const fn new(tag: u16) -> Self {
        Self(tag)
    }

    /// The embedder's number for this kind.
    #[inline]
    pub const fn tag(self) -> u16 {
        self.0
    }
}

impl fmt::Debug for JobKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JobKind({})", self.0)
    }
}

/// Flag bits of a [`Job`]. Bit 0 is [`CONTEXT_FRAME`](Self::CONTEXT_FRAME);
/// bits 1 to 15 are the embedder's ([`embedder`](Self::embedder)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct JobFlags(u16);

impl JobFlags {
    /// No flags.
    pub const EMPTY: Self = Self(0);

    /// The slot [`CONTEXT_SLOT`] holds the async-context frame the job was
    /// queued under; the runner installs it for the job's duration. Without
    /// this flag the job runs with no frame (or the slot holds an embedder
    /// context).
    pub const CONTEXT_FRAME: Self = Self(1);

    /// The number of flag bits left to the embedder.
    pub const EMBEDDER_BITS: u32 = 15;

    /// The embedder's flag number `bit` (0 to 14), stored in bit `bit + 1`.
    ///
    /// # Panics
    /// If `bit` is not below [`EMBEDDER_BITS`](Self::EMBEDDER_BITS); in a
    /// `const` context that is a compile error.
    #[inline]
    pub const fn embedder(bit: u32) -> Self {
        assert!(bit < Self::EMBEDDER_BITS, "JobFlags::embedder: only 15 embedder bits exist");
        Self(1 << (bit + 1))
    }

    /// The flags whose raw bits are `bits`.
    #[inline]
    pub const fn from_bits(bits: u16) -> Self {
        Self(bits)
    }

    /// The raw bits.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether every flag of `other` is set in `self`.
    #[inline]
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// `self` with the flags of `other` added.
    #[inline]
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// `self` with the flags of `other` removed.
    #[inline]
    #[must_use]
    pub const fn difference(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }
}

impl BitOr for JobFlags {
    type Output = Self;

    fn bitor(self, other: Self) -> Self {
        self.union(other)
    }
}

impl fmt::Debug for JobFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JobFlags({:#06x})", self.0)
    }
}

/// One microtask: a kind tag, flag bits and [`JOB_ARGS`] argument slots of
/// the embedder's value type `V` (a NaN-boxed `Value` in an engine; any
/// `Copy` type).
///
/// A job is a plain value: it is copied into the queue's ring buffer and
/// copied out to run, so queueing allocates nothing. Slots a kind does not
/// use hold whatever filler value the embedder chose (its `undefined`).
///
/// By convention slot [`CONTEXT_SLOT`] carries the async-context frame when
/// [`JobFlags::CONTEXT_FRAME`] is set and an embedder-defined context when
/// it is clear: see [`with_context_frame`](Self::with_context_frame) and
/// [`with_embedder_context`](Self::with_embedder_context).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Job<V> {
    kind: JobKind,
    flags: JobFlags,
    args: [V; JOB_ARGS],
}

// An engine's job is five words: the tag and flags, and four 8-byte values.
assert_eq_size!(Job<u64>, [u64; 5]);
assert_eq_size!(Job<js_gc::GcAny>, [u64; 5]);
assert_eq_size!(Job<u32>, [u32; 5]);

impl<V: Copy> Job<V> {
    /// A job of `kind` with no flags.
    #[inline]
    pub const fn new(kind: JobKind, args: [V; JOB_ARGS]) -> Self {
        Self { kind, flags: JobFlags::EMPTY, args }
    }

    /// The same job with `flags` set in addition to its own.
    #[inline]
    #[must_use]
    pub const fn with_flags(mut self, flags: JobFlags) -> Self {
        self.flags = self.flags.union(flags);
        self
    }

    /// The same job carrying `frame` in slot [`CONTEXT_SLOT`], with
    /// [`JobFlags::CONTEXT_FRAME`] set.
    #[inline]
    #[must_use]
    pub const fn with_context_frame(mut self, frame: V) -> Self {
        self.args[CONTEXT_SLOT] = frame;
        self.flags = self.flags.union(JobFlags::CONTEXT_FRAME);
        self
    }

    /// The same job carrying the embedder-defined `context` in slot
    /// [`CONTEXT_SLOT`], with [`JobFlags::CONTEXT_FRAME`] cleared: what the
    /// slot holds when it holds no frame.
    #[inline]
    #[must_use]
    pub const fn with_embedder_context(mut self, context: V) -> Self {
        self.args[CONTEXT_SLOT] = context;
        self.flags = self.flags.difference(JobFlags::CONTEXT_FRAME);
        self
    }

    /// The job's kind.
    #[inline]
    pub const fn kind(&self) -> JobKind {
        self.kind
    }

    /// The job's flags.
    #[inline]
    pub const fn flags(&self) -> JobFlags {
        self.flags
    }

    /// Argument slot `index`.
    ///
    /// # Panics
    /// If `index` is not below [`JOB_ARGS`].
    #[inline]
    pub const fn arg(&self, index: usize) -> V {
        self.args[index]
    }

    /// All argument slots.
    #[inline]
    pub const fn args(&self) -> &[V; JOB_ARGS] {
        &self.args
    }

    /// The async-context frame the job carries, if
    /// [`JobFlags::CONTEXT_FRAME`] is set.
    #[inline]
    pub const fn context_frame(&self) -> Option<V> {
        if self.flags.contains(JobFlags::CONTEXT_FRAME) { Some(self.args[CONTEXT_SLOT]) } else { None }
    }

    /// The embedder context the job carries in slot [`CONTEXT_SLOT`], if
    /// [`JobFlags::CONTEXT_FRAME`] is clear (the embedder's filler value,
    /// such as `undefined`, when it set none).
    #[inline]
    pub const fn embedder_context(&self) -> Option<V> {
        if self.flags.contains(JobFlags::CONTEXT_FRAME) { None } else { Some(self.args[CONTEXT_SLOT]) }
    }
}

// SAFETY: every argument slot holds a valid `V` (slots are never left
// uninitialised), and all four are traced, so every pointer a job owns is
// reported. Tracing has no other effect.
unsafe impl<V: Trace> Trace for Job<V> {
    const NEEDS_TRACE: bool = V::NEEDS_TRACE;

    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        self.args.trace(tracer);
    }
}

#[cfg(test)]
mod tests {
    use super::{CONTEXT_SLOT, Job, JobFlags, JobKind};

    #[test]
    fn context_frame_rides_in_the_fourth_slot() {
        let job = Job::new(JobKind::new(3), [1_u64, 2, 3, 0]);
        assert_eq!(job.context_frame(), None);
        let job = job.with_context_frame(99);
        assert_eq!(job.context_frame(), Some(99));
        assert_eq!(job.arg(CONTEXT_SLOT), 99);
        assert_eq!(job.args()[..3], [1, 2, 3]);
        assert_eq!(job.kind().tag(), 3);
    }

    #[test]
    fn embedder_context_rides_in_the_fourth_slot_without_the_flag() {
        let job = Job::new(JobKind::new(3), [1_u64, 2, 3, 0]).with_flags(JobFlags::embedder(0));
        assert_eq!(job.embedder_context(), Some(0));
        let job = job.with_context_frame(99);
        assert_eq!(job.embedder_context(), None);
        let job = job.with_embedder_context(7);
        assert_eq!(job.embedder_context(), Some(7));
        assert_eq!(job.context_frame(), None);
        assert_eq!(job.arg(CONTEXT_SLOT), 7);
        assert_eq!(job.args()[..3], [1, 2, 3]);
        assert!(job.flags().contains(JobFlags::embedder(0)), "other flags are kept");
    }

    #[test]
    fn flags_compose() {
        let mine = JobFlags::embedder(0);
        let other = JobFlags::embedder(14);
        let job = Job::new(JobKind::new(0), [0_u32; 4]).with_flags(mine | other);
        assert!(job.flags().contains(mine));
        assert!(job.flags().contains(other));
        assert!(!job.flags().contains(JobFlags::CONTEXT_FRAME));
        assert_eq!(job.flags().difference(mine), other);
        assert_eq!(mine.bits(), 0b10);
        assert_eq!(JobFlags::from_bits(0b10), mine);
    }

    #[test]
    #[should_panic(expected = "only 15 embedder bits")]
    fn embedder_flag_out_of_range_panics() {
        let _ = JobFlags::embedder(15);
    }
}
