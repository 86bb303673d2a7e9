//! The event loop in Node's order: after the script and after every
//! callback, the `process.nextTick` queue and then the microtasks, repeated
//! until both are empty (and unhandled rejections checked); then expired
//! timers in deadline order, then `setImmediate` callbacks, until nothing
//! that keeps the loop alive is left.
//!
//! Every task records the async-context frame current when it was
//! scheduled and runs under it.
//!
//! `Atomics.waitAsync` promises settle from the loop: notifications (from
//! this thread or others) reach it through its [`RemoteInbox`], and the
//! loop blocks on that inbox while it waits for a timer or a waiter's
//! deadline. As in Node, a pending waiter alone does not keep the loop
//! alive, unless [`AgentOptions::wait_async_keeps_alive`](crate::AgentOptions)
//! says other threads may still notify it; notifications already posted
//! are settled before the loop ends either way.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use js_async_context::{Frame, SwapScope};
use js_gc::{Gc, Trace, Tracer};
use js_microtask::RemoteInbox;

use crate::abstract_ops::{is_callable, to_number};
use crate::builtins::shared_memory::{RemoteTask, SharedBlock, VmInbox};
use crate::builtins::{method, native_function, symbol_method};
use crate::embedding::{Handle, JsError};
use crate::interpreter::CallInfo;
use crate::object::internal_methods::call;
use crate::object::{Attributes, JsObject, ObjectKind};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

/// Node's TIMEOUT_MAX: longer or invalid delays become 1 ms.
const TIMEOUT_MAX: f64 = 2_147_483_647.0;

/// A scheduled callback with its arguments and async-context frame.
pub(crate) struct Task {
    callback: Value,
    args: Box<[Value]>,
    frame: Option<Frame<Value>>,
}

// SAFETY: the callback, arguments and frame are all the pointers.
unsafe impl Trace for Task {
    fn trace(&self, tracer: &mut Tracer) {
        self.callback.trace(tracer);
        self.args.trace(tracer);
        if let Some(frame) = self.frame {
            frame.as_any().trace(tracer);
        }
    }
}

/// A timer: its task, its repeat interval and whether it keeps the loop
/// alive.
struct Timer {
    task: Task,
    repeat: Option<u64>,
    referenced: bool,
}

/// How long the loop blocks on its inbox at a time, so an interrupt is
/// seen while it waits for another thread.
const INBOX_POLL: Duration = Duration::from_millis(20);

/// A pending `Atomics.waitAsync`: its promise, and the block whose waiter
/// list holds it until a notification or its deadline.
struct AsyncWaiter {
    id: u64,
    promise: Gc<JsObject>,
    block: Arc<SharedBlock>,
    deadline: Option<Instant>,
}

/// The loop's queues.
pub(crate) struct EventLoop {
    next_ticks: VecDeque<Task>,
    /// Timers by (deadline in ms since start, id).
    timers: BTreeMap<(u64, u64), Timer>,
    /// Timer id → its key in `timers`.
    timer_keys: HashMap<u64, (u64, u64), ahash::RandomState>,
    immediates: VecDeque<(u64, Task)>,
    next_id: u64,
    start: Instant,
    /// The loop's notion of now, refreshed once per iteration as libuv's.
    now_ms: u64,
    /// `process.exit(code)` was called.
    pub(crate) exit_code: Option<i32>,
    /// Tasks from other threads.
    inbox: VmInbox,
    /// This VM's pending `Atomics.waitAsync` promises.
    async_waiters: Vec<AsyncWaiter>,
}

impl Default for EventLoop {
    fn default() -> Self {
        Self {
            next_ticks: VecDeque::new(),
            timers: BTreeMap::new(),
            timer_keys: HashMap::default(),
            immediates: VecDeque::new(),
            next_id: 1,
            start: Instant::now(),
            now_ms: 0,
            exit_code: None,
            inbox: Arc::new(RemoteInbox::new()),
            async_waiters: Vec::new(),
        }
    }
}

// SAFETY: every queued task is reported.
unsafe impl Trace for EventLoop {
    fn trace(&self, tracer: &mut Tracer) {
        for task in &self.next_ticks {
            task.trace(tracer);
        }
        for timer in self.timers.values() {
            timer.task.trace(tracer);
        }
        for (_, task) in &self.immediates {
            task.trace(tracer);
        }
        for waiter in &self.async_waiters {
            waiter.promise.trace(tracer);
        }
    }
}

