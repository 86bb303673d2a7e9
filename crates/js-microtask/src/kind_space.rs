//! The declared space of job kinds: each crate that queues jobs owns a
//! [`JobKindRange`], and the embedder registers every range it links in one
//! [`JobKindSpace`], which refuses two ranges that share a tag.
//!
//! Built in a `const` item, a collision is a compile error; built at run
//! time with [`JobKindSpace::try_new`], a typed [`KindCollision`].

use std::fmt;

use thiserror::Error;

use crate::job::JobKind;

/// A contiguous range of [`JobKind`] tags that one crate owns: the crate
/// names its kinds by offset into it ([`kind`](Self::kind)) and recognises
/// its jobs with [`contains`](Self::contains).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct JobKindRange {
    owner: &'static str,
    first: u16,
    last: u16,
}

impl JobKindRange {
    /// The tags `first..=last`, owned by `owner` (a crate name, for
    /// diagnostics).
    ///
    /// # Panics
    /// If `first > last`; in a `const` context that is a compile error.
    pub const fn new(owner: &'static str, first: u16, last: u16) -> Self {
        assert!(first <= last, "JobKindRange::new: the first tag is after the last");
        Self { owner, first, last }
    }

    /// The kind at `offset` from the range's first tag.
    ///
    /// # Panics
    /// If the kind is outside the range; in a `const` context (how kinds
    /// are declared) that is a compile error.
    #[inline]
    pub const fn kind(self, offset: u16) -> JobKind {
        assert!(offset <= self.last - self.first, "JobKindRange::kind: offset outside the crate's range");
        JobKind::new(self.first + offset)
    }

    /// Whether `kind` is in the range.
    #[inline]
    pub const fn contains(self, kind: JobKind) -> bool {
        self.first <= kind.tag() && kind.tag() <= self.last
    }

    /// `kind`'s offset from the first tag, if it is in the range.
    #[inline]
    pub const fn offset(self, kind: JobKind) -> Option<u16> {
        if self.contains(kind) { Some(kind.tag() - self.first) } else { None }
    }

    /// Whether the two ranges share a tag.
    pub const fn overlaps(self, other: Self) -> bool {
        self.first <= other.last && other.first <= self.last
    }

    /// The crate that owns the range.
    pub const fn owner(self) -> &'static str {
        self.owner
    }

    /// The first tag.
    pub const fn first(self) -> u16 {
        self.first
    }

    /// The last tag (inclusive).
    pub const fn last(self) -> u16 {
        self.last
    }
}

impl fmt::Debug for JobKindRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:#06x}..={:#06x}", self.owner, self.first, self.last)
    }
}

/// Two registered ranges share a tag.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("job kinds collide: {first:?} and {second:?} share a tag")]
pub struct KindCollision {
    /// The range registered first.
    pub first: JobKindRange,
    /// The range registered later that overlaps it.
    pub second: JobKindRange,
}

/// Every job-kind range an engine links, registered at one place and
/// checked pairwise disjoint, so no two crates can take the same number.
///
/// ```
/// use js_microtask::{JobKindRange, JobKindSpace};
///
/// const ENGINE: JobKindRange = JobKindRange::new("engine", 0x0000, 0x00FF);
/// const PROMISES: JobKindRange = JobKindRange::new("promises", 0xFF00, 0xFF02);
/// const KINDS: JobKindSpace<2> = JobKindSpace::new([ENGINE, PROMISES]);
///
/// assert_eq!(KINDS.owner_of(PROMISES.kind(1)).map(|r| r.owner()), Some("promises"));
/// assert_eq!(KINDS.owner_of(js_microtask::JobKind::new(0x1000)), None);
/// ```
///
/// Two crates claiming one tag do not compile:
///
/// ```compile_fail
/// use js_microtask::{JobKindRange, JobKindSpace};
///
/// const A: JobKindRange = JobKindRange::new("a", 0x0000, 0x00FF);
/// const B: JobKindRange = JobKindRange::new("b", 0x00FF, 0x01FF);
/// const KINDS: JobKindSpace<2> = JobKindSpace::new([A, B]);
/// # let _ = KINDS;
/// ```
#[derive(Clone, Copy, Debug)]
pub struct JobKindSpace<const N: usize> {
    ranges: [JobKindRange; N],
}

