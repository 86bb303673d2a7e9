//! Node's CommonJS module system: `Module` objects and `require.cache`,
//! the module wrapper (`exports, require, module, __filename,
//! __dirname`), `require` with `resolve`/`resolve.paths`, JSON files,
//! `require()` of ES modules without top-level await (as Node 20.19+),
//! `module.createRequire`, and the CommonJS side of ES module interop
//! (a CommonJS file imported by an ES module). Resolution itself is
//! [`crate::module::node_resolution`].

pub(crate) mod lexer;
mod require;

use std::collections::HashSet;
use std::path::Path;

use js_gc::Gc;

use crate::builtins::error::ErrorKind;
use crate::module::node_resolution::{Format, ResolveError, Resolved, Resolver};
use crate::module::{ModuleId, ModuleStatus};
use crate::object::JsObject;
use crate::object::internal_methods::{create_data_property_or_throw, get, get_own_property, set};
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

pub(crate) use require::install;

/// The Rust side of the CommonJS loader.
#[derive(Debug)]
pub(crate) struct CommonJsState {
    /// The resolver `require` uses (its own package.json cache).
    pub(crate) resolver: Resolver,
    /// The file each module was first required from (Node's
    /// `moduleParentCache`), for `requireStack`.
    parents: std::collections::HashMap<String, String>,
}

impl Default for CommonJsState {
    fn default() -> Self {
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        Self {
            resolver: Resolver::new(crate::module::builtin::BUILTINS, home.as_deref()),
            parents: std::collections::HashMap::default(),
        }
    }
}

/// Reads `name` of `o` (an ordinary property read; user code may run).
fn get_named(vm: &mut Vm, o: Gc<JsObject>, name: &str) -> JsResult<Value> {
    let key = vm.key(name);
    get(vm, o, key, Value::object(o))
}

/// Writes `name` of `o` as an assignment would.
fn set_named(vm: &mut Vm, o: Gc<JsObject>, name: &str, value: Value) -> JsResult<()> {
    let key = vm.key(name);
    set(vm, o, key, value, Value::object(o)).map(drop)
}

/// The `filename` of a module object, if it is a string.
fn module_filename(vm: &mut Vm, module: Gc<JsObject>) -> JsResult<Option<String>> {
    let filename = get_named(vm, module, "filename")?;
    if filename.is_string() { vm.rust_string(filename).map(Some) } else { Ok(None) }
}

/// An error with Node's `code` (and `requireStack` for `require`'s
/// `MODULE_NOT_FOUND`), of the kind Node throws.
pub(crate) fn resolve_error(vm: &mut Vm, error: &ResolveError) -> Exception {
    let kind = if error.code.is_type_error() { ErrorKind::Type } else { ErrorKind::Error };
    let stack = error.require_stack.clone();
    coded_error(vm, kind, &error.message, error.code.as_str(), stack.as_deref())
}

/// A new error object of `kind` with an enumerable `code` property.
pub(crate) fn coded_error(
    vm: &mut Vm,
    kind: ErrorKind,
    message: &str,
    code: &str,
    require_stack: Option<&[String]>,
) -> Exception {
    let e = vm.throw_error(kind, message);
    if let Exception::Throw(v) = e
        && let Some(o) = v.as_object()
    {
        // The error is rooted while its properties are made.
        let mark = vm.stack.temp_roots.len();
        vm.stack.temp_roots.push(v);
        let code_value = vm.string(code);
        let key = vm.key("code");
        let _ = create_data_property_or_throw(vm, o, key, code_value);
        if let Some(stack) = require_stack {
            let items: Vec<Value> = stack.iter().map(|s| vm.string(s)).collect();
            let array = crate::object::internal_methods::array_create(vm, &items);
            let key = vm.key("requireStack");
            let _ = create_data_property_or_throw(vm, o, key, Value::object(array));
        }
        vm.stack.temp_roots.truncate(mark);
    }
    e
}

/// The chain of requiring files from `parent` up (Node's
/// `requireStack`), following the file each module was first required
/// from.
fn require_stack(vm: &Vm, parent: Option<&str>) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut cursor = parent.map(str::to_owned);
    while let Some(file) = cursor {
        if stack.contains(&file) {
            break;
        }
        cursor = vm.runtime.commonjs.parents.get(&file).cloned();
        stack.push(file);
    }
    stack
}

