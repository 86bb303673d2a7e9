//! Linking (§16.2.1.5.1 `Link`, §16.2.1.6.3 `ResolveExport`,
//! §16.2.1.6.2 `GetExportedNames`, §16.2.1.6.4 `InitializeEnvironment`):
//! a depth-first walk over the module graph that finds strongly connected
//! components with the DFS ancestor indices, resolves every import to the
//! binding it names, and instantiates each module's functions.

use crate::compiler::ImportName;
use crate::environment::ImportBinding;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

use super::{ModuleId, ModuleStatus};

/// A ResolvedBinding Record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Slot `slot` of `module`'s environment.
    Binding {
        /// The declaring module.
        module: ModuleId,
        /// The binding's slot.
        slot: u32,
    },
    /// The namespace object of a module (`export * as ns from`).
    Namespace(ModuleId),
}

/// What `ResolveExport` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveResult {
    /// One binding.
    Found(Resolution),
    /// No such export (`null`), or a circular re-export.
    NotFound,
    /// Two star exports provide different bindings (`ambiguous`).
    Ambiguous,
}

/// The module request `index` of `module` was loaded as.
fn loaded(vm: &Vm, module: ModuleId, index: usize) -> Option<ModuleId> {
    vm.module(module).loaded.get(index).copied().flatten()
}

/// `ResolveExport(exportName, resolveSet)`.
pub fn resolve_export(
    vm: &Vm,
    module: ModuleId,
    name: &str,
    resolve_set: &mut Vec<(ModuleId, String)>,
) -> ResolveResult {
    if resolve_set.iter().any(|(m, n)| *m == module && n == name) {
        // A circular import request.
        return ResolveResult::NotFound;
    }
    resolve_set.push((module, name.to_owned()));
    let record = vm.module(module);
    if let Some(&(_, slot)) = record.local_exports.iter().find(|(n, _)| n == name) {
        return ResolveResult::Found(Resolution::Binding { module, slot });
    }
    if let Some(entry) = record.indirect_exports.iter().find(|e| e.export_name == name) {
        let Some(imported) = loaded(vm, module, entry.request) else { return ResolveResult::NotFound };
        return match &entry.import_name {
            ImportName::Namespace => ResolveResult::Found(Resolution::Namespace(imported)),
            ImportName::Name(import_name) => {
                let import_name = import_name.clone();
                resolve_export(vm, imported, &import_name, resolve_set)
            }
        };
    }
    if name == "default" {
        // A default export cannot come from `export *`.
        return ResolveResult::NotFound;
    }
    let mut star_resolution = None;
    for &request in &record.star_exports.clone() {
        let Some(imported) = loaded(vm, module, request) else { continue };
        match resolve_export(vm, imported, name, resolve_set) {
            ResolveResult::Ambiguous => return ResolveResult::Ambiguous,
            ResolveResult::NotFound => {}
            ResolveResult::Found(resolution) => match star_resolution {
                None => star_resolution = Some(resolution),
                Some(previous) if previous != resolution => return ResolveResult::Ambiguous,
                Some(_) => {}
            },
        }
    }
    star_resolution.map_or(ResolveResult::NotFound, ResolveResult::Found)
}

