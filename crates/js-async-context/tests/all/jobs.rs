//! Jobs that carry the frame they captured in their fourth slot, drained
//! under swap scopes, as a VM runs them.

use js_async_context::{ContextState, Frame, SwapScope, VariableId};
use js_gc::{GcAny, Heap, HeapConfig, Roots, Trace, Tracer};
use js_microtask::{Job, JobFlags, JobKind, JobQueue};

/// The engine value of these tests: nothing, or a cell.
type Value = Option<GcAny>;

/// Reads the variable and records what it saw.
const READ: JobKind = JobKind::new(0);
/// `als.enterWith(store)` with the store in slot 0 (a frame cell); with
/// [`THEN_QUEUE_READ`], then queues a `READ` job.
const ENTER_WITH: JobKind = JobKind::new(1);
/// Flag of an `ENTER_WITH` job: queue a `READ` after the `enterWith`.
const THEN_QUEUE_READ: JobFlags = JobFlags::embedder(0);
/// Queues a `READ` job, capturing the current frame.
const QUEUE_READ: JobKind = JobKind::new(2);
/// Runs a collection in the middle of the job.
const COLLECT: JobKind = JobKind::new(3);

struct Vm {
    heap: Heap,
    context: ContextState<u64>,
    queue: JobQueue<Value>,
    variable: VariableId,
    seen: Vec<Option<u64>>,
}

/// The VM's roots for a collection in the middle of a job.
struct VmRoots<'a> {
    context: &'a ContextState<u64>,
    queue: &'a JobQueue<Value>,
}

impl Roots for VmRoots<'_> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.context.trace(tracer);
        self.queue.trace(tracer);
    }
}

impl Vm {
    fn new() -> Self {
        let mut context = ContextState::new();
        let variable = context.create_variable().unwrap();
        Self {
            // SAFETY: this heap's cells are used only with it, and not after it is dropped.
            heap: unsafe { Heap::with_config(HeapConfig { stress: false, ..HeapConfig::default() }) },
            context,
            queue: JobQueue::new(),
            variable,
            seen: Vec::new(),
        }
    }

    /// Queues a job of `kind`, capturing the current frame as an engine
    /// does when it creates a reaction or job.
    fn queue_job(&mut self, kind: JobKind, arg: Value) {
        let job = Job::new(kind, [arg, None, None, None]);
        let job = match self.context.capture() {
            Some(frame) => job.with_context_frame(Some(frame.as_any())),
            None => job,
        };
        self.queue.enqueue(job);
    }

    fn frame(&mut self, value: u64) -> Frame<u64> {
        Frame::new(&mut self.heap, self.variable, value)
    }

    /// Drains the queue, running each job under the frame it captured.
    fn drain(&mut self) {
        while let Some(job) = self.queue.dequeue() {
            let captured = job.context_frame().flatten().map(|cell| Frame::from_any(cell).expect("a frame cell"));
            assert_eq!(captured.is_some(), job.flags().contains(JobFlags::CONTEXT_FRAME));
            let mut scope = SwapScope::enter(&mut self.context, captured);
            match job.kind() {
                READ => self.seen.push(scope.get(&self.heap, self.variable)),
                ENTER_WITH => {
                    let frame = job.arg(0).and_then(Frame::from_any);
                    scope.enter_with(frame);
                    if job.flags().contains(THEN_QUEUE_READ) {
                        let read = Job::new(READ, [None; 4]).with_context_frame(scope.capture().map(Frame::as_any));
                        self.queue.enqueue(read);
                    }
                }
                QUEUE_READ => {
                    let job = Job::new(READ, [None; 4]);
                    let job = match scope.capture() {
                        Some(frame) => job.with_context_frame(Some(frame.as_any())),
                        None => job,
                    };
                    self.queue.enqueue(job);
                }
                COLLECT => {
                    let mut roots = VmRoots { context: &scope, queue: &self.queue };
                    // SAFETY: afterwards only frames reachable from the
                    // context state and the queue are used.
                    unsafe { self.heap.collect(&mut roots) };
                    self.seen.push(scope.get(&self.heap, self.variable));
                }
                other => panic!("unknown job kind {other:?}"),
            }
        }
    }
}

#[test]
fn a_job_that_captured_no_frame_runs_with_none_even_after_an_earlier_enter_with() {
    let mut vm = Vm::new();
    let frame = vm.frame(7);
    vm.queue_job(ENTER_WITH, Some(frame.as_any()));
    vm.queue_job(READ, None);
    vm.drain();
    assert_eq!(vm.seen, [None]);
    assert_eq!(vm.context.current(), None);
}

#[test]
fn enter_with_inside_a_job_ends_with_the_job() {
    let mut vm = Vm::new();
    let outer = vm.frame(1);
    let inner = vm.frame(2);
    vm.context.enter_with(Some(outer));
    // All three capture `outer`. The first switches to `inner` and ends.
    vm.queue_job(ENTER_WITH, Some(inner.as_any()));
    vm.queue_job(QUEUE_READ, None);
    vm.queue_job(READ, None);
    vm.drain();
    // The host's READ ran under `outer`, and so did the one QUEUE_READ
    // queued: the enterWith ended with its job.
    assert_eq!(vm.seen, [Some(1), Some(1)]);
    assert_eq!(vm.context.current(), Some(outer));
}

#[test]
fn jobs_queued_after_enter_with_in_the_same_job_capture_its_frame() {
    let mut vm = Vm::new();
    let inner = vm.frame(2);
    let job = Job::new(ENTER_WITH, [Some(inner.as_any()), None, None, None]).with_flags(THEN_QUEUE_READ);
    vm.queue.enqueue(job);
    vm.queue_job(READ, None);
    vm.drain();
    // The READ the job queued after its enterWith sees `inner`; the host's
    // READ (queued with no frame) sees nothing.
    assert_eq!(vm.seen, [None, Some(2)]);
    assert_eq!(vm.context.current(), None);
}

#[test]
fn jobs_queued_inside_a_run_see_the_run_store() {
    let mut vm = Vm::new();
    let store = vm.frame(5);
    {
        // `als.run(5, () => queueMicrotask(read))`
        let mut scope = SwapScope::enter(&mut vm.context, Some(store));
        let job = Job::new(READ, [None; 4]).with_context_frame(scope.capture().map(Frame::as_any));
        vm.queue.enqueue(job);
        scope.enter_with(None);
    }
    vm.queue_job(READ, None);
    vm.drain();
    assert_eq!(vm.seen, [Some(5), None]);
}

#[test]
fn frames_held_by_queued_jobs_and_saved_scopes_survive_a_collection() {
    let mut vm = Vm::new();
    let outer = vm.frame(1);
    let running = vm.frame(2);
    let queued = vm.frame(3);
    vm.context.enter_with(Some(running));
    vm.queue_job(COLLECT, None);
    vm.context.enter_with(Some(queued));
    vm.queue_job(READ, None);
    vm.context.enter_with(Some(outer));
    let _garbage = vm.frame(99);
    vm.drain();
    assert_eq!(vm.seen, [Some(2), Some(3)]);
    assert_eq!(vm.context.get(&vm.heap, vm.variable), Some(1));
    assert_eq!(vm.heap.stats().types.iter().find(|t| t.name == "AsyncContextFrame").map(|t| t.objects), Some(3));
}
