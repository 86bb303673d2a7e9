//! The internal slots of every stream object, embedded by the host in its
//! cells ([`StreamSlots`]), and typed access to them.

use std::collections::VecDeque;

use js_gc::{Trace, Tracer};

use crate::host::StreamHost;
use crate::lazy_promise::LazyPromise;
use crate::pull_into_descriptor::{ByteQueueEntry, PullIntoDescriptor};
use crate::queue::ValueQueue;

/// `ReadableStream.[[state]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadableState {
    /// `"readable"`.
    Readable,
    /// `"closed"`.
    Closed,
    /// `"errored"`.
    Errored,
}

/// `WritableStream.[[state]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritableState {
    /// `"writable"`.
    Writable,
    /// `"closed"`.
    Closed,
    /// `"erroring"`.
    Erroring,
    /// `"errored"`.
    Errored,
}

/// The slots of a `ReadableStream`.
#[derive(Debug)]
pub struct ReadableStreamSlots<V, O> {
    /// `[[state]]`.
    pub state: ReadableState,
    /// `[[storedError]]`.
    pub stored_error: V,
    /// `[[disturbed]]`.
    pub disturbed: bool,
    /// `[[reader]]`.
    pub reader: Option<O>,
    /// `[[controller]]`.
    pub controller: Option<O>,
}

/// Where a readable controller's pull and cancel algorithms come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SourceAlgorithms<V, O> {
    /// An underlying source object and its `pull` and `cancel` methods
    /// (`undefined` when absent).
    User {
        /// The underlying source (the `this` of its methods).
        source: V,
        /// `pull`, or `undefined`.
        pull: V,
        /// `cancel`, or `undefined`.
        cancel: V,
    },
    /// The readable side of a `TransformStream` (the stream).
    Transform(O),
    /// A branch of `tee()`: the tee record and which branch (0 or 1).
    Tee(O, u8),
    /// A branch of a byte stream's `tee()`: the byte tee record and which
    /// branch (0 or 1).
    ByteTee(O, u8),
    /// `ReadableStream.from`: the async iterator and its `next` method.
    Iterator {
        /// `[[Iterator]]`.
        iterator: V,
        /// `[[NextMethod]]`.
        next: V,
    },
    /// Cleared (`ClearAlgorithms`).
    Cleared,
}

/// The slots of a `ReadableStreamDefaultController`.
#[derive(Debug)]
#[allow(clippy::struct_excessive_bools, reason = "the spec's slots are these flags")]
pub struct ReadableControllerSlots<V, O> {
    /// `[[stream]]`.
    pub stream: O,
    /// `[[queue]]` and `[[queueTotalSize]]`.
    pub queue: ValueQueue<V>,
    /// `[[started]]`.
    pub started: bool,
    /// `[[closeRequested]]`.
    pub close_requested: bool,
    /// `[[pullAgain]]`.
    pub pull_again: bool,
    /// `[[pulling]]`.
    pub pulling: bool,
    /// `[[strategyHWM]]`.
    pub high_water_mark: f64,
    /// The strategy's `size` function, `undefined` for none (every chunk
    /// has size 1; no algorithm object is made for that).
    pub size: V,
    /// `[[pullAlgorithm]]` and `[[cancelAlgorithm]]`.
    pub algorithms: SourceAlgorithms<V, O>,
}

