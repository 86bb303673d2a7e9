//! `CacheKey`: what identifies an executable to the call cache.

use std::num::{NonZeroU32, NonZeroU64, NonZeroUsize};

use js_gc::{Gc, GcAny, Trace};

/// A key of the [`CallCache`](crate::CallCache): the identity of an
/// executable (its code cell), cheap to copy and compare.
///
/// [`identity`](Self::identity) feeds the set-selecting hash; equal keys
/// must have equal identities. Pointer-like keys with a niche (`GcAny`,
/// `Gc<T>`, the `NonZero` integers) keep the cache's empty-way marker free.
pub trait CacheKey: Copy + Eq {
    /// A number that identifies the key (a cell's address, for cells).
    fn identity(self) -> u64;
}

impl CacheKey for GcAny {
    #[inline]
    fn identity(self) -> u64 {
        self.addr() as u64
    }
}

impl<T: Trace + 'static> CacheKey for Gc<T> {
    #[inline]
    fn identity(self) -> u64 {
        self.as_any().addr() as u64
    }
}

macro_rules! integer_keys {
    ($($ty:ty => |$v:ident| $e:expr),* $(,)?) => {$(
        impl CacheKey for $ty {
            #[inline]
            fn identity(self) -> u64 {
                let $v = self;
                $e
            }
        }
    )*};
}

integer_keys!(
    u32 => |v| u64::from(v),
    u64 => |v| v,
    usize => |v| v as u64,
    NonZeroU32 => |v| u64::from(v.get()),
    NonZeroU64 => |v| v.get(),
    NonZeroUsize => |v| v.get() as u64,
);
