//! Pull-into descriptors (Streams §4.7.2's `[[pendingPullIntos]]` entries)
//! and the byte queue's entries: the records a readable byte stream
//! controller keeps for reads waiting on bytes and for bytes waiting on
//! reads.

use js_gc::{Trace, Tracer};

/// The constructor of an `ArrayBufferView` (the typed array constructors
/// and `%DataView%`): what a pull-into descriptor's filled view is made
/// with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewConstructor {
    /// `%Int8Array%`.
    Int8,
    /// `%Uint8Array%`.
    Uint8,
    /// `%Uint8ClampedArray%`.
    Uint8Clamped,
    /// `%Int16Array%`.
    Int16,
    /// `%Uint16Array%`.
    Uint16,
    /// `%Int32Array%`.
    Int32,
    /// `%Uint32Array%`.
    Uint32,
    /// `%Float16Array%`.
    Float16,
    /// `%Float32Array%`.
    Float32,
    /// `%Float64Array%`.
    Float64,
    /// `%BigInt64Array%`.
    BigInt64,
    /// `%BigUint64Array%`.
    BigUint64,
    /// `%DataView%`.
    DataView,
}

impl ViewConstructor {
    /// The element size (1 for `DataView`, which the spec reads bytewise).
    pub const fn element_size(self) -> usize {
        match self {
            Self::Int8 | Self::Uint8 | Self::Uint8Clamped | Self::DataView => 1,
            Self::Int16 | Self::Uint16 | Self::Float16 => 2,
            Self::Int32 | Self::Uint32 | Self::Float32 => 4,
            Self::Float64 | Self::BigInt64 | Self::BigUint64 => 8,
        }
    }
}

/// A pull-into descriptor's reader type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReaderType {
    /// `"default"`: a default reader's read with `autoAllocateChunkSize`.
    Default,
    /// `"byob"`: a BYOB reader's read.
    Byob,
    /// `"none"`: the reader that made it was released.
    None,
}

/// A pull-into descriptor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PullIntoDescriptor<V> {
    /// `buffer`.
    pub buffer: V,
    /// `buffer byte length`.
    pub buffer_byte_length: usize,
    /// `byte offset`.
    pub byte_offset: usize,
    /// `byte length`.
    pub byte_length: usize,
    /// `bytes filled`.
    pub bytes_filled: usize,
    /// `minimum fill`.
    pub minimum_fill: usize,
    /// `element size`.
    pub element_size: usize,
    /// `view constructor`.
    pub view_constructor: ViewConstructor,
    /// `reader type`.
    pub reader_type: ReaderType,
}

/// A readable byte stream queue entry: a range of a buffer the stream
/// owns (it was transferred or cloned on the way in).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ByteQueueEntry<V> {
    /// `buffer`.
    pub buffer: V,
    /// `byte offset`.
    pub byte_offset: usize,
    /// `byte length`.
    pub byte_length: usize,
}

// SAFETY: the buffer is the only pointer.
unsafe impl<V: Trace> Trace for PullIntoDescriptor<V> {
    fn trace(&self, tracer: &mut Tracer) {
        self.buffer.trace(tracer);
    }
}

// SAFETY: the buffer is the only pointer.
unsafe impl<V: Trace> Trace for ByteQueueEntry<V> {
    fn trace(&self, tracer: &mut Tracer) {
        self.buffer.trace(tracer);
    }
}

#[cfg(test)]
mod tests {
    use super::ViewConstructor;

    #[test]
    fn element_sizes_follow_the_typed_array_table() {
        assert_eq!(ViewConstructor::DataView.element_size(), 1);
        assert_eq!(ViewConstructor::Uint8Clamped.element_size(), 1);
        assert_eq!(ViewConstructor::Float16.element_size(), 2);
        assert_eq!(ViewConstructor::Uint32.element_size(), 4);
        assert_eq!(ViewConstructor::BigInt64.element_size(), 8);
    }
}
