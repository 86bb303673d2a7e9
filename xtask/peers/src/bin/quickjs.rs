//! `jsvm-peer-quickjs FILE`: runs a bench workload on `QuickJS` (via `rquickjs`).
//!
//! See the crate documentation for what the runner provides.

use std::cell::RefCell;
use std::rc::Rc;

use js_peers::{Workload, fail, performance_now, workload_from_args};
use rquickjs::function::Func;
use rquickjs::context::EvalOptions;
use rquickjs::{CatchResultExt, Context, Ctx, Module, Runtime, Value};

const RUNNER: &str = "jsvm-peer-quickjs";

/// Installs `console.log` and `performance.now` on the global object: two
/// native functions, with the argument joining done in JS so it follows
/// `String()` exactly.
fn install_host(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    let globals = ctx.globals();
    globals.set("__peerPrint", Func::from(|line: String| println!("{line}")))?;
    globals.set("__peerNow", Func::from(performance_now))?;
    ctx.eval::<(), _>(
        "globalThis.console = { log: (...args) => __peerPrint(args.map(String).join(' ')) };\n\
         globalThis.performance = { now: __peerNow };",
    )
}

/// Text of a thrown value: its stack when it has one (errors), else `String(value)`.
fn describe(value: &Value<'_>) -> String {
    if let Some(object) = value.as_object()
        && let Ok(stack) = object.get::<_, String>("stack")
    {
        let message = object.get::<_, String>("message").unwrap_or_default();
        return format!("{message}\n{stack}");
    }
    value.get::<rquickjs::convert::Coerced<String>>().map_or_else(|_| "<exception>".into(), |s| s.0)
}

/// Runs the workload and drains the job queue; the error is the uncaught one.
fn run(workload: &Workload) -> Result<(), String> {
    let runtime = Runtime::new().map_err(|e| e.to_string())?;
    // The default 256 KiB stack is too small for the recursive workloads.
    runtime.set_max_stack_size(8 * 1024 * 1024);
    let unhandled: Rc<RefCell<Option<String>>> = Rc::default();
    let record = Rc::clone(&unhandled);
    runtime.set_host_promise_rejection_tracker(Some(Box::new(move |_ctx, _promise, reason, is_handled| {
        let mut slot = record.borrow_mut();
        if is_handled {
            *slot = None;
        } else if slot.is_none() {
            *slot = Some(describe(&reason));
        }
    })));
    let context = Context::full(&runtime).map_err(|e| e.to_string())?;
    context.with(|ctx| {
        install_host(&ctx).catch(&ctx).map_err(|e| e.to_string())?;
        let name = workload.path.display().to_string();
        if workload.is_module {
            // `finish` runs jobs until the module's evaluation settles (a
            // top-level await); the rest are drained below, outside `with`.
            let promise =
                Module::evaluate(ctx.clone(), name, workload.source.as_str()).catch(&ctx).map_err(|e| e.to_string())?;
            promise.finish::<()>().catch(&ctx).map_err(|e| e.to_string())?;
        } else {
            // A classic script is sloppy unless it says otherwise, as node
            // and d8 run it; rquickjs's default options force strict mode,
            // where Octane's `alert = …` and octal escapes are errors.
            let mut options = EvalOptions::default();
            options.strict = false;
            options.filename = Some(name);
            ctx.eval_with_options::<(), _>(workload.source.as_str(), options)
                .catch(&ctx)
                .map_err(|e| e.to_string())?;
        }
        Ok::<(), String>(())
    })?;
    drain(&runtime)?;
    if let Some(reason) = unhandled.borrow_mut().take() {
        return Err(format!("(in promise) {reason}"));
    }
    Ok(())
}

/// Runs promise jobs until none is left.
fn drain(runtime: &Runtime) -> Result<(), String> {
    loop {
        match runtime.execute_pending_job() {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(exception) => {
                return Err(exception.0.with(|ctx| describe(&ctx.catch())));
            }
        }
    }
}

fn main() {
    let workload = workload_from_args(RUNNER);
    if let Err(message) = run(&workload) {
        fail(RUNNER, &message);
    }
}
