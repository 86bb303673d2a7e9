//! `$262.agent` (INTERPRETING.md): concurrent agents for the Atomics
//! tests. Each agent is a thread with its own VM, which can block
//! (`Atomics.wait` works there); the main agent cannot. A broadcast hands
//! every agent the `SharedArrayBuffer`'s block, so both VMs see one memory.
//!
//! When the test ends, every agent is interrupted and joined: a blocked
//! `Atomics.wait`, a sleep and a wait for a broadcast all look at the VM's
//! interrupt flag.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use js_vm::{AgentOptions, Handle, JsError, PropertyFlags, SharedArrayBufferBlock, Vm, VmOptions};

use super::{define_method, first_argument_text};

/// How often a waiting thread looks at its interrupt flag.
const POLL: Duration = Duration::from_millis(10);

/// Stack of an agent's thread (the engine bounds its recursion well below).
const AGENT_STACK: usize = 64 * 1024 * 1024;

/// The second value of a broadcast.
#[derive(Clone)]
enum BroadcastId {
    Undefined,
    Number(f64),
    /// A `BigInt`, as its decimal text (a value cannot cross VMs).
    BigInt(String),
}

/// What the main agent and the agents share: the reports and the clock.
struct Hub {
    reports: Mutex<VecDeque<String>>,
    start: Instant,
}

impl Hub {
    fn monotonic_now(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1000.0
    }
}

/// One agent's mailbox for broadcasts.
#[derive(Default)]
struct Mailbox {
    state: Mutex<MailState>,
    changed: Condvar,
}

#[derive(Default)]
struct MailState {
    /// A broadcast not yet taken.
    message: Option<(SharedArrayBufferBlock, BroadcastId)>,
    /// The agent will take no more broadcasts (it finished, or never
    /// asked for one).
    gone: bool,
}

impl Mailbox {
    fn lock(&self) -> std::sync::MutexGuard<'_, MailState> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn mark_gone(&self) {
        self.lock().gone = true;
        self.changed.notify_all();
    }

    /// Waits for a broadcast; `None` once `interrupt` is set.
    fn receive(&self, interrupt: &AtomicBool) -> Option<(SharedArrayBufferBlock, BroadcastId)> {
        let mut state = self.lock();
        loop {
            if let Some(message) = state.message.take() {
                self.changed.notify_all();
                return Some(message);
            }
            if interrupt.load(Ordering::Relaxed) {
                return None;
            }
            state = self.changed.wait_timeout(state, POLL).map_or_else(|e| e.into_inner().0, |(s, _)| s);
        }
    }
}

/// A running agent, as the main agent knows it.
struct Agent {
    mailbox: Arc<Mailbox>,
    interrupt: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// The agents a test started.
pub(super) struct Agents {
    hub: Arc<Hub>,
    agents: RefCell<Vec<Agent>>,
}

impl Drop for Agents {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl Agents {
    /// Interrupts every agent and waits for its thread to end.
    pub(super) fn shutdown(&self) {
        let mut agents = self.agents.borrow_mut();
        for agent in agents.iter() {
            agent.interrupt.store(true, Ordering::Relaxed);
            agent.mailbox.changed.notify_all();
        }
        for agent in agents.iter_mut() {
            if let Some(thread) = agent.thread.take() {
                // An agent's panic was the engine's bug in that agent; the
                // main agent's outcome already tells whether it mattered.
                let _ = thread.join();
            }
        }
        agents.clear();
    }

    /// `$262.agent.start(source)`: a new agent running `source`, once it
    /// is running.
    fn start(&self, source: String) -> Result<(), String> {
        let hub = Arc::clone(&self.hub);
        let mailbox = Arc::new(Mailbox::default());
        let agent_mailbox = Arc::clone(&mailbox);
        let (ready, running) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("test262-agent".to_owned())
            .stack_size(AGENT_STACK)
            .spawn(move || run_agent(&source, &hub, &agent_mailbox, &ready))
            .map_err(|e| format!("cannot start an agent: {e}"))?;
        let interrupt = running.recv().map_err(|_| "the agent failed to start".to_owned())?;
        self.agents.borrow_mut().push(Agent { mailbox, interrupt, thread: Some(thread) });
        Ok(())
    }