/// The object `require` gives for a built-in module.
fn builtin_exports(vm: &mut Vm, name: &str) -> Value {
    match name {
        "process" => vm.runtime.host_objects.process.map_or(Value::UNDEFINED, Value::object),
        "module" => vm.runtime.host_objects.module_constructor.map_or(Value::UNDEFINED, Value::object),
        _ => crate::host::async_local_storage::async_hooks_module(vm),
    }
}

/// `Module._load(request, parent, isMain)`: the exports of the module
/// `request` names from `parent`.
pub(crate) fn load(vm: &mut Vm, request: &str, parent: Option<Gc<JsObject>>, is_main: bool) -> JsResult<Value> {
    if let Some(name) = request.strip_prefix("node:")
        && vm.runtime.commonjs.resolver.builtin(name).is_none()
    {
        let message = format!("No such built-in module: {request}");
        return Err(coded_error(vm, ErrorKind::Error, &message, "ERR_UNKNOWN_BUILTIN_MODULE", None));
    }
    let filename = match resolve_filename(vm, request, parent)? {
        Resolved::Builtin(name) => return Ok(builtin_exports(vm, name)),
        Resolved::File(path) => path.to_string_lossy().into_owned(),
    };
    let cache = require::cache(vm);
    let filename_key = vm.key(&filename);
    let cached = get(vm, cache, filename_key, Value::object(cache))?;
    if let Some(module) = cached.as_object() {
        if let Some(p) = parent {
            require::add_child(vm, p, module, true)?;
        }
        return get_named(vm, module, "exports");
    }
    let mark = vm.stack.temp_roots.len();
    let module = require::new_module(vm, &filename, parent)?;
    vm.stack.temp_roots.push(Value::object(module));
    if let Some(p) = parent
        && let Some(parent_file) = module_filename(vm, p)?
    {
        vm.runtime.commonjs.parents.entry(filename.clone()).or_insert(parent_file);
    }
    if is_main {
        let id = vm.string(".");
        set_named(vm, module, "id", id)?;
        vm.runtime.host_objects.main_module = Some(module);
        if let Some(process) = vm.runtime.host_objects.process {
            let key = vm.key("mainModule");
            create_data_property_or_throw(vm, process, key, Value::object(module))?;
        }
    }
    create_data_property_or_throw(vm, cache, filename_key, Value::object(module))?;
    let loaded = load_file(vm, module, &filename);
    let result = match loaded {
        Ok(()) => get_named(vm, module, "exports"),
        Err(e) => {
            // A module that threw is forgotten, so a later require runs it
            // again.
            let key = vm.key(&filename);
            let _ = crate::object::internal_methods::delete(vm, cache, key);
            if let Some(p) = parent {
                require::remove_child(vm, p, module)?;
            }
            Err(e)
        }
    };
    vm.stack.temp_roots.truncate(mark);
    result
}

/// `Module._resolveFilename` with `parent`'s file and require stack.
fn resolve_filename(vm: &mut Vm, request: &str, parent: Option<Gc<JsObject>>) -> JsResult<Resolved> {
    let parent_file = match parent {
        Some(p) => module_filename(vm, p)?,
        None => None,
    };
    let stack = require_stack(vm, parent_file.as_deref());
    let resolved = vm.runtime.commonjs.resolver.resolve_require(request, parent_file.as_deref().map(Path::new), &stack);
    resolved.map_err(|e| resolve_error(vm, &e))
}

/// `Module.prototype.load(filename)`: runs the file as its format says
/// and marks the module loaded.
fn load_file(vm: &mut Vm, module: Gc<JsObject>, filename: &str) -> JsResult<()> {
    let filename_value = vm.string(filename);
    set_named(vm, module, "filename", filename_value)?;
    let dir = Path::new(filename).parent().unwrap_or(Path::new("/"));
    let paths = require::paths_array(vm, &crate::module::node_resolution::node_module_paths(dir));
    set_named(vm, module, "paths", Value::object(paths))?;
    let path = Path::new(filename);
    match vm.runtime.commonjs.resolver.require_format(path) {
        Format::Json => {
            let text = read_source(vm, filename)?;
            let value = match crate::builtins::json::parse_text(vm, &text) {
                Ok(v) => v,
                Err(e) => return Err(prefix_message(vm, e, filename)),
            };
            set_named(vm, module, "exports", value)?;
        }
        Format::Module => {
            let namespace = require_es_module(vm, filename)?;
            set_named(vm, module, "exports", namespace)?;
        }
        Format::CommonJs if path.extension().is_some_and(|e| e == "node") => {
            let message = format!("Cannot load native addon {filename}: jsvm runs JavaScript only");
            return Err(coded_error(vm, ErrorKind::Error, &message, "ERR_DLOPEN_FAILED", None));
        }
        Format::CommonJs => {
            let text = read_source(vm, filename)?;
            compile_and_run(vm, module, filename, &text)?;
        }
    }
    let t = Value::boolean(true);
    set_named(vm, module, "loaded", t)
}