impl<const N: usize> JobKindSpace<N> {
    /// The space of `ranges`.
    ///
    /// # Panics
    /// If two ranges overlap; in a `const` item that is a compile error,
    /// which is how an engine should declare its space.
    pub const fn new(ranges: [JobKindRange; N]) -> Self {
        match Self::try_new(ranges) {
            Ok(space) => space,
            Err(_) => panic!("JobKindSpace::new: two crates claim the same job kind"),
        }
    }

    /// The space of `ranges`, for a space assembled at run time.
    ///
    /// # Errors
    /// [`KindCollision`] naming the first pair of ranges that overlap.
    pub const fn try_new(ranges: [JobKindRange; N]) -> Result<Self, KindCollision> {
        let mut later = 1;
        while later < N {
            let mut earlier = 0;
            while earlier < later {
                if ranges[earlier].overlaps(ranges[later]) {
                    return Err(KindCollision { first: ranges[earlier], second: ranges[later] });
                }
                earlier += 1;
            }
            later += 1;
        }
        Ok(Self { ranges })
    }

    /// The range that owns `kind`, if one does.
    pub const fn owner_of(&self, kind: JobKind) -> Option<JobKindRange> {
        let mut index = 0;
        while index < N {
            if self.ranges[index].contains(kind) {
                return Some(self.ranges[index]);
            }
            index += 1;
        }
        None
    }

    /// The registered ranges, in registration order.
    pub const fn ranges(&self) -> &[JobKindRange; N] {
        &self.ranges
    }
}

#[cfg(test)]
mod tests {
    use super::{JobKindRange, JobKindSpace, KindCollision};
    use crate::JobKind;

    const ENGINE: JobKindRange = JobKindRange::new("engine", 0x0000, 0x00FF);
    const STREAMS: JobKindRange = JobKindRange::new("streams", 0xFE00, 0xFEFF);
    const PROMISES: JobKindRange = JobKindRange::new("promises", 0xFF00, 0xFF02);

    #[test]
    fn kinds_are_offsets_into_their_range() {
        assert_eq!(PROMISES.kind(2), JobKind::new(0xFF02));
        assert!(PROMISES.contains(JobKind::new(0xFF00)));
        assert!(!PROMISES.contains(JobKind::new(0xFF03)));
        assert_eq!(STREAMS.offset(JobKind::new(0xFE2E)), Some(0x2E));
        assert_eq!(STREAMS.offset(JobKind::new(0xFF00)), None);
    }

    #[test]
    #[should_panic(expected = "offset outside the crate's range")]
    fn a_kind_past_the_range_is_refused() {
        let _ = PROMISES.kind(3);
    }

    #[test]
    fn disjoint_ranges_register() {
        let space = JobKindSpace::try_new([ENGINE, STREAMS, PROMISES]).expect("disjoint");
        assert_eq!(space.owner_of(JobKind::new(6)), Some(ENGINE));
        assert_eq!(space.owner_of(JobKind::new(0xFE80)), Some(STREAMS));
        assert_eq!(space.owner_of(JobKind::new(0xFF01)), Some(PROMISES));
        assert_eq!(space.owner_of(JobKind::new(0x0100)), None);
        assert_eq!(space.ranges().len(), 3);
    }

    #[test]
    fn a_collision_names_both_owners() {
        let intruder = JobKindRange::new("intruder", 0xFEFF, 0xFF00);
        let collision = JobKindSpace::try_new([ENGINE, STREAMS, PROMISES, intruder]).unwrap_err();
        assert_eq!(collision, KindCollision { first: STREAMS, second: intruder });
        assert_eq!(
            collision.to_string(),
            "job kinds collide: streams 0xfe00..=0xfeff and intruder 0xfeff..=0xff00 share a tag"
        );
        // A range that touches its neighbours without sharing a tag is fine.
        assert!(JobKindSpace::try_new([STREAMS, JobKindRange::new("gap", 0xFDFF, 0xFDFF)]).is_ok());
    }

    #[test]
    #[should_panic(expected = "two crates claim the same job kind")]
    fn new_refuses_a_collision() {
        let _ = JobKindSpace::new([ENGINE, JobKindRange::new("engine again", 0x0010, 0x0010)]);
    }
}
