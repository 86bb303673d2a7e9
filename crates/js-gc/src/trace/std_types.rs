//! `Trace` for the standard library types cells are built from.

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::BuildHasher;

use super::{Trace, Tracer};

/// Types that own no heap pointers.
macro_rules! leaf_trace {
    ($($ty:ty),* $(,)?) => {$(
        // SAFETY: the type owns no heap pointers (rule 3).
        unsafe impl Trace for $ty {
            const NEEDS_TRACE: bool = false;
            #[inline]
            fn trace(&self, _tracer: &mut Tracer) {}
        }
    )*};
}

leaf_trace!(
    (),
    bool,
    char,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    &'static str,
    String,
    Box<str>,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
);

// SAFETY: traces the value if present.
unsafe impl<T: Trace> Trace for Option<T> {
    const NEEDS_TRACE: bool = T::NEEDS_TRACE;
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        if let Some(value) = self {
            value.trace(tracer);
        }
    }
}

// SAFETY: traces the boxed value.
unsafe impl<T: Trace + ?Sized> Trace for Box<T> {
    const NEEDS_TRACE: bool = T::NEEDS_TRACE;
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        (**self).trace(tracer);
    }
}

// SAFETY: traces every element.
unsafe impl<T: Trace> Trace for [T] {
    const NEEDS_TRACE: bool = T::NEEDS_TRACE;
    fn trace(&self, tracer: &mut Tracer) {
        if T::NEEDS_TRACE {
            for value in self {
                value.trace(tracer);
            }
        }
    }
}

// SAFETY: traces every element.
unsafe impl<T: Trace, const N: usize> Trace for [T; N] {
    const NEEDS_TRACE: bool = T::NEEDS_TRACE;
    fn trace(&self, tracer: &mut Tracer) {
        self.as_slice().trace(tracer);
    }
}

// SAFETY: traces every element.
unsafe impl<T: Trace> Trace for Vec<T> {
    const NEEDS_TRACE: bool = T::NEEDS_TRACE;
    fn trace(&self, tracer: &mut Tracer) {
        self.as_slice().trace(tracer);
    }
}

// SAFETY: traces every element.
unsafe impl<T: Trace> Trace for VecDeque<T> {
    const NEEDS_TRACE: bool = T::NEEDS_TRACE;
    fn trace(&self, tracer: &mut Tracer) {
        if T::NEEDS_TRACE {
            for value in self {
                value.trace(tracer);
            }
        }
    }
}

// SAFETY: traces every key and value.
unsafe impl<K: Trace, V: Trace, S: BuildHasher> Trace for HashMap<K, V, S> {
    const NEEDS_TRACE: bool = K::NEEDS_TRACE || V::NEEDS_TRACE;
    fn trace(&self, tracer: &mut Tracer) {
        if Self::NEEDS_TRACE {
            for (key, value) in self {
                key.trace(tracer);
                value.trace(tracer);
            }
        }
    }
}

// SAFETY: traces every key and value.
unsafe impl<K: Trace, V: Trace> Trace for BTreeMap<K, V> {
    const NEEDS_TRACE: bool = K::NEEDS_TRACE || V::NEEDS_TRACE;
    fn trace(&self, tracer: &mut Tracer) {
        if Self::NEEDS_TRACE {
            for (key, value) in self {
                key.trace(tracer);
                value.trace(tracer);
            }
        }
    }
}

// SAFETY: traces a copy of the value; `Cell` gives no other access during
// tracing.
unsafe impl<T: Trace + Copy> Trace for Cell<T> {
    const NEEDS_TRACE: bool = T::NEEDS_TRACE;
    #[inline]
    fn trace(&self, tracer: &mut Tracer) {
        self.get().trace(tracer);
    }
}

macro_rules! tuple_trace {
    ($($name:ident),+) => {
        // SAFETY: traces every field.
        unsafe impl<$($name: Trace),+> Trace for ($($name,)+) {
            const NEEDS_TRACE: bool = $($name::NEEDS_TRACE)||+;
            #[allow(non_snake_case, reason = "the fields are named after their type parameters")]
            fn trace(&self, tracer: &mut Tracer) {
                let ($($name,)+) = self;
                $($name.trace(tracer);)+
            }
        }
    };
}

tuple_trace!(A);
tuple_trace!(A, B);
tuple_trace!(A, B, C);
tuple_trace!(A, B, C, D);
