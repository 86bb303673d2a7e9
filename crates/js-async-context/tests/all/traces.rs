//! The frames a program observes, step by step, as insta snapshots
//! (`tests/all/snapshots/`): `AsyncLocalStorage.run` nested in `run`,
//! `exit`, `enterWith` inside a run, `AsyncContext.Snapshot` taken and
//! restored, jobs that carry what they captured, a panic unwinding through
//! a scope, and a collection in between. Each line names the current
//! frame (`F<n>`, numbered in creation order, `-` for none), its
//! bindings, and the depth of open scopes, so a change in which frame a
//! step sees shows up as a snapshot diff.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};

use js_async_context::{ContextState, Frame, SwapScope, VariableId};
use js_gc::{GcAny, Heap, HeapConfig, Roots, Trace, Tracer};
use js_microtask::{Job, JobKind, JobQueue};

/// The model VM: a heap, the context state, and the names of the frames
/// and variables it made, for the log.
struct Model {
    heap: Heap,
    frames: Vec<Frame<u64>>,
    variables: Vec<(VariableId, &'static str)>,
    log: Vec<String>,
}

impl Model {
    fn new() -> Self {
        Self {
            // SAFETY: this heap's cells are used only with it, and not after it is dropped.
            heap: unsafe { Heap::with_config(HeapConfig { stress: false, ..HeapConfig::default() }) },
            frames: Vec::new(),
            variables: Vec::new(),
            log: Vec::new(),
        }
    }

    /// `new AsyncLocalStorage()` named `name`.
    fn variable(&mut self, state: &mut ContextState<u64>, name: &'static str) -> VariableId {
        let variable = state.create_variable().expect("few variables");
        self.variables.push((variable, name));
        self.log.push(format!("new variable {name} (tracking {})", state.tracking_enabled()));
        variable
    }

    /// Numbers `frame` for the log.
    fn made(&mut self, frame: Frame<u64>) -> Frame<u64> {
        self.frames.push(frame);
        frame
    }

    /// `current` with `variable = value`: what `run(value, ...)` installs.
    fn bind(&mut self, current: Option<Frame<u64>>, variable: VariableId, value: u64) -> Frame<u64> {
        let frame = Frame::bind(current, &mut self.heap, variable, value);
        self.made(frame)
    }

    /// `current` without `variable`: what `exit(...)` installs.
    fn unbind(&mut self, current: Option<Frame<u64>>, variable: VariableId) -> Option<Frame<u64>> {
        let frame = current.and_then(|frame| frame.without(&mut self.heap, variable));
        match frame {
            Some(frame) if !self.frames.contains(&frame) => Some(self.made(frame)),
            other => other,
        }
    }

    fn name(&self, frame: Option<Frame<u64>>) -> String {
        let Some(frame) = frame else { return "-".into() };
        let number = self.frames.iter().position(|&known| known == frame).map_or("?".into(), |n| (n + 1).to_string());
        let bindings: Vec<String> = frame
            .bindings(&self.heap)
            .iter()
            .map(|&(variable, value)| {
                let name = self.variables.iter().find(|(v, _)| *v == variable).map_or("?", |&(_, name)| name);
                format!("{name}={value}")
            })
            .collect();
        format!("F{number} {{{}}}", bindings.join(", "))
    }