/// The slots of a `ReadableByteStreamController`.
#[derive(Debug)]
#[allow(clippy::struct_excessive_bools, reason = "the spec's slots are these flags")]
pub struct ByteControllerSlots<V, O> {
    /// `[[stream]]`.
    pub stream: O,
    /// `[[queue]]`.
    pub queue: VecDeque<ByteQueueEntry<V>>,
    /// `[[queueTotalSize]]` (bytes).
    pub queue_total_size: usize,
    /// `[[started]]`.
    pub started: bool,
    /// `[[closeRequested]]`.
    pub close_requested: bool,
    /// `[[pullAgain]]`.
    pub pull_again: bool,
    /// `[[pulling]]`.
    pub pulling: bool,
    /// `[[strategyHWM]]`.
    pub high_water_mark: f64,
    /// `[[autoAllocateChunkSize]]`.
    pub auto_allocate_chunk_size: Option<usize>,
    /// `[[byobRequest]]`, made on first observation.
    pub byob_request: Option<O>,
    /// `[[pendingPullIntos]]`.
    pub pending_pull_intos: VecDeque<PullIntoDescriptor<V>>,
    /// `[[pullAlgorithm]]` and `[[cancelAlgorithm]]`.
    pub algorithms: SourceAlgorithms<V, O>,
}

/// The slots of a `ReadableStreamBYOBRequest`.
#[derive(Debug)]
pub struct ByobRequestSlots<V, O> {
    /// `[[controller]]` (`None` once invalidated).
    pub controller: Option<O>,
    /// `[[view]]` (`None` is null: invalidated).
    pub view: Option<V>,
}

/// A pending BYOB read: what a filled view, the close or an error does for
/// it (`ReadIntoRequest`'s chunk, close and error steps).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReadIntoRequest<O, P> {
    /// `reader.read(view)` on the reader: the promise it returned adopts a
    /// read result (the reader's [`ByobReaderSlots::adopting`]).
    Promise(O, P),
    /// A byte `tee()` read for one branch (the byte tee record and the
    /// branch, 0 or 1).
    Tee(O, u8),
}

/// The slots of a `ReadableStreamBYOBReader`.
#[derive(Debug)]
pub struct ByobReaderSlots<V, O, P> {
    /// `[[stream]]`.
    pub stream: Option<O>,
    /// `[[closedPromise]]`, made on first observation.
    pub closed: LazyPromise<V, P>,
    /// The promises of `read(view)` calls adopting their result.
    pub adopting: crate::adoption::Adoptions<V, P>,
    /// `[[readIntoRequests]]`.
    pub read_into_requests: VecDeque<ReadIntoRequest<O, P>>,
}

/// A pending read: what a chunk, the close or an error does for it
/// (`ReadRequest`'s chunk, close and error steps).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReadRequest<O, P> {
    /// `reader.read()`: settles the promise with a read result.
    Promise(P),
    /// An async iterator's `next()`: settles the promise and finishes the
    /// iterator (the iterator object).
    AsyncIterator(O, P),
    /// A pipe's read (the pipe record).
    Pipe(O),
    /// A `tee()` read (the tee record).
    Tee(O),
    /// A byte stream `tee()` read through its default reader (the byte tee
    /// record).
    ByteTee(O),
}

/// The slots of a `ReadableStreamDefaultReader`.
#[derive(Debug)]
pub struct ReaderSlots<V, O, P> {
    /// `[[stream]]`.
    pub stream: Option<O>,
    /// `[[closedPromise]]`, made on first observation.
    pub closed: LazyPromise<V, P>,
    /// `[[readRequests]]`.
    pub read_requests: VecDeque<ReadRequest<O, P>>,
}

/// The pending `abort()` of a writable stream.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PendingAbortRequest<V, P> {
    /// `[[promise]]`.
    pub promise: P,
    /// `[[reason]]`.
    pub reason: V,
    /// `[[wasAlreadyErroring]]`.
    pub was_already_erroring: bool,
}