impl Drop for EventLoop {
    fn drop(&mut self) {
        // The blocks may outlive this VM (other agents hold them): nothing
        // is left to resolve these waiters' promises.
        self.inbox.close();
        for waiter in &self.async_waiters {
            waiter.block.remove_async_waiter(waiter.id);
        }
    }
}

impl EventLoop {
    /// Milliseconds since the loop started, as a float (`performance.now`).
    pub(crate) fn elapsed_ms(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1000.0
    }

    /// Nanoseconds since the loop started (`process.hrtime.bigint`).
    pub(crate) fn elapsed_ns(&self) -> u128 {
        self.start.elapsed().as_nanos()
    }

    fn refresh_now(&mut self) {
        self.now_ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
    }

    fn alive(&self) -> bool {
        !self.immediates.is_empty() || self.timers.values().any(|t| t.referenced)
    }

    /// The inbox through which other threads reach this loop.
    pub(crate) fn inbox(&self) -> VmInbox {
        Arc::clone(&self.inbox)
    }

    /// Records a pending `Atomics.waitAsync` (already in `block`'s waiter
    /// list as `id`); it times out after `timeout` (`None`: never).
    pub(crate) fn add_async_waiter(
        &mut self,
        id: u64,
        promise: Gc<JsObject>,
        block: Arc<SharedBlock>,
        timeout: Option<Duration>,
    ) {
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        self.async_waiters.push(AsyncWaiter { id, promise, block, deadline });
    }

    /// The waiters notified (their tasks in the inbox) or past their
    /// deadline, taken out of the list, with their results.
    fn take_settled_waiters(&mut self) -> Vec<(Gc<JsObject>, &'static str)> {
        let mut tasks = VecDeque::new();
        self.inbox.take_all(&mut tasks);
        let mut settled = Vec::new();
        for RemoteTask::WaitAsyncNotified(id) in tasks {
            if let Some(i) = self.async_waiters.iter().position(|w| w.id == id) {
                settled.push((self.async_waiters.remove(i).promise, "ok"));
            }
        }
        let now = Instant::now();
        let mut i = 0;
        while i < self.async_waiters.len() {
            let waiter = &self.async_waiters[i];
            // A waiter a notification took first stays until its task
            // arrives, already in the inbox.
            if waiter.deadline.is_some_and(|d| d <= now) && waiter.block.remove_async_waiter(waiter.id) {
                settled.push((self.async_waiters.remove(i).promise, "timed-out"));
            } else {
                i += 1;
            }
        }
        settled
    }