/// `filename: message` for a JSON file that did not parse, as Node says.
fn prefix_message(vm: &mut Vm, e: Exception, filename: &str) -> Exception {
    if let Exception::Throw(v) = e
        && let Some(o) = v.as_object()
        && let Ok(message) = get_named(vm, o, "message")
        && let Ok(text) = vm.rust_string(message)
    {
        let prefixed = vm.string(&format!("{filename}: {text}"));
        let key = vm.key("message");
        let _ = set(vm, o, key, prefixed, v);
    }
    e
}

/// The text of a module file.
fn read_source(vm: &mut Vm, filename: &str) -> JsResult<String> {
    std::fs::read_to_string(filename).map_err(|e| {
        let message = format!("Cannot read module '{filename}': {e}");
        vm.throw_error(ErrorKind::Error, &message)
    })
}

/// `Module.prototype._compile`: the module wrapper, called with
/// `this` = `module.exports`.
fn compile_and_run(vm: &mut Vm, module: Gc<JsObject>, filename: &str, text: &str) -> JsResult<()> {
    let (code, source) = match crate::compiler::compile_commonjs(vm, filename, text) {
        Ok(c) => c,
        Err(err) => {
            let source = std::rc::Rc::new(crate::bytecode::Source::new(filename, text));
            return Err(vm.compile_error_in(&err, &source));
        }
    };
    drop(source);
    let wrapper = vm.run_script(code)?;
    let mark = vm.stack.temp_roots.len();
    vm.stack.temp_roots.push(wrapper);
    let result = (|| {
        let exports = get_named(vm, module, "exports")?;
        vm.stack.temp_roots.push(exports);
        let require = require::make_require_function(vm, module);
        vm.stack.temp_roots.push(Value::object(require));
        let filename_value = vm.string(filename);
        vm.stack.temp_roots.push(filename_value);
        let dirname = Path::new(filename).parent().map_or_else(|| filename.to_owned(), |d| d.display().to_string());
        let dirname_value = vm.string(&dirname);
        vm.stack.temp_roots.push(dirname_value);
        let args = [exports, Value::object(require), Value::object(module), filename_value, dirname_value];
        crate::object::internal_methods::call(vm, wrapper, exports, &args)
    })();
    vm.stack.temp_roots.truncate(mark);
    result.map(drop)
}

/// `require()` of an ES module (Node 20.19+): loads, links and evaluates
/// its graph at once; a graph with top-level await cannot be required.
fn require_es_module(vm: &mut Vm, filename: &str) -> JsResult<Value> {
    let request = crate::compiler::ModuleRequest { specifier: filename.to_owned(), module_type: None };
    let referrer = crate::bytecode::ScriptOrModule::Script(filename.to_owned());
    let id = vm.load_module_graph(&request, Some(&referrer)).map_err(|(_, e)| e)?;
    crate::module::link::link(vm, id)?;
    let promise = crate::module::evaluate::evaluate(vm, id)?;
    let record = vm.module(id);
    if record.async_evaluation || record.status == ModuleStatus::EvaluatingAsync {
        let message = "require() cannot be used on an ESM graph with top-level await. Use import() instead. To see \
                       where the top-level await comes from, use --experimental-print-required-tla.";
        return Err(coded_error(vm, ErrorKind::Error, message, "ERR_REQUIRE_ASYNC_MODULE", None));
    }
    if let Some(error) = record.evaluation_error {
        // The rejection is handled here: it is thrown to the caller.
        use js_promise::PromiseHost as _;
        let mut host = vm.host();
        if !host.promise_state(promise).is_handled() {
            host.promise_rejection_tracker(promise, js_promise::RejectionOperation::Handle);
        }
        host.promise_state(promise).mark_handled();
        return Err(Exception::Throw(error));
    }
    Ok(Value::object(crate::module::namespace::get_module_namespace(vm, id)))
}

