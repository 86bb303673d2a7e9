//! Evaluation (§16.2.1.5.3 `Evaluate`, `InnerModuleEvaluation`,
//! `ExecuteAsyncModule`, `GatherAvailableAncestors`,
//! `AsyncModuleExecutionFulfilled`/`Rejected`): modules run in
//! post-order; a module with top-level await, or waiting for one, runs
//! when its last async dependency finishes, and modules that become ready
//! together run in the order they became asynchronous.

use js_gc::Gc;
use js_promise::Continuation;

use crate::object::JsObject;
use crate::promise::{MODULE_ASYNC_SETTLED, new_promise_with_proto};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

use super::{ModuleId, ModuleStatus};

/// A new pending %Promise%.
pub(crate) fn new_promise(vm: &mut Vm) -> Gc<JsObject> {
    let proto = vm.realm.intrinsics.promise_prototype;
    new_promise_with_proto(vm, proto)
}

/// `Evaluate()`: the promise settles when `module` and its dependencies
/// finished (rejected with the first error).
pub fn evaluate(vm: &mut Vm, module: ModuleId) -> JsResult<Gc<JsObject>> {
    let mut module = module;
    if matches!(vm.module(module).status, ModuleStatus::EvaluatingAsync | ModuleStatus::Evaluated) {
        module = vm.module(module).cycle_root.unwrap_or(module);
    }
    if let Some(capability) = vm.module(module).top_level_capability {
        return Ok(capability);
    }
    let capability = new_promise(vm);
    vm.module_mut(module).top_level_capability = Some(capability);
    let mut stack = Vec::new();
    match inner_module_evaluation(vm, module, &mut stack, 0) {
        Err(Exception::Terminated) => return Err(Exception::Terminated),
        Err(Exception::Throw(error)) => {
            for m in stack {
                let record = vm.module_mut(m);
                record.status = ModuleStatus::Evaluated;
                record.evaluation_error = Some(error);
            }
            js_promise::promise_reject_function(&mut vm.host(), capability, error);
        }
        Ok(_) => {
            if !vm.module(module).async_evaluation {
                js_promise::promise_resolve_function(&mut vm.host(), capability, Value::UNDEFINED);
            }
        }
    }
    vm.take_termination()?;
    Ok(capability)
}

/// `InnerModuleEvaluation(module, stack, index)`.
fn inner_module_evaluation(vm: &mut Vm, module: ModuleId, stack: &mut Vec<ModuleId>, index: usize) -> JsResult<usize> {
    let record = vm.module(module);
    if record.commonjs && record.status == ModuleStatus::Linked {
        // A CommonJS dependency runs in its place in the evaluation order.
        crate::host::commonjs::evaluate_import(vm, module)?;
        return Ok(index);
    }
    if !record.is_cyclic() {
        return match record.evaluation_error {
            Some(e) => Err(Exception::Throw(e)),
            None => Ok(index),
        };
    }
    match record.status {
        ModuleStatus::EvaluatingAsync | ModuleStatus::Evaluated => {
            return match record.evaluation_error {
                Some(e) => Err(Exception::Throw(e)),
                None => Ok(index),
            };
        }
        ModuleStatus::Evaluating => return Ok(index),
        ModuleStatus::Linked => {}
        ModuleStatus::New | ModuleStatus::Linking => {
            return Err(vm.type_error("module evaluated before it was linked"));
        }
    }
    let record = vm.module_mut(module);
    record.status = ModuleStatus::Evaluating;
    record.dfs_index = index;
    record.dfs_ancestor_index = index;
    record.pending_async_dependencies = 0;
    let mut index = index + 1;
    stack.push(module);
    for i in 0..vm.module(module).loaded.len() {
        let Some(mut required) = vm.module(module).loaded[i] else { continue };
        index = inner_module_evaluation(vm, required, stack, index)?;
        if !vm.module(required).is_cyclic() {
            continue;
        }
        if vm.module(required).status == ModuleStatus::Evaluating {
            let ancestor = vm.module(required).dfs_ancestor_index;
            let m = vm.module_mut(module);
            m.dfs_ancestor_index = m.dfs_ancestor_index.min(ancestor);
        } else {
            required = vm.module(required).cycle_root.unwrap_or(required);
            if let Some(e) = vm.module(required).evaluation_error {
                return Err(Exception::Throw(e));
            }
        }
        if vm.module(required).async_evaluation {
            vm.module_mut(module).pending_async_dependencies += 1;
            vm.module_mut(required).async_parents.push(module);
        }
    }
    let record = vm.module(module);
    if record.pending_async_dependencies > 0 || record.has_tla {
        let order = vm.modules.async_counter;
        vm.modules.async_counter += 1;
        let record = vm.module_mut(module);
        record.async_evaluation = true;
        record.async_order = order;
        if record.pending_async_dependencies == 0 {
            execute_async_module(vm, module)?;
        }
    } else {
        execute_module(vm, module)?;
    }
    let record = vm.module(module);
    if record.dfs_ancestor_index == record.dfs_index {
        while let Some(done) = stack.pop() {
            let r = vm.module_mut(done);
            r.status = if r.async_evaluation { ModuleStatus::EvaluatingAsync } else { ModuleStatus::Evaluated };
            r.cycle_root = Some(module);
            if done == module {
                break;
            }
        }
    }
    Ok(index)
}