/// The slots of a `WritableStream`.
#[derive(Debug)]
pub struct WritableStreamSlots<V, O, P> {
    /// `[[state]]`.
    pub state: WritableState,
    /// `[[storedError]]`.
    pub stored_error: V,
    /// `[[writer]]`.
    pub writer: Option<O>,
    /// `[[controller]]`.
    pub controller: Option<O>,
    /// `[[inFlightWriteRequest]]`.
    pub in_flight_write_request: Option<P>,
    /// `[[closeRequest]]`.
    pub close_request: Option<P>,
    /// `[[inFlightCloseRequest]]`.
    pub in_flight_close_request: Option<P>,
    /// `[[pendingAbortRequest]]`.
    pub pending_abort_request: Option<PendingAbortRequest<V, P>>,
    /// The abort request whose sink `abort()` is running.
    pub abort_in_progress: Option<P>,
    /// `[[writeRequests]]`.
    pub write_requests: VecDeque<P>,
    /// `[[backpressure]]`.
    pub backpressure: bool,
}

impl<V, O, P> WritableStreamSlots<V, O, P> {
    /// `WritableStreamCloseQueuedOrInFlight`.
    pub fn close_queued_or_in_flight(&self) -> bool {
        self.close_request.is_some() || self.in_flight_close_request.is_some()
    }
}

/// Where a writable controller's write, close and abort algorithms come
/// from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SinkAlgorithms<V, O> {
    /// An underlying sink object and its methods (`undefined` when absent).
    User {
        /// The underlying sink (the `this` of its methods).
        sink: V,
        /// `write`, or `undefined`.
        write: V,
        /// `close`, or `undefined`.
        close: V,
        /// `abort`, or `undefined`.
        abort: V,
    },
    /// The writable side of a `TransformStream` (the stream).
    Transform(O),
    /// Cleared (`ClearAlgorithms`).
    Cleared,
}

/// The slots of a `WritableStreamDefaultController`.
#[derive(Debug)]
pub struct WritableControllerSlots<V, O> {
    /// `[[stream]]`.
    pub stream: O,
    /// `[[queue]]` (chunks and the close sentinel).
    pub queue: ValueQueue<V>,
    /// `[[started]]`.
    pub started: bool,
    /// `[[strategyHWM]]`.
    pub high_water_mark: f64,
    /// The strategy's `size` function, `undefined` for none.
    pub size: V,
    /// The sink algorithms.
    pub algorithms: SinkAlgorithms<V, O>,
    /// `[[abortController]]`'s signal, made on first observation.
    pub abort_signal: LazySignal<V>,
}

impl<V: Copy, O> WritableControllerSlots<V, O> {
    /// `WritableStreamDefaultControllerGetDesiredSize`.
    pub fn desired_size(&self) -> f64 {
        self.high_water_mark - self.queue.total_size()
    }
}

/// A `WritableStreamDefaultController`'s AbortSignal, made when script
/// first reads `controller.signal`: until then an abort only records its
/// reason (nothing could observe the signal, so a stream that is never
/// asked for it makes no signal object).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum LazySignal<V> {
    /// Not made, not aborted.
    #[default]
    Unmade,
    /// Not made; aborted with this reason.
    Aborted(V),
    /// The signal.
    Made(V),
}

/// The slots of a `WritableStreamDefaultWriter`.
#[derive(Debug)]
pub struct WriterSlots<V, O, P> {
    /// `[[stream]]`.
    pub stream: Option<O>,
    /// `[[closedPromise]]`, made on first observation.
    pub closed: LazyPromise<V, P>,
    /// `[[readyPromise]]`, made on first observation.
    pub ready: LazyPromise<V, P>,
}

/// The slots of a `TransformStream`.
#[derive(Debug)]
pub struct TransformStreamSlots<V, O, P> {
    /// `[[backpressure]]`.
    pub backpressure: bool,
    /// `[[backpressureChangePromise]]`.
    pub backpressure_change_promise: Option<P>,
    /// `[[readable]]`.
    pub readable: O,
    /// `[[writable]]`.
    pub writable: O,
    /// `[[controller]]`.
    pub controller: Option<O>,
    /// The chunk of a write waiting for backpressure to lift.
    pub waiting_chunk: V,
}