    /// Logs what the program sees at `step`.
    fn observe(&mut self, step: &str, state: &ContextState<u64>) {
        let line = format!(
            "{:indent$}{step}: current {}, depth {}",
            "",
            self.name(state.current()),
            state.scope_depth(),
            indent = 2 * state.scope_depth()
        );
        self.log.push(line);
    }
}

#[test]
fn run_nested_run_exit_and_enter_with() {
    let mut model = Model::new();
    let mut state: ContextState<u64> = ContextState::new();
    model.log.push(format!("before any variable: capture {:?}", state.capture().map(|_| "a frame")));
    let a = model.variable(&mut state, "a");
    let b = model.variable(&mut state, "b");
    model.observe("top level", &state);
    {
        // a.run(1, () => { ... })
        let frame = model.bind(state.current(), a, 1);
        let mut outer = SwapScope::enter(&mut state, Some(frame));
        model.observe("a.run(1)", &outer);
        {
            // b.run(2, () => { ... })
            let frame = model.bind(outer.current(), b, 2);
            let mut inner = SwapScope::enter(&mut outer, Some(frame));
            model.observe("b.run(2)", &inner);
            {
                // a.exit(() => { ... })
                let frame = model.unbind(inner.current(), a);
                let exited = SwapScope::enter(&mut inner, frame);
                model.observe("a.exit()", &exited);
            }
            model.observe("after a.exit()", &inner);
            {
                // b.exit inside a.exit: no binding left, no frame.
                let frame = model.unbind(inner.current(), a);
                let mut exited = SwapScope::enter(&mut inner, frame);
                let none = model.unbind(exited.current(), b);
                let both = SwapScope::enter(&mut exited, none);
                model.observe("a.exit(() => b.exit())", &both);
            }
            // a.enterWith(9) inside b.run: lasts until b.run returns.
            let frame = model.bind(inner.current(), a, 9);
            inner.enter_with(Some(frame));
            model.observe("a.enterWith(9)", &inner);
            // a.run(1) again: the same binding, a new frame.
            let frame = model.bind(inner.current(), a, 1);
            let again = SwapScope::enter(&mut inner, Some(frame));
            model.observe("a.run(1) inside", &again);
        }
        model.observe("after b.run(2)", &outer);
    }
    model.observe("after a.run(1)", &state);
    // a.enterWith(5) at top level lasts.
    let frame = model.bind(state.current(), a, 5);
    state.enter_with(Some(frame));
    model.observe("a.enterWith(5) at top level", &state);
    insta::assert_snapshot!(model.log.join("\n"));
}

#[test]
fn snapshots_restore_the_frame_they_captured() {
    let mut model = Model::new();
    let mut state: ContextState<u64> = ContextState::new();
    let a = model.variable(&mut state, "a");
    // new AsyncContext.Snapshot() at top level: no frame.
    let empty = state.capture();
    let (first, second);
    {
        let frame = model.bind(state.current(), a, 1);
        let mut outer = SwapScope::enter(&mut state, Some(frame));
        first = outer.capture();
        model.log.push(format!("snapshot 1 in a.run(1) is {}", model.name(first)));
        {
            let frame = model.bind(outer.current(), a, 2);
            let mut inner = SwapScope::enter(&mut outer, Some(frame));
            second = inner.capture();
            model.log.push(format!("snapshot 2 in a.run(2) is {}", model.name(second)));
            model.observe("a.run(2)", &inner);
            // snapshot1.run(() => ...) inside a.run(2).
            let restored = SwapScope::enter(&mut inner, first);
            model.observe("snapshot 1 restored", &restored);
        }
        model.observe("after a.run(2)", &outer);
        let restored = SwapScope::enter(&mut outer, empty);
        model.observe("empty snapshot restored", &restored);
    }
    model.observe("top level", &state);
    for (name, snapshot) in [("snapshot 2", second), ("snapshot 1", first), ("empty snapshot", empty)] {
        let scope = SwapScope::enter(&mut state, snapshot);
        model.observe(&format!("{name} restored at top level"), &scope);
        // A snapshot taken inside a restored one is the same frame.
        let again = scope.capture();
        model.log.push(format!("    captured again: same frame {}", again == snapshot));
    }
    model.observe("top level", &state);
    insta::assert_snapshot!(model.log.join("\n"));
}

/// Reads the variable; slot 0 numbers the job.
const READ: JobKind = JobKind::new(0);
/// `a.enterWith(arg 1)` inside the job, then queues a `READ` numbered
/// `arg 0 * 10`.
const ENTER_WITH: JobKind = JobKind::new(1);

/// The queue's and the state's roots for a collection between jobs.
struct ModelRoots<'a> {
    state: &'a ContextState<u64>,
    queue: &'a JobQueue<Option<GcAny>>,
}

impl Roots for ModelRoots<'_> {
    fn trace_roots(&self, tracer: &mut Tracer) {
        self.state.trace(tracer);
        self.queue.trace(tracer);
    }
}