/// Runs a module body; for a body with top-level await, the promise of
/// its completion.
fn run_body(vm: &mut Vm, module: ModuleId) -> JsResult<Value> {
    let record = vm.module(module);
    let (Some(code), env) = (record.code.as_ref().map(|c| c.body), record.env) else { return Ok(Value::UNDEFINED) };
    crate::interpreter::run_eval(vm, code, Some(env), Value::UNDEFINED)
}

/// `ExecuteModule()` of a module without top-level await.
fn execute_module(vm: &mut Vm, module: ModuleId) -> JsResult<()> {
    run_body(vm, module).map(drop)
}

/// `ExecuteAsyncModule(module)`: runs the async body and continues with
/// `AsyncModuleExecutionFulfilled`/`Rejected` when it settles.
fn execute_async_module(vm: &mut Vm, module: ModuleId) -> JsResult<()> {
    let promise = run_body(vm, module)?;
    let Some(promise) = crate::promise::as_promise(vm, promise) else {
        return Err(vm.type_error("module body did not produce a promise"));
    };
    let continuation = Continuation { job: MODULE_ASYNC_SETTLED, data: Value::number(f64::from(module)) };
    js_promise::perform_promise_then_continuation(&mut vm.host(), promise, continuation);
    Ok(())
}

/// The job run when an async module body settles.
pub(crate) fn async_module_settled(vm: &mut Vm, data: Value, outcome: Result<Value, Value>) -> JsResult<()> {
    let Some(module) = data.as_number().map(|n| n as ModuleId) else { return Ok(()) };
    match outcome {
        Ok(_) => async_module_execution_fulfilled(vm, module),
        Err(error) => {
            async_module_execution_rejected(vm, module, error);
            vm.take_termination()
        }
    }
}

/// `GatherAvailableAncestors(module, execList)`.
fn gather_available_ancestors(vm: &mut Vm, module: ModuleId, exec_list: &mut Vec<ModuleId>) {
    for parent in vm.module(module).async_parents.clone() {
        let root = vm.module(parent).cycle_root.unwrap_or(parent);
        if exec_list.contains(&parent) || vm.module(root).evaluation_error.is_some() {
            continue;
        }
        let p = vm.module_mut(parent);
        p.pending_async_dependencies = p.pending_async_dependencies.saturating_sub(1);
        if p.pending_async_dependencies == 0 {
            exec_list.push(parent);
            if !vm.module(parent).has_tla {
                gather_available_ancestors(vm, parent, exec_list);
            }
        }
    }
}

/// `AsyncModuleExecutionFulfilled(module)`.
fn async_module_execution_fulfilled(vm: &mut Vm, module: ModuleId) -> JsResult<()> {
    if vm.module(module).status == ModuleStatus::Evaluated {
        return Ok(());
    }
    let record = vm.module_mut(module);
    record.async_evaluation = false;
    record.status = ModuleStatus::Evaluated;
    if let Some(capability) = record.top_level_capability {
        js_promise::promise_resolve_function(&mut vm.host(), capability, Value::UNDEFINED);
    }
    let mut exec_list = Vec::new();
    gather_available_ancestors(vm, module, &mut exec_list);
    exec_list.sort_by_key(|&m| vm.module(m).async_order);
    for m in exec_list {
        if vm.module(m).status == ModuleStatus::Evaluated {
            continue;
        }
        if vm.module(m).has_tla {
            execute_async_module(vm, m)?;
            continue;
        }
        match execute_module(vm, m) {
            Err(Exception::Terminated) => return Err(Exception::Terminated),
            Err(Exception::Throw(error)) => async_module_execution_rejected(vm, m, error),
            Ok(()) => {
                let record = vm.module_mut(m);
                record.async_evaluation = false;
                record.status = ModuleStatus::Evaluated;
                if let Some(capability) = record.top_level_capability {
                    js_promise::promise_resolve_function(&mut vm.host(), capability, Value::UNDEFINED);
                }
            }
        }
    }
    vm.take_termination()
}

/// `AsyncModuleExecutionRejected(module, error)`.
fn async_module_execution_rejected(vm: &mut Vm, module: ModuleId, error: Value) {
    if vm.module(module).status == ModuleStatus::Evaluated {
        return;
    }
    let record = vm.module_mut(module);
    record.evaluation_error = Some(error);
    record.status = ModuleStatus::Evaluated;
    record.async_evaluation = false;
    // The module's own capability is rejected before its parents' (the
    // order of rejections test262's rejection-order checks).
    if let Some(capability) = vm.module(module).top_level_capability {
        js_promise::promise_reject_function(&mut vm.host(), capability, error);
    }
    for parent in vm.module(module).async_parents.clone() {
        async_module_execution_rejected(vm, parent, error);
    }
}