/// The slots of a `TransformStreamDefaultController`.
#[derive(Debug)]
pub struct TransformControllerSlots<V, O, P> {
    /// `[[stream]]`.
    pub stream: O,
    /// The transformer (the `this` of its methods).
    pub transformer: V,
    /// `transform`, or `undefined` (the identity transform).
    pub transform: V,
    /// `flush`, or `undefined`.
    pub flush: V,
    /// `cancel`, or `undefined`.
    pub cancel: V,
    /// Whether `ClearAlgorithms` ran.
    pub cleared: bool,
    /// `[[finishPromise]]`.
    pub finish_promise: Option<P>,
    /// The reason given to the abort or cancel that made `finish_promise`.
    pub finish_reason: V,
    /// Whether that was an abort of the writable side (else a cancel of
    /// the readable side or a flush).
    pub cancel_from_abort: bool,
}

/// What a pipe does once it shuts down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShutdownAction<V> {
    /// Plain shutdown.
    None,
    /// `WritableStreamAbort(dest, reason)`.
    AbortDest(V),
    /// `ReadableStreamCancel(source, reason)`.
    CancelSource(V),
    /// `WritableStreamDefaultWriterCloseWithErrorPropagation(writer)`.
    CloseDest,
    /// The `signal` option's abort: abort the destination (unless
    /// `preventAbort`) and cancel the source (unless `preventCancel`) with
    /// the reason, and wait for both.
    SignalAbort(V),
}

/// A `pipeTo` in progress.
#[derive(Debug)]
#[allow(clippy::struct_excessive_bools, reason = "the spec's pipe options and state are these flags")]
pub struct PipeSlots<V, O, P> {
    /// The source stream.
    pub source: O,
    /// The destination stream.
    pub dest: O,
    /// The reader on the source.
    pub reader: O,
    /// The writer on the destination.
    pub writer: O,
    /// `preventClose`.
    pub prevent_close: bool,
    /// `preventAbort`.
    pub prevent_abort: bool,
    /// `preventCancel`.
    pub prevent_cancel: bool,
    /// `shuttingDown`.
    pub shutting_down: bool,
    /// The promise `pipeTo` returned.
    pub promise: P,
    /// The last write's promise (`None`: the resolved promise node starts
    /// with).
    pub current_write: Option<P>,
    /// The action to run once pending writes finished.
    pub action: ShutdownAction<V>,
    /// The error to finish with (`None`: fulfil).
    pub error: Option<V>,
    /// Whether the step's own read call is running (a chunk it takes from
    /// the queue is written at once; one `enqueue()` hands over later is
    /// written by a microtask, never inside `enqueue()`).
    pub reading: bool,
    /// The loop's step promise adopts its read's outcome: whether the
    /// thenable job ran.
    pub step_thenable_ran: bool,
    /// The outcome of the step's read, once known: `true` ends the loop
    /// (the source closed or errored), `false` loops.
    pub step_done: Option<bool>,
    /// The write `waitForCurrentWrite` awaits.
    pub awaited_write: Option<P>,
    /// How many nested `waitForCurrentWrite` calls are in progress beyond
    /// the first (each adds a turn when it returns).
    pub wait_depth: u32,
    /// Turns left before the wait's outcome reaches its reaction.
    pub hops: u32,
    /// The wait's outcome while it travels (`Some(reason)`: rejected).
    pub wait_error: Option<V>,
    /// The `signal` option, if given.
    pub signal: Option<V>,
    /// The abort algorithm added to `signal` (the host's name for it).
    pub abort_algorithm: Option<u64>,
    /// [`ShutdownAction::SignalAbort`]'s actions not yet fulfilled.
    pub signal_actions_pending: u8,
    /// One of those actions rejected (the wait for all of them is over).
    pub signal_actions_rejected: bool,
}