/// Queues a job of `kind` capturing the current frame, as an engine does
/// when it creates a reaction or job; `ids` numbers the queued jobs in
/// queue order (the slots hold cells only).
fn queue_job(
    queue: &mut JobQueue<Option<GcAny>>,
    ids: &mut VecDeque<(u64, u64)>,
    captured: Option<Frame<u64>>,
    kind: JobKind,
    id: (u64, u64),
) {
    let job = Job::new(kind, [None; 4]);
    let job = match captured {
        Some(frame) => job.with_context_frame(Some(frame.as_any())),
        None => job,
    };
    queue.enqueue(job);
    ids.push_back(id);
}

#[test]
fn jobs_run_under_what_they_captured_with_a_collection_between_them() {
    let mut model = Model::new();
    let mut state: ContextState<u64> = ContextState::new();
    let a = model.variable(&mut state, "a");
    let mut queue: JobQueue<Option<GcAny>> = JobQueue::new();
    let mut ids = VecDeque::new();
    {
        // a.run(1, () => { queueMicrotask(read); queueMicrotask(enterWith(7)) })
        let frame = model.bind(state.current(), a, 1);
        let scope = SwapScope::enter(&mut state, Some(frame));
        queue_job(&mut queue, &mut ids, scope.capture(), READ, (1, 0));
        queue_job(&mut queue, &mut ids, scope.capture(), ENTER_WITH, (2, 7));
    }
    queue_job(&mut queue, &mut ids, state.capture(), READ, (3, 0));
    let frame = model.bind(state.current(), a, 3);
    state.enter_with(Some(frame));
    queue_job(&mut queue, &mut ids, state.capture(), READ, (4, 0));
    model.observe("queued 4 jobs; top level", &state);
    // Unreachable once the jobs run: not numbered, never read again.
    let _garbage = Frame::new(&mut model.heap, a, 99);
    let mut turn = 0;
    while let Some(job) = queue.dequeue() {
        turn += 1;
        let (id, value) = ids.pop_front().expect("an id per job");
        let captured = job.context_frame().flatten().map(|cell| Frame::from_any(cell).expect("a frame cell"));
        let mut scope = SwapScope::enter(&mut state, captured);
        let what = if job.kind() == READ { "read" } else { "enterWith" };
        model.observe(&format!("job {id} ({what})"), &scope);
        if job.kind() == ENTER_WITH {
            let frame = model.bind(scope.current(), a, value);
            scope.enter_with(Some(frame));
            model.observe(&format!("job {id}: a.enterWith({value}), queues job {}", id * 10), &scope);
            queue_job(&mut queue, &mut ids, scope.capture(), READ, (id * 10, 0));
        }
        if turn == 2 {
            // A collection inside a job: the frames the state, the open
            // scope and the queued jobs hold survive; the garbage does not.
            let before = model.heap.stats().objects_of("AsyncContextFrame");
            let mut roots = ModelRoots { state: &scope, queue: &queue };
            // SAFETY: afterwards only frames the state and the queue hold
            // are used.
            let report = unsafe { model.heap.collect(&mut roots) };
            let after = model.heap.stats().objects_of("AsyncContextFrame");
            model.log.push(format!(
                "    collection {}: frames {before} -> {after}, {} freed",
                report.epoch, report.freed_objects
            ));
        }
    }
    model.observe("after the drain", &state);
    insta::assert_snapshot!(model.log.join("\n"));
}

#[test]
fn a_panic_unwinding_through_scopes_restores_the_frame_outside_them() {
    let mut model = Model::new();
    let mut state: ContextState<u64> = ContextState::new();
    let a = model.variable(&mut state, "a");
    let top = model.bind(None, a, 1);
    state.enter_with(Some(top));
    model.observe("top level", &state);
    let (second, third) = (model.bind(Some(top), a, 2), model.bind(Some(top), a, 3));
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut outer = SwapScope::enter(&mut state, Some(second));
        let inner = SwapScope::enter(&mut outer, Some(third));
        assert_eq!(inner.scope_depth(), 2);
        panic!("a job threw past its native frames");
    }));
    model.log.push(format!("the job panicked: {}", outcome.is_err()));
    model.observe("after the unwinding", &state);
    // A scope leaked with mem::forget: the next scope out still restores.
    {
        let mut outer = SwapScope::enter(&mut state, Some(second));
        std::mem::forget(SwapScope::enter(&mut outer, Some(third)));
        model.observe("inner scope forgotten", &outer);
    }
    model.observe("after the outer scope", &state);
    insta::assert_snapshot!(model.log.join("\n"));
}