    /// How long the poll phase may block: until the next timer or
    /// `Atomics.waitAsync` deadline.
    fn poll_timeout(&self) -> Option<Duration> {
        let timer = self.timers.first_key_value().map(|(&(deadline, _), _)| {
            Duration::from_secs_f64((deadline as f64 - self.elapsed_ms()).max(0.0) / 1000.0)
        });
        let now = Instant::now();
        let waiter =
            self.async_waiters.iter().filter_map(|w| w.deadline).min().map(|d| d.saturating_duration_since(now));
        match (timer, waiter) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl Vm {
    fn task(&mut self, callback: Value, args: &[Value]) -> Task {
        Task { callback, args: args.into(), frame: self.jobs.async_context.capture() }
    }

    /// Resolves the `Atomics.waitAsync` promises that settled; whether any
    /// did.
    fn settle_async_waiters(&mut self) -> bool {
        let settled = self.runtime.event_loop.take_settled_waiters();
        let mark = self.stack.temp_roots.len();
        self.stack.temp_roots.extend(settled.iter().map(|&(p, _)| Value::object(p)));
        for &(promise, text) in &settled {
            let result = self.string(text);
            js_promise::promise_resolve_function(&mut self.host(), promise, result);
        }
        self.stack.temp_roots.truncate(mark);
        !settled.is_empty()
    }

    /// Runs a task's callback under the frame it captured.
    fn run_task(&mut self, task: &Task) -> JsResult<()> {
        // The task left its queue: its values stay rooted while it runs
        // (its frame is rooted as the current one).
        let mut host = self.host();
        let mut scope = SwapScope::enter(&mut host, task.frame);
        let vm: &mut Vm = &mut scope;
        let mark = vm.stack.temp_roots.len();
        vm.stack.temp_roots.push(task.callback);
        vm.stack.temp_roots.extend_from_slice(&task.args);
        let result = call(vm, task.callback, Value::UNDEFINED, &task.args).map(drop);
        vm.stack.temp_roots.truncate(mark);
        result
    }

    /// `processTicksAndRejections`: the nextTick queue, then the
    /// microtasks, until both are empty. Returns the reason of an unhandled
    /// rejection, which ends the program as in Node.
    pub(crate) fn run_ticks_and_microtasks(&mut self) -> JsResult<Option<Value>> {
        loop {
            while let Some(task) = self.runtime.event_loop.next_ticks.pop_front() {
                self.run_task(&task)?;
            }
            self.perform_microtask_checkpoint()?;
            if let Some(reason) = self.take_unhandled_rejection() {
                return Ok(Some(reason));
            }
            if self.runtime.event_loop.next_ticks.is_empty() {
                return Ok(None);
            }
        }
    }

    /// Runs the event loop to completion after the main script: ticks and
    /// microtasks, timers, immediates. Returns the reason of an unhandled
    /// rejection that ended it.
    pub fn run_event_loop(&mut self) -> Result<Option<Handle>, JsError> {
        match self.run_event_loop_to_completion() {
            Ok(rejection) => Ok(rejection.map(|reason| self.handle(reason))),
            Err(e) => Err(self.js_error(e)),
        }
    }

    fn run_event_loop_to_completion(&mut self) -> JsResult<Option<Value>> {
        if let Some(reason) = self.run_ticks_and_microtasks()? {
            return Ok(Some(reason));
        }
        loop {
            // Atomics.waitAsync promises already notified or timed out.
            if self.settle_async_waiters()
                && let Some(reason) = self.run_ticks_and_microtasks()?
            {
                return Ok(Some(reason));
            }
            let waiting =
                self.options.agent.wait_async_keeps_alive && !self.runtime.event_loop.async_waiters.is_empty();
            if !self.runtime.event_loop.alive() && !waiting {
                break;
            }
            self.runtime.event_loop.refresh_now();
            // Timers phase.
            let now = self.runtime.event_loop.now_ms;
            while let Some((&key, _)) = self.runtime.event_loop.timers.first_key_value() {
                if key.0 > now {
                    break;
                }
                let Some(mut timer) = self.runtime.event_loop.timers.remove(&key) else { break };
                let id = key.1;
                let task =
                    Task { callback: timer.task.callback, args: timer.task.args.clone(), frame: timer.task.frame };
                if let Some(interval) = timer.repeat {
                    // Rescheduled before it runs, so clearInterval inside
                    // the callback finds it.
                    let next = (now + interval, id);
                    timer.task = Task { callback: task.callback, args: task.args.clone(), frame: task.frame };
                    self.runtime.event_loop.timers.insert(next, timer);
                    self.runtime.event_loop.timer_keys.insert(id, next);
                } else {
                    self.runtime.event_loop.timer_keys.remove(&id);
                }
                self.run_task(&task)?;
                if let Some(reason) = self.run_ticks_and_microtasks()? {
                    return Ok(Some(reason));
                }
            }
            // Check phase: the immediates queued before it began.
            let count = self.runtime.event_loop.immediates.len();
            for _ in 0..count {
                let Some((_, task)) = self.runtime.event_loop.immediates.pop_front() else { break };
                self.run_task(&task)?;
                if let Some(reason) = self.run_ticks_and_microtasks()? {
                    return Ok(Some(reason));
                }
            }
            // FinalizationRegistry cleanups found by collections.
            self.run_finalization_cleanups()?;
            if let Some(reason) = self.run_ticks_and_microtasks()? {
                return Ok(Some(reason));
            }
            // Poll: wait for the next timer when nothing else is due, or
            // for another thread's notification.
            if self.runtime.event_loop.immediates.is_empty() && !self.runtime.event_loop.async_waiters.is_empty() {
                let slice = self.runtime.event_loop.poll_timeout().map_or(INBOX_POLL, |t| t.min(INBOX_POLL));
                self.runtime.event_loop.inbox.wait(Some(slice));
                self.check_interrupt()?;
            } else if self.runtime.event_loop.immediates.is_empty()
                && let Some((&(deadline, _), _)) = self.runtime.event_loop.timers.first_key_value()
            {
                let now = self.runtime.event_loop.elapsed_ms();
                let wait = deadline as f64 - now;
                if wait > 0.0 {
                    std::thread::sleep(Duration::from_secs_f64(wait / 1000.0));
                }
            }
        }
        Ok(None)
    }

    /// `process.exit(code)` was called with this code.
    pub fn exit_code(&self) -> Option<i32> {
        self.runtime.event_loop.exit_code
    }

    /// Asks the embedder to exit with `code` (`process.exit`): the script
    /// stops at once, as a termination.
    pub(crate) fn request_exit(&mut self, code: i32) -> Exception {
        self.runtime.event_loop.exit_code = Some(code);
        self.set_termination_reason(crate::TerminationReason::Exit);
        Exception::Terminated
    }

    /// Schedules `callback` to run after `delay_ms` on a timer host code
    /// owns (`AbortSignal.timeout`); an unreferenced one does not keep the
    /// loop alive. Returns the timer's id.
    pub(crate) fn schedule_host_timer(&mut self, callback: Value, delay_ms: f64, referenced: bool) -> u64 {
        let delay = if (1.0..=TIMEOUT_MAX).contains(&delay_ms) { delay_ms.trunc() as u64 } else { 1 };
        let task = self.task(callback, &[]);
        let id = self.runtime.event_loop.next_id;
        self.runtime.event_loop.next_id += 1;
        self.runtime.event_loop.refresh_now();
        let key = (self.runtime.event_loop.now_ms + delay, id);
        self.runtime.event_loop.timers.insert(key, Timer { task, repeat: None, referenced });
        self.runtime.event_loop.timer_keys.insert(id, key);
        id
    }

    /// `process.nextTick(callback, ...args)`.
    pub(crate) fn queue_next_tick(&mut self, callback: Value, args: &[Value]) {
        let task = self.task(callback, args);
        self.runtime.event_loop.next_ticks.push_back(task);
    }
}

fn callback_arg(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let callback = info.arg(vm, 0);
    if is_callable(vm, callback) {
        Ok(callback)
    } else {
        let shown = vm.display(callback);
        Err(vm.type_error(&format!("The \"callback\" argument must be of type function. Received {shown}")))
    }
}

/// A `Timeout` or `Immediate` object carrying the timer's id.
fn timer_object(vm: &mut Vm, id: u64, immediate: bool) -> Value {
    let proto =
        if immediate { vm.runtime.host_objects.immediate_prototype } else { vm.runtime.host_objects.timeout_prototype };
    let o = vm.new_object_of_kind(proto, ObjectKind::Number(id as f64));
    Value::object(o)
}

fn timer_id(vm: &mut Vm, v: Value) -> JsResult<Option<u64>> {
    if let Some(o) = v.as_object() {
        return Ok(match o.borrow(&vm.heap).kind {
            ObjectKind::Number(n)
                if o.borrow(&vm.heap).proto == vm.runtime.host_objects.timeout_prototype
                    || o.borrow(&vm.heap).proto == vm.runtime.host_objects.immediate_prototype =>
            {
                Some(n as u64)
            }
            _ => None,
        });
    }
    if v.is_nullish() {
        return Ok(None);
    }
    let n = to_number(vm, v)?;
    Ok((n.is_finite() && n >= 0.0).then_some(n as u64))
}

fn schedule(vm: &mut Vm, info: &CallInfo, repeat: bool) -> JsResult<Value> {
    let callback = callback_arg(vm, info)?;
    let delay = to_number(vm, info.arg(vm, 1))?;
    let delay = if (1.0..=TIMEOUT_MAX).contains(&delay) { delay.trunc() as u64 } else { 1 };
    let args: Vec<Value> = info.args(vm).iter().skip(2).copied().collect();
    let task = vm.task(callback, &args);
    let id = vm.runtime.event_loop.next_id;
    vm.runtime.event_loop.next_id += 1;
    // Like Node's, a timer starts when it is created, not when the loop
    // iteration began.
    vm.runtime.event_loop.refresh_now();
    let key = (vm.runtime.event_loop.now_ms + delay, id);
    vm.runtime.event_loop.timers.insert(key, Timer { task, repeat: repeat.then_some(delay), referenced: true });
    vm.runtime.event_loop.timer_keys.insert(id, key);
    Ok(timer_object(vm, id, false))
}

fn set_timeout(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    schedule(vm, info, false)
}

fn set_interval(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    schedule(vm, info, true)
}

fn clear_timer(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    if let Some(id) = timer_id(vm, v)?
        && let Some(key) = vm.runtime.event_loop.timer_keys.remove(&id)
    {
        vm.runtime.event_loop.timers.remove(&key);
    }
    Ok(Value::UNDEFINED)
}

fn set_immediate(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let callback = callback_arg(vm, info)?;
    let args: Vec<Value> = info.args(vm).iter().skip(1).copied().collect();
    let task = vm.task(callback, &args);
    let id = vm.runtime.event_loop.next_id;
    vm.runtime.event_loop.next_id += 1;
    vm.runtime.event_loop.immediates.push_back((id, task));
    Ok(timer_object(vm, id, true))
}

fn clear_immediate(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let v = info.arg(vm, 0);
    if let Some(id) = timer_id(vm, v)? {
        vm.runtime.event_loop.immediates.retain(|(i, _)| *i != id);
    }
    Ok(Value::UNDEFINED)
}

fn set_referenced(vm: &mut Vm, info: &CallInfo, referenced: bool) -> JsResult<Value> {
    if let Some(id) = timer_id(vm, info.this)?
        && let Some(key) = vm.runtime.event_loop.timer_keys.get(&id).copied()
        && let Some(timer) = vm.runtime.event_loop.timers.get_mut(&key)
    {
        timer.referenced = referenced;
    }
    Ok(info.this)
}

fn timeout_ref(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    set_referenced(vm, info, true)
}

fn timeout_unref(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    set_referenced(vm, info, false)
}

fn timeout_has_ref(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let referenced = timer_id(vm, info.this)?
        .and_then(|id| vm.runtime.event_loop.timer_keys.get(&id).copied())
        .and_then(|key| vm.runtime.event_loop.timers.get(&key))
        .is_some_and(|t| t.referenced);
    Ok(Value::boolean(referenced))
}

fn timeout_to_primitive(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    Ok(timer_id(vm, info.this)?.map_or(Value::UNDEFINED, |id| Value::number(id as f64)))
}

/// Installs the timer functions.
pub(crate) fn install(vm: &mut Vm) {
    let global = vm.realm.global;
    for (name, length, f) in [
        ("setTimeout", 2, set_timeout as crate::function::NativeFn),
        ("setInterval", 2, set_interval),
        ("setImmediate", 1, set_immediate),
        ("clearTimeout", 1, clear_timer),
        ("clearInterval", 1, clear_timer),
        ("clearImmediate", 1, clear_immediate),
    ] {
        method(vm, global, name, length, f);
    }
    let timeout_proto = vm.new_plain_object();
    let timeout_ctor = native_function(vm, "Timeout", 0, crate::builtins::function::return_undefined, false);
    let ctor_key = crate::object::PropertyKey::String(vm.names.constructor);
    crate::object::internal_methods::define_builtin(
        vm,
        timeout_proto,
        ctor_key,
        Value::object(timeout_ctor),
        Attributes::METHOD,
    );
    method(vm, timeout_proto, "ref", 0, timeout_ref);
    method(vm, timeout_proto, "unref", 0, timeout_unref);
    method(vm, timeout_proto, "hasRef", 0, timeout_has_ref);
    let to_primitive = vm.symbols.to_primitive;
    symbol_method(vm, timeout_proto, to_primitive, "[Symbol.toPrimitive]", 1, timeout_to_primitive, Attributes::METHOD);
    let immediate_proto = vm.new_plain_object();
    let immediate_ctor = native_function(vm, "Immediate", 0, crate::builtins::function::return_undefined, false);
    crate::object::internal_methods::define_builtin(
        vm,
        immediate_proto,
        ctor_key,
        Value::object(immediate_ctor),
        Attributes::METHOD,
    );
    vm.runtime.host_objects.timeout_prototype = Some(timeout_proto);
    vm.runtime.host_objects.immediate_prototype = Some(immediate_proto);
}