/// A `tee()` in progress (`ReadableStreamDefaultTee`'s variables).
#[derive(Debug)]
pub struct TeeSlots<V, O, P> {
    /// The source stream.
    pub stream: O,
    /// The reader on the source.
    pub reader: O,
    /// `reading`.
    pub reading: bool,
    /// `readAgain`.
    pub read_again: bool,
    /// `canceled1`, `canceled2`.
    pub canceled: [bool; 2],
    /// `reason1`, `reason2`.
    pub reasons: [V; 2],
    /// `branch1`, `branch2` (set once both are made).
    pub branches: [Option<O>; 2],
    /// `cancelPromise`.
    pub cancel_promise: P,
}

/// A byte stream's `tee()` in progress (`ReadableByteStreamTee`'s
/// variables).
#[derive(Debug)]
pub struct ByteTeeSlots<V, O, P> {
    /// The source stream.
    pub stream: O,
    /// `reader`: a default or a BYOB reader on the source, swapped as the
    /// branches' reads need.
    pub reader: O,
    /// `reading`.
    pub reading: bool,
    /// `readAgainForBranch1`, `readAgainForBranch2`.
    pub read_again: [bool; 2],
    /// `canceled1`, `canceled2`.
    pub canceled: [bool; 2],
    /// `reason1`, `reason2`.
    pub reasons: [V; 2],
    /// `branch1`, `branch2` (set once both are made).
    pub branches: [Option<O>; 2],
    /// `cancelPromise`.
    pub cancel_promise: P,
    /// Readers released (to switch reader kinds) whose `closed` rejection
    /// reaction is still to come and must be ignored.
    pub released_readers: u32,
}

/// Which queuing strategy class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrategyKind {
    /// `ByteLengthQueuingStrategy`.
    ByteLength,
    /// `CountQueuingStrategy`.
    Count,
}

/// The slots of every stream object.
#[derive(Debug)]
pub enum StreamSlots<V, O, P> {
    /// A `ReadableStream`.
    ReadableStream(ReadableStreamSlots<V, O>),
    /// A `ReadableStreamDefaultController`.
    ReadableStreamDefaultController(ReadableControllerSlots<V, O>),
    /// A `ReadableStreamDefaultReader`.
    ReadableStreamDefaultReader(ReaderSlots<V, O, P>),
    /// A `ReadableStream` async iterator.
    ReadableStreamAsyncIterator(AsyncIteratorState<V, O, P>),
    /// A `ReadableByteStreamController`.
    ReadableByteStreamController(ByteControllerSlots<V, O>),
    /// A `ReadableStreamBYOBReader`.
    ReadableStreamBYOBReader(ByobReaderSlots<V, O, P>),
    /// A `ReadableStreamBYOBRequest`.
    ReadableStreamBYOBRequest(ByobRequestSlots<V, O>),
    /// A `WritableStream`.
    WritableStream(WritableStreamSlots<V, O, P>),
    /// A `WritableStreamDefaultController`.
    WritableStreamDefaultController(WritableControllerSlots<V, O>),
    /// A `WritableStreamDefaultWriter`.
    WritableStreamDefaultWriter(WriterSlots<V, O, P>),
    /// A `TransformStream`.
    TransformStream(TransformStreamSlots<V, O, P>),
    /// A `TransformStreamDefaultController`.
    TransformStreamDefaultController(TransformControllerSlots<V, O, P>),
    /// A pipe in progress (internal, never exposed).
    Pipe(PipeSlots<V, O, P>),
    /// A tee in progress (internal, never exposed).
    Tee(TeeSlots<V, O, P>),
    /// A byte stream tee in progress (internal, never exposed).
    ByteTee(ByteTeeSlots<V, O, P>),
    /// A `ByteLengthQueuingStrategy` or `CountQueuingStrategy`.
    QueuingStrategy {
        /// `[[highWaterMark]]`.
        high_water_mark: f64,
        /// Which class.
        kind: StrategyKind,
    },
}

