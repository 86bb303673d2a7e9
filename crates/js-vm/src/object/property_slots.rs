//! The values of a shaped object's named properties, in shape order.
//!
//! Up to [`INLINE_SLOTS`] values live in the object itself: an iterator
//! result `{ value, done }` or a small record costs no allocation beside
//! its cell (a `Vec` would allocate for every one, and free it again when
//! the object dies).

use std::ops::{Deref, DerefMut};

use js_gc::{Trace, Tracer};

use crate::value::Value;

/// How many values fit in the object: enough for most small records and
/// class instances (a point, a tree node with key, value, left and right).
pub const INLINE_SLOTS: usize = 4;

/// Property values: inline while there are few, on the heap beyond.
#[derive(Clone, Debug)]
pub enum PropertySlots {
    /// The first `len` of `values` are in use.
    Inline {
        /// Values in use.
        len: u8,
        /// The storage.
        values: [Value; INLINE_SLOTS],
    },
    /// More than [`INLINE_SLOTS`] values (or room reserved for them).
    Heap(Vec<Value>),
}

impl Default for PropertySlots {
    fn default() -> Self {
        Self::new()
    }
}

impl PropertySlots {
    /// No values.
    #[inline]
    pub const fn new() -> Self {
        Self::Inline { len: 0, values: [Value::UNDEFINED; INLINE_SLOTS] }
    }

    /// Exactly two values, in place.
    #[inline]
    pub const fn pair(first: Value, second: Value) -> Self {
        Self::Inline { len: 2, values: [first, second, Value::UNDEFINED, Value::UNDEFINED] }
    }

    /// `values` in slot order: in place when they fit.
    #[inline]
    pub fn from_values(values: &[Value]) -> Self {
        if values.len() > INLINE_SLOTS {
            return Self::Heap(values.to_vec());
        }
        let mut inline = [Value::UNDEFINED; INLINE_SLOTS];
        inline[..values.len()].copy_from_slice(values);
        // `values.len()` is at most INLINE_SLOTS here.
        Self::Inline { len: values.len() as u8, values: inline }
    }

    /// Appends a value (the slot of a property just added to the shape).
    #[inline]
    pub fn push(&mut self, value: Value) {
        match self {
            Self::Inline { len, values } if usize::from(*len) < INLINE_SLOTS => {
                values[usize::from(*len)] = value;
                *len += 1;
            }
            Self::Inline { values, .. } => {
                let mut heap = Vec::with_capacity(INLINE_SLOTS * 2);
                heap.extend_from_slice(values);
                heap.push(value);
                *self = Self::Heap(heap);
            }
            Self::Heap(v) => v.push(value),
        }
    }

    /// Makes room for `additional` more values at once (an object about to
    /// receive a known number of properties).
    pub fn reserve_exact(&mut self, additional: usize) {
        match self {
            Self::Inline { len, values } => {
                let len = usize::from(*len);
                if len + additional > INLINE_SLOTS {
                    let mut heap = Vec::with_capacity(len + additional);
                    heap.extend_from_slice(&values[..len]);
                    *self = Self::Heap(heap);
                }
            }
            Self::Heap(v) => v.reserve_exact(additional),
        }
    }
}

impl Deref for PropertySlots {
    type Target = [Value];

    #[inline]
    fn deref(&self) -> &[Value] {
        match self {
            Self::Inline { len, values } => &values[..usize::from(*len)],
            Self::Heap(v) => v,
        }
    }
}

impl DerefMut for PropertySlots {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Value] {
        match self {
            Self::Inline { len, values } => &mut values[..usize::from(*len)],
            Self::Heap(v) => v,
        }
    }
}

// SAFETY: every value in use is reported; inline entries past `len` are
// `undefined` (nothing removes values) and are never read.
unsafe impl Trace for PropertySlots {
    fn trace(&self, tracer: &mut Tracer) {
        for value in self.iter() {
            value.trace(tracer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_from_inline_to_heap_keeping_order() {
        let mut slots = PropertySlots::new();
        for i in 0..5 {
            slots.push(Value::number(f64::from(i)));
            assert_eq!(slots.len(), i as usize + 1);
            assert_eq!(matches!(slots, PropertySlots::Inline { .. }), i < INLINE_SLOTS as i32);
        }
        let seen: Vec<f64> = slots.iter().map(|v| v.as_number().unwrap_or(f64::NAN)).collect();
        assert_eq!(seen, [0.0, 1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn reserving_past_the_inline_room_moves_to_the_heap() {
        let mut slots = PropertySlots::pair(Value::TRUE, Value::FALSE);
        slots.reserve_exact(INLINE_SLOTS - 1);
        assert!(matches!(&slots, PropertySlots::Heap(v) if v.capacity() > INLINE_SLOTS));
        assert_eq!(&*slots, &[Value::TRUE, Value::FALSE]);
        let mut small = PropertySlots::new();
        small.reserve_exact(2);
        assert!(matches!(small, PropertySlots::Inline { len: 0, .. }));
    }

    #[test]
    fn slots_are_written_in_place() {
        let mut slots = PropertySlots::pair(Value::UNDEFINED, Value::NULL);
        slots[1] = Value::TRUE;
        assert_eq!(&*slots, &[Value::UNDEFINED, Value::TRUE]);
    }
}
