//! `StreamHost`: what the stream algorithms need from the engine.

use js_gc::Trace;
use js_promise::PromiseHost;

use crate::pull_into_descriptor::ViewConstructor;
use crate::slots::StreamSlots;

/// The error constructors the algorithms throw with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// `TypeError`.
    Type,
    /// `RangeError`.
    Range,
}

/// What the byte-stream algorithms read of an `ArrayBufferView` (a typed
/// array or a `DataView`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewRecord<V> {
    /// `[[ViewedArrayBuffer]]`.
    pub buffer: V,
    /// `[[ByteOffset]]`.
    pub byte_offset: usize,
    /// The view's byte length now (0 once its buffer is detached or the
    /// view is out of bounds).
    pub byte_length: usize,
    /// The constructor that makes views like it.
    pub constructor: ViewConstructor,
}

/// The slots of a stream object, with the host's value, object and promise
/// types.
pub type Slots<H> = StreamSlots<<H as PromiseHost>::Value, <H as StreamHost>::Object, <H as PromiseHost>::Promise>;

/// The engine's side of the stream algorithms.
///
/// Streams, controllers, readers, writers and the crate's internal records
/// (a pipe in progress, an async iterator) are host objects whose cells
/// embed one [`StreamSlots`]; promises, jobs and calls come from the
/// [`PromiseHost`] supertrait.
///
/// # Rooting
///
/// The algorithms hold objects across a callback that can run user code
/// ([`PromiseHost::call`], [`to_number`](Self::to_number),
/// `PromiseResolve`) only if they are that call's arguments, slots of the
/// running job, reachable from those, or were rooted with
/// [`root`](Self::root) (every object [`new_stream_object`](Self::new_stream_object)
/// makes is). A host that collects inside those callbacks keeps rooted
/// values alive until the native function or job that started the
/// operation returns.
pub trait StreamHost: PromiseHost {
    /// A reference to one of the host's stream objects.
    type Object: Copy + PartialEq + Trace + 'static;

    /// The slots embedded in `object`'s cell.
    fn stream_slots(&mut self, object: Self::Object) -> &mut Slots<Self>;

    /// `value` as a stream object (any kind), if it is one.
    fn as_stream_object(&self, value: Self::Value) -> Option<Self::Object>;

    /// `object` as a JavaScript value.
    fn stream_object_value(&self, object: Self::Object) -> Self::Value;

    /// A new object holding `slots`, its prototype the realm's prototype
    /// for that kind (no prototype for the internal records), rooted until
    /// the current operation ends.
    fn new_stream_object(&mut self, slots: Slots<Self>) -> Self::Object;

    /// A new error object of `kind` with `message`.
    fn new_error(&mut self, kind: ErrorKind, message: &str) -> Self::Value;

    /// `CreateIterResultObject(value, done)` (a `{ value, done }` read
    /// result).
    fn iter_result(&mut self, value: Self::Value, done: bool) -> Self::Value;

    /// `CreateArrayFromList(values)` (`tee()`'s composite cancel reason).
    fn new_array(&mut self, values: &[Self::Value]) -> Self::Value;

    /// `Get(object, key)`; `object` is an object.
    ///
    /// # Errors
    /// The thrown value of an abrupt completion.
    fn get(&mut self, object: Self::Value, key: &str) -> Result<Self::Value, Self::Value>;

    /// Whether `value` is `undefined` or `null`.
    fn is_nullish(&self, value: Self::Value) -> bool;

    /// `ToBoolean(value)`.
    fn to_boolean(&mut self, value: Self::Value) -> bool;

    /// `ToNumber(value)` (a size algorithm's result).
    ///
    /// # Errors
    /// The thrown value of an abrupt completion.
    fn to_number(&mut self, value: Self::Value) -> Result<f64, Self::Value>;

    /// Keeps `value` alive until the current operation ends.
    fn root(&mut self, value: Self::Value);

    /// `signal`'s abort reason if it is aborted, `None` if it is not
    /// (`signal` is an AbortSignal the host converted, e.g. `pipeTo`'s
    /// `signal` option).
    fn signal_abort_reason(&mut self, signal: Self::Value) -> Option<Self::Value>;

    /// Adds to `signal`, which is not aborted, an abort algorithm that
    /// calls [`crate::pipe_to::pipe_signal_aborted`] with `pipe`; returns
    /// the host's name for it (for
    /// [`remove_abort_algorithm`](Self::remove_abort_algorithm)).
    fn add_pipe_abort_algorithm(&mut self, signal: Self::Value, pipe: Self::Object) -> u64;

    /// Removes the abort algorithm `algorithm` from `signal`.
    fn remove_abort_algorithm(&mut self, signal: Self::Value, algorithm: u64);

    /// A new AbortSignal that is not aborted (a
    /// `WritableStreamDefaultController`'s `[[abortController]]`'s signal).
    fn new_abort_signal(&mut self) -> Self::Value;

    /// "Signal abort" on `signal` with `reason`: runs its abort algorithms
    /// and `abort` listeners, which can run user code (the host reports
    /// what they throw).
    fn signal_abort(&mut self, signal: Self::Value, reason: Self::Value);

    /// The facts of `view`, which the host converted to an
    /// `ArrayBufferView` (or the algorithms made as one).
    fn view_record(&mut self, view: Self::Value) -> ViewRecord<Self::Value>;

    /// `buffer.[[ArrayBufferByteLength]]`, or `None` if
    /// `IsDetachedBuffer(buffer)`.
    fn array_buffer_byte_length(&mut self, buffer: Self::Value) -> Option<usize>;

    /// `TransferArrayBuffer(buffer)`: a new `ArrayBuffer` taking the bytes,
    /// `buffer` detached.
    ///
    /// # Errors
    /// A TypeError if `buffer` cannot be transferred (detached, shared or
    /// not detachable).
    fn transfer_array_buffer(&mut self, buffer: Self::Value) -> Result<Self::Value, Self::Value>;

    /// `Construct(%ArrayBuffer%, « byteLength »)`, or with a non-`None`
    /// `source`, `CloneArrayBuffer(buffer, offset, byteLength)`: a new
    /// buffer of `byte_length` bytes, zeroed or copied from `source` at the
    /// given offset.
    ///
    /// # Errors
    /// The RangeError of an allocation that failed.
    fn new_array_buffer(
        &mut self,
        byte_length: usize,
        source: Option<(Self::Value, usize)>,
    ) -> Result<Self::Value, Self::Value>;

    /// `CopyDataBlockBytes`: `count` bytes from `from` at `from_index` to
    /// `to` at `to_index`; the ranges are in bounds of buffers that are
    /// not detached.
    fn copy_buffer_bytes(
        &mut self,
        to: Self::Value,
        to_index: usize,
        from: Self::Value,
        from_index: usize,
        count: usize,
    );

    /// `Construct(constructor, « buffer, byteOffset, length »)` for a
    /// buffer that is not detached and a range in its bounds (`length` in
    /// elements): the new view.
    fn new_view(
        &mut self,
        constructor: ViewConstructor,
        buffer: Self::Value,
        byte_offset: usize,
        length: usize,
    ) -> Self::Value;
}