/// A `ReadableStream` async iterator's state.
#[derive(Debug)]
pub struct AsyncIteratorState<V, O, P> {
    /// The reader it holds.
    pub reader: O,
    /// `preventCancel`.
    pub prevent_cancel: bool,
    /// Whether `next()` or `return()` was called (the first `next()` is
    /// chained on a resolved promise).
    pub started: bool,
    /// Whether iteration finished (`[[isFinished]]`).
    pub finished: bool,
    /// The ongoing promise (node's `current`).
    pub current: OngoingPromise<P>,
    /// Calls chained on a pending promise of this iterator: that promise
    /// and the call (its reaction is registered on the promise).
    pub chained: Vec<(P, IteratorCall<V, P>)>,
    /// Chained calls whose reaction job is queued, in queue order.
    pub queued: VecDeque<IteratorCall<V, P>>,
    /// Chained calls whose steps ran, adopting their outcome.
    pub adopting: crate::adoption::Adoptions<V, P>,
    /// The `return()` whose cancel is awaited: where its outcome goes and
    /// its argument.
    pub returning: Option<(P, V)>,
}

/// An async iterator's ongoing promise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OngoingPromise<P> {
    /// None (a call runs its steps at once).
    None,
    /// A resolved promise no one else sees (before the first call).
    Settled,
    /// The promise of the last call.
    Promise(P),
}

/// Implements `Trace` for a slots struct by tracing the listed fields.
macro_rules! trace_fields {
    ($name:ident < $($param:ident),* > : $($field:ident),*) => {
        // SAFETY: every field that can hold a pointer is listed.
        unsafe impl<$($param: Trace),*> Trace for $name<$($param),*> {
            fn trace(&self, tracer: &mut Tracer) {
                $(self.$field.trace(tracer);)*
            }
        }
    };
}

trace_fields!(ReadableStreamSlots<V, O>: stored_error, reader, controller);
trace_fields!(ReadableControllerSlots<V, O>: stream, queue, size, algorithms);
trace_fields!(ReaderSlots<V, O, P>: stream, closed, read_requests);
trace_fields!(AsyncIteratorState<V, O, P>: reader, current, chained, queued, adopting, returning);

// SAFETY: the promise is traced.
unsafe impl<P: Trace> Trace for OngoingPromise<P> {
    fn trace(&self, tracer: &mut Tracer) {
        if let Self::Promise(promise) = self {
            promise.trace(tracer);
        }
    }
}

/// A `next()` (or `return(value)`) call of an async iterator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IteratorCall<V, P> {
    /// The promise the call returned.
    pub promise: P,
    /// Whether it is `return()`.
    pub is_return: bool,
    /// `return()`'s argument.
    pub value: V,
}

trace_fields!(IteratorCall<V, P>: promise, value);
trace_fields!(WritableStreamSlots<V, O, P>: stored_error, writer, controller, in_flight_write_request, close_request, in_flight_close_request, pending_abort_request, abort_in_progress, write_requests);
trace_fields!(WritableControllerSlots<V, O>: stream, queue, size, algorithms, abort_signal);
trace_fields!(WriterSlots<V, O, P>: stream, closed, ready);
trace_fields!(TransformStreamSlots<V, O, P>: backpressure_change_promise, readable, writable, controller, waiting_chunk);
trace_fields!(TransformControllerSlots<V, O, P>: stream, transformer, transform, flush, cancel, finish_promise, finish_reason);
trace_fields!(PipeSlots<V, O, P>: source, dest, reader, writer, promise, current_write, action, error, awaited_write, wait_error, signal);
trace_fields!(PendingAbortRequest<V, P>: promise, reason);
trace_fields!(TeeSlots<V, O, P>: stream, reader, reasons, branches, cancel_promise);
trace_fields!(ByteControllerSlots<V, O>: stream, queue, byob_request, pending_pull_intos, algorithms);
trace_fields!(ByobRequestSlots<V, O>: controller, view);
trace_fields!(ByobReaderSlots<V, O, P>: stream, closed, adopting, read_into_requests);
trace_fields!(ByteTeeSlots<V, O, P>: stream, reader, reasons, branches, cancel_promise);