/// `GetExportedNames(exportStarSet)`.
pub fn get_exported_names(vm: &Vm, module: ModuleId, export_star_set: &mut Vec<ModuleId>) -> Vec<String> {
    if export_star_set.contains(&module) {
        return Vec::new();
    }
    export_star_set.push(module);
    let record = vm.module(module);
    let mut names: Vec<String> = record.local_exports.iter().map(|(n, _)| n.clone()).collect();
    names.extend(record.indirect_exports.iter().map(|e| e.export_name.clone()));
    for &request in &record.star_exports {
        let Some(requested) = loaded(vm, module, request) else { continue };
        for name in get_exported_names(vm, requested, export_star_set) {
            if name != "default" && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// `Link()`: links `module` and everything it depends on; on failure the
/// modules of this attempt go back to unlinked.
pub fn link(vm: &mut Vm, module: ModuleId) -> JsResult<()> {
    let mut stack = Vec::new();
    if let Err(e) = inner_module_linking(vm, module, &mut stack, 0) {
        for m in stack {
            vm.module_mut(m).status = ModuleStatus::New;
        }
        return Err(e);
    }
    Ok(())
}

/// `InnerModuleLinking(module, stack, index)`.
fn inner_module_linking(vm: &mut Vm, module: ModuleId, stack: &mut Vec<ModuleId>, index: usize) -> JsResult<usize> {
    let record = vm.module(module);
    if !record.is_cyclic() || record.status != ModuleStatus::New {
        return Ok(index);
    }
    let record = vm.module_mut(module);
    record.status = ModuleStatus::Linking;
    record.dfs_index = index;
    record.dfs_ancestor_index = index;
    let mut index = index + 1;
    stack.push(module);
    for i in 0..vm.module(module).loaded.len() {
        let Some(required) = loaded(vm, module, i) else {
            let request = vm.module(module).requests[i].specifier.clone();
            return Err(vm.type_error(&format!("module '{request}' was not loaded")));
        };
        index = inner_module_linking(vm, required, stack, index)?;
        let r = vm.module(required);
        if r.is_cyclic() && r.status == ModuleStatus::Linking {
            let ancestor = r.dfs_ancestor_index;
            let m = vm.module_mut(module);
            m.dfs_ancestor_index = m.dfs_ancestor_index.min(ancestor);
        }
    }
    initialize_environment(vm, module)?;
    let m = vm.module(module);
    if m.dfs_ancestor_index == m.dfs_index {
        while let Some(done) = stack.pop() {
            vm.module_mut(done).status = ModuleStatus::Linked;
            if done == module {
                break;
            }
        }
    }
    Ok(index)
}

/// The SyntaxError of an import or re-export that resolves to nothing.
fn resolution_error(vm: &mut Vm, module: ModuleId, request: usize, name: &str, result: ResolveResult) -> Exception {
    let specifier = vm.module(module).requests.get(request).map(|r| r.specifier.clone()).unwrap_or_default();
    if result == ResolveResult::Ambiguous {
        vm.syntax_error(&format!(
            "The requested module '{specifier}' contains conflicting star exports for name '{name}'"
        ))
    } else {
        vm.syntax_error(&format!("The requested module '{specifier}' does not provide an export named '{name}'"))
    }
}

/// `InitializeEnvironment()`: checks re-exports, binds imports and runs
/// the instantiation code.
fn initialize_environment(vm: &mut Vm, module: ModuleId) -> JsResult<()> {
    let indirect = vm.module(module).indirect_exports.clone();
    for entry in &indirect {
        let result = resolve_export(vm, module, &entry.export_name, &mut Vec::new());
        if !matches!(result, ResolveResult::Found(_)) {
            let name = match &entry.import_name {
                ImportName::Name(n) => n.clone(),
                ImportName::Namespace => entry.export_name.clone(),
            };
            return Err(resolution_error(vm, module, entry.request, &name, result));
        }
    }
    let env = vm.module(module).env;
    let imports = vm.module(module).imports.clone();
    for entry in &imports {
        let Some(imported) = loaded(vm, module, entry.request) else { continue };
        let value = match &entry.import_name {
            ImportName::Namespace => Value::object(super::namespace::get_module_namespace(vm, imported)),
            ImportName::Name(name) => match resolve_export(vm, imported, name, &mut Vec::new()) {
                ResolveResult::Found(Resolution::Namespace(target)) => {
                    Value::object(super::namespace::get_module_namespace(vm, target))
                }
                ResolveResult::Found(Resolution::Binding { module: target, slot }) => {
                    let target_env = vm.module(target).env;
                    Value::internal(vm.heap.alloc(ImportBinding { env: target_env, slot }).into())
                }
                result => return Err(resolution_error(vm, module, entry.request, name, result)),
            },
        };
        env.borrow_mut(&mut vm.heap).slots[entry.slot as usize] = value;
    }
    let Some(init) = vm.module(module).code.as_ref().map(|c| c.init) else { return Ok(()) };
    crate::interpreter::run_eval(vm, init, Some(env), Value::UNDEFINED)?;
    Ok(())
}
