//! `SharedArrayBuffer`s shared between VMs on different threads through the
//! embedding API: one memory, `Atomics.wait` in one VM woken by
//! `Atomics.notify` in the other, and `Atomics.waitAsync` promises settled
//! by another thread's notification.

use std::time::Duration;

use js_vm::{AgentOptions, Handle, JsError, PropertyFlags, SharedArrayBufferBlock, Vm, VmOptions};

fn agent_vm() -> Vm {
    let agent = AgentOptions { can_block: true, wait_async_keeps_alive: true };
    Vm::with_options(VmOptions { agent, ..VmOptions::default() })
}

/// Runs `source` in a new VM on another thread with the block bound to
/// the global `sab`; returns what the script's completion value reads as.
fn spawn_agent(block: SharedArrayBufferBlock, source: &'static str) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut vm = agent_vm();
        let sab = vm.shared_array_buffer_from(&block);
        vm.global_object().define_property(&mut vm, "sab", &sab, PropertyFlags::DEFAULT).expect("defined");
        let result = vm.eval_script("agent.js", source).expect("the agent's script runs");
        result.to_rust_string(&mut vm).expect("a string")
    })
}

#[test]
fn two_vms_see_one_memory_and_wait_for_each_other() -> Result<(), JsError> {
    let mut vm = agent_vm();
    let sab = vm.eval_script("main.js", "globalThis.i32 = new Int32Array(new SharedArrayBuffer(16)); i32.buffer")?;
    let block = sab.shared_array_buffer_block(&mut vm)?;
    assert_eq!(block.byte_length(), 16);
    let agent = spawn_agent(
        block,
        "const a = new Int32Array(sab); const r = Atomics.wait(a, 0, 0); Atomics.store(a, 1, 42); \
         Atomics.notify(a, 1); r",
    );
    // Notify until the agent has started waiting.
    let woken = vm.eval_script("notify.js", "let n = 0; while ((n = Atomics.notify(i32, 0)) === 0); n")?;
    assert_eq!(woken.as_number(), Some(1.0));
    assert_eq!(agent.join().ok().as_deref(), Some("ok"));
    let seen = vm.eval_script("read.js", "i32[1] + Atomics.load(i32, 1)")?;
    assert_eq!(seen.as_number(), Some(84.0));
    Ok(())
}

#[test]
fn a_wait_async_promise_settles_from_another_thread() -> Result<(), JsError> {
    let mut vm = agent_vm();
    let sab = vm.eval_script(
        "main.js",
        "globalThis.i32 = new Int32Array(new SharedArrayBuffer(8)); \
         Atomics.waitAsync(i32, 0, 0).value.then((v) => { globalThis.result = v + ' ' + i32[1]; }); i32.buffer",
    )?;
    let block = sab.shared_array_buffer_block(&mut vm)?;
    let agent = spawn_agent(block, "const a = new Int32Array(sab); a[1] = 7; String(Atomics.notify(a, 0))");
    assert_eq!(agent.join().ok().as_deref(), Some("1"));
    // The loop waits for the notification (the agent already sent it).
    assert!(vm.run_event_loop()?.is_none());
    let result = vm.eval_script("result.js", "result")?;
    assert_eq!(result.to_rust_string(&mut vm)?, "ok 7");
    Ok(())
}

#[test]
fn a_growable_block_grows_for_every_vm() -> Result<(), JsError> {
    let mut vm = agent_vm();
    let sab = vm.eval_script("main.js", "globalThis.g = new SharedArrayBuffer(4, { maxByteLength: 64 }); g")?;
    let block = sab.shared_array_buffer_block(&mut vm)?;
    let agent = spawn_agent(block, "sab.grow(32); new Int8Array(sab).fill(3); `${sab.byteLength} ${sab.growable}`");
    assert_eq!(agent.join().ok().as_deref(), Some("32 true"));
    let seen = vm.eval_script("read.js", "`${g.byteLength} ${new Int8Array(g)[31]}`")?;
    assert_eq!(seen.to_rust_string(&mut vm)?, "32 3");
    Ok(())
}

#[test]
fn an_agent_that_cannot_block_throws_and_only_shared_buffers_have_blocks() -> Result<(), JsError> {
    let mut vm = Vm::new();
    let name = vm.eval_script(
        "main.js",
        "try { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 0); 'no error' } \
         catch (e) { e.constructor.name }",
    )?;
    assert_eq!(name.to_rust_string(&mut vm)?, "TypeError");
    let buffer = vm.eval_script("ab.js", "new ArrayBuffer(4)")?;
    assert!(buffer.shared_array_buffer_block(&mut vm).is_err());
    assert!(Handle::number(1.0).shared_array_buffer_block(&mut vm).is_err());
    Ok(())
}

#[test]
fn a_blocked_wait_ends_when_the_vm_is_interrupted() {
    let (tx, rx) = std::sync::mpsc::channel();
    let agent = std::thread::spawn(move || {
        let mut vm = agent_vm();
        tx.send(vm.interrupt_handle()).expect("the test thread listens");
        let outcome = vm.eval_script("wait.js", "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)");
        matches!(outcome, Err(JsError::Terminated))
    });
    let interrupt = rx.recv().expect("the agent started");
    std::thread::sleep(Duration::from_millis(50));
    interrupt.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(agent.join().ok(), Some(true));
}
