//! The Boa runner's body, shared by `jsvm-peer-boa` (Boa as it comes),
//! `jsvm-peer-boa-js-json` (the same, with js-json under `JSON.stringify`
//! and `JSON.parse`; see [`crate::boa_json`]) and
//! `jsvm-peer-boa-js-microtask` (with js-microtask's queue under the job
//! executor; see [`crate::boa_jobs`]).

use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
use boa_engine::{Context, JsError, JsResult, JsValue, Module, NativeFunction, Source, js_string};

use std::rc::Rc;

use crate::boa_jobs::MicrotaskExecutor;
use crate::{Workload, fail, performance_now, workload_from_args};

/// `console.log(...args)`: `String(arg)` of each argument, joined by spaces.
fn console_log(_this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let mut line = String::new();
    for (index, arg) in args.iter().enumerate() {
        if index > 0 {
            line.push(' ');
        }
        line.push_str(&arg.to_string(context)?.to_std_string_escaped());
    }
    println!("{line}");
    Ok(JsValue::undefined())
}

/// `performance.now()`.
#[allow(clippy::unnecessary_wraps)] // the native-function signature
fn now(_this: &JsValue, _args: &[JsValue], _context: &mut Context) -> JsResult<JsValue> {
    Ok(JsValue::from(performance_now()))
}

/// Installs `console` and `performance` on the global object.
fn install_host(context: &mut Context) -> JsResult<()> {
    let console = ObjectInitializer::new(context)
        .function(NativeFunction::from_fn_ptr(console_log), js_string!("log"), 0)
        .build();
    context.register_global_property(js_string!("console"), console, Attribute::all())?;
    let performance =
        ObjectInitializer::new(context).function(NativeFunction::from_fn_ptr(now), js_string!("now"), 0).build();
    context.register_global_property(js_string!("performance"), performance, Attribute::all())?;
    Ok(())
}

/// Text of an uncaught error: message and stack when it has them.
fn describe(error: &JsError, context: &mut Context) -> String {
    let Ok(value) = error.clone().into_opaque(context) else { return error.to_string() };
    if let Some(object) = value.as_object()
        && let Ok(stack) = object.get(js_string!("stack"), context)
        && !stack.is_undefined()
    {
        let message = object
            .get(js_string!("message"), context)
            .ok()
            .and_then(|m| m.as_string().map(|s| s.to_std_string_escaped()));
        let stack = stack.as_string().map_or_else(|| stack.display().to_string(), |s| s.to_std_string_escaped());
        return format!("{}\n{stack}", message.unwrap_or_default());
    }
    value.display().to_string()
}

/// Runs the workload, then every promise job it left.
fn run(workload: &Workload, context: &mut Context) -> JsResult<()> {
    let source = Source::from_bytes(workload.source.as_bytes()).with_path(&workload.path);
    if workload.is_module {
        let module = Module::parse(source, None, context)?;
        let promise = module.load_link_evaluate(context);
        context.run_jobs()?;
        promise.await_blocking(context).map(|_| ())
    } else {
        context.eval(source)?;
        context.run_jobs()
    }
}

/// Which of the project's crates a Boa runner puts in place of Boa's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adopted {
    /// js-json under `JSON.stringify` and `JSON.parse`.
    pub js_json: bool,
    /// js-microtask's `JobQueue` under the job executor.
    pub js_microtask: bool,
}

/// A Boa context with the runner's host functions and the `adopted` crates.
///
/// # Errors
///
/// If making the context or installing any of them fails.
pub fn context(adopted: Adopted) -> JsResult<Context> {
    let mut context = if adopted.js_microtask {
        Context::builder().job_executor(Rc::new(MicrotaskExecutor::default())).build()?
    } else {
        Context::default()
    };
    install_host(&mut context)?;
    if adopted.js_json {
        crate::boa_json::install(&mut context)?;
    }
    Ok(context)
}

/// The runner's `main`: reads `FILE`, runs it, and exits with status 1
/// after printing the error if it threw.
pub fn main(runner: &str, adopted: Adopted) {
    let workload = workload_from_args(runner);
    let mut context = match context(adopted) {
        Ok(context) => context,
        Err(error) => fail(runner, &error.to_string()),
    };
    if let Err(error) = run(&workload, &mut context) {
        let message = describe(&error, &mut context);
        fail(runner, &message);
    }
}