    /// `$262.agent.broadcast(sab, id)`: hands the block to every agent
    /// still listening and waits until each has taken it.
    fn broadcast(&self, block: &SharedArrayBufferBlock, id: &BroadcastId, interrupt: &AtomicBool) -> bool {
        let agents = self.agents.borrow();
        for agent in agents.iter() {
            let mut state = agent.mailbox.lock();
            if !state.gone {
                state.message = Some((block.clone(), id.clone()));
            }
            drop(state);
            agent.mailbox.changed.notify_all();
        }
        for agent in agents.iter() {
            let mut state = agent.mailbox.lock();
            while state.message.is_some() && !state.gone {
                if interrupt.load(Ordering::Relaxed) {
                    return false;
                }
                state = agent.mailbox.changed.wait_timeout(state, POLL).map_or_else(|e| e.into_inner().0, |(s, _)| s);
            }
        }
        true
    }
}

/// Sleeps `ms` milliseconds, or less when `interrupt` is set (then
/// `Err(Terminated)`).
fn sleep(ms: f64, interrupt: &AtomicBool) -> Result<Handle, JsError> {
    let until = Instant::now() + Duration::try_from_secs_f64(ms.max(0.0) / 1000.0).unwrap_or(Duration::ZERO);
    loop {
        if interrupt.load(Ordering::Relaxed) {
            return Err(JsError::Terminated);
        }
        let now = Instant::now();
        if now >= until {
            return Ok(Handle::undefined());
        }
        std::thread::sleep((until - now).min(POLL));
    }
}

/// The first argument's text read as a number (the harness passes
/// millisecond counts).
fn number_argument(vm: &mut Vm, args: &[Handle]) -> Result<f64, JsError> {
    let text = first_argument_text(vm, args)?;
    Ok(text.trim().parse().unwrap_or(0.0))
}

/// Defines `$262.agent` for the main agent on `host` (the `$262` object):
/// `start`, `broadcast`, `getReport`, `sleep` and `monotonicNow`.
pub(super) fn install_main(vm: &mut Vm, host: &Handle) -> Result<Rc<Agents>, JsError> {
    let agents = Rc::new(Agents {
        hub: Arc::new(Hub { reports: Mutex::new(VecDeque::new()), start: Instant::now() }),
        agents: RefCell::new(Vec::new()),
    });
    let agent = Handle::new_object(vm);
    let group = Rc::clone(&agents);
    define_method(vm, &agent, "start", 1, move |vm, _, args| {
        let source = first_argument_text(vm, args)?;
        group.start(source).map_err(|e| JsError::type_error(vm, &e))?;
        Ok(Handle::undefined())
    })?;
    let group = Rc::clone(&agents);
    define_method(vm, &agent, "broadcast", 2, move |vm, _, args| {
        let sab = args.first().cloned().unwrap_or_default();
        let block = sab.shared_array_buffer_block(vm)?;
        let id = match args.get(1) {
            None => BroadcastId::Undefined,
            Some(id) if id.is_undefined() => BroadcastId::Undefined,
            Some(id) => match id.as_number() {
                Some(n) => BroadcastId::Number(n),
                None => BroadcastId::BigInt(id.to_rust_string(vm)?),
            },
        };
        let interrupt = vm.interrupt_handle();
        if group.broadcast(&block, &id, &interrupt) { Ok(Handle::undefined()) } else { Err(JsError::Terminated) }
    })?;
    let hub = Arc::clone(&agents.hub);
    define_method(vm, &agent, "getReport", 0, move |vm, _, _| {
        let report = hub.reports.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop_front();
        Ok(report.map_or_else(Handle::null, |r| Handle::string(vm, &r)))
    })?;
    define_method(vm, &agent, "sleep", 1, |vm, _, args| {
        let ms = number_argument(vm, args)?;
        sleep(ms, &vm.interrupt_handle())
    })?;
    let hub = Arc::clone(&agents.hub);
    define_method(vm, &agent, "monotonicNow", 0, move |_, _, _| Ok(Handle::number(hub.monotonic_now())))?;
    host.define_property(vm, "agent", &agent, PropertyFlags::METHOD)?;
    Ok(agents)
}

/// Defines the agent side's `$262.agent`: `receiveBroadcast`, `report`,
/// `sleep`, `leaving` and `monotonicNow`. The callback `receiveBroadcast`
/// registers lands in `receiver`.
fn install_agent_side(vm: &mut Vm, hub: &Arc<Hub>, receiver: &Rc<RefCell<Option<Handle>>>) -> Result<(), JsError> {
    let host = Handle::new_object(vm);
    let agent = Handle::new_object(vm);
    let slot = Rc::clone(receiver);
    define_method(vm, &agent, "receiveBroadcast", 1, move |_, _, args| {
        *slot.borrow_mut() = args.first().cloned();
        Ok(Handle::undefined())
    })?;
    let reports = Arc::clone(hub);
    define_method(vm, &agent, "report", 1, move |vm, _, args| {
        let text = first_argument_text(vm, args)?;
        reports.reports.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push_back(text);
        Ok(Handle::undefined())
    })?;
    define_method(vm, &agent, "sleep", 1, |vm, _, args| {
        let ms = number_argument(vm, args)?;
        sleep(ms, &vm.interrupt_handle())
    })?;
    define_method(vm, &agent, "leaving", 0, |_, _, _| Ok(Handle::undefined()))?;
    let clock = Arc::clone(hub);
    define_method(vm, &agent, "monotonicNow", 0, move |_, _, _| Ok(Handle::number(clock.monotonic_now())))?;
    host.define_property(vm, "agent", &agent, PropertyFlags::METHOD)?;
    let global = vm.global_object();
    global.define_property(vm, "$262", &host, PropertyFlags::METHOD)
}

/// Runs the event loop until nothing keeps it alive (an unhandled
/// rejection does not end an agent).
fn drain(vm: &mut Vm) {
    while let Ok(Some(_)) = vm.run_event_loop() {}
}

/// The body of an agent's thread.
fn run_agent(source: &str, hub: &Arc<Hub>, mailbox: &Arc<Mailbox>, ready: &mpsc::Sender<Arc<AtomicBool>>) {
    let agent = AgentOptions { can_block: true, wait_async_keeps_alive: true };
    let mut options = VmOptions { agent, ..VmOptions::default() };
    options.heap.stress = super::GC_STRESS.load(Ordering::Relaxed);
    let mut vm = Vm::with_options(options);
    let interrupt = vm.interrupt_handle();
    if ready.send(Arc::clone(&interrupt)).is_err() {
        return;
    }
    let receiver = Rc::new(RefCell::new(None));
    if install_agent_side(&mut vm, hub, &receiver).is_ok() && vm.eval_script("agent.js", source).is_ok() {
        drain(&mut vm);
        let callback = receiver.borrow_mut().take();
        if let Some(callback) = callback
            && let Some((block, id)) = mailbox.receive(&interrupt)
        {
            let sab = vm.shared_array_buffer_from(&block);
            let id = match id {
                BroadcastId::Undefined => Ok(Handle::undefined()),
                BroadcastId::Number(n) => Ok(Handle::number(n)),
                BroadcastId::BigInt(text) => vm.eval_script("broadcast-id.js", &format!("{text}n")),
            };
            if let Ok(id) = id {
                // What the callback throws ends the agent; the main agent
                // sees it through the reports that never come.
                let _ = callback.call(&mut vm, &Handle::undefined(), &[sab, id]);
                drain(&mut vm);
            }
        }
    }
    mailbox.mark_gone();
}