// SAFETY: every variant's pointers are traced.
unsafe impl<V: Trace, O: Trace> Trace for SourceAlgorithms<V, O> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::User { source, pull, cancel } => {
                source.trace(tracer);
                pull.trace(tracer);
                cancel.trace(tracer);
            }
            Self::Transform(stream) | Self::Tee(stream, _) | Self::ByteTee(stream, _) => stream.trace(tracer),
            Self::Iterator { iterator, next } => {
                iterator.trace(tracer);
                next.trace(tracer);
            }
            Self::Cleared => {}
        }
    }
}

// SAFETY: the reason or the signal is the only pointer.
unsafe impl<V: Trace> Trace for LazySignal<V> {
    fn trace(&self, tracer: &mut Tracer) {
        if let Self::Aborted(value) | Self::Made(value) = self {
            value.trace(tracer);
        }
    }
}

// SAFETY: every variant's pointers are traced.
unsafe impl<V: Trace, O: Trace> Trace for SinkAlgorithms<V, O> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::User { sink, write, close, abort } => {
                sink.trace(tracer);
                write.trace(tracer);
                close.trace(tracer);
                abort.trace(tracer);
            }
            Self::Transform(stream) => stream.trace(tracer),
            Self::Cleared => {}
        }
    }
}

// SAFETY: every variant's pointers are traced.
unsafe impl<O: Trace, P: Trace> Trace for ReadRequest<O, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::Promise(promise) => promise.trace(tracer),
            Self::AsyncIterator(iterator, promise) => {
                iterator.trace(tracer);
                promise.trace(tracer);
            }
            Self::Pipe(record) | Self::Tee(record) | Self::ByteTee(record) => record.trace(tracer),
        }
    }
}

// SAFETY: every variant's pointers are traced.
unsafe impl<O: Trace, P: Trace> Trace for ReadIntoRequest<O, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::Promise(reader, promise) => {
                reader.trace(tracer);
                promise.trace(tracer);
            }
            Self::Tee(record, _) => record.trace(tracer),
        }
    }
}

// SAFETY: the reason is the only pointer.
unsafe impl<V: Trace> Trace for ShutdownAction<V> {
    fn trace(&self, tracer: &mut Tracer) {
        if let Self::AbortDest(reason) | Self::CancelSource(reason) | Self::SignalAbort(reason) = self {
            reason.trace(tracer);
        }
    }
}

// SAFETY: each variant's slots are traced.
unsafe impl<V: Trace, O: Trace, P: Trace> Trace for StreamSlots<V, O, P> {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Self::ReadableStream(s) => s.trace(tracer),
            Self::ReadableStreamDefaultController(s) => s.trace(tracer),
            Self::ReadableStreamDefaultReader(s) => s.trace(tracer),
            Self::ReadableStreamAsyncIterator(s) => s.trace(tracer),
            Self::ReadableByteStreamController(s) => s.trace(tracer),
            Self::ReadableStreamBYOBReader(s) => s.trace(tracer),
            Self::ReadableStreamBYOBRequest(s) => s.trace(tracer),
            Self::WritableStream(s) => s.trace(tracer),
            Self::WritableStreamDefaultController(s) => s.trace(tracer),
            Self::WritableStreamDefaultWriter(s) => s.trace(tracer),
            Self::TransformStream(s) => s.trace(tracer),
            Self::TransformStreamDefaultController(s) => s.trace(tracer),
            Self::Pipe(s) => s.trace(tracer),
            Self::Tee(s) => s.trace(tracer),
            Self::ByteTee(s) => s.trace(tracer),
            Self::QueuingStrategy { .. } => {}
        }
    }
}