/// The names a CommonJS file exports to an importing ES module: what the
/// lexer finds in it and, through re-exports, in the files it names.
fn cjs_export_names(vm: &mut Vm, filename: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let mut work = vec![filename.to_owned()];
    while let Some(file) = work.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let found = lexer::scan(&text);
        for name in found.names {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        for specifier in found.reexports {
            let resolved = vm.runtime.commonjs.resolver.resolve_require(&specifier, Some(Path::new(&file)), &[]);
            if let Ok(Resolved::File(path)) = resolved
                && vm.runtime.commonjs.resolver.require_format(&path) == Format::CommonJs
            {
                work.push(path.to_string_lossy().into_owned());
            }
        }
    }
    names
}

/// The module record of a CommonJS file imported by an ES module: its
/// exports are `default` and the names the lexer finds; the file runs
/// when the record is evaluated ([`evaluate_import`]).
pub(crate) fn esm_record(vm: &mut Vm, filename: &str) -> ModuleId {
    let mut names = vec!["default".to_owned()];
    names.extend(cjs_export_names(vm, filename).into_iter().filter(|n| n != "default"));
    let exports: Vec<(&str, Value)> = names.iter().map(|n| (n.as_str(), Value::UNDEFINED)).collect();
    let id = vm.add_synthetic_module(filename, &exports);
    let record = vm.module_mut(id);
    record.status = ModuleStatus::Linked;
    record.commonjs = true;
    id
}

/// Evaluates the CommonJS record `id`: runs the file through the
/// `require` cache (unless it ran already) and copies `module.exports`
/// and its own named properties into the record's bindings.
pub(crate) fn evaluate_import(vm: &mut Vm, id: ModuleId) -> JsResult<()> {
    let filename = vm.module(id).key.clone();
    let cache = require::cache(vm);
    let key = vm.key(&filename);
    let cached = get(vm, cache, key, Value::object(cache))?;
    let mark = vm.stack.temp_roots.len();
    let module = if let Some(m) = cached.as_object() {
        m
    } else {
        let m = require::new_module(vm, &filename, None)?;
        create_data_property_or_throw(vm, cache, key, Value::object(m))?;
        m
    };
    vm.stack.temp_roots.push(Value::object(module));
    let result = (|| {
        let loaded = get_named(vm, module, "loaded")?;
        if !crate::abstract_ops::to_boolean(vm, loaded)
            && let Err(e) = load_file(vm, module, &filename)
        {
            let key = vm.key(&filename);
            let _ = crate::object::internal_methods::delete(vm, cache, key);
            return Err(e);
        }
        let exports = get_named(vm, module, "exports")?;
        vm.stack.temp_roots.push(exports);
        let names: Vec<(String, u32)> = vm.module(id).local_exports.clone();
        for (name, slot) in names {
            let value = if name == "default" {
                exports
            } else if let Some(o) = exports.as_object() {
                let key = vm.key(&name);
                if get_own_property(vm, o, key)?.is_some() {
                    get(vm, o, key, exports).unwrap_or(Value::UNDEFINED)
                } else {
                    Value::UNDEFINED
                }
            } else {
                Value::UNDEFINED
            };
            let env = vm.module(id).env;
            env.borrow_mut(&mut vm.heap).slots[slot as usize] = value;
        }
        Ok(())
    })();
    vm.stack.temp_roots.truncate(mark);
    let record = vm.module_mut(id);
    record.status = ModuleStatus::Evaluated;
    if let Err(Exception::Throw(e)) = &result {
        record.evaluation_error = Some(*e);
    }
    result
}

impl Vm {
    /// Runs `file` (an absolute path) as Node runs a CommonJS main module:
    /// `require.main`, `process.mainModule`, `module.id === "."`. Jobs
    /// it queues are left for the event loop.
    ///
    /// # Errors
    ///
    /// What the module throws, or the resolution error for a file that
    /// cannot be found.
    pub fn run_commonjs_main(&mut self, file: &str) -> Result<(), crate::JsError> {
        let result = load(self, file, None, true);
        result.map(drop).map_err(|e| self.js_error(e))
    }
}