/// Typed access to a host object's slots: `$variant` of
/// [`StreamSlots`]. The host brand-checks objects before they reach the
/// algorithms, and the algorithms only link objects of the right kinds, so
/// a mismatch is a bug in this crate.
macro_rules! accessor {
    ($fn_name:ident, $variant:ident, $ty:ty) => {
        #[doc = concat!("The slots of a `", stringify!($variant), "`.")]
        pub(crate) fn $fn_name<H: StreamHost>(host: &mut H, object: H::Object) -> &mut $ty {
            match host.stream_slots(object) {
                StreamSlots::$variant(slots) => slots,
                _ => wrong_kind(stringify!($variant)),
            }
        }
    };
}

/// The panic of an accessor given an object of another kind, out of line:
/// the accessors run on every step of every stream algorithm.
#[cold]
#[inline(never)]
fn wrong_kind(expected: &str) -> ! {
    unreachable!("not a {expected}")
}

type Val<H> = <H as js_promise::PromiseHost>::Value;
type Obj<H> = <H as StreamHost>::Object;
type Prom<H> = <H as js_promise::PromiseHost>::Promise;

accessor!(readable_stream, ReadableStream, ReadableStreamSlots<Val<H>, Obj<H>>);
accessor!(readable_controller, ReadableStreamDefaultController, ReadableControllerSlots<Val<H>, Obj<H>>);
accessor!(default_reader, ReadableStreamDefaultReader, ReaderSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(async_iterator, ReadableStreamAsyncIterator, AsyncIteratorState<Val<H>, Obj<H>, Prom<H>>);
accessor!(writable_stream, WritableStream, WritableStreamSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(writable_controller, WritableStreamDefaultController, WritableControllerSlots<Val<H>, Obj<H>>);
accessor!(writer, WritableStreamDefaultWriter, WriterSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(transform_stream, TransformStream, TransformStreamSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(transform_controller, TransformStreamDefaultController, TransformControllerSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(pipe, Pipe, PipeSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(tee, Tee, TeeSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(byte_controller, ReadableByteStreamController, ByteControllerSlots<Val<H>, Obj<H>>);
accessor!(byob_reader, ReadableStreamBYOBReader, ByobReaderSlots<Val<H>, Obj<H>, Prom<H>>);
accessor!(byob_request, ReadableStreamBYOBRequest, ByobRequestSlots<Val<H>, Obj<H>>);
accessor!(byte_tee, ByteTee, ByteTeeSlots<Val<H>, Obj<H>, Prom<H>>);

/// Whether `object` is a `ReadableStreamBYOBReader` (else a default
/// reader).
pub(crate) fn is_byob_reader<H: StreamHost>(host: &mut H, object: H::Object) -> bool {
    matches!(host.stream_slots(object), StreamSlots::ReadableStreamBYOBReader(_))
}

/// Whether `object` is a `ReadableByteStreamController` (else a default
/// controller).
pub(crate) fn is_byte_controller<H: StreamHost>(host: &mut H, object: H::Object) -> bool {
    matches!(host.stream_slots(object), StreamSlots::ReadableByteStreamController(_))
}

/// A reader's (default or BYOB) `[[stream]]`.
pub(crate) fn reader_stream_slot<H: StreamHost>(host: &mut H, reader: H::Object) -> &mut Option<Obj<H>> {
    match host.stream_slots(reader) {
        StreamSlots::ReadableStreamDefaultReader(slots) => &mut slots.stream,
        StreamSlots::ReadableStreamBYOBReader(slots) => &mut slots.stream,
        _ => unreachable!("not a reader"),
    }
}

/// A reader's (default or BYOB) `[[closedPromise]]`.
pub(crate) fn reader_closed_slot<H: StreamHost>(host: &mut H, reader: H::Object) -> &mut LazyPromise<Val<H>, Prom<H>> {
    match host.stream_slots(reader) {
        StreamSlots::ReadableStreamDefaultReader(slots) => &mut slots.closed,
        StreamSlots::ReadableStreamBYOBReader(slots) => &mut slots.closed,
        _ => unreachable!("not a reader"),
    }
}
